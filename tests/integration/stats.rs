//! `ctxoff stats` end to end: real offloads and read-backs recorded in the history, the figures
//! checked against tiktoken-rs's counts of what was really printed, after gc removed the
//! session; pass-through recording nothing; concurrent writers; corrupt lines; a history that
//! cannot be written never failing a run; folding old records keeping every figure.

use crate::support::*;
use serde_json::Value;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Output;

/// `ctxoff stats --json ARGS`, checked to succeed without a word on stderr.
fn stats_json(w: &World, args: &[&str]) -> Value {
    let args: Vec<&str> = ["stats", "--json"].iter().chain(args).copied().collect();
    let out = run(&mut w.ctxoff(&args));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// The tokens a reader got from a run: what it printed on stdout and stderr.
fn printed_tokens(out: &Output) -> u64 {
    reference_tokens(&out.stdout) + reference_tokens(&out.stderr)
}

/// `ctxoff --threshold 100 ARGS`, which offloads (content read with `cat` too: its larger
/// limit is held at the threshold); the run's output.
fn offload(w: &World, args: &[&str]) -> Output {
    let args: Vec<&str> = ["--threshold", "100", "--content-limit", "100"]
        .iter()
        .chain(args)
        .copied()
        .collect();
    let out = run(&mut w.ctxoff(&args));
    assert_eq!(stderr(&out), "");
    assert!(stdout(&out).contains("full output: "), "{}", stdout(&out));
    out
}

fn history_file(w: &World) -> std::path::PathBuf {
    w.history_dir().join("history.jsonl")
}

fn counts(v: &Value) -> [u64; 6] {
    [
        "offloads",
        "output_tokens",
        "summary_tokens",
        "read_backs",
        "read_back_tokens",
        "offloads_read_back",
    ]
    .map(|k| v[k].as_u64().unwrap_or_else(|| panic!("{k} in {v}")))
}

fn row<'a>(rows: &'a Value, key: &str, name: &Value) -> &'a Value {
    rows.as_array()
        .unwrap()
        .iter()
        .find(|r| &r[key] == name)
        .unwrap_or_else(|| panic!("no {name} in {rows}"))
}

#[test]
fn figures_equal_what_was_printed_and_survive_gc() {
    let w = World::new();
    let seq_text: String = (1..=3_000).map(|i| format!("{i}\n")).collect();
    let seq = offload(&w, &["seq", "1", "3000"]);
    let fixture = fixture("cargo-test-failures.txt");
    let cat = offload(&w, &["cat", fixture.to_str().unwrap()]);
    let seq_path = saved_path(&seq);
    let seq_ref = seq_path.to_str().unwrap();

    // Read back the first output three ways: a range, a grep, and one that finds nothing.
    let reads = [
        run(&mut w.ctxoff(&["lines", seq_ref, "10:40"])),
        run(&mut w.ctxoff(&["grep", seq_ref, "^29"])),
        run(&mut w.ctxoff(&["grep", "seq_1", "no such line"])),
    ];
    let codes: Vec<Option<i32>> = reads.iter().map(|o| o.status.code()).collect();
    assert_eq!(codes, [Some(0), Some(0), Some(1)]);
    assert!(
        !reads[2].stderr.is_empty(),
        "grep's note on what it searched"
    );
    // A read-back that fails is no read-back.
    let bad = run(&mut w.ctxoff(&["lines", seq_ref, "9000"]));
    assert_eq!(bad.status.code(), Some(2));

    let gc = run(&mut w.ctxoff(&["gc", "--all", "-q"]));
    assert_eq!(gc.status.code(), Some(0), "{}", stderr(&gc));
    assert!(!seq_path.exists());

    let output = [
        reference_tokens(seq_text.as_bytes()),
        reference_tokens(&fs::read(&fixture).unwrap()),
    ];
    let summary = [reference_tokens(&seq.stdout), reference_tokens(&cat.stdout)];
    let read_back: u64 = reads.iter().map(printed_tokens).sum();
    let stats = stats_json(&w, &[]);
    let totals = &stats["totals"];
    assert_eq!(
        counts(totals),
        [
            2,
            output.iter().sum(),
            summary.iter().sum(),
            3,
            read_back,
            1
        ]
    );
    let kept = output.iter().sum::<u64>() - summary.iter().sum::<u64>() - read_back;
    assert_eq!(totals["kept_tokens"], kept);
    assert_eq!(totals["read_back_rate"], 0.5);

    let seq_row = row(&stats["by_command"], "command", &"seq".into());
    assert_eq!(counts(seq_row), [1, output[0], summary[0], 3, read_back, 1]);
    let cat_row = row(&stats["by_command"], "command", &"cat".into());
    assert_eq!(counts(cat_row), [1, output[1], summary[1], 0, 0, 0]);

    // By shape, the most read back first: the unrecognised seq output, then cargo test.
    let shapes: Vec<&Value> = stats["by_shape"].as_array().unwrap().iter().collect();
    assert_eq!(shapes.len(), 2, "{}", stats["by_shape"]);
    assert_eq!(shapes[0]["shapes"], serde_json::json!([]));
    assert_eq!(shapes[1]["shapes"], serde_json::json!(["cargo test"]));
    assert_eq!(shapes[1]["read_back_rate"], 0.0);
}

