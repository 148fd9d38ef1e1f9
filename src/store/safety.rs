//! Safety in a shared /tmp: nothing here follows a symlink or writes into a directory another
//! user controls. Roots and session directories are checked before use, files are created
//! exclusively, mode 0600, without following links.
//!
//! Everything under the root is reached through a [`Dir`]: a directory opened once, checked on
//! its descriptor, and used for every name inside it (`openat` and friends, `O_NOFOLLOW` on each
//! step). A directory swapped for a symlink after the check is never read or written through,
//! because no path is looked up again.

use std::ffi::{CStr, CString, OsStr, OsString};
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use super::layout::{MARKER, OWNER};
use super::session::Owner;

/// A directory opened once; every name inside it is opened relative to it, one component at a
/// time, never through a symlink.
#[derive(Debug)]
pub struct Dir {
    file: File,
}

/// How [`Dir::open_file`] opens a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Read only; never blocks on a fifo.
    Read,
    /// Read and write, created 0600 if missing.
    Update,
    /// Read and write, created 0600; fails if the name exists.
    CreateNew,
    /// Append, created 0600 if missing.
    Append,
    /// Write, created 0600 or emptied.
    Replace,
}

fn c_name(name: &OsStr) -> io::Result<CString> {
    let bytes = name.as_bytes();
    if bytes.is_empty() || bytes == b"." || bytes == b".." || bytes.contains(&b'/') {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{}' is not a plain file name", name.to_string_lossy()),
        ));
    }
    CString::new(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in a name"))
}

