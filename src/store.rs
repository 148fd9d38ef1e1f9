//! The scratch space (SPEC §4): root, sessions, exclusive creation of output files, the
//! per-session manifest `index.jsonl`, and the names outputs get. Reading outputs back lives in
//! `reference` and `cmd/*`; deleting them in `cmd/gc`.
//!
//! The root usually sits in a world-writable /tmp, so nothing here follows a symlink or writes
//! into a directory another user controls: such a root or session falls back to a private
//! per-user directory, and the reader is told.

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};
use std::ffi::OsString;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::config::Settings;

/// The manifest file of a session directory.
pub const MANIFEST: &str = "index.jsonl";
/// The session's owner record: which process the session belongs to, for gc.
pub const OWNER: &str = "session.json";
/// The per-session sequence counter behind `<name>_<n>`; its `flock` is also the session lock
/// (see [`lock_session_dir`]).
pub const SEQUENCE: &str = ".seq";
/// Where a manifest rewrite is written before it replaces the manifest.
pub const MANIFEST_NEW: &str = ".index.jsonl.new";

/// An opened scratch space: the root and the session outputs are stored in.
#[derive(Clone, Debug)]
pub struct Store {
    pub root: PathBuf,
    pub session: String,
    /// Set when the configured root or session directory could not be used safely and a private
    /// fallback was chosen instead: says why, for the summary.
    pub fallback: Option<String>,
}

/// One line of a session's `index.jsonl`. A capture appends a line with `complete: false` when it
/// starts writing and another when it ends; the last line for an `n` is the one that counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entry {
    pub n: u64,
    /// File name inside the session directory, e.g. `cargo_4.txt`.
    pub file: String,
    pub name: String,
    pub argv: Vec<String>,
    pub cwd: String,
    /// RFC 3339, UTC.
    pub started: String,
    pub duration_ms: u64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub bytes: u64,
    pub lines: u64,
    /// `None` for binary output, which is not tokenized.
    pub tokens: Option<u64>,
    pub encoding: String,
    pub sha256: String,
    pub complete: bool,
    /// Written only when set.
    pub duplicate_of: Option<String>,
}

impl Entry {
    /// The manifest line's JSON object, keys in the order of the fields.
    pub fn to_json(&self) -> Value {
        let mut json = json!({
            "n": self.n,
            "file": self.file,
            "name": self.name,
            "argv": self.argv,
            "cwd": self.cwd,
            "started": self.started,
            "duration_ms": self.duration_ms,
            "exit_code": self.exit_code,
            "signal": self.signal,
            "bytes": self.bytes,
            "lines": self.lines,
            "tokens": self.tokens,
            "encoding": self.encoding,
            "sha256": self.sha256,
            "complete": self.complete,
        });
        if let Some(original) = &self.duplicate_of {
            json["duplicate_of"] = original.as_str().into();
        }
        json
    }

    /// Parses a manifest line: `None` unless every field is there with its type (the optional
    /// ones may also be missing or null). Other keys are ignored.
    pub fn from_json(line: &[u8]) -> Option<Entry> {
        let json: Value = serde_json::from_slice(line).ok()?;
        let fields = Fields(json.as_object()?);
        let string = |v: &Value| v.as_str().map(str::to_string);
        let i32 = |v: &Value| i32::try_from(v.as_i64()?).ok();
        Some(Entry {
            n: fields.u64("n")?,
            file: fields.string("file")?,
            name: fields.string("name")?,
            argv: fields
                .get("argv")?
                .as_array()?
                .iter()
                .map(string)
                .collect::<Option<_>>()?,
            cwd: fields.string("cwd")?,
            started: fields.string("started")?,
            duration_ms: fields.u64("duration_ms")?,
            exit_code: fields.optional("exit_code", i32)?,
            signal: fields.optional("signal", i32)?,
            bytes: fields.u64("bytes")?,
            lines: fields.u64("lines")?,
            tokens: fields.optional("tokens", Value::as_u64)?,
            encoding: fields.string("encoding")?,
            sha256: fields.string("sha256")?,
            complete: fields.get("complete")?.as_bool()?,
            duplicate_of: fields.optional("duplicate_of", string)?,
        })
    }
}

