//! `ctxoff hook codex|gemini|opencode` as the clients run them: whatever the input,
//! configuration or environment, exit 0 and nothing on stdout but the answer (a hook that fails
//! or prints something else can block the agent's tool call). And `ctxoff init --print AGENT`.

use std::io::Write;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use crate::support::World;

/// Runs `ctxoff hook AGENT` with `input` on stdin and `env`; returns (status, stdout, stderr).
fn hook(world: &World, agent: &str, input: &[u8], env: &[(&str, &str)]) -> (i32, String, String) {
    run_with(world, &["hook", agent], input, env)
}

/// Runs `ctxoff ARGS` with `input` on stdin and `env`; returns (status, stdout, stderr).
fn run_with(
    world: &World,
    args: &[&str],
    input: &[u8],
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let mut cmd = world.ctxoff(args);
    cmd.envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run ctxoff hook");
    let mut stdin = child.stdin.take().unwrap();
    // The hook may stop reading early; a closed pipe is not the test's failure.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// An opencode `tool.execute.before` call the plugin would send for `command`.
fn opencode_call(command: &str) -> String {
    json!({"hook": "tool.execute.before", "tool": "bash", "sessionID": "ses_1", "callID": "c1",
           "args": {"command": command, "description": "Run it"}, "agent": "build",
           "permission": [{"permission": "*", "pattern": "*", "action": "allow"}]})
    .to_string()
}

#[test]
fn never_fails_and_prints_nothing_but_an_answer() {
    let world = World::new();
    let inputs: [&[u8]; 6] = [
        b"",
        b"not json",
        b"{}",
        b"\xff\xfe\x00garbage",
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"make"}}"#,
        br#"{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"make"},"session_id":"s"}"#,
    ];
    let bad_config = world.dir.path().join("bad.toml");
    std::fs::write(&bad_config, "threshold = [").unwrap();
    let bad_config = bad_config.to_str().unwrap();
    let envs: [&[(&str, &str)]; 3] = [
        &[],
        &[("CTXOFF_CONFIG", bad_config)],
        &[("HOME", "/nonexistent"), ("PATH", "")],
    ];
    for agent in ["codex", "gemini", "opencode"] {
        for input in inputs {
            for env in envs {
                let (status, stdout, stderr) = hook(&world, agent, input, env);
                assert_eq!(
                    (status, stdout.as_str(), stderr.as_str()),
                    (0, "", ""),
                    "{agent} {:?} {env:?}",
                    String::from_utf8_lossy(input)
                );
            }
        }
    }
}

#[test]
fn opencode_answers_one_json_line_and_a_bad_config_means_no_rewrite() {
    let world = World::new();
    let (status, stdout, stderr) = hook(&world, "opencode", opencode_call("make").as_bytes(), &[]);
    assert_eq!((status, stderr.as_str()), (0, ""));
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let answer: Value = serde_json::from_str(&stdout).unwrap();
    let command = answer["args"]["command"].as_str().unwrap();
    assert!(
        command.starts_with("CTXOFF_SESSION=ses_1 CTXOFF_AGENT=opencode /")
            && command.ends_with(" -- make"),
        "{command}"
    );
    assert_eq!(answer["args"]["description"], "Run it");
    std::fs::write(world.config(), "threshold = \"many\"\n").unwrap();
    let (status, stdout, stderr) = hook(&world, "opencode", opencode_call("make").as_bytes(), &[]);
    assert_eq!((status, stdout.as_str(), stderr.as_str()), (0, "", ""));
}

#[test]
fn a_replay_of_a_file_ctxoff_did_not_stage_is_refused() {
    let world = World::new();
    let file = world.dir.path().join("secrets.txt");
    std::fs::write(&file, "keep me\n").unwrap();
    let out = world
        .ctxoff(&["hook", "gemini"])
        .env("CTXOFF_REPLAY", &file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "keep me\n",
        "not removed"
    );
}

#[test]
fn print_for_an_agent_writes_only_to_stdout_and_stderr() {
    let world = World::new();
    let out = world
        .ctxoff(&["init", "--print", "cursor"])
        .current_dir(world.dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("---\ndescription: "), "{stdout}");
    assert!(stdout.contains("ctxoff lines REF"), "{stdout}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains(".cursor/rules/ctxoff.mdc"), "{stderr}");
    let files: Vec<_> = std::fs::read_dir(world.dir.path()).unwrap().collect();
    assert_eq!(files.len(), 1, "only the world's config: {files:?}");
    let unknown = Command::new(env!("CARGO_BIN_EXE_ctxoff"))
        .args(["init", "--print", "notepad"])
        .output()
        .unwrap();
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = String::from_utf8(unknown.stderr).unwrap();
    assert!(
        stderr.starts_with("ctxoff: no instructions for 'notepad'; known: "),
        "{stderr}"
    );
}

#[test]
fn unusable_ctxoff_options_or_variables_mean_no_rewrite_not_a_failed_hook() {
    let world = World::new();
    let call = opencode_call("make");
    for (args, env) in [
        (&["--threshold=many", "hook", "opencode"][..], &[][..]),
        (&["hook", "opencode", "--bogus"][..], &[][..]),
        (
            &["hook", "opencode"][..],
            &[("CTXOFF_THRESHOLD", "lots")][..],
        ),
    ] {
        let (status, stdout, _) = run_with(&world, args, call.as_bytes(), env);
        assert_eq!(status, 0, "{args:?} {env:?}");
        assert!(stdout.is_empty(), "{args:?} {env:?}: no answer");
    }
}
