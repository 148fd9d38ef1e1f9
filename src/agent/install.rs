//! What every agent's `ctxoff init` does to a file, in one place: read it, and either report
//! the change (`--dry-run`), or save a backup that keeps the file's mode and write the new
//! content through a temporary file and a rename (a symlinked file stays a symlink, its target is
//! replaced; a read-only one is an error). Each agent's `install` module decides the content.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};

/// Where `ctxoff init` installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// The user's configuration: every project.
    Global,
    /// The current folder's configuration, to share with a team.
    Project,
}

/// What `ctxoff init AGENT` was asked to do.
#[derive(Debug, Clone)]
pub(crate) struct Options {
    pub scope: Scope,
    pub dry_run: bool,
    pub uninstall: bool,
    pub check: bool,
    /// The ctxoff the installed hook runs: this one, by absolute path, so the hook works
    /// whatever the agent's `PATH`.
    pub ctxoff: PathBuf,
}

/// A file's current bytes (`None`: it does not exist).
pub(crate) fn read(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    match fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// One file's change.
pub(crate) struct Edit {
    pub path: PathBuf,
    pub before: Option<Vec<u8>>,
    /// `None`: remove the file.
    pub after: Option<Vec<u8>>,
}

impl Edit {
    pub(crate) fn changes(&self) -> bool {
        self.before != self.after
    }

    /// Applies the change (backup first), or with `dry_run` says what it would do. Reports go to
    /// `out`, one line each.
    pub(crate) fn apply(&self, dry_run: bool, out: &mut dyn Write) -> anyhow::Result<()> {
        let shown = self.path.display();
        if !self.changes() {
            return Ok(());
        }
        if dry_run {
            let verb = match (&self.before, &self.after) {
                (None, _) => "create",
                (Some(_), None) => "remove",
                (Some(_), Some(_)) => "change",
            };
            writeln!(out, "would {verb} {shown}")?;
            if self.before.is_some() {
                writeln!(
                    out,
                    "  and back up the current file to {}",
                    next_backup(&self.path).display()
                )?;
            }
            return Ok(());
        }
        let backup = match &self.before {
            Some(bytes) => Some(backup(&self.path, bytes)?),
            None => None,
        };
        match &self.after {
            Some(bytes) => write_atomic(&self.path, bytes)?,
            None => {
                fs::remove_file(&self.path).with_context(|| format!("cannot remove {shown}"))?
            }
        }
        let verb = match (&self.before, &self.after) {
            (None, _) => "created",
            (Some(_), None) => "removed",
            (Some(_), Some(_)) => "changed",
        };
        match backup {
            Some(b) => writeln!(out, "{verb} {shown} (backup: {})", b.display())?,
            None => writeln!(out, "{verb} {shown}")?,
        }
        Ok(())
    }
}

/// Refuses a file this user may not write, before anything is changed.
/// Says that `what` (`hook`, `hooks`, `plugin`) in `path` was already as asked (installed, or
/// not installed when `uninstall`), so nothing changed.
pub(crate) fn unchanged(
    out: &mut dyn Write,
    what: &str,
    uninstall: bool,
    path: &Path,
) -> anyhow::Result<ExitCode> {
    let state = if uninstall {
        "not installed"
    } else {
        "already installed"
    };
    writeln!(
        out,
        "ctxoff {what} {state} in {}; nothing changed",
        path.display()
    )?;
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn check_writable(path: &Path) -> anyhow::Result<()> {
    let target = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    if target.exists() && !access(&target, libc::W_OK) {
        bail!("{} is read-only; nothing written", path.display());
    }
    Ok(())
}

fn access(path: &Path, mode: libc::c_int) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: a valid NUL-terminated path.
    unsafe { libc::access(c.as_ptr(), mode) == 0 }
}

/// The first free name of `FILE.bak`, `FILE.bak.1`, `.bak.2`…
pub(crate) fn next_backup(path: &Path) -> PathBuf {
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

/// Saves `bytes` under the first free backup name with the file's own mode (a 0600 file of
/// secrets gets a 0600 backup), created exclusively so no earlier backup is overwritten.
pub(crate) fn backup(path: &Path, bytes: &[u8]) -> anyhow::Result<PathBuf> {
    let mode = fs::metadata(path).map_or(0o600, |m| m.permissions().mode() & 0o7777);
    for n in 0.. {
        let candidate = backup_name(path, n);
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&candidate)
        {
            Ok(mut file) => {
                file.write_all(bytes)
                    .and_then(|()| file.set_permissions(fs::Permissions::from_mode(mode)))
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

/// Writes `bytes` through a temporary file and a rename, keeping the mode of the file it
/// replaces, so a crash never leaves half a file. A symlink's target is replaced.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let path = &fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let dir = path.parent().context("the path has no folder")?;
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.ctxoff-{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .open(&tmp)?;
        if let Ok(meta) = fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}

/// The command line an agent runs for ctxoff's hook.
pub(crate) fn hook_command(options: &Options, agent: &str) -> anyhow::Result<String> {
    let exe = options
        .ctxoff
        .to_str()
        .context("ctxoff's path is not UTF-8")?;
    Ok(format!("{} hook {agent}", crate::format::shell_quote(exe)))
}

/// Whether `command` runs ctxoff's hook for `agent` (`ctxoff hook AGENT`, with any path).
pub(crate) fn is_hook_command(command: &str, agent: &str) -> bool {
    let words = crate::command::lex::simple_command(command).map(|c| c.words);
    matches!(words.as_deref(), Ok([program, hook, a])
        if crate::command::base_name(program) == "ctxoff" && hook == "hook" && a == agent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backups_keep_the_mode_and_never_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("settings.json");
        fs::write(&file, "{\"env\": {\"KEY\": \"secret\"}}").unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        let edit = |after: &str| Edit {
            path: file.clone(),
            before: read(&file).unwrap(),
            after: Some(after.as_bytes().to_vec()),
        };
        let mut out = Vec::new();
        edit("{}").apply(false, &mut out).unwrap();
        edit("{\"a\":1}").apply(false, &mut out).unwrap();
        for name in ["settings.json", "settings.json.bak", "settings.json.bak.1"] {
            let mode = fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600, "{name}");
        }
        assert_eq!(
            fs::read_to_string(dir.path().join("settings.json.bak")).unwrap(),
            "{\"env\": {\"KEY\": \"secret\"}}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "{\"a\":1}");
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("(backup: "), "{out}");
    }

    #[test]
    fn dry_run_writes_nothing_and_says_what_it_would() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a/hooks.json");
        let edit = Edit {
            path: file.clone(),
            before: None,
            after: Some(b"{}".to_vec()),
        };
        let mut out = Vec::new();
        edit.apply(true, &mut out).unwrap();
        assert!(!file.exists() && !dir.path().join("a").exists());
        assert_eq!(
            String::from_utf8(out).unwrap(),
            format!("would create {}\n", file.display())
        );
    }

    #[test]
    fn a_symlink_stays_a_symlink_and_read_only_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("dotfiles.json");
        let link = dir.path().join("settings.json");
        fs::write(&target, "{}").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let edit = Edit {
            path: link.clone(),
            before: read(&link).unwrap(),
            after: Some(b"{\"x\":1}".to_vec()),
        };
        edit.apply(false, &mut Vec::new()).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read_to_string(&target).unwrap(), "{\"x\":1}");
        fs::set_permissions(&target, fs::Permissions::from_mode(0o444)).unwrap();
        // Root may write anything: only check the refusal where permissions apply.
        if !access(&target, libc::W_OK) {
            assert!(check_writable(&link).is_err());
        }
        assert!(check_writable(&dir.path().join("missing.json")).is_ok());
    }

    #[test]
    fn recognises_hook_commands() {
        assert!(is_hook_command("ctxoff hook codex", "codex"));
        assert!(is_hook_command(
            "/home/a/.cargo/bin/ctxoff hook gemini",
            "gemini"
        ));
        assert!(is_hook_command(
            "'/opt/my tools/ctxoff' hook codex",
            "codex"
        ));
        assert!(!is_hook_command("ctxoff hook claude", "codex"));
        assert!(!is_hook_command("ctxoff hook codex --x", "codex"));
        assert!(!is_hook_command("audit-log", "codex"));
    }
}
