//! Codex CLI (`@openai/codex`) run by `codex exec` against a mock Responses API on 127.0.0.1:
//! what reaches the model with no hook, the `PreToolUse`/`PostToolUse` protocol proved with a
//! throwaway hook, hook trust, the sandbox, and the execpolicy rules the hook must decide with.
//!
//! Offline set-up: a temporary `CODEX_HOME` whose `config.toml` names a provider with
//! `base_url = "http://127.0.0.1:PORT/v1"` and `wire_api = "responses"`, `OPENAI_API_KEY=dummy`,
//! a temporary `HOME`. The client then only calls `POST /v1/responses` (server-sent events).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;

use ctxoff::agent::codex::execpolicy::Policy;
use ctxoff::agent::codex::sandbox::{Sandbox, turn_sandbox};
use ctxoff::agent::codex::trust::{CommandHook, Event, state_key, trusted_hash};
use serde_json::{Value, json};

use crate::client;
use crate::fixture;
use crate::mock::{Reply, Request, Server};
use crate::probe::Probe;

const PACKAGE: &str = "@openai/codex";
const VERSION: &str = "0.171.0";

/// `seq 1 20000`'s output: 108,894 bytes.
const SEQ_BYTES: usize = 108_894;

/// The Responses API "model": asked with no tool result yet, it calls `exec_command` with `args`;
/// given one, it ends the turn.
pub(crate) fn model(args: Value) -> impl Fn(&Request) -> Reply + Send + Sync + 'static {
    move |request: &Request| {
        if request.method != "POST" || request.path != "/v1/responses" {
            return Reply::Empty(404);
        }
        // The key comes from the provider's `env_key`: a wrong set-up fails loudly.
        if request.header("authorization") != Some("Bearer dummy") {
            return Reply::Empty(401);
        }
        let body = request.json();
        let answered = body["input"]
            .as_array()
            .is_some_and(|items| items.iter().any(|i| i["type"] == "function_call_output"));
        let item = match answered {
            false => json!({"type": "function_call", "id": "fc_1", "call_id": "call_1",
                            "name": "exec_command", "arguments": args.to_string()}),
            true => json!({"type": "message", "id": "msg_1", "role": "assistant",
                           "content": [{"type": "output_text", "text": "done", "annotations": []}]}),
        };
        let event = |kind: &str, body: Value| {
            let mut body = body;
            body["type"] = Value::from(kind);
            (Some(kind.to_owned()), body.to_string())
        };
        Reply::Events(vec![
            event("response.created", json!({"response": {"id": "resp_1"}})),
            event("response.output_item.done", json!({"item": item})),
            event(
                "response.completed",
                json!({"response": {"id": "resp_1", "usage": {
                    "input_tokens": 1, "input_tokens_details": null, "output_tokens": 1,
                    "output_tokens_details": null, "total_tokens": 2}}}),
            ),
        ])
    }
}

/// One temporary Codex installation: home, `CODEX_HOME`, project folder and mock model.
pub(crate) struct Codex {
    dir: tempfile::TempDir,
    pub(crate) exe: PathBuf,
    pub(crate) server: Server,
    /// ctxoff's scratch root for the run's commands, once ctxoff is installed.
    pub(crate) scratch: Option<PathBuf>,
}

/// What one `codex exec` did.
pub(crate) struct Run {
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// The tool result the model was sent, if any.
    pub(crate) tool_output: Option<String>,
}

