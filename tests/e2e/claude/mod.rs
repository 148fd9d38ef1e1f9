//! Claude Code, the real client: a mock Anthropic Messages API whose "model" asks the Bash tool to
//! run some commands and then ends its turn, and a runner for `claude -p` in a throwaway home and
//! project. What reached the model (each `tool_result`, and whether the client's JSON result
//! lists it as denied) is returned for the test to judge.
//!
//! The client is installed from the npm registry at [`VERSION`]; it talks only to
//! `ANTHROPIC_BASE_URL` (`HEAD /` and `POST /v1/messages`) when
//! `CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1`.

mod events;
mod matrix;
mod record;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::mock::{Reply, Request, Server};

pub const PACKAGE: &str = "@anthropic-ai/claude-code";
/// The version whose behaviour was measured and whose decisions are recorded in
/// `tests/fixtures/claude-code/decisions.json`.
pub const VERSION: &str = "2.1.197";

/// The client's executable, installed once per checkout.
pub fn client() -> PathBuf {
    crate::client::install(PACKAGE, VERSION, "claude")
}

/// `ANTHROPIC_API_KEY` for the client; the mock refuses requests without it.
const API_KEY: &str = "dummy";

/// A file of `tests/fixtures/claude-code/`.
pub fn fixture(name: &str) -> PathBuf {
    crate::fixture::path(&format!("claude-code/{name}"))
}

pub fn read_fixture(name: &str) -> Value {
    crate::fixture::read(&format!("claude-code/{name}"))
}

/// The `id` of the model's `n`th tool call.
fn tool_use_id(n: usize) -> String {
    format!("toolu_ctxoff_{n:03}")
}

/// A mock Messages API. Its model answers the first request that offers the Bash tool with one
/// Bash call per command (all in one message, as a model calling tools in parallel does), and
/// every later request with a short text that ends the turn.
pub fn model(commands: Vec<String>) -> Server {
    Server::start(move |request| answer(request, &commands))
}

