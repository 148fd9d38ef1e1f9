//! The scratch space in a hostile /tmp (SPEC §4): a root or session directory that is a symlink,
//! another user's, world-writable or a regular file is never written through nor gardened;
//! captures fall back to the private directory, say so, and lose nothing. The tests run as
//! root, so they make the other user's ownership with chown (uid 65534, nobody).

use crate::support::*;
use std::fs;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

const NOBODY: u32 = 65_534;
const TWO_DAYS: Duration = Duration::from_secs(2 * 86_400);

/// A directory outside the root holding a session an attacker points us at: an aged output
/// listed in its manifest, as gc would remove it if it went there.
fn bait(w: &World) -> PathBuf {
    let elsewhere = World::new();
    let output = elsewhere.offload(3_000);
    let outside = w.dir.path().join("outside");
    fs::rename(elsewhere.root(), &outside).unwrap();
    set_age(
        &outside.join(&elsewhere.session).join(file_name(&output)),
        TWO_DAYS,
    );
    outside
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

type Snapshot = Vec<(PathBuf, u64, u64, Option<SystemTime>, SystemTime)>;

/// Every file under `dir` with its inode, size and times: gc never reading a file shows as an
/// unchanged access time. Directories' access times are left out, as the snapshot reads them.
fn snapshot(dir: &Path) -> Snapshot {
    use std::os::unix::fs::MetadataExt;
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path.clone());
            }
            let accessed = (!meta.is_dir()).then(|| meta.accessed().unwrap());
            files.push((
                path,
                meta.ino(),
                meta.len(),
                accessed,
                meta.modified().unwrap(),
            ));
        }
    }
    files.sort();
    files
}

/// Runs a capture that must fall back to the private directory, naming `why`, and save there.
fn assert_capture_falls_back(w: &World, why: &str) {
    let out = run(&mut w.ctxoff(&["--threshold", "100", "seq", "1", "3000"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let summary = stdout(&out);
    let note = format!(
        "[ctxoff] note: scratch root {} not used ({why}); using {}",
        w.root().display(),
        w.fallback_root().display()
    );
    assert!(summary.contains(&note), "{summary}");
    let path = saved_path(&out);
    assert!(path.starts_with(w.fallback_root()), "{}", path.display());
    let expected: String = (1..=3000).map(|i| format!("{i}\n")).collect();
    assert_eq!(fs::read_to_string(&path).unwrap(), expected);
}

/// gc over everything leaves `outside` exactly as it was and says why it stayed out.
fn assert_gc_keeps_out(w: &World, outside: &Path, reason: &str) {
    let before = snapshot(outside);
    let out = run(&mut w.ctxoff(&["gc", "--all", "--json"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let skipped = report["skipped"].as_array().unwrap();
    assert!(
        skipped.iter().any(|s| s["reason"] == reason),
        "{reason}: {report}"
    );
    assert_eq!(snapshot(outside), before);
}

#[test]
fn a_symlinked_root_is_neither_written_through_nor_gardened() {
    let w = World::new();
    let outside = bait(&w);
    symlink(&outside, w.root()).unwrap();
    let before = snapshot(&outside);
    assert_capture_falls_back(&w, "it is a symlink");
    assert_eq!(snapshot(&outside), before);
    assert_gc_keeps_out(&w, &outside, "root not entered: it is a symlink");
}

#[test]
fn a_symlinked_session_is_neither_written_through_nor_gardened() {
    let w = World::new();
    let outside = bait(&w);
    fs::create_dir(w.root()).unwrap();
    fs::set_permissions(w.root(), fs::Permissions::from_mode(0o1777)).unwrap();
    symlink(outside.join("test"), w.session_dir()).unwrap();
    let before = snapshot(&outside);
    assert_capture_falls_back(&w, "session directory test is a symlink");
    assert_eq!(snapshot(&outside), before);
    assert_gc_keeps_out(&w, &outside, "session not entered: it is a symlink");
}

#[test]
fn a_session_owned_by_another_user_is_neither_used_nor_gardened() {
    let w = World::new();
    w.offload(3_000);
    let dir = w.session_dir();
    set_age(&dir.join("seq_1.txt"), TWO_DAYS);
    std::os::unix::fs::chown(&dir, Some(NOBODY), Some(NOBODY)).unwrap();
    assert_capture_falls_back(&w, "session directory test is owned by uid 65534");
    assert_gc_keeps_out(&w, &dir, "session not entered: it is owned by uid 65534");
}

#[test]
fn a_world_writable_session_is_neither_used_nor_gardened() {
    let w = World::new();
    w.offload(3_000);
    let dir = w.session_dir();
    set_age(&dir.join("seq_1.txt"), TWO_DAYS);
    fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
    assert_capture_falls_back(&w, "session directory test is writable by others");
    assert_gc_keeps_out(&w, &dir, "session not entered: it is writable by others");
}

#[test]
fn a_root_owned_by_another_user_is_not_used_even_when_sticky() {
    let w = World::new();
    fs::create_dir(w.root()).unwrap();
    fs::set_permissions(w.root(), fs::Permissions::from_mode(0o1777)).unwrap();
    std::os::unix::fs::chown(w.root(), Some(NOBODY), Some(NOBODY)).unwrap();
    assert_capture_falls_back(&w, "it is owned by uid 65534");
    assert!(fs::read_dir(w.root()).unwrap().next().is_none());
}

#[test]
fn a_root_that_is_a_regular_file_is_not_used() {
    let w = World::new();
    fs::write(w.root(), "not a directory\n").unwrap();
    assert_capture_falls_back(&w, "it is not a directory");
    assert_eq!(fs::read_to_string(w.root()).unwrap(), "not a directory\n");
    let out = run(&mut w.ctxoff(&["gc", "--all"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(fs::read_to_string(w.root()).unwrap(), "not a directory\n");
}

#[test]
fn gc_gardens_the_fallback_directory_too() {
    let w = World::new();
    fs::write(w.root(), "not a directory\n").unwrap();
    assert_capture_falls_back(&w, "it is not a directory");
    let saved = w.fallback_root().join("test/seq_1.txt");
    assert!(saved.exists());
    let out = run(&mut w.ctxoff(&["gc", "--all"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!saved.exists());
    let mode = fs::metadata(w.fallback_root())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o700, "the fallback root is private");
}

#[test]
fn a_symlink_inside_a_session_is_neither_followed_nor_removed() {
    let w = World::new();
    w.offload(3_000);
    let dir = w.session_dir();
    let outside = w.dir.path().join("outside");
    fs::create_dir(&outside).unwrap();
    let secret = outside.join("secret.txt");
    fs::write(&secret, "secret\n").unwrap();
    set_age(&secret, TWO_DAYS);
    // Planted under an output's name and listed in the manifest, as if ctxoff had made it.
    symlink(&secret, dir.join("seq_9.txt")).unwrap();
    let manifest = dir.join("index.jsonl");
    let line = fs::read_to_string(&manifest)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .replace("\"n\":1,", "\"n\":9,")
        .replace("seq_1.txt", "seq_9.txt");
    fs::write(
        &manifest,
        fs::read_to_string(&manifest).unwrap() + &line + "\n",
    )
    .unwrap();

    let before = snapshot(&outside);
    let out = run(&mut w.ctxoff(&["gc", "--all", "--json"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["removed"].as_array().unwrap().len(), 1, "{report}");
    assert_eq!(report["skipped"][0]["reason"], "not a regular file");
    assert_eq!(snapshot(&outside), before);
    assert!(fs::symlink_metadata(dir.join("seq_9.txt")).is_ok());
}
