//! `ctxoff gc`: removes offloaded outputs nobody uses any more, and sessions whose agent has
//! ended (SPEC §5). This module owns the policy (what is old, what is over size) and the
//! removal; the layout, the locks and what makes a directory safe are `store`'s.
//!
//! What gc may delete is narrow on purpose, because the root usually sits in a shared /tmp (or,
//! configured so, in a user's own directory): an output is a regular file of ours named
//! `<name>_<n>.<txt|json|bin>` and listed under that name in its session's manifest, in a session
//! directory of ours that ctxoff made (its marker, or the bookkeeping of an earlier release),
//! under a root that passes the checks captures apply; plus a session's own bookkeeping once no
//! output is left. Every name is opened relative to its directory's descriptor and never
//! through a symlink, an output a capture still holds locked is skipped, and files vanishing
//! under us (another gc) are not errors.

use anyhow::{Result, bail};
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, SystemTime};

use super::{Context, Run};
use crate::config::Settings;
use crate::format::human_bytes;
use crate::store::{self, Access, Dir, MANIFEST, MARKER, OutputFile, SEQUENCE, is_bookkeeping};

const DEFAULT_OLDER_THAN: &str = "24h";
/// How long a session whose owner has ended, or an empty one, is left alone after its last write.
const GRACE: Duration = Duration::from_secs(5 * 60);

/// `ctxoff gc`'s arguments.
#[derive(Debug)]
pub struct GcArgs {
    pub older_than: Option<String>,
    pub max_size: Option<String>,
    pub all: bool,
    pub dry_run: bool,
    pub json: bool,
    pub quiet: bool,
    /// The session `--session` named on the command line, set by `cli::parse`: gc covers every
    /// session unless told otherwise, so `CTXOFF_SESSION` alone does not narrow it.
    pub scope: Option<String>,
}

const LONG_ABOUT: &str = "\
Delete old offloaded outputs

By default removes outputs unused for 24 hours (last use: the later of the file's access and
modification times; `grep` and `lines` refresh it), every output of a session whose agent
process has ended (5 minutes after the session's last write), and empty session directories.
Outputs still being written, other users' files and anything gc did not create are left
alone. Gardens the scratch root and, when it exists, the private fallback directory. Exit
status 0 when all went well (also when there was nothing to do), 1 when something could not
be removed, 2 on bad input.

Examples:
  ctxoff gc -q                      # for cron, e.g. hourly
  ctxoff gc --older-than 2h --dry-run
  ctxoff gc --max-size 500M
  ctxoff gc --session claude-4821 --all";

impl GcArgs {
    pub(crate) fn command() -> Command {
        Command::new("gc")
            .about("Delete old offloaded outputs")
            .long_about(LONG_ABOUT)
            .args([
                Arg::new("older_than")
                    .long("older-than")
                    .value_name("DURATION")
                    .help(
                        "Remove outputs unused for longer than DURATION: 90s, 30m, 12h, 7d \
                         [default: 24h]",
                    ),
                Arg::new("max_size")
                    .long("max-size")
                    .value_name("SIZE")
                    .help(
                        "Then remove least recently used outputs until the rest take at most \
                         SIZE: 500M, 2G, bytes",
                    ),
                Arg::new("all")
                    .long("all")
                    .help("Remove every output (of --session, or of every session), however recent")
                    .action(ArgAction::SetTrue),
                Arg::new("dry_run")
                    .short('n')
                    .long("dry-run")
                    .help("Say what would be removed; remove nothing")
                    .action(ArgAction::SetTrue),
                Arg::new("json")
                    .long("json")
                    .help(
                        "Print one JSON object: what was removed and skipped, and the space freed",
                    )
                    .action(ArgAction::SetTrue),
                Arg::new("quiet")
                    .short('q')
                    .long("quiet")
                    .help("Print nothing but errors")
                    .action(ArgAction::SetTrue),
            ])
    }

    /// The arguments in `matches`; `scope` is left for `cli::parse` to set.
    pub(crate) fn from_matches(matches: &ArgMatches) -> GcArgs {
        GcArgs {
            older_than: matches.get_one("older_than").cloned(),
            max_size: matches.get_one("max_size").cloned(),
            all: matches.get_flag("all"),
            dry_run: matches.get_flag("dry_run"),
            json: matches.get_flag("json"),
            quiet: matches.get_flag("quiet"),
            scope: None,
        }
    }
}

/// Why an output goes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reason {
    All,
    Unused,
    SessionEnded,
    MaxSize,
}

