//! Run and pipe mode end to end (SPEC §2, §3): pass-through, offload, exit statuses, signals.

use crate::support::*;
use std::io::Write;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn seq(n: u64) -> Vec<u8> {
    (1..=n)
        .map(|i| format!("{i}\n"))
        .collect::<String>()
        .into_bytes()
}

#[test]
fn seq_offloads_a_byte_identical_file_and_summarises_it() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["seq", "1", "200000"]));
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let expected = seq(200_000);
    let path = w.session_dir().join("seq_1.txt");
    assert_eq!(std::fs::read(&path).expect("saved"), expected);
    let summary = stdout(&out);
    let tokens = reference_tokens(&expected);
    let header = format!(
        "[ctxoff] `seq 1 200000` exited 0 · 200,000 lines · {} tokens · full output: {}",
        thousands(tokens),
        path.display()
    );
    let lines: Vec<&str> = summary.lines().collect();
    assert_eq!(lines[0], header);
    assert_eq!(lines[1], "1");
    assert_eq!(lines[lines.len() - 2], "200000");
    let omitted = lines
        .iter()
        .find(|l| l.starts_with("[ctxoff] … lines "))
        .expect("omitted line");
    assert!(omitted.ends_with("tokens) …"), "{omitted}");
    let last = lines.last().unwrap();
    assert!(
        last.starts_with(&format!(
            "[ctxoff] read more: ctxoff lines {} ",
            path.display()
        )),
        "{last}"
    );
    // The summary respects the preview budget (1,000 tokens) plus a few lines of its own.
    assert!(
        reference_tokens(summary.as_bytes()) < 1_300,
        "{}",
        reference_tokens(summary.as_bytes())
    );
}

#[test]
fn the_manifest_records_the_offload() {
    let w = World::new();
    run(&mut w.ctxoff(&["seq", "1", "200000"]));
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(manifest.lines().last().unwrap()).unwrap();
    assert_eq!(last["n"], 1);
    assert_eq!(last["file"], "seq_1.txt");
    assert_eq!(last["argv"], serde_json::json!(["seq", "1", "200000"]));
    assert_eq!(last["exit_code"], 0);
    assert_eq!(last["lines"], 200_000);
    assert_eq!(last["bytes"], seq(200_000).len());
    assert_eq!(last["tokens"], reference_tokens(&seq(200_000)));
    assert_eq!(last["complete"], true);
    assert_eq!(last["encoding"], "o200k_base");
    assert_eq!(last["sha256"].as_str().unwrap().len(), 64);
}

#[test]
fn small_output_passes_through_with_the_exit_status() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["sh", "-c", "printf out; printf err >&2; exit 3"]));
    assert_eq!(out.stdout, b"out");
    assert_eq!(out.stderr, b"err");
    assert_eq!(out.status.code(), Some(3));
    assert!(w.outputs().is_empty(), "nothing written: {:?}", w.outputs());
}

#[test]
fn pass_through_keeps_arrival_order_across_streams() {
    let w = World::new();
    let script = "ctxoff sh -c 'echo 1; sleep 0.05; echo 2 >&2; sleep 0.05; echo 3; sleep 0.05; echo 4 >&2' 2>&1";
    let out = run(&mut w.sh(script));
    assert_eq!(stdout(&out), "1\n2\n3\n4\n");
}

#[test]
fn offloaded_output_merges_streams_in_arrival_order() {
    let w = World::new();
    let script = "ctxoff --threshold 5 sh -c 'echo one two three; sleep 0.05; echo four five six >&2; sleep 0.05; echo seven eight nine'";
    let out = run(&mut w.sh(script));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // `sh -c 'echo …'` is named after the program the shell runs.
    let saved = std::fs::read_to_string(w.session_dir().join("echo_1.txt")).unwrap();
    assert_eq!(saved, "one two three\nfour five six\nseven eight nine\n");
}

