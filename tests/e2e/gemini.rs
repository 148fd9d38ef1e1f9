//! Gemini CLI (`@google/gemini-cli`) run headless (`gemini -p`) against a mock Gemini API on
//! 127.0.0.1: what reaches the model with no hook, the `BeforeTool`/`AfterTool` protocol proved
//! with a throwaway hook, and the Policy Engine decisions the hook must decide with.
//!
//! Offline set-up: `GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:PORT`, `GEMINI_API_KEY=dummy`, a
//! temporary `HOME` whose `~/.gemini/settings.json` selects `gemini-api-key` authentication and
//! turns folder trust off (else the run fails with "Invalid auth method", or ignores the
//! settings' hooks), and `-m gemini-2.5-pro` (else a model router first asks a "flash" model to
//! rate the prompt). The shell tool is offered with `-p` only in YOLO mode. The client then only
//! calls `POST /v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Map, Value, json};

use ctxoff::agent::gemini::policy::{Decision, Mode, Tier, parse_policy_file};
use ctxoff::agent::gemini::{Launch, Verdict, launch, verdict};

use crate::client;
use crate::fixture;
use crate::mock::{Reply, Request, Server};
use crate::probe::Probe;

const PACKAGE: &str = "@google/gemini-cli";
const VERSION: &str = "0.61.0";
const MODEL: &str = "gemini-2.5-pro";

const HEADLESS_YOLO: Launch = Launch {
    mode: Mode::Yolo,
    headless: true,
};

/// `seq 1 20000`'s output: 108,894 bytes.
const SEQ_BYTES: usize = 108_894;

/// The "model": asked with no tool result yet, it calls `run_shell_command` once for each of
/// `calls` (the tool's arguments), all in one answer; given results, it ends the turn.
fn model(calls: Vec<Value>) -> impl Fn(&Request) -> Reply + Send + Sync + 'static {
    move |request: &Request| {
        let path = format!("/v1beta/models/{MODEL}:streamGenerateContent?alt=sse");
        if request.method != "POST" || request.path != path {
            return Reply::Empty(404);
        }
        if request.header("x-goog-api-key") != Some("dummy") {
            return Reply::Empty(401);
        }
        let answered = request.json()["contents"]
            .as_array()
            .is_some_and(|contents| {
                contents.iter().any(|c| {
                    c["parts"].as_array().is_some_and(|parts| {
                        parts.iter().any(|p| p.get("functionResponse").is_some())
                    })
                })
            });
        let parts: Vec<Value> = match answered {
            false => calls
                .iter()
                .map(|args| json!({"functionCall": {"name": "run_shell_command", "args": args}}))
                .collect(),
            true => vec![json!({"text": "done"})],
        };
        let chunk = json!({
            "candidates": [{"content": {"parts": parts, "role": "model"}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
            "modelVersion": MODEL,
        });
        Reply::Events(vec![(None, chunk.to_string())])
    }
}

/// One temporary Gemini CLI set-up: home, settings, project folder and mock model.
pub(crate) struct Gemini {
    dir: tempfile::TempDir,
    exe: PathBuf,
    pub(crate) server: Server,
    settings: Value,
    /// ctxoff's scratch root for the run's commands, once ctxoff is installed.
    pub(crate) scratch: Option<PathBuf>,
    /// Let the client relaunch itself (with memory flags), as it does for its users; the
    /// protocol tests turn it off.
    pub(crate) relaunch: bool,
}

impl Gemini {
    /// A set-up whose model runs each of `commands` (arguments `{"command", "description"}`).
    pub(crate) fn new(commands: &[&str]) -> Gemini {
        let calls = commands
            .iter()
            .map(|c| json!({"command": c, "description": "Run the command"}))
            .collect();
        Gemini::with_calls(calls)
    }

    fn with_calls(calls: Vec<Value>) -> Gemini {
        let exe = client::install(PACKAGE, VERSION, "gemini");
        let server = Server::start(model(calls));
        let dir = tempfile::tempdir().expect("temporary folder");
        std::fs::create_dir_all(dir.path().join("home/.gemini")).unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        let settings = json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
            "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
        });
        let gemini = Gemini {
            dir,
            exe,
            server,
            settings,
            scratch: None,
            relaunch: false,
        };
        gemini.write_settings();
        gemini
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write_settings(&self) {
        std::fs::write(
            self.root().join("home/.gemini/settings.json"),
            serde_json::to_string_pretty(&self.settings).unwrap(),
        )
        .unwrap();
    }

    /// Sets `settings[key] = value` (a top-level key) and writes the file.
    pub(crate) fn set(&mut self, key: &str, value: Value) {
        self.settings[key] = value;
        self.write_settings();
    }

    /// Installs `before` and `after` as the shell tool's `BeforeTool` and `AfterTool` hooks.
    fn hooks(&mut self, before: Option<&Probe>, after: Option<&Probe>) {
        let entry = |probe: &Probe| {
            json!([{"matcher": "run_shell_command",
                    "hooks": [{"type": "command", "command": probe.command(), "timeout": 30000}]}])
        };
        let mut hooks = Map::new();
        if let Some(probe) = before {
            hooks.insert("BeforeTool".into(), entry(probe));
        }
        if let Some(probe) = after {
            hooks.insert("AfterTool".into(), entry(probe));
        }
        self.set("hooks", Value::Object(hooks));
    }

    /// Writes a user policy file `~/.gemini/policies/NAME`.
    pub(crate) fn user_policy(&self, name: &str, text: &str) {
        let dir = self.root().join("home/.gemini/policies");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(name), text).unwrap();
    }

    /// Runs `gemini -p` in `mode`; returns what reached the model for each call, in order: the
    /// `functionResponse.response` objects.
    pub(crate) fn run(&self, mode: &str) -> Vec<Value> {
        let out = crate::isolated(&mut Command::new("timeout"))
            .arg("300")
            .arg(&self.exe)
            .args([
                "-p",
                "Run the commands.",
                "-o",
                "json",
                "-m",
                MODEL,
                "--approval-mode",
                mode,
            ])
            .current_dir(self.root().join("project"))
            // Some clients take their folder from PWD, which the test runner set to its own.
            .env("PWD", self.root().join("project"))
            .env("HOME", self.root().join("home"))
            .env("GOOGLE_GEMINI_BASE_URL", self.server.url())
            .env("GEMINI_API_KEY", "dummy")
            .envs((!self.relaunch).then_some(("GEMINI_CLI_NO_RELAUNCH", "true")))
            .envs(self.scratch.iter().map(|s| ("CTXOFF_DIR", s)))
            .stdin(Stdio::null())
            .output()
            .expect("run gemini");
        assert!(
            out.status.success(),
            "gemini failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        let last = self
            .server
            .requests()
            .into_iter()
            .last()
            .expect("a request")
            .json();
        last["contents"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|c| c["parts"].as_array().cloned().unwrap_or_default())
            .filter_map(|p| p.get("functionResponse").map(|r| r["response"].clone()))
            .collect()
    }
}