impl Reason {
    /// The reason's name in `--json`.
    fn name(self) -> &'static str {
        match self {
            Reason::All => "all",
            Reason::Unused => "unused",
            Reason::SessionEnded => "session_ended",
            Reason::MaxSize => "max_size",
        }
    }
}

struct Policy {
    older_than: Duration,
    max_size: Option<u64>,
    all: bool,
    now: SystemTime,
    uid: u32,
}

/// An output found in a session: a file gc may remove.
struct Output {
    n: u64,
    file: String,
    path: PathBuf,
    /// `(dev, ino)`: hard-linked duplicates are one file on disk.
    inode: (u64, u64),
    nlink: u64,
    bytes: u64,
    last_use: SystemTime,
    busy: bool,
    reason: Option<Reason>,
}

struct Session {
    /// The root's directory, opened once, and the session's name in it.
    root: Rc<Dir>,
    name: String,
    /// The session directory, opened once and checked.
    fd: Dir,
    /// Its path, for reports.
    dir: PathBuf,
    outputs: Vec<Output>,
    /// The owner record names a process that has ended, and the grace has passed.
    ended: bool,
    /// No write in the session for the grace period.
    quiet: bool,
    /// Holds something besides outputs and bookkeeping, so the directory stays.
    foreign: bool,
}

#[derive(Default)]
struct Report {
    dry_run: bool,
    removed: Vec<Removed>,
    sessions_removed: Vec<String>,
    freed_bytes: u64,
    skipped: Vec<Skipped>,
    errors: Vec<String>,
}

struct Removed {
    path: String,
    bytes: u64,
    /// Not in `--json`: for counting hard-linked duplicates once.
    inode: (u64, u64),
    last_use: String,
    reason: Reason,
}

struct Skipped {
    path: String,
    reason: String,
}

impl Report {
    /// The `--json` object.
    fn to_json(&self) -> Value {
        let removed: Vec<Value> = self
            .removed
            .iter()
            .map(|r| {
                json!({
                    "path": r.path,
                    "bytes": r.bytes,
                    "last_use": r.last_use,
                    "reason": r.reason.name(),
                })
            })
            .collect();
        let skipped: Vec<Value> = self
            .skipped
            .iter()
            .map(|s| json!({"path": s.path, "reason": s.reason}))
            .collect();
        json!({
            "dry_run": self.dry_run,
            "removed": removed,
            "sessions_removed": self.sessions_removed,
            "freed_bytes": self.freed_bytes,
            "skipped": skipped,
            "errors": self.errors,
        })
    }
}

impl Run for GcArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        let settings = ctx.settings()?.clone();
        collect(self, &settings, ctx.out)
    }
}