/// The process a session belongs to, recorded when the session directory is created.
#[derive(Clone, Debug, PartialEq)]
pub struct Owner {
    pub pid: u32,
    /// Start time of the process in clock ticks after boot (`/proc/PID/stat` field 22), so a
    /// reused pid is not mistaken for the owner.
    pub start_time: u64,
    pub comm: String,
}

impl Owner {
    /// The owner record's JSON object.
    pub fn to_json(&self) -> Value {
        json!({"pid": self.pid, "start_time": self.start_time, "comm": self.comm})
    }

    /// Whether the owning process still runs: its pid exists with the recorded start time.
    pub fn is_alive(&self) -> bool {
        process_stat(self.pid).is_some_and(|(_, _, start)| start == self.start_time)
    }

    /// Parses an owner record, as strictly as [`Entry::from_json`] a manifest line.
    pub fn from_json(record: &[u8]) -> Option<Owner> {
        let json: Value = serde_json::from_slice(record).ok()?;
        let fields = Fields(json.as_object()?);
        Some(Owner {
            pid: u32::try_from(fields.u64("pid")?).ok()?,
            start_time: fields.u64("start_time")?,
            comm: fields.string("comm")?,
        })
    }
}

/// The fields of a JSON object, read by type: each getter is `None` for a missing field or one
/// of another type.
struct Fields<'a>(&'a Map<String, Value>);

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    fn u64(&self, key: &str) -> Option<u64> {
        self.get(key)?.as_u64()
    }

    fn string(&self, key: &str) -> Option<String> {
        Some(self.get(key)?.as_str()?.to_string())
    }

    /// `Some(None)` for a missing or null field, `None` for one `read` rejects.
    fn optional<T>(&self, key: &str, read: impl Fn(&Value) -> Option<T>) -> Option<Option<T>> {
        match self.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(value) => read(value).map(Some),
        }
    }
}

/// A freshly created, exclusively owned output file.
pub struct NewOutput {
    pub n: u64,
    pub path: PathBuf,
    pub file: File,
}

impl Store {
    /// Opens (creating as needed) the root and session of `settings`, falling back to a private
    /// directory when the root or session directory is not safe to use.
    pub fn open(settings: &Settings) -> Result<Store> {
        let (session, owner) = match &settings.session {
            Some(name) => (checked_session_name(name)?, None),
            None => match ancestor_session() {
                Some((name, owner)) => (name, Some(owner)),
                None => ("default".to_string(), None),
            },
        };
        match prepare(&settings.root, &session, owner.as_ref(), true) {
            Ok(()) => Ok(Store {
                root: settings.root.clone(),
                session,
                fallback: None,
            }),
            Err(why) => {
                let root = fallback_root().context("no private fallback directory")?;
                prepare(&root, &session, owner.as_ref(), false).map_err(|e| {
                    anyhow::anyhow!(
                        "scratch root {} unusable ({why}), and fallback {} too: {e}",
                        settings.root.display(),
                        root.display()
                    )
                })?;
                let note = format!(
                    "scratch root {} not used ({why}); using {}",
                    settings.root.display(),
                    root.display()
                );
                Ok(Store {
                    root,
                    session,
                    fallback: Some(note),
                })
            }
        }
    }

    /// A store for reading: no directory is created or checked.
    pub fn locate(settings: &Settings) -> Result<Store> {
        let session = match &settings.session {
            Some(name) => checked_session_name(name)?,
            None => ancestor_session().map_or_else(|| "default".to_string(), |(name, _)| name),
        };
        Ok(Store {
            root: settings.root.clone(),
            session,
            fallback: None,
        })
    }

    pub fn session_dir(&self) -> PathBuf {
        self.root.join(&self.session)
    }

