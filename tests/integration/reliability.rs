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
        .ctxoff(&["--threshold", "100", "cat"])
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
        .ctxoff(&["--threshold", "100", "cat"])
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