fn collect(args: &GcArgs, settings: &Settings, out: &mut dyn Write) -> Result<ExitCode> {
    let older_than = args.older_than.as_deref().unwrap_or(DEFAULT_OLDER_THAN);
    let policy = Policy {
        older_than: parse_duration(older_than)
            .map_err(|e| anyhow::anyhow!("bad --older-than '{older_than}': {e}"))?,
        max_size: match &args.max_size {
            Some(size) => Some(
                parse_size(size).map_err(|e| anyhow::anyhow!("bad --max-size '{size}': {e}"))?,
            ),
            None => None,
        },
        all: args.all,
        now: SystemTime::now(),
        uid: store::current_uid(),
    };
    let mut roots = vec![settings.root.clone()];
    if let Some(fallback) = store::fallback_root()
        && fallback != settings.root
        && fs::symlink_metadata(&fallback).is_ok()
    {
        roots.push(fallback);
    }

    let mut report = Report {
        dry_run: args.dry_run,
        ..Report::default()
    };
    let mut sessions = Vec::new();
    for root in &roots {
        scan_root(
            root,
            args.scope.as_deref(),
            &policy,
            &mut sessions,
            &mut report,
        );
    }
    choose(&mut sessions, &policy, &mut report);
    let mut freed = Freed::default();
    for session in &sessions {
        if args.dry_run {
            preview(session, &policy, &mut freed, &mut report);
        } else {
            sweep(session, &policy, &mut freed, &mut report);
        }
    }
    report.freed_bytes = freed.bytes();

    if args.json {
        serde_json::to_writer(&mut *out, &report.to_json())?;
        writeln!(out)?;
    } else if !args.quiet {
        write_text(&report, out)?;
    }
    for error in &report.errors {
        eprintln!("ctxoff: gc: {error}");
    }
    Ok(if report.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Finds the sessions of `root` gc may work in, and their outputs.
fn scan_root(
    root: &Path,
    scope: Option<&str>,
    policy: &Policy,
    sessions: &mut Vec<Session>,
    report: &mut Report,
) {
    let skip = |report: &mut Report, path: &Path, reason: String| {
        report.skipped.push(Skipped {
            path: path.display().to_string(),
            reason,
        });
    };
    if let Err(e) = fs::symlink_metadata(root) {
        if e.kind() != io::ErrorKind::NotFound {
            report.errors.push(format!("{}: {e}", root.display()));
        }
        return;
    }
    let root_dir = match store::open_root(root, false, false) {
        Ok(dir) => Rc::new(dir),
        Err(why) => return skip(report, root, format!("root not entered: {why}")),
    };
    let names: Vec<String> = match scope {
        Some(name) => vec![name.to_string()],
        None => match root_dir.entries() {
            Ok(entries) => entries
                .into_iter()
                .filter_map(|(name, _)| name.into_string().ok())
                .filter(|name| store::checked_session_name(name).is_ok())
                .collect(),
            Err(e) => return report.errors.push(format!("{}: {e}", root.display())),
        },
    };
    for name in names {
        let path = root.join(&name);
        let fd = match root_dir.open_dir(&name) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                skip(report, &path, "session not entered: it is a symlink".into());
                continue;
            }
            Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => continue,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                // Another user's private session in a shared root.
                let owner = root_dir.entry_metadata(&name).map(|m| m.uid());
                let why = owner.map_or_else(|e| e.to_string(), |u| format!("is owned by uid {u}"));
                skip(report, &path, format!("session not entered: it {why}"));
                continue;
            }
            Err(e) => {
                report.errors.push(format!("{}: {e}", path.display()));
                continue;
            }
            Ok(fd) => fd,
        };
        let checked = fd
            .metadata()
            .map_err(|e| e.to_string())
            .and_then(|meta| {
                store::check_session(&meta, policy.uid).map_err(|why| format!("it {why}"))
            })
            .and_then(|()| {
                made_by_ctxoff(&fd, policy.uid)
                    .then_some(())
                    .ok_or_else(|| NOT_OURS.to_string())
            });
        match checked {
            Ok(()) => sessions.extend(scan_session(
                Rc::clone(&root_dir),
                name,
                fd,
                path,
                policy,
                report,
            )),
            Err(why) => skip(report, &path, format!("session not entered: {why}")),
        }
    }
}

/// Why gc leaves a directory of the root alone that it cannot prove ctxoff made.
const NOT_OURS: &str = "not made by ctxoff (no session marker)";

/// Whether ctxoff made this session directory, as far as it can prove it: its marker, a regular
/// file of ours; or, for a session of an earlier release (made before the marker), its sequence
/// file with a manifest line or an owner record. A user's directory has none of these.
fn made_by_ctxoff(dir: &Dir, uid: u32) -> bool {
    let ours = |name: &str| {
        dir.entry_metadata(name)
            .is_ok_and(|m| m.file_type().is_file() && m.uid() == uid)
    };
    ours(MARKER)
        || (ours(SEQUENCE)
            && (!store::read_manifest_in(dir).is_empty() || store::read_owner(dir).is_some()))
}