#[test]
fn binary_passes_through_byte_for_byte_under_the_threshold() {
    let w = World::new();
    let png = fixture("png-fd-logo.bin");
    let out = run(w.ctxoff(&["--threshold", "20000", "cat"]).arg(&png));
    assert_eq!(out.stdout, std::fs::read(&png).unwrap());
}

#[test]
fn pipe_mode_offloads_and_passes_through() {
    let w = World::new();
    let out = run(&mut w.sh("seq 1 200000 | ctxoff --name seq"));
    assert_eq!(out.status.code(), Some(0));
    let summary = stdout(&out);
    assert!(
        summary.starts_with("[ctxoff] standard input (seq) · 200,000 lines · "),
        "{summary}"
    );
    assert_eq!(
        std::fs::read(w.session_dir().join("seq_1.txt")).unwrap(),
        seq(200_000)
    );

    let out = run(&mut w.sh("echo hi | ctxoff"));
    assert_eq!(stdout(&out), "hi\n");
    assert_eq!(out.status.code(), Some(0));
}

/// Pipe mode cannot know the producer's exit status and says so, with how to get it; run mode
/// knows it and has no such line.
#[test]
fn pipe_mode_says_the_producers_exit_status_is_unknown() {
    let w = World::new();
    let unknown = "[ctxoff] the producing command's exit status is unknown here (a pipe); \
                   `set -o pipefail` makes the shell report it\n";
    let out = run(&mut w.sh("seq 1 100000 | ctxoff --name seq"));
    let summary = stdout(&out);
    assert_eq!(
        summary.lines().nth(1).map(|l| format!("{l}\n")).as_deref(),
        Some(unknown),
        "{summary}"
    );
    let out = run(&mut w.ctxoff(&["seq", "1", "100000"]));
    assert!(
        !stdout(&out).contains("exit status is unknown"),
        "{}",
        stdout(&out)
    );
}

/// The omitted figure is the token count of the omitted lines as text of their own, not a sum
/// per line nor the whole less head and tail (on real output, where the two differ).
#[test]
fn the_omitted_token_figure_is_an_exact_count_of_the_omitted_text() {
    let w = World::new();
    for name in [
        "cargo-test-failures.txt",
        "git-log-stat-tokio.txt",
        "rg-tokio-defs.txt",
    ] {
        let file = fixture(name);
        // Read as content, but offloaded: the content limit no higher than the threshold.
        let out = run(w
            .ctxoff(&["--json", "--content-limit", "0", "cat"])
            .arg(&file));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
        assert_eq!(v["offloaded"], true, "{name}");
        let (from, to) = (
            v["omitted"]["from"].as_u64().unwrap() as usize,
            v["omitted"]["to"].as_u64().unwrap() as usize,
        );
        let bytes = std::fs::read(&file).unwrap();
        let omitted: Vec<u8> = bytes
            .split_inclusive(|&b| b == b'\n')
            .skip(from - 1)
            .take(to - from + 1)
            .flatten()
            .copied()
            .collect();
        assert_eq!(
            v["omitted"]["tokens"].as_u64(),
            Some(reference_tokens(&omitted)),
            "{name}: lines {from}-{to}"
        );
        let summary = run(w.ctxoff(&["--content-limit", "0", "cat"]).arg(&file));
        let marker = format!("omitted ({} tokens)", thousands(reference_tokens(&omitted)));
        assert!(stdout(&summary).contains(&marker), "{name}: {marker}");
    }
}

#[test]
fn pipe_mode_names_the_output_pipe_by_default() {
    let w = World::new();
    run(&mut w.sh("seq 1 100000 | ctxoff"));
    assert_eq!(w.outputs(), ["pipe_1.txt"]);
}

