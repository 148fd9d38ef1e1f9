//! `ctxoff hook claude` as the client runs it: whatever the event, the environment or the
//! configuration, it exits 0 and prints nothing but its JSON answer (the client takes exit 2 as
//! "block this tool call"). The answers themselves are the unit tests' (`agent::claude`) and the
//! end-to-end suite's business.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

use crate::support::{World, stderr, stdout};

const SESSION: &str = "0d9c6c3e-2f1a-4b7e-9c1d-5e8f7a6b4c3d";

fn pre_tool_use(command: &str) -> Value {
    json!({
        "session_id": SESSION, "cwd": "/", "permission_mode": "bypassPermissions",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "x"}, "tool_use_id": "toolu_1"
    })
}

/// The numbers up to 5,000 that hold a 7: 1,355 lines, over the threshold.
fn sevens() -> String {
    (1..=5_000)
        .map(|i| i.to_string())
        .filter(|n| n.contains('7'))
        .collect::<Vec<_>>()
        .join("\n")
}

fn post_tool_use(output: &str) -> Value {
    json!({
        "session_id": SESSION, "cwd": "/", "permission_mode": "default",
        "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "seq 1 5000 | grep 7", "description": "x"},
        "tool_response": {"stdout": output, "stderr": "", "interrupted": false,
                          "isImage": false, "noOutputExpected": false},
        "tool_use_id": "toolu_1"
    })
}

/// Runs `cmd` with `input` on stdin.
fn with_input(cmd: &mut Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ctxoff runs");
    // The hook may stop reading early; a closed pipe is not the test's failure.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().expect("ctxoff ends")
}

fn hook(world: &World, input: &[u8], env: &[(&str, &str)]) -> Output {
    let mut cmd = world.ctxoff(&["hook", "claude"]);
    cmd.env_remove("CLAUDE_PROJECT_DIR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    with_input(&mut cmd, input)
}

#[test]
fn garbage_in_means_exit_0_and_no_answer() {
    let world = World::new();
    for input in [
        &b""[..],
        b"not json",
        b"\xff\xfe\x00{",
        b"{\"hook_event_name\": \"PreToolUse\"}",
        b"[1, 2, 3]",
    ] {
        let out = hook(&world, input, &[]);
        assert_eq!(out.status.code(), Some(0), "{input:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), "", "{input:?}");
    }
}

/// A bad setting would make a rewritten command fail the same way: the hook answers nothing,
/// and the client runs the command as without ctxoff.
#[test]
fn bad_settings_never_block_a_tool_call() {
    let world = World::new();
    let bad_config = world.dir.path().join("bad.toml");
    std::fs::write(&bad_config, "threshold = \"many\"\n").unwrap();
    let bad_config = bad_config.to_string_lossy().into_owned();
    let event = pre_tool_use("cargo test").to_string();
    let large = post_tool_use(&sevens()).to_string();
    for env in [
        &[("CTXOFF_THRESHOLD", "lots")][..],
        &[("CTXOFF_PREVIEW", "-1")],
        &[("CTXOFF_ENCODING", "utf-9")],
        &[("CTXOFF_SESSION", "../x")],
        &[("CTXOFF_CONFIG", bad_config.as_str())],
        &[("CTXOFF_CONFIG", "/nonexistent/config.toml")],
    ] {
        for input in [&event, &large] {
            let out = hook(&world, input.as_bytes(), env);
            assert_eq!(out.status.code(), Some(0), "{env:?}: {}", stderr(&out));
            assert_eq!(stdout(&out), "", "{env:?}");
        }
    }
    assert!(world.outputs().is_empty(), "nothing was stored");
}

#[test]
fn a_bad_agent_or_option_is_an_error_on_stderr_and_exit_0() {
    let world = World::new();
    for args in [
        &["hook", "cluade"][..],
        &["hook"],
        &["hook", "claude", "--bogus"],
    ] {
        let mut cmd = world.ctxoff(args);
        let out = with_input(&mut cmd, pre_tool_use("make").to_string().as_bytes());
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
        assert!(stderr(&out).contains("error"), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn a_large_output_is_answered_with_one_json_line_and_saved_in_the_session() {
    let world = World::new();
    let output = sevens();
    let out = hook(&world, post_tool_use(&output).to_string().as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.ends_with("}\n") && text.lines().count() == 1, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    let summary = answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
        .as_str()
        .unwrap();
    assert!(
        summary.starts_with("[ctxoff] `seq 1 5000 | grep 7` ended · "),
        "{summary}"
    );
    // The event's session, not CTXOFF_SESSION's: `ctxoff lines @last` in a rewritten command
    // (CTXOFF_SESSION=<session>) finds it. A UUID names it by its last 8 hex digits.
    let saved = world
        .root()
        .join(&SESSION[SESSION.len() - 8..])
        .join("seq_1.txt");
    assert_eq!(
        std::fs::read_to_string(&saved).unwrap(),
        format!("{output}\n")
    );
}

/// Where nothing can be saved, run mode prints the output instead; the hook must not: its stdout
/// is its answer, and the client still holds the output.
#[test]
fn an_output_that_cannot_be_saved_is_left_to_the_client() {
    let world = World::new();
    for blocked in ["root", "runtime", "cache"] {
        std::fs::write(world.dir.path().join(blocked), "not a directory").unwrap();
    }
    let out = hook(&world, post_tool_use(&sevens()).to_string().as_bytes(), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
}

#[test]
fn explain_says_why_with_bad_settings_too() {
    let world = World::new();
    let project = world.dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let mut cmd = world.ctxoff(&[
        "hook",
        "claude",
        "--explain",
        "cargo test",
        "--mode",
        "bypassPermissions",
    ]);
    cmd.current_dir(&project)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("HOME", world.dir.path().join("home"))
        .env_remove("CLAUDE_CONFIG_DIR");
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("wrap:        yes: `cargo test` is in the default wrap list"),
        "{text}"
    );
    assert!(
        text.contains("permissions: the client runs it without asking: bypassPermissions mode"),
        "{text}"
    );
    assert!(text.contains(" -- cargo test` and approves it"), "{text}");
    let out = cmd.env("CTXOFF_THRESHOLD", "lots").output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("wrap:        no: ctxoff's settings are unusable (invalid value 'lots'"),
        "{text}"
    );
    assert!(
        text.contains("the hook:    leaves it to Claude Code"),
        "{text}"
    );
}
