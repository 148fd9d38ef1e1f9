//! Snapshot tests of the summary format (SPEC §3: "keep them stable once released, and
//! snapshot-test them"): the real binary runs `ctxoff --threshold 200 cat FIXTURE` on corpus
//! files with the default preview, and its whole stdout must equal
//! `tests/fixtures/snapshots/NAME.txt`, the temporary scratch root replaced by `$ROOT`.
//! `--json` snapshots are pretty-printed (one key per line, so a change reads as a small diff);
//! the output itself must be one line. After an intended change of format, regenerate with:
//!
//!     CTXOFF_REGENERATE=1 cargo test --test integration summary
//!
//! and read the diff of `tests/fixtures/snapshots/` before committing it.

use std::path::{Path, PathBuf};

use crate::support::{World, fixture, run, stderr, stdout};

/// Low enough that every fixture here is offloaded, the smallest included.
const THRESHOLD: &str = "200";

fn snapshot_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/snapshots")
        .join(format!("{name}.txt"))
}

/// `ctxoff [EXTRA…] --threshold 200 cat FILE` run in the corpus directory, so the header names
/// the file as typed; the root replaced by `$ROOT`.
fn summary(file: &str, extra: &[&str]) -> String {
    let world = World::new();
    let mut args = extra.to_vec();
    // `cat` reads content, which passes through up to the content limit: held at the threshold
    // here, so these stay summaries.
    args.extend([
        "--threshold",
        THRESHOLD,
        "--content-limit",
        THRESHOLD,
        "cat",
        file,
    ]);
    let mut cmd = world.ctxoff(&args);
    cmd.current_dir(fixture(""));
    let out = run(&mut cmd);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
    let root = world.root().to_string_lossy().into_owned();
    stdout(&out).replace(&root, "$ROOT")
}

/// Compares `actual` with the snapshot `name`, or writes it when regenerating.
fn check(name: &str, actual: &str) {
    let path = snapshot_path(name);
    if std::env::var_os("CTXOFF_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().expect("snapshot dir")).expect("snapshot dir");
        std::fs::write(&path, actual).expect("write snapshot");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    if expected == actual {
        return;
    }
    let first_difference = expected
        .lines()
        .zip(actual.lines())
        .position(|(e, a)| e != a)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    panic!(
        "summary differs from {} at line {} (regenerate: CTXOFF_REGENERATE=1 cargo test \
         --test integration summary)\n--- expected\n{}\n--- actual\n{}",
        path.display(),
        first_difference + 1,
        expected.lines().nth(first_difference).unwrap_or("<end>"),
        actual.lines().nth(first_difference).unwrap_or("<end>"),
    );
}

fn text_snapshot(file: &str, name: &str) {
    check(name, &summary(file, &[]));
}

fn json_snapshot(file: &str, name: &str) {
    let out = summary(file, &["--json"]);
    assert_eq!(out.matches('\n').count(), 1, "one line of JSON: {out}");
    let value: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let mut pretty = serde_json::to_string_pretty(&value).expect("JSON");
    pretty.push('\n');
    check(name, &pretty);
}

#[test]
fn cargo_test_failures() {
    text_snapshot("cargo-test-failures.txt", "cargo-test-failures");
}

#[test]
fn cargo_build_errors_ansi() {
    text_snapshot("cargo-build-errors-ansi.txt", "cargo-build-errors-ansi");
}

#[test]
fn pytest_collection_error() {
    text_snapshot("pytest-collection-error.txt", "pytest-collection-error");
}

#[test]
fn pytest_failures() {
    text_snapshot("pytest-failures.txt", "pytest-failures");
}

#[test]
fn vitest_failures() {
    text_snapshot("vitest-failures.txt", "vitest-failures");
}

#[test]
fn jest_failures() {
    text_snapshot("jest-failures.txt", "jest-failures");
}

#[test]
fn tsc_errors_pretty() {
    text_snapshot("tsc-errors-pretty.txt", "tsc-errors-pretty");
}

#[test]
fn gcc_errors() {
    text_snapshot("gcc-errors.txt", "gcc-errors");
}

#[test]
fn rg_ripgrep_fn_struct() {
    text_snapshot("rg-ripgrep-fn-struct.txt", "rg-ripgrep-fn-struct");
}

#[test]
fn grep_rn_context() {
    text_snapshot("grep-rn-context.txt", "grep-rn-context");
}

#[test]
fn cargo_metadata_json() {
    text_snapshot("cargo-metadata-fd.json", "cargo-metadata-fd");
}

#[test]
fn cargo_check_json_lines() {
    text_snapshot("cargo-check-fd.jsonl", "cargo-check-fd");
}

#[test]
fn cargo_build_errors_json_lines() {
    text_snapshot("cargo-build-errors.jsonl", "cargo-build-errors-jsonl");
}

#[test]
fn png_binary() {
    text_snapshot("png-fd-logo.bin", "png-fd-logo");
}

#[test]
fn git_log_stat() {
    text_snapshot("git-log-stat-tokio.txt", "git-log-stat-tokio");
}

#[test]
fn tqdm_progress() {
    text_snapshot("tqdm-progress-synthetic.txt", "tqdm-progress-synthetic");
}

#[test]
fn json_cargo_test_failures() {
    json_snapshot("cargo-test-failures.txt", "cargo-test-failures--json");
}

#[test]
fn json_pytest_collection_error() {
    json_snapshot(
        "pytest-collection-error.txt",
        "pytest-collection-error--json",
    );
}

/// Paths under the directory the command ran in are shown from it on in the failures, as the
/// reader who runs commands there names them (`File "pyflakes/reporter.py"`), run or piped;
/// the head and tail stay as printed.
#[test]
fn failures_show_paths_from_the_working_directory() {
    let world = World::new();
    let project = world.dir.path().join("pyflakes-4.1.0");
    std::fs::create_dir(&project).expect("project dir");
    let output = std::fs::read_to_string(fixture("../corpus4/unittest-v-pyflakes.txt"))
        .expect("fixture")
        .replace("/home/dev/pyflakes-4.1.0", &project.to_string_lossy());
    std::fs::write(project.join("out.txt"), output).expect("output");
    let ran = ["--threshold", THRESHOLD, "sh", "-c", "cat out.txt; exit 1"];
    let piped = world.sh("cat out.txt | ctxoff --threshold 200 --name unittest");
    for mut cmd in [world.ctxoff(&ran), piped] {
        cmd.current_dir(&project);
        let out = run(&mut cmd);
        let summary = stdout(&out);
        let failures = summary
            .split_once("[ctxoff] failed tests")
            .map(|(_, rest)| rest)
            .expect("failures listed");
        assert!(
            failures.contains("File \"pyflakes/reporter.py\", line 57, in syntaxError"),
            "{summary}"
        );
        assert!(!failures.contains(&*project.to_string_lossy()), "{summary}");
    }
}