#[test]
fn threshold_is_strict_in_tokens() {
    let w = World::new();
    // "a a a …": every " a" is one token.
    let text = format!("a{}", " a".repeat(2_999));
    let tokens = reference_tokens(text.as_bytes());
    assert_eq!(tokens, 3_000);
    let file = w.dir.path().join("words.txt");
    std::fs::write(&file, &text).unwrap();
    // `cat` reads content: its larger limit is held at the threshold here.
    let at = run(w
        .ctxoff(&["--threshold", "3000", "--content-limit", "3000", "cat"])
        .arg(&file));
    assert_eq!(
        at.stdout,
        text.as_bytes(),
        "exactly at the threshold passes through"
    );
    let over = run(w
        .ctxoff(&["--threshold", "2999", "--content-limit", "2999", "cat"])
        .arg(&file));
    assert!(
        stdout(&over).starts_with("[ctxoff] `cat "),
        "one over offloads"
    );
    assert_eq!(w.outputs(), ["cat_1.txt"]);
}

#[test]
fn threshold_is_strict_in_bytes() {
    let w = World::new();
    // Ten bytes, fewer tokens: at most `threshold` bytes never needs counting.
    let out = run(&mut w.ctxoff(&["--threshold", "10", "printf", "123456789\n"]));
    assert_eq!(out.stdout, b"123456789\n");
    let out = run(&mut w.ctxoff(&["--threshold", "3", "printf", "a b c d e f\n"]));
    assert!(stdout(&out).starts_with("[ctxoff]"));
}

#[test]
fn command_not_found_and_not_executable() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["no-such-program-ctxoff"]));
    assert_eq!(out.status.code(), Some(127));
    assert_eq!(
        stderr(&out),
        "ctxoff: no-such-program-ctxoff: command not found\n"
    );
    let script = w.dir.path().join("script.sh");
    std::fs::write(&script, "#!/bin/sh\necho hi\n").unwrap();
    let out = run(w.ctxoff(&[]).arg(&script));
    assert_eq!(out.status.code(), Some(126));
    assert!(
        stderr(&out).contains("permission denied"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_child_killed_by_a_signal_gives_128_plus_n() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["sh", "-c", "kill -9 $$"]));
    assert_eq!(out.status.code(), Some(137));
    let out = run(&mut w.ctxoff(&["--threshold", "5", "sh", "-c", "seq 1 1000; kill -TERM $$"]));
    assert_eq!(out.status.code(), Some(143));
    assert!(
        stdout(&out).starts_with("[ctxoff] `sh -c 'seq 1 1000; kill -TERM $$'` killed by SIGTERM")
    );
}

#[test]
fn sigterm_saves_the_partial_output_and_says_incomplete() {
    let w = World::new();
    let mut child = w
        .ctxoff(&["sh", "-c", "seq 1 50000; sleep 30"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let file = w.session_dir().join("seq_1.txt");
    wait_for_size(&mut child, &file, seq(50_000).len());
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143));
    assert_eq!(std::fs::read(&file).unwrap(), seq(50_000));
    let summary = stdout(&out);
    assert!(summary.contains("interrupted by SIGTERM"), "{summary}");
    assert!(summary.contains("incomplete"), "{summary}");
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(manifest.lines().last().unwrap()).unwrap();
    assert_eq!(last["complete"], false);
}

