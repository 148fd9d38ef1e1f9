//! Codex CLI with ctxoff installed by `ctxoff init codex`, against the same client without it:
//! in each sandbox, with each kind of execpolicy rule, and (through `codex app-server`, the
//! client's JSON-RPC interface, which asks its caller for approvals) in each approval policy. The
//! "model" runs `make`, whose Makefile prints 20,000 lines; `make test` prints them and fails.
//!
//! Expected: where a rule, the sandbox or an approval decides, the model gets exactly what it gets
//! without ctxoff; elsewhere it gets ctxoff's summary, with the exit status, and the output is
//! stored in the thread's session.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::codex::{Codex, header_and_body};
use crate::ctxoff;

/// A set-up whose model runs `cmd` (with `extra` arguments) in a project with the Makefile;
/// with ctxoff installed by `ctxoff init codex` when `installed`.
fn setup(cmd: &str, extra: Value, installed: bool) -> Codex {
    let mut codex = Codex::new(cmd, extra);
    let project = codex.root().join("project");
    ctxoff::makefile(&project);
    if installed {
        let out = ctxoff::init(
            &["codex"],
            &project,
            &[
                ("HOME", &codex.root().join("home")),
                ("CODEX_HOME", &codex.codex_home()),
            ],
        );
        assert!(out.contains("trusted"), "{out}");
        codex.scratch = Some(codex.root().join("scratch"));
    }
    codex
}

/// The thread id of a `codex exec --json` run (its last 8 hex digits name the ctxoff session).
fn thread_id(stdout: &str) -> String {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|e| e["type"] == "thread.started")
        .and_then(|e| e["thread_id"].as_str().map(str::to_owned))
        .expect("a thread.started event")
}

/// What reached the model, without the parts that differ on every run (chunk id, wall time).
fn comparable(output: &str) -> String {
    match output.split_once("Output:\n") {
        Some((header, body)) => {
            let exit = header
                .lines()
                .find(|l| l.starts_with("Process exited"))
                .unwrap_or_default();
            format!("{exit}\n{body}")
        }
        None => output.to_owned(),
    }
}

#[test]
fn summary_reaches_the_model_where_the_sandbox_lets_ctxoff_write() {
    if !crate::enabled("codex") {
        return;
    }
    for (command, sandbox, exit) in [
        ("make", "workspace-write", 0),
        ("make test", "workspace-write", 2),
        ("make", "danger-full-access", 0),
    ] {
        let codex = setup(command, json!({}), true);
        let run = codex.run(&["-s", sandbox]);
        let output = run.tool_output.expect("a tool result");
        let (header, body) = header_and_body(&output);
        assert!(
            header.contains(&format!("Process exited with code {exit}\n")),
            "the exit status is the command's: {header}"
        );
        // The thread's UUID names the session by its last 8 hex digits.
        let thread = thread_id(&run.stdout);
        let session = thread[thread.len() - 8..].to_owned();
        let scratch = codex.scratch.as_deref().unwrap();
        ctxoff::assert_summary(body, command, exit, scratch, &session);
        if exit != 0 {
            assert!(
                body.contains("make: *** [Makefile:5: test] Error 3"),
                "{body}"
            );
        }
        // The thread's session holds it: `@last` and `list` find it there.
        let list = Command::new(ctxoff::exe())
            .args(["list", "--json"])
            .env("CTXOFF_DIR", scratch)
            .env("CTXOFF_SESSION", &session)
            .output()
            .unwrap();
        let listed: Value = serde_json::from_slice(&list.stdout).unwrap();
        assert_eq!(listed[0]["name"], "make", "{listed}");
        eprintln!(
            "codex, {sandbox}, `{command}`: {} bytes reached the model",
            output.len()
        );
    }
}

/// Where the hook must not rewrite, the model gets what it gets without ctxoff: the read-only
/// sandbox (ctxoff could not save anything), and every execpolicy rule on the command.
#[test]
fn rules_and_the_read_only_sandbox_leave_the_command_to_the_client() {
    if !crate::enabled("codex") {
        return;
    }
    let rules = |decision: &str| {
        format!(
            "prefix_rule(pattern=[\"make\"], decision=\"{decision}\", justification=\"mine\")\n"
        )
    };
    let cases: Vec<(&str, Option<String>, &str)> = vec![
        ("read-only sandbox", None, "read-only"),
        (
            "forbidden rule",
            Some(rules("forbidden")),
            "workspace-write",
        ),
        ("prompt rule", Some(rules("prompt")), "workspace-write"),
        ("allow rule", Some(rules("allow")), "workspace-write"),
    ];
    for (name, rules, sandbox) in cases {
        let outputs: Vec<String> = [false, true]
            .into_iter()
            .map(|installed| {
                let codex = setup("make", json!({}), installed);
                if let Some(rules) = &rules {
                    let dir = codex.codex_home().join("rules");
                    std::fs::create_dir_all(&dir).unwrap();
                    std::fs::write(dir.join("mine.rules"), rules).unwrap();
                }
                comparable(&codex.run(&["-s", sandbox]).tool_output.expect("a result"))
            })
            .collect();
        assert_eq!(outputs[0], outputs[1], "{name}: with ctxoff differs");
        assert!(ctxoff::summary(&outputs[1]).is_none(), "{name}");
        eprintln!("codex, {name}: {:.80}", outputs[1].replace('\n', " "));
    }
}

/// What one turn through `codex app-server` did: the commands the client asked approval for
/// (each declined), and the tool result the model got.
struct Turn {
    approvals: Vec<String>,
    output: Option<String>,
}

