//! Faults, hostile input and concurrency (SPEC §2, §4, §9): nothing captured is ever lost.

use crate::support::*;
use std::io::Write;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

fn seq(n: u64) -> Vec<u8> {
    (1..=n)
        .map(|i| format!("{i}\n"))
        .collect::<String>()
        .into_bytes()
}

fn signal(child: &Child, sig: i32) {
    // SAFETY: kill(2) on a child we spawned and have not reaped.
    unsafe { libc::kill(child.id() as i32, sig) };
}

fn last_manifest_line(w: &World) -> serde_json::Value {
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    serde_json::from_str(manifest.lines().last().unwrap()).unwrap()
}

#[test]
fn sigint_and_sighup_save_the_partial_output() {
    for (sig, name) in [(libc::SIGINT, "SIGINT"), (libc::SIGHUP, "SIGHUP")] {
        let w = World::new();
        let mut child = w
            .ctxoff(&["sh", "-c", "seq 1 50000; sleep 30"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let file = w.session_dir().join("seq_1.txt");
        wait_for_size(&mut child, &file, seq(50_000).len());
        signal(&child, sig);
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(128 + sig), "{name}");
        assert!(
            std::fs::read(&file).unwrap() == seq(50_000),
            "{name}: file incomplete"
        );
        assert!(
            stdout(&out).contains(&format!("interrupted by {name}")),
            "{}",
            stdout(&out)
        );
        assert_eq!(last_manifest_line(&w)["complete"], false);
    }
}

#[test]
fn a_child_ignoring_sigterm_is_killed_after_the_grace_period() {
    let w = World::new();
    let started = Instant::now();
    let mut child = w
        .ctxoff(&[
            "--name",
            "stubborn",
            "sh",
            "-c",
            "trap '' TERM; seq 1 50000; while :; do sleep 1; done",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let file = w.session_dir().join("stubborn_1.txt");
    wait_for_size(&mut child, &file, seq(50_000).len());
    signal(&child, libc::SIGTERM);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    assert!(stdout(&out).contains("interrupted by SIGTERM"));
    assert!(std::fs::read(&file).unwrap() == seq(50_000));
    // Hang guard: the escalation to SIGKILL comes after 5 s.
    assert!(started.elapsed() < Duration::from_secs(60));
}

#[test]
fn sigkill_of_ctxoff_leaves_a_recognisably_partial_output() {
    let w = World::new();
    let mut child = w
        .ctxoff(&["sh", "-c", "seq 1 50000; sleep 30"])
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let file = w.session_dir().join("seq_1.txt");
    wait_for_size(&mut child, &file, seq(50_000).len());
    signal(&child, libc::SIGKILL);
    child.wait().unwrap();
    let entry = last_manifest_line(&w);
    assert_eq!(entry["file"], "seq_1.txt");
    assert_eq!(entry["complete"], false, "the manifest marks it incomplete");
    assert!(std::fs::read(&file).unwrap() == seq(50_000));
}

#[test]
fn pipe_mode_with_stdin_closed_is_empty_output() {
    let w = World::new();
    let out = run(&mut w.sh("ctxoff <&-"));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn empty_output_and_no_trailing_newline_pass_through() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["true"]));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let out = run(&mut w.ctxoff(&["printf", "no newline"]));
    assert_eq!(out.stdout, b"no newline");
}

#[test]
fn a_final_line_without_newline_is_counted_and_shown() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["sh", "-c", "seq 1 100000; printf last"]));
    let summary = stdout(&out);
    assert!(summary.contains(" · 100,001 lines · "), "{summary}");
    assert!(summary.lines().any(|l| l == "last"), "{summary}");
}