#[test]
fn a_background_grandchild_holding_the_pipe_does_not_hang() {
    let w = World::new();
    let started = Instant::now();
    let out = run(&mut w.ctxoff(&["sh", "-c", "sleep 60 & echo done"]));
    assert_eq!(stdout(&out), "done\n");
    assert_eq!(out.status.code(), Some(0));
    // Hang guard, not a speed test: the grandchild lives for a minute.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn twenty_concurrent_runs_get_twenty_complete_files() {
    let w = World::new();
    let children: Vec<_> = (0..20)
        .map(|_| {
            w.ctxoff(&["seq", "1", "30000"])
                .stdout(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        assert!(child.wait_with_output().unwrap().status.success());
    }
    let outputs = w.outputs();
    assert_eq!(outputs.len(), 20, "{outputs:?}");
    let expected = seq(30_000);
    for (i, name) in outputs.iter().enumerate() {
        assert!(name.starts_with("seq_") && name.ends_with(".txt"), "{name}");
        let _ = i;
        let bytes = std::fs::read(w.session_dir().join(name)).unwrap();
        // Identical outputs are stored once: every name still holds the whole output.
        assert_eq!(bytes, expected, "{name}");
    }
    let mut numbers: Vec<u64> = outputs
        .iter()
        .map(|n| n["seq_".len()..n.len() - 4].parse().unwrap())
        .collect();
    numbers.sort();
    assert_eq!(numbers, (1..=20).collect::<Vec<u64>>());
}

#[test]
fn a_failed_save_prints_everything_and_keeps_the_status() {
    let w = World::new();
    // 64 blocks of file size: the offload file cannot hold seq's 1.2 MB.
    let out = run(&mut w.sh("ulimit -f 64; ctxoff sh -c 'seq 1 200000; exit 4'"));
    assert_eq!(out.status.code(), Some(4));
    assert!(
        out.stdout == seq(200_000),
        "stdout has {} bytes",
        out.stdout.len()
    );
    let err = stderr(&out);
    assert!(
        err.starts_with("ctxoff: could not save output to "),
        "{err}"
    );
    assert!(err.contains("printed the output in full instead"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn the_reader_closing_early_is_quiet() {
    let w = World::new();
    let out = run(&mut w.sh("ctxoff --threshold 100000000 seq 1 1000000 | head -1"));
    assert_eq!(stdout(&out), "1\n");
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn binary_output_is_stored_as_bin_with_its_type() {
    let w = World::new();
    let png = fixture("png-fd-logo.bin");
    let out = run(w.ctxoff(&["--threshold", "100", "cat"]).arg(&png));
    let summary = stdout(&out);
    assert!(summary.contains("binary output (PNG image) · 10,183 bytes · sha256 f40964c4246e8b768ab608de67be89a95d3b44cc46de5186fd4891e50e2ddc02"), "{summary}");
    assert_eq!(w.outputs(), ["cat_1.bin"]);
    assert_eq!(
        std::fs::read(w.session_dir().join("cat_1.bin")).unwrap(),
        std::fs::read(&png).unwrap()
    );
}

#[test]
fn json_output_describes_the_offload() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["--json", "seq", "1", "200000"]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["offloaded"], true);
    assert_eq!(v["name"], "seq");
    assert_eq!(v["n"], 1);
    assert_eq!(v["session"], "test");
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["lines"], 200_000);
    assert_eq!(v["tokens"], reference_tokens(&seq(200_000)));
    assert_eq!(v["head"][0]["text"], "1");
    assert_eq!(
        v["tail"].as_array().unwrap().last().unwrap()["text"],
        "200000"
    );
    assert!(v["omitted"]["from"].as_u64().unwrap() > 1);

    let out = run(&mut w.ctxoff(&["--json", "sh", "-c", "echo hi; exit 2"]));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["offloaded"], false);
    assert_eq!(v["output"], "hi\n");
    assert_eq!(v["exit_code"], 2);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn files_and_directories_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let w = World::new();
    run(&mut w.ctxoff(&["seq", "1", "100000"]));
    let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&w.root()), 0o1777);
    assert_eq!(mode(&w.session_dir()), 0o700);
    assert_eq!(mode(&w.session_dir().join("seq_1.txt")), 0o600);
    assert_eq!(mode(&w.session_dir().join("index.jsonl")), 0o600);
}

