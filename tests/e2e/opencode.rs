//! opencode (`opencode-ai`) run by `opencode run` against a mock OpenAI Chat Completions API on
//! 127.0.0.1 (its `@ai-sdk/openai-compatible` provider): what reaches the model with no plugin,
//! the `tool.execute.before`/`after` plugin protocol proved with a throwaway plugin, and the
//! `permission` decisions the plugin must decide with.
//!
//! Offline set-up: the project's `opencode.json` declares a provider with
//! `"npm": "@ai-sdk/openai-compatible"` (bundled in the client) and
//! `options.baseURL = "http://127.0.0.1:PORT/v1"`, and selects its model; `HOME` and the XDG
//! folders are temporary; `OPENCODE_DISABLE_MODELS_FETCH` and `OPENCODE_DISABLE_AUTOUPDATE` keep
//! it from models.dev and its update check, and `small_model` names the mock too (for session
//! titles it would otherwise pick a hosted model). At start-up it installs `@opencode-ai/plugin` into
//! each config folder from the npm registry, in the background; `npm_config_cache` points that
//! at a cache under the target folder. The client calls `POST /v1/chat/completions` (streamed),
//! once for a session title and once per step.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

use ctxoff::agent::opencode::{Action, Verdict, defaults, rules_from_config, verdict};

use crate::client;
use crate::fixture;
use crate::mock::{Reply, Request, Server};

const PACKAGE: &str = "opencode-ai";
const VERSION: &str = "1.18.33";

/// What the bash tool answers when a rule denies the call.
pub(crate) const DENIED: &str =
    "The user has specified a rule which prevents you from using this specific tool call.";

