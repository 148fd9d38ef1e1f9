//! Fixture tests: every fact produced for the corpus equals the ground truth of
//! `tests/fixtures/corpus/MANIFEST.md`; memory stays bounded on 100 MB inputs; counts agree
//! with direct counts (property tests).

use std::path::PathBuf;

use super::{Analysis, NotablePatterns, Report};
use crate::text::clean_line;

fn corpus(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Feeds `bytes` as the capture pipeline does: raw chunks of an awkward size, then each line
/// display-cleaned and numbered. Returns the analysis and the number of lines.
fn feed(bytes: &[u8], max_tail_lines: u64) -> (Analysis, u64) {
    let mut analysis = Analysis::new(&NotablePatterns::default(), max_tail_lines);
    for chunk in bytes.chunks(4093) {
        analysis.raw(chunk);
    }
    let mut n = 0;
    let mut lines = bytes.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        if lines.peek().is_none() && line.is_empty() {
            break;
        }
        n += 1;
        analysis.line(n, &clean_line(line));
    }
    (analysis, n)
}

fn facts(name: &str) -> Report {
    feed(&corpus(name), 0).0.finish(None)
}

fn fact(report: &Report, shape: &str) -> serde_json::Value {
    let facts = report.facts_json();
    let found: Vec<&serde_json::Value> = facts.as_array().unwrap().iter().filter(|f| f["shape"] == shape).collect();
    assert_eq!(found.len(), 1, "one {shape} fact expected in {facts:#}");
    found[0].clone()
}

fn shapes(report: &Report) -> Vec<String> {
    report.facts_json().as_array().unwrap().iter().map(|f| f["shape"].as_str().unwrap().to_owned()).collect()
}

/// The rendered line starting with `prefix` (after `[ctxoff] `).
fn rendered(report: &Report, prefix: &str) -> String {
    let lines = report.render();
    lines
        .iter()
        .find_map(|l| l.strip_prefix("[ctxoff] ").filter(|l| l.starts_with(prefix)))
        .unwrap_or_else(|| panic!("no `{prefix}` line in {lines:#?}"))
        .to_owned()
}

fn json_u64(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

// ---- compilers ----

#[test]
fn cargo_build_errors_plain_and_ansi() {
    for name in ["cargo-build-errors.txt", "cargo-build-errors-ansi.txt"] {
        let r = facts(name);
        assert_eq!(shapes(&r), ["rustc"], "{name}");
        let f = fact(&r, "rustc");
        assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (7, 4));
        assert_eq!(f["first_error"], "src/item.rs:23:20: error[E0308]: mismatched types");
        assert_eq!(f["first_warning"], "src/main.rs:2:5: warning: unused import: `std::fmt::Write as _`");
        assert_eq!(
            f["error_locations"],
            serde_json::json!(["src/item.rs:23:20", "src/item.rs:23:9", "src/item.rs:23:18", "src/report.rs:22:32", "src/main.rs:43:24"])
        );
        assert_eq!(f["codes"], serde_json::json!({"E0308": 3, "E0277": 2, "E0382": 1, "E0502": 1}));
        assert_eq!(rendered(&r, "rustc:"), "rustc: 7 errors, 4 warnings; codes: E0308 ×3, E0277 ×2, E0382 ×1, E0502 ×1");
    }
}

#[test]
fn cargo_test_compile_error_has_no_test_counts() {
    let r = facts("cargo-test-compile-error.txt");
    assert_eq!(shapes(&r), ["rustc"]);
    let f = fact(&r, "rustc");
    assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (2, 0));
    assert_eq!(f["first_error"], "tests/cli_cases.rs:167:18: error[E0308]: mismatched types");
    assert_eq!(f["error_locations"], serde_json::json!(["tests/cli_cases.rs:167:18", "tests/cli_cases.rs:173:28"]));
}

