//! Installing, checking and removing the Claude Code hooks (`ctxoff hook claude`, on
//! `PreToolUse` and `PostToolUse`) in a settings file: merge, backup, idempotence, uninstall.
//! What the hook does is the hook's business; `ctxoff init` parses its arguments and comes here.
//!
//! The entries, as the Claude Code hooks reference (<https://code.claude.com/docs/en/hooks>,
//! "Configuration") shapes them, with ctxoff by its absolute path:
//!
//! ```json
//! {"hooks": {
//!   "PreToolUse":  [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/ctxoff hook claude"}]}],
//!   "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/local/bin/ctxoff hook claude"}]}]
//! }}
//! ```
//!
//! Settings are re-serialised with serde_json, so unknown keys and values are kept exactly; key
//! order follows serde_json's map (sorted unless its `preserve_order` feature is on). The file is
//! replaced through a temporary file and a rename; a symlinked file stays a symlink (its target
//! is replaced), a read-only one is an error, and the backup keeps the file's mode (settings may
//! hold API keys in `env`).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

use crate::agent::install;
use crate::format::shell_quote;

/// The hook events ctxoff handles.
const EVENTS: [&str; 2] = ["PreToolUse", "PostToolUse"];

/// What `ctxoff init claude` was asked to do.
#[derive(Debug, Clone, Default)]
pub(crate) struct Options {
    /// `.claude/settings.json` in the current directory instead of the user's settings.
    pub project: bool,
    pub dry_run: bool,
    pub uninstall: bool,
    /// Report what is installed; change nothing.
    pub check: bool,
    /// The ctxoff the hooks call (`wrap::ctxoff_path`); `None` when it cannot be found.
    pub ctxoff: Option<PathBuf>,
    /// `$CLAUDE_CONFIG_DIR`, where the client keeps the user's settings instead of `~/.claude`.
    pub config_dir: Option<PathBuf>,
}

/// The command the hooks run: this ctxoff by its absolute path.
pub(crate) fn hook_command(ctxoff: &Path) -> String {
    format!("{} hook claude", shell_quote(&ctxoff.to_string_lossy()))
}

/// The user's settings file, as the client finds it: `$CLAUDE_CONFIG_DIR/settings.json`, else
/// `~/.claude/settings.json`.
fn user_settings(options: &Options, home: Option<&Path>) -> anyhow::Result<PathBuf> {
    match &options.config_dir {
        Some(dir) => Ok(dir.join("settings.json")),
        None => Ok(home
            .context("cannot find the home directory; use --project")?
            .join(".claude/settings.json")),
    }
}

/// The settings file `options` point at: the user's by default, the current directory's project
/// settings with `--project`.
pub(crate) fn settings_path(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
) -> anyhow::Result<PathBuf> {
    match options.project {
        true => Ok(cwd.join(".claude/settings.json")),
        false => user_settings(options, home),
    }
}