#[test]
fn crlf_ansi_and_progress_are_cleaned_for_display_and_stored_raw() {
    let w = World::new();
    let raw = std::fs::read(fixture("tqdm-progress-synthetic.txt")).unwrap();
    let out = run(w
        .ctxoff(&["--threshold", "100", "--content-limit", "100", "cat"])
        .arg(fixture("tqdm-progress-synthetic.txt")));
    let summary = stdout(&out);
    assert!(
        !summary.contains('\r') && !summary.contains('\x1b'),
        "{summary:?}"
    );
    assert!(
        summary.contains("prepare: 12 shards, 3 phases"),
        "{summary}"
    );
    assert!(std::fs::read(w.session_dir().join("cat_1.txt")).unwrap() == raw);

    let ansi = std::fs::read(fixture("cargo-build-errors-ansi.txt")).unwrap();
    let out = run(w
        .ctxoff(&["--threshold", "100", "--content-limit", "100", "cat"])
        .arg(fixture("cargo-build-errors-ansi.txt")));
    assert!(!stdout(&out).contains('\x1b'), "{}", stdout(&out));
    assert!(std::fs::read(w.session_dir().join("cat_2.txt")).unwrap() == ansi);
}

#[test]
fn invalid_utf8_is_stored_raw_and_shown_lossily() {
    let w = World::new();
    let raw = std::fs::read(fixture("invalid-utf8-synthetic.txt")).unwrap();
    let out = run(w
        .ctxoff(&["--threshold", "100", "cat"])
        .arg(fixture("invalid-utf8-synthetic.txt")));
    assert!(
        std::str::from_utf8(&out.stdout).is_ok(),
        "summary is valid UTF-8"
    );
    assert!(stdout(&out).contains(" · 400 lines · "), "{}", stdout(&out));
    assert!(std::fs::read(w.session_dir().join("cat_1.txt")).unwrap() == raw);
    let tokens = reference_tokens(&raw);
    assert!(stdout(&out).contains(&format!(" · {} tokens · ", thousands(tokens))));
}

#[test]
fn nul_bytes_late_in_text_keep_it_text() {
    let w = World::new();
    let raw = std::fs::read(fixture("nul-bytes-synthetic.txt")).unwrap();
    run(w
        .ctxoff(&["--threshold", "100", "cat"])
        .arg(fixture("nul-bytes-synthetic.txt")));
    assert_eq!(w.outputs(), ["cat_1.txt"]);
    assert!(std::fs::read(w.session_dir().join("cat_1.txt")).unwrap() == raw);
}

