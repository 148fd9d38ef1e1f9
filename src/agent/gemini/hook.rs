//! `ctxoff hook gemini`: the answer to Gemini CLI's `BeforeTool` event for its shell tool
//! (`run_shell_command`).
//!
//! The client replaces the call's arguments with `hookSpecificOutput.tool_input` and then runs
//! its Policy Engine on them, so the hook rewrites only where the module's verdict says the
//! client decides the original and the rewrite alike: a headless run in YOLO mode (read from the
//! client's own command line, the hook's parent process) where no rule matches either command.
//! The rules are those of every policy folder and settings file the client reads; a folder or
//! flag that adds rules this hook cannot read (`--policy`, `policyPaths`…), or a sandboxed
//! client (where ctxoff's path does not exist), means no rewrite.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::policy::{PolicyError, Rule, Tier, parse_policy_file, settings_rules};
use super::{Launch, Verdict, launch, verdict};
use crate::agent::Agent;
use crate::agent::offload::{self, Finished};
use crate::agent::rewrite::{self, Call};
use crate::config::Settings;
use crate::format::shell_quote;

/// Where the hook looks, and what it knows of the process that ran it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Env {
    pub home: Option<PathBuf>,
    /// `GEMINI_PROJECT_DIR`, which the client gives its hooks.
    pub project: Option<PathBuf>,
    /// The system's configuration folder, `/etc/gemini-cli`.
    pub system: PathBuf,
    /// `GEMINI_CLI_SYSTEM_SETTINGS_PATH`, `GEMINI_CLI_SYSTEM_DEFAULTS_PATH`.
    pub system_settings: Option<PathBuf>,
    pub system_defaults: Option<PathBuf>,
    /// The command lines of the hook's ancestors, parent first.
    pub ancestors: Vec<Vec<String>>,
    /// `SANDBOX`, which the client sets when it runs inside its sandbox.
    pub sandboxed: bool,
    pub path: Option<OsString>,
    pub ctxoff: Option<PathBuf>,
}

impl Env {
    pub(crate) fn from_process(home: Option<&Path>) -> Env {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Env {
            home: home.map(Path::to_path_buf),
            project: var("GEMINI_PROJECT_DIR").map(PathBuf::from),
            system: PathBuf::from("/etc/gemini-cli"),
            system_settings: var("GEMINI_CLI_SYSTEM_SETTINGS_PATH").map(PathBuf::from),
            system_defaults: var("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").map(PathBuf::from),
            ancestors: ancestors(4),
            sandboxed: var("SANDBOX").is_some(),
            path: var("PATH"),
            ctxoff: crate::agent::wrap::ctxoff_path(),
        }
    }

    fn user_dir(&self) -> Option<PathBuf> {
        self.home.as_ref().map(|h| h.join(".gemini"))
    }
}

/// The command lines of up to `n` ancestors of this process, parent first.
fn ancestors(n: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut pid = std::os::unix::process::parent_id();
    while out.len() < n && pid > 1 {
        let Ok(bytes) = std::fs::read(format!("/proc/{pid}/cmdline")) else {
            break;
        };
        out.push(
            bytes
                .split(|b| *b == 0)
                .filter(|w| !w.is_empty())
                .map(|w| String::from_utf8_lossy(w).into_owned())
                .collect(),
        );
        let Some(parent) = crate::store::process_stat(pid).map(|(_, ppid, _)| ppid) else {
            break;
        };
        pid = parent;
    }
    out
}

