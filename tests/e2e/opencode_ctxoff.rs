//! opencode with ctxoff's plugin installed by `ctxoff init opencode`, against the same client
//! without it. The "model" runs `make` (20,000 lines), `make test` (the same, then fails) and a
//! compound command.
//!
//! Expected: a command only the catch-all rule allows is rewritten and its summary (with the exit
//! status, which opencode otherwise never shows) reaches the model; a command some other rule
//! decides is left to the client, denied and asked exactly as without ctxoff. A large output of a
//! command that was not rewritten is replaced afterwards by its summary only where the client
//! passed it whole: the file it saves a cut output to can miss its start, so a cut output stays
//! as the client cut it.

use serde_json::{Value, json};

use crate::ctxoff;
use crate::opencode::{DENIED, Opencode};

fn setup(commands: &[&str], permission: Option<&Value>, installed: bool) -> Opencode {
    let mut opencode = Opencode::new(commands, permission);
    ctxoff::makefile(&opencode.root().join("project"));
    if installed {
        let home = opencode.root().join("home");
        let out = ctxoff::init(&["opencode"], opencode.root(), &[("HOME", &home)]);
        assert!(out.contains("ctxoff.ts"), "{out}");
        opencode.scratch = Some(opencode.root().join("scratch"));
    }
    opencode
}

/// Adds `agent` settings to the project's `opencode.json`.
fn with_agent_config(opencode: &Opencode, agent: Value) {
    let file = opencode.root().join("project/opencode.json");
    let mut config: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    config["agent"] = agent;
    std::fs::write(&file, config.to_string()).unwrap();
}

/// The part of a control result that does not change from run to run: a cut result's notice
/// without the saved file's name, and not the lines kept, which end where the client stopped
/// handling output (once the shell's exit status is in, which under load can be before it has
/// handled all of it; see `opencode::after_hook_sees_the_output_already_cut`).
fn comparable(result: &str) -> String {
    match result.split_once("\n\nFull output saved to: ") {
        Some((notice, _)) => format!("{notice}\n\nFull output saved to: FILE\n\n(lines kept)"),
        None => result.to_owned(),
    }
}

#[test]
fn summaries_reach_the_model() {
    if !crate::enabled("opencode") {
        return;
    }
    let opencode = setup(
        &["make", "make test", "make && true", "make wide && true"],
        None,
        true,
    );
    let run = opencode.run();
    assert_eq!(run.results.len(), 4, "{}", run.stderr);
    let scratch = opencode.scratch.clone().unwrap();
    let session = ctxoff::only_session(opencode.scratch.as_deref().unwrap());
    assert!(
        session.starts_with("ses_"),
        "the client's session id: {session}"
    );
    ctxoff::assert_summary(&run.results[0], "make", 0, &scratch, &session);
    ctxoff::assert_summary(&run.results[1], "make test", 2, &scratch, &session);
    // Not rewritten (a list), and cut by the client: left as the client cut it.
    assert!(
        run.results[2].starts_with("...output truncated...\n\nFull output saved to: "),
        "{:.300}",
        run.results[2]
    );
    // Not rewritten, not cut: replaced by the summary.
    let replaced = &run.results[3];
    assert!(
        replaced.starts_with("[ctxoff] `make wide && true` ended · 600 lines"),
        "{replaced:.300}"
    );
    assert!(
        replaced.contains("\n[ctxoff] note: saved from opencode's result, not run by ctxoff: "),
        "{replaced:.300}"
    );
    for (n, result) in run.results.iter().enumerate() {
        eprintln!(
            "opencode, call {n}: {} bytes reached the model",
            result.len()
        );
    }
}

/// Rules other than the catch-all: the client decides, as without ctxoff. An agent's own rules
/// (which only the client's API lists merged with the rest) count as much as the configuration's;
/// `ask` ends `opencode run`.
#[test]
fn rules_decide_as_without_ctxoff() {
    if !crate::enabled("opencode") {
        return;
    }
    let rules = json!({"bash": {"*": "allow", "make all": "allow"}});
    let agent_rule = json!({"build": {"permission": {"bash": {"make test": "deny"}}}});
    let ask = json!({"bash": {"*": "ask"}});
    type Case<'a> = (&'a str, &'a [&'a str], &'a Value, Option<&'a Value>);
    let cases: [Case; 2] = [
        (
            "rules",
            &["make test", "make all"],
            &rules,
            Some(&agent_rule),
        ),
        ("ask", &["make"], &ask, None),
    ];
    for (name, commands, permission, agent) in cases {
        let runs: Vec<crate::opencode::Run> = [false, true]
            .into_iter()
            .map(|installed| {
                let opencode = setup(commands, Some(permission), installed);
                if let Some(agent) = agent {
                    with_agent_config(&opencode, agent.clone());
                }
                opencode.run()
            })
            .collect();
        let results =
            |i: usize| -> Vec<String> { runs[i].results.iter().map(|r| comparable(r)).collect() };
        assert_eq!(results(0), results(1), "{name}");
        if name == "ask" {
            assert!(runs[1].results.is_empty());
            assert!(
                runs[1].stderr.contains("permission requested: bash (make)"),
                "{}",
                runs[1].stderr
            );
        } else {
            assert!(runs[1].results[0].starts_with(DENIED), "the agent's rule");
            assert!(
                runs[1].results[1].starts_with("...output truncated..."),
                "allowed by its own rule: the client's cut"
            );
        }
        let shown: Vec<&str> = runs[1]
            .results
            .iter()
            .map(|r| &r[..r.len().min(80)])
            .collect();
        eprintln!("opencode, {name}: {shown:?}");
    }
}