#[test]
fn a_long_single_line_is_cut_and_marked() {
    let w = World::new();
    let mut child = w
        .ctxoff(&["cat"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let line = "lorem ipsum dolor ".repeat(200_000);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(line.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let summary = stdout(&out);
    let lines: Vec<&str> = summary.lines().collect();
    assert!(lines[0].contains("· 1 line · "), "{}", lines[0]);
    assert!(
        lines[1].starts_with("lorem ipsum") && lines[1].ends_with("[… line 1 cut]"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("[ctxoff] … the middle of line 1 omitted"),
        "{}",
        lines[2]
    );
    assert!(lines[3].starts_with("[line 1 cut …] "), "{}", lines[3]);
}

#[test]
fn usage_errors_exit_2_before_anything_runs() {
    let w = World::new();
    let marker = w.dir.path().join("ran");
    let out = run(w.ctxoff(&["--threshold", "lots", "touch"]).arg(&marker));
    assert_eq!(out.status.code(), Some(2));
    assert!(!marker.exists());
    let out = run(w.ctxoff(&["--session", "../x", "touch"]).arg(&marker));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("ctxoff: bad session name"),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists());
}

#[test]
fn an_identical_output_says_so_and_is_stored_once() {
    use std::os::unix::fs::MetadataExt;
    let w = World::new();
    run(&mut w.ctxoff(&["seq", "1", "100000"]));
    let out = run(&mut w.ctxoff(&["seq", "1", "100000"]));
    let summary = stdout(&out);
    assert!(
        summary.contains("[ctxoff] identical to seq_1 (same sha256; stored once)"),
        "{summary}"
    );
    let first = std::fs::metadata(w.session_dir().join("seq_1.txt")).unwrap();
    let second = std::fs::metadata(w.session_dir().join("seq_2.txt")).unwrap();
    assert_eq!(first.ino(), second.ino(), "a hard link, not a copy");
    let manifest = std::fs::read_to_string(w.session_dir().join("index.jsonl")).unwrap();
    let last: serde_json::Value = serde_json::from_str(manifest.lines().last().unwrap()).unwrap();
    assert_eq!(last["duplicate_of"], "seq_1");
}

#[test]
fn the_preview_is_at_most_half_the_threshold() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["--threshold", "200", "seq", "1", "100000"]));
    let summary = stdout(&out);
    let shown: String = summary
        .lines()
        .filter(|l| !l.starts_with("[ctxoff]"))
        .map(|l| format!("{l}\n"))
        .collect();
    // Head and tail lines of seq are "N\n": their tokens stay within 100 (half of 200).
    assert!(reference_tokens(shown.as_bytes()) <= 100, "{summary}");
    assert!(shown.lines().count() > 10, "{summary}");
}

/// Reading is not summarising: output of a command run to read content (`cat`) passes through
/// up to the content limit, not the threshold, unless the agent running ctxoff would cut it
/// (Codex keeps 10,000 bytes whole); `lines` of such an output is capped at the same limit,
/// while another command's output is offloaded and read back at the threshold.
#[test]
fn content_read_with_cat_passes_up_to_the_content_limit_within_the_agents() {
    let w = World::new();
    let text: String = (1..=700)
        .map(|i| format!("item {i}: alpha beta gamma\n"))
        .collect();
    let tokens = reference_tokens(text.as_bytes());
    assert!(
        (2_500..6_000).contains(&tokens) && text.len() > 10_000,
        "{tokens} tokens, {} bytes",
        text.len()
    );
    let file = w.dir.path().join("notes.txt");
    std::fs::write(&file, &text).unwrap();

    let read = run(w.ctxoff(&["cat"]).arg(&file));
    assert_eq!(read.stdout, text.as_bytes(), "passed through untouched");
    assert!(w.outputs().is_empty(), "nothing saved");

    let codex = run(w.ctxoff(&["cat"]).arg(&file).env("CTXOFF_AGENT", "codex"));
    assert!(
        stdout(&codex).starts_with("[ctxoff] `cat "),
        "{}",
        stdout(&codex)
    );
    let other = run(w.ctxoff(&["awk", "1"]).arg(&file));
    assert!(
        stdout(&other).starts_with("[ctxoff] `awk 1 "),
        "{}",
        stdout(&other)
    );

    // Numbered lines take more tokens than the file: both reads are capped, at their limits.
    let cap = |reference: &str| {
        let out = run(&mut w.ctxoff(&["lines", reference, "1:"]));
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let text = stdout(&out);
        text.lines().last().unwrap_or_default().to_owned()
    };
    let content = cap("cat_1");
    assert!(
        content.starts_with("[ctxoff] output capped at 6,000 tokens"),
        "{content}"
    );
    let other = cap("awk_2");
    assert!(
        other.starts_with("[ctxoff] output capped at 2,500 tokens"),
        "{other}"
    );
}
