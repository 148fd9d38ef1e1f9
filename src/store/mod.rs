//! The scratch space (SPEC §4): root, sessions, exclusive creation of output files, the
//! per-session manifest `index.jsonl`, the names of outputs, and references to them. Reading
//! outputs back lives in `cmd/*`; deleting them in `cmd/gc`.
//!
//! The root usually sits in a world-writable /tmp, so nothing here follows a symlink or writes
//! into a directory another user controls: such a root or session falls back to a private
//! per-user directory, and the reader is told.

mod layout;
mod manifest;
pub mod reference;
mod safety;
mod session;

pub(crate) use layout::{Kind, MARKER, SEQUENCE, duplicate_link, is_bookkeeping, sanitize, stem};
pub use layout::{MANIFEST, OutputFile};
pub use manifest::{Entry, ORDER_EXACT, ORDER_PER_STREAM, read_manifest};
pub(crate) use manifest::{read_manifest_in, rewrite_manifest};
pub use safety::{Access, Dir, EntryKind, lock, touch_last_use};
pub(crate) use safety::{
    check_session, current_uid, fallback_root, mark_used, open_root, try_lock,
};
pub use session::{Owner, process_stat};
pub(crate) use session::{checked_session_name, read_owner};

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use safety::open_session;
use session::ancestor_session;

/// An opened scratch space: the root and the session outputs are stored in.
#[derive(Clone, Debug)]
pub struct Store {
    pub root: PathBuf,
    pub session: String,
    /// Set when the configured root or session directory could not be used safely and a private
    /// fallback was chosen instead: says why, for the summary.
    pub fallback: Option<String>,
}

/// A freshly created, exclusively owned output file.
pub struct NewOutput {
    pub n: u64,
    pub path: PathBuf,
    pub file: File,
    /// The session directory the file was made in, as opened then.
    pub dir: Dir,
}

impl NewOutput {
    /// The file's name in its session directory.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

impl Store {
    /// Opens (creating as needed) `root` and the session (named, or the ancestor process's),
    /// falling back to a private directory when the root or session directory is not safe to use.
    pub(crate) fn open(root: &Path, session: Option<&str>) -> Result<Store> {
        let (session, owner) = match session {
            Some(name) => (checked_session_name(name)?, None),
            None => match ancestor_session() {
                Some((name, owner)) => (name, Some(owner)),
                None => ("default".to_string(), None),
            },
        };
        let prepare = |root: &Path, shared: bool| {
            open_root(root, true, shared)
                .and_then(|dir| open_session(&dir, &session, owner.as_ref()))
        };
        match prepare(root, true) {
            Ok(_) => Ok(Store {
                root: root.to_path_buf(),
                session,
                fallback: None,
            }),
            Err(why) => {
                let fallback = fallback_root().context("no private fallback directory")?;
                prepare(&fallback, false).map_err(|e| {
                    anyhow::anyhow!(
                        "scratch root {} unusable ({why}), and fallback {} too: {e}",
                        root.display(),
                        fallback.display()
                    )
                })?;
                let note = format!(
                    "scratch root {} not used ({why}); using {}",
                    root.display(),
                    fallback.display()
                );
                Ok(Store {
                    root: fallback,
                    session,
                    fallback: Some(note),
                })
            }
        }
    }

    /// A store for reading: no directory is created or checked.
    pub(crate) fn locate(root: &Path, session: Option<&str>) -> Result<Store> {
        let session = match session {
            Some(name) => checked_session_name(name)?,
            None => ancestor_session().map_or_else(|| "default".to_string(), |(name, _)| name),
        };
        Ok(Store {
            root: root.to_path_buf(),
            session,
            fallback: None,
        })
    }

    pub fn session_dir(&self) -> PathBuf {
        self.root.join(&self.session)
    }

    /// The session directory, opened and checked as `open` does (made again when a gc removed
    /// it since).
    pub fn session(&self) -> io::Result<Dir> {
        open_root(&self.root, true, self.fallback.is_none())
            .and_then(|root| open_session(&root, &self.session, None))
            .map_err(io::Error::other)
    }

    /// Creates `<name>_<n>.<ext>` with the session's next `n`: exclusive create, mode 0600,
    /// never through a symlink. Concurrent captures get distinct numbers.
    pub fn create_output(&self, name: &str, ext: &str) -> io::Result<NewOutput> {
        let (dir, SessionLock(mut seq)) = self.lock_session()?;
        let mut text = String::new();
        seq.read_to_string(&mut text)?;
        let mut n = text.trim().parse::<u64>().unwrap_or(0);
        loop {
            n += 1;
            let file_name = OutputFile::format(name, n, ext);
            match dir.open_file(&file_name, Access::CreateNew) {
                Ok(file) => {
                    let counted = seq
                        .set_len(0)
                        .and_then(|()| seq.rewind())
                        .and_then(|()| seq.write_all(n.to_string().as_bytes()));
                    if let Err(e) = counted {
                        // A full disk: leave no empty output behind.
                        let _ = dir.remove_file(&file_name);
                        return Err(e);
                    }
                    let path = self.session_dir().join(file_name);
                    return Ok(NewOutput { n, path, file, dir });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Appends one line to the manifest of the session directory `dir` (see [`append_manifest`]).
    pub fn append_manifest(&self, dir: &Dir, entry: &Entry) -> io::Result<()> {
        append_manifest(dir, entry)
    }

    /// The session directory and its lock, making the directory again (with the checks of
    /// `open`) when a gc removed it since `open`.
    fn lock_session(&self) -> io::Result<(Dir, SessionLock)> {
        for _ in 0..8 {
            let dir = self.session()?;
            match lock_session_dir(&dir) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
                Err(e) => return Err(e),
                Ok(lock) => return Ok((dir, lock)),
            }
        }
        Err(io::Error::other(format!(
            "session directory {} keeps vanishing",
            self.session_dir().display()
        )))
    }
}

/// Appends one line to the manifest of the session directory `dir`, in a single write so
/// concurrent captures never interleave within a line, and under the session lock so a gc
/// rewriting the manifest never drops it.
pub(crate) fn append_manifest(dir: &Dir, entry: &Entry) -> io::Result<()> {
    let mut line = entry.to_json().to_string().into_bytes();
    line.push(b'\n');
    let _lock = lock_session_dir(dir)?;
    dir.open_file(MANIFEST, Access::Append)?.write_all(&line)
}

/// Exclusive hold on a session's numbering and manifest: the `flock` of its `.seq`, released
/// on drop. Captures take it to number an output and to append to the manifest; gc takes it to
/// rewrite the manifest and to remove the session.
pub(crate) struct SessionLock(File);

/// Takes the lock of the session directory `dir`, creating `.seq` if needed. A `.seq` that gc
/// unlinked while we waited (it removed the session) is not a lock, and a removed directory
/// takes no new one: both are `NotFound`.
pub(crate) fn lock_session_dir(dir: &Dir) -> io::Result<SessionLock> {
    loop {
        let seq = dir.open_file(SEQUENCE, Access::Update)?;
        lock(&seq)?;
        if seq.metadata()?.nlink() > 0 {
            return Ok(SessionLock(seq));
        }
    }
}