#[test]
fn human_figures_say_the_same() {
    let w = World::new();
    let seq = offload(&w, &["seq", "1", "2000"]);
    let path = saved_path(&seq);
    let read = run(&mut w.ctxoff(&["lines", path.to_str().unwrap(), "1:5"]));
    let (output, summary, read_back) = (
        reference_tokens(&fs::read(&path).unwrap()),
        reference_tokens(&seq.stdout),
        printed_tokens(&read),
    );
    let kept = output - summary - read_back;
    let out = run(&mut w.ctxoff(&["stats"]));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(stderr(&out), "");
    let pct = |n: u64| format!("{:.1}%", n as f64 * 100.0 / output as f64);
    let width = thousands(output).len().max("100.0%".len());
    let line = |name: &str, value: String, note: String| {
        format!("{name:<20} {value:>width$}   {note}")
            .trim_end()
            .to_string()
    };
    let table = |title: &str, name: &str| {
        let cells = [
            [
                title,
                "offloads",
                "output",
                "summary",
                "read-back",
                "kept",
                "read back",
            ]
            .map(String::from),
            [
                name.to_string(),
                "1".into(),
                thousands(output),
                thousands(summary),
                thousands(read_back),
                thousands(kept),
                "1 (100.0%)".into(),
            ],
        ];
        let widths: Vec<usize> = (0..7)
            .map(|i| cells.iter().map(|r| r[i].chars().count()).max().unwrap())
            .collect();
        cells
            .iter()
            .map(|r| {
                let mut l = format!("  {:<w$}", r[0], w = widths[0]);
                for (c, w) in r.iter().zip(&widths).skip(1) {
                    l.push_str(&format!("  {c:>w$}"));
                }
                l + "\n"
            })
            .collect::<String>()
    };
    let expected = [
        "ctxoff stats · all days · all sessions · o200k_base tokens".to_string(),
        String::new(),
        line("offloads", "1".into(), String::new()),
        line("output tokens", thousands(output), String::new()),
        line(
            "summary tokens",
            thousands(summary),
            format!("{} of output", pct(summary)),
        ),
        line(
            "read-back tokens",
            thousands(read_back),
            format!("1 read-back, {} of output", pct(read_back)),
        ),
        line(
            "kept out of context",
            thousands(kept),
            format!("{} of output", pct(kept)),
        ),
        line(
            "read-back rate",
            "100.0%".into(),
            "1 of 1 offload read back".into(),
        ),
        String::new(),
        "by command".into(),
        table("command", "seq"),
        "by output shape, most read back first".into(),
        table("shape", "(not recognised)"),
    ]
    .join("\n");
    assert_eq!(stdout(&out), expected);
}