/// The client's arguments (after its script), from the first ancestor that runs it: `node
/// [NODE FLAGS] …/gemini ARGS` (the client relaunches itself with memory flags) or a `gemini`
/// executable; shells running the hook in between are skipped.
pub(crate) fn client_args(ancestors: &[Vec<String>]) -> Option<&[String]> {
    for argv in ancestors {
        let program = argv.first().map(|p| base_name(p))?;
        if program.starts_with("gemini") {
            return Some(&argv[1..]);
        }
        if program.starts_with("node") || program == "bun" {
            let script = argv[1..].iter().position(|a| !a.starts_with('-'))? + 1;
            return argv[script].contains("gemini").then(|| &argv[script + 1..]);
        }
        if !matches!(program, "sh" | "bash" | "dash" | "zsh") {
            return None;
        }
    }
    None
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Flags that add rules or change where commands run, which the hook does not follow.
const UNFOLLOWED_FLAGS: &[&str] = &[
    "--policy",
    "--admin-policy",
    "--allowed-tools",
    "-s",
    "--sandbox",
    "--acp",
    "--experimental-acp",
];

/// The hook's answer to `event`: before a shell call, its rewrite; after one, the request to
/// replace its large output with ctxoff's summary; or why there is none.
pub(crate) fn answer(event: &str, settings: Option<&Settings>, env: &Env) -> Result<Value, String> {
    let event: Value = serde_json::from_str(event).map_err(|_| "the event is not JSON")?;
    if event["tool_name"] != super::policy::SHELL_TOOL {
        return Err("not the shell tool".into());
    }
    let call = Call::new(
        &event["tool_input"],
        &event["session_id"],
        settings,
        env.ctxoff.as_deref(),
    )?;
    let (command, settings) = (call.command, call.settings);
    match event["hook_event_name"].as_str() {
        Some("BeforeTool") => {
            let client = Client::read(env, &event)?;
            let rewritten = call
                .rewrite(Agent::Gemini, env.path.as_deref())
                .ok_or("not a command worth wrapping")?;
            client.allows(call.args, &rewritten)?;
            let updated = call.args_with(rewritten);
            Ok(
                json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": updated}}),
            )
        }
        Some("AfterTool") => {
            if rewrite::is_rewritten(command) {
                return Err("ctxoff ran it already".into());
            }
            if !event["tool_response"]["error"].is_null() {
                return Err("the call failed".into());
            }
            let output = event["tool_response"]["llmContent"]
                .as_str()
                .and_then(successful_output)
                .ok_or("not a plain successful run")?;
            // Tokens are at most bytes: an output this small is never offloaded.
            if output.len() as u64 <= settings.threshold {
                return Err("the output is small".into());
            }
            let client = Client::read(env, &event)?;
            let staged = staging_file(&crate::agent::offload::output_name(command));
            let tail = format!(
                "CTXOFF_SESSION={} CTXOFF_AGENT=gemini {REPLAY}={} {} hook gemini",
                call.session,
                shell_quote(staged.to_str().ok_or("the temporary folder is not UTF-8")?),
                shell_quote(call.ctxoff.to_str().ok_or("ctxoff's path is not UTF-8")?),
            );
            let tail_args =
                json!({"command": tail, "description": "ctxoff: summary of the output"});
            client.allows(tail_args.as_object().expect("an object"), &tail)?;
            stage(&staged, command, output.as_bytes())?;
            Ok(json!({"hookSpecificOutput": {"hookEventName": "AfterTool",
                "tailToolCallRequest": {"name": super::policy::SHELL_TOOL, "args": tail_args}}}))
        }
        _ => Err("not a shell call's BeforeTool or AfterTool".into()),
    }
}

/// What the hook knows of the client that ran it: how it was started, and its rules.
struct Client {
    launch: Launch,
    trusted: bool,
    rules: Vec<Rule>,
}

impl Client {
    fn read(env: &Env, event: &Value) -> Result<Client, String> {
        if env.sandboxed {
            return Err("the client runs in its sandbox".into());
        }
        let client = client_args(&env.ancestors).ok_or("the client's command line is unknown")?;
        if let Some(flag) = client.iter().find(|a| {
            UNFOLLOWED_FLAGS
                .iter()
                .any(|f| a == f || a.starts_with(&format!("{f}=")))
        }) {
            return Err(format!("the client was started with {flag}"));
        }
        let launch: Launch = launch(client).ok_or("the client's approval mode is unknown")?;
        let cwd = event["cwd"].as_str().map(PathBuf::from);
        let project = env
            .project
            .clone()
            .or(cwd)
            .ok_or("the project folder is unknown")?;
        let found = read_rules(env, &project)?;
        let trusted = client.iter().any(|a| a == "--skip-trust") || found.trusts(env, &project);
        Ok(Client {
            launch,
            trusted,
            rules: found.rules,
        })
    }

    /// Whether the client would run a call with `args` and with its command `rewritten` alike,
    /// without asking.
    fn allows(&self, args: &Map<String, Value>, rewritten: &str) -> Result<(), String> {
        match verdict(&self.rules, self.launch, self.trusted, args, rewritten) {
            Verdict::MayRewrite => Ok(()),
            Verdict::Rule { decision, source } => Err(format!(
                "a rule of {source} decides it: {}",
                decision.name()
            )),
            Verdict::Unsure(why) => Err(why.into()),
        }
    }
}

/// The output of a shell call that exited 0, from what the client hands the model:
/// `Output: …` and the process group, nothing else (no `Error:`, `Exit Code:`, `Signal:` or
/// background processes), inside the client's untrusted-content marks.
fn successful_output(llm_content: &str) -> Option<&str> {
    let inner = llm_content
        .strip_prefix("<untrusted_context>\n")
        .and_then(|s| s.strip_suffix("\n</untrusted_context>"))
        .unwrap_or(llm_content);
    let body = inner.strip_prefix("Output: ")?;
    let (output, pgid) = body.rsplit_once("\nProcess Group PGID: ")?;
    if !pgid.bytes().all(|b| b.is_ascii_digit()) || output == "(empty)" {
        return None;
    }
    let last = output.rsplit('\n').next().unwrap_or_default();
    let sections = ["Error: ", "Exit Code: ", "Signal: ", "Background PIDs: "];
    (!sections.iter().any(|s| last.starts_with(s))).then_some(output)
}

/// The variable that makes `ctxoff hook gemini` print the summary of a staged output (the
/// command the `AfterTool` hook asks the client to run next) instead of answering an event.
pub(crate) const REPLAY: &str = "CTXOFF_REPLAY";

/// Staged outputs' names in the temporary folder: `ctxoff-replay-NAME-ID.txt`.
const STAGED_PREFIX: &str = "ctxoff-replay-";

fn staging_file(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!(
        "{STAGED_PREFIX}{name}-{}-{nanos}.txt",
        std::process::id()
    ))
}