#[test]
fn clippy_warnings_only() {
    let r = facts("cargo-clippy-pedantic.txt");
    assert_eq!(shapes(&r), ["rustc"]);
    let f = fact(&r, "rustc");
    assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (0, 57));
    assert_eq!(f["first_warning"], "src/cli.rs:32:1: warning: more than 3 bools in a struct");
    assert!(f["first_error"].is_null());
}

#[test]
fn gcc_errors() {
    let r = facts("gcc-errors.txt");
    assert_eq!(shapes(&r), ["gcc"]);
    let f = fact(&r, "gcc");
    assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"]), json_u64(&f["notes"])), (4, 10, 2));
    assert_eq!(f["first_error"], "src/ringbuf.c:49:13: error: assignment of member ‘len’ in read-only object");
    assert!(f["first_warning"].as_str().unwrap().starts_with(
        "src/ringbuf.c:25:19: warning: comparison of integer expressions of different signedness: ‘int’ and ‘size_t’"
    ));
    assert_eq!(f["files"], serde_json::json!({"src/ringbuf.c": 6, "src/main.c": 8}));
    assert_eq!(
        f["error_locations"],
        serde_json::json!(["src/ringbuf.c:49:13", "src/ringbuf.c:58:5", "src/main.c:29:25", "src/main.c:32:12"])
    );
}

#[test]
fn tsc_errors_plain_and_pretty() {
    for name in ["tsc-errors.txt", "tsc-errors-pretty.txt"] {
        let r = facts(name);
        assert_eq!(shapes(&r), ["tsc"], "{name}");
        let f = fact(&r, "tsc");
        assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (9, 0));
        assert_eq!(
            f["first_error"],
            "src/http.ts:30:43: error TS2366: Function lacks ending return statement and return type does not include 'undefined'."
        );
        assert_eq!(f["files"], serde_json::json!({"src/http.ts": 2, "src/index.ts": 3, "src/users.ts": 4}));
        assert_eq!(
            f["codes"],
            serde_json::json!({"TS2322": 2, "TS2366": 1, "TS6133": 1, "TS2554": 1, "TS2339": 1, "TS2345": 1, "TS18048": 1, "TS7006": 1})
        );
    }
}

// ---- test runners ----

#[test]
fn cargo_test_failures_verbose_and_quiet() {
    for name in ["cargo-test-failures.txt", "cargo-test-quiet.txt"] {
        let r = facts(name);
        assert_eq!(shapes(&r), ["cargo test"], "{name}");
        let f = fact(&r, "cargo test");
        let counts = ["binaries", "run", "passed", "failed", "ignored", "measured"].map(|k| json_u64(&f[k]));
        assert_eq!(counts, [2, 255, 251, 4, 3, 0], "{name}");
        assert_eq!(
            f["failing"],
            serde_json::json!(["count_nbsp", "roman_table_lookup", "title_case_hyphenated", "truncate_zero_width"])
        );
        assert_eq!(json_u64(&f["stopped_binaries"]), 0);
        assert_eq!(
            rendered(&r, "tests:"),
            "tests: 255 run, 251 passed, 4 failed, 3 ignored (2 cargo test binaries): count_nbsp, roman_table_lookup, title_case_hyphenated, truncate_zero_width"
        );
    }
}

#[test]
fn cargo_test_pass() {
    let r = facts("cargo-test-pass.txt");
    let f = fact(&r, "cargo test");
    let counts = ["binaries", "run", "passed", "failed", "ignored"].map(|k| json_u64(&f[k]));
    assert_eq!(counts, [3, 260, 260, 0, 3]);
    assert_eq!(rendered(&r, "tests:"), "tests: 260 run, 260 passed, 0 failed, 3 ignored (3 cargo test binaries)");
}

