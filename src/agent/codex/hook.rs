//! `ctxoff hook codex`: the answer to Codex CLI's `PreToolUse` event for its shell tool.
//!
//! The client applies a rewrite only with `"permissionDecision":"allow"`, which changes nothing
//! else: the sandbox, the approval policy and the execpolicy rules still apply, to the rewritten
//! command. So the hook rewrites only where all of them treat the original and the rewrite alike:
//!
//! - the turn's sandbox lets a command write ctxoff's scratch root (not in `read-only`);
//! - nothing asks a person: the approval policy is `never`, or `on-request` for a call that does
//!   not ask to leave the sandbox (the prompt would show the rewrite, and "always allow" would
//!   remember it); the call asks for no terminal;
//! - no execpolicy rule of any layer matches the original or the rewrite, and the client's own
//!   heuristics (a forced `rm`) do not apply;
//! - the shared wrap decision finds the command worth wrapping.
//!
//! The event names none of the turn's settings (its `permission_mode` only says whether the
//! approval policy is `never`); the session transcript it points to does (see `transcript`).
//! Anything unread or unexpected means no rewrite: the command runs as if ctxoff were not there.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::execpolicy::Policy;
use super::transcript::{self, Approval};
use super::{Verdict, sandbox, verdict};
use crate::agent::Agent;
use crate::agent::rewrite::Call;
use crate::config::Settings;

/// Where the hook looks: the user's and the system's folders, and the process environment the
/// rewritten command will inherit.
#[derive(Debug, Clone, Default)]
pub(crate) struct Env {
    /// `$CODEX_HOME`, else `~/.codex`.
    pub codex_home: Option<PathBuf>,
    /// The system's configuration folder, `/etc/codex`.
    pub system: PathBuf,
    pub home: Option<PathBuf>,
    pub path: Option<OsString>,
    pub tmpdir: Option<PathBuf>,
    /// The ctxoff the rewrite runs.
    pub ctxoff: Option<PathBuf>,
}

impl Env {
    /// The environment of this process.
    pub(crate) fn from_process(home: Option<&Path>) -> Env {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
        Env {
            codex_home: codex_home(home),
            system: PathBuf::from("/etc/codex"),
            home: home.map(Path::to_path_buf),
            path: var("PATH"),
            tmpdir: var("TMPDIR").map(PathBuf::from),
            ctxoff: crate::agent::wrap::ctxoff_path(),
        }
    }
}

/// `$CODEX_HOME`, else `~/.codex`: where the client keeps the user's configuration.
pub(crate) fn codex_home(home: Option<&Path>) -> Option<PathBuf> {
    match std::env::var_os("CODEX_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => home.map(|h| h.join(".codex")),
    }
}

/// The hook's answer to `event` (the JSON the client sent): the rewrite, or why there is none.
/// `settings` is `None` when ctxoff's own configuration cannot be read.
pub(crate) fn answer(event: &str, settings: Option<&Settings>, env: &Env) -> Result<Value, String> {
    let event: Value = serde_json::from_str(event).map_err(|_| "the event is not JSON")?;
    let text = |key: &str| {
        event[key]
            .as_str()
            .ok_or_else(|| format!("the event has no {key}"))
    };
    if text("hook_event_name")? != "PreToolUse" || text("tool_name")? != "Bash" {
        return Err("not a shell command about to run".into());
    }
    let call = Call::new(
        &event["tool_input"],
        &event["session_id"],
        settings,
        env.ctxoff.as_deref(),
    )?;
    let cwd = PathBuf::from(text("cwd")?);

    let transcript = std::fs::read_to_string(text("transcript_path")?)
        .map_err(|e| format!("cannot read the session transcript: {e}"))?;
    let turn = transcript::turn_context(&transcript, text("turn_id")?)
        .ok_or("the transcript has no settings for this turn")?;
    let sandbox = sandbox::sandbox_of(&turn).ok_or("the turn's sandbox is unknown")?;
    let root = absolute(&call.settings.root, &cwd);
    if !sandbox.may_write(&root, env.tmpdir.as_deref()) {
        return Err(format!(
            "the sandbox does not let commands write {}",
            root.display()
        ));
    }
    match transcript::approval_of(&turn).ok_or("the turn's approval policy is unknown")? {
        Approval::Never | Approval::OnRequest => {}
        Approval::Other(name) => return Err(format!("approval policy {name} may ask a person")),
    }
    let arguments = transcript::call_arguments(&transcript, text("tool_use_id")?)
        .ok_or("the transcript does not have the call")?;
    if let Some(why) = transcript::special_request(&arguments) {
        return Err(why.into());
    }

    let rewritten = call
        .rewrite(Agent::Codex, env.path.as_deref())
        .ok_or("not a command worth wrapping")?;
    let turn_cwd = turn["cwd"].as_str().map(PathBuf::from);
    let policy = load_policy(env, [Some(&cwd), turn_cwd.as_ref()].into_iter().flatten())?;
    match verdict(&policy, call.command, &rewritten, &cwd) {
        Verdict::MayRewrite => {}
        Verdict::Rule(decision) => {
            return Err(format!(
                "an execpolicy rule decides it: {}",
                decision.name()
            ));
        }
        Verdict::Dangerous => return Err("the client's own safety check applies".into()),
        Verdict::Unsure => return Err("the client's reading of the command is not known".into()),
    }
    let updated = call.args_with(rewritten);
    Ok(json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "allow",
        "permissionDecisionReason":
            "ctxoff: no rule or approval applies; large output is saved and summarised",
        "updatedInput": updated,
    }}))
}

