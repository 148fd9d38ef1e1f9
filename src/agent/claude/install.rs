//! Installing and removing the Claude Code hook (`ctxoff hook claude`) in a settings file: merge,
//! backup, idempotence, uninstall. What the hook does is `hook`'s business; `ctxoff init` parses
//! its arguments and comes here.
//!
//! The entry, as the Claude Code hooks reference (<https://code.claude.com/docs/en/hooks>,
//! "Configuration") shapes it:
//!
//! ```json
//! {"hooks": {"PreToolUse": [
//!   {"matcher": "Bash", "hooks": [{"type": "command", "command": "ctxoff hook claude"}]}
//! ]}}
//! ```
//!
//! Settings are re-serialised with serde_json, so unknown keys and values are kept exactly; key
//! order follows serde_json's map (sorted unless its `preserve_order` feature is on).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

/// The command line Claude Code runs for the hook.
pub(crate) const HOOK_COMMAND: &str = "ctxoff hook claude";

/// What `ctxoff init claude` was asked to do.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Options {
    /// `.claude/settings.json` in the current directory instead of the user's settings.
    pub project: bool,
    pub dry_run: bool,
    pub uninstall: bool,
}

/// The settings file `options` point at: under `home` by default, under `cwd` for `--project`.
pub(crate) fn settings_path(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
) -> anyhow::Result<PathBuf> {
    let base = match options.project {
        true => cwd,
        false => home.context("cannot find the home directory; use --project")?,
    };
    Ok(base.join(".claude").join("settings.json"))
}

