//! Claude Code: the hook's answers to the client's Bash tool calls.
//!
//! `PreToolUse`: a command the client would run without asking, decided on the original command
//! with the user's own rules and mode as the pinned client decides it (`permissions`, reading
//! `settings`, with the client's view of a command line, `bash`), and worth wrapping
//! (`agent::wrap`), is rewritten to run through ctxoff and approved with
//! `"permissionDecision": "allow"` and a reason naming the rule. The approval is what keeps the
//! user's allow rules working: the client checks its rules again on the rewritten string, where
//! they no longer match, and the approval skips exactly the allow rules, the mode and the prompt
//! (deny and ask rules and the client's own safety checks still run). Anything else gets no
//! answer, and the client decides as if ctxoff were not installed.
//!
//! `PostToolUse`: a large successful output of a command that was not rewritten (read-only
//! commands the client runs on its own, pipelines, compound commands) is saved in the session and
//! replaced by its summary (`updatedToolOutput`, which must be an object of the Bash tool's output
//! shape: a string is ignored). A failing command ends in `PostToolUseFailure` instead, whose
//! output cannot be replaced.
//!
//! `install` edits the client's settings for `ctxoff init claude`.

pub(crate) mod bash;
pub(crate) mod install;
pub(crate) mod permissions;
pub(crate) mod settings;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::offload::{Finished, may_offload, offload};
use super::wrap::{Rewrite, Wrapped, session_name, wrap};
use crate::config::Settings;
use crate::format::thousands;
use permissions::{Decision, Situation, decide};
use settings::{ClientArgs, Loaded, Places};

/// `CTXOFF_AGENT` in the rewrite.
pub(crate) const AGENT: &str = "claude";

/// What the summary of an output saved after the fact says it cannot know.
const AFTER_THE_FACT: &str = "saved from Claude Code's result, not run by ctxoff: no exit status \
     (the client counted it a success), stdout and stderr merged as the client gave them";

/// The client keeps at most this many characters of a result in the event; a longer one is saved
/// to `persistedOutputPath`.
const EVENT_OUTPUT_LIMIT: usize = 30_000;

/// What a hook call runs with.
pub(crate) struct Hook<'a> {
    /// ctxoff's settings, or why they are unusable: then nothing is rewritten or offloaded (the
    /// rewritten command would fail on them the same way).
    pub settings: Result<&'a Settings, String>,
    /// ctxoff's absolute path (`wrap::ctxoff_path`).
    pub ctxoff: Option<&'a Path>,
    /// The PATH of the client's shell.
    pub path: Option<&'a OsStr>,
    /// Whether a name is a program in a PATH (`wrap::program_on_path`).
    pub is_program: &'a dyn Fn(&str, Option<&OsStr>) -> bool,
    /// The client's permission rules, read when a command is worth wrapping
    /// ([`client_rules`]), or why they cannot be known.
    pub rules: &'a dyn Fn() -> Result<Loaded, String>,
    /// Where offloads after the fact are recorded for `ctxoff stats` (`None`: nowhere).
    pub history: Option<&'a Path>,
}

/// The answer to one hook event (a JSON line to print), or why there is none.
pub(crate) fn answer(event: &str, hook: &Hook) -> Result<Value, String> {
    let event: Value = serde_json::from_str(event).map_err(|e| format!("not JSON: {e}"))?;
    if event["tool_name"] != "Bash" {
        return Err("not a Bash tool call".into());
    }
    match event["hook_event_name"].as_str() {
        Some("PreToolUse") => pre_tool_use(&event, hook),
        Some("PostToolUse") => post_tool_use(&event, hook),
        _ => Err("an event ctxoff does not answer".into()),
    }
}