/// One change to the settings.
enum Change {
    Added(&'static str),
    /// An older entry of ctxoff's, with the command it ran.
    Updated(&'static str, String),
    Removed(&'static str),
}

impl Change {
    fn describe(&self, command: &str) -> String {
        match self {
            Change::Added(event) => format!("+ hooks.{event}[]: {}", hook_entry(command)),
            Change::Updated(event, old) => {
                format!("~ hooks.{event}[]: `{old}` becomes `{command}`")
            }
            Change::Removed(event) => format!("- hooks.{event}[]: ctxoff's entry"),
        }
    }
}

/// Installs, removes or checks the hooks. Reports go to `out`; a settings file that cannot be
/// used is one line on `err` and exit 2, with nothing written.
pub(crate) fn run(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    if options.check {
        return check(options, home, cwd, out);
    }
    let path = settings_path(options, home, cwd)?;
    let fail = |err: &mut dyn Write, e: anyhow::Error| -> anyhow::Result<ExitCode> {
        writeln!(err, "ctxoff: {}: {e:#}; nothing written", path.display())?;
        Ok(ExitCode::from(2))
    };
    let Some(ctxoff) = &options.ctxoff else {
        return fail(err, anyhow::anyhow!("cannot find ctxoff's own executable"));
    };
    let command = hook_command(ctxoff);
    let (original, mut settings) = match read_settings(&path) {
        Ok(found) => found,
        Err(e) => return fail(err, e),
    };
    let edit = match options.uninstall {
        false => install(&mut settings, &command),
        true => uninstall(&mut settings),
    };
    let changes = match edit {
        Ok(changes) => changes,
        Err(e) => return fail(err, e),
    };
    let shown = path.display();
    if changes.is_empty() {
        match options.uninstall {
            false => writeln!(
                out,
                "ctxoff's hooks are installed in {shown} already; nothing changed"
            )?,
            true => writeln!(out, "ctxoff's hooks are not in {shown}; nothing changed")?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    if original.is_some()
        && let Err(e) = writable(&path)
    {
        return fail(err, e);
    }
    let listed: Vec<String> = changes
        .iter()
        .map(|c| format!("  {}", c.describe(&command)))
        .collect();
    if options.dry_run {
        writeln!(out, "would change {shown}:\n{}", listed.join("\n"))?;
        if original.is_some() {
            writeln!(
                out,
                "and back up the current file to {}",
                install::next_backup(&path).display()
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let backup = match original
        .as_deref()
        .map(|bytes| install::backup(&path, bytes))
    {
        Some(Err(e)) => return fail(err, e),
        Some(Ok(b)) => Some(b),
        None => None,
    };
    if let Err(e) = write_settings(&path, &settings) {
        return fail(err, e);
    }
    let verb = match options.uninstall {
        true => "removed ctxoff's hooks from",
        false => "installed ctxoff's hooks in",
    };
    match backup {
        Some(b) => writeln!(out, "{verb} {shown} (backup: {})", b.display())?,
        None => writeln!(out, "{verb} {shown} (new file)")?,
    }
    writeln!(out, "{}", listed.join("\n"))?;
    if !options.uninstall {
        writeln!(
            out,
            "check what the hook does with a command: ctxoff hook claude --explain 'cargo test'"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Where ctxoff's hooks are installed, scope by scope: exit 0 when both run this ctxoff or
/// another that exists, 1 otherwise.
fn check(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let mut scopes = Vec::new();
    if let Ok(user) = user_settings(options, home) {
        scopes.push(("user settings", user));
    }
    scopes.push(("project settings", cwd.join(".claude/settings.json")));
    scopes.push((
        "local project settings",
        cwd.join(".claude/settings.local.json"),
    ));
    let mut working = std::collections::BTreeMap::<&str, usize>::new();
    for (scope, path) in &scopes {
        let found = match read_settings(path) {
            Ok((None, _)) => "no file".to_string(),
            Ok((Some(_), settings)) => describe_installed(&settings, options, &mut working),
            Err(e) => format!("unreadable: {e:#}"),
        };
        writeln!(out, "{scope} ({}): {found}", path.display())?;
    }
    let installed = EVENTS
        .iter()
        .all(|e| working.get(e).is_some_and(|&n| n > 0));
    if EVENTS
        .iter()
        .any(|e| working.get(e).is_some_and(|&n| n > 1))
    {
        writeln!(
            out,
            "note: installed in more than one scope: the client runs each of them"
        )?;
    }
    match installed {
        true => Ok(ExitCode::SUCCESS),
        false => {
            writeln!(
                out,
                "not installed for both events: run `ctxoff init claude` (--project for this project)"
            )?;
            Ok(ExitCode::from(1))
        }
    }
}

/// What one settings file holds of ctxoff's hooks, counting the working ones in `working`.
fn describe_installed(
    settings: &Value,
    options: &Options,
    working: &mut std::collections::BTreeMap<&'static str, usize>,
) -> String {
    let mut parts = Vec::new();
    for event in EVENTS {
        let ours: Vec<String> = settings["hooks"][event]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(handlers)
            .filter(|h| is_ours(h))
            .filter_map(|h| h["command"].as_str().map(str::to_owned))
            .collect();
        for command in &ours {
            let program = program_of(command).unwrap_or_default();
            let state = if !program.contains('/') {
                "found on PATH"
            } else if options.ctxoff.as_deref() == Some(Path::new(&program)) {
                "this ctxoff"
            } else if Path::new(&program).is_file() {
                "another ctxoff"
            } else {
                "missing: the hook fails"
            };
            if state != "missing: the hook fails" {
                *working.entry(event).or_default() += 1;
            }
            parts.push(format!("{event} runs `{command}` ({state})"));
        }
    }
    match parts.is_empty() {
        true => "not installed".into(),
        false => parts.join("; "),
    }
}

/// The file's bytes (`None` when it does not exist) and its JSON; an empty file is `{}`.
fn read_settings(path: &Path) -> anyhow::Result<(Option<Vec<u8>>, Value)> {
    let bytes = match fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok((None, json!({}))),
        Err(e) => return Err(e).context("cannot read"),
    };
    let settings = match bytes.iter().all(u8::is_ascii_whitespace) {
        true => json!({}),
        false => serde_json::from_slice(&bytes).context("not valid JSON")?,
    };
    Ok((Some(bytes), settings))
}

/// An existing settings file must be writable: a read-only one is a choice of its owner, not to
/// be replaced behind their back (the rename would succeed in a writable directory).
fn writable(path: &Path) -> anyhow::Result<()> {
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let meta = fs::metadata(&target).context("cannot read")?;
    let c_path = std::ffi::CString::new(target.as_os_str().as_encoded_bytes())
        .context("the path holds a NUL byte")?;
    // SAFETY: `c_path` is a valid NUL-terminated string that outlives the call.
    let accessible = unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } == 0;
    if meta.permissions().readonly() || !accessible {
        bail!("the file is read-only");
    }
    Ok(())
}

fn hook_entry(command: &str) -> Value {
    json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command}]})
}

/// The program of a hook command `PROGRAM hook claude`, its quotes removed.
fn program_of(command: &str) -> Option<String> {
    let program = command.trim().strip_suffix(" hook claude")?.trim();
    crate::command::lex::simple_command(program)
        .ok()
        .filter(|c| c.words.len() == 1 && c.assignments.is_empty())
        .map(|c| c.words[0].clone())
}

/// Whether a hook handler is ctxoff's: `ctxoff hook claude`, also with a path to the binary.
fn is_ours(handler: &Value) -> bool {
    handler
        .get("command")
        .and_then(Value::as_str)
        .and_then(program_of)
        .is_some_and(|p| Path::new(&p).file_name().is_some_and(|n| n == "ctxoff"))
}

/// `hooks.<event>`, created when absent; an error when something else has that place.
fn groups<'a>(settings: &'a mut Value, event: &str) -> anyhow::Result<&'a mut Vec<Value>> {
    let Some(root) = settings.as_object_mut() else {
        bail!("settings are not a JSON object")
    };
    let Some(hooks) = root
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
    else {
        bail!("`hooks` is not a JSON object")
    };
    match hooks
        .entry(event)
        .or_insert_with(|| json!([]))
        .as_array_mut()
    {
        Some(groups) => Ok(groups),
        None => bail!("`hooks.{event}` is not a JSON array"),
    }
}

fn handlers(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Adds ctxoff's entry for each event where there is none, and points older entries of ctxoff's
/// at `command`; the changes made.
fn install(settings: &mut Value, command: &str) -> anyhow::Result<Vec<Change>> {
    let mut changes = Vec::new();
    for event in EVENTS {
        let groups = groups(settings, event)?;
        let mut found = false;
        for handler in groups
            .iter_mut()
            .filter_map(|g| g.get_mut("hooks").and_then(Value::as_array_mut))
            .flatten()
            .filter(|h| is_ours(h))
        {
            found = true;
            let old = handler["command"].as_str().unwrap_or_default().to_owned();
            if old != command {
                handler["command"] = json!(command);
                changes.push(Change::Updated(event, old));
            }
        }
        if !found {
            groups.push(hook_entry(command));
            changes.push(Change::Added(event));
        }
    }
    Ok(changes)
}

/// Removes ctxoff's handlers, the groups they leave empty, and `hooks.<event>` / `hooks` when
/// that empties them; the changes made.
fn uninstall(settings: &mut Value) -> anyhow::Result<Vec<Change>> {
    let Some(root) = settings.as_object_mut() else {
        bail!("settings are not a JSON object")
    };
    let Some(hooks) = root.get_mut("hooks") else {
        return Ok(Vec::new());
    };
    let Some(hooks_map) = hooks.as_object_mut() else {
        bail!("`hooks` is not a JSON object")
    };
    let mut changes = Vec::new();
    for event in EVENTS {
        let Some(groups) = hooks_map.get_mut(event) else {
            continue;
        };
        let Some(groups_vec) = groups.as_array_mut() else {
            bail!("`hooks.{event}` is not a JSON array")
        };
        let mut changed = false;
        groups_vec.retain_mut(|group| {
            let Some(list) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                return true;
            };
            let before = list.len();
            list.retain(|h| !is_ours(h));
            changed |= list.len() != before;
            !(list.is_empty() && before > 0)
        });
        if changed {
            changes.push(Change::Removed(event));
            if groups_vec.is_empty() {
                hooks_map.remove(event);
            }
        }
    }
    if !changes.is_empty() && hooks_map.is_empty() {
        root.remove("hooks");
    }
    Ok(changes)
}

/// Writes `settings` (2-space indented, as Claude Code writes it) through a temporary file and a
/// rename, so a crash never leaves a half-written settings file. A symlinked settings file (kept
/// in a dotfiles repository) stays a symlink: its target is replaced.
fn write_settings(path: &Path, settings: &Value) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(settings)?;
    text.push('\n');
    install::write_atomic(path, text.as_bytes())
}

#[cfg(test)]
mod tests;