/// The text of a tool result that ran.
pub(crate) fn output(response: &Value) -> &str {
    response["output"]
        .as_str()
        .unwrap_or_else(|| panic!("the command did not run: {response}"))
}

/// The client's own cut of a large output: a notice naming the saved file, then the first 8,000
/// and last 32,000 characters around `... [N characters omitted] ...`.
fn check_cut(text: &str) -> (usize, usize) {
    let (notice, body) = text.split_once('\n').unwrap();
    assert!(
        notice.starts_with("Output too large. Showing first 8,000 and last 32,000 characters. For full output see: "),
        "{notice}"
    );
    assert!(
        notice.contains("/home/.gemini/tmp/project/tool-outputs/session-"),
        "{notice}"
    );
    let (head, rest) = body.split_once("\n\n... [").expect("an omission marker");
    let (omitted, tail) = rest
        .split_once(" characters omitted] ...\n\n")
        .expect("marker end");
    let omitted: usize = omitted.replace(',', "").parse().unwrap();
    assert_eq!(head.chars().count(), 8_000);
    assert_eq!(tail.chars().count(), 32_000);
    (omitted, head.len() + tail.len())
}

#[test]
fn control_large_and_failing_output_reach_the_model_cut_to_8k_and_32k() {
    if !crate::enabled("gemini") {
        return;
    }
    let gemini = Gemini::new(&["seq 1 20000", "sh -c 'seq 1 20000; exit 3'"]);
    let responses = gemini.run("yolo");
    assert_eq!(responses.len(), 2);
    for (response, exit) in responses.iter().zip(["", "Exit Code: 3\n"]) {
        let text = output(response);
        let (omitted, kept) = check_cut(text);
        assert!(
            text.contains(&format!("19999\n20000\n{exit}Process Group PGID: ")),
            "{exit:?}"
        );
        // The wrapper (`<untrusted_context>\nOutput: … Process Group PGID: N\n</untrusted_context>`)
        // is counted in what was cut.
        assert!(
            omitted + kept > SEQ_BYTES && omitted + kept < SEQ_BYTES + 200,
            "{omitted} + {kept}"
        );
        eprintln!("gemini: kept {kept} characters, omitted {omitted}");
    }
}