/// Lists a session's outputs: files named like one, listed in the manifest under that name,
/// regular, and ours. `None` when the session vanished.
fn scan_session(
    root: Rc<Dir>,
    name: String,
    fd: Dir,
    dir: PathBuf,
    policy: &Policy,
    report: &mut Report,
) -> Option<Session> {
    let listed: BTreeSet<(u64, String)> = store::read_manifest_in(&fd)
        .into_iter()
        .map(|e| (e.n, e.file))
        .collect();
    let entries = match fd.entries() {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return None,
        Err(e) => {
            report.errors.push(format!("{}: {e}", dir.display()));
            return None;
        }
    };
    let mut newest = fd
        .metadata()
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH);
    let mut session = Session {
        root,
        name,
        fd,
        dir,
        outputs: Vec::new(),
        ended: false,
        quiet: false,
        foreign: false,
    };
    for (entry, _) in entries {
        let path = session.dir.join(&entry);
        let meta = match session.fd.entry_metadata(&entry) {
            Ok(meta) => meta,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => {
                report.errors.push(format!("{}: {e}", path.display()));
                session.foreign = true;
                continue;
            }
        };
        newest = newest.max(meta.modified().unwrap_or(SystemTime::UNIX_EPOCH));
        let name = entry.to_string_lossy().into_owned();
        if is_bookkeeping(&name) && meta.file_type().is_file() && meta.uid() == policy.uid {
            continue;
        }
        let Some(n) = OutputFile::parse(&name).map(|f| f.n) else {
            session.foreign = true;
            continue;
        };
        let why = if !meta.file_type().is_file() {
            "not a regular file".to_string()
        } else if meta.uid() != policy.uid {
            format!("owned by uid {}", meta.uid())
        } else if !listed.contains(&(n, name.clone())) {
            "not in the manifest".to_string()
        } else {
            session.outputs.push(Output {
                n,
                file: name,
                path,
                inode: (meta.dev(), meta.ino()),
                nlink: meta.nlink(),
                bytes: meta.len(),
                last_use: last_use(&meta),
                busy: false,
                reason: None,
            });
            continue;
        };
        session.foreign = true;
        report.skipped.push(Skipped {
            path: path.display().to_string(),
            reason: why,
        });
    }
    let quiet = policy
        .now
        .duration_since(newest)
        .is_ok_and(|age| age >= GRACE);
    session.quiet = quiet;
    session.ended = quiet && store::read_owner(&session.fd).is_some_and(|o| !o.is_alive());
    Some(session)
}

/// Gives each output that goes its reason: `--all`, age, an ended session, then `--max-size`
/// over what is left, least recently used first.
fn choose(sessions: &mut [Session], policy: &Policy, report: &mut Report) {
    for session in sessions.iter_mut() {
        for output in &mut session.outputs {
            output.reason = if policy.all {
                Some(Reason::All)
            } else if session.ended {
                Some(Reason::SessionEnded)
            } else if policy
                .now
                .duration_since(output.last_use)
                .is_ok_and(|age| age >= policy.older_than)
            {
                Some(Reason::Unused)
            } else {
                None
            };
            if output.reason.is_some() || policy.max_size.is_some() {
                output.busy = is_busy(&session.fd, &output.file);
            }
            if output.busy && output.reason.is_some() {
                output.reason = None;
                report.skipped.push(Skipped {
                    path: output.path.display().to_string(),
                    reason: "still being written".into(),
                });
            }
        }
    }
    let Some(max) = policy.max_size else {
        return;
    };
    // What stays, counted once per inode; an inode goes with all its links.
    let mut inodes: HashMap<(u64, u64), (u64, SystemTime, bool)> = HashMap::new();
    for output in sessions.iter().flat_map(|s| &s.outputs) {
        if output.reason.is_none() {
            let slot = inodes
                .entry(output.inode)
                .or_insert((output.bytes, output.last_use, false));
            slot.1 = slot.1.max(output.last_use);
            slot.2 |= output.busy;
        }
    }
    let mut total: u64 = inodes.values().map(|(bytes, ..)| bytes).sum();
    let mut lru: Vec<_> = inodes.into_iter().filter(|(_, (.., busy))| !busy).collect();
    lru.sort_by_key(|(inode, (_, last_use, _))| (*last_use, *inode));
    let mut over = BTreeSet::new();
    for (inode, (bytes, ..)) in lru {
        if total <= max {
            break;
        }
        total -= bytes;
        over.insert(inode);
    }
    for output in sessions.iter_mut().flat_map(|s| &mut s.outputs) {
        if output.reason.is_none() && over.contains(&output.inode) {
            output.reason = Some(Reason::MaxSize);
        }
    }
}