#[test]
fn cargo_test_stack_overflow_invents_no_totals() {
    let r = facts("cargo-test-stack-overflow.txt");
    assert_eq!(shapes(&r), ["cargo test"]);
    let f = fact(&r, "cargo test");
    assert_eq!(json_u64(&f["binaries"]), 0);
    assert_eq!(json_u64(&f["stopped_binaries"]), 1);
    assert_eq!(f["overflowed"], "tests::simplify_add_zero_left");
    let lines = r.render();
    assert_eq!(
        lines,
        ["[ctxoff] tests: a test binary stopped before its result line (running 23 tests, 22 reported ok); thread 'tests::simplify_add_zero_left' overflowed its stack"]
    );
}

#[test]
fn pytest_collection_error_is_a_failure_not_no_tests() {
    let r = facts("pytest-collection-error.txt");
    assert_eq!(shapes(&r), ["pytest"]);
    let f = fact(&r, "pytest");
    assert_eq!(["run", "passed", "failed", "errors"].map(|k| json_u64(&f[k])), [0, 0, 0, 1]);
    assert_eq!(f["interrupted"], "1 error during collection");
    assert_eq!(f["error_names"], serde_json::json!(["tests/test_units.py"]));
    let line = rendered(&r, "tests:");
    assert_eq!(line, "tests: 0 run, 0 passed, 0 failed, 1 error (pytest, interrupted: 1 error during collection); errors: tests/test_units.py");
    assert!(!line.contains("no tests"));
}

const PYTEST_FAILING: [&str; 3] = [
    "tests/test_area.py::test_polygon_area[points3-12.0]",
    "tests/test_perimeter.py::test_is_square[0.30000000000000004-0.3-True]",
    "tests/test_perimeter.py::test_polygon_perimeter_is_rounded",
];

#[test]
fn pytest_failures_default_tb_line_and_quiet() {
    for (name, errors) in [("pytest-failures.txt", 1), ("pytest-tb-line.txt", 1), ("pytest-q.txt", 0)] {
        let r = facts(name);
        assert_eq!(shapes(&r), ["pytest"], "{name}");
        let f = fact(&r, "pytest");
        assert_eq!(["run", "passed", "failed", "errors"].map(|k| json_u64(&f[k])), [62, 59, 3, errors], "{name}");
        assert_eq!(f["failing"], serde_json::json!(PYTEST_FAILING), "{name}");
        if errors == 1 {
            assert_eq!(f["error_names"], serde_json::json!(["tests/test_units.py"]));
        }
        assert!(f["interrupted"].is_null());
    }
}

#[test]
fn jest_failures() {
    let r = facts("jest-failures.txt");
    assert_eq!(shapes(&r), ["jest"]);
    let f = fact(&r, "jest");
    let counts = ["run", "passed", "failed", "skipped", "todo", "total", "suites_failed", "suites_total"].map(|k| json_u64(&f[k]));
    assert_eq!(counts, [38, 35, 3, 1, 0, 39, 3, 3]);
    let mut failing: Vec<&str> = f["failing"].as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
    failing.sort();
    assert_eq!(
        failing,
        [
            r#"__tests__/case.test.js › snakeCase › snakeCase("XMLHttpRequest") -> "xml_http_request""#,
            "__tests__/text.test.js › pad › multi-char fill",
            "__tests__/text.test.js › template › renders a greeting for every user",
        ]
    );
    assert_eq!(f["suites_not_run"], serde_json::json!(["__tests__/slug.test.js"]));
}

#[test]
fn vitest_failures() {
    let r = facts("vitest-failures.txt");
    assert_eq!(shapes(&r), ["vitest"]);
    let f = fact(&r, "vitest");
    let counts = ["run", "passed", "failed", "skipped", "todo", "total", "files_failed", "files_total"].map(|k| json_u64(&f[k]));
    assert_eq!(counts, [39, 35, 4, 1, 1, 41, 3, 3]);
    assert_eq!(
        f["failing"],
        serde_json::json!([
            "test/cart.test.ts > Cart > applies discount code SAVE10",
            "test/checkout.test.ts > checkout > rejects mixing currencies in one cart",
            "test/checkout.test.ts > checkout > rounds half-cent prices",
            "test/money.test.ts > money() > money(1.005) has 101 cents",
        ])
    );
}

