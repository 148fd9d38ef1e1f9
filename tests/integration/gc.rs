//! `ctxoff gc` end to end (SPEC §5): real files with real ages for each option, retrieval
//! refresh, sessions whose owner ended or lives, what gc must leave alone, and gc racing
//! captures and other gcs.

use crate::support::*;
use ctxoff::store::{self, Entry, Owner, Store};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const MIN: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3_600);
const DAY: Duration = Duration::from_secs(86_400);

fn gc(w: &World, args: &[&str]) -> Output {
    let args: Vec<&str> = std::iter::once("gc").chain(args.iter().copied()).collect();
    run(&mut w.ctxoff(&args))
}

/// `gc --json ARGS`, checked to succeed quietly.
fn gc_json(w: &World, args: &[&str]) -> serde_json::Value {
    let args: Vec<&str> = ["--json"].iter().chain(args).copied().collect();
    let out = gc(w, &args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn removed_files(report: &serde_json::Value) -> Vec<String> {
    let mut files: Vec<String> = report["removed"]
        .as_array()
        .expect("removed")
        .iter()
        .map(|r| file_name(Path::new(r["path"].as_str().unwrap())))
        .collect();
    files.sort();
    files
}

fn file_name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// The files the session's manifest lists, once each, sorted.
fn listed(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = store::read_manifest(dir)
        .into_iter()
        .map(|e| e.file)
        .collect();
    files.sort();
    files
}

fn seq_text(n: u64) -> Vec<u8> {
    (1..=n)
        .map(|i| format!("{i}\n"))
        .collect::<String>()
        .into_bytes()
}

/// Ages every file of a session directory, and the directory itself.
fn age_session(dir: &Path, age: Duration) {
    for entry in fs::read_dir(dir).unwrap() {
        set_age(&entry.unwrap().path(), age);
    }
    set_age(dir, age);
}

fn write_owner(dir: &Path, owner: &Owner) {
    fs::write(dir.join("session.json"), owner.to_json().to_string()).unwrap();
}

/// A process that has come and gone: its pid and start time, as a session records them.
fn ended_owner() -> Owner {
    let mut child = std::process::Command::new("sleep")
        .arg("30")
        .spawn()
        .unwrap();
    let (comm, _, start_time) = store::process_stat(child.id()).expect("child stat");
    let pid = child.id();
    child.kill().unwrap();
    child.wait().unwrap();
    Owner {
        pid,
        start_time,
        comm,
    }
}

#[test]
fn by_default_outputs_unused_for_a_day_go() {
    let w = World::new();
    let old = w.offload(3_000);
    let recent = w.offload(3_001);
    let fresh = w.offload(3_002);
    set_age(&old, DAY + HOUR);
    set_age(&recent, DAY - HOUR);

    let out = gc(&w, &[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.ends_with("removed 1 output, freed 13.6 KiB\n"),
        "{text}"
    );
    assert!(!old.exists());
    assert!(recent.exists() && fresh.exists());
    assert_eq!(listed(&w.session_dir()), ["seq_2.txt", "seq_3.txt"]);

    assert_eq!(stdout(&gc(&w, &[])), "nothing to remove\n");
}

#[test]
fn nothing_to_do_exits_0_and_quiet_says_nothing() {
    let w = World::new();
    let out = gc(&w, &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stdout(&out), "nothing to remove\n");

    let old = w.offload(3_000);
    set_age(&old, 2 * DAY);
    let out = gc(&w, &["-q"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert!(!old.exists());
}

#[test]
fn older_than_takes_seconds_minutes_hours_and_days() {
    let w = World::new();
    let ages = [3 * DAY, 5 * HOUR, 40 * MIN, Duration::from_secs(100)];
    let paths: Vec<PathBuf> = (0..5).map(|i| w.offload(3_000 + i)).collect();
    for (path, age) in paths.iter().zip(ages) {
        set_age(path, age);
    }
    for (i, (limit, gone)) in [("7d", None), ("2d", Some(0)), ("1h", Some(1))]
        .into_iter()
        .chain([("30m", Some(2)), ("90s", Some(3))])
        .enumerate()
    {
        let report = gc_json(&w, &["--older-than", limit]);
        let expected: Vec<String> = gone.map(|g| file_name(&paths[g])).into_iter().collect();
        assert_eq!(
            removed_files(&report),
            expected,
            "--older-than {limit} (step {i})"
        );
    }
    assert!(paths[4].exists(), "the fresh output stays");
}

#[test]
fn all_removes_every_output_and_the_session_directory() {
    let w = World::new();
    w.offload(3_000);
    w.offload(3_001);
    let out = gc(&w, &["--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = w.session_dir();
    assert_eq!(
        stdout(&out),
        format!(
            "{}: removed 2 outputs (27.1 KiB) and the session\n\
             removed 2 outputs and 1 session, freed 27.1 KiB\n",
            dir.display()
        )
    );
    assert!(!dir.exists());
    assert!(w.root().is_dir(), "the root stays");
}

#[test]
fn the_session_flag_narrows_gc_and_the_environment_does_not() {
    let mut w = World::new();
    w.session = "a".into();
    let a = w.offload(3_000);
    w.session = "b".into();
    let b = w.offload(3_000);
    // CTXOFF_SESSION is "b" from here on.
    let report = gc_json(&w, &["--all", "--session", "a"]);
    assert_eq!(removed_files(&report), ["seq_1.txt"]);
    assert!(!a.exists() && b.exists());
    let report = gc_json(&w, &["--all"]);
    assert_eq!(removed_files(&report), ["seq_1.txt"]);
    assert!(!b.exists());
}

#[test]
fn dry_run_removes_nothing_and_says_what_would_go() {
    let w = World::new();
    let old = w.offload(3_000);
    set_age(&old, 2 * DAY);
    let out = gc(&w, &["--dry-run"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stdout(&out),
        format!(
            "{}: would remove 1 output (13.6 KiB) and the session\n\
             would remove 1 output and 1 session, to free 13.6 KiB\n",
            w.session_dir().display()
        )
    );
    let report = gc_json(&w, &["--dry-run"]);
    assert_eq!(report["dry_run"], true);
    assert_eq!(removed_files(&report), ["seq_1.txt"]);
    assert!(old.exists());
    assert_eq!(listed(&w.session_dir()), ["seq_1.txt"]);
}

#[test]
fn json_reports_reasons_and_counts_hard_linked_duplicates_once() {
    let w = World::new();
    let first = w.offload(3_000);
    let duplicate = w.offload(3_000);
    let other = w.offload(4_000);
    for path in [&first, &duplicate, &other] {
        set_age(path, 2 * DAY);
    }
    let size = |p: &Path| fs::metadata(p).unwrap().len();
    let expected_freed = size(&first) + size(&other);
    let report = gc_json(&w, &[]);
    assert_eq!(
        removed_files(&report),
        ["seq_1.txt", "seq_2.txt", "seq_3.txt"]
    );
    assert!(
        report["removed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["reason"] == "unused" && r["last_use"].as_str().unwrap().ends_with('Z'))
    );
    assert_eq!(report["freed_bytes"], expected_freed);
    assert_eq!(
        report["sessions_removed"],
        serde_json::json!([w.session_dir().display().to_string()])
    );
}

#[test]
fn max_size_removes_the_least_recently_used_until_under() {
    let w = World::new();
    let paths: Vec<PathBuf> = (0..4).map(|i| w.offload(3_000 + 100 * i)).collect();
    for (path, hours) in paths.iter().zip([4, 3, 2, 1]) {
        set_age(path, hours * HOUR);
    }
    let size = |p: &PathBuf| fs::metadata(p).unwrap().len();
    let newest_two = size(&paths[2]) + size(&paths[3]);

    let report = gc_json(&w, &["--max-size", &newest_two.to_string()]);
    assert_eq!(removed_files(&report), ["seq_1.txt", "seq_2.txt"]);
    assert!(
        report["removed"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["reason"] == "max_size")
    );
    // Under the limit already: nothing more goes.
    assert_eq!(
        removed_files(&gc_json(&w, &["--max-size", &newest_two.to_string()])),
        Vec::<String>::new()
    );
    let report = gc_json(&w, &["--max-size", "20K"]);
    assert_eq!(removed_files(&report), ["seq_3.txt"]);
    assert!(paths[3].exists());
}

#[test]
fn max_size_counts_hard_linked_duplicates_once() {
    let w = World::new();
    let first = w.offload(3_000);
    let duplicate = w.offload(3_000);
    let other = w.offload(4_000);
    set_age(&other, HOUR);
    let on_disk = fs::metadata(&first).unwrap().len() + fs::metadata(&other).unwrap().len();
    let report = gc_json(&w, &["--max-size", &on_disk.to_string()]);
    assert_eq!(removed_files(&report), Vec::<String>::new());
    // One byte less: the least recently used inode goes, not half of a pair.
    let report = gc_json(&w, &["--max-size", &(on_disk - 1).to_string()]);
    assert_eq!(removed_files(&report), ["seq_3.txt"]);
    assert!(first.exists() && duplicate.exists());
}

#[test]
fn a_retrieval_refresh_keeps_an_output() {
    let w = World::new();
    let read = w.offload(3_000);
    let unread = w.offload(3_001);
    set_age(&read, 2 * DAY);
    set_age(&unread, 2 * DAY);
    store::touch_last_use(&read).unwrap();
    let report = gc_json(&w, &[]);
    assert_eq!(removed_files(&report), ["seq_2.txt"]);
    assert!(read.exists());
}

#[test]
fn a_session_whose_owner_ended_goes_after_the_grace() {
    let w = World::new();
    let output = w.offload(3_000);
    let dir = w.session_dir();
    write_owner(&dir, &ended_owner());

    // Still within the grace: the agent may only just have exited.
    assert_eq!(removed_files(&gc_json(&w, &[])), Vec::<String>::new());

    age_session(&dir, 10 * MIN);
    let report = gc_json(&w, &[]);
    assert_eq!(removed_files(&report), ["seq_1.txt"]);
    assert_eq!(report["removed"][0]["reason"], "session_ended");
    assert_eq!(
        report["sessions_removed"],
        serde_json::json!([dir.display().to_string()])
    );
    assert!(!output.exists() && !dir.exists());
}

#[test]
fn a_session_whose_owner_lives_is_kept() {
    let w = World::new();
    let output = w.offload(3_000);
    let dir = w.session_dir();
    let (comm, _, start_time) = store::process_stat(std::process::id()).unwrap();
    let me = Owner {
        pid: std::process::id(),
        start_time,
        comm,
    };
    write_owner(&dir, &me);
    age_session(&dir, 10 * MIN);
    assert_eq!(removed_files(&gc_json(&w, &[])), Vec::<String>::new());
    assert!(output.exists());

    // The same pid with another start time is a reused pid: the owner has ended.
    write_owner(
        &dir,
        &Owner {
            start_time: start_time + 1,
            ..me
        },
    );
    age_session(&dir, 10 * MIN);
    assert_eq!(removed_files(&gc_json(&w, &[])), ["seq_1.txt"]);
}

#[test]
fn a_bad_duration_or_size_is_one_clear_line_and_exit_2() {
    let w = World::new();
    for args in [
        ["--older-than", "5x"],
        ["--older-than", "1.5h"],
        ["--older-than", ""],
        ["--max-size", "lots"],
        ["--max-size", "1e3"],
    ] {
        let out = gc(&w, &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("ctxoff: bad {} '", args[0])),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn an_output_still_locked_by_its_capture_is_kept() {
    let w = World::new();
    let path = w.offload(3_000);
    set_age(&path, 2 * DAY);
    let held = fs::File::open(&path).unwrap();
    held.lock().unwrap();
    let out = gc(&w, &["--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        format!(
            "kept {}: still being written\nnothing to remove\n",
            path.display()
        )
    );
    assert!(path.exists());
    drop(held);
    assert_eq!(removed_files(&gc_json(&w, &["--all"])), ["seq_1.txt"]);
}

#[test]
fn a_capture_in_progress_is_kept_whole() {
    let w = World::new();
    let capture = w
        .ctxoff(&["--threshold", "100", "sh", "-c", "seq 1 300000; sleep 3"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let path = w.session_dir().join("seq_1.txt");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while !listed(&w.session_dir()).contains(&"seq_1.txt".to_string()) {
        assert!(
            std::time::Instant::now() < deadline,
            "capture never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let report = gc_json(&w, &["--all"]);
    assert_eq!(removed_files(&report), Vec::<String>::new());
    assert_eq!(report["skipped"][0]["reason"], "still being written");
    let out = capture.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(saved_path(&out), path);
    assert_eq!(fs::read(&path).unwrap(), seq_text(300_000));
}

#[test]
fn files_gc_did_not_create_are_kept() {
    let w = World::new();
    let output = w.offload(3_000);
    let dir = w.session_dir();
    let foreign = ["notes.txt", "seq_7.txt", "seq_1.log", "seq_1.txt.bak"];
    for name in foreign {
        fs::write(dir.join(name), "mine\n").unwrap();
    }
    fs::create_dir(dir.join("seq_8.txt")).unwrap();
    age_session(&dir, 2 * DAY);
    let report = gc_json(&w, &["--all"]);
    assert_eq!(removed_files(&report), ["seq_1.txt"]);
    assert!(!output.exists());
    for name in foreign {
        assert_eq!(fs::read_to_string(dir.join(name)).unwrap(), "mine\n");
    }
    assert!(dir.join("seq_8.txt").is_dir());
    assert_eq!(report["sessions_removed"], serde_json::json!([]));
}

#[test]
fn another_users_output_is_kept() {
    let w = World::new();
    let output = w.offload(3_000);
    std::os::unix::fs::lchown(&output, Some(65_534), Some(65_534)).unwrap();
    set_age(&output, 2 * DAY);
    let report = gc_json(&w, &["--all"]);
    assert_eq!(removed_files(&report), Vec::<String>::new());
    assert_eq!(report["skipped"][0]["reason"], "owned by uid 65534");
    assert!(output.exists());
}

/// A store in `w`'s root and session, to make many outputs without a process each.
fn store_of(w: &World) -> Store {
    let settings = ctxoff::config::Settings {
        threshold: 100,
        preview: 100,
        content_limit: 100,
        encoding: Default::default(),
        root: w.root(),
        session: Some(w.session.clone()),
        notable: Vec::new(),
        keep: Vec::new(),
        wrap: Vec::new(),
    };
    settings.open_store().unwrap()
}

/// Adds a complete output with `text` to the manifest, as a capture would.
fn add_output(store: &Store, text: &str) -> PathBuf {
    use std::io::Write;
    let mut output = store.create_output("made", "txt").unwrap();
    output.file.write_all(text.as_bytes()).unwrap();
    store
        .append_manifest(
            &output.dir,
            &Entry {
                n: output.n,
                file: file_name(&output.path),
                name: "made".into(),
                bytes: text.len() as u64,
                complete: true,
                ..Entry::default()
            },
        )
        .unwrap();
    output.path
}

#[test]
fn two_gcs_at_once_remove_each_output_once() {
    let w = World::new();
    let store = store_of(&w);
    for i in 0..300 {
        add_output(&store, &format!("{i}\n"));
    }
    let both: Vec<_> = (0..2)
        .map(|_| {
            w.ctxoff(&["gc", "--all", "--json"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut removed = 0;
    for child in both {
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(out.stderr.is_empty(), "{}", stderr(&out));
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        removed += report["removed"].as_array().unwrap().len();
    }
    assert_eq!(removed, 300);
    assert!(!w.session_dir().exists());
}

/// Runs `gc ARGS` over and over until `stop`, checking each run succeeds quietly.
fn gc_loop<'a>(
    scope: &'a std::thread::Scope<'a, '_>,
    w: &'a World,
    args: &'a [&'a str],
    stop: &'a AtomicBool,
) -> std::thread::ScopedJoinHandle<'a, usize> {
    scope.spawn(move || {
        let mut runs = 0;
        while !stop.load(Ordering::Relaxed) {
            let out = gc(w, args);
            assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
            assert!(out.stderr.is_empty(), "{}", stderr(&out));
            runs += 1;
        }
        runs
    })
}

/// Starts 20 `ctxoff --threshold 100 seq 1 30000` at once and waits for them all.
fn twenty_captures(w: &World) -> Vec<Output> {
    let children: Vec<_> = (0..20)
        .map(|_| {
            w.ctxoff(&["--threshold", "100", "seq", "1", "30000"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

#[test]
fn gc_racing_twenty_captures_loses_none() {
    let w = World::new();
    let store = store_of(&w);
    let stop = AtomicBool::new(false);
    let (outs, runs) = std::thread::scope(|scope| {
        // Old outputs keep arriving, so gc keeps rewriting the manifest the captures append to.
        let injector = scope.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                set_age(&add_output(&store, "old\n"), 2 * DAY);
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let gcs = gc_loop(scope, &w, &[], &stop);
        let outs = twenty_captures(&w);
        stop.store(true, Ordering::Relaxed);
        injector.join().unwrap();
        (outs, gcs.join().unwrap())
    });
    assert!(runs > 0);
    let expected = seq_text(30_000);
    let manifest = store::read_manifest(&w.session_dir());
    for out in &outs {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        assert!(out.stderr.is_empty(), "{}", stderr(out));
        let path = saved_path(out);
        assert_eq!(fs::read(&path).unwrap(), expected, "{}", path.display());
        let file = file_name(&path);
        let entry = manifest.iter().find(|e| e.file == file);
        assert!(
            entry.is_some_and(|e| e.complete),
            "{file} not in the manifest"
        );
    }
}

#[test]
fn gc_all_racing_twenty_captures_breaks_none() {
    let w = World::new();
    let stop = AtomicBool::new(false);
    let outs = std::thread::scope(|scope| {
        let gcs = gc_loop(scope, &w, &["--all", "-q"], &stop);
        let outs = twenty_captures(&w);
        stop.store(true, Ordering::Relaxed);
        gcs.join().unwrap();
        outs
    });
    for out in &outs {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
        assert!(out.stderr.is_empty(), "{}", stderr(out));
        let summary = stdout(out);
        assert!(!summary.contains("[ctxoff] note:"), "{summary}");
        assert!(!summary.contains("could not save"), "{summary}");
        let path = saved_path(out);
        assert!(path.starts_with(w.session_dir()), "{}", path.display());
        // gc --all may remove it once complete, never before.
        if let Ok(bytes) = fs::read(&path) {
            assert_eq!(bytes, seq_text(30_000));
        }
    }
    assert!(!w.fallback_root().exists(), "no capture fell back");
}

/// Ages a whole tree, deepest first, so a directory's time is not refreshed by its children's.
fn age_tree(path: &Path, age: Duration) {
    if path.is_dir() && !path.is_symlink() {
        for entry in fs::read_dir(path).unwrap() {
            age_tree(&entry.unwrap().path(), age);
        }
    }
    set_age(path, age);
}

#[test]
fn directories_ctxoff_did_not_make_are_never_removed() {
    // The reproduction: `mkdir -p g/empty g/data; echo '{"id":1}' > g/data/index.jsonl` aged an
    // hour; gc took both for empty sessions and removed the user's index.jsonl with them.
    let w = World::new();
    let root = w.root();
    fs::create_dir_all(root.join("empty")).unwrap();
    fs::create_dir_all(root.join("data")).unwrap();
    fs::write(root.join("data/index.jsonl"), "{\"id\":1}\n").unwrap();
    // Even names and files exactly like a session's, without ctxoff's marker or bookkeeping.
    fs::create_dir_all(root.join("lookalike")).unwrap();
    fs::write(root.join("lookalike/session.json"), "{}\n").unwrap();
    fs::write(root.join("lookalike/.seq"), "3").unwrap();
    age_tree(&root, 2 * DAY);
    for args in [&[][..], &["--all"][..]] {
        let report = gc_json(&w, args);
        assert_eq!(
            report["sessions_removed"],
            serde_json::json!([]),
            "{args:?}"
        );
        assert_eq!(removed_files(&report), Vec::<String>::new());
    }
    assert!(root.join("empty").is_dir());
    assert_eq!(
        fs::read_to_string(root.join("data/index.jsonl")).unwrap(),
        "{\"id\":1}\n"
    );
    assert!(root.join("lookalike/.seq").is_file());
    // The text report does not list every directory of a root it does not own.
    let out = gc(&w, &["--all"]);
    assert_eq!(stdout(&out), "nothing to remove\n");
}

#[test]
fn gc_with_a_home_directory_as_root_removes_nothing_of_the_user() {
    let w = World::new();
    let home = w.dir.path().join("home");
    for dir in ["src/empty", "notes", "build"] {
        fs::create_dir_all(home.join(dir)).unwrap();
    }
    fs::write(home.join("notes/index.jsonl"), "{\"n\":1}\n").unwrap();
    fs::write(home.join("build/make_1.txt"), "made by make\n").unwrap();
    age_tree(&home, 30 * DAY);
    let home_dir = home.to_str().unwrap();
    let out = run(&mut w.ctxoff(&["--dir", home_dir, "gc", "--all", "--json"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["sessions_removed"], serde_json::json!([]));
    assert_eq!(removed_files(&report), Vec::<String>::new());
    for dir in ["src/empty", "notes", "build"] {
        assert!(home.join(dir).is_dir(), "{dir}");
    }
    assert!(home.join("build/make_1.txt").is_file());
    assert!(home.join("notes/index.jsonl").is_file());
}

#[test]
fn a_session_made_by_ctxoff_carries_its_marker_and_goes_when_empty() {
    let w = World::new();
    w.offload(3_000);
    let dir = w.session_dir();
    let marker = fs::symlink_metadata(dir.join(".ctxoff-session")).expect("the marker");
    assert!(marker.file_type().is_file());
    gc_json(&w, &["--all"]);
    assert!(!dir.exists());
    // An empty session ctxoff made (its capture failed, say) goes once quiet.
    w.offload(3_000);
    for file in w.outputs() {
        fs::remove_file(dir.join(file)).unwrap();
    }
    age_session(&dir, 10 * MIN);
    let report = gc_json(&w, &[]);
    assert_eq!(
        report["sessions_removed"],
        serde_json::json!([dir.display().to_string()])
    );
}

#[test]
fn sessions_of_the_release_before_the_marker_are_still_collected() {
    let w = World::new();
    // An output with its manifest line and sequence, no marker.
    let output = w.offload(3_000);
    let dir = w.session_dir();
    fs::remove_file(dir.join(".ctxoff-session")).unwrap();
    // An empty session with an owner record that ended, no marker.
    let other = w.root().join("claude-1");
    fs::create_dir(&other).unwrap();
    fs::set_permissions(&other, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    write_owner(&other, &ended_owner());
    fs::write(other.join(".seq"), "").unwrap();
    age_session(&dir, 2 * DAY);
    age_session(&other, 2 * DAY);
    let report = gc_json(&w, &[]);
    assert_eq!(removed_files(&report), ["seq_1.txt"]);
    let mut gone: Vec<String> = report["sessions_removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    gone.sort();
    assert_eq!(
        gone,
        [other.display().to_string(), dir.display().to_string()]
    );
    assert!(!output.exists() && !dir.exists() && !other.exists());
}
