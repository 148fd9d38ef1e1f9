use super::*;

const CTXOFF: &str = "/opt/ctxoff/bin/ctxoff";

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
        self.init_with(flags, CTXOFF)
    }

    fn init_with(&self, flags: &[&str], ctxoff: &str) -> (ExitCode, String, String) {
        let options = Options {
            project: flags.contains(&"--project"),
            dry_run: flags.contains(&"--dry-run"),
            uninstall: flags.contains(&"--uninstall"),
            check: flags.contains(&"--check"),
            ctxoff: Some(PathBuf::from(ctxoff)),
            config_dir: None,
        };
        self.run(&options)
    }

    fn run(&self, options: &Options) -> (ExitCode, String, String) {
        let cwd = self.dir.path().join("project");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(options, Some(&self.home()), &cwd, &mut out, &mut err).unwrap();
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

fn entry() -> Value {
    hook_entry(&format!("{CTXOFF} hook claude"))
}

fn both() -> Value {
    json!({"hooks": {"PreToolUse": [entry()], "PostToolUse": [entry()]}})
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
fn fresh_install_creates_the_file_with_both_hooks_by_absolute_path() {
    let s = Setup::new();
    let (code, out, err) = s.init(&[]);
    assert_eq!((code, err.as_str()), (ExitCode::SUCCESS, ""));
    assert!(
        out.starts_with("installed ctxoff's hooks in") && out.contains("(new file)"),
        "{out}"
    );
    assert!(out.contains("+ hooks.PreToolUse[]") && out.contains("+ hooks.PostToolUse[]"));
    assert_eq!(s.read(), both());
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
        .push(entry());
    expected["hooks"]["PostToolUse"] = json!([entry()]);
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
    assert!(
        out.contains("installed in") && out.contains("already"),
        "{out}"
    );
    assert_eq!(fs::read(s.settings()).unwrap(), after_first);
    assert_eq!(s.files(), files, "no new backup");
}

/// An older install (`ctxoff hook claude` by name, or another path) is pointed at this ctxoff,
/// and the missing event is added.
#[test]
fn an_older_entry_is_updated_in_place() {
    let s = Setup::new();
    let text = r#"{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"ctxoff hook claude","timeout":30}]}]}}"#;
    s.write(text);
    let (code, out, _) = s.init(&[]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        out.contains(&format!(
            "~ hooks.PreToolUse[]: `ctxoff hook claude` becomes `{CTXOFF} hook claude`"
        )),
        "{out}"
    );
    let settings = s.read();
    assert_eq!(
        settings["hooks"]["PreToolUse"][0]["hooks"][0],
        json!({"type": "command", "command": format!("{CTXOFF} hook claude"), "timeout": 30})
    );
    assert_eq!(settings["hooks"]["PostToolUse"], json!([entry()]));
    s.init(&["--uninstall"]);
    assert_eq!(s.read(), json!({}));
}

#[test]
fn a_path_with_blanks_is_quoted_and_recognised() {
    let s = Setup::new();
    s.init_with(&[], "/opt/my tools/ctxoff");
    let command = s.read()["hooks"]["PostToolUse"][0]["hooks"][0]["command"].clone();
    assert_eq!(command, "'/opt/my tools/ctxoff' hook claude");
    assert!(
        s.init_with(&[], "/opt/my tools/ctxoff")
            .1
            .contains("already")
    );
    s.init(&["--uninstall"]);
    assert_eq!(s.read(), json!({}));
}

#[test]
fn uninstall_removes_only_ctxoffs_entries() {
    let s = Setup::new();
    s.write(EXISTING);
    s.init(&[]);
    let (code, out, _) = s.init(&["--uninstall"]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(out.contains("removed ctxoff's hooks from"), "{out}");
    assert_eq!(s.read(), serde_json::from_str::<Value>(EXISTING).unwrap());
    assert_eq!(
        s.files(),
        ["settings.json", "settings.json.bak", "settings.json.bak.1"]
    );
    // A handler of ours sharing a group with someone else's: only ours goes.
    s.write(r#"{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit"},{"type":"command","command":"ctxoff hook claude"}]}]}}"#);
    s.init(&["--uninstall"]);
    assert_eq!(
        s.read(),
        json!({"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit"}]}]}})
    );
    let (_, out, _) = s.init(&["--uninstall"]);
    assert!(out.contains("not in"), "{out}");
}