/// SYNTHETIC fixture (hand-written in the shape of `go test -v ./...` output; no Go toolchain
/// here): 2 packages ok, 2 failed, 1 without test files; 7 passed, 3 failed (one a subtest),
/// 1 skipped.
#[test]
fn go_test_verbose_synthetic() {
    let bytes = include_bytes!("testdata/go-test-v-synthetic.txt");
    let r = feed(bytes, 0).0.finish(None);
    assert_eq!(shapes(&r), ["go test"]);
    let f = fact(&r, "go test");
    let counts = ["passed", "failed", "skipped", "packages_ok", "packages_failed", "packages_without_tests"].map(|k| json_u64(&f[k]));
    assert_eq!(counts, [7, 3, 1, 2, 2, 1]);
    assert_eq!(f["failing"], serde_json::json!(["TestParse", "TestParse/nested", "TestEvalDivZero"]));
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 10 run, 7 passed, 3 failed, 1 skipped (go test: 2 packages ok, 2 failed, 1 without test files): TestParse, TestParse/nested, TestEvalDivZero"
    );
}

#[test]
fn go_test_without_v_counts_only_failures() {
    let text = "--- FAIL: TestX (0.00s)\n    x_test.go:3: boom\nFAIL\nFAIL\texample.com/x\t0.002s\nok  \texample.com/y\t0.001s\nFAIL\n";
    let r = feed(text.as_bytes(), 0).0.finish(None);
    assert_eq!(rendered(&r, "tests:"), "tests: 1 failed (go test: 1 package ok, 1 failed): TestX");
}

// ---- grep ----

fn assert_grep(name: &str, matches: u64, files: u64, top: &[(&str, u64)]) -> serde_json::Value {
    let r = facts(name);
    assert_eq!(shapes(&r), ["grep"], "{name}");
    let f = fact(&r, "grep");
    assert_eq!((json_u64(&f["matches"]), json_u64(&f["files"])), (matches, files), "{name}");
    let top_json: Vec<serde_json::Value> = top.iter().map(|(p, n)| serde_json::json!({"path": p, "matches": n})).collect();
    assert_eq!(f["top_files"], serde_json::json!(top_json), "{name}");
    f
}

#[test]
fn grep_shapes() {
    assert_grep("rg-fd-unwrap.txt", 91, 8, &[("tests/tests.rs", 36), ("src/filter/time.rs", 26), ("src/exec/mod.rs", 11)]);
    assert_grep(
        "rg-ripgrep-fn-struct.txt",
        3_365,
        91,
        &[("crates/core/flags/defs.rs", 1020), ("crates/printer/src/standard.rs", 176), ("crates/ignore/src/walk.rs", 171)],
    );
    assert_grep(
        "rg-tokio-defs.txt",
        25_606,
        767,
        &[("tokio/tests/sync_mpsc.rs", 330), ("tokio/tests/rt_common.rs", 281), ("tokio/src/net/windows/named_pipe.rs", 255)],
    );
    assert_grep(
        "grep-rn-clap-assert.txt",
        4_291,
        148,
        &[("./tests/builder/multiple_values.rs", 312), ("./tests/builder/help.rs", 181), ("./clap_builder/src/builder/arg.rs", 179)],
    );
    let f = assert_grep("grep-rn-binary-matches.txt", 42, 2, &[("./src/lib.rs", 35), ("./tests/cli_cases.rs", 7)]);
    assert_eq!(json_u64(&f["binary_files"]), 30);
    let f = assert_grep("grep-rn-context.txt", 91, 8, &[("tests/tests.rs", 36), ("src/filter/time.rs", 26), ("src/exec/mod.rs", 11)]);
    assert_eq!((json_u64(&f["context_lines"]), json_u64(&f["separators"])), (276, 52));
    let f = assert_grep(
        "rg-heading-unsafe-impl.txt",
        127,
        44,
        &[("tokio/src/sync/rwlock.rs", 14), ("tokio/src/runtime/task/mod.rs", 8), ("tokio/src/sync/mutex.rs", 8)],
    );
    assert_eq!(f["layout"], "heading");
    assert_eq!(
        rendered(&facts("rg-ripgrep-fn-struct.txt"), "grep:"),
        "grep: 3,365 matching lines in 91 files; most: crates/core/flags/defs.rs 1,020, crates/printer/src/standard.rs 176, crates/ignore/src/walk.rs 171"
    );
}

