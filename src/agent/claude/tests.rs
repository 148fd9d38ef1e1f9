use std::path::PathBuf;

use super::permissions::{Behavior, Rule, Rules, Source};
use super::*;

pub(crate) const SESSION: &str = "7f3c2a9e-5b1d-4e8f-9a2c-1d3e5f7a9b0c";
/// The ctxoff session the hook names after it.
const SESSION_NAME: &str = "5f7a9b0c";
const CTXOFF: &str = "/opt/ctxoff/bin/ctxoff";

/// A PreToolUse event as Claude Code sends it for a Bash call, in `default` mode.
pub(crate) fn event(command: &str) -> Value {
    json!({
        "session_id": SESSION,
        "transcript_path": "/home/ana/.claude/projects/-home-ana-proj/7f3c2a9e.jsonl",
        "cwd": "/home/ana/proj",
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {
            "command": command,
            "description": "Run the test suite",
            "timeout": 120000
        },
        "tool_use_id": "toolu_01ABCDEFGHJKLMNPQRSTUVWX"
    })
}

/// The recorded PostToolUse event of `seq 1 20000`, its output saved by the client at `saved`.
fn post_event(saved: &Path) -> Value {
    let fixture: Value = serde_json::from_str(include_str!(
        "../../../tests/fixtures/claude-code/events.json"
    ))
    .unwrap();
    let mut e = fixture["events"]["PostToolUse"].clone();
    e["session_id"] = json!(SESSION);
    e["permission_mode"] = json!("default");
    e["tool_response"]["persistedOutputPath"] = json!(saved);
    e
}

fn seq(n: u32) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

/// The hook's world: settings with a scratch root of its own, the project's rules, ctxoff's path.
struct World {
    dir: tempfile::TempDir,
    settings: Result<Settings, String>,
    rules: Result<Vec<(Behavior, &'static str)>, String>,
    ctxoff: Option<PathBuf>,
}

impl World {
    fn new(rules: &[(Behavior, &'static str)]) -> World {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings {
            keep: vec!["git diff*".into()],
            wrap: vec!["just test*".into()],
            ..Settings::at(dir.path().join("root"))
        };
        World {
            dir,
            settings: Ok(settings),
            rules: Ok(rules.to_vec()),
            ctxoff: Some(PathBuf::from(CTXOFF)),
        }
    }

    fn session_dir(&self) -> PathBuf {
        self.dir.path().join("root").join(SESSION_NAME)
    }

    fn with<T>(&self, f: impl FnOnce(&Hook) -> T) -> T {
        let rules = || {
            let list = self.rules.clone()?;
            let mut rules = Rules::default();
            for (behavior, text) in list {
                rules.push(Rule::new(behavior, Source::Project, text));
            }
            Ok(Loaded {
                rules,
                working_dirs: vec![PathBuf::from("/home/ana/proj")],
            })
        };
        let hook = Hook {
            settings: self.settings.as_ref().map_err(Clone::clone),
            ctxoff: self.ctxoff.as_deref(),
            path: None,
            is_program: &|name: &str, _: Option<&OsStr>| name != "ll",
            rules: &rules,
            history: None,
        };
        f(&hook)
    }

    /// The answer to `event`, `None` when the hook prints nothing.
    fn answer(&self, event: &Value) -> Option<Value> {
        self.with(|hook| answer(&event.to_string(), hook).ok())
    }
}

/// Runs `f` with a hook whose project allows `cargo test` and `grep`.
pub(crate) fn hook_with<T>(f: impl FnOnce(&Hook) -> T) -> T {
    World::new(&[
        (Behavior::Allow, "Bash(cargo test:*)"),
        (Behavior::Allow, "Bash(grep:*)"),
    ])
    .with(f)
}

fn in_mode(mut e: Value, mode: &str) -> Value {
    e["permission_mode"] = json!(mode);
    e
}

fn wrapped(command: &str) -> String {
    format!("CTXOFF_SESSION={SESSION_NAME} CTXOFF_AGENT=claude {CTXOFF} -- {command}")
}

#[test]
fn an_allowed_command_is_rewritten_and_approved_naming_the_rule() {
    let world = World::new(&[(Behavior::Allow, "Bash(cargo test:*)")]);
    let answer = world.answer(&event("cargo test --workspace")).unwrap();
    assert_eq!(
        answer,
        json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": "ctxoff: output captured by ctxoff; runs as the original \
                would: allow rule Bash(cargo test:*) from project settings (.claude/settings.json)",
            "updatedInput": {
                "command": wrapped("cargo test --workspace"),
                "description": "Run the test suite",
                "timeout": 120000
            }
        }})
    );
}