impl Codex {
    /// A fresh set-up whose model runs `cmd` (with any extra `exec_command` arguments).
    pub(crate) fn new(cmd: &str, extra: Value) -> Codex {
        let exe = client::install(PACKAGE, VERSION, "codex");
        let mut args = extra;
        args["cmd"] = Value::from(cmd);
        let server = Server::start(model(args));
        let dir = tempfile::tempdir().expect("temporary folder");
        for sub in ["home", "codex", "project"] {
            std::fs::create_dir_all(dir.path().join(sub)).expect("create a folder");
        }
        let codex = Codex {
            dir,
            exe,
            server,
            scratch: None,
        };
        codex.write_config("");
        codex
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn codex_home(&self) -> PathBuf {
        self.root().join("codex")
    }

    /// `config.toml`: the mock provider, then `more`.
    pub(crate) fn write_config(&self, more: &str) {
        let config = format!(
            "model = \"gpt-5\"\nmodel_provider = \"mock\"\n\n\
             [model_providers.mock]\nname = \"mock\"\nbase_url = \"{}/v1\"\n\
             wire_api = \"responses\"\nenv_key = \"OPENAI_API_KEY\"\n{more}",
            self.server.url()
        );
        std::fs::write(self.codex_home().join("config.toml"), config).expect("write config.toml");
    }

    /// Installs `probe` as the only hook of `event` (matcher `Bash`), trusted the way the client
    /// records trust when `trusted`.
    fn hook(&self, event: Event, probe: &Probe, trusted: bool) {
        let name = match event {
            Event::PreToolUse => "PreToolUse",
            Event::PostToolUse => "PostToolUse",
            other => panic!("no test installs a {other:?} hook"),
        };
        let command = probe.command();
        let hooks = json!({"hooks": {name: [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": command, "timeout": 30}]}]}});
        let file = self.codex_home().join("hooks.json");
        std::fs::write(&file, hooks.to_string()).expect("write hooks.json");
        let hook = CommandHook {
            event,
            matcher: Some("Bash"),
            command: &command,
            timeout: Some(30),
            status_message: None,
        };
        let state = format!(
            "\n[hooks.state.\"{}\"]\ntrusted_hash = \"{}\"\n",
            state_key(&file, event, 0, 0),
            trusted_hash(&hook)
        );
        self.write_config(if trusted { &state } else { "" });
    }

    pub(crate) fn run(&self, args: &[&str]) -> Run {
        let out = crate::isolated(&mut Command::new("timeout"))
            .arg("300")
            .arg(&self.exe)
            .args(["exec", "--skip-git-repo-check", "--json"])
            .args(args)
            .arg("Run the command.")
            .current_dir(self.root().join("project"))
            // Some clients take their folder from PWD, which the test runner set to its own.
            .env("PWD", self.root().join("project"))
            .env("HOME", self.root().join("home"))
            .env("CODEX_HOME", self.codex_home())
            .env("OPENAI_API_KEY", "dummy")
            .envs(self.scratch.iter().map(|s| ("CTXOFF_DIR", s)))
            .stdin(Stdio::null())
            .output()
            .expect("run codex");
        let run = Run {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            tool_output: self.tool_output(),
        };
        assert!(
            out.status.success(),
            "codex exec failed ({}):\n{}\n{}",
            out.status,
            run.stderr,
            run.stdout
        );
        run
    }

    /// The `function_call_output` of the last request the model received.
    fn tool_output(&self) -> Option<String> {
        let last = self.server.requests().into_iter().last()?.json();
        last["input"]
            .as_array()?
            .iter()
            .find(|item| item["type"] == "function_call_output")
            .and_then(|item| item["output"].as_str())
            .map(str::to_owned)
    }

    /// The session transcript of the run (the client's `sessions/…/rollout-*.jsonl`).
    fn transcript(&self, path: &str) -> String {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }
}

/// Splits Codex's truncated output into (head, dropped, tail) at `…N chars truncated…`.
pub(crate) fn truncated(body: &str) -> (&str, usize, &str) {
    let start = body.find('…').expect("a truncation marker");
    let rest = &body[start + '…'.len_utf8()..];
    let (count, after) = rest.split_once(" chars truncated…").expect("marker text");
    (&body[..start], count.parse().expect("a count"), after)
}

/// The part of a tool result after the client's header (`Chunk ID`, `Wall time`, `Process exited
/// with code N`, `Original token count`, `Output:`).
pub(crate) fn header_and_body(output: &str) -> (&str, &str) {
    output
        .split_once("Output:\n")
        .expect("Codex's output header")
}

#[test]
fn control_large_output_reaches_the_model_cut_to_a_head_and_tail() {
    if !crate::enabled("codex") {
        return;
    }
    let codex = Codex::new("seq 1 20000", json!({}));
    let output = codex.run(&[]).tool_output.expect("a tool result");
    let (header, body) = header_and_body(&output);
    assert!(header.contains("Process exited with code 0\n"), "{header}");
    let notice = "Warning: truncated output (original token count: ";
    assert!(body.starts_with(notice), "{body:.300}");
    let (_, body) = body
        .split_once("Total output lines: 20000\n\n")
        .expect("line count");
    let (head, dropped, tail) = truncated(body);
    assert!(head.starts_with("1\n2\n3\n") && tail.ends_with("19999\n20000\n"));
    assert_eq!(
        head.len() + dropped + tail.len(),
        SEQ_BYTES,
        "nothing else is lost"
    );
    // About 10 KB survive, split evenly: nothing is saved anywhere for later.
    assert_eq!(
        (head.len() + tail.len()) / 1000,
        10,
        "{} + {}",
        head.len(),
        tail.len()
    );
    assert!(head.len().abs_diff(tail.len()) < 16);
    eprintln!(
        "codex: kept {} + {} of {SEQ_BYTES} bytes",
        head.len(),
        tail.len()
    );
}

#[test]
fn control_failing_command_is_cut_the_same_way_with_its_exit_code() {
    if !crate::enabled("codex") {
        return;
    }
    let codex = Codex::new("sh -c 'seq 1 20000; exit 3'", json!({}));
    let output = codex.run(&[]).tool_output.expect("a tool result");
    let (header, body) = header_and_body(&output);
    assert!(header.contains("Process exited with code 3\n"), "{header}");
    let (_, body) = body
        .split_once("Total output lines: 20000\n\n")
        .expect("line count");
    let (head, dropped, tail) = truncated(body);
    assert_eq!(head.len() + dropped + tail.len(), SEQ_BYTES);
}

#[test]
fn pre_tool_use_rewrites_only_with_allow_and_only_when_trusted() {
    if !crate::enabled("codex") {
        return;
    }
    // `workdir` is kept: the rewrite replaces the command only.
    let codex = Codex::new("echo ORIGINAL; pwd", json!({"workdir": "/usr"}));
    let probe = Probe::new(&codex.root().join("probe"));
    let rewrite = |decision: Option<&str>| {
        let mut specific = json!({"hookEventName": "PreToolUse",
                                  "updatedInput": {"command": "echo REWRITTEN; pwd"}});
        if let Some(decision) = decision {
            specific["permissionDecision"] = Value::from(decision);
        }
        json!({"hookSpecificOutput": specific})
    };
    let flags = ["-s", "danger-full-access"];

    codex.hook(Event::PreToolUse, &probe, true);
    probe.answer(Some(&rewrite(Some("allow"))));
    let output = codex.run(&flags).tool_output.unwrap();
    assert!(output.ends_with("Output:\nREWRITTEN\n/usr\n"), "{output}");
    let events = probe.events();
    assert_eq!(events.len(), 1);
    let event = &events[0];
    assert_eq!(event["hook_event_name"], "PreToolUse");
    assert_eq!(event["tool_name"], "Bash");
    assert_eq!(
        event["tool_input"],
        json!({"command": "echo ORIGINAL; pwd"})
    );
    assert_eq!(event["cwd"], "/usr");
    // `codex exec` never asks: whatever the sandbox, the event says bypassPermissions.
    assert_eq!(event["permission_mode"], "bypassPermissions");
    fixture::check_event("codex/pre_tool_use.json", event, codex.root());

    // Without "allow" (none, "ask", or "deny" with a rewrite) the whole answer is ignored.
    for decision in [None, Some("ask"), Some("deny")] {
        probe.answer(Some(&rewrite(decision)));
        let output = codex.run(&flags).tool_output.unwrap();
        assert!(
            output.ends_with("Output:\nORIGINAL\n/usr\n"),
            "{decision:?}: {output}"
        );
    }
    // "deny" with a reason and no rewrite blocks the command.
    probe.answer(Some(
        &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "deny", "permissionDecisionReason": "not this one"}}),
    ));
    let output = codex.run(&flags).tool_output.unwrap();
    assert_eq!(
        output,
        "Command blocked by PreToolUse hook: not this one. Command: echo ORIGINAL; pwd"
    );

    // Untrusted: skipped, and nothing says so.
    let seen = probe.events().len();
    codex.hook(Event::PreToolUse, &probe, false);
    probe.answer(Some(&rewrite(Some("allow"))));
    let run = codex.run(&flags);
    assert!(run.tool_output.unwrap().ends_with("ORIGINAL\n/usr\n"));
    assert_eq!(probe.events().len(), seen, "an untrusted hook never runs");
    assert!(
        !run.stderr.to_lowercase().contains("hook"),
        "{}",
        run.stderr
    );
    assert!(
        !run.stdout.to_lowercase().contains("hook"),
        "{}",
        run.stdout
    );
    // …unless trust is bypassed for the run.
    let output = codex.run(&[&flags[..], &["--dangerously-bypass-hook-trust"]].concat());
    assert!(output.tool_output.unwrap().ends_with("REWRITTEN\n/usr\n"));
}

/// The client's own hook inventory (`codex app-server`, `hooks/list`) computes the same hash as
/// `trusted_hash`, for the same state key.
#[test]
fn trust_hash_is_the_clients_own() {
    if !crate::enabled("codex") {
        return;
    }
    let codex = Codex::new("true", json!({}));
    let probe = Probe::new(&codex.root().join("probe"));
    codex.hook(Event::PreToolUse, &probe, false);
    let requests = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"clientInfo": {"name": "ctxoff-e2e", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "hooks/list",
               "params": {"cwds": [codex.root().join("project")]}}),
    ];
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
    let stdout = child.stdout.take().unwrap();
    use std::io::{BufRead, Write};
    for request in &requests {
        writeln!(stdin, "{request}").unwrap();
    }
    let answer = std::io::BufReader::new(stdout)
        .lines()
        .map_while(Result::ok)
        .filter_map(|line| serde_json::from_str::<Value>(&line).ok())
        .find(|message| message["id"] == 2)
        .expect("an answer to hooks/list");
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    let hooks = &answer["result"]["data"][0]["hooks"];
    let file = codex.codex_home().join("hooks.json");
    let command = probe.command();
    let expected = json!([{
        "key": state_key(&file, Event::PreToolUse, 0, 0),
        "currentHash": trusted_hash(&CommandHook {
            event: Event::PreToolUse, matcher: Some("Bash"), command: &command,
            timeout: Some(30), status_message: None,
        }),
        "trustStatus": "untrusted",
    }]);
    let seen: Vec<Value> = hooks
        .as_array()
        .expect("a hook list")
        .iter()
        .map(|h| json!({"key": h["key"], "currentHash": h["currentHash"], "trustStatus": h["trustStatus"]}))
        .collect();
    assert_eq!(Value::Array(seen), expected, "{answer}");
}

