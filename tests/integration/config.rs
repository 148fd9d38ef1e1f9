//! Settings precedence (flags > environment > config file > defaults) and config errors.

use crate::support::*;

fn write_config(w: &World, text: &str) {
    std::fs::write(w.config(), text).unwrap();
}

/// Offloads iff the threshold in force is below the 7 tokens of this output.
fn offloads(cmd: &mut std::process::Command) -> bool {
    let out = run(cmd.args(["echo", "a", "b", "c", "d", "e", "f"]));
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).starts_with("[ctxoff]")
}

#[test]
fn threshold_precedence_is_flag_then_env_then_file_then_default() {
    let w = World::new();
    assert!(!offloads(&mut w.ctxoff(&[])), "default 2,500");
    write_config(&w, "threshold = 3\n");
    assert!(offloads(&mut w.ctxoff(&[])), "file beats default");
    assert!(
        !offloads(w.ctxoff(&[]).env("CTXOFF_THRESHOLD", "100")),
        "env beats file"
    );
    assert!(
        offloads(
            w.ctxoff(&["--threshold", "3"])
                .env("CTXOFF_THRESHOLD", "100")
        ),
        "flag beats env"
    );
}

#[test]
fn dir_and_encoding_come_from_the_file() {
    let w = World::new();
    let elsewhere = w.dir.path().join("elsewhere");
    write_config(
        &w,
        &format!(
            "dir = {:?}\nencoding = \"cl100k_base\"\nthreshold = 3\n",
            elsewhere
        ),
    );
    let out = run(w
        .ctxoff(&["echo", "a", "b", "c", "d", "e", "f"])
        .env_remove("CTXOFF_DIR"));
    assert!(
        stdout(&out).contains(&elsewhere.join("test/echo_1.txt").display().to_string()),
        "{}",
        stdout(&out)
    );
    let entry = std::fs::read_to_string(elsewhere.join("test/index.jsonl")).unwrap();
    assert!(entry.contains("\"encoding\":\"cl100k_base\""), "{entry}");
}

#[test]
fn the_encoding_changes_counts() {
    let w = World::new();
    // "  \t" style runs differ between the two vocabularies; this text is 5 vs 4 tokens.
    let text = "ĠHello wörld 👋🏽 \n";
    let o200k = tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len();
    let cl100k = tiktoken_rs::cl100k_base_singleton()
        .encode_ordinary(text)
        .len();
    assert_ne!(o200k, cl100k);
    let file = w.dir.path().join("t.txt");
    std::fs::write(&file, text).unwrap();
    let count = |args: &[&str]| {
        let out = run(w.ctxoff(args).arg(&file));
        stdout(&out)
            .split_whitespace()
            .next()
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    assert_eq!(count(&["count"]), o200k);
    assert_eq!(count(&["--encoding", "cl100k_base", "count"]), cl100k);
    write_config(&w, "encoding = \"cl100k_base\"\n");
    assert_eq!(count(&["count"]), cl100k);
}

#[test]
fn config_errors_are_one_line_exit_2_before_the_command_runs() {
    let w = World::new();
    let marker = w.dir.path().join("ran");
    let cases: &[(&str, &str)] = &[
        (
            "threshold = \"lots\"\n",
            "line 1: invalid type: string \"lots\", expected u64",
        ),
        ("treshold = 5\n", "line 1: unknown field `treshold`"),
        (
            "encoding = \"gpt9\"\n",
            "key `encoding`: unknown encoding 'gpt9' (expected o200k_base or cl100k_base)",
        ),
        ("threshold = 5\nthreshold = 6\n", "line 2: duplicate key"),
        ("this is not toml\n", "line 1: "),
        (
            "keep = \"git diff\"\n",
            "line 1: invalid type: string \"git diff\", expected a sequence",
        ),
    ];
    for (text, expected) in cases {
        write_config(&w, text);
        let out = run(w.ctxoff(&["touch"]).arg(&marker));
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{text}: {err}");
        assert!(
            err.starts_with(&format!("ctxoff: config {}: ", w.config().display())),
            "{err}"
        );
        assert!(err.contains(expected), "{text}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!marker.exists(), "{text}: the command ran");
    }
}

#[test]
fn a_missing_config_named_by_the_environment_is_an_error() {
    let w = World::new();
    let missing = w.dir.path().join("missing.toml");
    let out = run(w.ctxoff(&["true"]).env("CTXOFF_CONFIG", &missing));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with(&format!("ctxoff: cannot read config {}", missing.display())),
        "{}",
        stderr(&out)
    );
}

#[test]
fn keep_patterns_are_never_offloaded() {
    let w = World::new();
    write_config(&w, "threshold = 3\nkeep = [\"echo a*\"]\n");
    let out = run(&mut w.ctxoff(&["echo", "a", "b", "c", "d", "e", "f"]));
    assert_eq!(stdout(&out), "a b c d e f\n");
    let out = run(&mut w.ctxoff(&["echo", "b", "c", "d", "e", "f", "g"]));
    assert!(stdout(&out).starts_with("[ctxoff]"), "not kept: offloaded");
}

#[test]
fn count_prints_tokens_like_wc() {
    let w = World::new();
    let a = fixture("cargo-test-failures.txt");
    let b = fixture("pytest-failures.txt");
    let out = run(w.ctxoff(&["count"]).arg(&a).arg(&b));
    let ta = reference_tokens(&std::fs::read(&a).unwrap());
    let tb = reference_tokens(&std::fs::read(&b).unwrap());
    assert_eq!(
        stdout(&out),
        format!(
            "{ta:>10} {}\n{tb:>10} {}\n{:>10} total\n",
            a.display(),
            b.display(),
            ta + tb
        )
    );
    let out = run(&mut w.sh(&format!("ctxoff count < {}", a.display())));
    assert_eq!(stdout(&out), format!("{ta:>10} -\n"));
    let out = run(&mut w.ctxoff(&["count", "/no/such/file"]));
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("ctxoff: /no/such/file: "),
        "{}",
        stderr(&out)
    );
}