fn absolute(path: &Path, cwd: &Path) -> PathBuf {
    match path.is_absolute() {
        true => path.to_path_buf(),
        false => cwd.join(path),
    }
}

/// Every execpolicy rule the client could apply: the `rules/*.rules` files of the system's and
/// the user's configuration, and of each `.codex` folder from the working folders up to the root
/// (the client reads only trusted projects' ones; reading more can only leave more alone). A file
/// this reader cannot parse, or managed requirements with rules of their own, are an error.
pub(crate) fn load_policy<'a>(
    env: &Env,
    cwds: impl Iterator<Item = &'a PathBuf>,
) -> Result<Policy, String> {
    let mut dirs = vec![env.system.join("rules")];
    dirs.extend(env.codex_home.iter().map(|h| h.join("rules")));
    for cwd in cwds {
        for dir in cwd.ancestors() {
            let rules = dir.join(".codex/rules");
            if !dirs.contains(&rules) {
                dirs.push(rules);
            }
        }
    }
    let mut policy = Policy::default();
    for dir in &dirs {
        let Ok(entries) = std::fs::read_dir(dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "rules"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file)
                .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
            let parsed = Policy::parse(&text, env.home.as_deref())
                .map_err(|e| format!("{}: {e}", file.display()))?;
            policy.extend(parsed);
        }
    }
    for requirements in [Some(&env.system), env.codex_home.as_ref()]
        .into_iter()
        .flatten()
        .map(|dir| dir.join("requirements.toml"))
    {
        if let Ok(text) = std::fs::read_to_string(&requirements)
            && has_rules(&text)
        {
            return Err(format!(
                "{} may hold rules of its own",
                requirements.display()
            ));
        }
    }
    Ok(policy)
}