#[test]
fn post_tool_use_sees_the_already_truncated_output() {
    if !crate::enabled("codex") {
        return;
    }
    let codex = Codex::new("seq 1 20000", json!({}));
    let probe = Probe::new(&codex.root().join("probe"));
    codex.hook(Event::PostToolUse, &probe, true);
    codex.run(&[]);
    let events = probe.events();
    assert_eq!(events.len(), 1);
    let event = &events[0];
    assert_eq!(event["hook_event_name"], "PostToolUse");
    let response = event["tool_response"]
        .as_str()
        .expect("the output, as a string");
    assert!(
        response.starts_with("Warning: truncated output"),
        "{response:.200}"
    );
    assert!(response.len() < SEQ_BYTES / 5, "{} bytes", response.len());
    fixture::check_event("codex/post_tool_use.json", event, codex.root());
}

/// The event does not name the sandbox; the turn's `turn_context` in the transcript does. In the
/// read-only sandbox a rewritten command that writes a file fails.
#[test]
fn sandbox_is_read_from_the_transcript() {
    if !crate::enabled("codex") {
        return;
    }
    let scratch = format!("/tmp/ctxoff-e2e-codex-{}", std::process::id());
    let codex = Codex::new("true", json!({}));
    let probe = Probe::new(&codex.root().join("probe"));
    codex.hook(Event::PreToolUse, &probe, true);
    probe.answer(Some(
        &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "updatedInput": {"command": format!("mkdir -p {scratch} && echo WROTE")}}}),
    ));
    let mut recorded = serde_json::Map::new();
    for (mode, expected, writes) in [
        ("read-only", "read-only", false),
        ("workspace-write", "workspace-write", true),
        ("danger-full-access", "danger-full-access", true),
    ] {
        let _ = std::fs::remove_dir(&scratch);
        let output = codex.run(&["-s", mode]).tool_output.unwrap();
        let event = probe.events().pop().unwrap();
        let transcript = codex.transcript(event["transcript_path"].as_str().unwrap());
        let turn = event["turn_id"].as_str().unwrap();
        let sandbox = turn_sandbox(&transcript, turn).expect("the turn's sandbox");
        assert_eq!(
            sandbox.may_write(Path::new(&scratch), None),
            writes,
            "{mode}: {sandbox:?}"
        );
        assert_eq!(matches!(sandbox, Sandbox::ReadOnly), !writes);
        match writes {
            true => assert!(output.ends_with("WROTE\n"), "{mode}: {output}"),
            false => assert!(output.contains("Read-only file system"), "{mode}: {output}"),
        }
        let context = transcript
            .lines()
            .rev()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find(|l| l["type"] == "turn_context" && l["payload"]["turn_id"] == turn)
            .unwrap();
        assert_eq!(context["payload"]["sandbox_policy"]["type"], expected);
        recorded.insert(mode.into(), context["payload"]["sandbox_policy"].clone());
    }
    let _ = std::fs::remove_dir(&scratch);
    fixture::check(
        "codex/sandbox_policy.json",
        &json!({"client": format!("{PACKAGE} {VERSION}"),
                "source": "turn_context.payload.sandbox_policy of codex exec -s MODE",
                "modes": recorded}),
    );
}