/// What a summary made from a staged output cannot know, said in its note.
const AFTER_THE_FACT: &str = "saved from Gemini CLI's result, not run by ctxoff: no exit status \
     (the client counted it a success), stdout and stderr merged as the client gave them";

/// Writes the `command` (a JSON string on the first line) and its `output` to a new file only
/// this user can read.
fn stage(path: &Path, command: &str, output: &[u8]) -> Result<(), String> {
    use std::os::unix::fs::OpenOptionsExt;
    let first = format!("{}\n", Value::String(command.to_owned()));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .and_then(|mut f| {
            f.write_all(first.as_bytes())
                .and_then(|()| f.write_all(output))
        })
        .map_err(|e| format!("cannot stage the output in {}: {e}", path.display()))
}

/// `ctxoff hook gemini` with [`REPLAY`] set: the staged output is offloaded after the fact like
/// Claude Code's and opencode's (saved in the session of `settings`, recorded in `history`, its
/// summary printed on `out`, with a note of what is not known) and the staged file is removed. An output
/// that is not offloaded (small in tokens, kept, or not savable) is printed as it is. Only a file
/// this hook staged is taken: a plain file of this user in the temporary folder, named as staged.
pub(crate) fn replay(
    staged: &Path,
    settings: Option<&Settings>,
    history: Option<&Path>,
    out: &mut dyn Write,
) -> std::process::ExitCode {
    use std::os::unix::fs::MetadataExt;
    let failed = std::process::ExitCode::from(1);
    let name = staged
        .file_name()
        .and_then(|n| n.to_str())
        .and_then(|n| n.strip_prefix(STAGED_PREFIX))
        .and_then(|n| n.strip_suffix(".txt"))
        .and_then(|n| n.rsplitn(3, '-').nth(2))
        .filter(|n| !n.is_empty());
    let owned = std::fs::symlink_metadata(staged)
        .is_ok_and(|m| m.file_type().is_file() && m.uid() == crate::store::current_uid());
    let (Some(_), true, true) = (
        name,
        owned,
        staged.parent() == Some(std::env::temp_dir().as_path()),
    ) else {
        eprintln!(
            "ctxoff: {} is not an output ctxoff staged",
            staged.display()
        );
        return failed;
    };
    // Read as a stream, like any capture: the open file outlives its name.
    let Ok(file) = std::fs::File::open(staged) else {
        return failed;
    };
    let _ = std::fs::remove_file(staged);
    let mut reader = BufReader::new(file);
    let mut first = String::new();
    let start = reader.read_line(&mut first);
    let (Ok(start), Ok(Value::String(command))) = (start, serde_json::from_str::<Value>(&first))
    else {
        eprintln!(
            "ctxoff: {} is not an output ctxoff staged",
            staged.display()
        );
        return failed;
    };
    let finished = Finished {
        agent: Agent::Gemini,
        command: &command,
        note: AFTER_THE_FACT,
    };
    let summary = match settings {
        Some(settings) => offload::offload(&finished, &mut reader, settings, history),
        None => Err(offload::Left::Failed(
            "ctxoff's configuration cannot be read".into(),
        )),
    };
    let printed = match summary {
        Ok(summary) => out.write_all(summary.as_bytes()),
        // Whatever is not summarised reaches the model whole, as without ctxoff.
        Err(left) => {
            if let offload::Left::Failed(why) = &left {
                eprintln!("ctxoff: {why}; printed the output in full instead");
            }
            let mut file = reader.into_inner();
            file.seek(SeekFrom::Start(start as u64))
                .and_then(|_| std::io::copy(&mut file, out))
                .map(drop)
        }
    };
    match printed.and_then(|()| out.flush()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(_) => failed,
    }
}