    /// Creates `<name>_<n>.<ext>` with the session's next `n`: exclusive create, mode 0600,
    /// never through a symlink. Concurrent captures get distinct numbers.
    pub fn create_output(&self, name: &str, ext: &str) -> io::Result<NewOutput> {
        let dir = self.session_dir();
        let SessionLock(mut seq) = self.lock_session()?;
        let mut text = String::new();
        seq.read_to_string(&mut text)?;
        let mut n = text.trim().parse::<u64>().unwrap_or(0);
        loop {
            n += 1;
            let path = dir.join(format!("{name}_{n}.{ext}"));
            match open_private(&path, true) {
                Ok(file) => {
                    let counted = seq
                        .set_len(0)
                        .and_then(|()| seq.rewind())
                        .and_then(|()| seq.write_all(n.to_string().as_bytes()));
                    if let Err(e) = counted {
                        // A full disk: leave no empty output behind.
                        let _ = fs::remove_file(&path);
                        return Err(e);
                    }
                    return Ok(NewOutput { n, path, file });
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Appends one line to the session's manifest, in a single write so concurrent captures
    /// never interleave within a line, and under the session lock so a gc rewriting the
    /// manifest never drops it.
    pub fn append_manifest(&self, entry: &Entry) -> io::Result<()> {
        let mut line = entry.to_json().to_string().into_bytes();
        line.push(b'\n');
        let _lock = self.lock_session()?;
        let mut file = OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(self.session_dir().join(MANIFEST))?;
        file.write_all(&line)
    }

    /// The session lock, making the session directory again (with the checks of `open`) when
    /// a gc removed it since `open`.
    fn lock_session(&self) -> io::Result<SessionLock> {
        let dir = self.session_dir();
        for _ in 0..8 {
            match lock_session_dir(&dir) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    prepare(&self.root, &self.session, None, self.fallback.is_none())
                        .map_err(io::Error::other)?;
                }
                locked => return locked,
            }
        }
        Err(io::Error::other(format!(
            "session directory {} keeps vanishing",
            dir.display()
        )))
    }
}

/// Exclusive hold on a session's numbering and manifest: `flock(LOCK_EX)` on its `.seq`, released
/// on drop. Captures take it to number an output and to append to the manifest; gc takes it to
/// rewrite the manifest and to remove the session.
pub struct SessionLock(File);

/// Takes the lock of the session directory `dir`, creating `.seq` if needed. A `.seq` that gc
/// unlinked while we waited (it removed the session) is not a lock: we try again, and report
/// `NotFound` once the directory is gone.
pub fn lock_session_dir(dir: &Path) -> io::Result<SessionLock> {
    loop {
        let seq = open_private(&dir.join(SEQUENCE), false)?;
        lock(&seq, libc::LOCK_EX)?;
        if seq.metadata()?.nlink() > 0 {
            return Ok(SessionLock(seq));
        }
    }
}

/// Replaces the manifest of `dir` with its lines for which `keep` holds (unparsable lines go):
/// written aside and renamed over, so a reader sees the old manifest or the new one.
pub fn rewrite_manifest(
    dir: &Path,
    _lock: &SessionLock,
    keep: impl Fn(&Entry) -> bool,
) -> io::Result<()> {
    let text = read_nofollow(&dir.join(MANIFEST))?;
    let mut kept = Vec::with_capacity(text.len());
    for line in text.split(|&b| b == b'\n') {
        if Entry::from_json(line).is_some_and(|e| keep(&e)) {
            kept.extend_from_slice(line);
            kept.push(b'\n');
        }
    }
    let new = dir.join(MANIFEST_NEW);
    let mut file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(&new)?;
    file.write_all(&kept)?;
    file.sync_data()?;
    fs::rename(&new, dir.join(MANIFEST))
}

/// Reads a whole file without following a symlink at its last component.
fn read_nofollow(path: &Path) -> io::Result<Vec<u8>> {
    let mut file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// The owner record of a session directory, if it has a readable one.
pub fn read_owner(dir: &Path) -> Option<Owner> {
    Owner::from_json(&read_nofollow(&dir.join(OWNER)).ok()?)
}

/// Reads a session's manifest: the last line for each `n` wins, unreadable or unparsable lines
/// are skipped (a capture killed mid-write leaves at most one torn line). Sorted by `n`.
pub fn read_manifest(session_dir: &Path) -> Vec<Entry> {
    let Ok(text) = read_nofollow(&session_dir.join(MANIFEST)) else {
        return Vec::new();
    };
    let mut by_n = std::collections::BTreeMap::new();
    for line in text.split(|&b| b == b'\n') {
        if let Some(entry) = Entry::from_json(line) {
            by_n.insert(entry.n, entry);
        }
    }
    by_n.into_values().collect()
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

fn open_private(path: &Path, exclusive: bool) -> io::Result<File> {
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
fn prepare(root: &Path, session: &str, owner: Option<&Owner>, shared: bool) -> Result<(), String> {
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
pub fn check_root(meta: &fs::Metadata, uid: u32) -> Result<(), String> {
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
pub fn check_session(meta: &fs::Metadata, uid: u32) -> Result<(), String> {
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

pub fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The private per-user directory used when the configured root is not safe.
pub fn fallback_root() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "ctxoff")?;
    let base = dirs.runtime_dir().unwrap_or_else(|| dirs.cache_dir());
    Some(base.join("scratch"))
}

/// Session names become directory names: `[A-Za-z0-9._-]`, not empty, not `.` or `..`.
pub fn checked_session_name(name: &str) -> Result<String> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if !ok {
        bail!(
            "bad session name '{}': use 1-128 of [A-Za-z0-9._-], not starting with '.'",
            name.escape_debug()
        );
    }
    Ok(name.to_string())
}

/// Programs that run ctxoff on someone else's behalf: the session belongs to the process above.
const NOT_A_SESSION: &[&str] = &[
    "bash", "sh", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "busybox", "env", "timeout",
    "nice", "nohup", "sudo", "doas", "su", "setsid", "stdbuf", "time", "xargs", "script", "ctxoff",
    "make",
];

/// The nearest ancestor process that is not a shell or wrapper: `<comm>-<pid>` and its identity.
fn ancestor_session() -> Option<(String, Owner)> {
    let mut pid = process_stat(std::process::id())?.1;
    for _ in 0..64 {
        if pid <= 1 {
            return None;
        }
        let (comm, ppid, start_time) = process_stat(pid)?;
        if !NOT_A_SESSION.contains(&comm.as_str()) {
            let name = format!("{}-{pid}", sanitize(&comm, "proc"));
            return Some((
                name,
                Owner {
                    pid,
                    start_time,
                    comm,
                },
            ));
        }
        pid = ppid;
    }
    None
}

/// `(comm, ppid, start_time)` of a process, from `/proc/PID/stat`.
pub fn process_stat(pid: u32) -> Option<(String, u32, u64)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // comm may contain spaces and parentheses: it ends at the last ')'.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let comm = stat.get(open + 1..close)?.to_string();
    let fields: Vec<&str> = stat.get(close + 2..)?.split(' ').collect();
    // fields[0] is field 3 (state): ppid is field 4, starttime field 22.
    let ppid = fields.get(1)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((comm, ppid, start))
}

/// Reduces a name to `[A-Za-z0-9._-]` (others become `_`), at most 64 bytes, no leading dot.
pub fn sanitize(name: &str, fallback: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.truncate(64);
    let out = out.trim_start_matches('.');
    if out.is_empty() {
        fallback.to_string()
    } else {
        out.to_string()
    }
}

/// The name an output of `argv` gets: the program's base name, seeing through wrappers
/// (`env A=b`, `sudo`, `timeout 5`, `nice`, `npx`, `uv run`, `python -m X`, `sh -c '…'`).
pub fn output_name(argv: &[OsString]) -> String {
    let words: Vec<String> = argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    sanitize(&program_of(&words, 0), "cmd")
}

fn program_of(words: &[String], depth: usize) -> String {
    let mut i = 0;
    // Leading `VAR=value` assignments (as `env` and shells take them).
    let skip_assignments = |i: &mut usize| {
        while words.get(*i).is_some_and(|w| is_assignment(w)) {
            *i += 1;
        }
    };
    skip_assignments(&mut i);
    while let Some(word) = words.get(i) {
        let base = word.rsplit('/').next().unwrap_or(word);
        // Options of each wrapper that take a separate value.
        let (valued, positional): (&[&str], usize) = match base {
            "env" => (&["-u", "--unset", "-C", "--chdir", "-S"], 0),
            "sudo" | "doas" => (&["-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t"], 0),
            "timeout" => (&["-s", "--signal", "-k", "--kill-after"], 1),
            "nice" => (&["-n", "--adjustment"], 0),
            "nohup" | "time" | "setsid" | "exec" => (&[], 0),
            "stdbuf" => (&["-i", "-o", "-e"], 0),
            "npx" | "pnpx" | "bunx" | "uvx" => (&["-p", "--package", "-c", "--call"], 0),
            "uv" | "poetry" | "pipenv" | "pnpm" | "yarn" | "bundle"
                if words.get(i + 1).is_some_and(|w| w == "run" || w == "exec") =>
            {
                i += 1;
                (&["--with", "--python", "-p", "--directory", "--project"], 0)
            }
            b if b.starts_with("python") && words.get(i + 1).is_some_and(|w| w == "-m") => {
                return words
                    .get(i + 2)
                    .map_or_else(|| base.to_string(), |m| m.clone());
            }
            "sh" | "bash" | "zsh" | "dash" | "ksh" => {
                // `-c` may be combined with other flags, as in `bash -lc`.
                let script = words
                    .iter()
                    .skip(i + 1)
                    .position(|w| w.starts_with('-') && !w.starts_with("--") && w.ends_with('c'));
                return match script.and_then(|p| words.get(i + 2 + p)) {
                    Some(script) if depth < 4 => {
                        let inner: Vec<String> =
                            script.split_whitespace().map(str::to_string).collect();
                        program_of(&inner, depth + 1)
                    }
                    _ => base.to_string(),
                };
            }
            _ => return base.to_string(),
        };
        i += 1;
        let mut positional = positional;
        while let Some(w) = words.get(i) {
            if w == "--" {
                i += 1;
                break;
            }
            if w.starts_with('-') && w.len() > 1 {
                i += if valued.contains(&w.as_str()) { 2 } else { 1 };
            } else if is_assignment(w) {
                i += 1;
            } else if positional > 0 {
                positional -= 1;
                i += 1;
            } else {
                break;
            }
        }
        skip_assignments(&mut i);
    }
    words.last().map_or_else(String::new, |w| {
        w.rsplit('/').next().unwrap_or(w).to_string()
    })
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(words: &[&str]) -> String {
        output_name(&words.iter().map(OsString::from).collect::<Vec<_>>())
    }

    #[test]
    fn names_see_through_wrappers() {
        assert_eq!(name(&["cargo", "test"]), "cargo");
        assert_eq!(name(&["/usr/bin/seq", "1", "9"]), "seq");
        assert_eq!(name(&["env", "A=b", "-u", "X", "cargo", "t"]), "cargo");
        assert_eq!(name(&["RUST_LOG=1", "cargo"]), "cargo");
        assert_eq!(name(&["sudo", "-u", "bob", "make"]), "make");
        assert_eq!(name(&["timeout", "-s", "KILL", "5", "pytest"]), "pytest");
        assert_eq!(name(&["nice", "-n", "5", "rg", "x"]), "rg");
        assert_eq!(name(&["npx", "vitest", "run"]), "vitest");
        assert_eq!(name(&["uv", "run", "pytest", "-q"]), "pytest");
        assert_eq!(name(&["python3", "-m", "pytest"]), "pytest");
        assert_eq!(name(&["sh", "-c", "cargo test 2>&1"]), "cargo");
        assert_eq!(name(&["bash", "-lc", "pytest -q"]), "pytest");
        assert_eq!(name(&["bash", "script.sh"]), "bash");
        assert_eq!(name(&["timeout", "5"]), "5");
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(name(&["./my tool;rm -rf"]), "my_tool_rm_-rf");
        assert_eq!(name(&[".."]), "cmd");
        assert_eq!(name(&["héllo"]), "h_llo");
        assert_eq!(sanitize(&"x".repeat(200), "cmd").len(), 64);
    }

    #[test]
    fn session_names_are_checked() {
        for bad in ["", "..", ".x", "a/b", "a\0b", &"x".repeat(129)] {
            assert!(checked_session_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            checked_session_name("claude-123_x.y").unwrap(),
            "claude-123_x.y"
        );
    }

    #[test]
    fn entries_round_trip_through_their_manifest_line() {
        let entry = Entry {
            n: 4,
            file: "cargo_4.txt".into(),
            name: "cargo".into(),
            argv: vec!["cargo".into(), "t \"x\"".into()],
            cwd: "/w".into(),
            started: "2024-01-02T03:04:05Z".into(),
            duration_ms: 5,
            exit_code: Some(-1),
            signal: Some(9),
            bytes: 10,
            lines: 2,
            tokens: Some(3),
            encoding: "o200k_base".into(),
            sha256: "ab".into(),
            complete: true,
            duplicate_of: Some("cargo_1".into()),
        };
        let line = entry.to_json().to_string();
        assert_eq!(
            line,
            r#"{"n":4,"file":"cargo_4.txt","name":"cargo","argv":["cargo","t \"x\""],"cwd":"/w","started":"2024-01-02T03:04:05Z","duration_ms":5,"exit_code":-1,"signal":9,"bytes":10,"lines":2,"tokens":3,"encoding":"o200k_base","sha256":"ab","complete":true,"duplicate_of":"cargo_1"}"#
        );
        assert_eq!(Entry::from_json(line.as_bytes()).as_ref(), Some(&entry));

        let unset = Entry::default();
        let line = unset.to_json().to_string();
        assert!(line.ends_with(r#""tokens":null,"encoding":"","sha256":"","complete":false}"#));
        assert_eq!(Entry::from_json(line.as_bytes()), Some(unset));
    }

    #[test]
    fn manifest_lines_are_read_strictly() {
        let line = |extra: &str| {
            format!(
                r#"{{"n":1,"file":"f","name":"f","argv":[],"cwd":"/","started":"","duration_ms":0,"bytes":0,"lines":0,"encoding":"","sha256":""{extra}}}"#
            )
        };
        let read = |extra: &str| Entry::from_json(line(extra).as_bytes());
        // Optional fields may be missing or null; other keys are ignored.
        let entry = read(r#","complete":true,"tokens":null,"later":{"a":1}"#).expect("an entry");
        assert_eq!(
            (entry.exit_code, entry.tokens, entry.duplicate_of),
            (None, None, None)
        );
        // A missing field, or any of another type, and the line is not an entry.
        for bad in [
            "",
            r#","complete":1"#,
            r#","complete":true,"exit_code":3000000000"#,
            r#","complete":true,"exit_code":1.0"#,
            r#","complete":true,"duplicate_of":5"#,
            r#","complete":true,"argv":[1]"#,
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
        assert_eq!(Entry::from_json(br#"{"n":1,"#), None);
    }

    #[test]
    fn owner_records_round_trip() {
        let owner = Owner {
            pid: 4821,
            start_time: 123,
            comm: "claude".into(),
        };
        let record = owner.to_json().to_string();
        assert_eq!(record, r#"{"pid":4821,"start_time":123,"comm":"claude"}"#);
        assert_eq!(Owner::from_json(record.as_bytes()), Some(owner));
        assert_eq!(
            Owner::from_json(br#"{"pid":4294967296,"start_time":1,"comm":"x"}"#),
            None
        );
    }

    #[test]
    fn own_process_stat_is_parsed() {
        let (comm, ppid, start) = process_stat(std::process::id()).expect("own stat");
        assert!(!comm.is_empty());
        assert!(ppid > 0);
        assert!(start > 0);
    }
}
