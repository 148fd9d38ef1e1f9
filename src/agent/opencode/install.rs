//! `ctxoff init opencode`: writes ctxoff's plugin, `ctxoff.ts`, into opencode's plugin folder:
//! the user's (`~/.config/opencode/plugin/`, following `XDG_CONFIG_HOME`) or the project's
//! (`.opencode/plugin/`). The plugin is ctxoff's own file, with this ctxoff's absolute path in
//! it; a file of that name with other content is backed up before it is replaced or removed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use crate::agent::install::{self, Edit, Options, Scope};

const PLUGIN: &str = include_str!("plugin.ts");

/// The plugin's text for the ctxoff at `ctxoff`.
pub(crate) fn plugin(ctxoff: &str) -> String {
    let quoted = serde_json::to_string(ctxoff).expect("a string serialises");
    PLUGIN.replace("__CTXOFF__", &quoted)
}

/// The plugin file for `scope`.
fn plugin_path(scope: Scope, home: Option<&Path>, cwd: &Path) -> anyhow::Result<PathBuf> {
    Ok(match scope {
        Scope::Project => cwd.join(".opencode/plugin/ctxoff.ts"),
        Scope::Global => {
            let config = match std::env::var_os("XDG_CONFIG_HOME").filter(|v| !v.is_empty()) {
                Some(dir) => PathBuf::from(dir),
                None => home
                    .context("cannot find the home directory; use --project")?
                    .join(".config"),
            };
            config.join("opencode/plugin/ctxoff.ts")
        }
    })
}

/// Runs `ctxoff init opencode` with `options`.
pub(crate) fn run(
    options: &Options,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let path = plugin_path(options.scope, home, cwd)?;
    let before = install::read(&path)?;
    let wanted = plugin(
        options
            .ctxoff
            .to_str()
            .context("ctxoff's path is not UTF-8")?,
    );
    if options.check {
        let state = match &before {
            None => "not installed",
            Some(b) if *b == wanted.as_bytes() => "installed",
            Some(_) => "installed, but not as this ctxoff writes it (run `ctxoff init opencode`)",
        };
        writeln!(out, "{state}: {}", path.display())?;
        let ok = before.as_deref() == Some(wanted.as_bytes());
        return Ok(ExitCode::from(if ok { 0 } else { 1 }));
    }
    let edit = Edit {
        path: path.clone(),
        after: (!options.uninstall).then(|| wanted.into_bytes()),
        before,
    };
    if !edit.changes() {
        return install::unchanged(out, "plugin", options.uninstall, &path);
    }
    install::check_writable(&path)?;
    // A plugin ctxoff wrote needs no backup when it goes: only someone else's file does.
    let ours = edit
        .before
        .as_deref()
        .is_some_and(|b| String::from_utf8_lossy(b).starts_with("// ctxoff's opencode plugin"));
    if options.uninstall && ours && !options.dry_run {
        std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
        writeln!(out, "removed {}", path.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    edit.apply(options.dry_run, out)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn the_plugin_calls_this_ctxoff() {
        let text = plugin("/opt/my \"tools\"/ctxoff");
        assert!(
            text.contains(r#"const CTXOFF = "/opt/my \"tools\"/ctxoff";"#),
            "{text}"
        );
        assert!(!text.contains("__CTXOFF__"));
        assert!(
            text.contains("\"tool.execute.before\"") && text.contains("\"tool.execute.after\"")
        );
    }

    #[test]
    fn installs_checks_and_removes_the_plugin() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path().join("project");
        let run = |uninstall: bool, check: bool, dry_run: bool| {
            let options = Options {
                scope: Scope::Project,
                dry_run,
                uninstall,
                check,
                ctxoff: "/usr/local/bin/ctxoff".into(),
            };
            let mut out = Vec::new();
            let code = run(&options, None, &cwd, &mut out).unwrap();
            (code, String::from_utf8(out).unwrap())
        };
        let file = cwd.join(".opencode/plugin/ctxoff.ts");
        assert!(run(false, false, true).1.starts_with("would create"));
        assert!(!file.exists());
        assert_eq!(run(false, true, false).0, ExitCode::from(1));
        run(false, false, false);
        assert!(
            fs::read_to_string(&file)
                .unwrap()
                .contains("hook\", \"opencode\"")
        );
        assert_eq!(run(false, true, false).0, ExitCode::SUCCESS);
        assert!(run(false, false, false).1.contains("already installed"));
        assert!(run(true, false, false).1.starts_with("removed"));
        assert!(!file.exists());
        assert_eq!(
            fs::read_dir(file.parent().unwrap()).unwrap().count(),
            0,
            "no backup"
        );
        // Someone else's file of that name is kept as a backup.
        fs::write(&file, "export const Mine = async () => ({});\n").unwrap();
        run(false, false, false);
        assert!(file.with_file_name("ctxoff.ts.bak").exists());
    }
}