/// The rules found, and the settings that decide folder trust.
struct Found {
    rules: Vec<Rule>,
    /// `security.folderTrust.enabled` as the settings files set it, system last.
    folder_trust: Option<bool>,
}

impl Found {
    /// Whether the client trusts `folder`: folder trust is off, or the user's trusted folders
    /// trust it (the longest matching rule decides, as the client does).
    fn trusts(&self, env: &Env, folder: &Path) -> bool {
        if self.folder_trust == Some(false) {
            return true;
        }
        let Some(file) = env.user_dir().map(|d| d.join("trustedFolders.json")) else {
            return false;
        };
        let Ok(Some(Value::Object(rules))) = read_jsonc(&file) else {
            return false;
        };
        let mut best: Option<(usize, &str)> = None;
        for (path, level) in &rules {
            let Some(level) = level.as_str() else {
                continue;
            };
            let effective = match level {
                "TRUST_PARENT" => Path::new(path).parent().unwrap_or(Path::new(path)),
                _ => Path::new(path),
            };
            if folder.starts_with(effective) && best.is_none_or(|(len, _)| path.len() > len) {
                best = Some((path.len(), level));
            }
        }
        matches!(best, Some((_, "TRUST_FOLDER" | "TRUST_PARENT")))
    }
}

/// Every rule the client could apply to a shell call in `project`: the policy folders of each
/// tier (system, user, workspace, extensions) and the `tools` lists of each settings file.
fn read_rules(env: &Env, project: &Path) -> Result<Found, String> {
    let error = |e: PolicyError| e.0;
    let user = env.user_dir();
    let settings_files = [
        env.system_defaults
            .clone()
            .or_else(|| Some(env.system.join("system-defaults.json"))),
        user.as_ref().map(|d| d.join("settings.json")),
        Some(project.join(".gemini/settings.json")),
        env.system_settings
            .clone()
            .or_else(|| Some(env.system.join("settings.json"))),
    ];
    let mut rules = Vec::new();
    let mut folder_trust = None;
    for file in settings_files.into_iter().flatten() {
        let Some(settings) = read_jsonc(&file)? else {
            continue;
        };
        for key in ["policyPaths", "adminPolicyPaths"] {
            if settings.get(key).is_some_and(|v| !v.is_null()) {
                return Err(format!("{} sets {key}", file.display()));
            }
        }
        if let Some(enabled) = settings["security"]["folderTrust"]["enabled"].as_bool() {
            folder_trust = Some(enabled);
        }
        if !(settings["tools"]["sandbox"].is_null() || settings["tools"]["sandbox"] == false) {
            return Err(format!("{} turns the sandbox on", file.display()));
        }
        if let Some(tools) = settings.get("tools") {
            rules.extend(settings_rules(tools).map_err(|e| format!("{}: {e}", file.display()))?);
        }
    }
    let mut policy_dirs = vec![
        (env.system.join("policies"), Tier::Admin),
        (project.join(".gemini/policies"), Tier::Workspace),
    ];
    if let Some(user) = &user {
        policy_dirs.push((user.join("policies"), Tier::User));
        if let Ok(extensions) = std::fs::read_dir(user.join("extensions")) {
            for extension in extensions.filter_map(Result::ok) {
                policy_dirs.push((extension.path().join("policies"), Tier::Extension));
            }
        }
    }
    for (dir, tier) in policy_dirs {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let source = file.display().to_string();
            rules.extend(parse_policy_file(&text, tier, &source).map_err(error)?);
        }
    }
    Ok(Found {
        rules,
        folder_trust,
    })
}