/// Whether managed requirements could hold execpolicy rules (or cannot be read as TOML).
fn has_rules(text: &str) -> bool {
    fn any_rule_key(table: &toml::Table) -> bool {
        table.iter().any(|(key, value)| {
            key.contains("rule")
                || key.contains("exec_policy")
                || value.as_table().is_some_and(any_rule_key)
        })
    }
    text.parse::<toml::Table>()
        .map_or(true, |table| any_rule_key(&table))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A temporary Codex set-up: a home, a project, a transcript, and ctxoff's settings.
    struct Setup {
        dir: tempfile::TempDir,
        env: Env,
        settings: Settings,
    }

    const SESSION: &str = "01a22f3a-cddd-7180-b298-7111aaf880a8";
    /// The ctxoff session the hook names after it.
    const SESSION_NAME: &str = "aaf880a8";
    const CTXOFF: &str = "/usr/local/bin/ctxoff";

    impl Setup {
        fn new() -> Setup {
            use std::os::unix::fs::PermissionsExt;
            let dir = tempfile::tempdir().unwrap();
            let bin = dir.path().join("bin");
            for sub in ["home/.codex", "project/sub", "etc", "bin"] {
                fs::create_dir_all(dir.path().join(sub)).unwrap();
            }
            for program in ["cargo", "seq", "rm"] {
                fs::write(bin.join(program), "").unwrap();
                fs::set_permissions(bin.join(program), fs::Permissions::from_mode(0o755)).unwrap();
            }
            let env = Env {
                codex_home: Some(dir.path().join("home/.codex")),
                system: dir.path().join("etc"),
                home: Some(dir.path().join("home")),
                path: Some(bin.into_os_string()),
                tmpdir: None,
                ctxoff: Some(PathBuf::from(CTXOFF)),
            };
            let settings = Settings {
                // `seq` is no default entry: the rules below are about it.
                wrap: vec!["seq *".into()],
                ..Settings::at("/tmp/agent")
            };
            Setup { dir, env, settings }
        }

        fn project(&self) -> PathBuf {
            self.dir.path().join("project")
        }

        /// Writes the transcript of a turn with `approval` and `sandbox` and a call with
        /// `arguments`; returns the event for `command`.
        fn event(
            &self,
            command: &str,
            approval: Value,
            sandbox: Value,
            arguments: Value,
        ) -> String {
            let transcript = self.dir.path().join("rollout.jsonl");
            let lines = [
                json!({"type": "session_meta", "payload": {"id": SESSION}}),
                json!({"type": "turn_context", "payload": {"turn_id": "t1",
                       "cwd": self.project(), "approval_policy": approval,
                       "sandbox_policy": sandbox}}),
                json!({"type": "response_item", "payload": {"type": "function_call",
                       "name": "exec_command", "call_id": "call_1",
                       "arguments": arguments.to_string()}}),
            ];
            let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
            fs::write(&transcript, text).unwrap();
            json!({
                "session_id": SESSION, "turn_id": "t1", "transcript_path": transcript,
                "cwd": self.project(), "hook_event_name": "PreToolUse", "model": "gpt-5",
                "permission_mode": "bypassPermissions", "tool_name": "Bash",
                "tool_input": {"command": command}, "tool_use_id": "call_1"
            })
            .to_string()
        }

        fn answer(&self, event: &str) -> Result<Value, String> {
            answer(event, Some(&self.settings), &self.env)
        }

        /// The rewritten command for `command` in an `exec` turn with `sandbox`, or why not.
        fn rewritten(&self, command: &str, sandbox: &str) -> Result<String, String> {
            let event = self.event(
                command,
                json!("never"),
                workspace(sandbox),
                json!({"cmd": command}),
            );
            self.answer(&event).map(|a| {
                a["hookSpecificOutput"]["updatedInput"]["command"]
                    .as_str()
                    .unwrap()
                    .to_owned()
            })
        }

        fn rules(&self, dir: &Path, text: &str) {
            fs::create_dir_all(dir).unwrap();
            fs::write(dir.join("mine.rules"), text).unwrap();
        }
    }

    fn workspace(kind: &str) -> Value {
        match kind {
            "workspace-write" => json!({"type": "workspace-write", "network_access": false,
                "exclude_tmpdir_env_var": false, "exclude_slash_tmp": false}),
            other => json!({"type": other}),
        }
    }

    fn wrapped(command: &str) -> String {
        format!("CTXOFF_SESSION={SESSION_NAME} CTXOFF_AGENT=codex {CTXOFF} -- {command}")
    }

    #[test]
    fn rewrites_with_allow_where_the_sandbox_lets_ctxoff_write() {
        let s = Setup::new();
        let event = s.event(
            "cargo test",
            json!("never"),
            workspace("workspace-write"),
            json!({"cmd": "cargo test", "workdir": "sub"}),
        );
        let answer = s.answer(&event).unwrap();
        assert_eq!(
            answer["hookSpecificOutput"]["permissionDecision"], "allow",
            "the client applies a rewrite only with allow"
        );
        assert_eq!(
            answer["hookSpecificOutput"]["updatedInput"],
            json!({"command": wrapped("cargo test")})
        );
        assert_eq!(
            s.rewritten("cargo test", "danger-full-access"),
            Ok(wrapped("cargo test"))
        );
        let read_only = s.rewritten("cargo test", "read-only").unwrap_err();
        assert!(read_only.contains("sandbox"), "{read_only}");
        // A root the workspace sandbox does not cover.
        let mut elsewhere = Setup::new();
        elsewhere.settings.root = PathBuf::from("/var/cache/ctxoff");
        assert!(
            elsewhere
                .rewritten("cargo test", "workspace-write")
                .is_err()
        );
        elsewhere.settings.root = elsewhere.project().join("target/ctxoff");
        assert!(elsewhere.rewritten("cargo test", "workspace-write").is_ok());
    }

    #[test]
    fn leaves_calls_that_may_ask_a_person() {
        let s = Setup::new();
        let sandbox = workspace("workspace-write");
        let plain = json!({"cmd": "cargo test"});
        let on_request = s.event(
            "cargo test",
            json!("on-request"),
            sandbox.clone(),
            plain.clone(),
        );
        assert!(s.answer(&on_request).is_ok());
        for (approval, arguments) in [
            (json!("untrusted"), plain.clone()),
            (json!("on-failure"), plain.clone()),
            (
                json!({"granular": {"rules": true, "sandbox_approval": true}}),
                plain.clone(),
            ),
            (
                json!("on-request"),
                json!({"cmd": "cargo test", "sandbox_permissions": "require_escalated"}),
            ),
            (json!("never"), json!({"cmd": "cargo test", "tty": true})),
        ] {
            let event = s.event("cargo test", approval.clone(), sandbox.clone(), arguments);
            assert!(s.answer(&event).is_err(), "{approval}");
        }
    }

    #[test]
    fn leaves_commands_a_rule_of_any_layer_decides() {
        let s = Setup::new();
        assert!(s.rewritten("seq 1 3", "danger-full-access").is_ok());
        for dir in [
            s.env.system.join("rules"),
            s.env.codex_home.clone().unwrap().join("rules"),
            s.project().join(".codex/rules"),
            s.dir.path().join(".codex/rules"),
        ] {
            for decision in ["allow", "prompt", "forbidden"] {
                s.rules(
                    &dir,
                    &format!("prefix_rule(pattern=['seq'], decision='{decision}')"),
                );
                let why = s.rewritten("seq 1 3", "danger-full-access").unwrap_err();
                assert!(why.contains(decision), "{}: {why}", dir.display());
            }
            fs::remove_dir_all(&dir).unwrap();
        }
        s.rules(&s.env.system.join("rules"), "not starlark at all(");
        assert!(s.rewritten("seq 1 3", "danger-full-access").is_err());
        fs::remove_dir_all(s.env.system.join("rules")).unwrap();
        fs::write(
            s.env.system.join("requirements.toml"),
            "[rules]\nprefix_rules = []\n",
        )
        .unwrap();
        assert!(s.rewritten("seq 1 3", "danger-full-access").is_err());
        fs::write(
            s.env.system.join("requirements.toml"),
            "allowed_approval_policies = [\"never\"]\n",
        )
        .unwrap();
        assert!(s.rewritten("seq 1 3", "danger-full-access").is_ok());
        // The client's own check of a forced `rm`.
        assert!(s.rewritten("rm -rf build", "danger-full-access").is_err());
    }

    #[test]
    fn leaves_what_it_cannot_read() {
        let s = Setup::new();
        let good = s.event(
            "cargo test",
            json!("never"),
            workspace("danger-full-access"),
            json!({"cmd": "cargo test"}),
        );
        assert!(s.answer(&good).is_ok());
        assert!(answer(&good, None, &s.env).is_err(), "no settings");
        let mut no_exe = s.env.clone();
        no_exe.ctxoff = None;
        assert!(answer(&good, Some(&s.settings), &no_exe).is_err());
        let mut event: Value = serde_json::from_str(&good).unwrap();
        for (key, value) in [
            ("turn_id", json!("another")),
            ("tool_use_id", json!("call_9")),
            ("transcript_path", json!("/nonexistent/rollout.jsonl")),
            ("tool_name", json!("apply_patch")),
            ("hook_event_name", json!("PostToolUse")),
            ("session_id", json!("..")),
            ("tool_input", json!({"command": ["cargo", "test"]})),
        ] {
            let saved = event[key].clone();
            event[key] = value;
            assert!(s.answer(&event.to_string()).is_err(), "{key}");
            event[key] = saved;
        }
        for garbage in ["", "null", "[]", "{", "\u{0}"] {
            assert!(s.answer(garbage).is_err());
        }
        // Not worth wrapping, or not a simple command.
        for command in ["cd sub", "cargo test && cargo build", "vim x"] {
            assert!(
                s.rewritten(command, "danger-full-access").is_err(),
                "{command}"
            );
        }
    }
}
