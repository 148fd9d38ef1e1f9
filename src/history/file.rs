//! The history on disk: `history.jsonl` in the user's data directory, with the scratch space's
//! safety rules (a private directory of the user's own, files created 0600, no symbolic link
//! followed: the directory is opened once and every file reached through it, nothing another
//! user owns used), appends that concurrent processes can neither
//! interleave nor lose, and the daily fold.
//!
//! Every write holds `history.lock` exclusively (`flock`): an append is one `write` to a file
//! opened `O_APPEND`, undone if it fell short, so a line is whole or absent; a fold writes the
//! new history aside and renames it over the old one, so readers see one or the other and no
//! append goes to a file being replaced. Readers hold the lock shared while they read. Nobody
//! waits for the lock for long: a process stopped while holding it must not hang every command.

use std::fs::{self, File, TryLockError};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::{Day, Record, fold};
use crate::store::{Access, Dir, check_session, current_uid};

const FILE: &str = "history.jsonl";
const LOCK: &str = "history.lock";
/// The folded history, before it replaces the old one.
const FOLDED: &str = "history.jsonl.new";

/// Days kept record by record (today and the days before it); older records are folded.
pub(crate) const KEEP_DAYS: i64 = 14;
/// A fold runs at most this often; the lock file's modification time is the last fold's.
const FOLD_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// How long a process waits for the lock before it gives up (and a writer drops its record).
const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The history, open: its directory opened once and checked, its lock file at hand. Every file
/// in it is reached through the opened directory, never by a path looked up again.
pub(crate) struct History {
    dir: PathBuf,
    opened: Dir,
    lock: File,
}

impl History {
    /// This user's history directory: `ctxoff` in the platform data directory
    /// (`~/.local/share/ctxoff` on Linux); `None` when there is no home directory.
    pub(crate) fn location() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "ctxoff").map(|dirs| dirs.data_dir().to_path_buf())
    }

    /// The history in `dir`, created as needed, to record in; `None` when there is none or it
    /// is not safe to use (recording says nothing: `ctxoff stats` says why).
    pub(crate) fn writable(dir: Option<&Path>) -> Option<History> {
        History::open(dir?, true).ok().flatten()
    }

    /// Opens the history in `dir`, creating the directory (0700) when `create` and it is
    /// missing; `Ok(None)` when it is missing and not to be created. The error says why the
    /// directory is not used: a symbolic link, not a directory, another user's, writable by
    /// others, or not ours to write.
    pub(crate) fn open(dir: &Path, create: bool) -> Result<Option<History>, String> {
        let shown = dir.display();
        match fs::symlink_metadata(dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound && create => {
                if let Some(parent) = dir.parent() {
                    fs::create_dir_all(parent)
                        .map_err(|e| format!("cannot create {shown}: {e}"))?;
                }
                match fs::DirBuilder::new().mode(0o700).create(dir) {
                    Err(e) if e.kind() != io::ErrorKind::AlreadyExists => {
                        return Err(format!("cannot create {shown}: {e}"));
                    }
                    _ => {}
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("{shown}: {e}")),
            Ok(_) => {}
        }
        let opened = Dir::open(dir).map_err(|e| match e.raw_os_error() {
            Some(libc::ELOOP) => format!("{shown} is a symlink"),
            _ => format!("{shown}: {e}"),
        })?;
        let meta = opened.metadata().map_err(|e| format!("{shown}: {e}"))?;
        check_session(&meta, current_uid()).map_err(|why| format!("{shown} {why}"))?;
        let lock = open_own(&opened, LOCK, Access::Update)
            .map_err(|e| format!("{}: {e}", dir.join(LOCK).display()))?;
        Ok(Some(History {
            dir: dir.to_path_buf(),
            opened,
            lock,
        }))
    }

    /// The history file.
    pub(crate) fn path(&self) -> PathBuf {
        self.dir.join(FILE)
    }

    /// Appends one record, then folds old records when a day has passed since the last fold.
    pub(crate) fn append(&self, record: &Record) -> io::Result<()> {
        let mut line = record.to_line().into_bytes();
        line.push(b'\n');
        let _held = Held::take(&self.lock, Mode::Exclusive)?;
        let file = open_own(&self.opened, FILE, Access::Append)?;
        let len = file.metadata()?.len();
        let written = loop {
            match (&file).write(&line) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                written => break written,
            }
        };
        match written {
            Ok(n) if n == line.len() => {}
            // A full disk: leave no part of a line behind for the next one to join.
            written => {
                let _ = file.set_len(len);
                return Err(written
                    .err()
                    .unwrap_or_else(|| io::Error::other("short write")));
            }
        }
        let due = self
            .lock
            .metadata()
            .and_then(|m| m.modified())
            .map(|folded| {
                SystemTime::now()
                    .duration_since(folded)
                    .is_ok_and(|age| age >= FOLD_EVERY)
            });
        if due.unwrap_or(false) {
            // The record is in: a failed fold only leaves the history longer.
            let _ = self.fold(Day::today().minus(KEEP_DAYS));
        }
        Ok(())
    }

    /// The history's text (empty when there is none yet), read under the shared lock.
    pub(crate) fn read(&self) -> io::Result<String> {
        let _held = Held::take(&self.lock, Mode::Shared)?;
        read_own(&self.opened, FILE)
    }

    /// Folds the records done with before `before` (see [`fold::fold`]): writes the new
    /// history aside and renames it over the old one. The caller holds the lock exclusively.
    fn fold(&self, before: Day) -> io::Result<()> {
        let text = read_own(&self.opened, FILE)?;
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        let gone = |path: &str| {
            fs::symlink_metadata(path).is_err_and(|e| e.kind() == io::ErrorKind::NotFound)
        };
        let mut folded = fold::fold(&lines, before, gone).join("\n");
        if !folded.is_empty() {
            folded.push('\n');
        }
        // Left by a fold that was interrupted: the lock is ours, so no fold is writing it.
        let _ = self.opened.remove_file(FOLDED);
        let mut file = open_own(&self.opened, FOLDED, Access::CreateNew)?;
        file.write_all(folded.as_bytes())?;
        file.sync_all()?;
        self.opened.rename(FOLDED, FILE)?;
        self.lock.set_modified(SystemTime::now())
    }
}