#[test]
fn a_huge_line_without_newline_is_stored_whole() {
    let w = World::new();
    let mut child = w
        .ctxoff(&["--name", "big", "cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let chunk = "0123456789abcdef".repeat(65_536); // 1 MiB
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..32 {
            stdin.write_all(chunk.as_bytes()).unwrap();
        }
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(stdout(&out).contains(" · 1 line · "), "{}", stdout(&out));
    let meta = std::fs::metadata(w.session_dir().join("big_1.txt")).unwrap();
    assert_eq!(meta.len(), 32 << 20);
}

#[test]
fn ten_million_empty_lines() {
    let w = World::new();
    let out = run(&mut w.sh("head -c 10000000 /dev/zero | tr '\\0' '\\n' | ctxoff --name empty"));
    assert!(
        stdout(&out).contains(" · 10,000,000 lines · "),
        "{}",
        stdout(&out)
    );
    let meta = std::fs::metadata(w.session_dir().join("empty_1.txt")).unwrap();
    assert_eq!(meta.len(), 10_000_000);
}

#[test]
fn fifty_concurrent_captures_keep_the_manifest_whole() {
    let w = World::new();
    let children: Vec<_> = (0..50)
        .map(|i| {
            w.ctxoff(&["--threshold", "100", "seq", "1", &(10_000 + i).to_string()])
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    assert_eq!(w.outputs().len(), 50);
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    assert_eq!(
        manifest.lines().count(),
        100,
        "a start and an end line per capture"
    );
    let mut complete = std::collections::BTreeMap::new();
    for line in manifest.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("every line parses");
        if v["complete"] == true {
            complete.insert(v["n"].as_u64().unwrap(), v);
        }
    }
    assert_eq!(
        complete.keys().copied().collect::<Vec<_>>(),
        (1..=50).collect::<Vec<_>>()
    );
    for v in complete.values() {
        let file = w.session_dir().join(v["file"].as_str().unwrap());
        let count = v["argv"][2].as_str().unwrap().parse().unwrap();
        assert!(
            std::fs::read(&file).unwrap() == seq(count),
            "{}",
            file.display()
        );
    }
}

#[test]
fn hostile_session_and_tool_names() {
    let w = World::new();
    for bad in ["..", "a/b", ".hidden", "", &"x".repeat(200)] {
        let out = run(&mut w.ctxoff(&["--session", bad, "true"]));
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            stderr(&out).starts_with("ctxoff: bad session name"),
            "{}",
            stderr(&out)
        );
    }
    let out = run(&mut w.ctxoff(&[
        "--name",
        "../../etc/x y;rm",
        "--threshold",
        "5",
        "seq",
        "1",
        "100",
    ]));
    assert!(out.status.success());
    assert_eq!(w.outputs(), ["_.._etc_x_y_rm_1.txt"]);
    let tool = w.dir.path().join("my tool;$(x)");
    std::fs::write(&tool, "#!/bin/sh\nseq 1 100\n").unwrap();
    std::fs::set_permissions(&tool, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = run(w.ctxoff(&["--threshold", "5"]).arg(&tool));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        w.outputs().contains(&"my_tool___x__2.txt".to_string()),
        "{:?}",
        w.outputs()
    );
}

/// A small tmpfs mounted at a test's scratch root, unmounted on drop. Mounting needs privilege:
/// without it `mount` fails, and the test is skipped with the reason printed.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(at: &std::path::Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(at).unwrap();
        let out = std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=1777"),
                "tmpfs",
            ])
            .arg(at)
            .output();
        match out {
            Ok(out) if out.status.success() => Some(Tmpfs(at.to_path_buf())),
            Ok(out) => {
                skip(&format!("cannot mount a tmpfs: {}", stderr(&out).trim()));
                None
            }
            Err(e) => {
                skip(&format!("cannot run mount: {e}"));
                None
            }
        }
    }

    fn remount_read_only(&self) {
        let status = std::process::Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success(), "remount read-only");
    }

    /// Fills the filesystem up to its last byte.
    fn fill(&self) {
        let mut file = std::fs::File::create(self.0.join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while file.write_all(&block).is_ok() {}
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let umount = |args: &[&str]| {
            std::process::Command::new("umount")
                .args(args)
                .arg(&self.0)
                .status()
                .is_ok_and(|s| s.success())
        };
        if !umount(&[]) {
            umount(&["-l"]);
        }
    }
}