// ---- JSON ----

#[test]
fn json_documents() {
    let r = facts("cargo-metadata-fd.json");
    assert!(r.is_json_document());
    assert_eq!(shapes(&r), ["json"]);
    let f = fact(&r, "json");
    assert_eq!((f["type"].as_str(), json_u64(&f["length"])), (Some("object"), 9));
    let keys: Vec<&str> = f["keys"].as_array().unwrap().iter().map(|k| k["key"].as_str().unwrap()).collect();
    assert_eq!(
        keys,
        [
            "packages", "workspace_members", "workspace_default_members", "resolve", "target_directory", "build_directory",
            "version", "workspace_root", "metadata"
        ]
    );
    assert_eq!(f["keys"][0], serde_json::json!({"key": "packages", "type": "array", "length": 125}));
    assert_eq!(f["keys"][1], serde_json::json!({"key": "workspace_members", "type": "array", "length": 1}));

    let r = facts("npm-ls-all.json");
    assert!(r.is_json_document());
    let f = fact(&r, "json");
    assert_eq!(json_u64(&f["length"]), 3);
    assert_eq!(f["keys"][2], serde_json::json!({"key": "dependencies", "type": "object", "length": 2}));
    assert_eq!(
        rendered(&r, "JSON"),
        "JSON: object with 3 keys: version (string), name (string), dependencies (object, 2 keys)"
    );

    let r = facts("pip-list.json");
    assert!(r.is_json_document());
    let f = fact(&r, "json");
    assert_eq!((f["type"].as_str(), json_u64(&f["length"])), (Some("array"), 99));
    assert_eq!(f["elements"]["kinds"], serde_json::json!({"object": 99}));
    assert_eq!(f["elements"]["keys"], serde_json::json!({"name": 99, "version": 99}));
    assert_eq!(rendered(&r, "JSON"), "JSON: array of 99 items (all objects); keys: name 99, version 99");
}

#[test]
fn json_lines() {
    let cases: [(&str, u64, serde_json::Value, &str, serde_json::Value); 3] = [
        (
            "cargo-build-errors.jsonl",
            14,
            serde_json::json!({"reason": 14, "package_id": 13, "manifest_path": 13, "target": 13, "message": 13, "success": 1}),
            "reason",
            serde_json::json!({"compiler-message": 13, "build-finished": 1}),
        ),
        (
            "cargo-check-fd.jsonl",
            71,
            serde_json::json!({"reason": 71, "package_id": 70, "manifest_path": 62, "target": 62, "profile": 62, "features": 62,
                "filenames": 62, "executable": 62, "fresh": 62, "linked_libs": 8, "linked_paths": 8, "cfgs": 8, "env": 8,
                "out_dir": 8, "success": 1}),
            "reason",
            serde_json::json!({"compiler-artifact": 62, "build-script-executed": 8, "build-finished": 1}),
        ),
        (
            "rg-json-todo.jsonl",
            176,
            serde_json::json!({"type": 176, "data": 176}),
            "type",
            serde_json::json!({"match": 77, "begin": 49, "end": 49, "summary": 1}),
        ),
    ];
    for (name, records, keys, by, values) in cases {
        let r = facts(name);
        assert!(!r.is_json_document(), "{name}");
        assert_eq!(shapes(&r), ["json lines"], "{name}");
        let f = &fact(&r, "json lines")["records"];
        assert_eq!(json_u64(&f["count"]), records, "{name}");
        assert_eq!(f["kinds"], serde_json::json!({"object": records}), "{name}");
        assert_eq!(f["keys"], keys, "{name}");
        assert_eq!(f["values"][by], values, "{name}");
    }
}

