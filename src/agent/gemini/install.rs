//! `ctxoff init gemini`: adds ctxoff's hooks on the shell tool to Gemini CLI's `settings.json`
//! (the user's, `~/.gemini/settings.json`, or the project's `.gemini/settings.json`):
//!
//! ```json
//! {"hooks": {"BeforeTool": [{"matcher": "run_shell_command",
//!   "hooks": [{"type": "command", "command": "/path/to/ctxoff hook gemini", "timeout": 30000}]}],
//!            "AfterTool": [ … the same … ]}}
//! ```
//!
//! Other settings and hooks are kept. The client allows comments in the file; ctxoff would lose
//! them when writing, so a file with comments is left alone with the entry to add by hand.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

use crate::agent::install::{self, Edit, Options, Scope, is_hook_command};

/// The events ctxoff hooks, each on the shell tool.
const EVENTS: [&str; 2] = ["BeforeTool", "AfterTool"];
/// The hooks' timeout, in milliseconds (the client's default is 60,000).
const TIMEOUT_MS: u64 = 30_000;

fn entry(command: &str) -> Value {
    json!({"matcher": "run_shell_command",
           "hooks": [{"type": "command", "command": command, "timeout": TIMEOUT_MS}]})
}

/// Runs `ctxoff init gemini` with `options`.
pub(crate) fn run(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let path = match options.scope {
        Scope::Global => home
            .context("cannot find the home directory; use --project")?
            .join(".gemini/settings.json"),
        Scope::Project => cwd.join(".gemini/settings.json"),
    };
    let before = install::read(&path)?;
    let command = install::hook_command(options, "gemini")?;
    let text = String::from_utf8(before.clone().unwrap_or_default())
        .with_context(|| format!("{} is not UTF-8; nothing written", path.display()))?;
    let mut settings = match parse(&text) {
        Ok(settings) => settings,
        Err(e) => bail!(
            "{}: {e:#}; nothing written. Add under \"hooks\" by hand: {}",
            path.display(),
            json!({"BeforeTool": [entry(&command)], "AfterTool": [entry(&command)]})
        ),
    };
    if options.check {
        let mut ok = true;
        for event in EVENTS {
            let found = handlers(&settings, event).find(|c| is_hook_command(c, "gemini"));
            match found {
                Some(c) => writeln!(out, "{event}: installed in {}: {c}", path.display())?,
                None => {
                    ok = false;
                    writeln!(out, "{event}: not installed in {}", path.display())?;
                }
            }
        }
        return Ok(ExitCode::from(if ok { 0 } else { 1 }));
    }
    for event in EVENTS {
        match options.uninstall {
            false => add(&mut settings, event, &command)?,
            true => remove(&mut settings, event),
        }
    }
    let mut after = serde_json::to_string_pretty(&settings).expect("JSON serialises");
    after.push('\n');
    let edit = Edit {
        path: path.clone(),
        after: match (&before, settings.as_object().is_some_and(|m| m.is_empty())) {
            (None, true) => None,
            _ => Some(after.into_bytes()),
        },
        before,
    };
    if !edit.changes() || serde_json::from_str::<Value>(&text).ok() == Some(settings.clone()) {
        return install::unchanged(out, "hooks", options.uninstall, &path);
    }
    install::check_writable(&path)?;
    edit.apply(options.dry_run, out)?;
    if !options.uninstall && options.scope == Scope::Project {
        writeln!(
            out,
            "Gemini CLI runs a project's hooks only in a trusted folder"
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The settings as JSON (`{}` for a missing or blank file); comments are refused.
fn parse(text: &str) -> anyhow::Result<Value> {
    if text.trim().is_empty() {
        return Ok(json!({}));
    }
    if super::hook::strip_comments(text) != text {
        bail!("it has comments, which ctxoff would not keep");
    }
    let settings: Value = serde_json::from_str(text).context("not valid JSON")?;
    if !settings.is_object() {
        bail!("not a JSON object");
    }
    if !(settings["hooks"].is_null() || settings["hooks"].is_object()) {
        bail!("`hooks` is not an object");
    }
    for event in EVENTS {
        if !(settings["hooks"][event].is_null() || settings["hooks"][event].is_array()) {
            bail!("`hooks.{event}` is not a list");
        }
    }
    Ok(settings)
}

/// The commands of the handlers of `event`.
fn handlers<'a>(settings: &'a Value, event: &str) -> impl Iterator<Item = &'a str> {
    settings["hooks"][event]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|group| group["hooks"].as_array().into_iter().flatten())
        .filter_map(|h| h["command"].as_str())
}

