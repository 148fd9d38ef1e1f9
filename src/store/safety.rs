//! Safety in a shared /tmp: nothing here follows a symlink or writes into a directory another
//! user controls. Roots and session directories are checked before use, files are created
//! exclusively, mode 0600, without following links.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::layout::OWNER;
use super::session::Owner;

/// Reads a whole file without following a symlink at its last component.
pub(super) fn read_nofollow(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Marks an output as just used: gc removes outputs by last use, which is the later of the
/// file's access and modification times; retrieval sets the access time explicitly (so it works
/// on `noatime` mounts).
pub fn touch_last_use(path: &Path) -> io::Result<()> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    file.set_times(fs::FileTimes::new().set_accessed(std::time::SystemTime::now()))
}

/// Takes or releases an advisory lock (`flock`). Captures hold `LOCK_EX` on the output file
/// while writing it; gc skips files it cannot lock.
pub fn lock(file: &File, op: libc::c_int) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    loop {
        // SAFETY: flock on a file descriptor we own; no memory is shared with the kernel.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if err.kind() != io::ErrorKind::Interrupted {
            return Err(err);
        }
    }
}

pub(super) fn open_private(path: &Path, exclusive: bool) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options
        .read(true)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
    if exclusive {
        options.create_new(true);
    } else {
        options.create(true);
    }
    options.open(path)
}

/// Makes sure `root/session` is safe to write into, creating what is missing: a `shared` root
/// like /tmp (mode 1777), a private one 0700. The error says why it is not safe.
pub(super) fn prepare(
    root: &Path,
    session: &str,
    owner: Option<&Owner>,
    shared: bool,
) -> Result<(), String> {
    let uid = current_uid();
    match fs::symlink_metadata(root) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(parent) = root.parent() {
                fs::create_dir_all(parent).map_err(|e| format!("cannot create it: {e}"))?;
            }
            match fs::DirBuilder::new().mode(0o700).create(root) {
                // Shared like /tmp: every user may add a session, none may remove another's.
                Ok(()) if shared => fs::set_permissions(root, fs::Permissions::from_mode(0o1777))
                    .map_err(|e| format!("cannot set its mode: {e}"))?,
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(format!("cannot create it: {e}")),
            }
        }
        Err(e) => return Err(e.to_string()),
        Ok(_) => {}
    }
    let meta = fs::symlink_metadata(root).map_err(|e| e.to_string())?;
    check_root(&meta, uid)?;

    let dir = root.join(session);
    // A gc may remove an empty session directory between our creating and checking it.
    for _ in 0..8 {
        let created = match fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
            Err(e) => return Err(format!("cannot create session {session}: {e}")),
        };
        let meta = match fs::symlink_metadata(&dir) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            meta => meta.map_err(|e| e.to_string())?,
        };
        check_session(&meta, uid).map_err(|why| format!("session directory {session} {why}"))?;
        if created && let Some(owner) = owner {
            let record = owner.to_json().to_string();
            let _ = open_private(&dir.join(OWNER), true)
                .and_then(|mut f| f.write_all(record.as_bytes()));
        }
        return Ok(());
    }
    Err(format!("session directory {session} keeps vanishing"))
}

/// Whether a root is safe to use: a real directory, ours or the superuser's, and not writable
/// by others unless sticky (as /tmp is). A root another user owns is theirs to rearrange.
pub(crate) fn check_root(meta: &fs::Metadata, uid: u32) -> Result<(), String> {
    if meta.file_type().is_symlink() {
        return Err("it is a symlink".into());
    }
    if !meta.is_dir() {
        return Err("it is not a directory".into());
    }
    if meta.uid() != uid && meta.uid() != 0 {
        return Err(format!("it is owned by uid {}", meta.uid()));
    }
    let sticky = meta.mode() & 0o1000 != 0;
    if meta.mode() & 0o022 != 0 && !sticky {
        return Err("it is writable by others and not sticky".into());
    }
    Ok(())
}

/// Whether a session directory is safe to use: a real directory of ours that only we can write.
pub(crate) fn check_session(meta: &fs::Metadata, uid: u32) -> Result<(), String> {
    if meta.file_type().is_symlink() {
        return Err("is a symlink".into());
    }
    if !meta.is_dir() {
        return Err("is not a directory".into());
    }
    if meta.uid() != uid {
        return Err(format!("is owned by uid {}", meta.uid()));
    }
    if meta.mode() & 0o022 != 0 {
        return Err("is writable by others".into());
    }
    Ok(())
}

pub(crate) fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The private per-user directory used when the configured root is not safe.
pub(crate) fn fallback_root() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "ctxoff")?;
    let base = dirs.runtime_dir().unwrap_or_else(|| dirs.cache_dir());
    Some(base.join("scratch"))
}