/// Removes a session's chosen outputs under its lock, drops them from the manifest, and
/// removes the session directory when nothing but bookkeeping is left.
fn sweep(session: &Session, policy: &Policy, freed: &mut Freed, report: &mut Report) {
    let chosen: Vec<&Output> = session
        .outputs
        .iter()
        .filter(|o| o.reason.is_some())
        .collect();
    if chosen.is_empty() && !may_remove_empty(session, policy) {
        return;
    }
    let lock = match store::lock_session_dir(&session.fd) {
        Ok(lock) => lock,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return,
        Err(e) => {
            report
                .errors
                .push(format!("{}: cannot lock: {e}", session.dir.display()));
            return;
        }
    };
    // Read again under the lock: another gc may have been here since the scan.
    let listed: BTreeSet<(u64, String)> = store::read_manifest_in(&session.fd)
        .into_iter()
        .map(|e| (e.n, e.file))
        .collect();
    let mut removed = BTreeSet::new();
    for output in chosen {
        if !listed.contains(&(output.n, output.file.clone())) {
            continue;
        }
        match remove_output(&session.fd, output, policy.uid) {
            Ok(Removal::Removed) => {
                removed.insert(output.n);
                freed.add(output);
                report.removed.push(removed_entry(output));
            }
            Ok(Removal::Gone) => {}
            Ok(Removal::Kept(why)) => report.skipped.push(Skipped {
                path: output.path.display().to_string(),
                reason: why.into(),
            }),
            Err(e) => report
                .errors
                .push(format!("{}: {e}", output.path.display())),
        }
    }
    let dir = &session.dir;
    let fd = &session.fd;
    let rewritten = store::rewrite_manifest(fd, &lock, |e| {
        !removed.contains(&e.n) && fd.entry_metadata(&e.file).is_ok()
    });
    match rewritten {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => report.errors.push(format!(
            "{}: cannot rewrite: {e}",
            dir.join(MANIFEST).display()
        )),
    }
    if (!removed.is_empty() || may_remove_empty(session, policy))
        && remove_session(session, policy.uid, lock)
    {
        report.sessions_removed.push(dir.display().to_string());
    }
}

/// The dry run of `sweep`: what it would remove.
fn preview(session: &Session, policy: &Policy, freed: &mut Freed, report: &mut Report) {
    let chosen: Vec<&Output> = session
        .outputs
        .iter()
        .filter(|o| o.reason.is_some())
        .collect();
    for output in &chosen {
        freed.add(output);
        report.removed.push(removed_entry(output));
    }
    let all_go = chosen.len() == session.outputs.len();
    if all_go && !session.foreign && (!chosen.is_empty() || may_remove_empty(session, policy)) {
        report
            .sessions_removed
            .push(session.dir.display().to_string());
    }
}

/// Whether a session that had no outputs may go: it is quiet (its owner's grace included), or
/// `--all` asks for everything. A session just made for a capture is neither.
fn may_remove_empty(session: &Session, policy: &Policy) -> bool {
    session.outputs.is_empty() && !session.foreign && (session.quiet || policy.all)
}

enum Removal {
    Removed,
    /// Already gone: another gc got there first.
    Gone,
    Kept(&'static str),
}

/// Unlinks one output of the session directory `dir`, holding its lock meanwhile so no capture
/// is writing it, after checking that the name still leads to the same regular file of ours.
fn remove_output(dir: &Dir, output: &Output, uid: u32) -> io::Result<Removal> {
    let file = match dir.open_file(&output.file, Access::Read) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Removal::Gone),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Ok(Removal::Kept("replaced by a symlink"));
        }
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() || meta.uid() != uid || (meta.dev(), meta.ino()) != output.inode {
        return Ok(Removal::Kept("replaced since the scan"));
    }
    if !store::try_lock(&file)? {
        return Ok(Removal::Kept("still being written"));
    }
    match dir.remove_file(&output.file) {
        Ok(()) => Ok(Removal::Removed),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Removal::Gone),
        Err(e) => Err(e),
    }
}