/// An output a Claude Code hook saved after the fact (PostToolUse) is an offload like run
/// mode's: its summary, the text the hook handed the client, is what the figures count.
#[test]
fn an_offload_by_an_agents_hook_counts_too() {
    let w = World::new();
    let output: String = (1..=3_000).map(|i| format!("{i}\n")).collect();
    let event = serde_json::json!({
        "session_id": "9d0c5e4e-6b1f-4a55-9f3e-0a4f5d1c2b3a", "cwd": "/",
        "permission_mode": "default", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "seq 1 3000", "description": "x"},
        "tool_response": {"stdout": output, "stderr": "", "interrupted": false,
                          "isImage": false, "noOutputExpected": false},
        "tool_use_id": "toolu_1"
    });
    let mut hook = w.ctxoff(&["--threshold", "100", "hook", "claude"]);
    hook.env_remove("CLAUDE_PROJECT_DIR")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = hook.spawn().unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(event.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let answer: Value = serde_json::from_slice(&out.stdout).expect("the hook's answer");
    let summary = answer["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
        .as_str()
        .expect("a summary replaces the output");
    let totals = &stats_json(&w, &[])["totals"];
    assert_eq!(
        counts(totals),
        [
            1,
            reference_tokens(output.as_bytes()),
            reference_tokens(summary.as_bytes()),
            0,
            0,
            0
        ]
    );
}

#[test]
fn pass_through_records_nothing() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["seq", "1", "100"]));
    assert_eq!(out.status.code(), Some(0));
    assert!(!w.history_dir().exists());
    let out = run(&mut w.ctxoff(&["stats"]));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "ctxoff stats · all days · all sessions · o200k_base tokens\n\n\
         no offloads recorded (output that passes through is not recorded: it saves nothing)\n"
    );
}

#[test]
fn the_history_is_private() {
    let w = World::new();
    offload(&w, &["seq", "1", "1000"]);
    let mode = |p: &Path| fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&w.history_dir()), 0o700);
    assert_eq!(mode(&history_file(&w)), 0o600);
    assert_eq!(mode(&w.history_dir().join("history.lock")), 0o600);
}

