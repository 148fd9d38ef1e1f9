//! Regression tests for defects found by attacking ctxoff on a hostile machine: what a summary
//! says at threshold 0, roots given as relative or non-UTF-8 paths, the order of stdout and
//! stderr, huge single lines read back, signals around the spawn. The multi-user and race
//! attacks need root and real users: `scripts/multiuser.sh`.

use crate::support::*;

#[test]
fn threshold_zero_prints_the_header_and_read_more_only() {
    // It printed the line twice, cut, around "the middle of line 1 omitted (0 tokens)".
    let w = World::new();
    let out = run(&mut w.ctxoff(&["--threshold", "0", "echo", "hello"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let path = w.session_dir().join("echo_1.txt");
    let path = path.display();
    assert_eq!(
        stdout(&out),
        format!(
            "[ctxoff] `echo hello` exited 0 · 1 line · 2 tokens · full output: {path}\n\
             [ctxoff] read more: ctxoff lines {path} 1:1 · ctxoff grep {path} 'REGEX' -C 3\n"
        )
    );
    assert!(out.stderr.is_empty());
}

#[test]
fn a_relative_root_is_printed_absolute() {
    let w = World::new();
    let out = run(w
        .ctxoff(&["--dir", "rel", "--threshold", "10", "seq", "1", "100"])
        .current_dir(w.dir.path()));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let saved = saved_path(&out);
    assert!(saved.is_absolute(), "{}", saved.display());
    assert_eq!(saved, w.dir.path().join("rel/test/seq_1.txt"));
    assert!(saved.is_file());
}

#[test]
fn a_root_that_is_not_utf8_is_refused_with_one_line() {
    use std::os::unix::ffi::OsStrExt;
    let w = World::new();
    let mut root = w.dir.path().as_os_str().as_bytes().to_vec();
    root.extend_from_slice(b"/x\xff");
    let root = std::ffi::OsStr::from_bytes(&root);
    let out = run(w
        .ctxoff(&["--threshold", "10", "seq", "1", "100"])
        .env("CTXOFF_DIR", root));
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("/x\\xff is not valid UTF-8"), "{err}");
}

const INTERLEAVED: &str = "for i in $(seq 1 300); do echo out$i; echo err$i >&2; done";

fn interleaved() -> String {
    (1..=300).map(|i| format!("out{i}\nerr{i}\n")).collect()
}

#[test]
fn stdout_and_stderr_to_one_place_keep_their_exact_order() {
    // `ctxoff sh -c '…' 2>&1` printed "out1 out2 err1 err2" in 27-29 runs of 30.
    let w = World::new();
    for _ in 0..30 {
        let out = run(
            &mut w.sh("ctxoff sh -c 'echo err1 >&2; echo out1; echo err2 >&2; echo out2' 2>&1")
        );
        assert_eq!(stdout(&out), "err1\nout1\nerr2\nout2\n");
    }
    // Saved, too: the file is what `cmd 2>&1` writes, and the manifest says the order is exact.
    let script = format!("ctxoff --threshold 10 sh -c '{INTERLEAVED}' 2>&1");
    let out = run(&mut w.sh(&script));
    let saved = saved_path(&out);
    assert_eq!(std::fs::read_to_string(&saved).unwrap(), interleaved());
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(manifest.lines().last().unwrap()).unwrap();
    assert_eq!(last["order"], "exact");
}

#[test]
fn stdout_and_stderr_to_different_places_stay_apart_and_say_what_order_means() {
    let w = World::new();
    let script = "ctxoff sh -c 'echo err1 >&2; echo out1' 2>/dev/null";
    assert_eq!(stdout(&run(&mut w.sh(script))), "out1\n");
    let err = w.dir.path().join("err");
    let script = format!(
        "ctxoff sh -c 'echo err1 >&2; echo out1' 2>'{}'",
        err.display()
    );
    assert_eq!(stdout(&run(&mut w.sh(&script))), "out1\n");
    assert_eq!(std::fs::read_to_string(&err).unwrap(), "err1\n");
    let script = format!("ctxoff --threshold 10 sh -c '{INTERLEAVED}' 2>/dev/null");
    let out = run(&mut w.sh(&script));
    let saved = std::fs::read_to_string(saved_path(&out)).unwrap();
    // Every line of both streams, each stream in its order.
    let mut lines: Vec<&str> = saved.lines().collect();
    assert_eq!(lines.len(), 600);
    lines.retain(|l| l.starts_with("out"));
    let outs: Vec<String> = (1..=300).map(|i| format!("out{i}")).collect();
    assert_eq!(lines, outs);
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(manifest.lines().last().unwrap()).unwrap();
    assert_eq!(last["order"], "per-stream");
}

#[test]
fn a_file_opened_twice_is_not_merged() {
    // `>f 2>f` are two descriptions of one file, each writing from offset 0: as without ctxoff.
    let w = World::new();
    let f = w.dir.path().join("f");
    let script = format!(
        "ctxoff sh -c 'echo out1; echo err1 >&2' >'{0}' 2>'{0}'; sh -c 'echo out1; echo err1 >&2' >'{0}.plain' 2>'{0}.plain'",
        f.display()
    );
    run(&mut w.sh(&script));
    let plain = std::fs::read(f.with_extension("plain")).unwrap();
    assert_eq!(std::fs::read(&f).unwrap(), plain);
}

#[test]
fn a_sigint_right_after_the_spawn_is_forwarded_and_nothing_is_orphaned() {
    // The command interrupts ctxoff as its very first act; handlers installed after the spawn
    // could miss it, and ctxoff died leaving the command running.
    let w = World::new();
    for _ in 0..20 {
        let out = run(&mut w.ctxoff(&["sh", "-c", "kill -INT $PPID; sleep 0.2; echo late"]));
        assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    }
}

/// `root/test/big_1.txt`: a first line, one line of `len` bytes ending in `needle`, a last line.
fn huge_line(w: &World, len: usize) -> (std::path::PathBuf, Vec<u8>) {
    let path = w.session_dir().join("big_1.txt");
    std::fs::create_dir_all(w.session_dir()).unwrap();
    let mut bytes = b"first\n".to_vec();
    bytes.resize(6 + len - 6, b'x');
    bytes.extend_from_slice(b"needle\nlast\n");
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes)
}

#[test]
fn a_line_longer_than_held_is_cut_for_display_and_whole_with_plain() {
    // `lines` held a 100 MB line whole (268 MB RSS); now at most 4 MiB of it is in memory.
    let w = World::new();
    let (_, bytes) = huge_line(&w, 9 << 20);
    let out = run(&mut w.ctxoff(&["lines", "big_1", "2:3", "--all"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let shown: Vec<&str> = text.lines().collect();
    assert_eq!(shown.len(), 2);
    assert_eq!(shown[0].len(), "2:".len() + (4 << 20));
    assert_eq!(shown[1], "3:last");
    assert_eq!(
        stderr(&out),
        "ctxoff: 1 line longer than 4 MiB shown cut to that (first: line 2); --plain prints it whole\n"
    );
    let out = run(&mut w.ctxoff(&["lines", "big_1", "1:", "--plain", "--all"]));
    assert!(out.stdout == bytes, "--plain --all reproduces the file");
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    // Capped, the line is cut by the cap as before.
    let out = run(&mut w.ctxoff(&["lines", "big_1", "2"]));
    assert!(stdout(&out).contains("line 2 is longer than that and was cut"));
}

#[test]
fn grep_searches_a_line_longer_than_held_in_its_first_part_and_says_so() {
    let w = World::new();
    huge_line(&w, 9 << 20);
    let out = run(&mut w.ctxoff(&["grep", "big_1", "needle|last", "-C", "0"]));
    assert_eq!(stdout(&out), "3:last\n");
    assert_eq!(
        stderr(&out),
        "ctxoff: 1 line longer than 4 MiB searched in its first 4 MiB only (first: line 2)\n"
    );
    let out = run(&mut w.ctxoff(&["grep", "big_1", "^x", "-c"]));
    assert_eq!(stdout(&out), "1\n");
}