fn pre_tool_use(event: &Value, hook: &Hook) -> Result<Value, String> {
    let session = session_of(event)?;
    let input = event["tool_input"]
        .as_object()
        .ok_or("no tool_input object")?;
    let command = input
        .get("command")
        .and_then(Value::as_str)
        .ok_or("no command")?;
    // Background commands are read while they run; ctxoff holds output until it can decide.
    if input.get("run_in_background") == Some(&Value::Bool(true)) {
        return Err("a background command".into());
    }
    let settings = hook.settings.as_ref().map_err(unusable)?;
    let ctxoff = hook.ctxoff.ok_or("cannot find ctxoff's own executable")?;
    let wrapped =
        wrap(command, &rewrite(&session, settings, ctxoff, hook)).map_err(|why| why.to_string())?;
    let mode = event["permission_mode"]
        .as_str()
        .ok_or("no permission_mode")?;
    let cwd = Path::new(event["cwd"].as_str().ok_or("no cwd")?);
    let loaded = (hook.rules)()?;
    let situation = Situation {
        mode,
        input,
        cwd,
        working_dirs: &loaded.working_dirs,
    };
    let grant = match decide(command, &situation, &loaded.rules) {
        Decision::Runs(grant) => grant,
        other => return Err(other.to_string()),
    };
    let mut updated: Map<String, Value> = input.clone();
    updated.insert("command".into(), Value::String(wrapped.command));
    Ok(json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "allow",
            "permissionDecisionReason": format!("ctxoff: output captured by ctxoff; runs as the original would: {grant}"),
            "updatedInput": updated,
        }
    }))
}

fn post_tool_use(event: &Value, hook: &Hook) -> Result<Value, String> {
    let session = session_of(event)?;
    let command = event["tool_input"]["command"]
        .as_str()
        .ok_or("no command")?;
    let response = &event["tool_response"];
    if event["permission_mode"] == "plan" {
        return Err("plan mode".into());
    }
    if response["interrupted"] != false || response["isImage"] == true {
        return Err("an interrupted command or an image".into());
    }
    let mut settings = Settings::clone(hook.settings.as_ref().map_err(unusable)?);
    settings.session = Some(session);
    may_offload(command, &settings.keep).map_err(|why| why.to_string())?;
    let finished = Finished {
        agent: crate::agent::Agent::Claude,
        command,
        note: AFTER_THE_FACT,
    };
    let summary = match response["persistedOutputPath"].as_str() {
        Some(path) => {
            let mut file = std::fs::File::open(path)
                .map_err(|e| format!("cannot read the client's saved output {path}: {e}"))?;
            offload(&finished, &mut file, &settings, hook.history)
        }
        None => {
            let stdout = response["stdout"].as_str().ok_or("no stdout")?;
            if stdout.chars().count() >= EVENT_OUTPUT_LIMIT {
                return Err("the client cut the output and saved no file".into());
            }
            // The client trims the final newline and merges stderr into stdout.
            let stderr = response["stderr"].as_str().unwrap_or_default();
            let mut text = String::new();
            for part in [stdout, stderr].into_iter().filter(|p| !p.is_empty()) {
                text.push_str(part);
                if !part.ends_with('\n') {
                    text.push('\n');
                }
            }
            offload(&finished, &mut text.as_bytes(), &settings, hook.history)
        }
    }
    .map_err(|why| why.to_string())?;
    Ok(json!({
        "hookSpecificOutput": {
            "hookEventName": "PostToolUse",
            "updatedToolOutput": {"stdout": summary, "stderr": "", "interrupted": false},
        }
    }))
}

fn session_of(event: &Value) -> Result<String, String> {
    event["session_id"]
        .as_str()
        .and_then(session_name)
        .ok_or_else(|| "no usable session_id".into())
}

fn unusable(e: &String) -> String {
    format!("ctxoff's settings are unusable ({e}), and a wrapped command would fail on them")
}

fn rewrite<'a>(
    session: &'a str,
    settings: &'a Settings,
    ctxoff: &'a Path,
    hook: &'a Hook,
) -> Rewrite<'a> {
    Rewrite {
        agent: AGENT,
        session,
        ctxoff,
        wrap: &settings.wrap,
        keep: &settings.keep,
        path: hook.path,
        is_program: hook.is_program,
    }
}

