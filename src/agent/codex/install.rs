//! `ctxoff init codex`: adds ctxoff's `PreToolUse` hook to Codex CLI's `hooks.json` (the user's,
//! `$CODEX_HOME/hooks.json`, or the project's `.codex/hooks.json`) and records it as trusted in
//! the user's `config.toml`, the way the client's own hook review does:
//!
//! ```toml
//! [hooks.state."/home/ana/.codex/hooks.json:pre_tool_use:0:0"]
//! trusted_hash = "sha256:…"
//! ```
//!
//! The client skips an untrusted hook without a word, so without that entry nothing would
//! happen. Other hooks and settings are kept; `config.toml` is edited as text (only the lines of
//! ctxoff's own entry change), so its comments and layout stay.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

use super::trust::{CommandHook, Event, state_key, trusted_hash};
use crate::agent::install::{self, Edit, Options, Scope, is_hook_command};

/// The hook's timeout, in seconds (the client's default is 600): it reads a few files.
const TIMEOUT: u64 = 30;

/// Runs `ctxoff init codex` with `options`, from `cwd`.
pub(crate) fn run(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let codex_home =
        super::hook::codex_home(home).context("cannot find the home directory; set CODEX_HOME")?;
    let hooks_file = match options.scope {
        Scope::Global => codex_home.join("hooks.json"),
        Scope::Project => cwd.join(".codex/hooks.json"),
    };
    let config_file = codex_home.join("config.toml");
    let hooks_before = install::read(&hooks_file)?;
    let mut hooks = parse_hooks(hooks_before.as_deref())
        .with_context(|| format!("{}: nothing written", hooks_file.display()))?;
    let config_before = install::read(&config_file)?;
    let config_text = String::from_utf8(config_before.clone().unwrap_or_default())
        .with_context(|| format!("{} is not UTF-8; nothing written", config_file.display()))?;
    config_text.parse::<toml::Table>().with_context(|| {
        format!(
            "{} is not valid TOML; nothing written",
            config_file.display()
        )
    })?;

    if options.check {
        return check(&hooks, &hooks_file, &config_text, options, cwd, out);
    }
    let config_after = if options.uninstall {
        let removed = uninstall(&mut hooks)?;
        let mut text = config_text.clone();
        if let Some((group, handler, group_removed)) = removed {
            text = remove_table(
                &text,
                &state_key(&hooks_file, Event::PreToolUse, group, handler),
            );
            if group_removed {
                text = shift_later_groups(&text, &hooks_file, group, out)?;
            }
        }
        text
    } else {
        let command = install::hook_command(options, "codex")?;
        let (group, handler) = ours(&hooks).unwrap_or_else(|| add(&mut hooks, &command));
        let hash = hash_of(&hooks, group, handler).context("the hook entry is malformed")?;
        let key = state_key(&hooks_file, Event::PreToolUse, group, handler);
        set_trust(&config_text, &key, &hash)
            .with_context(|| format!("{}: nothing written", config_file.display()))?
    };
    let edits = [
        Edit {
            path: hooks_file.clone(),
            before: hooks_before.clone(),
            after: render_hooks(&hooks, hooks_before.is_some()),
        },
        Edit {
            path: config_file.clone(),
            before: config_before.clone(),
            after: match (&config_before, config_after.is_empty()) {
                (None, true) => None,
                _ => Some(config_after.into_bytes()),
            },
        },
    ];
    if !edits.iter().any(Edit::changes) {
        return install::unchanged(out, "hook", options.uninstall, &hooks_file);
    }
    for edit in edits.iter().filter(|e| e.changes()) {
        install::check_writable(&edit.path)?;
    }
    for edit in &edits {
        edit.apply(options.dry_run, out)?;
    }
    if !options.uninstall {
        writeln!(
            out,
            "ctxoff's hook is trusted in {}; Codex lists it under /hooks",
            config_file.display()
        )?;
        if options.scope == Scope::Project && !project_trusted(&config_text, cwd) {
            writeln!(
                out,
                "Codex reads {} only in a trusted project: trust {} when Codex asks",
                hooks_file.display(),
                cwd.display()
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `hooks.json` as JSON (`{}` when missing or blank), with `hooks.PreToolUse` a list if present.
fn parse_hooks(bytes: Option<&[u8]>) -> anyhow::Result<Value> {
    let hooks: Value = match bytes {
        None => json!({}),
        Some(b) if b.iter().all(u8::is_ascii_whitespace) => json!({}),
        Some(b) => serde_json::from_slice(b).context("not valid JSON")?,
    };
    if !hooks.is_object() || !(hooks["hooks"].is_null() || hooks["hooks"].is_object()) {
        bail!("not a hooks file: `hooks` is not an object");
    }
    let groups = &hooks["hooks"]["PreToolUse"];
    if !(groups.is_null() || groups.is_array()) {
        bail!("`hooks.PreToolUse` is not a list");
    }
    Ok(hooks)
}

fn render_hooks(hooks: &Value, existed: bool) -> Option<Vec<u8>> {
    if !existed && hooks.as_object().is_some_and(|m| m.is_empty()) {
        return None;
    }
    let mut text = serde_json::to_string_pretty(hooks).expect("JSON values serialise");
    text.push('\n');
    Some(text.into_bytes())
}

fn groups(hooks: &Value) -> &[Value] {
    hooks["hooks"]["PreToolUse"]
        .as_array()
        .map_or(&[], Vec::as_slice)
}

/// Where ctxoff's handler is: (group, handler) in `hooks.PreToolUse`.
fn ours(hooks: &Value) -> Option<(usize, usize)> {
    groups(hooks).iter().enumerate().find_map(|(g, group)| {
        group["hooks"]
            .as_array()?
            .iter()
            .position(|h| {
                h["command"]
                    .as_str()
                    .is_some_and(|c| is_hook_command(c, "codex"))
            })
            .map(|h| (g, h))
    })
}

/// Adds ctxoff's group last (so no other hook's position, and trust, changes).
fn add(hooks: &mut Value, command: &str) -> (usize, usize) {
    let root = hooks.as_object_mut().expect("checked to be an object");
    let list = root
        .entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .expect("checked to be an object")
        .entry("PreToolUse")
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .expect("checked to be a list");
    list.push(json!({"matcher": "Bash",
        "hooks": [{"type": "command", "command": command, "timeout": TIMEOUT}]}));
    (list.len() - 1, 0)
}

/// The trust hash of the handler at (`group`, `handler`), as the client computes it.
fn hash_of(hooks: &Value, group: usize, handler: usize) -> Option<String> {
    let group = &groups(hooks)[group];
    let h = &group["hooks"][handler];
    Some(trusted_hash(&CommandHook {
        event: Event::PreToolUse,
        matcher: group["matcher"].as_str(),
        command: h["command"].as_str()?,
        timeout: h["timeout"].as_u64(),
        status_message: h["statusMessage"].as_str(),
    }))
}

/// Removes ctxoff's handler (and its group, and the lists it empties). Returns where it was and
/// whether its whole group went.
fn uninstall(hooks: &mut Value) -> anyhow::Result<Option<(usize, usize, bool)>> {
    let Some((group, handler)) = ours(hooks) else {
        return Ok(None);
    };
    let list = hooks["hooks"]["PreToolUse"]
        .as_array_mut()
        .expect("found in it");
    let handlers = list[group]["hooks"].as_array_mut().expect("found in it");
    handlers.remove(handler);
    let group_removed = handlers.is_empty();
    if group_removed {
        list.remove(group);
    }
    if list.is_empty() {
        let map = hooks["hooks"].as_object_mut().expect("found in it");
        map.remove("PreToolUse");
        if map.is_empty() {
            hooks.as_object_mut().expect("an object").remove("hooks");
        }
    }
    Ok(Some((group, handler, group_removed)))
}

/// `key` as a TOML basic string.
fn quoted(key: &str) -> String {
    let mut out = String::from("\"");
    for c in key.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The header line of the state table of `key`, as ctxoff and the client write it.
fn header(key: &str) -> String {
    format!("[hooks.state.{}]", quoted(key))
}

/// The lines of the table whose header is `header`: (first, end) line indices, end exclusive.
fn table_lines(lines: &[&str], header: &str) -> Option<(usize, usize)> {
    let start = lines.iter().position(|l| l.trim() == header)?;
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| start + 1 + i);
    Some((start, end))
}

/// The text of `config.toml` with `trusted_hash = HASH` for `key`.
fn set_trust(text: &str, key: &str, hash: &str) -> anyhow::Result<String> {
    let current = text.parse::<toml::Table>()?;
    let state = current
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(key));
    if state
        .and_then(|s| s.get("trusted_hash"))
        .and_then(|h| h.as_str())
        == Some(hash)
    {
        return Ok(text.to_owned());
    }
    let line = format!("trusted_hash = {}", quoted(hash));
    let lines: Vec<&str> = text.lines().collect();
    let edited = match (state, table_lines(&lines, &header(key))) {
        (Some(_), Some((start, end))) => {
            let mut out: Vec<String> = Vec::new();
            out.extend(lines[..=start].iter().map(|l| l.to_string()));
            out.push(line);
            out.extend(
                lines[start + 1..end]
                    .iter()
                    .filter(|l| !l.trim_start().starts_with("trusted_hash"))
                    .map(|l| l.to_string()),
            );
            out.extend(lines[end..].iter().map(|l| l.to_string()));
            out.join("\n") + "\n"
        }
        (Some(_), None) => bail!(
            "it names ctxoff's hook in a form ctxoff does not edit; set its trusted_hash to {hash}"
        ),
        (None, _) => {
            let mut out = text.to_owned();
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&format!("{}\n{line}\n", header(key)));
            out
        }
    };
    let parsed = edited.parse::<toml::Table>()?;
    let written = parsed
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.get(key))
        .and_then(|s| s.get("trusted_hash"))
        .and_then(|h| h.as_str());
    if written != Some(hash) {
        bail!("could not record the hook's trust; set its trusted_hash to {hash}");
    }
    Ok(edited)
}

/// The text without the state table of `key` (and the blank line before it).
fn remove_table(text: &str, key: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some((mut start, end)) = table_lines(&lines, &header(key)) else {
        return text.to_owned();
    };
    if start > 0 && lines[start - 1].trim().is_empty() {
        start -= 1;
    }
    let kept: Vec<&str> = lines[..start]
        .iter()
        .chain(&lines[end..])
        .copied()
        .collect();
    match kept.is_empty() {
        true => String::new(),
        false => kept.join("\n") + "\n",
    }
}

/// Removing group `removed` moves every later group of the file one place up, and the client
/// keys trust by place: renames their state tables to follow. A state this cannot rename is
/// reported (that hook then needs a new review under /hooks).
fn shift_later_groups(
    text: &str,
    hooks_file: &Path,
    removed: usize,
    out: &mut dyn Write,
) -> anyhow::Result<String> {
    let table = text.parse::<toml::Table>()?;
    let prefix = format!("{}:pre_tool_use:", hooks_file.display());
    let Some(states) = table
        .get("hooks")
        .and_then(|h| h.get("state"))
        .and_then(|s| s.as_table())
    else {
        return Ok(text.to_owned());
    };
    let mut text = text.to_owned();
    let mut keys: Vec<(usize, &str, String)> = states
        .keys()
        .filter_map(|key| {
            let (group, handler) = key.strip_prefix(&prefix)?.split_once(':')?;
            let group: usize = group.parse().ok()?;
            (group > removed).then(|| (group, handler, key.clone()))
        })
        .collect();
    keys.sort();
    for (group, handler, key) in keys {
        let moved = format!("{prefix}{}:{handler}", group - 1);
        let (from, to) = (header(&key), header(&moved));
        if text.lines().any(|l| l.trim() == from) {
            text = text
                .lines()
                .map(|l| if l.trim() == from { to.as_str() } else { l })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
        } else {
            writeln!(
                out,
                "the hook at {key} moved up one place: review it under /hooks in Codex"
            )?;
        }
    }
    Ok(text)
}

/// Whether the user's config marks `cwd` (or a folder above it) as a trusted project.
fn project_trusted(config: &str, cwd: &Path) -> bool {
    let Ok(table) = config.parse::<toml::Table>() else {
        return false;
    };
    let Some(projects) = table.get("projects").and_then(|p| p.as_table()) else {
        return false;
    };
    cwd.ancestors().any(|dir| {
        projects
            .get(&dir.display().to_string())
            .and_then(|p| p.get("trust_level"))
            .and_then(|t| t.as_str())
            == Some("trusted")
    })
}

/// `--check`: whether the hook is installed, runs this ctxoff, and is trusted.
fn check(
    hooks: &Value,
    hooks_file: &Path,
    config: &str,
    options: &Options,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let Some((group, handler)) = ours(hooks) else {
        writeln!(
            out,
            "not installed: {} has no ctxoff hook",
            hooks_file.display()
        )?;
        return Ok(ExitCode::from(1));
    };
    let mut ok = true;
    let command = groups(hooks)[group]["hooks"][handler]["command"]
        .as_str()
        .unwrap_or_default();
    writeln!(out, "installed in {}: {command}", hooks_file.display())?;
    if let Ok(expected) = install::hook_command(options, "codex")
        && expected != command
    {
        writeln!(out, "  it runs another ctxoff than this one ({expected})")?;
    }
    let key = state_key(hooks_file, Event::PreToolUse, group, handler);
    let trusted = hash_of(hooks, group, handler)
        .is_some_and(|hash| set_trust(config, &key, &hash).is_ok_and(|edited| edited == config));
    if trusted {
        writeln!(out, "  trusted")?;
    } else {
        ok = false;
        writeln!(
            out,
            "  not trusted: Codex skips it (run `ctxoff init codex` again, or review it under /hooks)"
        )?;
    }
    if options.scope == Scope::Project && !project_trusted(config, cwd) {
        ok = false;
        writeln!(
            out,
            "  the project is not trusted: Codex ignores its .codex folder"
        )?;
    }
    Ok(ExitCode::from(if ok { 0 } else { 1 }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    /// The state key of a `hooks.json` at `path`.
    fn key_for(path: &Path, group: usize) -> String {
        state_key(path, Event::PreToolUse, group, 0)
    }

    struct Setup {
        dir: tempfile::TempDir,
    }

    impl Setup {
        fn new() -> Setup {
            let dir = tempfile::tempdir().unwrap();
            fs::create_dir_all(dir.path().join("home/.codex")).unwrap();
            fs::create_dir_all(dir.path().join("project")).unwrap();
            Setup { dir }
        }

        fn codex(&self) -> PathBuf {
            self.dir.path().join("home/.codex")
        }

        fn run(&self, flags: &[&str]) -> (ExitCode, String) {
            let options = Options {
                scope: match flags.contains(&"--project") {
                    true => Scope::Project,
                    false => Scope::Global,
                },
                dry_run: flags.contains(&"--dry-run"),
                uninstall: flags.contains(&"--uninstall"),
                check: flags.contains(&"--check"),
                ctxoff: PathBuf::from("/usr/local/bin/ctxoff"),
            };
            // CODEX_HOME is not set in tests: the home's .codex is used.
            let home = self.dir.path().join("home");
            let mut out = Vec::new();
            let code = run(
                &options,
                Some(&home),
                &self.dir.path().join("project"),
                &mut out,
            )
            .unwrap_or_else(|e| panic!("{e:#}"));
            (code, String::from_utf8(out).unwrap())
        }

        fn hooks(&self) -> Value {
            serde_json::from_slice(&fs::read(self.codex().join("hooks.json")).unwrap()).unwrap()
        }

        fn config(&self) -> String {
            fs::read_to_string(self.codex().join("config.toml")).unwrap_or_default()
        }
    }

    const CONFIG: &str =
        "# my settings\nmodel = \"gpt-5\"\n\n[projects.\"/src/x\"]\ntrust_level = \"trusted\"\n";

    #[test]
    fn installs_the_hook_and_its_trust_idempotently() {
        if std::env::var_os("CODEX_HOME").is_some() {
            return;
        }
        let s = Setup::new();
        fs::write(s.codex().join("config.toml"), CONFIG).unwrap();
        let (code, out) = s.run(&[]);
        assert_eq!(code, ExitCode::SUCCESS, "{out}");
        let hooks = s.hooks();
        let handler = &hooks["hooks"]["PreToolUse"][0]["hooks"][0];
        assert!(is_hook_command(
            handler["command"].as_str().unwrap(),
            "codex"
        ));
        assert_eq!(handler["timeout"], TIMEOUT);
        let config = s.config();
        assert!(
            config.starts_with(CONFIG),
            "the user's lines stay: {config}"
        );
        let key = key_for(&s.codex().join("hooks.json"), 0);
        let hash = hash_of(&hooks, 0, 0).unwrap();
        assert!(
            config.ends_with(&format!("\n{}\ntrusted_hash = \"{hash}\"\n", header(&key))),
            "{config}"
        );
        assert_eq!(s.run(&["--check"]).0, ExitCode::SUCCESS);
        let files = fs::read_dir(s.codex()).unwrap().count();
        let (_, again) = s.run(&[]);
        assert!(again.contains("already installed"), "{again}");
        assert_eq!(
            fs::read_dir(s.codex()).unwrap().count(),
            files,
            "no new backup"
        );

        let (_, removed) = s.run(&["--uninstall"]);
        assert!(
            removed.contains("removed") || removed.contains("changed"),
            "{removed}"
        );
        assert_eq!(s.config(), CONFIG);
        assert!(!s.codex().join("hooks.json").exists() || s.hooks() == json!({}));
        assert_eq!(s.run(&["--check"]).0, ExitCode::from(1));
    }

    #[test]
    fn keeps_other_hooks_and_their_trust_in_place() {
        if std::env::var_os("CODEX_HOME").is_some() {
            return;
        }
        let s = Setup::new();
        let file = s.codex().join("hooks.json");
        let theirs = json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit", "timeout": 5}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}});
        fs::write(&file, theirs.to_string()).unwrap();
        let audit = format!(
            "{}\ntrusted_hash = \"sha256:aa\"\n",
            header(&key_for(&file, 0))
        );
        fs::write(s.codex().join("config.toml"), &audit).unwrap();
        s.run(&[]);
        let hooks = s.hooks();
        assert_eq!(
            hooks["hooks"]["PreToolUse"][0],
            theirs["hooks"]["PreToolUse"][0]
        );
        assert_eq!(hooks["hooks"]["Stop"], theirs["hooks"]["Stop"]);
        assert!(s.config().contains(&header(&key_for(&file, 1))));
        assert!(s.config().starts_with(&audit));
        // A hook added after ctxoff's moves up when ctxoff's goes, and keeps its trust.
        let mut hooks = s.hooks();
        hooks["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .push(json!({"matcher": "Bash", "hooks": [{"type": "command", "command": "later"}]}));
        fs::write(&file, hooks.to_string()).unwrap();
        let later = format!(
            "\n{}\ntrusted_hash = \"sha256:bb\"\n",
            header(&key_for(&file, 2))
        );
        fs::write(s.codex().join("config.toml"), s.config() + &later).unwrap();
        s.run(&["--uninstall"]);
        assert_eq!(
            s.hooks()["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
            "later"
        );
        let config = s.config();
        assert!(config.contains(&header(&key_for(&file, 1))), "{config}");
        assert!(
            config.contains("sha256:bb") && config.contains("sha256:aa"),
            "{config}"
        );
        assert!(!config.contains(&header(&key_for(&file, 2))), "{config}");
    }

    #[test]
    fn dry_run_and_bad_files_write_nothing() {
        if std::env::var_os("CODEX_HOME").is_some() {
            return;
        }
        let s = Setup::new();
        let (_, out) = s.run(&["--dry-run"]);
        assert!(out.contains("would create"), "{out}");
        assert_eq!(fs::read_dir(s.codex()).unwrap().count(), 0);
        for (file, text) in [
            ("hooks.json", "{"),
            ("hooks.json", "[]"),
            ("config.toml", "x ="),
        ] {
            let s = Setup::new();
            fs::write(s.codex().join(file), text).unwrap();
            let options = Options {
                scope: Scope::Global,
                dry_run: false,
                uninstall: false,
                check: false,
                ctxoff: PathBuf::from("/usr/local/bin/ctxoff"),
            };
            let home = s.dir.path().join("home");
            let err = run(&options, Some(&home), s.dir.path(), &mut Vec::new()).unwrap_err();
            assert!(format!("{err:#}").contains("nothing written"), "{err:#}");
            assert_eq!(fs::read_dir(s.codex()).unwrap().count(), 1, "{file}");
        }
    }

    #[test]
    fn project_scope_says_the_project_must_be_trusted() {
        if std::env::var_os("CODEX_HOME").is_some() {
            return;
        }
        let s = Setup::new();
        let (_, out) = s.run(&["--project"]);
        assert!(out.contains("only in a trusted project"), "{out}");
        let file = s.dir.path().join("project/.codex/hooks.json");
        assert!(file.exists());
        assert!(s.config().contains(&header(&key_for(&file, 0))));
        assert_eq!(s.run(&["--project", "--check"]).0, ExitCode::from(1));
        let trusted = format!(
            "[projects.{}]\ntrust_level = \"trusted\"\n\n{}",
            quoted(&s.dir.path().join("project").display().to_string()),
            s.config()
        );
        fs::write(s.codex().join("config.toml"), trusted).unwrap();
        assert_eq!(s.run(&["--project", "--check"]).0, ExitCode::SUCCESS);
    }
}