/// The hook approves only what the client would run without asking, and leaves the rest to it.
#[test]
fn decides_as_the_users_rules_and_mode_would() {
    const ALLOW: &[(Behavior, &str)] = &[
        (Behavior::Allow, "Bash(cargo test:*)"),
        (Behavior::Allow, "Bash(make:*)"),
    ];
    type Case = (
        &'static str,
        &'static [(Behavior, &'static str)],
        &'static str,
        Option<&'static str>,
    );
    let cases: &[Case] = &[
        (
            "default",
            ALLOW,
            "cargo test",
            Some("allow rule Bash(cargo test:*)"),
        ),
        (
            "acceptEdits",
            ALLOW,
            "make -j4",
            Some("allow rule Bash(make:*)"),
        ),
        ("dontAsk", ALLOW, "make", Some("allow rule Bash(make:*)")),
        ("default", &[], "cargo test", None),
        ("dontAsk", &[], "make", None),
        (
            "bypassPermissions",
            &[],
            "make",
            Some("bypassPermissions mode"),
        ),
        (
            "bypassPermissions",
            &[(Behavior::Deny, "Bash(make:*)")],
            "make",
            None,
        ),
        (
            "bypassPermissions",
            &[(Behavior::Ask, "Bash(make:*)")],
            "make",
            None,
        ),
        (
            "default",
            &[
                (Behavior::Allow, "Bash(make:*)"),
                (Behavior::Deny, "Bash(make:*)"),
            ],
            "make",
            None,
        ),
        ("plan", ALLOW, "cargo test", None),
        ("auto", ALLOW, "cargo test", None),
        // Read-only commands run on the client's own say-so: no rule, no rewrite.
        ("default", &[], "grep -rn foo src", None),
        (
            "default",
            &[(Behavior::Allow, "Bash(grep:*)")],
            "grep -rn foo src",
            Some("allow rule Bash(grep:*)"),
        ),
        // Allowed, but not worth wrapping.
        (
            "default",
            &[(Behavior::Allow, "Bash(cargo:*)")],
            "cargo publish",
            None,
        ),
        ("bypassPermissions", &[], "git push", None),
        // The client does not see through sudo: no rule matches.
        (
            "default",
            &[(Behavior::Allow, "Bash(make:*)")],
            "sudo make",
            None,
        ),
    ];
    for (mode, rules, command, reason) in cases {
        let world = World::new(rules);
        let answer = world.answer(&in_mode(event(command), mode));
        let got = answer.as_ref().map(|a| {
            assert_eq!(a["hookSpecificOutput"]["permissionDecision"], "allow");
            assert_eq!(
                a["hookSpecificOutput"]["updatedInput"]["command"],
                wrapped(command)
            );
            a["hookSpecificOutput"]["permissionDecisionReason"]
                .as_str()
                .unwrap()
                .to_owned()
        });
        match (reason, &got) {
            (Some(r), Some(g)) => assert!(g.contains(r), "{mode} {command:?}: {g}"),
            (None, None) => {}
            _ => panic!("{mode} {rules:?} {command:?}: expected {reason:?}, got {got:?}"),
        }
    }
}