#[test]
fn dry_run_writes_nothing() {
    let s = Setup::new();
    let (code, out, _) = s.init(&["--dry-run"]);
    assert_eq!(code, ExitCode::SUCCESS);
    assert!(
        out.starts_with("would change ") && out.contains(&format!("{CTXOFF} hook claude")),
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
    assert!(
        out.starts_with("would change ") && out.contains("- hooks.PostToolUse[]"),
        "{out}"
    );
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
        r#"{"hooks": {"PostToolUse": 3}}"#,
    ] {
        let s = Setup::new();
        s.write(text);
        for flags in [&[][..], &["--uninstall"]] {
            let (code, out, err) = s.init(flags);
            assert_eq!(code, ExitCode::from(2), "{text:?} {flags:?}");
            assert_eq!(out, "");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                err.starts_with("ctxoff: ") && err.contains(&s.settings().display().to_string()),
                "{err}"
            );
            assert!(err.trim_end().ends_with("nothing written"), "{err}");
            assert_eq!(fs::read_to_string(s.settings()).unwrap(), text);
            assert_eq!(s.files(), ["settings.json"]);
        }
    }
}

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
    assert_eq!(installed["hooks"]["PreToolUse"][2], entry());
    assert_eq!(installed["hooks"]["PostToolUse"][0], entry());
}

#[test]
fn the_backup_keeps_the_settings_files_mode() {
    use std::os::unix::fs::PermissionsExt;
    for mode in [0o600, 0o640, 0o644] {
        let s = Setup::new();
        s.write(EXISTING);
        fs::set_permissions(s.settings(), fs::Permissions::from_mode(mode)).unwrap();
        assert_eq!(s.init(&[]).0, ExitCode::SUCCESS);
        for file in ["settings.json", "settings.json.bak"] {
            let meta = fs::metadata(s.settings().with_file_name(file)).unwrap();
            assert_eq!(meta.permissions().mode() & 0o777, mode, "{file} {mode:o}");
        }
    }
}

#[test]
fn a_read_only_settings_file_is_an_error_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let s = Setup::new();
    s.write(EXISTING);
    fs::set_permissions(s.settings(), fs::Permissions::from_mode(0o444)).unwrap();
    for flags in [&[][..], &["--dry-run"]] {
        let (code, out, err) = s.init(flags);
        assert_eq!(code, ExitCode::from(2), "{flags:?}: {out}");
        assert!(
            err.contains("the file is read-only; nothing written"),
            "{err}"
        );
    }
    assert_eq!(fs::read_to_string(s.settings()).unwrap(), EXISTING);
    assert_eq!(s.files(), ["settings.json"]);
}

#[test]
fn empty_file_counts_as_empty_settings() {
    let s = Setup::new();
    s.write("\n");
    assert_eq!(s.init(&[]).0, ExitCode::SUCCESS);
    assert_eq!(s.read(), both());
}

#[test]
fn project_scope_uses_the_current_directory() {
    let s = Setup::new();
    s.init(&["--project"]);
    let project = s.dir.path().join("project/.claude/settings.json");
    assert!(project.exists());
    assert!(!s.settings().exists());
}

#[test]
fn the_user_scope_honours_claude_config_dir() {
    let s = Setup::new();
    let config = s.dir.path().join("config");
    let options = Options {
        ctxoff: Some(PathBuf::from(CTXOFF)),
        config_dir: Some(config.clone()),
        ..Options::default()
    };
    assert_eq!(s.run(&options).0, ExitCode::SUCCESS);
    assert!(config.join("settings.json").exists());
    assert!(!s.settings().exists());
}

#[test]
fn check_says_what_is_installed_where() {
    let s = Setup::new();
    let (code, out, _) = s.init(&["--check"]);
    assert_eq!(code, ExitCode::from(1));
    assert!(out.contains("user settings ("), "{out}");
    assert!(out.contains("): no file"), "{out}");
    assert!(out.contains("run `ctxoff init claude`"), "{out}");
    s.init(&[]);
    let (code, out, _) = s.init(&["--check"]);
    assert_eq!(code, ExitCode::SUCCESS, "{out}");
    assert!(
        out.contains(&format!(
            "PreToolUse runs `{CTXOFF} hook claude` (this ctxoff); PostToolUse runs"
        )),
        "{out}"
    );
    // Another ctxoff that is gone: the hooks fail.
    s.init_with(&[], "/nonexistent/ctxoff");
    let (code, out, _) = s.init(&["--check"]);
    assert_eq!(code, ExitCode::from(1), "{out}");
    assert!(out.contains("(missing: the hook fails)"), "{out}");
    s.init(&["--uninstall"]);
    s.init(&["--project"]);
    let (code, out, _) = s.init(&["--check"]);
    assert_eq!(code, ExitCode::SUCCESS, "{out}");
    assert!(
        out.contains("user settings (") && out.contains("): not installed"),
        "{out}"
    );
}
