//! ctxoff's hooks inside the real client, in every permission mode, against every kind of rule:
//! modes × rules (none, allow, deny, ask, a deny by `--disallowedTools`) × commands (a read-only
//! command the client runs on its own, one that is also on ctxoff's wrap list, a pipeline, a
//! failing build), each run once without ctxoff (the control) and once with the hooks installed by
//! `ctxoff init claude`. Expected, per cell:
//!
//! - with the hooks, a command runs, or is stopped with the same message, exactly as in the
//!   control: never a new prompt or denial, never a rule bypassed;
//! - where the hook may rewrite (an allow rule, or bypassPermissions) the ctxoff summary of the
//!   run reaches the model; for the failing build, with its exit status;
//! - where a command ran without a rewrite and succeeded with a large output, the summary made by
//!   the PostToolUse hook reaches the model instead of the client's 2 KB head;
//! - in plan mode and for a failing command the hook did not rewrite, the model gets exactly what
//!   the control got.
//!
//! The whole matrix runs once (clients in parallel) and each test judges one property of it.
//! `CTXOFF_E2E=1 cargo test --test e2e claude::matrix -- --nocapture` prints the table.

use std::sync::OnceLock;

use serde_json::json;

use super::{Claude, parallelism, run_parallel};

const MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "dontAsk",
    "bypassPermissions",
    "plan",
];

const RULES: &[&str] = &["none", "allow", "deny", "ask", "--disallowedTools"];

/// A read-only command the client runs on its own, and not on ctxoff's wrap list.
const SEQ: &str = "seq 1 20000";
/// A read-only command the client runs on its own, on ctxoff's wrap list.
const GREP: &str = "grep -n request server.log";
const PIPELINE: &str = "seq 1 20000 | grep 7";
/// A build that prints 3,000 warnings and fails with exit status 2.
const MAKE: &str = "make";
const COMMANDS: &[&str] = &[SEQ, GREP, PIPELINE, MAKE];

/// The programs the rules name.
const PATTERNS: &[&str] = &["Bash(seq:*)", "Bash(grep:*)", "Bash(make:*)"];

const MAKEFILE: &str = "all:\n\
    \t@for i in $$(seq 1 3000); do echo \"src/mod$$i.c:$$i:5: warning: unused variable 'x$$i' [-Wunused-variable]\"; done\n\
    \t@echo \"src/main.c:42:7: error: expected ';' before '}' token\" >&2\n\
    \t@exit 2\n";

/// What the model got for one command.
#[derive(Debug, Clone)]
struct Outcome {
    denied: bool,
    is_error: bool,
    /// With the run's directories, ids and session names replaced by placeholders.
    content: String,
    /// The client's stderr, for a failure's message.
    stderr: String,
}

/// One cell: a mode and a set of rules, without and with ctxoff's hooks, for each command.
struct Cell {
    mode: &'static str,
    rules: &'static str,
    control: Vec<Outcome>,
    hooked: Vec<Outcome>,
}

fn run_of(mode: &str, rules: &str, hooked: bool) -> Claude {
    let mut run = Claude::new(mode, COMMANDS);
    if matches!(rules, "allow" | "deny" | "ask") {
        run.project = Some(json!({"permissions": {rules: PATTERNS}}));
    }
    if rules == "--disallowedTools" {
        run.args = vec![rules.into(), PATTERNS.join(",")];
    }
    let log: String = (1..=20_000)
        .map(|i| {
            format!(
                "2026-01-01T00:00:{:02} INFO request {i} served in {}ms\n",
                i % 60,
                i % 97
            )
        })
        .collect();
    run.files = vec![
        ("server.log".into(), log),
        ("Makefile".into(), MAKEFILE.into()),
    ];
    run.ctxoff = hooked;
    run
}

/// The matrix, run once for every test of this module.
fn matrix() -> &'static [Cell] {
    static MATRIX: OnceLock<Vec<Cell>> = OnceLock::new();
    MATRIX.get_or_init(|| {
        // In plan mode, rules that stop a command stop it as in every other mode.
        let cells: Vec<(&str, &str, bool)> = MODES
            .iter()
            .flat_map(|m| RULES.iter().map(move |r| (*m, *r)))
            .filter(|(m, r)| *m != "plan" || matches!(*r, "none" | "allow"))
            .flat_map(|(m, r)| [(m, r, false), (m, r, true)])
            .collect();
        let jobs = cells
            .iter()
            .map(|&(mode, rules, hooked)| move || outcomes(&run_of(mode, rules, hooked)))
            .collect();
        let mut results = run_parallel(jobs, parallelism()).into_iter();
        let matrix: Vec<Cell> = cells
            .chunks(2)
            .map(|pair| Cell {
                mode: pair[0].0,
                rules: pair[0].1,
                control: results.next().unwrap(),
                hooked: results.next().unwrap(),
            })
            .collect();
        eprintln!("{}", table(&matrix));
        matrix
    })
}