/// The client's rules as a hook run by the client finds them: the settings of every scope of the
/// project the client started in (`CLAUDE_PROJECT_DIR`), and the client's own command line. When
/// either cannot be found, a rule could be missed: nothing is rewritten.
pub(crate) fn client_rules(home: Option<PathBuf>) -> Result<Loaded, String> {
    let places = Places::from_env(|k| std::env::var_os(k), home)
        .ok_or("no CLAUDE_PROJECT_DIR: not run by Claude Code")?;
    let client = ClientArgs::of_client()
        .ok_or("cannot read the client's command line (--allowedTools, --disallowedTools)")?;
    settings::load(&places, Some(client)).map_err(|e| format!("cannot read {e}"))
}

/// What the hook would do with `command` in `mode`, in the project `project` (the client's start
/// directory), and why: for `ctxoff hook claude --explain`. `client`: the command line of a
/// client running here, when there is one.
pub(crate) fn explain(
    command: &str,
    mode: &str,
    project: &Path,
    cwd: &Path,
    home: Option<PathBuf>,
    client: Option<(ClientArgs, PathBuf)>,
    hook: &Hook,
) -> String {
    let mut out = vec![
        format!("command:     {command}"),
        format!("project:     {}", project.display()),
        format!("mode:        {mode}"),
        format!(
            "client:      Claude Code, decided as version {} decides",
            permissions::CLIENT_VERSION
        ),
    ];
    let no_client = client.is_none();
    let session = "<session-id>";
    let wrapped: Result<Wrapped, String> = match (&hook.settings, hook.ctxoff) {
        (Err(e), _) => Err(unusable(e)),
        (_, None) => Err("cannot find ctxoff's own executable".into()),
        (Ok(settings), Some(ctxoff)) => {
            wrap(command, &rewrite(session, settings, ctxoff, hook)).map_err(|why| why.to_string())
        }
    };
    out.push(match &wrapped {
        Ok(w) => format!("wrap:        yes: {}", w.listed),
        Err(why) => format!("wrap:        no: {why}"),
    });
    let places = Places::from_env(
        |k| match k {
            "CLAUDE_PROJECT_DIR" => Some(project.as_os_str().to_owned()),
            _ => std::env::var_os(k),
        },
        home,
    );
    let loaded = match places {
        Some(places) => settings::load(&places, client).map_err(|e| format!("cannot read {e}")),
        None => Err("cannot find the home directory".into()),
    };
    let input: Map<String, Value> = [("command".to_owned(), Value::from(command))]
        .into_iter()
        .collect();
    let decision = loaded.as_ref().map(|loaded| {
        let situation = Situation {
            mode,
            input: &input,
            cwd,
            working_dirs: &loaded.working_dirs,
        };
        decide(command, &situation, &loaded.rules)
    });
    out.push(match &decision {
        Ok(d) => format!("permissions: {d}"),
        Err(why) => format!("permissions: unknown: {why}"),
    });
    if no_client {
        out.push(
            "             (no client runs here: --allowedTools and --disallowedTools given to \
             claude are not counted)"
                .into(),
        );
    }
    let threshold = hook
        .settings
        .as_ref()
        .map_or(crate::config::DEFAULT_THRESHOLD, |s| s.threshold);
    out.push(match (&wrapped, &decision) {
        (Ok(w), Ok(Decision::Runs(_))) => format!(
            "the hook:    rewrites it to `{}` and approves it (permissionDecision \"allow\")",
            w.command
        ),
        (_, Ok(Decision::Plan)) => {
            "the hook:    leaves it and its output to Claude Code (plan mode)".into()
        }
        (_, Ok(Decision::Stopped(_))) => {
            "the hook:    leaves it to Claude Code, which stops it or asks".into()
        }
        _ => match hook
            .settings
            .as_ref()
            .map(|s| may_offload(command, &s.keep))
        {
            Ok(Err(why)) => format!("the hook:    leaves it and its output to Claude Code ({why})"),
            _ => format!(
                "the hook:    leaves it to Claude Code; if it runs and succeeds with more than \
                 {} tokens of output, the PostToolUse hook replaces the output with a summary",
                thousands(threshold)
            ),
        },
    });
    let mut text = out.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
pub(crate) mod tests;