/// A save that failed: the child's status, its whole output on stdout, one `ctxoff:` line that
/// says why, and no partial file left behind.
fn assert_printed_instead(w: &World, out: &std::process::Output, code: i32, expected: &[u8]) {
    assert_eq!(out.status.code(), Some(code), "{}", stderr(out));
    assert!(
        out.stdout == expected,
        "stdout has {} of {} bytes",
        out.stdout.len(),
        expected.len()
    );
    let err = stderr(out);
    assert!(err.starts_with("ctxoff: could not save output"), "{err}");
    assert!(
        err.ends_with("; printed the output in full instead\n"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(w.outputs().is_empty(), "{:?}", w.outputs());
}

#[test]
fn a_full_filesystem_prints_everything_and_keeps_the_status() {
    let w = World::new();
    let Some(_fs) = Tmpfs::mount(&w.root(), "256k") else {
        return;
    };
    // 2 MB into 256 KiB.
    let out = run(&mut w.ctxoff(&["sh", "-c", "seq 1 300000; exit 3"]));
    assert_printed_instead(&w, &out, 3, &seq(300_000));
    assert!(stderr(&out).contains("No space left on device"));
}

#[test]
fn a_filesystem_full_before_the_capture_leaves_no_empty_file() {
    let w = World::new();
    let Some(fs) = Tmpfs::mount(&w.root(), "256k") else {
        return;
    };
    std::fs::create_dir(w.session_dir()).unwrap();
    std::fs::set_permissions(
        w.session_dir(),
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )
    .unwrap();
    fs.fill();
    let out = run(&mut w.ctxoff(&["sh", "-c", "seq 1 300000; exit 3"]));
    assert_printed_instead(&w, &out, 3, &seq(300_000));
}

#[test]
fn a_read_only_session_directory_prints_everything() {
    let w = World::new();
    let Some(fs) = Tmpfs::mount(&w.root(), "4m") else {
        return;
    };
    // A first offload makes the session; then the filesystem turns read-only under it (as root,
    // permissions alone would not stop the write).
    w.offload(10_000);
    std::fs::remove_file(w.session_dir().join("seq_1.txt")).unwrap();
    fs.remount_read_only();
    let out = run(&mut w.ctxoff(&["sh", "-c", "seq 1 300000; exit 3"]));
    assert_printed_instead(&w, &out, 3, &seq(300_000));
    assert!(
        stderr(&out).contains("Read-only file system"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn no_usable_directory_at_all_prints_everything() {
    // Needs no privilege: the root and both private fallbacks lie under a regular file.
    let w = World::new();
    let file = w.dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let out = run(w
        .ctxoff(&["sh", "-c", "seq 1 300000; exit 3"])
        .env("CTXOFF_DIR", file.join("root"))
        .env("XDG_RUNTIME_DIR", file.join("runtime"))
        .env("XDG_CACHE_HOME", file.join("cache")));
    assert_printed_instead(&w, &out, 3, &seq(300_000));
    assert!(stderr(&out).contains("Not a directory"), "{}", stderr(&out));
}

#[test]
fn a_session_directory_removed_mid_capture_loses_nothing() {
    let w = World::new();
    let mut child = w
        .ctxoff(&["sh", "-c", "seq 1 50000; sleep 2; seq 1 50000; exit 5"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let file = w.session_dir().join("seq_1.txt");
    wait_for_size(&mut child, &file, seq(50_000).len());
    std::fs::remove_dir_all(w.session_dir()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_printed_instead(&w, &out, 5, &[seq(50_000), seq(50_000)].concat());
    assert!(
        stderr(&out).contains("it was removed during the capture"),
        "{}",
        stderr(&out)
    );
}

/// A reader that stops after the first line, as `| head -1` does: ctxoff exits with the
/// command's status (0 here; a closed reader is not ctxoff failing) and says nothing on stderr.
#[test]
fn the_reader_of_a_summary_closing_early_is_quiet() {
    let w = World::new();
    let status = w.dir.path().join("status");
    let script = format!(
        "{{ ctxoff seq 1 1000000; echo $? > '{}'; }} | head -1",
        status.display()
    );
    let out = run(&mut w.sh(&script));
    assert!(
        stdout(&out).starts_with("[ctxoff] `seq 1 1000000` exited 0 · 1,000,000 lines · "),
        "{}",
        stdout(&out)
    );
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&status).unwrap(), "0\n");
    assert!(std::fs::read(w.session_dir().join("seq_1.txt")).unwrap() == seq(1_000_000));
}

/// The reader is gone before ctxoff writes a byte: every way of printing meets a broken pipe.
#[test]
fn a_reader_gone_before_anything_is_printed_is_quiet() {
    let w = World::new();
    for args in [
        &["--threshold", "100", "sh", "-c", "seq 1 100000; exit 4"][..],
        &[
            "--json",
            "--threshold",
            "100",
            "sh",
            "-c",
            "seq 1 100000; exit 4",
        ],
        &["sh", "-c", "seq 1 10; exit 4"],
        &["--json", "sh", "-c", "seq 1 10; exit 4"],
    ] {
        let mut child = w
            .ctxoff(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(4), "{args:?}: {}", stderr(&out));
        assert!(out.stderr.is_empty(), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(w.outputs(), ["seq_1.txt", "seq_2.txt"]);
}

/// `ctxoff` with no command and a terminal on stdin (a pty from `script`): one line, exit 2.
#[test]
fn pipe_mode_on_a_terminal_is_one_usage_line() {
    let w = World::new();
    let probe = std::process::Command::new("script")
        .arg("--version")
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        skip("no util-linux script(1) to give ctxoff a terminal");
        return;
    }
    let bin = env!("CARGO_BIN_EXE_ctxoff");
    let out = run(w
        .sh("script -qfec \"$CTXOFF_BIN\" /dev/null")
        .env("CTXOFF_BIN", bin));
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    // The terminal turns `\n` into `\r\n`; stderr reaches stdout through it.
    let text = stdout(&out).replace("\r\n", "\n");
    assert!(
        text.starts_with("ctxoff: no command given and standard input is a terminal (usage: "),
        "{text:?}"
    );
    assert_eq!(text.lines().count(), 1, "{text:?}");
    assert!(w.outputs().is_empty());
}

/// Exactly at, one under and one over the default threshold (2,500), for text whose tokens are
/// its bytes (`a\n`: no byte merges with the next, so the byte shortcut decides at the edge) and
/// for text of fewer tokens than bytes (` a`: the tokenizer decides).
#[test]
fn at_under_and_over_the_default_threshold_in_bytes_and_in_tokens() {
    let one_per_byte = |n: usize| {
        let mut text = "a\n".repeat(n / 2);
        if n % 2 == 1 {
            text.push('a');
        }
        text
    };
    let two_bytes_each = |n: usize| format!("a{}", " a".repeat(n - 1));
    for (shape, make) in [
        ("bytes", &one_per_byte as &dyn Fn(usize) -> String),
        ("tokens", &two_bytes_each),
    ] {
        for tokens in [2_499, 2_500, 2_501] {
            let w = World::new();
            let text = make(tokens);
            assert_eq!(reference_tokens(text.as_bytes()), tokens as u64, "{shape}");
            let file = w.dir.path().join("input.txt");
            std::fs::write(&file, &text).unwrap();
            // `cat` reads content, which may pass through up to a larger limit: held at the
            // default threshold here.
            let out = run(w.ctxoff(&["--content-limit", "2500", "cat"]).arg(&file));
            assert_eq!(out.status.code(), Some(0));
            if tokens <= 2_500 {
                assert!(out.stdout == text.as_bytes(), "{shape} {tokens} passes");
                assert!(w.outputs().is_empty(), "{shape} {tokens}");
            } else {
                let summary = stdout(&out);
                assert!(
                    summary.contains(" · 2,501 tokens · full output: "),
                    "{shape}: {summary}"
                );
                let saved = std::fs::read(w.session_dir().join("cat_1.txt")).unwrap();
                assert!(saved == text.as_bytes(), "{shape}: saved whole");
            }
        }
    }
}

/// `grep` and `lines` read the same output over and over while `gc` runs in a loop (with an
/// old output elsewhere to remove): every run succeeds with the right lines, and gc takes only
/// the old output.
#[test]
fn two_retrievals_of_one_output_while_gc_runs() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let w = World::new();
    let path = w.offload(200_000);
    let out = run(&mut w.ctxoff(&["--session", "old", "--threshold", "100", "seq", "1", "3000"]));
    let old = saved_path(&out);
    set_age(&old, Duration::from_secs(2 * 86_400));

    let stop = AtomicBool::new(false);
    let expect_grep: String = (123_400..=123_499).map(|i| format!("{i}:{i}\n")).collect();
    let expect_grep = format!(
        "1234:1234\n--\n{}--\n{expect_grep}",
        (12_340..=12_349)
            .map(|i| format!("{i}:{i}\n"))
            .collect::<String>()
    );
    let expect_lines: String = (199_990..=200_000).map(|i| format!("{i}:{i}\n")).collect();
    let runs = std::thread::scope(|s| {
        let gc = s.spawn(|| {
            let mut runs = 0;
            while !stop.load(Ordering::Relaxed) || runs == 0 {
                let out = run(&mut w.ctxoff(&["gc", "-q"]));
                assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
                assert!(out.stderr.is_empty(), "{}", stderr(&out));
                runs += 1;
            }
            runs
        });
        let grep = s.spawn(|| {
            for _ in 0..15 {
                let out = run(&mut w.ctxoff(&["grep", "seq_1", "^1234", "-C", "0", "--all"]));
                assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
                assert_eq!(stdout(&out), expect_grep);
            }
        });
        let lines = s.spawn(|| {
            for _ in 0..15 {
                let out = run(&mut w.ctxoff(&["lines", "@last", "-11:"]));
                assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
                assert_eq!(stdout(&out), expect_lines);
            }
        });
        let (grep, lines) = (grep.join(), lines.join());
        stop.store(true, Ordering::Relaxed);
        let runs = gc.join();
        grep.unwrap();
        lines.unwrap();
        runs.unwrap()
    });
    assert!(runs > 0);
    assert!(!old.exists(), "gc removed the old output");
    assert!(std::fs::read(&path).unwrap() == seq(200_000));
}

/// Case count of the end-to-end property below: each case starts a ctxoff, so the default is
/// small. `CTXOFF_CAPTURE_CASES=5000` for a long run.
fn capture_cases() -> u32 {
    std::env::var("CTXOFF_CAPTURE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(40)
}

/// Small outputs of every shape: lines of words, escapes, carriage returns, NUL and invalid
/// UTF-8, or plain random bytes.
fn small_output() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    let line = prop::collection::vec(
        prop::sample::select(vec![
            &b"word"[..],
            b" ",
            b"error",
            b"\x1b[31m",
            b"\r",
            b"\0",
            b"\xff",
            b"\xc3\xa9",
            b"12",
            b"{\"a\":1}",
        ]),
        0..12,
    )
    .prop_map(|parts| [parts.concat(), b"\n".to_vec()].concat());
    prop_oneof![
        prop::collection::vec(line, 0..40).prop_map(|lines| lines.concat()),
        prop::collection::vec(any::<u8>(), 0..600),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: capture_cases(),
        ..Default::default()
    })]

    /// Random small outputs piped through ctxoff with a random small threshold: either they
    /// pass through byte for byte, or the one saved file holds them byte for byte, and which
    /// one is decided by the exact token count.
    #[test]
    fn a_capture_passes_through_or_saves_every_byte(
        input in small_output(),
        threshold in 0u64..300,
    ) {
        let w = World::new();
        let mut child = w
            .ctxoff(&["--threshold", &threshold.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let sent = input.clone();
        let writer = std::thread::spawn(move || stdin.write_all(&sent));
        let out = child.wait_with_output().unwrap();
        writer.join().unwrap().unwrap();
        proptest::prop_assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        proptest::prop_assert!(out.stderr.is_empty(), "{}", stderr(&out));
        let offload = input.len() as u64 > threshold && reference_tokens(&input) > threshold;
        if offload {
            let outputs = w.outputs();
            proptest::prop_assert_eq!(outputs.len(), 1, "{:?}", outputs);
            let saved = std::fs::read(w.session_dir().join(&outputs[0])).unwrap();
            proptest::prop_assert!(saved == input, "saved {} of {} bytes", saved.len(), input.len());
            proptest::prop_assert!(stdout(&out).starts_with("[ctxoff] standard input (pipe) · "));
        } else {
            proptest::prop_assert!(out.stdout == input, "passed {:?}", stdout(&out));
            proptest::prop_assert!(w.outputs().is_empty());
        }
    }
}