/// The "model": each step it calls `bash` with the next of `commands`, one call per step, until
/// all have a result; title requests (no tools offered) get a title.
pub(crate) fn model(commands: Vec<String>) -> impl Fn(&Request) -> Reply + Send + Sync + 'static {
    move |request: &Request| {
        if request.method != "POST" || request.path != "/v1/chat/completions" {
            return Reply::Empty(404);
        }
        if request.header("authorization") != Some("Bearer dummy") {
            return Reply::Empty(401);
        }
        let body = request.json();
        let chunk = |delta: Value, finish: Option<&str>| {
            let chunk = json!({"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0,
                "model": "mock-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
            (None, chunk.to_string())
        };
        let done = (None, "[DONE]".to_owned());
        let has_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
        let answered = body["messages"]
            .as_array()
            .map_or(0, |m| m.iter().filter(|m| m["role"] == "tool").count());
        let events = match commands.get(answered).filter(|_| has_tools) {
            Some(command) => {
                let call = json!({"index": 0, "id": format!("call_{answered}"), "type": "function",
                    "function": {"name": "bash", "arguments":
                        json!({"command": command, "description": "Run the command"}).to_string()}});
                vec![
                    chunk(
                        json!({"role": "assistant", "content": null, "tool_calls": [call]}),
                        None,
                    ),
                    chunk(json!({}), Some("tool_calls")),
                    done,
                ]
            }
            None => vec![
                chunk(json!({"role": "assistant", "content": "done"}), None),
                chunk(json!({}), Some("stop")),
                done,
            ],
        };
        Reply::Events(events)
    }
}

/// One temporary opencode set-up: home, XDG folders, project, mock model.
pub(crate) struct Opencode {
    dir: tempfile::TempDir,
    exe: PathBuf,
    server: Server,
    /// ctxoff's scratch root for the run's commands, once ctxoff is installed.
    pub(crate) scratch: Option<PathBuf>,
}

/// What one `opencode run` did.
pub(crate) struct Run {
    /// The tool results the model was sent, in order.
    pub(crate) results: Vec<String>,
    pub(crate) stderr: String,
}

impl Opencode {
    /// A set-up whose model runs `commands` one after another, under `permission` (`None`: no
    /// `permission` key).
    pub(crate) fn new(commands: &[&str], permission: Option<&Value>) -> Opencode {
        let exe = client::install(PACKAGE, VERSION, "opencode");
        let server = Server::start(model(commands.iter().map(|c| c.to_string()).collect()));
        let dir = tempfile::tempdir().expect("temporary folder");
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        let mut config = json!({
            "$schema": "https://opencode.ai/config.json",
            "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
                "options": {"baseURL": format!("{}/v1", server.url()), "apiKey": "dummy"},
                "models": {"mock-model": {"name": "Mock Model"}}}},
            "model": "mock/mock-model",
            // Session titles use a small model; without models.dev the default is a hosted one.
            "small_model": "mock/mock-model",
        });
        if let Some(permission) = permission {
            config["permission"] = permission.clone();
        }
        std::fs::write(
            dir.path().join("project/opencode.json"),
            serde_json::to_string_pretty(&config).unwrap(),
        )
        .unwrap();
        Opencode {
            dir,
            exe,
            server,
            scratch: None,
        }
    }

    pub(crate) fn root(&self) -> &Path {
        self.dir.path()
    }

    /// Installs the throwaway plugin (in the user's plugin folder); it records both hooks'
    /// arguments under `probe/`, rewrites the command to `probe/rewrite.txt` and replaces the
    /// output with `probe/replace.txt` when those exist.
    fn plugin(&self) -> PathBuf {
        let probe = self.root().join("probe");
        let plugins = self.root().join("home/.config/opencode/plugin");
        std::fs::create_dir_all(&probe).unwrap();
        std::fs::create_dir_all(&plugins).unwrap();
        let plugin = format!(
            r#"import {{ appendFileSync, existsSync, readFileSync }} from "node:fs";
const dir = {dir};
export const Probe = async () => ({{
  "tool.execute.before": async (input, output) => {{
    appendFileSync(dir + "/before.jsonl", JSON.stringify({{ input, output }}) + "\n");
    if (existsSync(dir + "/rewrite.txt")) output.args.command = readFileSync(dir + "/rewrite.txt", "utf8");
  }},
  "tool.execute.after": async (input, output) => {{
    appendFileSync(dir + "/after.jsonl", JSON.stringify({{ input, output }}) + "\n");
    if (existsSync(dir + "/replace.txt")) output.output = readFileSync(dir + "/replace.txt", "utf8");
  }},
}});
"#,
            dir = Value::from(probe.display().to_string())
        );
        std::fs::write(plugins.join("probe.js"), plugin).unwrap();
        probe
    }

    pub(crate) fn run(&self) -> Run {
        let home = self.root().join("home");
        let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-clients/npm-cache");
        let out = crate::isolated(&mut Command::new("timeout"))
            .arg("300")
            .arg(&self.exe)
            .args(["run", "--format", "json", "Run the commands."])
            .current_dir(self.root().join("project"))
            // Some clients take their folder from PWD, which the test runner set to its own.
            .env("PWD", self.root().join("project"))
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("XDG_DATA_HOME", home.join(".local/share"))
            .env("XDG_CACHE_HOME", home.join(".cache"))
            .env("XDG_STATE_HOME", home.join(".local/state"))
            .env("OPENCODE_DISABLE_MODELS_FETCH", "true")
            .env("OPENCODE_DISABLE_AUTOUPDATE", "true")
            .env("npm_config_cache", cache)
            .envs(self.scratch.iter().map(|s| ("CTXOFF_DIR", s)))
            .stdin(Stdio::null())
            .output()
            .expect("run opencode");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if !out.status.success() {
            let log = std::fs::read_to_string(home.join(".local/share/opencode/log/opencode.log"));
            panic!(
                "opencode failed ({}):\n{stderr}\n{}\nits log:\n{}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                log.unwrap_or_default()
            );
        }
        let last = self
            .server
            .requests()
            .into_iter()
            .last()
            .expect("a request")
            .json();
        let results = last["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "tool")
            .map(|m| match &m["content"] {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect();
        Run { results, stderr }
    }
}

/// The lines of a JSON-lines file the plugin wrote.
fn records(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect()
}

/// `seq 1 20000`'s whole output.
fn seq_20000() -> String {
    (1..=20_000).map(|n| format!("{n}\n")).collect()
}

/// A result opencode cut: its notice names the file the output it read is saved to, and the rest
/// is that output's last 2,000 lines (`\n`-separated pieces, so 1,999 lines and the empty piece
/// after the last newline). Returns the saved output.
fn assert_cut(result: &str) -> String {
    let (notice, kept) = result
        .split_once("\n\n")
        .and_then(|(head, rest)| {
            let (path, kept) = rest.split_once("\n\n")?;
            Some((format!("{head}\n\n{path}"), kept))
        })
        .unwrap_or_else(|| panic!("no notice: {:.400}", result));
    assert!(
        notice.starts_with("...output truncated...\n\nFull output saved to: "),
        "{notice}"
    );
    assert!(
        notice.contains("/home/.local/share/opencode/tool-output/tool_"),
        "{notice}"
    );
    let path = notice.rsplit_once(": ").map_or("", |(_, p)| p);
    let saved = std::fs::read_to_string(path).expect("the saved output");
    let pieces: Vec<&str> = saved.split('\n').collect();
    let last = pieces[pieces.len().saturating_sub(2000)..].join("\n");
    assert_eq!(kept, last, "the saved output's last 2,000 lines");
    saved
}

/// What the client saved of a command's output: one unbroken piece of it, not always all of it
/// (code, the shell tool's `run`). It stops handling output once the shell's exit status is in, so
/// under load it saves only a start; and it saves what it handled in two ways: past 50 KiB it
/// starts a file in the background and appends to it, but when the call settles before that file
/// is named, it saves instead the chunks it kept in memory, the last 100 KiB or less of what it
/// handled, cut at chunk boundaries, so a piece from the middle or the end (seen: the last 72,030
/// of 108,894 bytes, in a CI run on 2 cores).
fn assert_read_of(saved: &str, whole: &str) {
    assert!(
        !saved.is_empty() && whole.contains(saved),
        "a piece of the output: {} of {} bytes, from {:?} to {:?}",
        saved.len(),
        whole.len(),
        &saved[..saved.len().min(40)],
        &saved[saved.len().saturating_sub(40)..]
    );
    if saved.len() < whole.len() {
        eprintln!(
            "opencode saved {} of {} bytes of the output",
            saved.len(),
            whole.len()
        );
    }
}

#[test]
fn control_output_keeps_its_last_2000_lines_and_loses_the_exit_code() {
    if !crate::enabled("opencode") {
        return;
    }
    let opencode = Opencode::new(&["seq 1 20000", "sh -c 'seq 1 20000; exit 3'"], None);
    let run = opencode.run();
    assert_eq!(run.results.len(), 2);
    for result in &run.results {
        assert_read_of(&assert_cut(result), &seq_20000());
        // Nothing says the second command failed.
        assert!(!result.to_lowercase().contains("exit"));
    }
}

#[test]
fn plugin_rewrites_the_command_and_replaces_the_output() {
    if !crate::enabled("opencode") {
        return;
    }
    let permission = json!({"bash": {"*": "allow", "seq *": "deny"}});
    let opencode = Opencode::new(&["seq 1 2", "echo ORIGINAL"], Some(&permission));
    let probe = opencode.plugin();

    // Without the plugin's help, the rule denies `seq`.
    let run = opencode.run();
    assert!(run.results[0].starts_with(DENIED), "{}", run.results[0]);
    assert_eq!(run.results[1], "ORIGINAL\n");
    let before = records(&probe.join("before.jsonl"));
    assert_eq!(before.len(), 2, "the hook runs before the permission check");
    let event = &before[1];
    assert_eq!(event["input"]["tool"], "bash");
    assert_eq!(
        event["output"]["args"],
        json!({"command": "echo ORIGINAL", "description": "Run the command"})
    );
    fixture::check_event("opencode/tool_execute_before.json", event, opencode.root());
    // The permission module agrees: a rule decides `seq`, only the catch-all decides `echo`.
    let rules = [defaults(), rules_from_config(&permission, None).unwrap()].concat();
    assert_eq!(
        verdict(&rules, "seq 1 2", "env seq 1 2"),
        Verdict::Rule {
            action: Action::Deny,
            pattern: "seq *".into()
        }
    );
    assert_eq!(
        verdict(&rules, "echo ORIGINAL", "ctxoff -- echo ORIGINAL"),
        Verdict::MayRewrite
    );
    let after = records(&probe.join("after.jsonl"));
    assert_eq!(after.len(), 1, "a denied call has no after hook");
    let event = &after[0];
    assert_eq!(event["output"]["output"], "ORIGINAL\n");
    assert_eq!(event["output"]["metadata"]["exit"], 0);
    fixture::check_event("opencode/tool_execute_after.json", event, opencode.root());

    // Rewritten, both run: the rule is checked on what the plugin left, which it misses; and the
    // model gets the replaced output.
    std::fs::write(probe.join("rewrite.txt"), "env seq 1 2").unwrap();
    std::fs::write(probe.join("replace.txt"), "REPLACED").unwrap();
    let run = opencode.run();
    assert_eq!(run.results, ["REPLACED", "REPLACED"]);
    let after = records(&probe.join("after.jsonl"));
    assert_eq!(after[1]["output"]["output"], "1\n2\n", "{}", after[1]);
}

/// The after hook gets the result the model gets, already cut. opencode settles a call as soon as
/// the shell's exit status is in and stops handling output then; it records every chunk in the
/// session as it comes, so under load it falls behind, and what it has not handled by then is lost
/// to the model, the hook and the saved file alike: the saved output is a piece of the whole
/// (see `assert_read_of`).
#[test]
fn after_hook_sees_the_output_already_cut() {
    if !crate::enabled("opencode") {
        return;
    }
    let opencode = Opencode::new(&["seq 1 20000"], None);
    let probe = opencode.plugin();
    let run = opencode.run();
    let after = records(&probe.join("after.jsonl"));
    assert_eq!(after.len(), 1, "{}", run.stderr);
    let output = after[0]["output"]["output"].as_str().unwrap();
    assert_eq!(output, run.results[0], "the hook sees what the model gets");
    let metadata = &after[0]["output"]["metadata"];
    assert_eq!(metadata["truncated"], true);
    assert_eq!(metadata["exit"], 0);
    let saved = assert_cut(output);
    assert_eq!(
        metadata["outputPath"].as_str(),
        output
            .lines()
            .nth(2)
            .and_then(|l| l.strip_prefix("Full output saved to: "))
    );
    assert_read_of(&saved, &seq_20000());
}

/// Each set-up of `opencode/permission.json` (a `permission` value) with its commands called by
/// the model: what reached the model for each, against the recording (which the permission
/// module's unit tests decide again). An `ask` ends `opencode run`; the commands after it run in
/// a fresh session.
#[test]
#[ignore = "one client run per set-up: run when re-recording, with --ignored"]
fn permission_decisions_as_recorded() {
    if !crate::enabled("opencode") {
        return;
    }
    let recorded = fixture::read("opencode/permission.json");
    let mut fresh = recorded.clone();
    for setup in fresh["setups"].as_array_mut().unwrap() {
        let permission = setup.get("permission").cloned();
        let cases = setup["cases"].as_array_mut().unwrap();
        let mut next = 0;
        while next < cases.len() {
            let commands: Vec<String> = cases[next..]
                .iter()
                .map(|c| c["command"].as_str().unwrap().to_owned())
                .collect();
            let refs: Vec<&str> = commands.iter().map(String::as_str).collect();
            let opencode = Opencode::new(&refs, permission.as_ref());
            let run = opencode.run();
            for result in &run.results {
                let outcome = if result.starts_with(DENIED) {
                    "denied"
                } else if result.contains("Model tried to call unavailable tool 'bash'") {
                    "unavailable"
                } else {
                    "ran"
                };
                cases[next]["outcome"] = Value::from(outcome);
                next += 1;
            }
            if next < cases.len() {
                // The run stopped at this command: the client asked, and `run` refused.
                let command = cases[next]["command"].as_str().unwrap();
                let asked = if run
                    .stderr
                    .contains(&format!("permission requested: bash ({command});"))
                {
                    "asked"
                } else if run
                    .stderr
                    .contains("permission requested: external_directory (")
                {
                    "asked: external_directory"
                } else {
                    panic!("{command}: no result and no question: {}", run.stderr)
                };
                cases[next]["outcome"] = Value::from(asked);
                next += 1;
            }
        }
    }
    fresh["client"] = Value::from(format!("{PACKAGE} {VERSION}"));
    fixture::check("opencode/permission.json", &fresh);
}