/// How the lock is held: by one writer, or by any number of readers.
#[derive(Clone, Copy)]
enum Mode {
    Exclusive,
    Shared,
}

/// A lock held on the lock file (`flock`), released on drop.
struct Held<'a>(&'a File);

impl<'a> Held<'a> {
    /// Takes the lock, waiting at most [`LOCK_WAIT`].
    fn take(file: &'a File, mode: Mode) -> io::Result<Held<'a>> {
        let deadline = Instant::now() + LOCK_WAIT;
        let mut pause = Duration::from_micros(200);
        loop {
            let taken = match mode {
                Mode::Exclusive => file.try_lock(),
                Mode::Shared => file.try_lock_shared(),
            };
            match taken {
                Ok(()) => return Ok(Held(file)),
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(20));
                }
                Err(TryLockError::WouldBlock) => {
                    return Err(io::Error::new(
                        io::ErrorKind::WouldBlock,
                        "the history is locked by another process",
                    ));
                }
                Err(TryLockError::Error(e)) => return Err(e),
            }
        }
    }
}

impl Drop for Held<'_> {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

/// Opens (creating it 0600 where `access` may) a file of the history, never through a
/// symbolic link, and refuses it unless it is a regular file of this user's.
fn open_own(dir: &Dir, name: &str, access: Access) -> io::Result<File> {
    let file = dir.open_file(name, access)?;
    let meta = file.metadata()?;
    if !meta.is_file() || meta.uid() != current_uid() {
        return Err(io::Error::other(format!(
            "{name} is not a file of this user's"
        )));
    }
    Ok(file)
}

/// The text of a history file, empty when there is none; invalid UTF-8 (a corrupt line) is
/// decoded lossily.
fn read_own(dir: &Dir, name: &str) -> io::Result<String> {
    let mut file = match open_own(dir, name, Access::Read) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(String::new()),
        file => file?,
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}