fn outcomes(run: &Claude) -> Vec<Outcome> {
    let transcript = run.run();
    let uuid = regex::Regex::new(
        "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|tool-results/[A-Za-z0-9_-]+",
    )
    .unwrap();
    // ctxoff names the session by the session id's last 8 hex digits.
    let session = regex::Regex::new("scratch/[0-9a-f]{8}/").unwrap();
    transcript
        .calls
        .iter()
        .map(|call| {
            let content = transcript.sanitize(call.content.as_deref().unwrap_or("(no result)"));
            Outcome {
                denied: call.denied,
                is_error: call.is_error,
                content: session
                    .replace_all(&uuid.replace_all(&content, "<id>"), "scratch/<id>/")
                    .into_owned(),
                stderr: transcript.stderr.clone(),
            }
        })
        .collect()
}

/// How an outcome reads in the table.
fn short(o: &Outcome) -> &'static str {
    let c = &o.content;
    if o.denied {
        "denied"
    } else if c.starts_with("<persisted-output>") {
        "ran: client's 2 KB head"
    } else if c.starts_with("Exit code 2\n[ctxoff]") {
        "ran: ctxoff summary, exit 2"
    } else if c.starts_with("Exit code 2") {
        "ran: client's first 10,000 chars, exit 2"
    } else if c.starts_with("[ctxoff]") && c.contains("\n[ctxoff] note: saved from Claude Code") {
        "ran: summary after the fact"
    } else if c.starts_with("[ctxoff]") {
        "ran: ctxoff summary, exit 0"
    } else {
        "ran: other"
    }
}

/// The measured matrix as a Markdown table, one row per mode and rules, one column per command.
fn table(matrix: &[Cell]) -> String {
    let mut out = format!(
        "Claude Code {} (without ctxoff → with ctxoff's hooks)\n\n| mode | rules |",
        super::VERSION
    );
    for command in COMMANDS {
        out.push_str(&format!(" `{command}` |"));
    }
    out.push_str("\n|---|---|");
    out.push_str(&"---|".repeat(COMMANDS.len()));
    for cell in matrix {
        out.push_str(&format!("\n| {} | {} |", cell.mode, cell.rules));
        for (control, hooked) in cell.control.iter().zip(&cell.hooked) {
            let (c, h) = (short(control), short(hooked));
            match c == h {
                true => out.push_str(&format!(" {c} |")),
                false => out.push_str(&format!(" {c} → **{h}** |")),
            }
        }
    }
    out
}

/// Every cell where `check` finds something wrong, for one assertion message.
fn wrong(check: impl Fn(&Cell, usize) -> Option<String>) -> Vec<String> {
    let mut found = Vec::new();
    for cell in matrix() {
        for (i, command) in COMMANDS.iter().enumerate() {
            if let Some(problem) = check(cell, i) {
                let (c, h) = (&cell.control[i], &cell.hooked[i]);
                found.push(format!(
                    "{} × {} × `{command}`: {problem}\n  control: {:.300}\n  hooked:  {:.300}\n  \
                     stderr: {:.300}",
                    cell.mode, cell.rules, c.content, h.content, h.stderr
                ));
            }
        }
    }
    found
}

fn stops(rules: &str) -> bool {
    matches!(rules, "deny" | "ask" | "--disallowedTools")
}

/// Whether the hook may rewrite `command` in the cell: it is on the wrap list, no rule stops it,
/// and an allow rule or the mode lets it run without asking (plan mode: never).
fn rewritable(cell: &Cell, command: &str) -> bool {
    matches!(command, GREP | MAKE)
        && cell.mode != "plan"
        && (cell.rules == "allow" || (cell.rules == "none" && cell.mode == "bypassPermissions"))
}

