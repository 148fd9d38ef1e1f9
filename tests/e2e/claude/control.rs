//! The control cells: what the real client does with `seq 1 20000` in each permission mode and
//! with each kind of rule, without ctxoff, and what today's hook does to the same command.

use serde_json::{Value, json};

use super::{Claude, Transcript, parallelism, run_parallel};

const COMMAND: &str = "seq 1 20000";

/// The rules of a control cell, where they come from, and what the client does with `seq`.
struct Rules {
    name: &'static str,
    project: Option<Value>,
    args: Vec<String>,
    runs: bool,
}

fn rules() -> Vec<Rules> {
    let project = |key: &str| Some(json!({"permissions": {key: ["Bash(seq:*)"]}}));
    vec![
        Rules {
            name: "no rule",
            project: None,
            args: vec![],
            runs: true,
        },
        Rules {
            name: "allow Bash(seq:*)",
            project: project("allow"),
            args: vec![],
            runs: true,
        },
        Rules {
            name: "deny Bash(seq:*)",
            project: project("deny"),
            args: vec![],
            runs: false,
        },
        Rules {
            name: "ask Bash(seq:*)",
            project: project("ask"),
            args: vec![],
            runs: false,
        },
        Rules {
            name: "--disallowedTools Bash(seq:*)",
            project: None,
            args: vec!["--disallowedTools".into(), "Bash(seq:*)".into()],
            runs: false,
        },
    ]
}

const MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "dontAsk",
    "bypassPermissions",
    "plan",
];

/// The client's own handling of a large successful output: saved to a file, the model gets a
/// `<persisted-output>` note with a 2 KB head.
fn is_client_persisted(content: &str) -> bool {
    content.starts_with("<persisted-output>\nOutput too large (")
        && content.contains("Full output saved to: <home>/.claude/projects/")
        && content.contains("Preview (first 2KB):\n1\n2\n3\n")
        && !content.contains("\n20000")
}

#[test]
fn without_ctxoff_seq_runs_unless_a_rule_stops_it_in_every_mode() {
    if !crate::enabled("claude") {
        return;
    }
    let cells: Vec<(&str, Rules)> = MODES
        .iter()
        .flat_map(|mode| rules().into_iter().map(move |r| (*mode, r)))
        .collect();
    let jobs = cells
        .iter()
        .map(|(mode, rules)| {
            move || {
                let mut run = Claude::new(mode, &[COMMAND]);
                run.project = rules.project.clone();
                run.args = rules.args.clone();
                run.run()
            }
        })
        .collect();
    let transcripts: Vec<Transcript> = run_parallel(jobs, parallelism());
    let mut wrong = Vec::new();
    for ((mode, rules), transcript) in cells.iter().zip(&transcripts) {
        let call = &transcript.calls[0];
        let content = transcript.sanitize(call.content.as_deref().unwrap_or("(no result)"));
        let as_expected = match rules.runs {
            true => !call.denied && is_client_persisted(&content),
            false => call.denied && call.is_error && !content.contains("\n20000"),
        };
        if !as_expected {
            wrong.push(format!(
                "{mode} × {}: denied={} {content:.300}\nstderr: {:.300}",
                rules.name, call.denied, transcript.stderr
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn todays_hook_makes_an_allowed_command_need_approval() {
    if !crate::enabled("claude") {
        return;
    }
    let ctxoff = std::path::Path::new(env!("CARGO_BIN_EXE_ctxoff"));
    let mut run = Claude::new("default", &[COMMAND]);
    run.project = Some(json!({
        "permissions": {"allow": ["Bash(seq:*)"]},
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": format!("{} hook claude", ctxoff.display())}
        ]}]}
    }));
    // The hook rewrites to a bare `ctxoff`: it must be on PATH.
    let path = std::env::join_paths(
        std::iter::once(ctxoff.parent().unwrap().to_path_buf()).chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    run.env = vec![("PATH".into(), path.to_string_lossy().into_owned())];
    let transcript = run.run();
    let call = &transcript.calls[0];
    assert!(call.denied, "{call:?}");
    assert_eq!(
        call.content.as_deref(),
        Some("This command requires approval"),
        "{call:?}"
    );
    let denial = &transcript.result["permission_denials"][0]["tool_input"]["command"];
    assert!(
        denial.as_str().is_some_and(
            |c| c.starts_with("CTXOFF_SESSION=") && c.ends_with(" ctxoff -- seq 1 20000")
        ),
        "the rewritten command is what was refused: {denial}"
    );
}
