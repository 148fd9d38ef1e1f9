//! Gemini CLI with ctxoff installed by `ctxoff init gemini`, against the same client without it.
//! The client runs headless (`-p`), where it offers its shell tool only in YOLO mode, and is
//! left to relaunch itself as it does for its users. The "model" runs `make` (20,000 lines),
//! `make test` (the same, then fails) and a compound command.
//!
//! Expected: the rewritten commands' summaries reach the model, with the exit status; a large
//! output of a command that was not rewritten but succeeded is replaced after the fact (the
//! client then runs ctxoff's summary as a follow-up call whose result the model gets as a plain
//! successful run); where a rule decides, the model gets what it gets without ctxoff.

use regex::Regex;
use serde_json::{Value, json};

use crate::ctxoff;
use crate::gemini::{Gemini, output};

/// A set-up whose model runs `commands` in a project with the Makefile; `configure` writes its
/// settings and policies; ctxoff is installed last (it merges into the settings) when
/// `installed`.
fn setup(commands: &[&str], installed: bool, configure: &dyn Fn(&mut Gemini)) -> Gemini {
    let mut gemini = Gemini::new(commands);
    gemini.relaunch = true;
    ctxoff::makefile(&gemini.root().join("project"));
    configure(&mut gemini);
    if installed {
        let home = gemini.root().join("home");
        let out = ctxoff::init(&["gemini"], gemini.root(), &[("HOME", &home)]);
        assert!(out.contains("settings.json"), "{out}");
        gemini.scratch = Some(gemini.root().join("scratch"));
    }
    gemini
}

/// What reached the model, without what differs on every run (process groups, saved files, and
/// so the number of characters the client cut: a PGID of one more digit is one more character).
fn comparable(responses: &[Value]) -> String {
    let text = Value::from(responses.to_vec()).to_string();
    let pgid = Regex::new(r"Process Group PGID: \d+").unwrap();
    let saved = Regex::new(r"For full output see: [^\\]+").unwrap();
    let cut = Regex::new(r"\[[\d,]+ characters omitted\]").unwrap();
    let text = pgid.replace_all(&text, "Process Group PGID: N");
    let text = cut.replace_all(&text, "[N characters omitted]");
    saved
        .replace_all(&text, "For full output see: FILE")
        .into_owned()
}

#[test]
fn summaries_reach_the_model_in_a_headless_yolo_run() {
    if !crate::enabled("gemini") {
        return;
    }
    let gemini = setup(&["make", "make test", "make && true"], true, &|_| {});
    let responses = gemini.run("yolo");
    assert_eq!(responses.len(), 3, "{responses:?}");
    let scratch = gemini.scratch.clone().unwrap();
    let session = ctxoff::only_session(gemini.scratch.as_deref().unwrap());
    let rewritten = output(&responses[0]);
    ctxoff::assert_summary(rewritten, "make", 0, &scratch, &session);
    assert!(
        rewritten
            .ends_with("[System] Tool input parameters were modified by a hook before execution."),
        "{rewritten:.300}"
    );
    let failed = output(&responses[1]);
    ctxoff::assert_summary(failed, "make test", 2, &scratch, &session);
    assert!(
        failed.contains("\nExit Code: 2\n"),
        "the client's own exit line"
    );
    // Not rewritten (a list of commands), replaced after the fact: a plain successful result.
    let replaced = output(&responses[2]);
    let summary =
        ctxoff::summary(replaced).unwrap_or_else(|| panic!("no summary: {replaced:.500}"));
    assert!(
        summary.starts_with("[ctxoff] `make && true` ended · 20,000 lines")
            && summary
                .contains("\n[ctxoff] note: saved from Gemini CLI's result, not run by ctxoff"),
        "{summary:.400}"
    );
    assert!(!replaced.contains("[System]") && !replaced.contains("Exit Code"));
    assert!(responses[2].get("error").is_none());
    for (n, response) in responses.iter().enumerate() {
        eprintln!(
            "gemini, yolo, call {n}: {} characters reached the model",
            output(response).len()
        );
    }
}

/// Rules on the command: each stops it exactly as without ctxoff. Only a successful run's output
/// is replaced afterwards, and only where the client would run the summary's own command.
#[test]
fn rules_decide_as_without_ctxoff() {
    if !crate::enabled("gemini") {
        return;
    }
    let policy = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make test\"\n\
                  decision = \"deny\"\npriority = 100\n\
                  [[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make check\"\n\
                  decision = \"ask_user\"\npriority = 100\n\
                  [[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"make all\"\n\
                  decision = \"allow\"\npriority = 100\n";
    let policies = |g: &mut Gemini| g.user_policy("mine.toml", policy);
    let narrowed = |g: &mut Gemini| g.set("tools", json!({"allowed": ["run_shell_command(make)"]}));
    type Configure = fn(&mut Gemini);
    /// A setting's name, the commands the model runs, the approval mode, and the setting.
    type Setup<'a> = (&'a str, &'a [&'a str], &'a str, &'a dyn Fn(&mut Gemini));
    let setups: [Setup; 3] = [
        (
            "policy rules",
            &["make test", "make check", "make all"],
            "yolo",
            &policies,
        ),
        ("tools.allowed", &["make", "seq 1 3"], "yolo", &narrowed),
        (
            "default mode",
            &["make"],
            "default",
            &((|_| {}) as Configure),
        ),
    ];
    for (name, commands, mode, configure) in setups {
        let runs: Vec<Vec<Value>> = [false, true]
            .into_iter()
            .map(|installed| setup(commands, installed, configure).run(mode))
            .collect();
        if name == "policy rules" {
            // Denied and asked as without ctxoff; the allowed run succeeded, and its output was
            // replaced after the fact.
            assert_eq!(
                comparable(&runs[0][..2]),
                comparable(&runs[1][..2]),
                "{name}"
            );
            assert_eq!(
                runs[1][0],
                json!({"error": "Tool execution denied by policy."})
            );
            let allowed = output(&runs[1][2]);
            assert!(
                allowed.contains("[ctxoff] `make all` ended · 20,000 lines"),
                "{allowed:.300}"
            );
        } else {
            assert_eq!(comparable(&runs[0]), comparable(&runs[1]), "{name}");
        }
        eprintln!("gemini, {name}: {:.200}", comparable(&runs[1]));
    }
}