fn answer(request: &Request, commands: &[String]) -> Reply {
    if request.method == "HEAD" {
        return Reply::Empty(200);
    }
    let path = request.path.split('?').next().unwrap_or_default();
    if path == "/v1/messages/count_tokens" {
        return Reply::Json(200, json!({"input_tokens": 1}));
    }
    if request.method != "POST" || path != "/v1/messages" {
        return Reply::Empty(404);
    }
    if request.header("x-api-key") != Some(API_KEY) {
        return Reply::Json(
            401,
            json!({"type": "error", "error": {"type": "authentication_error",
                                              "message": "the mock expects the test's API key"}}),
        );
    }
    let body = request.json();
    let offers_bash = body["tools"]
        .as_array()
        .is_some_and(|tools| tools.iter().any(|t| t["name"] == "Bash"));
    let content: Vec<Value> = if offers_bash && tool_results_in(&body).is_empty() {
        commands
            .iter()
            .enumerate()
            .map(|(n, command)| {
                json!({"type": "tool_use", "id": tool_use_id(n), "name": "Bash",
                       "input": {"command": command, "description": "Run a command"}})
            })
            .collect()
    } else {
        vec![json!({"type": "text", "text": "Done."})]
    };
    let stop = match content[0]["type"] == "tool_use" {
        true => "tool_use",
        false => "end_turn",
    };
    if body["stream"] == true {
        Reply::Events(stream(&content, stop))
    } else {
        Reply::Json(
            200,
            json!({"id": "msg_ctxoff", "type": "message", "role": "assistant",
                   "model": body["model"], "content": content, "stop_reason": stop,
                   "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}}),
        )
    }
}

/// The server-sent events of a streamed message with `content`.
fn stream(content: &[Value], stop: &str) -> Vec<(Option<String>, String)> {
    let mut events = vec![json!({
        "type": "message_start",
        "message": {"id": "msg_ctxoff", "type": "message", "role": "assistant",
                    "model": "claude-sonnet-4-5", "content": [], "stop_reason": null,
                    "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}}
    })];
    for (index, block) in content.iter().enumerate() {
        let (start, delta) = match block["type"].as_str() {
            Some("tool_use") => (
                json!({"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}),
                json!({"type": "input_json_delta", "partial_json": block["input"].to_string()}),
            ),
            _ => (
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": block["text"]}),
            ),
        };
        events.push(json!({"type": "content_block_start", "index": index, "content_block": start}));
        events.push(json!({"type": "content_block_delta", "index": index, "delta": delta}));
        events.push(json!({"type": "content_block_stop", "index": index}));
    }
    events.push(json!({"type": "message_delta",
                       "delta": {"stop_reason": stop, "stop_sequence": null},
                       "usage": {"output_tokens": 1}}));
    events.push(json!({"type": "message_stop"}));
    events
        .into_iter()
        .map(|event| (event["type"].as_str().map(str::to_owned), event.to_string()))
        .collect()
}

/// The `tool_result` blocks of a Messages request, from every message (with many parallel calls
/// the client sends them over more than one message, and follows them with reminders).
fn tool_results_in(body: &Value) -> Vec<Value> {
    let messages = body["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    messages
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_result")
        .cloned()
        .collect()
}

/// One `claude -p` run: the mode, the settings of each scope, the command line, and the commands
/// the model asks Bash to run.
#[derive(Debug, Clone, Default)]
pub struct Claude {
    /// `--permission-mode`.
    pub mode: String,
    /// `$CLAUDE_CONFIG_DIR/settings.json`.
    pub user: Option<Value>,
    /// The project's `.claude/settings.json`.
    pub project: Option<Value>,
    /// The project's `.claude/settings.local.json`.
    pub local: Option<Value>,
    /// Whether the project is marked trusted in the client's global config, as it is once a
    /// user has accepted the trust dialog. Allow rules of `.claude/settings.json` are ignored in
    /// an untrusted project.
    pub trusted: bool,
    /// More arguments: `--allowedTools`, `--disallowedTools`, `--settings`…
    pub args: Vec<String>,
    /// More environment variables for the client (and so for its commands and hooks).
    pub env: Vec<(String, String)>,
    /// Programs put first on PATH as stubs that print `ran NAME ARGS` and exit 0, so a command
    /// running does not depend on what the machine has installed.
    pub stubs: Vec<String>,
    /// Files written into the project (path relative to it, content) before the client starts.
    pub files: Vec<(String, String)>,
    /// Install ctxoff's hooks with `ctxoff init claude` in the user's settings (after `user` is
    /// written), and give ctxoff a scratch root inside the run's directory.
    pub ctxoff: bool,
    /// The commands, one Bash call each, all in the model's first answer.
    pub commands: Vec<String>,
}

/// What a run produced.
#[derive(Debug)]
pub struct Transcript {
    /// One per command, in order.
    pub calls: Vec<Call>,
    /// The client's stderr.
    pub stderr: String,
    /// The run's directory (home, project), removed when the transcript is dropped.
    pub dir: tempfile::TempDir,
    pub project: PathBuf,
    pub home: PathBuf,
}

/// One Bash call as the model saw its result.
#[derive(Debug, Clone)]
pub struct Call {
    pub command: String,
    /// Listed in the result's `permission_denials`: the client did not run it.
    pub denied: bool,
    /// The `tool_result` content as text (`None` when the model never got a result).
    pub content: Option<String>,
    pub is_error: bool,
}

impl Claude {
    pub fn new(mode: &str, commands: &[&str]) -> Claude {
        Claude {
            mode: mode.to_owned(),
            trusted: true,
            commands: commands.iter().map(|c| c.to_string()).collect(),
            ..Claude::default()
        }
    }

    /// Runs the client to the end of its turn (at most two minutes).
    pub fn run(&self) -> Transcript {
        let exe = client();
        let dir = tempfile::tempdir().expect("temporary directory");
        let root = dir.path().canonicalize().expect("canonical temp dir");
        let (home, project, bin, tmp) = (
            root.join("home"),
            root.join("project"),
            root.join("bin"),
            root.join("tmp"),
        );
        let config = home.join(".claude");
        for d in [&config, &project.join(".claude"), &bin, &tmp] {
            std::fs::create_dir_all(d).expect("create the run's directories");
        }
        let write = |path: &Path, value: &Value| {
            std::fs::write(path, serde_json::to_string_pretty(value).unwrap())
                .expect("write a settings file")
        };
        if let Some(user) = &self.user {
            write(&config.join("settings.json"), user);
        }
        if let Some(settings) = &self.project {
            write(&project.join(".claude/settings.json"), settings);
        }
        if let Some(local) = &self.local {
            write(&project.join(".claude/settings.local.json"), local);
        }
        if self.trusted {
            let key = project.to_string_lossy();
            write(
                &config.join(".claude.json"),
                &json!({"projects": {key: {"hasTrustDialogAccepted": true}}}),
            );
        }
        init_repository(&project);
        for (name, content) in &self.files {
            let path = project.join(name);
            std::fs::create_dir_all(path.parent().unwrap()).expect("create a file's directory");
            std::fs::write(path, content).expect("write a project file");
        }
        let mut env = self.env.clone();
        if self.ctxoff {
            install_ctxoff(&home, &config, &project);
            env.push((
                "CTXOFF_DIR".into(),
                root.join("scratch").display().to_string(),
            ));
        }
        for stub in &self.stubs {
            write_stub(&bin.join(stub));
        }
        let server = model(self.commands.clone());
        // The stubs come first, before the PATH given in `env` or inherited.
        let inherited = match env.iter().find(|(k, _)| k == "PATH") {
            Some((_, path)) => path.into(),
            None => std::env::var_os("PATH").unwrap_or_default(),
        };
        let path = std::env::join_paths(
            std::iter::once(bin.clone()).chain(std::env::split_paths(&inherited)),
        )
        .expect("PATH");
        let mut command = Command::new(&exe);
        command
            .args(["-p", "Run the commands.", "--output-format", "json"])
            .args(["--permission-mode", &self.mode])
            .args(&self.args)
            .current_dir(&project)
            .env_clear()
            .env("PATH", path)
            .env("HOME", &home)
            .env("CLAUDE_CONFIG_DIR", &config)
            .env("TMPDIR", &tmp)
            .env("LANG", "C.UTF-8")
            .env("ANTHROPIC_BASE_URL", server.url())
            .env("ANTHROPIC_API_KEY", API_KEY)
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .env("IS_SANDBOX", "1")
            .envs(env.iter().filter(|(k, _)| k != "PATH").map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let (stdout, stderr) = run_with_deadline(command, Duration::from_secs(120));
        let result: Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|e| {
            panic!("claude printed no JSON result ({e}):\n{stdout}\nstderr:\n{stderr}")
        });
        let results = server
            .requests()
            .iter()
            .map(|r| tool_results_in(&r.json()))
            .rfind(|r| !r.is_empty())
            .unwrap_or_default();
        let denied: Vec<&str> = result["permission_denials"]
            .as_array()
            .map(|d| d.iter().filter_map(|d| d["tool_use_id"].as_str()).collect())
            .unwrap_or_default();
        let calls = self
            .commands
            .iter()
            .enumerate()
            .map(|(n, command)| {
                let id = tool_use_id(n);
                let block = results.iter().find(|r| r["tool_use_id"] == id.as_str());
                Call {
                    command: command.clone(),
                    denied: denied.contains(&id.as_str()),
                    content: block.map(|b| content_text(&b["content"])),
                    is_error: block.is_some_and(|b| b["is_error"] == true),
                }
            })
            .collect();
        Transcript {
            calls,
            stderr,
            dir,
            project,
            home,
        }
    }
}

impl Transcript {
    /// `text` with this run's directories replaced by `<project>` and `<home>`, so it can be
    /// compared and recorded.
    pub fn sanitize(&self, text: &str) -> String {
        // The client names a project's folder under `~/.claude/projects` after its path.
        let slug: String = self
            .project
            .to_string_lossy()
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        text.replace(&slug, "<project-slug>")
            .replace(&*self.project.to_string_lossy(), "<project>")
            .replace(&*self.home.to_string_lossy(), "<home>")
            .replace(&*self.dir.path().to_string_lossy(), "<run>")
    }
}

/// A `tool_result` content (a string, or text blocks) as one string.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// Runs `ctxoff init claude` as a user would, for the client's home and config directory.
fn install_ctxoff(home: &Path, config: &Path, project: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_ctxoff"))
        .args(["init", "claude"])
        .current_dir(project)
        .env("HOME", home)
        .env("CLAUDE_CONFIG_DIR", config)
        .output()
        .expect("run ctxoff init claude");
    assert!(
        out.status.success(),
        "ctxoff init claude failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Makes `project` a git repository with one commit of a README, as most projects are (the
/// client treats a project that is not one with more suspicion).
fn init_repository(project: &Path) {
    std::fs::write(project.join("README.md"), "# A project\n\nfoo\n").expect("write README");
    for args in [
        &["init", "-q"][..],
        &["add", "README.md"],
        &[
            "-c",
            "user.name=ctxoff",
            "-c",
            "user.email=ctxoff@example.invalid",
            "commit",
            "-qm",
            "init",
        ],
    ] {
        let status = Command::new("git")
            .args(args)
            .current_dir(project)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .stdout(Stdio::null())
            .status()
            .expect("run git");
        assert!(status.success(), "git {args:?} failed in the test project");
    }
}

fn write_stub(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, "#!/bin/sh\necho \"ran ${0##*/} $*\"\n").expect("write a stub");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod a stub");
}

/// Runs `command` and returns its stdout and stderr; kills it and panics after `deadline`.
fn run_with_deadline(mut command: Command, deadline: Duration) -> (String, String) {
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {:?}: {e}", command.get_program()));
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        text
    });
    let mut stdout = String::new();
    let started = Instant::now();
    let collect = std::thread::spawn(move || {
        let _ = out.read_to_string(&mut stdout);
        stdout
    });
    loop {
        if child.try_wait().ok().flatten().is_some() {
            break;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("claude did not finish within {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    (
        collect.join().unwrap_or_default(),
        reader.join().unwrap_or_default(),
    )
}

/// Runs `jobs` on at most `parallel` threads and returns their results in order.
pub fn run_parallel<T: Send, F: FnOnce() -> T + Send>(jobs: Vec<F>, parallel: usize) -> Vec<T> {
    let jobs: Vec<std::sync::Mutex<Option<F>>> = jobs
        .into_iter()
        .map(|j| std::sync::Mutex::new(Some(j)))
        .collect();
    let results: Vec<std::sync::Mutex<Option<T>>> =
        jobs.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..parallel.max(1) {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(job) = jobs.get(n) else { break };
                    let job = job.lock().unwrap().take().expect("each job runs once");
                    *results[n].lock().unwrap() = Some(job());
                }
            });
        }
    });
    results
        .into_iter()
        .map(|r| r.into_inner().unwrap().expect("every job ran"))
        .collect()
}

/// How many client runs at once: `CTXOFF_E2E_JOBS`, else 4 (each run is mostly waiting on its
/// own start-up; more than that slows a 2-core machine down).
pub fn parallelism() -> usize {
    std::env::var("CTXOFF_E2E_JOBS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4)
}