/// Installs or removes the hook. Reports go to `out`; a settings file that cannot be used is one
/// line on `err` and exit 2, with nothing written.
pub(crate) fn run(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let path = settings_path(options, home, cwd)?;
    let (original, mut settings) = match read_settings(&path) {
        Ok(found) => found,
        Err(e) => {
            writeln!(err, "ctxoff: {}: {e:#}; nothing written", path.display())?;
            return Ok(ExitCode::from(2));
        }
    };
    let edit = match options.uninstall {
        false => install(&mut settings),
        true => uninstall(&mut settings),
    };
    let changed = match edit {
        Ok(changed) => changed,
        Err(e) => {
            writeln!(err, "ctxoff: {}: {e:#}; nothing written", path.display())?;
            return Ok(ExitCode::from(2));
        }
    };
    let shown = path.display();
    let entry = hook_entry();
    match (changed, options.uninstall, options.dry_run) {
        (false, false, _) => writeln!(
            out,
            "ctxoff hook already installed in {shown}; nothing changed"
        )?,
        (false, true, _) => writeln!(out, "ctxoff hook not installed in {shown}; nothing changed")?,
        (true, uninstall, true) => {
            let (verb, sign) = if uninstall {
                ("remove from", '-')
            } else {
                ("add to", '+')
            };
            writeln!(
                out,
                "would {verb} {shown}:\n  {sign} hooks.PreToolUse[] {entry}"
            )?;
            if original.is_some() {
                writeln!(
                    out,
                    "and back up the current file to {}",
                    next_backup(&path).display()
                )?;
            }
        }
        (true, uninstall, false) => {
            let backup = original
                .as_deref()
                .map(|bytes| backup(&path, bytes))
                .transpose()?;
            write_settings(&path, &settings)?;
            let verb = if uninstall {
                "removed the ctxoff hook from"
            } else {
                "installed the ctxoff hook in"
            };
            match backup {
                Some(b) => writeln!(out, "{verb} {shown} (backup: {})", b.display())?,
                None => writeln!(out, "{verb} {shown} (new file)")?,
            }
            if !uninstall {
                writeln!(
                    out,
                    "teach the read-back commands with: ctxoff init --print >> CLAUDE.md"
                )?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
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

fn hook_entry() -> Value {
    json!({"matcher": "Bash", "hooks": [{"type": "command", "command": HOOK_COMMAND}]})
}

/// Whether a hook handler is ctxoff's: `ctxoff hook claude`, also with a path to the binary.
fn is_ours(handler: &Value) -> bool {
    let Some(command) = handler.get("command").and_then(Value::as_str) else {
        return false;
    };
    let words: Vec<&str> = command.split_whitespace().collect();
    matches!(words.as_slice(), [program, "hook", "claude"]
        if Path::new(program).file_name().is_some_and(|n| n == "ctxoff"))
}

/// `hooks.PreToolUse`, created when absent; an error when something else has that place.
fn pre_tool_use(settings: &mut Value) -> anyhow::Result<&mut Vec<Value>> {
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
        .entry("PreToolUse")
        .or_insert_with(|| json!([]))
        .as_array_mut()
    {
        Some(groups) => Ok(groups),
        None => bail!("`hooks.PreToolUse` is not a JSON array"),
    }
}

fn handlers(group: &Value) -> &[Value] {
    group
        .get("hooks")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// Adds ctxoff's entry unless one is there already; `true` when the settings changed.
fn install(settings: &mut Value) -> anyhow::Result<bool> {
    let groups = pre_tool_use(settings)?;
    if groups.iter().flat_map(handlers).any(is_ours) {
        return Ok(false);
    }
    groups.push(hook_entry());
    Ok(true)
}

/// Removes ctxoff's handlers, the groups they leave empty, and `hooks.PreToolUse` / `hooks` if
/// that empties them; `true` when the settings changed.
fn uninstall(settings: &mut Value) -> anyhow::Result<bool> {
    let Some(root) = settings.as_object_mut() else {
        bail!("settings are not a JSON object")
    };
    let Some(hooks) = root.get_mut("hooks") else {
        return Ok(false);
    };
    let Some(hooks_map) = hooks.as_object_mut() else {
        bail!("`hooks` is not a JSON object")
    };
    let Some(groups) = hooks_map.get_mut("PreToolUse") else {
        return Ok(false);
    };
    let Some(groups_vec) = groups.as_array_mut() else {
        bail!("`hooks.PreToolUse` is not a JSON array")
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
    if changed && groups_vec.is_empty() {
        hooks_map.remove("PreToolUse");
        if hooks_map.is_empty() {
            root.remove("hooks");
        }
    }
    Ok(changed)
}

/// The first free name of `settings.json.bak`, `settings.json.bak.1`, `.bak.2`…
fn next_backup(path: &Path) -> PathBuf {
    (0..)
        .map(|n| backup_name(path, n))
        .find(|p| fs::symlink_metadata(p).is_err())
        .expect("an unbounded range has a free name")
}

fn backup_name(path: &Path, n: u32) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    if n > 0 {
        name.push(format!(".{n}"));
    }
    path.with_file_name(name)
}

/// Saves `bytes` under the first free backup name, created exclusively so no earlier backup is
/// ever overwritten.
fn backup(path: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    for n in 0.. {
        let candidate = backup_name(path, n);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(mut file) => {
                file.write_all(bytes)
                    .and_then(|()| file.sync_all())
                    .with_context(|| format!("cannot write the backup {}", candidate.display()))?;
                return Ok(candidate);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot create the backup {}", candidate.display()));
            }
        }
    }
    unreachable!("an unbounded range ends only by returning")
}

/// Writes `settings` (2-space indented, as Claude Code writes it) through a temporary file and a
/// rename, so a crash never leaves a half-written settings file. A symlinked settings file (kept
/// in a dotfiles repository) stays a symlink: its target is replaced.
fn write_settings(path: &Path, settings: &Value) -> anyhow::Result<()> {
    let path = &fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = path.parent().context("settings path has no directory")?;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut text = serde_json::to_string_pretty(settings)?;
    text.push('\n');
    let tmp = dir.join(format!(".settings.json.ctxoff-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(meta) = fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Setup {
        dir: tempfile::TempDir,
    }

    impl Setup {
        fn new() -> Setup {
            Setup {
                dir: tempfile::tempdir().unwrap(),
            }
        }

        fn home(&self) -> PathBuf {
            self.dir.path().join("home")
        }

        fn settings(&self) -> PathBuf {
            self.home().join(".claude/settings.json")
        }

        fn write(&self, text: &str) {
            fs::create_dir_all(self.settings().parent().unwrap()).unwrap();
            fs::write(self.settings(), text).unwrap();
        }

        fn read(&self) -> Value {
            serde_json::from_slice(&fs::read(self.settings()).unwrap()).unwrap()
        }

        /// Runs `ctxoff init claude FLAGS`: (exit code, stdout, stderr).
        fn init(&self, flags: &[&str]) -> (ExitCode, String, String) {
            let options = Options {
                project: flags.contains(&"--project"),
                dry_run: flags.contains(&"--dry-run"),
                uninstall: flags.contains(&"--uninstall"),
            };
            let cwd = self.dir.path().join("project");
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let code = run(&options, Some(&self.home()), &cwd, &mut out, &mut err).unwrap();
            (
                code,
                String::from_utf8(out).unwrap(),
                String::from_utf8(err).unwrap(),
            )
        }

        fn files(&self) -> Vec<String> {
            let mut names: Vec<String> = fs::read_dir(self.settings().parent().unwrap())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            names.sort();
            names
        }
    }

    const EXISTING: &str = r#"{
  "model": "opus",
  "permissions": {"allow": ["Bash(cargo test:*)"], "deny": ["Bash(rm -rf:*)"]},
  "env": {"BASH_DEFAULT_TIMEOUT_MS": "300000"},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "./lint.sh", "timeout": 30}]},
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit-log"}]}
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
  }
}
"#;

    #[test]
    fn fresh_install_creates_the_file() {
        let s = Setup::new();
        let (code, out, err) = s.init(&[]);
        assert_eq!((code, err.as_str()), (ExitCode::SUCCESS, ""));
        assert!(
            out.contains("installed the ctxoff hook in") && out.contains("(new file)"),
            "{out}"
        );
        assert_eq!(s.read(), json!({"hooks": {"PreToolUse": [hook_entry()]}}));
        assert_eq!(
            s.files(),
            ["settings.json"],
            "no backup of a file that did not exist"
        );
    }

    #[test]
    fn merges_with_existing_settings_and_hooks() {
        let s = Setup::new();
        s.write(EXISTING);
        let (code, out, _) = s.init(&["--global"]);
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(out.contains("backup:"), "{out}");
        let mut expected: Value = serde_json::from_str(EXISTING).unwrap();
        expected["hooks"]["PreToolUse"]
            .as_array_mut()
            .unwrap()
            .push(hook_entry());
        assert_eq!(s.read(), expected);
        assert_eq!(
            fs::read_to_string(s.settings().with_file_name("settings.json.bak")).unwrap(),
            EXISTING
        );
    }

    #[test]
    fn second_install_changes_nothing() {
        let s = Setup::new();
        s.write(EXISTING);
        s.init(&[]);
        let after_first = fs::read(s.settings()).unwrap();
        let files = s.files();
        let (code, out, _) = s.init(&[]);
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(out.contains("already installed"), "{out}");
        assert_eq!(fs::read(s.settings()).unwrap(), after_first);
        assert_eq!(s.files(), files, "no new backup");
    }

    #[test]
    fn recognises_an_entry_with_a_path_to_the_binary() {
        let s = Setup::new();
        let text = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/home/a/.cargo/bin/ctxoff hook claude"}]}]}}"#;
        s.write(text);
        assert!(s.init(&[]).1.contains("already installed"));
        assert_eq!(fs::read_to_string(s.settings()).unwrap(), text);
        s.init(&["--uninstall"]);
        assert_eq!(s.read(), json!({}));
    }

    #[test]
    fn uninstall_removes_only_ctxoffs_entry() {
        let s = Setup::new();
        s.write(EXISTING);
        s.init(&[]);
        let (code, out, _) = s.init(&["--uninstall"]);
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(out.contains("removed the ctxoff hook from"), "{out}");
        assert_eq!(s.read(), serde_json::from_str::<Value>(EXISTING).unwrap());
        assert_eq!(
            s.files(),
            ["settings.json", "settings.json.bak", "settings.json.bak.1"]
        );
        // A handler of ours sharing a group with someone else's: only ours goes.
        s.write(r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit"},{"type":"command","command":"ctxoff hook claude"}]}]}}"#);
        s.init(&["--uninstall"]);
        assert_eq!(
            s.read(),
            json!({"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit"}]}]}})
        );
        let (_, out, _) = s.init(&["--uninstall"]);
        assert!(out.contains("not installed"), "{out}");
    }

    #[test]
    fn uninstall_after_fresh_install_leaves_an_empty_object() {
        let s = Setup::new();
        s.init(&[]);
        s.init(&["--uninstall"]);
        assert_eq!(s.read(), json!({}));
    }

    #[test]
    fn dry_run_writes_nothing() {
        let s = Setup::new();
        let (code, out, _) = s.init(&["--dry-run"]);
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(
            out.starts_with("would add to ") && out.contains("ctxoff hook claude"),
            "{out}"
        );
        assert!(!s.settings().parent().unwrap().exists());

        s.write(EXISTING);
        let (_, out, _) = s.init(&["--dry-run"]);
        assert!(out.contains("back up the current file to"), "{out}");
        assert_eq!(fs::read_to_string(s.settings()).unwrap(), EXISTING);
        assert_eq!(s.files(), ["settings.json"]);

        s.init(&[]);
        let installed = fs::read(s.settings()).unwrap();
        let (_, out, _) = s.init(&["--uninstall", "--dry-run"]);
        assert!(out.starts_with("would remove from "), "{out}");
        assert_eq!(fs::read(s.settings()).unwrap(), installed);
        assert_eq!(s.files(), ["settings.json", "settings.json.bak"]);
    }

    #[test]
    fn invalid_settings_are_one_error_line_and_exit_2() {
        for text in [
            "{\"hooks\": {",
            "// comment\n{}",
            "[1, 2]",
            r#"{"hooks": []}"#,
            r#"{"hooks": {"PreToolUse": {}}}"#,
        ] {
            let s = Setup::new();
            s.write(text);
            for flags in [&[][..], &["--uninstall"]] {
                let (code, out, err) = s.init(flags);
                assert_eq!(code, ExitCode::from(2), "{text:?} {flags:?}");
                assert_eq!(out, "");
                assert_eq!(err.lines().count(), 1, "{err}");
                assert!(
                    err.starts_with("ctxoff: ")
                        && err.contains(&s.settings().display().to_string()),
                    "{err}"
                );
                assert!(err.trim_end().ends_with("nothing written"), "{err}");
                assert_eq!(fs::read_to_string(s.settings()).unwrap(), text);
                assert_eq!(s.files(), ["settings.json"]);
            }
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_settings_file_stays_a_symlink() {
        let s = Setup::new();
        let target = s.dir.path().join("dotfiles-settings.json");
        fs::write(&target, EXISTING).unwrap();
        fs::create_dir_all(s.settings().parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&target, s.settings()).unwrap();
        assert_eq!(s.init(&[]).0, ExitCode::SUCCESS);
        assert!(
            fs::symlink_metadata(s.settings())
                .unwrap()
                .file_type()
                .is_symlink()
        );
        let installed: Value = serde_json::from_slice(&fs::read(&target).unwrap()).unwrap();
        assert_eq!(installed["hooks"]["PreToolUse"][2], hook_entry());
    }

    #[test]
    fn empty_file_counts_as_empty_settings() {
        let s = Setup::new();
        s.write("\n");
        assert_eq!(s.init(&[]).0, ExitCode::SUCCESS);
        assert_eq!(s.read(), json!({"hooks": {"PreToolUse": [hook_entry()]}}));
    }

    #[test]
    fn project_scope_uses_the_current_directory() {
        let s = Setup::new();
        s.init(&["--project"]);
        let project = s.dir.path().join("project/.claude/settings.json");
        assert!(project.exists());
        assert!(!s.settings().exists());
    }
}