// ---- nothing recognised ----

#[test]
fn other_outputs_get_no_facts() {
    for name in [
        "cargo-tree-fd.txt",
        "find-tokio.txt",
        "git-clone-progress.txt",
        "git-diff-tokio.txt",
        "git-log-stat-tokio.txt",
        "gzip-changelog.bin",
        "invalid-utf8-synthetic.txt",
        "ls-laR-tokio.txt",
        "nul-bytes-synthetic.txt",
        "pip-install.txt",
        "png-fd-logo.bin",
        "tqdm-progress-synthetic.txt",
    ] {
        let r = facts(name);
        assert_eq!(shapes(&r), Vec::<String>::new(), "{name}");
        assert!(!r.is_json_document(), "{name}");
    }
}

// ---- notable lines ----

#[test]
fn notable_lines_over_the_omitted_range() {
    // cargo-test-failures.txt, 309 lines; head 1..=220, tail 300..=309 (10 lines).
    let (analysis, n) = feed(&corpus("cargo-test-failures.txt"), 10);
    assert_eq!(n, 309);
    let r = analysis.finish(Some(221..=299));
    let lines = r.render();
    assert_eq!(
        lines[..4],
        [
            "[ctxoff] omitted lines contain: fail ×8 (first L223) · panic ×4 (first L275) · assert ×3 (first L276)",
            "  L223: test count_nbsp ... FAILED",
            "  L275: thread 'count_nbsp' (4298) panicked at tests/cli_cases.rs:90:1:",
            "  L276: assertion `left == right` failed",
        ]
    );
    // Lines 300..=309 hold `test result: FAILED.` and `error: test failed…`: not counted.
    assert_eq!(r.notable_json()["kinds"][0], serde_json::json!({"kind": "fail", "count": 8, "first": 223}));
}

#[test]
fn passing_run_has_nothing_notable() {
    let (analysis, n) = feed(&corpus("cargo-test-pass.txt"), 0);
    let r = analysis.finish(Some(1..=n));
    assert!(r.notable_json().is_null(), "{:#}", r.notable_json());
}

#[test]
fn notable_counts_match_a_direct_count_on_the_corpus() {
    let patterns = NotablePatterns::default();
    for name in ["git-log-stat-tokio.txt", "rg-tokio-defs.txt", "cargo-build-errors-ansi.txt", "vitest-failures.txt"] {
        let bytes = corpus(name);
        let (analysis, n) = feed(&bytes, 50);
        let (a, b) = (20, n - 50);
        let r = analysis.finish(Some(a..=b));
        let mut direct: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
        for (i, line) in bytes.split(|&c| c == b'\n').enumerate() {
            let number = i as u64 + 1;
            if !(a..=b).contains(&number) {
                continue;
            }
            let mask = patterns.classify(&clean_line(line));
            for (kind, label) in patterns.labels().iter().enumerate() {
                if mask & (1 << kind) != 0 {
                    direct.entry(label.clone()).or_insert((0, number)).0 += 1;
                }
            }
        }
        let streamed: std::collections::BTreeMap<String, (u64, u64)> = r.notable_json()["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| (k["kind"].as_str().unwrap().to_owned(), (json_u64(&k["count"]), json_u64(&k["first"]))))
            .collect();
        assert_eq!(streamed, direct, "{name}");
    }
}