#[test]
fn session_and_since_narrow_the_figures() {
    let w = World::new();
    offload(&w, &["seq", "1", "1000"]);
    offload(&w, &["--session", "other", "seq", "1", "2000"]);
    let all = stats_json(&w, &[]);
    assert_eq!(all["totals"]["offloads"], 2);
    // CTXOFF_SESSION (set in every world) does not narrow stats; the flag does.
    let other = stats_json(&w, &["--session", "other"]);
    assert_eq!(other["session"], "other");
    assert_eq!(other["totals"]["offloads"], 1);
    let tokens = reference_tokens(
        &(1..=2000)
            .map(|i| format!("{i}\n"))
            .collect::<String>()
            .into_bytes(),
    );
    assert_eq!(other["totals"]["output_tokens"], tokens);
    let today = stats_json(&w, &["--since", "1d"]);
    assert_eq!(today["totals"], all["totals"]);
    assert_eq!(today["by_day"].as_array().unwrap().len(), 1);

    for bad in ["0d", "7", "yesterday", "2025-02-30", "-3d", "3 d"] {
        let out = run(&mut w.ctxoff(&["stats", &format!("--since={bad}")]));
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = stderr(&out);
        assert!(err.starts_with("ctxoff: bad --since"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn concurrent_offloads_and_read_backs_lose_nothing() {
    let w = World::new();
    let first = saved_path(&offload(&w, &["seq", "1", "1000"]));
    let first = first.to_str().unwrap();
    let outs: Vec<Output> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..24)
            .map(|i| {
                let w = &w;
                s.spawn(move || match i % 2 {
                    0 => offload(w, &["seq", "1", &(1000 + i).to_string()]),
                    _ => run(&mut w.ctxoff(&["lines", first, &format!("{i}:{}", i + 50)])),
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    let read_back: u64 = outs.iter().skip(1).step_by(2).map(printed_tokens).sum();
    let output: u64 = std::iter::once(1000)
        .chain((0..24).step_by(2).map(|i| 1000 + i))
        .map(|n| {
            reference_tokens(
                (1..=n)
                    .map(|i| format!("{i}\n"))
                    .collect::<String>()
                    .as_bytes(),
            )
        })
        .sum();
    let stats = stats_json(&w, &[]);
    let totals = &stats["totals"];
    assert_eq!(totals["offloads"], 13);
    assert_eq!(totals["output_tokens"], output);
    assert_eq!(totals["read_backs"], 12);
    assert_eq!(totals["read_back_tokens"], read_back);
    assert_eq!(totals["offloads_read_back"], 1);
    assert_eq!(stats["unreadable_lines"], 0);
    let text = fs::read_to_string(history_file(&w)).unwrap();
    assert_eq!(text.lines().count(), 25);
}

#[test]
fn corrupt_and_foreign_lines_are_skipped_with_one_warning() {
    let w = World::new();
    offload(&w, &["seq", "1", "1000"]);
    let before = stats_json(&w, &[]);
    let history = history_file(&w);
    let mut text = fs::read(&history).unwrap();
    text.extend_from_slice(b"{\"v\":1,\"kind\":\"offload\",\"time\":17\n");
    text.extend_from_slice(b"\xff\xfe not even text\n");
    text.extend_from_slice(b"{\"v\":2,\"kind\":\"offload\"}\n\n");
    fs::write(&history, text).unwrap();
    offload(&w, &["seq", "1", "2000"]);

    let out = run(&mut w.ctxoff(&["stats", "--json"]));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        stderr(&out),
        format!(
            "ctxoff: warning: skipped 3 unreadable lines of {} (corrupt, or of another version; the first is line 2)\n",
            history.display()
        )
    );
    let after: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(after["unreadable_lines"], 3);
    assert_eq!(after["totals"]["offloads"], 2);
    let second = reference_tokens(
        &(1..=2000)
            .map(|i| format!("{i}\n"))
            .collect::<String>()
            .into_bytes(),
    );
    assert_eq!(
        after["totals"]["output_tokens"],
        before["totals"]["output_tokens"].as_u64().unwrap() + second
    );
}

#[test]
fn a_history_that_cannot_be_written_never_fails_a_run() {
    let w = World::new();
    let dir = w.history_dir();
    fs::create_dir_all(dir.parent().unwrap()).unwrap();
    // The same runs where the history works, to compare what was printed.
    let healthy = World::new();
    let cases: [(&str, &dyn Fn()); 4] = [
        ("writable by others", &|| {
            fs::create_dir(&dir).unwrap();
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o777)).unwrap();
        }),
        ("a symbolic link", &|| {
            let elsewhere = w.dir.path().join("elsewhere");
            fs::create_dir(&elsewhere).unwrap();
            fs::set_permissions(&elsewhere, fs::Permissions::from_mode(0o700)).unwrap();
            std::os::unix::fs::symlink(&elsewhere, &dir).unwrap();
        }),
        ("a file's history a symbolic link", &|| {
            fs::create_dir(&dir).unwrap();
            fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
            std::os::unix::fs::symlink("/dev/null", dir.join("history.jsonl")).unwrap();
        }),
        ("not a directory", &|| fs::write(&dir, "").unwrap()),
    ];
    for (i, (what, make)) in cases.into_iter().enumerate() {
        let _ = fs::remove_dir_all(&dir).or_else(|_| fs::remove_file(&dir));
        let _ = fs::remove_dir_all(w.dir.path().join("elsewhere"));
        make();
        let n = (1000 + i).to_string();
        let out = offload(&w, &["seq", "1", &n]);
        assert_eq!(out.status.code(), Some(0), "{what}");
        let expected = offload(&healthy, &["seq", "1", &n]);
        assert_eq!(
            stdout(&out).replace(w.dir.path().to_str().unwrap(), "WORLD"),
            stdout(&expected).replace(healthy.dir.path().to_str().unwrap(), "WORLD"),
            "{what}"
        );
        let read = run(&mut w.ctxoff(&["lines", "@last", "1:3"]));
        assert_eq!(stdout(&read), "1:1\n2:2\n3:3\n", "{what}");
        assert_eq!(stderr(&read), "", "{what}");
        let stats = run(&mut w.ctxoff(&["stats"]));
        assert_eq!(stats.status.code(), Some(2), "{what}");
        let err = stderr(&stats);
        assert!(
            err.starts_with("ctxoff: history not used, so nothing is being recorded: ")
                || err.contains("history.jsonl"),
            "{what}: {err}"
        );
    }
    assert!(!w.dir.path().join("elsewhere/history.jsonl").exists());
}

#[test]
fn folding_old_records_keeps_every_figure() {
    let w = World::new();
    offload(&w, &["seq", "1", "1000"]);
    let history = history_file(&w);
    let day = 86_400;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    // Sixty days of offloads of outputs long gone, each read back once.
    let mut text = String::new();
    for d in 1..=60 {
        let t = now - d * day;
        text.push_str(&format!(
            "{{\"v\":1,\"kind\":\"offload\",\"time\":{t},\"session\":\"old\",\"output\":\"make_{d}\",\"started\":\"s{d}\",\"path\":\"{}/gone/make_{d}.txt\",\"command\":\"make\",\"shapes\":[],\"encoding\":\"o200k_base\",\"output_tokens\":{},\"summary_tokens\":100}}\n",
            w.dir.path().display(),
            5_000 + d
        ));
        text.push_str(&format!(
            "{{\"v\":1,\"kind\":\"read\",\"time\":{},\"session\":\"old\",\"output\":\"make_{d}\",\"started\":\"s{d}\",\"via\":\"grep\",\"encoding\":\"o200k_base\",\"tokens\":{d}}}\n",
            t + 60
        ));
    }
    text.push_str(&fs::read_to_string(&history).unwrap());
    fs::write(&history, &text).unwrap();
    let periods = [None, Some("7d"), Some("20d"), Some("45d")];
    let figures = |since: Option<&str>| match since {
        None => stats_json(&w, &[]),
        Some(since) => stats_json(&w, &["--since", since]),
    };
    let before: Vec<Value> = periods.iter().map(|p| figures(*p)).collect();
    assert_eq!(before[0]["totals"]["offloads"], 61);
    assert_eq!(before[1]["totals"]["offloads"], 7);

    // The last fold was two days ago: the next record folds.
    set_age(
        &w.history_dir().join("history.lock"),
        std::time::Duration::from_secs(2 * day as u64),
    );
    let new = offload(&w, &["seq", "1", "1001"]);
    let folded = fs::read_to_string(&history).unwrap();
    // At most a line of totals for each of the 46 days folded, 14 days of records kept (an
    // offload and a read-back each), and today's two offloads.
    assert!(folded.lines().count() <= 46 + 2 * 14 + 2, "{folded}");
    assert!(folded.contains("\"kind\":\"day\""), "{folded}");
    let added = reference_tokens(
        &(1..=1001)
            .map(|i| format!("{i}\n"))
            .collect::<String>()
            .into_bytes(),
    );
    // Every period's figures are what they were, plus the new offload.
    for (since, before) in periods.iter().zip(&before) {
        let after = figures(*since);
        let (a, b) = (&after["totals"], &before["totals"]);
        assert_eq!(
            a["offloads"],
            b["offloads"].as_u64().unwrap() + 1,
            "{since:?}"
        );
        let tokens = b["output_tokens"].as_u64().unwrap() + added;
        assert_eq!(a["output_tokens"], tokens, "{since:?}");
        let summary = b["summary_tokens"].as_u64().unwrap() + reference_tokens(&new.stdout);
        assert_eq!(a["summary_tokens"], summary, "{since:?}");
        assert_eq!(
            a["offloads_read_back"], b["offloads_read_back"],
            "{since:?}"
        );
        assert_eq!(a["read_backs"], b["read_backs"], "{since:?}");
        assert_eq!(a["read_back_tokens"], b["read_back_tokens"], "{since:?}");
        // Every day but today (which has the new offload) is as it was.
        let days = |v: &Value| {
            let mut days = v["by_day"].as_array().unwrap().clone();
            days.pop();
            days
        };
        assert_eq!(days(&after), days(before), "{since:?}");
    }
}