fn cvt(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

impl Dir {
    /// Opens the directory at `path`; a symlink at its last component is refused (`ELOOP`).
    pub fn open(path: &Path) -> io::Result<Dir> {
        let opened = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path);
        match opened {
            Ok(file) => Ok(Dir { file }),
            // With O_DIRECTORY a symlink is "not a directory": say it is a symlink.
            Err(e)
                if e.raw_os_error() == Some(libc::ENOTDIR)
                    && fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) =>
            {
                Err(io::Error::from_raw_os_error(libc::ELOOP))
            }
            Err(e) => Err(e),
        }
    }

    fn openat(&self, name: &OsStr, flags: libc::c_int, mode: libc::mode_t) -> io::Result<File> {
        let name = c_name(name)?;
        loop {
            // SAFETY: a valid directory descriptor and NUL-terminated name; the returned
            // descriptor is new and owned by the File.
            let fd = unsafe {
                libc::openat(
                    self.file.as_raw_fd(),
                    name.as_ptr(),
                    flags | libc::O_NOFOLLOW | libc::O_CLOEXEC,
                    libc::c_uint::from(mode),
                )
            };
            match cvt(fd) {
                // SAFETY: `fd` was just opened and is owned by nothing else.
                Ok(fd) => return Ok(unsafe { File::from_raw_fd(fd) }),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// The directory's own metadata, from its descriptor.
    pub fn metadata(&self) -> io::Result<fs::Metadata> {
        self.file.metadata()
    }

    /// The subdirectory `name`, never through a symlink.
    pub fn open_dir(&self, name: impl AsRef<OsStr>) -> io::Result<Dir> {
        let name = name.as_ref();
        match self.openat(name, libc::O_RDONLY | libc::O_DIRECTORY, 0) {
            Ok(file) => Ok(Dir { file }),
            // With O_DIRECTORY a symlink is "not a directory": say it is a symlink.
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => match self.entry_metadata(name) {
                Ok(m) if m.file_type().is_symlink() => {
                    Err(io::Error::from_raw_os_error(libc::ELOOP))
                }
                _ => Err(e),
            },
            Err(e) => Err(e),
        }
    }

    /// The file `name`, never through a symlink. New files get mode 0600.
    pub fn open_file(&self, name: impl AsRef<OsStr>, access: Access) -> io::Result<File> {
        let flags = match access {
            Access::Read => libc::O_RDONLY | libc::O_NONBLOCK,
            Access::Update => libc::O_RDWR | libc::O_CREAT,
            Access::CreateNew => libc::O_RDWR | libc::O_CREAT | libc::O_EXCL,
            Access::Append => libc::O_WRONLY | libc::O_CREAT | libc::O_APPEND,
            Access::Replace => libc::O_WRONLY | libc::O_CREAT | libc::O_TRUNC,
        };
        let file = self.openat(name.as_ref(), flags, 0o600)?;
        if access == Access::Read {
            // Opened non-blocking so a fifo cannot hang us; reads of a regular file are the same
            // either way, but clear it for what the caller does next.
            let fd = file.as_raw_fd();
            // SAFETY: fcntl on a descriptor we own.
            unsafe {
                let fl = libc::fcntl(fd, libc::F_GETFL);
                if fl >= 0 {
                    libc::fcntl(fd, libc::F_SETFL, fl & !libc::O_NONBLOCK);
                }
            }
        }
        Ok(file)
    }

    /// The metadata of `name` itself (a symlink's own, not its target's).
    pub fn entry_metadata(&self, name: impl AsRef<OsStr>) -> io::Result<fs::Metadata> {
        self.openat(name.as_ref(), libc::O_PATH, 0)?.metadata()
    }

    /// Where the symlink `name` points (for messages only).
    pub fn read_link(&self, name: impl AsRef<OsStr>) -> io::Result<PathBuf> {
        let name = c_name(name.as_ref())?;
        let mut buf = vec![0u8; libc::PATH_MAX as usize];
        // SAFETY: `buf` is valid for `buf.len()` bytes.
        let n = unsafe {
            libc::readlinkat(
                self.file.as_raw_fd(),
                name.as_ptr(),
                buf.as_mut_ptr().cast(),
                buf.len(),
            )
        };
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        buf.truncate(n as usize);
        Ok(PathBuf::from(OsString::from_vec(buf)))
    }

    /// Creates the subdirectory `name` with `mode` (less the umask).
    pub fn create_dir(&self, name: impl AsRef<OsStr>, mode: libc::mode_t) -> io::Result<()> {
        let name = c_name(name.as_ref())?;
        // SAFETY: a valid directory descriptor and NUL-terminated name.
        cvt(unsafe { libc::mkdirat(self.file.as_raw_fd(), name.as_ptr(), mode) }).map(drop)
    }

    /// Removes the file (or symlink) `name`.
    pub fn remove_file(&self, name: impl AsRef<OsStr>) -> io::Result<()> {
        self.unlinkat(name.as_ref(), 0)
    }

    /// Removes the empty subdirectory `name`.
    pub fn remove_dir(&self, name: impl AsRef<OsStr>) -> io::Result<()> {
        self.unlinkat(name.as_ref(), libc::AT_REMOVEDIR)
    }

    fn unlinkat(&self, name: &OsStr, flags: libc::c_int) -> io::Result<()> {
        let name = c_name(name)?;
        // SAFETY: a valid directory descriptor and NUL-terminated name.
        cvt(unsafe { libc::unlinkat(self.file.as_raw_fd(), name.as_ptr(), flags) }).map(drop)
    }

    /// Renames `from` to `to`, both in this directory, replacing `to`.
    pub fn rename(&self, from: impl AsRef<OsStr>, to: impl AsRef<OsStr>) -> io::Result<()> {
        let (from, to) = (c_name(from.as_ref())?, c_name(to.as_ref())?);
        let fd = self.file.as_raw_fd();
        // SAFETY: valid descriptors and NUL-terminated names.
        cvt(unsafe { libc::renameat(fd, from.as_ptr(), fd, to.as_ptr()) }).map(drop)
    }

    /// Makes `to` a hard link to `from` (not following a symlink `from`); fails if `to` exists.
    pub fn hard_link(&self, from: impl AsRef<OsStr>, to: impl AsRef<OsStr>) -> io::Result<()> {
        let (from, to) = (c_name(from.as_ref())?, c_name(to.as_ref())?);
        let fd = self.file.as_raw_fd();
        // SAFETY: valid descriptors and NUL-terminated names.
        cvt(unsafe { libc::linkat(fd, from.as_ptr(), fd, to.as_ptr(), 0) }).map(drop)
    }

    /// The names in the directory (without `.` and `..`), each with whether it is a directory,
    /// a regular file, or a symlink, as far as the directory entry tells.
    pub fn entries(&self) -> io::Result<Vec<(OsString, EntryKind)>> {
        // A fresh open file description of the same directory, so listings never share an offset.
        // SAFETY: a valid descriptor and a NUL-terminated name.
        let fd = cvt(unsafe {
            libc::openat(
                self.file.as_raw_fd(),
                c".".as_ptr(),
                libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
        })?;
        // SAFETY: `fd` is an open directory descriptor we own; fdopendir takes it over and
        // closedir closes it.
        let stream = unsafe { libc::fdopendir(fd) };
        if stream.is_null() {
            let e = io::Error::last_os_error();
            // SAFETY: fdopendir failed, the descriptor is still ours.
            unsafe { libc::close(fd) };
            return Err(e);
        }
        let mut names = Vec::new();
        loop {
            // SAFETY: `stream` is a valid DIR*; readdir's result is valid until the next call.
            let entry = unsafe { libc::readdir(stream) };
            if entry.is_null() {
                break;
            }
            // SAFETY: d_name is NUL-terminated within the entry.
            let (name, kind) = unsafe {
                let name = CStr::from_ptr((*entry).d_name.as_ptr());
                (name.to_bytes().to_vec(), (*entry).d_type)
            };
            if name == b"." || name == b".." {
                continue;
            }
            let kind = match kind {
                libc::DT_DIR => EntryKind::Dir,
                libc::DT_REG => EntryKind::File,
                libc::DT_LNK => EntryKind::Symlink,
                libc::DT_UNKNOWN => EntryKind::Unknown,
                _ => EntryKind::Other,
            };
            names.push((OsString::from_vec(name), kind));
        }
        // SAFETY: closing the stream we opened.
        unsafe { libc::closedir(stream) };
        Ok(names)
    }
}

/// What a directory entry is, as `readdir` says (`Unknown` on filesystems that do not say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Dir,
    File,
    Symlink,
    Other,
    Unknown,
}

/// Reads a whole file of `dir` without following a symlink.
pub(super) fn read_in(dir: &Dir, name: &str) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    dir.open_file(name, Access::Read)?.read_to_end(&mut bytes)?;
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
    mark_used(&file)
}

/// [`touch_last_use`] on an open file.
pub(crate) fn mark_used(file: &File) -> io::Result<()> {
    file.set_times(fs::FileTimes::new().set_accessed(std::time::SystemTime::now()))
}

/// Takes the exclusive advisory lock (`flock`) of `file`, waiting for it. Captures hold it on
/// the output file while writing it; gc skips files it cannot lock.
pub fn lock(file: &File) -> io::Result<()> {
    file.lock()
}

/// Takes the exclusive lock of `file` if no one holds it: `Ok(false)` when someone does.
pub(crate) fn try_lock(file: &File) -> io::Result<bool> {
    match file.try_lock() {
        Ok(()) => Ok(true),
        Err(fs::TryLockError::WouldBlock) => Ok(false),
        Err(fs::TryLockError::Error(e)) => Err(e),
    }
}

/// Opens the scratch root `root` and checks it (see [`check_root`]); with `create`, makes it
/// first when missing: a `shared` root like /tmp (mode 1777), a private one 0700. The error
/// says why the root is not safe.
pub(crate) fn open_root(root: &Path, create: bool, shared: bool) -> Result<Dir, String> {
    let uid = current_uid();
    let mut created = false;
    if create && fs::symlink_metadata(root).is_err() {
        if let Some(parent) = root.parent() {
            fs::create_dir_all(parent).map_err(|e| format!("cannot create it: {e}"))?;
        }
        match fs::DirBuilder::new().create(root) {
            Ok(()) => created = true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(format!("cannot create it: {e}")),
        }
    }
    let dir = Dir::open(root).map_err(|e| match e.raw_os_error() {
        Some(libc::ELOOP) => "it is a symlink".to_string(),
        Some(libc::ENOTDIR) => "it is not a directory".to_string(),
        _ => e.to_string(),
    })?;
    if created && dir.metadata().is_ok_and(|m| m.uid() == uid) {
        // Shared like /tmp: every user may add a session, none may remove another's. Set on the
        // descriptor, so it is the directory we made that gets the mode.
        let mode = if shared { 0o1777 } else { 0o700 };
        use std::os::unix::fs::PermissionsExt;
        dir.file
            .set_permissions(fs::Permissions::from_mode(mode))
            .map_err(|e| format!("cannot set its mode: {e}"))?;
    }
    check_root(&dir.metadata().map_err(|e| e.to_string())?, uid)?;
    Ok(dir)
}

/// Opens the session directory `session` of `root` and checks it is ours to write (see
/// [`check_session`]), creating it (0700, with ctxoff's marker and the `owner` record) when
/// missing.
pub(crate) fn open_session(
    root: &Dir,
    session: &str,
    owner: Option<&Owner>,
) -> Result<Dir, String> {
    let uid = current_uid();
    // A gc may remove an empty session directory between our creating and opening it.
    for _ in 0..8 {
        let created = match root.create_dir(session, 0o700) {
            Ok(()) => true,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => false,
            Err(e) => return Err(format!("cannot create session {session}: {e}")),
        };
        let dir = match root.open_dir(session) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                return Err(format!("session directory {session} is a symlink"));
            }
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {
                return Err(format!("session directory {session} is not a directory"));
            }
            Err(e) => return Err(format!("session directory {session}: {e}")),
            Ok(dir) => dir,
        };
        let meta = dir.metadata().map_err(|e| e.to_string())?;
        check_session(&meta, uid).map_err(|why| format!("session directory {session} {why}"))?;
        if created {
            // The marker says ctxoff made this directory: gc removes no directory without it
            // (or without the bookkeeping of a session of an earlier release).
            let _ = dir
                .open_file(MARKER, Access::CreateNew)
                .and_then(|mut f| f.write_all(b"ctxoff session\n"));
            if let Some(owner) = owner {
                let record = owner.to_json().to_string();
                let _ = dir
                    .open_file(OWNER, Access::CreateNew)
                    .and_then(|mut f| f.write_all(record.as_bytes()));
            }
        }
        return Ok(dir);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_opened_through_a_symlink() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("x_1.txt"), "secret").unwrap();
        std::fs::create_dir(tmp.path().join("s")).unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("linked")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("x_1.txt"), tmp.path().join("s/x_1.txt"))
            .unwrap();
        let root = Dir::open(tmp.path()).unwrap();
        let eloop = |e: io::Error| e.raw_os_error() == Some(libc::ELOOP);
        assert!(eloop(root.open_dir("linked").unwrap_err()));
        let s = root.open_dir("s").unwrap();
        assert!(eloop(s.open_file("x_1.txt", Access::Read).unwrap_err()));
        assert!(
            s.entry_metadata("x_1.txt")
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            s.read_link("x_1.txt").unwrap(),
            outside.path().join("x_1.txt")
        );
        assert!(Dir::open(&tmp.path().join("linked")).is_err());
        for bad in ["", ".", "..", "a/b", "../s"] {
            assert!(root.open_dir(bad).is_err(), "{bad}");
        }
        let names: Vec<_> = root
            .entries()
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(names.len(), 2);
        // A second listing of the same directory starts from the beginning again.
        assert_eq!(root.entries().unwrap().len(), 2);
    }

    #[test]
    fn a_swapped_directory_is_not_followed_once_opened() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::create_dir(tmp.path().join("s")).unwrap();
        std::fs::write(tmp.path().join("s/x_1.txt"), "mine").unwrap();
        std::fs::write(outside.path().join("x_1.txt"), "secret").unwrap();
        let s = Dir::open(tmp.path()).unwrap().open_dir("s").unwrap();
        std::fs::rename(tmp.path().join("s"), tmp.path().join("old")).unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("s")).unwrap();
        let mut text = String::new();
        s.open_file("x_1.txt", Access::Read)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        assert_eq!(text, "mine");
    }
}