fn add(settings: &mut Value, event: &str, command: &str) -> anyhow::Result<()> {
    if handlers(settings, event).any(|c| is_hook_command(c, "gemini")) {
        return Ok(());
    }
    let root = settings.as_object_mut().context("not an object")?;
    root.entry("hooks")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .context("`hooks` is not an object")?
        .entry(event)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .with_context(|| format!("`hooks.{event}` is not a list"))?
        .push(entry(command));
    Ok(())
}

/// Removes ctxoff's handlers of `event`, the groups left empty, and the lists they empty.
fn remove(settings: &mut Value, event: &str) {
    let Some(groups) = settings["hooks"][event].as_array_mut() else {
        return;
    };
    groups.retain_mut(|group| {
        let Some(list) = group["hooks"].as_array_mut() else {
            return true;
        };
        let before = list.len();
        list.retain(|h| {
            !h["command"]
                .as_str()
                .is_some_and(|c| is_hook_command(c, "gemini"))
        });
        !(list.is_empty() && before > 0)
    });
    if groups.is_empty() {
        let hooks = settings["hooks"].as_object_mut().expect("it held the list");
        hooks.remove(event);
        if hooks.is_empty() {
            settings.as_object_mut().expect("an object").remove("hooks");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn run_in(home: &Path, flags: &[&str]) -> anyhow::Result<(ExitCode, String)> {
        let options = Options {
            scope: Scope::Global,
            dry_run: flags.contains(&"--dry-run"),
            uninstall: flags.contains(&"--uninstall"),
            check: flags.contains(&"--check"),
            ctxoff: "/usr/local/bin/ctxoff".into(),
        };
        let mut out = Vec::new();
        let code = run(&options, Some(home), Path::new("/nonexistent"), &mut out)?;
        Ok((code, String::from_utf8(out).unwrap()))
    }

    const EXISTING: &str = r#"{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "lint"}]}]}
}
"#;

    #[test]
    fn merges_both_hooks_and_removes_only_ctxoffs() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(".gemini/settings.json");
        fs::create_dir_all(file.parent().unwrap()).unwrap();
        fs::write(&file, EXISTING).unwrap();
        let (code, out) = run_in(dir.path(), &[]).unwrap();
        assert_eq!(code, ExitCode::SUCCESS, "{out}");
        let settings: Value = serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
        assert_eq!(
            settings["security"]["auth"]["selectedType"],
            "gemini-api-key"
        );
        assert_eq!(
            settings["hooks"]["BeforeTool"][0]["hooks"][0]["command"],
            "lint"
        );
        for event in EVENTS {
            let ours = &settings["hooks"][event].as_array().unwrap().last().unwrap()["hooks"][0];
            assert!(is_hook_command(ours["command"].as_str().unwrap(), "gemini"));
            assert_eq!(ours["timeout"], TIMEOUT_MS);
        }
        assert_eq!(
            run_in(dir.path(), &["--check"]).unwrap().0,
            ExitCode::SUCCESS
        );
        assert!(
            run_in(dir.path(), &[])
                .unwrap()
                .1
                .contains("already installed")
        );
        run_in(dir.path(), &["--uninstall"]).unwrap();
        let settings: Value = serde_json::from_slice(&fs::read(&file).unwrap()).unwrap();
        assert_eq!(settings, serde_json::from_str::<Value>(EXISTING).unwrap());
        assert_eq!(
            run_in(dir.path(), &["--check"]).unwrap().0,
            ExitCode::from(1)
        );
    }

    #[test]
    fn comments_and_bad_files_are_left_alone() {
        for text in ["{\n  // mine\n  \"a\": 1\n}", "{", "[]", r#"{"hooks": []}"#] {
            let dir = tempfile::tempdir().unwrap();
            let file = dir.path().join(".gemini/settings.json");
            fs::create_dir_all(file.parent().unwrap()).unwrap();
            fs::write(&file, text).unwrap();
            let err = run_in(dir.path(), &[]).unwrap_err();
            assert!(format!("{err:#}").contains("nothing written"), "{err:#}");
            assert_eq!(fs::read_to_string(&file).unwrap(), text);
        }
    }

    #[test]
    fn a_fresh_install_creates_the_file_and_dry_run_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let (_, out) = run_in(dir.path(), &["--dry-run"]).unwrap();
        assert!(out.starts_with("would create"), "{out}");
        assert!(!dir.path().join(".gemini").exists());
        run_in(dir.path(), &[]).unwrap();
        run_in(dir.path(), &["--uninstall"]).unwrap();
        let settings: Value =
            serde_json::from_slice(&fs::read(dir.path().join(".gemini/settings.json")).unwrap())
                .unwrap();
        assert_eq!(settings, json!({}));
    }
}