/// A settings file as JSON, comments allowed (the client reads it so); `None` when it does not
/// exist.
pub(crate) fn read_jsonc(file: &Path) -> Result<Option<Value>, String> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    if text.trim().is_empty() {
        return Ok(Some(json!({})));
    }
    serde_json::from_str(&strip_comments(&text))
        .map(Some)
        .map_err(|e| format!("{}: not valid JSON: {e}", file.display()))
}

/// `text` with `//` and `/* */` comments outside strings replaced by blanks.
pub(crate) fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    if c == '\n' {
                        out.push('\n');
                    }
                    last = c;
                }
                out.push(' ');
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    const SESSION: &str = "fffc0ec5-1bf8-40bd-b577-ca5c6fdedd6b";
    /// The ctxoff session the hook names after it.
    const SESSION_NAME: &str = "6fdedd6b";
    const CTXOFF: &str = "/usr/local/bin/ctxoff";

    struct Setup {
        dir: tempfile::TempDir,
        env: Env,
        settings: Settings,
    }

    fn argv(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    impl Setup {
        fn new() -> Setup {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            for sub in ["home/.gemini", "project", "etc", "bin"] {
                fs::create_dir_all(dir.path().join(sub)).unwrap();
            }
            for program in ["cargo", "seq", "git"] {
                let file = dir.path().join("bin").join(program);
                fs::write(&file, "").unwrap();
                fs::set_permissions(&file, fs::Permissions::from_mode(0o755)).unwrap();
            }
            let env = Env {
                home: Some(dir.path().join("home")),
                project: Some(dir.path().join("project")),
                system: dir.path().join("etc"),
                system_settings: None,
                system_defaults: None,
                ancestors: vec![argv(
                    "/usr/bin/node --max-old-space-size=12052 /usr/lib/node_modules/.bin/gemini -p Run -o json --approval-mode yolo",
                )],
                sandboxed: false,
                path: Some(dir.path().join("bin").into_os_string()),
                ctxoff: Some(PathBuf::from(CTXOFF)),
            };
            let settings = Settings {
                // `seq` is no default entry: the rules below are about it.
                wrap: vec!["seq *".into()],
                ..Settings::at("/tmp/agent")
            };
            Setup { dir, env, settings }
        }

        fn event(command: &str) -> String {
            json!({"session_id": SESSION, "cwd": "/elsewhere", "hook_event_name": "BeforeTool",
                   "timestamp": "2026-12-01T00:00:00Z", "tool_name": "run_shell_command",
                   "tool_input": {"command": command, "description": "Run it", "dir_path": "sub"}})
            .to_string()
        }

        fn rewritten(&self, command: &str) -> Result<String, String> {
            answer(&Setup::event(command), Some(&self.settings), &self.env).map(|a| {
                a["hookSpecificOutput"]["tool_input"]["command"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
        }

        fn write(&self, path: &str, text: &str) {
            let file = self.dir.path().join(path);
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(file, text).unwrap();
        }
    }

    fn wrapped(command: &str) -> String {
        format!("CTXOFF_SESSION={SESSION_NAME} CTXOFF_AGENT=gemini {CTXOFF} -- {command}")
    }

    const DENY_SEQ: &str = "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"seq\"\ndecision = \"deny\"\npriority = 100\n";

    #[test]
    fn sends_the_whole_tool_input_back() {
        let s = Setup::new();
        let answer = answer(&Setup::event("cargo test"), Some(&s.settings), &s.env).unwrap();
        assert_eq!(
            answer,
            json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {
                "command": wrapped("cargo test"), "description": "Run it", "dir_path": "sub"}}})
        );
    }

    #[test]
    fn only_a_headless_yolo_client_without_unread_rules() {
        let mut s = Setup::new();
        assert!(s.rewritten("seq 1 3").is_ok());
        for line in [
            "/usr/bin/node /x/gemini -p Run --approval-mode default",
            "/usr/bin/node /x/gemini --approval-mode yolo",
            "/usr/bin/node /x/gemini -p Run --yolo --policy extra.toml",
            "/usr/bin/node /x/gemini -p Run --yolo --allowed-tools=run_shell_command",
            "/usr/bin/node /x/gemini -p Run --yolo -s",
            "/usr/bin/python3 something.py",
        ] {
            s.env.ancestors = vec![argv(line)];
            assert!(s.rewritten("seq 1 3").is_err(), "{line}");
        }
        s.env.ancestors = vec![
            argv("/bin/sh -c hook"),
            argv("/usr/local/bin/gemini -y -p Run"),
        ];
        assert!(s.rewritten("seq 1 3").is_ok());
        s.env.ancestors = Vec::new();
        assert!(s.rewritten("seq 1 3").is_err());
        s.env.ancestors = vec![argv("gemini -y -p Run")];
        s.env.sandboxed = true;
        assert!(s.rewritten("seq 1 3").is_err());
    }

    #[test]
    fn rules_of_every_tier_and_settings_file_are_read() {
        let s = Setup::new();
        assert!(s.rewritten("seq 1 3").is_ok());
        for path in [
            "home/.gemini/policies/mine.toml",
            "project/.gemini/policies/team.toml",
            "etc/policies/admin.toml",
            "home/.gemini/extensions/ext/policies/ext.toml",
        ] {
            s.write(path, DENY_SEQ);
            let why = s.rewritten("seq 1 3").unwrap_err();
            assert!(why.contains("deny"), "{path}: {why}");
            assert!(s.rewritten("cargo test").is_ok(), "{path}");
            fs::remove_file(s.dir.path().join(path)).unwrap();
        }
        for path in [
            "home/.gemini/settings.json",
            "project/.gemini/settings.json",
            "etc/settings.json",
            "etc/system-defaults.json",
        ] {
            s.write(
                path,
                "{\n  // mine\n  \"tools\": {\"allowed\": [\"run_shell_command(cargo build)\"]}\n}",
            );
            assert!(s.rewritten("seq 1 3").is_err(), "{path}");
            s.write(path, r#"{"policyPaths": ["/x"]}"#);
            assert!(s.rewritten("cargo test").is_err(), "{path}");
            s.write(path, r#"{"tools": {"sandbox": "docker"}}"#);
            assert!(s.rewritten("cargo test").is_err(), "{path}");
            s.write(path, "{ not json");
            assert!(s.rewritten("cargo test").is_err(), "{path}");
            fs::remove_file(s.dir.path().join(path)).unwrap();
        }
        s.write("home/.gemini/policies/bad.toml", "[[rule]]\ndecision = 3");
        assert!(s.rewritten("cargo test").is_err());
    }

    #[test]
    fn git_needs_a_trusted_folder() {
        let s = Setup::new();
        assert!(
            s.rewritten("git log").is_err(),
            "folder trust is on by default"
        );
        let project = s.dir.path().join("project");
        s.write(
            "home/.gemini/trustedFolders.json",
            &json!({project.display().to_string(): "TRUST_FOLDER"}).to_string(),
        );
        assert_eq!(s.rewritten("git log"), Ok(wrapped("git log")));
        s.write(
            "home/.gemini/trustedFolders.json",
            &json!({s.dir.path().display().to_string(): "TRUST_FOLDER",
                    project.display().to_string(): "DO_NOT_TRUST"})
            .to_string(),
        );
        assert!(s.rewritten("git log").is_err(), "the longest rule decides");
        s.write(
            "home/.gemini/trustedFolders.json",
            &json!({s.dir.path().display().to_string(): "DO_NOT_TRUST",
                    project.join("x").display().to_string(): "TRUST_PARENT"})
            .to_string(),
        );
        assert!(
            s.rewritten("git log").is_ok(),
            "TRUST_PARENT trusts the parent"
        );
        s.write("home/.gemini/trustedFolders.json", "{}");
        s.write(
            "home/.gemini/settings.json",
            r#"{"security": {"folderTrust": {"enabled": false}}}"#,
        );
        assert!(s.rewritten("git log").is_ok());
    }

    #[test]
    fn leaves_what_it_cannot_read() {
        let s = Setup::new();
        let good = Setup::event("cargo test");
        assert!(answer(&good, None, &s.env).is_err());
        let mut event: Value = serde_json::from_str(&good).unwrap();
        for (key, value) in [
            ("hook_event_name", json!("AfterTool")),
            ("tool_name", json!("read_file")),
            ("session_id", json!("")),
            ("tool_input", json!({"command": 3})),
        ] {
            let saved = event[key].clone();
            event[key] = value;
            assert!(
                answer(&event.to_string(), Some(&s.settings), &s.env).is_err(),
                "{key}"
            );
            event[key] = saved;
        }
        for garbage in ["", "[]", "{}", "nul"] {
            assert!(answer(garbage, Some(&s.settings), &s.env).is_err());
        }
        for command in ["cargo test && ls", "cd x", "cargo test > log"] {
            assert!(s.rewritten(command).is_err(), "{command}");
        }
    }

    fn after(command: &str, llm_content: &str) -> String {
        json!({"session_id": SESSION, "cwd": "/elsewhere", "hook_event_name": "AfterTool",
               "tool_name": "run_shell_command",
               "tool_input": {"command": command, "description": "Run it"},
               "tool_response": {"llmContent": llm_content, "returnDisplay": "…"}})
        .to_string()
    }

    fn seq_content(lines: u32, tail: &str) -> String {
        let output: String = (1..=lines).map(|n| format!("{n}\n")).collect();
        format!(
            "<untrusted_context>\nOutput: {}{tail}\nProcess Group PGID: 4242\n</untrusted_context>",
            output.trim_end()
        )
    }

    #[test]
    fn reads_only_plain_successful_runs() {
        let ok = seq_content(3, "");
        assert_eq!(successful_output(&ok), Some("1\n2\n3"));
        for failed in [
            seq_content(3, "\nExit Code: 3"),
            seq_content(3, "\nError: spawn failed"),
            seq_content(3, "\nSignal: 9"),
            seq_content(3, "\nBackground PIDs: 77"),
            "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 1\n</untrusted_context>"
                .into(),
            "Command was cancelled by user before it could complete.".into(),
        ] {
            assert_eq!(successful_output(&failed), None, "{failed}");
        }
    }

    #[test]
    fn after_a_large_successful_run_asks_for_the_summary_as_a_tail_call() {
        let s = Setup::new();
        let big = seq_content(20_000, "");
        let answered = answer(&after("make && true", &big), Some(&s.settings), &s.env).unwrap();
        let tail = &answered["hookSpecificOutput"]["tailToolCallRequest"];
        assert_eq!(tail["name"], "run_shell_command");
        let command = tail["args"]["command"].as_str().unwrap();
        assert!(
            command.starts_with(&format!(
                "CTXOFF_SESSION={SESSION_NAME} CTXOFF_AGENT=gemini {REPLAY}="
            )),
            "{command}"
        );
        assert!(
            command.ends_with(&format!(" {CTXOFF} hook gemini")),
            "{command}"
        );
        let staged = command
            .split_whitespace()
            .nth(2)
            .unwrap()
            .split_once('=')
            .unwrap()
            .1;
        let saved = fs::read_to_string(staged).unwrap();
        fs::remove_file(staged).unwrap();
        // The command the client ran, as a JSON string, then the output.
        assert!(saved.starts_with("\"make && true\"\n1\n2\n") && saved.ends_with("\n20000"));
        // Nothing for small, failed or already rewritten runs, or where a rule would stop the
        // summary's own command.
        for (command, content) in [
            ("make", seq_content(3, "")),
            ("make", seq_content(20_000, "\nExit Code: 2")),
            (
                &*format!("CTXOFF_SESSION=x {CTXOFF} -- make"),
                seq_content(20_000, ""),
            ),
        ] {
            assert!(answer(&after(command, &content), Some(&s.settings), &s.env).is_err());
        }
        s.write(
            "home/.gemini/policies/ask.toml",
            "[[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"ask_user\"\npriority = 1\n",
        );
        assert!(answer(&after("make", &big), Some(&s.settings), &s.env).is_err());
    }

    #[test]
    fn replay_takes_only_files_it_staged() {
        let mut out = Vec::new();
        let outside = tempfile::NamedTempFile::new().unwrap();
        let code = replay(outside.path(), None, None, &mut out);
        assert_eq!(code, std::process::ExitCode::from(1));
        assert!(outside.path().exists(), "not removed");
        let wrong_dir = tempfile::tempdir().unwrap();
        let file = wrong_dir.path().join("ctxoff-replay-make-1-2.txt");
        fs::write(&file, "x").unwrap();
        let code = replay(&file, None, None, &mut out);
        assert_eq!(code, std::process::ExitCode::from(1));
        assert!(file.exists());
        assert!(out.is_empty());
    }

    /// A staged output is offloaded after the fact like Claude Code's: saved in the session,
    /// summarised under the command the client ran with the note, recorded, and unstaged; one
    /// too small to offload reaches the model as it was.
    #[test]
    fn a_replay_summarises_the_staged_output_with_its_command_and_note() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings {
            session: Some("ses".into()),
            ..Settings::at(dir.path().join("root"))
        };
        let history = dir.path().join("history");
        let large: String = (1..=20_000).map(|i| format!("{i}\n")).collect();
        for (output, summarised) in [(large.as_str(), true), ("1\n2\n3\n", false)] {
            let staged = staging_file("make");
            stage(&staged, "make && true", output.as_bytes()).unwrap();
            let mut out = Vec::new();
            let code = replay(&staged, Some(&settings), Some(&history), &mut out);
            assert_eq!(code, std::process::ExitCode::SUCCESS);
            assert!(!staged.exists(), "unstaged");
            let out = String::from_utf8(out).unwrap();
            if summarised {
                let mut lines = out.lines();
                assert!(
                    lines
                        .next()
                        .unwrap()
                        .starts_with("[ctxoff] `make && true` ended · 20,000 lines · "),
                    "{out}"
                );
                assert_eq!(
                    lines.next(),
                    Some(&*format!("[ctxoff] note: {AFTER_THE_FACT}"))
                );
                let saved = dir.path().join("root/ses/make_1.txt");
                assert_eq!(fs::read_to_string(saved).unwrap(), large);
                assert!(history.join("history.jsonl").exists(), "recorded");
            } else {
                assert_eq!(out, output);
            }
        }
    }

    #[test]
    fn comments_are_stripped_outside_strings() {
        let text = "{\n // a\n \"u\": \"http://x/*y*/\", /* b\n c */ \"v\": \"a\\\"//\"\n}";
        let value: Value = serde_json::from_str(&strip_comments(text)).unwrap();
        assert_eq!(value, json!({"u": "http://x/*y*/", "v": "a\"//"}));
    }
}