#[test]
fn the_shell_tool_exists_in_headless_runs_only_in_yolo_mode() {
    if !crate::enabled("gemini") {
        return;
    }
    let gemini = Gemini::new(&["echo hi"]);
    for mode in ["default", "auto_edit", "plan"] {
        let responses = gemini.run(mode);
        let error = responses[0]["error"].as_str().unwrap_or_default();
        assert!(
            error.starts_with("Tool \"run_shell_command\" not found."),
            "{mode}: {responses:?}"
        );
        let declared = gemini.server.requests()[0].json()["tools"].to_string();
        assert!(
            !declared.contains("run_shell_command"),
            "{mode}: {declared}"
        );
    }
}

#[test]
fn before_tool_replaces_the_arguments_wholesale_and_policies_judge_the_result() {
    if !crate::enabled("gemini") {
        return;
    }
    // `dir_path` is not in the hook's answer: it is gone from the call that runs.
    let mut gemini = Gemini::with_calls(vec![
        json!({"command": "seq 1 3; pwd", "dir_path": "sub", "description": "Run it"}),
    ]);
    std::fs::create_dir_all(gemini.root().join("project/sub")).unwrap();
    let before = Probe::new(&gemini.root().join("before"));
    let after = Probe::new(&gemini.root().join("after"));
    gemini.hooks(Some(&before), Some(&after));
    let project = gemini.root().join("project");

    // `decision: "allow"` is ignored; the tool input is what counts.
    before.answer(Some(&json!({"decision": "allow",
        "hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {"command": "seq 1 2; pwd"}}})));
    let responses = gemini.run("yolo");
    let text = output(&responses[0]);
    assert!(
        text.contains(&format!("Output: 1\n2\n{}\n", project.display())),
        "{text}"
    );
    assert!(
        text.ends_with(
            "\n\n[System] Tool input parameters were modified by a hook before execution."
        ),
        "{text}"
    );
    let event = &before.events()[0];
    assert_eq!(event["hook_event_name"], "BeforeTool");
    assert_eq!(event["tool_name"], "run_shell_command");
    assert_eq!(
        event["tool_input"],
        json!({"command": "seq 1 3; pwd", "dir_path": "sub", "description": "Run it"})
    );
    fixture::check_event("gemini/before_tool.json", event, gemini.root());
    // The event does not name the approval mode; the hook's parent, the client, was started with
    // it, and a headless run keeps it.
    let parent = before.parent(0);
    let script = parent
        .iter()
        .position(|a| a.ends_with("/gemini"))
        .unwrap_or_else(|| panic!("no gemini script in {parent:?}"));
    assert_eq!(
        launch(&parent[script + 1..]),
        Some(HEADLESS_YOLO),
        "{parent:?}"
    );
    let after_event = &after.events()[0];
    assert_eq!(after_event["tool_input"]["command"], "seq 1 2; pwd");
    fixture::check_event("gemini/after_tool.json", after_event, gemini.root());

    // A user policy denying `seq` stops the original, and misses a rewrite to `env seq`.
    let deny_seq = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"seq\"\n\
                    decision = \"deny\"\npriority = 100\n";
    gemini.user_policy("deny-seq.toml", deny_seq);
    // The rules module says the hook must leave it alone.
    let rules = parse_policy_file(deny_seq, Tier::User, "deny-seq.toml").unwrap();
    let args = json!({"command": "seq 1 3; pwd", "description": "Run it"});
    assert_eq!(
        verdict(
            &rules,
            HEADLESS_YOLO,
            true,
            args.as_object().unwrap(),
            "env seq 1 2"
        ),
        Verdict::Rule {
            decision: Decision::Deny,
            source: "deny-seq.toml".into()
        }
    );
    before.answer(None);
    let denied = gemini.run("yolo");
    assert_eq!(
        denied[0],
        json!({"error": "Tool execution denied by policy."})
    );
    before.answer(Some(
        &json!({"hookSpecificOutput": {"hookEventName": "BeforeTool",
        "tool_input": {"command": "env seq 1 2"}}}),
    ));
    let ran = gemini.run("yolo");
    assert!(output(&ran[0]).contains("Output: 1\n2\n"), "{ran:?}");

    // Blocking says why, as an error.
    before.answer(Some(&json!({"decision": "deny", "reason": "not this one"})));
    let blocked = gemini.run("yolo");
    assert_eq!(
        blocked[0],
        json!({"error": "Tool execution blocked: not this one"})
    );
}

#[test]
fn after_tool_gets_the_whole_output_and_can_only_replace_it_as_an_error() {
    if !crate::enabled("gemini") {
        return;
    }
    let mut gemini = Gemini::new(&["seq 1 20000"]);
    let after = Probe::new(&gemini.root().join("after"));
    gemini.hooks(None, Some(&after));

    after.answer(Some(
        &json!({"decision": "block", "reason": "SUMMARY of 20000 lines"}),
    ));
    let replaced = gemini.run("yolo");
    assert_eq!(replaced[0], json!({"error": "SUMMARY of 20000 lines"}));
    let event = &after.events()[0];
    let full = event["tool_response"]["llmContent"].as_str().unwrap();
    assert!(
        full.starts_with("<untrusted_context>\nOutput: 1\n2\n3\n"),
        "{full:.100}"
    );
    assert!(full.contains("\n19999\n20000\nProcess Group PGID: "));
    assert!(
        full.len() > SEQ_BYTES,
        "the whole output: {} bytes",
        full.len()
    );

    after.answer(Some(
        &json!({"hookSpecificOutput": {"hookEventName": "AfterTool",
        "additionalContext": "SUMMARY of 20000 lines"}}),
    ));
    let appended = gemini.run("yolo");
    let text = output(&appended[0]);
    // Appended before the client cuts the output: the context ends the 32,000-character tail,
    // and the model still gets the cut output.
    assert!(
        text.ends_with(
            "</untrusted_context>\n\n<hook_context>SUMMARY of 20000 lines</hook_context>"
        )
    );
    check_cut(text);
}

/// Each set-up of `gemini/policy.json` run headless in YOLO mode, its commands called by the
/// model; what reached the model for each, against the recording (which the rules module's unit
/// tests decide again).
#[test]
#[ignore = "one client run per set-up: run when re-recording, with --ignored"]
fn policy_decisions_as_recorded() {
    if !crate::enabled("gemini") {
        return;
    }
    let recorded = fixture::read("gemini/policy.json");
    let mut fresh = recorded.clone();
    for setup in fresh["setups"].as_array_mut().unwrap() {
        let commands: Vec<String> = setup["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["command"].as_str().unwrap().to_owned())
            .collect();
        let refs: Vec<&str> = commands.iter().map(String::as_str).collect();
        let mut gemini = Gemini::new(&refs);
        for (name, text) in setup["user_policies"].as_object().into_iter().flatten() {
            gemini.user_policy(name, text.as_str().unwrap());
        }
        if let Some(tools) = setup.get("settings_tools") {
            gemini.set("tools", tools.clone());
        }
        let responses = gemini.run("yolo");
        assert_eq!(responses.len(), refs.len(), "{setup}");
        for (case, response) in setup["cases"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .zip(&responses)
        {
            case["outcome"] = Value::from(outcome(response));
        }
    }
    fresh["client"] = Value::from(format!("{PACKAGE} {VERSION}"));
    fixture::check("gemini/policy.json", &fresh);
}

/// How a call ended, in the fixture's words.
fn outcome(response: &Value) -> String {
    match (response["output"].as_str(), response["error"].as_str()) {
        (Some(_), _) => "ran".into(),
        (_, Some("Tool execution denied by policy.")) => "denied".into(),
        (_, Some(e)) if e.starts_with("Tool \"run_shell_command\" not found") => {
            "unavailable".into()
        }
        (_, Some(e))
            if e.ends_with(
                "requires user confirmation, which is not supported in non-interactive mode.",
            ) =>
        {
            "asked".into()
        }
        _ => format!("other: {response}"),
    }
}