#[test]
fn when_unsure_nothing_is_rewritten() {
    let mut world = World::new(&[(Behavior::Allow, "Bash(make:*)")]);
    assert!(world.answer(&event("make")).is_some());
    world.rules = Err("cannot read the client's command line".into());
    assert_eq!(world.answer(&event("make")), None);
    let mut world = World::new(&[(Behavior::Allow, "Bash(make:*)")]);
    world.settings = Err("invalid value 'x' for '--threshold <TOKENS>'".into());
    assert_eq!(world.answer(&event("make")), None);
    let mut world = World::new(&[(Behavior::Allow, "Bash(make:*)")]);
    world.ctxoff = None;
    assert_eq!(world.answer(&event("make")), None);
    let world = World::new(&[(Behavior::Allow, "Bash(make:*)")]);
    for mutate in [
        |e: &mut Value| {
            e.as_object_mut().unwrap().remove("permission_mode");
        },
        |e: &mut Value| {
            e.as_object_mut().unwrap().remove("cwd");
        },
        |e: &mut Value| e["tool_input"]["run_in_background"] = json!(true),
    ] {
        let mut e = event("make");
        mutate(&mut e);
        assert_eq!(world.answer(&e), None, "{e}");
    }
}

#[test]
fn malformed_input_means_no_answer() {
    let world = World::new(&[(Behavior::Allow, "Bash(cargo test:*)")]);
    let mut inputs: Vec<String> = ["", "not json", "{", "[]", "null", "{}", "\u{feff}x \u{0}"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let mutations: [fn(&mut Value); 10] = [
        |e| e["hook_event_name"] = json!("PostToolUseFailure"),
        |e| e["tool_name"] = json!("Edit"),
        |e| e["tool_name"] = json!("bash"),
        |e| {
            e.as_object_mut().unwrap().remove("tool_input");
        },
        |e| e["tool_input"] = json!("cargo test"),
        |e| e["tool_input"]["command"] = json!(["cargo", "test"]),
        |e| {
            e["tool_input"].as_object_mut().unwrap().remove("command");
        },
        |e| e["tool_input"]["command"] = json!("   "),
        |e| {
            e.as_object_mut().unwrap().remove("hook_event_name");
        },
        |e| e["session_id"] = json!(".."),
    ];
    for mutate in mutations {
        let mut e = event("cargo test");
        mutate(&mut e);
        inputs.push(e.to_string());
    }
    for input in &inputs {
        let answered = world.with(|hook| answer(input, hook));
        assert!(answered.is_err(), "{input}: {answered:?}");
    }
}

#[test]
fn a_large_output_is_replaced_by_its_summary_after_the_fact() {
    let world = World::new(&[]);
    let saved = world.dir.path().join("tool-result.txt");
    std::fs::write(&saved, seq(20_000)).unwrap();
    let answer = world.answer(&post_event(&saved)).unwrap();
    let output = &answer["hookSpecificOutput"]["updatedToolOutput"];
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PostToolUse");
    assert_eq!(output["stderr"], "");
    assert_eq!(output["interrupted"], false);
    let summary = output["stdout"].as_str().unwrap();
    let lines: Vec<&str> = summary.lines().collect();
    assert!(
        lines[0].starts_with("[ctxoff] `seq 1 20000` ended · 20,000 lines · "),
        "{summary}"
    );
    assert_eq!(lines[1], format!("[ctxoff] note: {AFTER_THE_FACT}"));
    // The whole output, read from the client's file, not the 30,000 characters of the event.
    let stored = world.session_dir().join("seq_1.txt");
    assert_eq!(std::fs::read_to_string(&stored).unwrap(), seq(20_000));
    assert!(summary.contains("20000"), "the tail is shown: {summary}");
}

#[test]
fn an_output_in_the_event_is_offloaded_with_stderr_after_stdout() {
    let world = World::new(&[]);
    let mut e = post_event(Path::new("/nonexistent"));
    let response = e["tool_response"].as_object_mut().unwrap();
    response.remove("persistedOutputPath");
    response.remove("persistedOutputSize");
    let stdout = seq(5_000);
    response.insert("stdout".into(), json!(stdout.trim_end()));
    response.insert("stderr".into(), json!("warning: late"));
    let answer = world.answer(&e).unwrap();
    assert!(
        answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
            .as_str()
            .unwrap()
            .contains("5,001 lines")
    );
    let stored = std::fs::read_to_string(world.session_dir().join("seq_1.txt")).unwrap();
    assert_eq!(stored, format!("{stdout}warning: late\n"));
}

#[test]
fn outputs_that_are_small_kept_or_already_summarised_are_left_alone() {
    let world = World::new(&[]);
    let saved = world.dir.path().join("tool-result.txt");
    std::fs::write(&saved, seq(20_000)).unwrap();
    let small = {
        let mut e = post_event(&saved);
        let response = e["tool_response"].as_object_mut().unwrap();
        response.remove("persistedOutputPath");
        response.insert("stdout".into(), json!("1\n2\n3"));
        e
    };
    let cut = {
        let mut e = post_event(&saved);
        e["tool_response"]
            .as_object_mut()
            .unwrap()
            .remove("persistedOutputPath");
        e
    };
    type Mutation = Box<dyn Fn(&mut Value)>;
    let mutations: Vec<Mutation> = vec![
        Box::new(|e| e["tool_input"]["command"] = json!(wrapped("seq 1 20000"))),
        Box::new(|e| e["tool_input"]["command"] = json!("git diff HEAD~9")),
        Box::new(|e| e["tool_response"]["interrupted"] = json!(true)),
        Box::new(|e| e["tool_response"]["isImage"] = json!(true)),
        Box::new(|e| e["permission_mode"] = json!("plan")),
        Box::new(|e| e["tool_response"]["persistedOutputPath"] = json!("/nonexistent/x.txt")),
        Box::new(|e| e["tool_name"] = json!("Read")),
    ];
    let mut events = vec![small, cut];
    for mutate in mutations {
        let mut e = post_event(&saved);
        mutate(&mut e);
        events.push(e);
    }
    for e in &events {
        assert_eq!(world.answer(e), None, "{e:.300}");
    }
    let mut world = World::new(&[]);
    world.settings = Err("bad config".into());
    assert_eq!(world.answer(&post_event(&saved)), None);
    assert!(!world.dir.path().join("root").exists(), "nothing stored");
}

#[test]
fn explain_names_the_list_the_rule_and_the_answer() {
    let world = World::new(&[]);
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(
        project.join(".claude/settings.json"),
        r#"{"permissions": {"allow": ["Bash(cargo test:*)"], "deny": ["Bash(git push:*)"]}}"#,
    )
    .unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join(".claude.json"),
        json!({"projects": {project.to_string_lossy(): {"hasTrustDialogAccepted": true}}})
            .to_string(),
    )
    .unwrap();
    let explain = |command: &str, mode: &str| {
        world.with(|hook| {
            super::explain(
                command,
                mode,
                &project,
                &project,
                Some(home.clone()),
                None,
                hook,
            )
        })
    };
    let text = explain("cargo test --all", "default");
    assert!(
        text.contains("wrap:        yes: `cargo test` is in the default wrap list"),
        "{text}"
    );
    assert!(
        text.contains("permissions: the client runs it without asking: allow rule Bash(cargo test:*) from project settings"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "the hook:    rewrites it to `CTXOFF_SESSION=<session-id> CTXOFF_AGENT=claude {CTXOFF} -- cargo test --all`"
    )), "{text}");
    assert!(text.contains("--allowedTools and --disallowedTools given to claude are not counted"));
    let text = explain("git push", "bypassPermissions");
    assert!(
        text.contains("wrap:        no: `git push` is in neither"),
        "{text}"
    );
    assert!(text.contains("deny rule Bash(git push:*)"), "{text}");
    assert!(text.contains("which stops it or asks"), "{text}");
    let text = explain("grep -rn x src", "default");
    assert!(text.contains("no allow rule matches"), "{text}");
    assert!(
        text.contains("the PostToolUse hook replaces the output with a summary"),
        "{text}"
    );
    let text = explain("git diff", "default");
    assert!(
        text.contains(
            "leaves it and its output to Claude Code (the `keep` pattern `git diff*` matches)"
        ),
        "{text}"
    );
}