/// Every argv of `codex/execpolicy.json` checked by the client itself
/// (`codex execpolicy check --resolve-host-executables`), against the recorded answers.
#[test]
fn execpolicy_check_answers_as_recorded() {
    if !crate::enabled("codex") {
        return;
    }
    let exe = client::install(PACKAGE, VERSION, "codex");
    let recorded = fixture::read("codex/execpolicy.json");
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("test.rules");
    std::fs::write(&rules, recorded["rules"].as_str().unwrap()).unwrap();
    Policy::parse(recorded["rules"].as_str().unwrap(), None).expect("ctxoff reads the rules");
    let argvs: Vec<Vec<String>> = recorded["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|case| serde_json::from_value(case["argv"].clone()).unwrap())
        .collect();
    let (exe, rules) = (Arc::new(exe), Arc::new(rules));
    // Each check is a process start; two at a time.
    let answers: Vec<Value> = argvs
        .chunks(argvs.len().div_ceil(2))
        .map(|chunk| {
            let (exe, rules, chunk) = (Arc::clone(&exe), Arc::clone(&rules), chunk.to_vec());
            std::thread::spawn(move || {
                chunk
                    .iter()
                    .map(|argv| {
                        let out = Command::new(&*exe)
                            .args([
                                "execpolicy",
                                "check",
                                "--resolve-host-executables",
                                "--rules",
                            ])
                            .arg(&*rules)
                            .arg("--")
                            .args(argv)
                            .env("CODEX_HOME", rules.parent().unwrap())
                            // Relative programs resolve against the working directory.
                            .current_dir("/")
                            .output()
                            .expect("run codex execpolicy check");
                        assert!(out.status.success(), "{argv:?}: {out:?}");
                        serde_json::from_slice::<Value>(&out.stdout).expect("JSON")
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flat_map(|t| t.join().unwrap())
        .collect();
    let mut fresh = recorded.clone();
    for (case, answer) in fresh["checks"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(answers)
    {
        case["answer"] = answer;
    }
    fresh["client"] = Value::from(format!("{PACKAGE} {VERSION}"));
    fixture::check("codex/execpolicy.json", &fresh);
}

/// Scripts run by `codex exec` with `prefix_rule(pattern=["echo"], decision="forbidden")`: the
/// rule applies only where the client reads the script as plain commands.
#[test]
fn execpolicy_sees_only_plain_scripts() {
    if !crate::enabled("codex") {
        return;
    }
    let recorded = fixture::read("codex/scripts.json");
    let mut fresh = recorded.clone();
    for case in fresh["scripts"].as_array_mut().unwrap() {
        let script = case["script"].as_str().unwrap().to_owned();
        let codex = Codex::new(&script, json!({}));
        std::fs::create_dir_all(codex.codex_home().join("rules")).unwrap();
        std::fs::write(
            codex.codex_home().join("rules/test.rules"),
            recorded["rules"].as_str().unwrap(),
        )
        .unwrap();
        let output = codex
            .run(&["-s", "danger-full-access"])
            .tool_output
            .unwrap();
        let rejected = output.contains("rejected: probe rule");
        assert!(
            rejected || output.contains("Process exited with code"),
            "{script}: {output}"
        );
        case["rejected"] = Value::from(rejected);
    }
    fresh["client"] = Value::from(format!("{PACKAGE} {VERSION}"));
    fixture::check("codex/scripts.json", &fresh);
}

/// A forbidden rule stops the original; the same rule misses a rewrite the hook allows, which
/// then runs: the hook must decide with the rules, on the original.
#[test]
fn rules_are_checked_on_the_rewritten_command() {
    if !crate::enabled("codex") {
        return;
    }
    let codex = Codex::new("seq 1 3", json!({}));
    std::fs::create_dir_all(codex.codex_home().join("rules")).unwrap();
    std::fs::write(
        codex.codex_home().join("rules/test.rules"),
        "prefix_rule(pattern=[\"seq\"], decision=\"forbidden\", justification=\"no seq\")\n",
    )
    .unwrap();
    let flags = ["-s", "danger-full-access"];
    let output = codex.run(&flags).tool_output.unwrap();
    assert!(
        output.contains("`/bin/bash -lc 'seq 1 3'` rejected: no seq"),
        "{output}"
    );
    let probe = Probe::new(&codex.root().join("probe"));
    codex.hook(Event::PreToolUse, &probe, true);
    for (rewrite, runs) in [("env seq 1 2", true), ("seq 1 2", false)] {
        probe.answer(Some(
            &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "allow", "updatedInput": {"command": rewrite}}}),
        ));
        let output = codex.run(&flags).tool_output.unwrap();
        assert_eq!(
            output.ends_with("Output:\n1\n2\n"),
            runs,
            "{rewrite}: {output}"
        );
        assert_eq!(
            output.contains("rejected: no seq"),
            !runs,
            "{rewrite}: {output}"
        );
    }
}