#[test]
fn without_ctxoff_the_client_decides_alone() {
    if !crate::enabled("claude") {
        return;
    }
    let seq = COMMANDS.iter().position(|c| *c == SEQ).unwrap();
    for cell in matrix().iter().filter(|c| !stops(c.rules)) {
        let content = &cell.control[seq].content;
        assert!(
            content.contains("Preview (first 2KB):\n1\n2\n3\n") && !content.contains("\n20000"),
            "{} × {}: {content:.500}",
            cell.mode,
            cell.rules
        );
    }
    let problems = wrong(|cell, i| {
        let c = &cell.control[i];
        let command = COMMANDS[i];
        if stops(cell.rules) {
            return (!c.denied).then(|| "a rule that stops it did not".into());
        }
        match command {
            // Read-only: the client runs it in every mode, with or without an allow rule, and
            // keeps a large output to itself: saved to a file, the model gets a 2 KB head.
            SEQ | GREP | PIPELINE => (c.denied
                || !c
                    .content
                    .starts_with("<persisted-output>\nOutput too large (")
                || !c
                    .content
                    .contains("Full output saved to: <home>/.claude/projects/")
                || !c.content.contains("Preview (first 2KB):\n"))
            .then(|| "expected the client's own 2 KB head".into()),
            _ => None,
        }
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Never a new prompt or denial, never a rule bypassed: with the hooks, every command runs or is
/// stopped as in the control, and a stopped one gets the control's very message.
#[test]
fn with_ctxoff_every_command_runs_or_is_stopped_as_without() {
    if !crate::enabled("claude") {
        return;
    }
    let problems = wrong(|cell, i| {
        let (c, h) = (&cell.control[i], &cell.hooked[i]);
        if c.denied != h.denied {
            return Some(format!(
                "denied {} without ctxoff, {} with",
                c.denied, h.denied
            ));
        }
        (c.denied && c.content != h.content).then(|| "a different denial".into())
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The opposite of what the hook did before it decided on the original command: an allow rule
/// (or bypassPermissions) keeps the command allowed, and ctxoff's summary reaches the model,
/// with the exit status of a failing build.
#[test]
fn an_allowed_command_stays_allowed_and_reaches_the_model_as_a_summary() {
    if !crate::enabled("claude") {
        return;
    }
    let problems = wrong(|cell, i| {
        let command = COMMANDS[i];
        if !rewritable(cell, command) {
            return None;
        }
        let h = &cell.hooked[i];
        let expected = match command {
            GREP => "[ctxoff] `grep -n request server.log` exited 0 · 20,000 lines · ".into(),
            _ => "Exit code 2\n[ctxoff] `make` exited 2 · 3,002 lines · ".to_string(),
        };
        if h.denied || !h.content.starts_with(&expected) {
            return Some(format!("expected ctxoff's summary: {expected:?}"));
        }
        let saved = h.content.contains("full output: <run>/scratch/<id>/")
            && h.content.lines().any(|line| {
                line.starts_with("[ctxoff] read more: ")
                    && line.contains("ctxoff lines <run>/scratch/<id>/")
            });
        (!saved).then(|| "the summary does not say where the output is".into())
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // The failing build's error line, at the end of 3,000 warnings, is in the summary: the
    // client's own handling keeps the first 10,000 characters only.
    let bypass = matrix()
        .iter()
        .find(|c| c.mode == "bypassPermissions" && c.rules == "none")
        .unwrap();
    let make = COMMANDS.iter().position(|c| *c == MAKE).unwrap();
    assert!(
        bypass.hooked[make]
            .content
            .contains("src/main.c:42:7: error: expected ';' before '}' token"),
        "{}",
        bypass.hooked[make].content
    );
    assert!(
        !bypass.control[make].content.contains("src/main.c:42:7"),
        "the control lost the error: {:.300}",
        bypass.control[make].content
    );
}

/// Large successful outputs of commands the hook did not rewrite (read-only commands the client
/// runs on its own, pipelines) are saved and summarised after the fact, saying what is not known
/// that way; in plan mode the hook stays out, and a failing command it did not rewrite reaches
/// the model as in the control.
#[test]
fn outputs_the_hook_did_not_rewrite_are_summarised_after_the_fact() {
    if !crate::enabled("claude") {
        return;
    }
    let problems = wrong(|cell, i| {
        let command = COMMANDS[i];
        let (c, h) = (&cell.control[i], &cell.hooked[i]);
        if h.denied || rewritable(cell, command) {
            return None;
        }
        if cell.mode == "plan" || c.is_error {
            return (c.content != h.content).then(|| "expected the control's output".into());
        }
        let header = format!("[ctxoff] `{command}` ended · ");
        let note = "\n[ctxoff] note: saved from Claude Code's result, not run by ctxoff: no exit \
                    status (the client counted it a success), stdout and stderr merged as the \
                    client gave them\n";
        (!h.content.starts_with(&header) || !h.content.contains(note))
            .then(|| "expected the summary made after the fact".into())
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A bad `CTXOFF_THRESHOLD` in the client's environment would make a rewritten command fail: the
/// hook leaves commands alone, and the client runs them as without ctxoff.
#[test]
fn a_bad_ctxoff_setting_never_blocks_a_command() {
    if !crate::enabled("claude") {
        return;
    }
    let mut run = run_of("default", "allow", true);
    run.env = vec![("CTXOFF_THRESHOLD".into(), "lots".into())];
    let outcomes = outcomes(&run);
    let control = &matrix()
        .iter()
        .find(|c| c.mode == "default" && c.rules == "allow")
        .unwrap()
        .control;
    for ((command, o), c) in COMMANDS.iter().zip(&outcomes).zip(control) {
        assert_eq!(
            (o.denied, short(o)),
            (c.denied, short(c)),
            "{command}: {:.300}",
            o.content
        );
    }
}