/// Removes a session directory that holds nothing but bookkeeping (its marker and then the lock
/// file last, while we hold it). Anything else in it, or a capture arriving meanwhile, keeps it.
fn remove_session(session: &Session, uid: u32, lock: store::SessionLock) -> bool {
    let dir = &session.fd;
    let Ok(entries) = dir.entries() else {
        return false;
    };
    let mut names = Vec::new();
    for (entry, _) in entries {
        let name = entry.to_string_lossy().into_owned();
        let ours = dir
            .entry_metadata(&entry)
            .is_ok_and(|m| m.file_type().is_file() && m.uid() == uid);
        if !is_bookkeeping(&name) || !ours {
            return false;
        }
        names.push(name);
    }
    names.sort_by_key(|name| match name.as_str() {
        SEQUENCE => 2,
        MARKER => 1,
        _ => 0,
    });
    for name in names {
        match dir.remove_file(&name) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(_) => return false,
        }
    }
    // The name must still be the directory we emptied.
    let same = match (dir.metadata(), session.root.entry_metadata(&session.name)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    };
    let removed = same && session.root.remove_dir(&session.name).is_ok();
    drop(lock);
    removed
}

/// Whether a capture holds the lock of output `file` of `dir`: it is still writing it.
fn is_busy(dir: &Dir, file: &str) -> bool {
    dir.open_file(file, Access::Read)
        .is_ok_and(|file| matches!(store::try_lock(&file), Ok(false)))
}

/// The later of access and modification time.
fn last_use(meta: &fs::Metadata) -> SystemTime {
    let modified = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
    meta.accessed()
        .map_or(modified, |accessed| accessed.max(modified))
}

fn removed_entry(output: &Output) -> Removed {
    Removed {
        path: output.path.display().to_string(),
        bytes: output.bytes,
        inode: output.inode,
        last_use: crate::format::rfc3339(output.last_use),
        reason: output.reason.unwrap_or(Reason::All),
    }
}

/// Space freed, counting each inode once and only when all its links went.
#[derive(Default)]
struct Freed(HashMap<(u64, u64), (u64, u64, u64)>);

impl Freed {
    fn add(&mut self, output: &Output) {
        let slot = self
            .0
            .entry(output.inode)
            .or_insert((output.bytes, output.nlink, 0));
        slot.2 += 1;
    }

    fn bytes(&self) -> u64 {
        self.0
            .values()
            .filter(|(_, nlink, removed)| removed >= nlink)
            .map(|(bytes, ..)| bytes)
            .sum()
    }
}

fn write_text(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let verb = if report.dry_run {
        "would remove"
    } else {
        "removed"
    };
    // One line per session, in the order found; duplicates' bytes count once.
    let mut per_session: Vec<(String, usize, u64)> = Vec::new();
    let mut seen = BTreeSet::new();
    for removed in &report.removed {
        let dir = Path::new(&removed.path)
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let bytes = if seen.insert(removed.inode) {
            removed.bytes
        } else {
            0
        };
        match per_session.iter_mut().find(|(d, ..)| *d == dir) {
            Some((_, count, total)) => {
                *count += 1;
                *total += bytes;
            }
            None => per_session.push((dir, 1, bytes)),
        }
    }
    for dir in &report.sessions_removed {
        if !per_session.iter().any(|(d, ..)| d == dir) {
            per_session.push((dir.clone(), 0, 0));
        }
    }
    for (dir, count, bytes) in &per_session {
        let gone = report.sessions_removed.contains(dir);
        let what = match (*count, gone) {
            (0, _) => "the empty session".to_string(),
            (n, false) => format!("{} ({})", outputs(n), human_bytes(*bytes)),
            (n, true) => format!("{} ({}) and the session", outputs(n), human_bytes(*bytes)),
        };
        writeln!(out, "{dir}: {verb} {what}")?;
    }
    for skipped in &report.skipped {
        // Other users' sessions in a shared root, and directories ctxoff did not make, are
        // normal: only `--json` lists them.
        let normal = skipped
            .reason
            .starts_with("session not entered: it is owned by")
            || skipped.reason.ends_with(NOT_OURS);
        if !normal {
            writeln!(out, "kept {}: {}", skipped.path, skipped.reason)?;
        }
    }
    if report.removed.is_empty() && report.sessions_removed.is_empty() {
        return writeln!(out, "nothing to remove");
    }
    let sessions = match report.sessions_removed.len() {
        0 => String::new(),
        1 => " and 1 session".to_string(),
        n => format!(" and {n} sessions"),
    };
    let freed = if report.dry_run { "to free" } else { "freed" };
    writeln!(
        out,
        "{verb} {}{sessions}, {freed} {}",
        outputs(report.removed.len()),
        human_bytes(report.freed_bytes)
    )
}