/// Runs one turn through `codex app-server` with `approval` and `sandbox`, declining every
/// approval request.
fn app_server_turn(codex: &Codex, approval: &str, sandbox: &str) -> Turn {
    let project = codex.root().join("project");
    let mut child = crate::isolated(&mut Command::new(&codex.exe))
        .arg("app-server")
        .current_dir(&project)
        .env("PWD", &project)
        .env("HOME", codex.root().join("home"))
        .env("CODEX_HOME", codex.codex_home())
        .env("OPENAI_API_KEY", "dummy")
        .envs(codex.scratch.iter().map(|s| ("CTXOFF_DIR", s)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run codex app-server");
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Ok(message) = serde_json::from_str::<Value>(&line)
                && tx.send(message).is_err()
            {
                return;
            }
        }
    });
    let mut send = |message: Value| {
        writeln!(stdin, "{message}").expect("write to app-server");
    };
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"clientInfo": {"name": "ctxoff-e2e", "version": "1"}}}));
    send(json!({"jsonrpc": "2.0", "method": "initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "thread/start",
                "params": {"cwd": project, "approvalPolicy": approval, "sandbox": sandbox}}));
    let mut approvals = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = rx
            .recv_timeout(left)
            .expect("app-server ended the turn in time");
        if message["id"] == 2 {
            let thread = message["result"]["thread"]["id"]
                .as_str()
                .unwrap_or_else(|| panic!("thread/start failed: {message}"))
                .to_owned();
            send(json!({"jsonrpc": "2.0", "id": 3, "method": "turn/start",
                        "params": {"threadId": thread,
                                   "input": [{"type": "text", "text": "Run the command."}]}}));
        } else if message.get("method").is_some() && message.get("id").is_some() {
            approvals.push(
                message["params"]["command"]
                    .as_str()
                    .unwrap_or("")
                    .to_owned(),
            );
            send(json!({"jsonrpc": "2.0", "id": message["id"], "result": {"decision": "decline"}}));
        } else if message["method"] == "turn/completed" {
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    Turn {
        approvals,
        output: codex_output(codex),
    }
}

fn codex_output(codex: &Codex) -> Option<String> {
    let last = codex.server.requests().into_iter().last()?.json();
    last["input"]
        .as_array()?
        .iter()
        .find(|item| item["type"] == "function_call_output")
        .and_then(|item| item["output"].as_str())
        .map(str::to_owned)
}

/// In the approval policies an interactive user has: where the client would ask, it asks about
/// the command the model wrote, as without ctxoff; where it would not, the summary arrives.
#[test]
fn approval_policies_through_the_app_server() {
    if !crate::enabled("codex") {
        return;
    }
    let escalated =
        json!({"sandbox_permissions": "require_escalated", "justification": "needs it"});
    for (name, approval, extra) in [
        ("untrusted", "untrusted", json!({})),
        ("on-request, escalation asked", "on-request", escalated),
    ] {
        let turns: Vec<Turn> = [false, true]
            .into_iter()
            .map(|installed| {
                let codex = setup("make", extra.clone(), installed);
                app_server_turn(&codex, approval, "workspace-write")
            })
            .collect();
        assert_eq!(
            turns[0].approvals,
            ["/bin/bash -lc make"],
            "{name}: the control asks"
        );
        assert_eq!(
            turns[1].approvals, turns[0].approvals,
            "{name}: with ctxoff the user is asked the same"
        );
        assert_eq!(turns[0].output, turns[1].output, "{name}");
    }
    let codex = setup("make", json!({}), true);
    let turn = app_server_turn(&codex, "on-request", "workspace-write");
    assert!(turn.approvals.is_empty(), "{:?}", turn.approvals);
    let output = turn.output.expect("a tool result");
    let scratch = codex.scratch.as_deref().unwrap();
    let session = ctxoff::only_session(scratch);
    ctxoff::assert_summary(header_and_body(&output).1, "make", 0, scratch, &session);
}

/// `ctxoff init codex` leaves the hook trusted the way the client records trust: the client's
/// own inventory (`hooks/list`) says so.
#[test]
fn init_leaves_the_hook_trusted_in_the_clients_own_inventory() {
    if !crate::enabled("codex") {
        return;
    }
    let codex = setup("true", json!({}), true);
    let hooks = hooks_list(&codex);
    assert_eq!(hooks.len(), 1, "{hooks:?}");
    assert_eq!(hooks[0]["trustStatus"], "trusted", "{}", hooks[0]);
    let check = Command::new(ctxoff::exe())
        .args(["init", "codex", "--check"])
        .env("HOME", codex.root().join("home"))
        .env("CODEX_HOME", codex.codex_home())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // Removed, the hook is gone from the client's inventory and no trust entry is left.
    ctxoff::init(
        &["codex", "--uninstall"],
        codex.root(),
        &[
            ("HOME", &codex.root().join("home")),
            ("CODEX_HOME", &codex.codex_home()),
        ],
    );
    assert!(hooks_list(&codex).is_empty());
    let config = std::fs::read_to_string(codex.codex_home().join("config.toml")).unwrap();
    assert!(!config.contains("hooks.state"), "{config}");
}

/// The hooks the client lists for the project (`codex app-server`, `hooks/list`).
fn hooks_list(codex: &Codex) -> Vec<Value> {
    let mut child = crate::isolated(&mut Command::new("timeout"))
        .arg("60")
        .arg(&codex.exe)
        .arg("app-server")
        .env("HOME", codex.root().join("home"))
        .env("CODEX_HOME", codex.codex_home())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run codex app-server");
    let mut stdin = child.stdin.take().unwrap();
    let project: PathBuf = codex.root().join("project");
    for request in [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "ctxoff-e2e", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [project]}}),
    ] {
        writeln!(stdin, "{request}").unwrap();
    }
    let answer = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
        .find(|message| message["id"] == 2)
        .expect("an answer to hooks/list");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    answer["result"]["data"][0]["hooks"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}