fn outputs(n: usize) -> String {
    if n == 1 {
        "1 output".to_string()
    } else {
        format!("{n} outputs")
    }
}

/// `90s`, `30m`, `12h`, `7d`, `2w`; a bare number is seconds.
pub(crate) fn parse_duration(text: &str) -> Result<Duration> {
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(digits);
    let scale: u64 = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3_600,
        "d" => 86_400,
        "w" => 604_800,
        _ => 0,
    };
    match number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
    {
        Some(secs) if scale > 0 => Ok(Duration::from_secs(secs)),
        _ => bail!("use a whole number and a unit s, m, h, d or w, e.g. 90s, 30m, 12h, 7d"),
    }
}

/// `500M`, `2G`, `1.5G`, `4096`: bytes, with K, M, G, T (or KB, KiB, …) in powers of 1024.
pub(crate) fn parse_size(text: &str) -> Result<u64> {
    let split = text
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let power = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => Some(0),
        "K" | "KB" | "KIB" => Some(1),
        "M" | "MB" | "MIB" => Some(2),
        "G" | "GB" | "GIB" => Some(3),
        "T" | "TB" | "TIB" => Some(4),
        _ => None,
    };
    let value = number.parse::<f64>().ok().filter(|v| v.is_finite());
    match (value, power) {
        (Some(value), Some(power)) if !number.starts_with('.') => {
            let bytes = value * 1024f64.powi(power);
            if bytes < u64::MAX as f64 {
                return Ok(bytes as u64);
            }
            bail!("too large")
        }
        _ => bail!("use a number of bytes, or with a unit K, M, G or T, e.g. 500M, 2G"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse() {
        let secs = |t| parse_duration(t).map(|d| d.as_secs()).ok();
        assert_eq!(secs("90s"), Some(90));
        assert_eq!(secs("30m"), Some(1_800));
        assert_eq!(secs("12h"), Some(43_200));
        assert_eq!(secs("7d"), Some(604_800));
        assert_eq!(secs("2w"), Some(1_209_600));
        assert_eq!(secs("0"), Some(0));
        assert_eq!(secs("45"), Some(45));
        for bad in [
            "",
            "h",
            "5x",
            "1.5h",
            "-1h",
            "5 h",
            "1h30m",
            "99999999999999999999d",
        ] {
            assert!(parse_duration(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sizes_parse() {
        let bytes = |t| parse_size(t).ok();
        assert_eq!(bytes("4096"), Some(4_096));
        assert_eq!(bytes("500M"), Some(500 << 20));
        assert_eq!(bytes("2G"), Some(2 << 30));
        assert_eq!(bytes("2gb"), Some(2 << 30));
        assert_eq!(bytes("1.5K"), Some(1_536));
        assert_eq!(bytes("10KiB"), Some(10_240));
        for bad in ["", "M", "5X", "-5M", ".5M", "1..5M", "1e3", "99999999T"] {
            assert!(parse_size(bad).is_err(), "{bad:?}");
        }
    }
}
