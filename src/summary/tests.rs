//! Fixture tests: every fact produced for the corpus equals the ground truth of
//! `tests/fixtures/corpus/MANIFEST.md`; memory stays bounded on 100 MB inputs; counts agree
//! with direct counts (property tests).

use std::path::PathBuf;

use super::{Analysis, NotablePatterns, Report};
use crate::text::clean_line;

fn corpus(name: &str) -> Vec<u8> {
    fixture("corpus", name)
}

fn corpus2(name: &str) -> Vec<u8> {
    fixture("corpus2", name)
}

fn fixture(corpus: &str, name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(corpus)
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The failure entries of `bytes` within `budget` tokens: each a line, or the runner's line
/// and the detail under it joined by a newline.
fn failures_within(bytes: &[u8], budget: u64) -> Vec<String> {
    let (analysis, _) = feed(bytes, 0);
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    entries(
        analysis
            .conclude()
            .failure_lines(Some((&tokenizer, budget)))
            .lines,
    )
}

/// Summary lines with each runner's line joined to the detail under it (`  L…`).
fn entries(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        match out.last_mut() {
            Some(said)
                if line.starts_with("  L")
                    && !said.starts_with(' ')
                    && !said.starts_with("[ctxoff]")
                    && !said.contains('\n') =>
            {
                said.push('\n');
                said.push_str(&line);
            }
            _ => out.push(line),
        }
    }
    out
}

/// Entries as one text, each runner's line and its detail as `said: detail` (where the line
/// number under it is not what the assertion is about).
fn flat(entries: &[String]) -> String {
    let under = regex::Regex::new(r"\n  L[\d,]+ ").expect("valid");
    under.replace_all(&entries.join("\n"), ": ").into_owned()
}

/// The failure line of `all` that contains `needle`.
fn line_with<'a>(all: &'a [String], needle: &str) -> &'a str {
    all.iter()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with `{needle}` in {all:#?}"))
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
    report(&corpus(name))
}

/// The report over `bytes`, fed as the capture pipeline does, with nothing omitted.
fn report(bytes: &[u8]) -> Report {
    feed(bytes, 0).0.finish(None)
}

fn fact(report: &Report, shape: &str) -> serde_json::Value {
    let facts = report.facts_json();
    let found: Vec<&serde_json::Value> = facts
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["shape"] == shape)
        .collect();
    assert_eq!(found.len(), 1, "one {shape} fact expected in {facts:#}");
    found[0].clone()
}

fn shapes(report: &Report) -> Vec<String> {
    report
        .facts_json()
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["shape"].as_str().unwrap().to_owned())
        .collect()
}

/// The rendered line starting with `prefix` (after `[ctxoff] `).
fn rendered(report: &Report, prefix: &str) -> String {
    let lines = report.render();
    lines
        .iter()
        .find_map(|l| {
            l.strip_prefix("[ctxoff] ")
                .filter(|l| l.starts_with(prefix))
        })
        .unwrap_or_else(|| panic!("no `{prefix}` line in {lines:#?}"))
        .to_owned()
}

fn json_u64(v: &serde_json::Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a number: {v}"))
}

// ---- compilers ----

#[test]
fn cargo_build_errors_plain_and_ansi() {
    // The JSON messages of `cargo build --message-format=json` are the same diagnostics.
    for (name, shapes_found) in [
        ("cargo-build-errors.txt", &["rustc"][..]),
        ("cargo-build-errors-ansi.txt", &["rustc"]),
        ("cargo-build-errors.jsonl", &["rustc", "json lines"]),
    ] {
        let r = facts(name);
        assert_eq!(shapes(&r), shapes_found, "{name}");
        let f = fact(&r, "rustc");
        assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (7, 4));
        assert_eq!(
            f["first_error"],
            "src/item.rs:23:20: error[E0308]: mismatched types"
        );
        assert_eq!(
            f["first_warning"],
            "src/main.rs:2:5: warning: unused import: `std::fmt::Write as _`"
        );
        assert_eq!(
            f["error_locations"],
            serde_json::json!([
                "src/item.rs:23:20",
                "src/item.rs:23:9",
                "src/item.rs:23:18",
                "src/report.rs:22:32",
                "src/main.rs:43:24",
                "src/report.rs:14:23",
                "src/main.rs:34:9"
            ])
        );
        assert_eq!(
            f["codes"],
            serde_json::json!({"E0308": 3, "E0277": 2, "E0382": 1, "E0502": 1})
        );
        assert_eq!(
            rendered(&r, "rustc:"),
            "rustc: 7 errors, 4 warnings; codes: E0308 ×3, E0277 ×2, E0382 ×1, E0502 ×1"
        );
    }
}

#[test]
fn a_cut_cargo_json_message_makes_the_counts_unsure() {
    let whole = corpus("cargo-build-errors.jsonl");
    let text = String::from_utf8(whole).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // The capture cuts lines longer than its cap: the record no longer parses.
    lines[1] = &lines[1][..200];
    let r = report(lines.join("\n").as_bytes());
    assert!(
        !shapes(&r).contains(&"rustc".to_owned()),
        "{:?}",
        shapes(&r)
    );
}

#[test]
fn cargo_test_compile_error_has_no_test_counts() {
    let r = facts("cargo-test-compile-error.txt");
    assert_eq!(shapes(&r), ["rustc"]);
    let f = fact(&r, "rustc");
    assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (2, 0));
    assert_eq!(
        f["first_error"],
        "tests/cli_cases.rs:167:18: error[E0308]: mismatched types"
    );
    assert_eq!(
        f["error_locations"],
        serde_json::json!(["tests/cli_cases.rs:167:18", "tests/cli_cases.rs:173:28"])
    );
}

#[test]
fn clippy_warnings_only() {
    let r = facts("cargo-clippy-pedantic.txt");
    assert_eq!(shapes(&r), ["rustc"]);
    let f = fact(&r, "rustc");
    assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (0, 57));
    assert_eq!(
        f["first_warning"],
        "src/cli.rs:32:1: warning: more than 3 bools in a struct"
    );
    assert!(f["first_error"].is_null());
}

/// Clippy names the lint of every diagnostic in the docs link at the end of its block: the
/// warnings are counted by lint (each count equal to a direct count of the links under warning
/// headers), the errors are keyed by their lint as rustc's by their code, and the first warning
/// of each lint is one to read.
#[test]
fn clippy_diagnostics_are_counted_by_lint() {
    let bytes = corpus3("cargo-clippy-regex-syntax.txt");
    let text = String::from_utf8_lossy(&bytes);
    let mut direct: std::collections::BTreeMap<&str, u64> = Default::default();
    let mut level = "";
    for line in text.lines() {
        if line.starts_with("warning: ") || line.starts_with("error: ") {
            level = line.split(':').next().unwrap();
        } else if let Some((_, lint)) = line.split_once("rust-clippy/rust-1.95.0/index.html#")
            && level == "warning"
        {
            *direct.entry(lint).or_default() += 1;
        }
    }
    let r = report(&bytes);
    let f = fact(&r, "rustc");
    let counted: std::collections::BTreeMap<&str, u64> = f["clippy_warnings"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, n)| (k.as_str(), json_u64(n)))
        .collect();
    assert_eq!(counted, direct);
    assert_eq!(counted["redundant_static_lifetimes"], 549);
    assert_eq!(
        rendered(&r, "rustc:"),
        "rustc: 2 errors, 703 warnings; codes: clippy::absurd_extreme_comparisons ×1, \
         clippy::eq_op ×1"
    );
    assert!(rendered(&r, "warnings by clippy lint:").starts_with(
        "warnings by clippy lint: redundant_static_lifetimes ×549, doc_lazy_continuation ×48"
    ));
    // The rarest lint's first warning is among those to read; rustc's own lint (no link) too.
    let shown = r.render().join("\n");
    assert!(shown.contains("L5,139 src/error.rs:233:17: warning: attempt to mutate range bound"));
    assert!(shown.contains("L4,402 src/hir/interval.rs:534:22: warning: unused variable"));
}

/// One clippy run printed plainly and as `--message-format=json` is counted alike: the JSON
/// records' codes are the truth (a lint's code on each record, where the text names it only in
/// its docs link), and rustc's own lints are no clippy lints.
#[test]
fn clippy_text_and_json_agree() {
    let json = fixture("more", "clippy-lintme.jsonl");
    let mut truth: std::collections::BTreeMap<String, u64> = Default::default();
    for record in String::from_utf8_lossy(&json).lines() {
        let v: serde_json::Value = serde_json::from_str(record).unwrap();
        let message = &v["message"];
        if let Some(lint) = message["code"]["code"]
            .as_str()
            .and_then(|c| c.strip_prefix("clippy::"))
            && message["level"] == "warning"
        {
            *truth.entry(lint.to_owned()).or_default() += 1;
        }
    }
    assert_eq!(truth.values().sum::<u64>(), 4);
    for name in ["clippy-lintme.txt", "clippy-lintme.jsonl"] {
        let r = report(&fixture("more", name));
        let f = fact(&r, "rustc");
        let counted: std::collections::BTreeMap<String, u64> = f["clippy_warnings"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, n)| (k.clone(), json_u64(n)))
            .collect();
        assert_eq!(counted, truth, "{name}");
        assert_eq!(
            rendered(&r, "rustc:"),
            "rustc: 2 errors, 6 warnings; codes: clippy::absurd_extreme_comparisons ×1, \
             clippy::eq_op ×1",
            "{name}"
        );
    }
}

/// Go's tools and Ruby write `file:line: warning:` too: testify's log line under a test, the
/// Ruby interpreter's warnings about the code an RSpec run loaded. Neither is a compiler's.
#[test]
fn go_and_ruby_warnings_are_no_compilers() {
    let r = report(
        b"    suite.go:207: warning: no tests to run\n\
          /home/dev/hashie/spec/a_spec.rb:4: warning: method redefined; discarding old invoke\n\
          /home/dev/hashie/spec/b_spec.rb:4: warning: previous definition of invoke was here\n",
    );
    assert!(!shapes(&r).contains(&"gcc".to_owned()), "{:?}", shapes(&r));
    let hashie = report(&corpus5("rspec-doc-hashie.txt"));
    assert_eq!(shapes(&hashie), ["rspec"]);
}

#[test]
fn gcc_errors() {
    let r = facts("gcc-errors.txt");
    assert_eq!(shapes(&r), ["gcc"]);
    let f = fact(&r, "gcc");
    assert_eq!(
        (
            json_u64(&f["errors"]),
            json_u64(&f["warnings"]),
            json_u64(&f["notes"])
        ),
        (4, 10, 2)
    );
    assert_eq!(
        f["first_error"],
        "src/ringbuf.c:49:13: error: assignment of member ‘len’ in read-only object"
    );
    assert!(f["first_warning"].as_str().unwrap().starts_with(
        "src/ringbuf.c:25:19: warning: comparison of integer expressions of different signedness: ‘int’ and ‘size_t’"
    ));
    assert_eq!(
        f["files"],
        serde_json::json!({"src/ringbuf.c": 6, "src/main.c": 8})
    );
    assert_eq!(
        f["error_locations"],
        serde_json::json!([
            "src/ringbuf.c:49:13",
            "src/ringbuf.c:58:5",
            "src/main.c:29:25",
            "src/main.c:32:12"
        ])
    );
}

/// A build log whose every line reads `path:line:…` (gcc's diagnostics, make's
/// `make: *** [Makefile:3: all]`) is a build log, not search results: no grep fact, and its
/// failure words are counted.
#[test]
fn a_build_log_shaped_like_grep_output_is_a_build_log() {
    let mut log: String = (1..=300)
        .map(|i| {
            format!("src/mod{i}.c:{i}:5: warning: unused variable 'x{i}' [-Wunused-variable]\n")
        })
        .collect();
    log.push_str("src/main.c:42:7: error: expected ';' before '}' token\n");
    log.push_str("make: *** [Makefile:3: all] Error 1\n");
    let r = feed(log.as_bytes(), 0).0.finish(Some(1..=302));
    assert_eq!(shapes(&r), ["gcc", "make"]);
    assert_eq!(json_u64(&fact(&r, "gcc")["errors"]), 1);
    let omitted = rendered(&r, "omitted lines contain: ");
    assert!(
        omitted.contains("error ×2 ") && omitted.contains("warning ×300 "),
        "{omitted}"
    );
}

#[test]
fn tsc_errors_plain_and_pretty() {
    // The place as each style prints it: what a reader searches the output with.
    for (name, place) in [
        ("tsc-errors.txt", "src/http.ts(30,43)"),
        ("tsc-errors-pretty.txt", "src/http.ts:30:43"),
    ] {
        let r = facts(name);
        assert_eq!(shapes(&r), ["tsc"], "{name}");
        let f = fact(&r, "tsc");
        assert_eq!((json_u64(&f["errors"]), json_u64(&f["warnings"])), (9, 0));
        assert_eq!(
            f["first_error"],
            format!(
                "{place}: error TS2366: Function lacks ending return statement and return type does not include 'undefined'."
            )
        );
        assert_eq!(
            f["files"],
            serde_json::json!({"src/http.ts": 2, "src/index.ts": 3, "src/users.ts": 4})
        );
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
        let counts =
            ["binaries", "run", "passed", "failed", "ignored", "measured"].map(|k| json_u64(&f[k]));
        assert_eq!(counts, [2, 255, 251, 4, 3, 0], "{name}");
        assert_eq!(
            f["failing"],
            serde_json::json!([
                "count_nbsp",
                "roman_table_lookup",
                "title_case_hyphenated",
                "truncate_zero_width"
            ])
        );
        assert_eq!(json_u64(&f["stopped_binaries"]), 0);
        assert_eq!(
            rendered(&r, "tests:"),
            "tests: 255 run, 251 passed, 4 failed, 3 ignored (2 cargo test binaries)"
        );
        let lines = r.render();
        let failed = lines
            .iter()
            .position(|l| l == "[ctxoff] failed tests (4):")
            .unwrap();
        // Named by the line that said it failed: `test count_nbsp ... FAILED`, or with `-q`,
        // `count_nbsp --- FAILED`.
        let said = if name.contains("quiet") {
            "count_nbsp --- FAILED"
        } else {
            "test count_nbsp ... FAILED"
        };
        assert_eq!(lines[failed + 1], said, "{name}: {lines:#?}");
        assert!(
            lines[failed + 2].ends_with(
                " panicked at tests/cli_cases.rs:90:1: assertion `left == right` failed · left: 3 · right: 2"
            ),
            "{name}: {lines:#?}"
        );
    }
}

#[test]
fn cargo_test_pass() {
    let r = facts("cargo-test-pass.txt");
    let f = fact(&r, "cargo test");
    let counts = ["binaries", "run", "passed", "failed", "ignored"].map(|k| json_u64(&f[k]));
    assert_eq!(counts, [3, 260, 260, 0, 3]);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 260 run, 260 passed, 0 failed, 3 ignored (3 cargo test binaries)"
    );
    // Each binary's result as libtest words it, a zero included, so it reads and greps the same.
    assert_eq!(
        rendered(&r, "per binary:"),
        "per binary: src/lib.rs: 204 passed; 0 failed; 2 ignored · tests/cli_cases.rs: 51 \
         passed; 0 failed; 1 ignored · doc-tests textkit: 5 passed; 0 failed; 0 ignored"
    );
    // A passing run's next question is not where its failures are; a failing run's is.
    assert_eq!(r.hint(), None);
    assert!(
        facts("cargo-test-failures.txt")
            .hint()
            .is_some_and(|h| h.contains("panicked at"))
    );
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
        [
            "[ctxoff] tests: a test binary stopped before its result line (running 23 tests, 22 \
             reported ok, src/lib.rs; signal: 6, SIGABRT: process abort signal); thread \
             'tests::simplify_add_zero_left' overflowed its stack"
        ]
    );
    // Which binary, and how it ended, as cargo said.
    assert_eq!(f["stopped_binary"], "src/lib.rs");
}

#[test]
fn pytest_collection_error_is_a_failure_not_no_tests() {
    let r = facts("pytest-collection-error.txt");
    assert_eq!(shapes(&r), ["pytest"]);
    let f = fact(&r, "pytest");
    assert_eq!(
        ["run", "passed", "failed", "errors"].map(|k| json_u64(&f[k])),
        [0, 0, 0, 1]
    );
    assert_eq!(f["interrupted"], "1 error during collection");
    assert_eq!(f["error_names"], serde_json::json!(["tests/test_units.py"]));
    let line = rendered(&r, "tests:");
    assert_eq!(
        line,
        "tests: 0 run, 0 passed, 0 failed, 1 error (pytest, interrupted: 1 error during collection)"
    );
    assert!(!line.contains("no tests"));
    // The cause, which a long run's head and tail would not show, and where it was imported.
    assert_eq!(f["first_error"], PYTEST_IMPORT_ERROR);
    assert_eq!(
        r.render()[1..],
        [
            "[ctxoff] failed tests and errors (1):".to_owned(),
            format!(
                "  L18 ERROR collecting tests/test_units.py: E   {PYTEST_IMPORT_ERROR} · at \
                 tests/test_units.py:3"
            ),
        ]
    );
}

const PYTEST_IMPORT_ERROR: &str = "ImportError: cannot import name 'convert_area' from \
     'geometry.units' (/home/dev/geometry/geometry/units.py)";

const PYTEST_FAILING: [&str; 3] = [
    "tests/test_area.py::test_polygon_area[points3-12.0]",
    "tests/test_perimeter.py::test_is_square[0.30000000000000004-0.3-True]",
    "tests/test_perimeter.py::test_polygon_perimeter_is_rounded",
];

#[test]
fn pytest_failures_default_tb_line_and_quiet() {
    for (name, errors) in [
        ("pytest-failures.txt", 1),
        ("pytest-tb-line.txt", 1),
        ("pytest-q.txt", 0),
    ] {
        let r = facts(name);
        assert_eq!(shapes(&r), ["pytest"], "{name}");
        let f = fact(&r, "pytest");
        assert_eq!(
            ["run", "passed", "failed", "errors"].map(|k| json_u64(&f[k])),
            [62, 59, 3, errors],
            "{name}"
        );
        assert_eq!(f["failing"], serde_json::json!(PYTEST_FAILING), "{name}");
        if errors == 1 {
            assert_eq!(f["error_names"], serde_json::json!(["tests/test_units.py"]));
            assert_eq!(f["first_error"], PYTEST_IMPORT_ERROR, "{name}");
        } else {
            assert!(f["first_error"].is_null(), "{name}");
        }
        assert!(f["interrupted"].is_null());
    }
}

/// An assertion of values alone (`assert (1 == 2)`) is shown with the statement pytest marked
/// with `>`, which says what the values are (`int(one_revindex) == 2`); one whose values say
/// how it failed (`assert 'desc' == 'DESC'`) is not.
#[test]
fn pytest_shows_the_statement_of_an_assertion_of_values_alone() {
    let jinja = failures_within(&corpus5("pytest-tb-long-jinja2.txt"), u64::MAX).join("\n");
    assert!(
        jinja.contains(
            "assert (1 == 2) · +  where 1 = int('1') · > assert int(one_revindex) == 2 and \
             int(two_revindex) == 1 · tests/test_core_tags.py:63: AssertionError"
        ),
        "{jinja}"
    );
    let sqlparse = failures_within(&corpus5("pytest-sqlparse.txt"), u64::MAX).join("\n");
    assert!(
        sqlparse.contains("AssertionError: assert 'desc' == 'DESC' · tests/test_grouping.py:471"),
        "{sqlparse}"
    );
}

/// `--tb=line` over many failures: each block of the report is the failure the short summary
/// names in the same place, also when a captured output sits between its `E` line and where it
/// failed, and when only some blocks are kept (the 80th, the first `KeyError`, is
/// `test_latex`'s); a summary message pytest cut inside its first word (`- Assert...`) is no
/// detail.
#[test]
fn pytest_tb_line_blocks_are_named_in_report_order() {
    let lines = failures_within(&corpus3("pytest-tb-line-tabulate.txt"), u64::MAX);
    let shown = lines.join("\n");
    assert!(
        shown.contains("test/test_input.py::test_sqlite3\n  L20 E   AssertionError · /home/dev/"),
        "{shown}"
    );
    assert!(
        shown.contains("test/test_output.py::test_latex\n  L731 E   KeyError: ' ' · at "),
        "{shown}"
    );
    assert!(!shown.contains("Assert..."), "{shown}");
    assert!(!shown.contains("Ass..."), "{shown}");
}

#[test]
fn jest_failures() {
    let r = facts("jest-failures.txt");
    assert_eq!(shapes(&r), ["jest"]);
    let f = fact(&r, "jest");
    let counts = [
        "run",
        "passed",
        "failed",
        "skipped",
        "todo",
        "total",
        "suites_failed",
        "suites_total",
    ]
    .map(|k| json_u64(&f[k]));
    assert_eq!(counts, [38, 35, 3, 1, 0, 39, 3, 3]);
    let mut failing: Vec<&str> = f["failing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    failing.sort();
    assert_eq!(
        failing,
        [
            "pad › multi-char fill",
            r#"snakeCase › snakeCase("XMLHttpRequest") -> "xml_http_request""#,
            "template › renders a greeting for every user",
        ]
    );
    assert_eq!(
        r.render(),
        [
            "[ctxoff] tests: 38 run, 35 passed, 3 failed, 1 skipped of 39 (jest, Test Suites: 3 failed, 3 total)",
            "[ctxoff] failed files (3):",
            "FAIL __tests__/text.test.js",
            "FAIL __tests__/case.test.js",
            "FAIL __tests__/slug.test.js",
            "[ctxoff] suites that failed to run (1):",
            "  L59 __tests__/slug.test.js: Cannot find module '../lib/slug' from '__tests__/slug.test.js' · at __tests__/slug.test.js:1:21",
            "[ctxoff] failed tests (3):",
            "● pad › multi-char fill",
            "  L4 expect(received).toBe(expected) // Object.is equality · Expected: \"abcdx\" · Received: \"ababababx\" · at __tests__/text.test.js:7:59",
            "● template › renders a greeting for every user",
            "  L21 missing template variable: name · at lib/strutil.js:34:29, from __tests__/text.test.js:43:34",
            "● snakeCase › snakeCase(\"XMLHttpRequest\") -> \"xml_http_request\"",
            "  L41 expect(received).toBe(expected) // Object.is equality · Expected: \"xml_http_request\" · Received: \"xmlhttp_request\" · at __tests__/case.test.js:28:30",
        ]
    );
    assert_eq!(
        f["suites_not_run"],
        serde_json::json!(["__tests__/slug.test.js"])
    );
}

#[test]
fn vitest_failures() {
    let r = facts("vitest-failures.txt");
    assert_eq!(shapes(&r), ["vitest"]);
    let f = fact(&r, "vitest");
    let counts = [
        "run",
        "passed",
        "failed",
        "skipped",
        "todo",
        "total",
        "files_failed",
        "files_total",
    ]
    .map(|k| json_u64(&f[k]));
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
    assert_eq!(
        rendered(&r, "files with failed tests"),
        "files with failed tests (3): test/cart.test.ts, test/checkout.test.ts, test/money.test.ts"
    );
    assert!(r.render().contains(
        &"  L56 test/cart.test.ts > Cart > applies discount code SAVE10: AssertionError: expected 1876 to be 1877 // Object.is equality · at test/cart.test.ts:45:44".to_owned()
    ));
}

/// SYNTHETIC fixture (hand-written in the shape of `go test -v ./...` output; no Go toolchain
/// here): 2 packages ok, 2 failed, 1 without test files; 7 passed, 3 failed (one a subtest),
/// 1 skipped.
#[test]
fn go_test_verbose_synthetic() {
    let bytes = include_bytes!("testdata/go-test-v-synthetic.txt");
    let r = report(bytes);
    assert_eq!(shapes(&r), ["go test"]);
    let f = fact(&r, "go test");
    let counts = [
        "passed",
        "failed",
        "skipped",
        "packages_ok",
        "packages_failed",
        "packages_without_tests",
    ]
    .map(|k| json_u64(&f[k]));
    assert_eq!(counts, [7, 3, 1, 2, 2, 1]);
    assert_eq!(
        f["failing"],
        serde_json::json!(["TestParse/nested", "TestEvalDivZero"])
    );
    assert_eq!(
        r.render(),
        [
            "[ctxoff] tests: 10 run, 7 passed, 3 failed, 1 skipped (go test: 2 packages ok, 2 failed, 1 without test files)",
            "[ctxoff] failed top-level tests: TestParse (1 subtest), TestEvalDivZero",
            "FAIL\texample.com/calc/parse\t0.006s",
            "FAIL\texample.com/calc/eval\t0.005s",
            "[ctxoff] failed (sub)tests (2):",
            "--- FAIL: TestParse/nested (0.00s)",
            "  L14 parse_test.go:41: parse(\"((1)\"): got <nil>, want error",
            "--- FAIL: TestEvalDivZero (0.00s)",
            "  L26 panic: runtime error: integer divide by zero [recovered]",
        ]
    );
}

#[test]
fn go_test_without_v_counts_only_failures() {
    let text = "--- FAIL: TestX (0.00s)\n    x_test.go:3: boom\nFAIL\nFAIL\texample.com/x\t0.002s\nok  \texample.com/y\t0.001s\nFAIL\n";
    let r = report(text.as_bytes());
    assert_eq!(
        r.render(),
        [
            "[ctxoff] tests: 1 failed (go test: 1 package ok, 1 failed)",
            "[ctxoff] failed top-level tests: TestX",
            "FAIL\texample.com/x\t0.002s",
            "[ctxoff] failed (sub)tests (1):",
            "--- FAIL: TestX (0.00s)",
            "  L2 x_test.go:3: boom",
        ]
    );
}

/// Go's verdict lines are quoted as printed while there are at most `NAMES_KEPT` (12) of them;
/// more are named in one line, the first five, how many more and the last.
#[test]
fn go_test_quotes_failed_packages_while_they_are_few() {
    let run = |packages: usize| {
        let mut text = String::from("--- FAIL: TestX (0.00s)\n    x_test.go:3: boom\n");
        for k in 1..=packages {
            text.push_str(&format!("FAIL\texample.com/p{k}\t0.00{k}s\n"));
        }
        report(text.as_bytes()).render()
    };
    let quoted = run(12);
    let verdicts: Vec<&String> = quoted.iter().filter(|l| l.starts_with("FAIL\t")).collect();
    assert_eq!(verdicts.len(), 12);
    assert_eq!(verdicts[11], "FAIL\texample.com/p12\t0.0012s");
    assert!(!quoted.iter().any(|l| l.starts_with("[ctxoff] FAIL")));
    let named = run(13);
    assert!(!named.iter().any(|l| l.starts_with("FAIL\t")));
    assert!(named.contains(
        &"[ctxoff] FAIL example.com/p1 · FAIL example.com/p2 · FAIL example.com/p3 · FAIL example.com/p4 · FAIL example.com/p5 · FAIL … 7 more … · FAIL example.com/p13".to_owned()
    ));
}

// ---- grep ----

fn assert_grep(name: &str, matches: u64, files: u64, top: &[(&str, u64)]) -> serde_json::Value {
    let r = facts(name);
    assert_eq!(shapes(&r), ["grep"], "{name}");
    let f = fact(&r, "grep");
    assert_eq!(
        (json_u64(&f["matches"]), json_u64(&f["files"])),
        (matches, files),
        "{name}"
    );
    let top_json: Vec<serde_json::Value> = top
        .iter()
        .map(|(p, n)| serde_json::json!({"path": p, "matches": n}))
        .collect();
    assert_eq!(f["top_files"], serde_json::json!(top_json), "{name}");
    f
}

#[test]
fn grep_shapes() {
    assert_grep(
        "rg-fd-unwrap.txt",
        91,
        8,
        &[
            ("tests/tests.rs", 36),
            ("src/filter/time.rs", 26),
            ("src/exec/mod.rs", 11),
        ],
    );
    assert_grep(
        "rg-ripgrep-fn-struct.txt",
        3_365,
        91,
        &[
            ("crates/core/flags/defs.rs", 1020),
            ("crates/printer/src/standard.rs", 176),
            ("crates/ignore/src/walk.rs", 171),
        ],
    );
    assert_grep(
        "rg-tokio-defs.txt",
        25_606,
        767,
        &[
            ("tokio/tests/sync_mpsc.rs", 330),
            ("tokio/tests/rt_common.rs", 281),
            ("tokio/src/net/windows/named_pipe.rs", 255),
        ],
    );
    assert_grep(
        "grep-rn-clap-assert.txt",
        4_291,
        148,
        &[
            ("./tests/builder/multiple_values.rs", 312),
            ("./tests/builder/help.rs", 181),
            ("./clap_builder/src/builder/arg.rs", 179),
        ],
    );
    let f = assert_grep(
        "grep-rn-binary-matches.txt",
        42,
        2,
        &[("./src/lib.rs", 35), ("./tests/cli_cases.rs", 7)],
    );
    assert_eq!(json_u64(&f["binary_files"]), 30);
    let f = assert_grep(
        "grep-rn-context.txt",
        91,
        8,
        &[
            ("tests/tests.rs", 36),
            ("src/filter/time.rs", 26),
            ("src/exec/mod.rs", 11),
        ],
    );
    assert_eq!(
        (json_u64(&f["context_lines"]), json_u64(&f["separators"])),
        (276, 52)
    );
    let f = assert_grep(
        "rg-heading-unsafe-impl.txt",
        127,
        44,
        &[
            ("tokio/src/sync/rwlock.rs", 14),
            ("tokio/src/runtime/task/mod.rs", 8),
            ("tokio/src/sync/mutex.rs", 8),
        ],
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
    assert_eq!(
        (f["type"].as_str(), json_u64(&f["length"])),
        (Some("object"), 9)
    );
    let keys: Vec<&str> = f["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["key"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "packages",
            "workspace_members",
            "workspace_default_members",
            "resolve",
            "target_directory",
            "build_directory",
            "version",
            "workspace_root",
            "metadata"
        ]
    );
    assert_eq!(
        f["keys"][0],
        serde_json::json!({"key": "packages", "type": "array", "length": 125})
    );
    assert_eq!(
        f["keys"][1],
        serde_json::json!({"key": "workspace_members", "type": "array", "length": 1})
    );

    let r = facts("npm-ls-all.json");
    assert!(r.is_json_document());
    let f = fact(&r, "json");
    assert_eq!(json_u64(&f["length"]), 3);
    assert_eq!(
        f["keys"][2],
        serde_json::json!({"key": "dependencies", "type": "object", "length": 2})
    );
    assert_eq!(
        rendered(&r, "JSON"),
        "JSON: object with 3 keys: version (string), name (string), dependencies (object, 2 keys)"
    );

    let r = facts("pip-list.json");
    assert!(r.is_json_document());
    let f = fact(&r, "json");
    assert_eq!(
        (f["type"].as_str(), json_u64(&f["length"])),
        (Some("array"), 99)
    );
    assert_eq!(f["elements"]["kinds"], serde_json::json!({"object": 99}));
    assert_eq!(
        f["elements"]["keys"],
        serde_json::json!({"name": 99, "version": 99})
    );
    assert_eq!(
        rendered(&r, "JSON"),
        "JSON: array of 99 items (all objects); keys: name 99, version 99"
    );
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
        assert!(shapes(&r).contains(&"json lines".to_owned()), "{name}");
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
        "gzip-changelog.bin",
        "invalid-utf8-synthetic.txt",
        "ls-laR-tokio.txt",
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
    // The failures come first, each by the line that said it failed, with its detail; examples
    // repeat none of them (`test count_nbsp ... FAILED` at L223 is quoted, the panic at L275
    // and its assertion are shown) and no bare heading (`failures:` at L271).
    assert_eq!(
        lines[2..],
        [
            "[ctxoff] failed tests (4):",
            "test count_nbsp ... FAILED",
            "  L275 panicked at tests/cli_cases.rs:90:1: assertion `left == right` failed · left: 3 · right: 2",
            "test roman_table_lookup ... FAILED",
            "  L283 panicked at tests/cli_cases.rs:149:57: called `Option::unwrap()` on a `None` value",
            "test title_case_hyphenated ... FAILED",
            "  L288 panicked at tests/cli_cases.rs:127:5: assertion `left == right` failed · left: \"Well-known Fact\" · right: \"Well-Known Fact\"",
            "test truncate_zero_width ... FAILED",
            "  L295 panicked at tests/cli_cases.rs:116:5: assertion `left == right` failed · left: \"…\" · right: \"\"",
            "[ctxoff] omitted lines contain: fail ×8 (first L223) · panic ×4 (first L275) · assert ×3 (first L276)",
        ]
    );
    // Lines 300..=309 hold `test result: FAILED.` and `error: test failed…`: not counted.
    assert_eq!(
        r.notable_json()["kinds"][0],
        serde_json::json!({"kind": "fail", "count": 8, "first": 223})
    );
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
    // Content (a commit log, search results) has no notable counts: see
    // `content_has_facts_not_failure_words`.
    for name in ["cargo-build-errors-ansi.txt", "vitest-failures.txt"] {
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
            // Passing-test lines and echoed source are not counted (`is_incidental`).
            let line = clean_line(line);
            if super::notable::is_incidental(&line) {
                continue;
            }
            let mask = patterns.classify(&line);
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
            .map(|k| {
                (
                    k["kind"].as_str().unwrap().to_owned(),
                    (json_u64(&k["count"]), json_u64(&k["first"])),
                )
            })
            .collect();
        assert_eq!(streamed, direct, "{name}");
    }
}

// ---- bounded memory on 100 MB of each shape ----

const BIG: u64 = 100 << 20;
/// The analysis's heap (measured by `approx_heap`) must stay under this on any input.
const HEAP_LIMIT: usize = 4 << 20;

/// Streams 100 MB of lines made by `make` (line number → text) through an analysis, raw bytes
/// and lines, checking the heap as it goes. Returns the report and the line count.
fn stream_big(mut make: impl FnMut(u64, &mut String)) -> (Report, u64) {
    let mut analysis = Analysis::new(&NotablePatterns::default(), 200);
    let (mut line, mut raw) = (String::new(), Vec::with_capacity(1 << 17));
    let (mut bytes, mut n, mut max_heap) = (0u64, 0u64, 0usize);
    while bytes < BIG {
        n += 1;
        line.clear();
        make(n, &mut line);
        analysis.line(n, &line);
        raw.extend_from_slice(line.as_bytes());
        raw.push(b'\n');
        bytes += line.len() as u64 + 1;
        if raw.len() >= 1 << 16 {
            analysis.raw(&raw);
            raw.clear();
        }
        if n % 65_536 == 0 {
            max_heap = max_heap.max(analysis.approx_heap());
        }
    }
    analysis.raw(&raw);
    max_heap = max_heap.max(analysis.approx_heap());
    assert!(max_heap < HEAP_LIMIT, "heap grew to {max_heap} bytes");
    (analysis.finish(Some(50..=n - 200)), n)
}

use std::fmt::Write as _;

/// The C, Ruby, JS and Python runners' shapes on 100 MB of their lines, each failure of a new
/// kind, status or title and some near the 64 KiB line cap: lists, kinds and statuses stay
/// bounded.
#[test]
fn bounded_memory_runner_output() {
    let long = "x".repeat(60_000);
    let (r, _) = stream_big(|n, s| {
        let _ = match n % 10 {
            0 => write!(
                s,
                "==1== Invalid read of size {n} {}",
                if n % 1000 == 0 { &long } else { "" }
            ),
            1 => write!(s, "==1==    at 0x{n:X}: f{n} (file{n}.c:{n})"),
            2 => write!(
                s,
                "==1== {n} bytes in {n} blocks are definitely lost in loss record {n} of {n}"
            ),
            3 => write!(
                s,
                " {n}/{n} Test  #{n}: t{n} ...***Exception: kind{n}  0.01 sec"
            ),
            4 => write!(s, "file.c:{n}:test_{n}:FAIL: Expected {n} Was 0"),
            5 => write!(
                s,
                "  {n}) suite{n} {}:",
                if n % 1000 == 5 { &long } else { "title" }
            ),
            6 => write!(s, "     Error: expected {n} to be 0"),
            7 => write!(s, "        STATUS{n} [   0.001s] crate t::case_{n}"),
            8 => write!(s, "[  FAILED  ] Suite{n}.Test (0 ms)"),
            _ => write!(s, "ERROR: test_{n} (mod.C.test_{n})"),
        };
    });
    assert!(
        shapes(&r).contains(&"valgrind".to_owned()),
        "{:?}",
        shapes(&r)
    );
}

/// A monorepo runner's 100 MB: twelve packages' prefixed test and compiler lines, each
/// package read as a section with shapes of its own, and npm's banners of a thousand packages
/// after, each with a line of its own (more sections than are read): memory stays bounded, and
/// the output is read whole.
#[test]
fn bounded_memory_sections() {
    let (r, _) = stream_big(|n, s| {
        let package = (n / 5_000) % 12;
        let _ = match n % 6 {
            0 if n > BIG / 200 => write!(s, "> pkg{}@1.0.{n} test", n % 1000),
            0 => write!(s, "pkg{package}:test: test module_{n}::case_{n} ... FAILED"),
            1 => write!(
                s,
                "pkg{package}:test: FAILED tests/test_{n}.py::t{n} - assert {n} == 2"
            ),
            2 => write!(
                s,
                "pkg{package}:test: src/f{n}.c:{n}:3: warning: unused ‘v{n}’"
            ),
            3 => write!(s, "pkg{package}:test:     Error: expected {n} to be 0"),
            4 => write!(s, "pkg{package}:test: not ok {n} should be equal"),
            _ if n > BIG / 200 => write!(s, "# test {n}"),
            _ => write!(s, "pkg{package}:test: # test {n}"),
        };
    });
    // The banners named more packages than are read as sections: the facts are the whole
    // output's, named after no package.
    assert!(
        r.render().iter().all(|l| !l.starts_with("[ctxoff] pkg")),
        "{:#?}",
        r.render()
    );
}

#[test]
fn bounded_memory_log_lines() {
    let words = [
        "error",
        "warning",
        "failed",
        "panicked",
        "Exception",
        "Traceback",
        "fatal",
        "denied",
        "assert",
        "segfault",
    ];
    let (r, n) = stream_big(|n, s| {
        let _ = write!(
            s,
            "2024-01-01T00:00:00Z #{n:09} worker-{} {} in module_{n} with a long tail of text",
            n % 97,
            words[(n % 10) as usize]
        );
    });
    let kinds = r.notable_json()["kinds"].as_array().unwrap().len();
    assert_eq!(kinds, 10);
    // Every 10th line from 50 on, in each kind: the count is exact.
    let error = &r.notable_json()["kinds"][0];
    let direct = (50..=n - 200).filter(|i| i % 10 == 0).count() as u64;
    assert_eq!(json_u64(&error["count"]), direct);
}

#[test]
fn bounded_memory_grep_many_files() {
    let (r, n) = stream_big(|n, s| {
        let _ = write!(
            s,
            "src/module_{}/file_{}.rs:{}:    let value = compute(input)?; // error path",
            n / 1000,
            n / 10,
            n % 1000
        );
    });
    let f = fact(&r, "grep");
    assert_eq!(json_u64(&f["matches"]), n);
    // Over 65,536 files: too many to check that each came in one run, so no file count.
    assert!(f["files"].is_null());
}

/// A scanner's access log, 100 MB of requests for paths that do not exist and one server error
/// late: the paths told apart are bounded, the list says where it stopped telling them apart,
/// and the late 500 is listed right after the first 404 (the statuses first).
#[test]
fn bounded_memory_access_log_of_a_scanner() {
    const LATE: u64 = 1_000_000;
    let (r, n) = stream_big(|n, s| {
        let (path, code) = if n == LATE {
            ("/report".to_owned(), 500)
        } else {
            (format!("/probe/{n}"), 404)
        };
        let _ = write!(
            s,
            "127.0.0.1 - - [06/Dec/2026:10:00:00 +0000] \"GET {path} HTTP/1.1\" {code} 153"
        );
    });
    assert!(n > LATE);
    let f = fact(&r, "access log");
    assert_eq!((json_u64(&f["requests"]), json_u64(&f["failed"])), (n, n));
    let lines = r.render();
    let at = lines
        .iter()
        .position(|l| {
            l.starts_with(
                "[ctxoff] first request of each error status, then of each other path until \
                 65,536 were told apart (",
            )
        })
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert_eq!(lines[at + 1], "  L1 \"GET /probe/1 HTTP/1.1\" 404 153");
    assert_eq!(
        lines[at + 2],
        "  L1,000,000 \"GET /report HTTP/1.1\" 500 153"
    );
}

#[test]
fn bounded_memory_test_and_compiler_output() {
    let (r, _) = stream_big(|n, s| {
        match n % 8 {
        0 => {
            let _ = write!(s, "test module_{n}::case_{n} ... FAILED");
        }
        1 => {
            let _ = write!(s, "error[E{:04}]: mismatched types number {n}", n % 9999);
        }
        2 => {
            let _ = write!(s, "  --> src/file_{n}.rs:{n}:5");
        }
        3 => {
            let _ = write!(s, "src/file_{n}.c:{n}:3: warning: unused variable ‘v{n}’");
        }
        4 => {
            let _ = write!(s, "src/file_{n}.ts({n},3): error TS{}: Type is not assignable.", 2000 + n % 5000);
        }
        5 => {
            let _ = write!(s, "FAILED tests/test_{n}.py::test_case_{n} - assert 1 == 2");
        }
        6 => s.push_str("test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s"),
        _ => {
            let _ = write!(s, "running {n} tests");
        }
    }
    });
    assert_eq!(shapes(&r), ["cargo test", "rustc", "gcc", "tsc"]);
}

#[test]
fn bounded_memory_json_lines_with_many_keys() {
    let (r, n) = stream_big(|n, s| {
        let _ = write!(
            s,
            r#"{{"type":"event_{}","key_{}":{n},"payload":{{"nested":[1,2,{{"deep":"value {n}"}}]}},"text":"x\u00e9\n"}}"#,
            n % 20,
            n % 100
        );
    });
    let f = fact(&r, "json lines");
    assert_eq!(json_u64(&f["records"]["count"]), n);
    assert!(
        f["records"]["keys"].is_null(),
        "more than 64 distinct keys: not listed"
    );
    assert!(
        f["records"]["values"]["type"].is_null(),
        "more than 16 distinct types: not listed"
    );
}

#[test]
fn bounded_memory_minified_json_document() {
    let mut analysis = Analysis::new(&NotablePatterns::default(), 200);
    let mut chunk = String::new();
    let (mut bytes, mut items) = (0u64, 0u64);
    analysis.raw(b"{\"items\":[");
    while bytes < BIG {
        chunk.clear();
        for _ in 0..1000 {
            if items > 0 {
                chunk.push(',');
            }
            let _ = write!(
                chunk,
                r#"{{"id":{items},"name":"item {items}","price":{}.5e-3,"tags":["a","b\"c"],"ok":true,"none":null}}"#,
                items % 1000
            );
            items += 1;
        }
        // Awkward chunk boundaries: split inside tokens.
        for piece in chunk.as_bytes().chunks(8191) {
            analysis.raw(piece);
        }
        bytes += chunk.len() as u64;
    }
    analysis.raw(b"],\"count\":1}");
    // The capture pipeline truncates the one huge line to 64 KiB.
    analysis.line(1, "{\"items\":[{\"id\":0");
    assert!(analysis.approx_heap() < HEAP_LIMIT);
    let r = analysis.finish(None);
    assert!(r.is_json_document());
    let f = fact(&r, "json");
    assert_eq!(
        f["keys"][0],
        serde_json::json!({"key": "items", "type": "array", "length": items})
    );
}

#[test]
fn bounded_memory_one_line_without_newline() {
    let mut analysis = Analysis::new(&NotablePatterns::default(), 200);
    let block = "error: lorem ipsum dolor sit amet ".repeat(2000);
    let mut bytes = 0;
    while bytes < BIG as usize {
        analysis.raw(block.as_bytes());
        bytes += block.len();
    }
    analysis.line(1, &block[..block.len().min(64 << 10)]);
    assert!(analysis.approx_heap() < HEAP_LIMIT);
    assert!(!analysis.finish(None).is_json_document());
}

// ---- properties: no count claimed differs from a direct count ----

mod properties {
    use proptest::prelude::*;

    use super::super::notable::NotableCounter;
    use super::*;

    fn notable_line() -> impl Strategy<Value = String> {
        let word = prop::sample::select(vec![
            "error",
            "Errors",
            "ERROR",
            "TypeError",
            "errorCount",
            "on_error",
            "warn",
            "warnings",
            "0 failed",
            "failed",
            "failure",
            "panicked",
            "exception",
            "Traceback",
            "fatal",
            "denied",
            "Segmentation fault",
            "assertion",
            "fine",
            "no errors",
            "stderr",
            "é",
            "",
        ]);
        prop::collection::vec(word, 0..4).prop_map(|w| w.join(" "))
    }

    proptest! {
        #[test]
        fn notable_counts_equal_direct_counts(
            lines in prop::collection::vec(notable_line(), 1..120),
            head in 0usize..40,
            tail in 0u64..20,
            kept in 1usize..6,
        ) {
            let patterns = NotablePatterns::default();
            for first_hits in [kept, usize::MAX] {
                let mut counter = NotableCounter::new(&patterns, tail).keeping_first_hits(first_hits);
                for (i, line) in lines.iter().enumerate() {
                    counter.line(i as u64 + 1, line);
                }
                let n = lines.len() as u64;
                let a = (head as u64 + 1).min(n);
                let b = n.saturating_sub(tail).max(a);
                let Some(report) = counter.finish(Some(a..=b), Default::default(), 0) else {
                    // Nothing notable in the range counted (which is at least part of a..=b).
                    continue;
                };
                // The range counted contains the omitted range (wider when the head held more hits
                // than were kept).
                prop_assert!(report.from <= a && report.to >= b);
                if first_hits == usize::MAX {
                    prop_assert_eq!((report.from, report.to), (a, b));
                }
                for kind in &report.kinds {
                    let index = patterns.labels().iter().position(|l| *l == kind.label).unwrap();
                    let hits: Vec<u64> = (report.from..=report.to)
                        .filter(|&i| patterns.classify(&lines[i as usize - 1]) & (1 << index) != 0)
                        .collect();
                    prop_assert_eq!(kind.count, hits.len() as u64);
                    prop_assert_eq!(Some(kind.first), hits.first().copied());
                }
                let listed: usize = report.kinds.len();
                let direct = (0..patterns.labels().len())
                    .filter(|&k| (report.from..=report.to).any(|i| patterns.classify(&lines[i as usize - 1]) & (1 << k) != 0))
                    .count();
                prop_assert_eq!(listed, direct);
            }
        }

        #[test]
        fn libtest_totals_equal_direct_sums(suites in prop::collection::vec(prop::collection::vec(0u8..3, 0..30), 1..5)) {
            let mut out = String::new();
            let (mut passed, mut failed, mut ignored) = (0u64, 0u64, 0u64);
            let mut names = Vec::new();
            for (s, tests) in suites.iter().enumerate() {
                let _ = writeln!(out, "     Running unittests src/lib.rs (target/debug/deps/x-{s})\n\nrunning {} tests", tests.len());
                let (mut p, mut f, mut i) = (0, 0, 0);
                for (t, &outcome) in tests.iter().enumerate() {
                    let name = format!("suite{s}::test_{t}");
                    let word = ["ok", "FAILED", "ignored"][outcome as usize];
                    let _ = writeln!(out, "test {name} ... {word}");
                    match outcome { 0 => p += 1, 1 => { f += 1; names.push(name) }, _ => i += 1 }
                }
                let verdict = if f > 0 { "FAILED" } else { "ok" };
                let _ = writeln!(out, "\ntest result: {verdict}. {p} passed; {f} failed; {i} ignored; 0 measured; 0 filtered out; finished in 0.01s\n");
                passed += p; failed += f; ignored += i;
            }
            let r = report(out.as_bytes());
            let f = fact(&r, "cargo test");
            prop_assert_eq!(["passed", "failed", "ignored", "binaries"].map(|k| json_u64(&f[k])), [passed, failed, ignored, suites.len() as u64]);
            let kept: Vec<String> = names.into_iter().take(crate::summary::shapes::names::NAMES_KEPT).collect();
            prop_assert_eq!(&f["failing"], &serde_json::json!(kept));
        }

        #[test]
        fn grep_counts_equal_direct_counts(
            files in prop::collection::vec((0u8..6, 1usize..8), 1..12),
            context in any::<bool>(),
        ) {
            let mut out = String::new();
            let mut per_file: std::collections::BTreeMap<String, u64> = Default::default();
            let mut previous = None;
            let mut contiguous = true;
            for (f, matches) in &files {
                let path = format!("src/dir-{f}/file-{f}.rs");
                if previous.as_ref() != Some(&path) && per_file.contains_key(&path) {
                    contiguous = false;
                }
                for m in 0..*matches {
                    if context {
                        let _ = writeln!(out, "{path}-{}-    let a = \"x:1:y\";", m * 10 + 1);
                    }
                    let _ = writeln!(out, "{path}:{}:    call(x: 1, y - 2)", m * 10 + 2);
                }
                if context {
                    out.push_str("--\n");
                }
                *per_file.entry(path.clone()).or_default() += *matches as u64;
                previous = Some(path);
            }
            let r = report(out.as_bytes());
            let f = fact(&r, "grep");
            prop_assert_eq!(json_u64(&f["matches"]), per_file.values().sum::<u64>());
            if contiguous {
                prop_assert_eq!(json_u64(&f["files"]), per_file.len() as u64);
                let mut top: Vec<(&String, &u64)> = per_file.iter().collect();
                top.sort_by(|x, y| y.1.cmp(x.1).then(x.0.cmp(y.0)));
                let top: Vec<serde_json::Value> = top.iter().take(3).map(|(p, n)| serde_json::json!({"path": p, "matches": n})).collect();
                prop_assert_eq!(&f["top_files"], &serde_json::json!(top));
            } else {
                prop_assert!(f["files"].is_null());
            }
        }

        #[test]
        fn json_validation_agrees_with_serde_json(
            value in json_value(),
            pretty in any::<bool>(),
            mutation in prop::option::of((any::<prop::sample::Index>(), any::<u8>())),
            chunk in 1usize..64,
        ) {
            let mut bytes = if pretty { serde_json::to_vec_pretty(&value) } else { serde_json::to_vec(&value) }.unwrap();
            if let Some((at, byte)) = mutation {
                let i = at.index(bytes.len());
                bytes[i] = byte;
            }
            let mut analysis = Analysis::new(&NotablePatterns::default(), 0);
            for c in bytes.chunks(chunk) {
                analysis.raw(c);
            }
            // serde_json also rejects numbers it cannot represent (`7e855272577299`), which the
            // JSON grammar allows, and it stops there, before the rest of the document
            // (`[-2e3256766376178537e281]`): the grammar alone decides those, as skipping every
            // value (which never converts a number) sees it.
            let valid = match serde_json::from_slice::<serde_json::Value>(&bytes) {
                Ok(_) => true,
                Err(e) if e.to_string().starts_with("number out of range") => {
                    serde_json::from_slice::<serde::de::IgnoredAny>(&bytes).is_ok()
                }
                Err(_) => false,
            };
            prop_assert_eq!(analysis.finish(None).is_json_document(), valid);
        }

        #[test]
        fn json_lines_counts_equal_direct_counts(records in prop::collection::vec(prop::collection::btree_map("[a-d]", 0u8..3, 0..4), 2..30)) {
            let mut out = String::new();
            for record in &records {
                out.push_str(&serde_json::to_string(record).unwrap());
                out.push('\n');
            }
            let r = report(out.as_bytes());
            let f = fact(&r, "json lines");
            prop_assert_eq!(json_u64(&f["records"]["count"]), records.len() as u64);
            let mut keys: std::collections::BTreeMap<String, u64> = Default::default();
            for record in &records {
                for key in record.keys() {
                    *keys.entry(key.clone()).or_default() += 1;
                }
            }
            let streamed: std::collections::BTreeMap<String, u64> =
                serde_json::from_value(f["records"]["keys"].clone()).unwrap();
            prop_assert_eq!(streamed, keys);
        }
    }

    #[test]
    fn analysis_is_send() {
        fn send<T: Send>() {}
        send::<Analysis>();
        send::<Report>();
    }

    proptest! {
        #[test]
        fn never_panics(
            lines in prop::collection::vec("(?s).{0,40}|([0-9a-z./]{1,6}[:(-][0-9]{1,3}[:,)-] ?(error|warning|note)?[: ]{0,2}.{0,10})|(test .{0,8} \\.\\.\\. (ok|FAILED))|(test result: .{0,30})|([={} ]{0,3}[0-9]{1,2} (passed|failed|error)[, ]{0,2}.{0,8})", 0..60),
            raw in prop::collection::vec(any::<u8>(), 0..300),
            range in (0u64..70, 0u64..70),
            tail in 0u64..10,
        ) {
            let mut analysis = Analysis::new(&NotablePatterns::default(), tail);
            analysis.raw(&raw);
            for (i, line) in lines.iter().enumerate() {
                analysis.raw(line.as_bytes());
                analysis.line(i as u64 + 1, line);
            }
            prop_assert_eq!(analysis.panicked_shapes(), 0);
            let report = analysis.finish(Some(range.0..=range.1));
            let _ = (report.render(), report.notable_json(), report.facts_json(), report.is_json_document());
        }
    }

    /// Every output of the twenty-three corpora, as the windows a capture may hold of it (a run cut
    /// short, a log rotated in) with lines cut anywhere: no shape panics.
    fn corpus_outputs() -> &'static Vec<(PathBuf, Vec<u8>)> {
        static OUTPUTS: std::sync::OnceLock<Vec<(PathBuf, Vec<u8>)>> = std::sync::OnceLock::new();
        OUTPUTS.get_or_init(|| {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
            let mut all = Vec::new();
            for corpus in [
                "corpus", "corpus2", "corpus3", "corpus4", "corpus5", "corpus6", "corpus7",
                "corpus8", "corpus9", "corpus10", "corpus11", "corpus12", "corpus13", "corpus14",
                "corpus15", "corpus16", "corpus17", "corpus18", "corpus19", "corpus20", "corpus21",
                "corpus22", "corpus23", "corpus24", "corpus25", "corpus26", "corpus27", "corpus28",
                "corpus29", "corpus30",
            ] {
                let mut names: Vec<PathBuf> = std::fs::read_dir(root.join(corpus))
                    .expect("corpus")
                    .map(|e| e.expect("entry").path())
                    .filter(|p| {
                        !p.to_string_lossy().ends_with(".json") && !p.ends_with("MANIFEST.md")
                    })
                    .collect();
                names.sort();
                all.extend(
                    names
                        .into_iter()
                        .map(|p| (p.clone(), std::fs::read(&p).expect("output"))),
                );
            }
            all
        })
    }

    proptest! {
        // Some 200 outputs: enough cases to reach each several times.
        #![proptest_config(ProptestConfig::with_cases(2048))]
        #[test]
        fn windows_of_real_outputs_with_lines_cut_anywhere_never_panic_a_shape(
            which in any::<prop::sample::Index>(),
            start in any::<prop::sample::Index>(),
            len in 0usize..400,
            cuts in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 0..20),
        ) {
            let outputs = corpus_outputs();
            let bytes = &outputs[which.index(outputs.len())].1;
            let mut lines: Vec<String> = bytes.split(|&b| b == b'\n').map(|l| clean_line(l).into_owned()).collect();
            let from = start.index(lines.len());
            lines = lines.split_off(from);
            lines.truncate(len);
            for (line, at) in cuts {
                if lines.is_empty() {
                    break;
                }
                let i = line.index(lines.len());
                let l = &mut lines[i];
                let cut = l.floor_char_boundary(at.index(l.len() + 1));
                l.truncate(cut);
            }
            let mut analysis = Analysis::new(&NotablePatterns::default(), 10);
            for (i, line) in lines.iter().enumerate() {
                analysis.line(i as u64 + 1, line);
            }
            prop_assert_eq!(analysis.panicked_shapes(), 0);
            let n = lines.len() as u64;
            let report = analysis.finish((n > 20).then(|| 11..=n - 10));
            let _ = (report.render(), report.facts_json());
        }
    }

    /// A line's first bytes decide what it is to a shape, and a shape that takes a byte for
    /// one kind of line must not swallow the others starting with it (a pytest failure placed
    /// in `networkx/…` was read as the totals' `no tests ran`). Each output's most frequent
    /// directory starting a line, renamed to start with other letters and digits, changes
    /// nothing the summary says but the name. Sixteen starts per output, in turn, so each start
    /// meets each shape's outputs.
    #[test]
    fn a_path_starting_a_line_is_read_whatever_its_first_letter() {
        const STARTS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
        let reading = |bytes: &[u8]| {
            let r = report(bytes);
            format!("{}\n{}", r.render().join("\n"), r.facts_json())
        };
        let (mut tried, mut slips) = (0, Vec::new());
        for (i, (path, bytes)) in corpus_outputs().iter().enumerate() {
            let Some(dir) = leading_dir(bytes) else {
                continue;
            };
            let before = reading(bytes);
            for k in 0..16 {
                let start = STARTS[(i * 16 + k) % STARTS.len()];
                let mut renamed = dir.clone();
                renamed[0] = start;
                // The new name must be new to the output and its summary, for the summary of
                // the renamed output to be read back (`net/` → `det/` would turn `detail`).
                let new = |text: &[u8]| memchr::memmem::find(text, &renamed).is_none();
                if start == dir[0] || !new(bytes) || !new(before.as_bytes()) {
                    continue;
                }
                let variant = rename(bytes, &dir, &renamed);
                let after = reading(&variant).replace(
                    std::str::from_utf8(&renamed).expect("ascii"),
                    std::str::from_utf8(&dir).expect("ascii"),
                );
                tried += 1;
                if before != after {
                    slips.push(format!(
                        "{}: `{}/` renamed `{}/` changes the summary:\n{}",
                        path.display(),
                        String::from_utf8_lossy(&dir),
                        String::from_utf8_lossy(&renamed),
                        first_difference(&before, &after),
                    ));
                }
            }
        }
        assert!(slips.is_empty(), "{}", slips.join("\n"));
        assert!(tried > 1600, "only {tried} renamings tried");
    }

    /// The directory most often starting a line as a relative path (`networkx/…`), of three
    /// letters or more, none a name shapes know (`node_modules`, a test directory).
    fn leading_dir(bytes: &[u8]) -> Option<Vec<u8>> {
        let mut counts: std::collections::HashMap<&[u8], usize> = Default::default();
        for line in bytes.split(|&b| b == b'\n') {
            let end = line
                .iter()
                .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-'))
                .unwrap_or(line.len());
            let (name, rest) = line.split_at(end);
            let known = |n: &[u8]| {
                let n = String::from_utf8_lossy(n).to_lowercase();
                n.contains("test")
                    || n.contains("spec")
                    || ["node_modules", "internal"].contains(&n.as_str())
            };
            if name.len() >= 3
                && name[0].is_ascii_alphabetic()
                && rest.starts_with(b"/")
                && rest
                    .get(1)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                && !known(name)
            {
                *counts.entry(name).or_default() += 1;
            }
        }
        let most = counts
            .into_iter()
            .max_by_key(|&(n, c)| (c, std::cmp::Reverse(n)))?;
        Some(most.0.to_vec())
    }

    /// `bytes` with every `dir/` that starts a path (not after a letter, digit, `_`, `-`, `.`
    /// or `/`) renamed `renamed/`.
    fn rename(bytes: &[u8], dir: &[u8], renamed: &[u8]) -> Vec<u8> {
        let mut needle = dir.to_vec();
        needle.push(b'/');
        let mut out = Vec::with_capacity(bytes.len());
        let mut from = 0;
        for at in memchr::memmem::find_iter(bytes, &needle) {
            let after_name = at > 0
                && (bytes[at - 1].is_ascii_alphanumeric() || b"_-./".contains(&bytes[at - 1]));
            if after_name {
                continue;
            }
            out.extend_from_slice(&bytes[from..at]);
            out.extend_from_slice(renamed);
            from = at + dir.len();
        }
        out.extend_from_slice(&bytes[from..]);
        out
    }

    fn first_difference(a: &str, b: &str) -> String {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
        let at = a
            .iter()
            .zip(&b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len()));
        format!(
            "before: {}\nafter:  {}",
            a.get(at).unwrap_or(&"(end)"),
            b.get(at).unwrap_or(&"(end)")
        )
    }

    fn json_value() -> impl Strategy<Value = serde_json::Value> {
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(serde_json::Value::from),
            "[ -~é\n\t\"\\\\]{0,8}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
                prop::collection::btree_map("[a-z\"]{0,4}", inner, 0..6)
                    .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
            ]
        })
    }
}

/// Throughput over the corpus's text, repeated: `cargo test --release --lib
/// summary::tests::throughput -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, run in release"]
fn throughput() {
    for name in [
        "git-log-stat-tokio.txt",
        "rg-tokio-defs.txt",
        "cargo-metadata-fd.json",
    ] {
        let bytes = corpus(name);
        let lines: Vec<String> = bytes
            .split(|&b| b == b'\n')
            .map(|l| clean_line(l).into_owned())
            .collect();
        let rounds = (200 << 20) / bytes.len();
        let start = std::time::Instant::now();
        let mut analysis = Analysis::new(&NotablePatterns::default(), 200);
        let mut n = 0;
        for _ in 0..rounds {
            analysis.raw(&bytes);
            for line in &lines {
                n += 1;
                analysis.line(n, line);
            }
        }
        let report = analysis.finish(Some(10..=n - 200));
        let seconds = start.elapsed().as_secs_f64();
        println!(
            "{name}: {:.0} MB/s ({} facts)",
            (rounds * bytes.len()) as f64 / seconds / 1e6,
            report.render().len()
        );
    }
}

/// A shape that panics on its second line.
struct Explodes(u64);

impl super::shapes::Shape for Explodes {
    fn line(&mut self, _number: u64, _text: &str) {
        self.0 += 1;
        assert!(self.0 < 2, "a shape's bug");
    }

    fn finish(self: Box<Self>) -> Option<super::shapes::Fact> {
        unreachable!("a shape that panicked is never asked for facts")
    }

    fn approx_heap(&self) -> usize {
        0
    }
}

#[test]
fn a_panicking_shape_loses_only_its_own_facts() {
    let bytes = corpus("cargo-test-failures.txt");
    let mut analysis =
        Analysis::new(&NotablePatterns::default(), 0).with_shape(Box::new(Explodes(0)));
    for (i, line) in bytes.split(|&b| b == b'\n').enumerate() {
        analysis.line(i as u64 + 1, &clean_line(line));
    }
    let report = analysis.finish(None);
    // It read the line before the others and panicked on the second: they read every line.
    assert_eq!(shapes(&report), ["cargo test"]);
    assert_eq!(
        report.facts_json(),
        facts("cargo-test-failures.txt").facts_json()
    );
}

#[test]
fn content_has_facts_not_failure_words() {
    for (name, shape) in [
        ("git-diff-tokio.txt", "diff"),
        ("git-log-stat-tokio.txt", "git log"),
        ("rg-tokio-defs.txt", "grep"),
    ] {
        let (analysis, n) = feed(&corpus(name), 10);
        let r = analysis.finish(Some(20..=n - 10));
        assert_eq!(shapes(&r), [shape], "{name}");
        assert!(r.notable_json().is_null(), "{name}: {:#}", r.notable_json());
    }
}

/// A blame (corpus 26: pendulum's date.py, moved under src/ with 4 lines changed since; its
/// author's name is printed with a combining accent)
/// states its commits, the commit holding the most lines, the newest change with its lines
/// (what its reader looks for first), the oldest, and the file's names over its history; its
/// words are the file's, not failures.
#[test]
fn a_blame_names_its_newest_change_and_its_paths() {
    let (analysis, n) = feed(&fixture("corpus26", "git-blame-date-pendulum.txt"), 10);
    let r = analysis.finish(Some(20..=n - 10));
    assert_eq!(shapes(&r), ["git blame"]);
    assert!(r.notable_json().is_null(), "{:#}", r.notable_json());
    assert_eq!(
        rendered(&r, "git blame:"),
        "git blame: 760 lines from 31 commits by 12 authors; most lines: 9cf72454 Se\u{301}bastien \
         Eustace 2016-10-20 (471), the oldest"
    );
    assert_eq!(
        rendered(&r, "lines by their path then:"),
        "lines by their path then: pendulum/date.py (756), src/pendulum/date.py (4)"
    );
    assert_eq!(
        rendered(&r, "newest:"),
        "newest: 51fb4c3d Rahul Iyer 2024-11-24, lines 268, 271, 284: def __sub__(self, __dt: \
         Self) -> Interval[Date]:"
    );
    assert_eq!(fact(&r, "git blame")["uncommitted"], 0);
}

#[test]
fn stray_nuls_are_counted_and_shown_escaped() {
    let r = facts("nul-bytes-synthetic.txt");
    assert_eq!(shapes(&r), ["nul bytes"]);
    let line = rendered(&r, "NUL bytes:");
    assert!(
        line.starts_with("NUL bytes: 7 on 2 lines (shown as \\0); L191: "),
        "{line}"
    );
    assert!(
        line.ends_with("L192: find -print0 fragment: ./a.txt\\0./b.txt\\0./c d.txt\\0"),
        "{line}"
    );
}

/// 17 failing subtests of 4 top-level tests, most failing with the same message: within a
/// tight budget, each top-level test's first failure and each distinct message come before a
/// repeat of one already shown.
#[test]
fn failures_within_a_budget_show_each_group_and_each_distinct_detail_first() {
    let lines = failures_within(&corpus2("go-test-v-go-cmp.txt"), 400);
    let shown = lines.join("\n");
    for wanted in [
        "TestDiff/Project3/Inequal (0.00s)\n  L595 panic: runtime error: index out of range [1] with length 1",
        "util_test.go:1101: unexpected Equal panic",
        "util_test.go:1103: Equal = false, want true",
        "func_test.go:47: NameOf() = , want function.myType.valueMethod",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    let repeats = lines
        .iter()
        .filter(|l| l.contains("util_test.go:1101: unexpected Equal panic"))
        .count();
    assert_eq!(repeats, 1, "{shown}");
}

/// Python's http.server log of the second corpus: requests by status and method, counted
/// exactly, and the first request of each error status with the server's message for it.
#[test]
fn access_log_counts_statuses_and_shows_the_first_of_each_error() {
    let text = String::from_utf8(corpus2("http-server-log.txt")).unwrap();
    let r = report(text.as_bytes());
    assert_eq!(shapes(&r), ["access log"]);
    let f = fact(&r, "access log");
    let count = |needle: &str| text.lines().filter(|l| l.contains(needle)).count() as u64;
    assert_eq!(
        json_u64(&f["requests"]),
        count("\" HTTP/1.1\"") + count(" HTTP/1.1\" ")
    );
    assert_eq!(f["statuses"]["404"], count("HTTP/1.1\" 404 "));
    assert_eq!(f["statuses"]["501"], count("HTTP/1.1\" 501 "));
    assert_eq!(f["methods"]["POST"], count("\"POST "));
    assert_eq!(
        json_u64(&f["failed"]),
        count("HTTP/1.1\" 404 ") + count("HTTP/1.1\" 501 ")
    );
    let failures = r.render().join("\n");
    assert!(
        failures.contains(
            "L47 \"POST /src/fp/endOfMonth/index.ts HTTP/1.1\" 501 -: code 501, message \
             Unsupported method ('POST')"
        ),
        "{failures}"
    );
}

fn corpus9(name: &str) -> Vec<u8> {
    fixture("corpus9", name)
}

fn corpus20(name: &str) -> Vec<u8> {
    fixture("corpus20", name)
}

fn corpus21(name: &str) -> Vec<u8> {
    fixture("corpus21", name)
}

fn corpus22(name: &str) -> Vec<u8> {
    fixture("corpus22", name)
}

/// tape piped through tap-spec on sade (corpus 22): its counts of assertions are the totals,
/// each failed assertion is named by its test and told by the values compared and where, and
/// the failures listed are as many as `failing:` says and as `✖` marks the report.
#[test]
fn tap_spec_names_each_failed_assertion_by_its_test_with_its_values() {
    let bytes = corpus22("npm-test-tape-tap-spec-sade.txt");
    let text = String::from_utf8_lossy(&bytes);
    let report_part = text.split("Failed Tests:").next().unwrap();
    assert_eq!(report_part.matches("✖ ").count(), 34);
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 594 assertions, 560 passing, 34 failing (tap-spec)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed assertions (34):");
    assert_eq!(
        all[1],
        "  L206 (usage) basic :: error :: missing command › exits with error code: expected: 1 · \
         actual: 0 · at /home/dev/sade/test/usage.js:21:4"
    );
    let help = all
        .iter()
        .find(|l| l.starts_with("  L1,081 "))
        .expect("the first help text's failure");
    assert!(
        help.contains("bar     Hello.") && help.contains("bar    Hello."),
        "{help}"
    );
    assert!(
        help.ends_with("at /home/dev/sade/test/utils.js:44:4"),
        "{help}"
    );
}

/// A Log4j service's log (corpus 22) writes its requests after the record's logger and peer,
/// without quotes (`… [pool-2-thread-4] access - 127.0.0.1 GET /report 500`): they are counted
/// by status as a direct count over the file gives, and the first of each error status is
/// shown as logged after its date.
#[test]
fn access_log_reads_requests_logged_after_a_record_s_logger() {
    let bytes = corpus22("java-log4j2-orders-gson.txt");
    let text = String::from_utf8_lossy(&bytes);
    let logged = |status: &str| {
        text.lines()
            .filter(|l| l.contains(" access - ") && l.ends_with(status))
            .count()
    };
    let (ok, failed) = (
        logged(" 200") + logged(" 201"),
        logged(" 400") + logged(" 404") + logged(" 500"),
    );
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "access log:"),
        format!(
            "access log: {} requests, {failed} failed (4xx/5xx); status: 500 ×6, 200 ×3, 400 ×3, \
             201 ×2, 404 ×1; methods: GET ×9, POST ×6",
            ok + failed
        )
    );
    let all = failures_within(&bytes, u64::MAX);
    let at = all
        .iter()
        .position(|l| {
            l == "[ctxoff] first request of each error status, then of each other path (6):"
        })
        .expect("the list");
    assert_eq!(all[at + 1], "  L69 access - 127.0.0.1 POST /orders 400");
    assert_eq!(all[at + 2], "  L103 access - 127.0.0.1 GET /orders/1 500");
}

/// Every method and path that failed is a failure of its own after the first of each status
/// (a query aside), as many as a direct count of them over the log gives, the statuses first
/// whatever their order in the log; Uvicorn's requests are shown from their peer on, as
/// logged, in the list and beside the error they failed with.
#[test]
fn access_log_lists_each_failed_path_after_each_status() {
    let bytes = fixture("corpus22", "uvicorn-log-starlette-notes.txt");
    let text = String::from_utf8_lossy(&bytes);
    let mut statuses = Vec::new();
    let mut paths = Vec::new();
    for line in text
        .lines()
        .filter(|l| l.starts_with("INFO:") && l.contains(" - \""))
    {
        let request = &line[line.find('"').expect("quote") + 1..];
        let (method, rest) = request.split_once(' ').expect("method");
        let path = rest.split([' ', '?']).next().expect("path");
        let code = request.split("\" ").nth(1).expect("status")[..3].to_owned();
        if code.starts_with(['4', '5']) {
            if !statuses.contains(&code) {
                statuses.push(code.clone());
            }
            let key = (code, method.to_owned(), path.to_owned());
            if !paths.contains(&key) {
                paths.push(key);
            }
        }
    }
    let all = failures_within(&bytes, u64::MAX);
    let heading = format!(
        "[ctxoff] first request of each error status, then of each other path ({}):",
        paths.len()
    );
    let at = all.iter().position(|l| *l == heading).expect("the list");
    let listed = &all[at + 1..at + 1 + paths.len()];
    for (line, status) in listed.iter().zip(&statuses) {
        assert!(line.contains(&format!("\" {status} ")), "{line}");
    }
    assert_eq!(
        listed[0],
        "  L7 127.0.0.1:49670 - \"GET /notes?limit=1 HTTP/1.1\" 500 Internal Server Error"
    );
    assert!(
        listed
            .iter()
            .any(|l| l.contains("\"GET /notes/2 HTTP/1.1\" 404"))
    );
    assert!(
        all.iter().any(|l| l.starts_with(
            "  L51 ERROR Exception in ASGI application: 127.0.0.1:49694 - \"GET /tags HTTP/1.1\" 500"
        )),
        "{all:#?}"
    );
}

/// WEBrick's errors (corpus 23) are followed by their Ruby backtrace: each error is shown with
/// the frame it was raised at.
#[test]
fn log_errors_say_where_ruby_raised_them() {
    let bytes = fixture("corpus23", "webrick-log-recipes.txt");
    let all = failures_within(&bytes, u64::MAX);
    let shown = |start: &str| {
        all.iter()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("{start}: {all:#?}"))
            .clone()
    };
    assert!(shown("  L53 ERROR KeyError").ends_with(" · at server.rb:28:in `fetch'"));
    assert!(
        shown("  L42 ERROR NoMethodError: undefined method `split'")
            .ends_with(" · at server.rb:49:in `block in <main>'")
    );
    // An error without a backtrace has no place.
    assert_eq!(shown("  L22 ERROR"), "  L22 ERROR no recipe 7");
}

/// eslint's unix format (corpus 23): each problem is read with its severity and rule, counted
/// as a direct count over the file gives, and the first of each error rule is shown.
#[test]
fn eslint_unix_format_is_counted_by_severity_and_rule() {
    let bytes = fixture("corpus23", "eslint-f-unix-object-inspect.txt");
    let text = String::from_utf8_lossy(&bytes);
    let count = |tag: &str| text.lines().filter(|l| l.contains(tag)).count();
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "eslint:"),
        format!(
            "eslint: 131 problems; counted: {} errors, {} warnings in 3 files; error rules: \
             indent ×{}, quotes ×{}, eqeqeq ×1, no-unused-vars ×1, semi ×1",
            count(" [Error/"),
            count(" [Warning/"),
            count("[Error/indent]"),
            count("[Error/quotes]")
        )
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.contains(
            &"  L65 /home/dev/object-inspect/index.js:451:43: Missing semicolon. [Error/semi]"
                .to_owned()
        )
    );
}

/// go test -race on bigcache (corpus 22): a helper that does not call `t.Helper()` logs at its
/// own line with nothing after it, and the caller's line under it is its message; the runtime's
/// `fatal error: concurrent map writes`, which kills the binary with no `--- FAIL`, is said
/// with where it happened and whose goroutine it was.
#[test]
fn go_test_a_bare_log_line_s_message_and_a_fatal_error_are_shown() {
    let bytes = corpus22("go-test-race-bigcache.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "fatal error:"),
        "fatal error: concurrent map writes · at /home/dev/bigcache-2.2.5/shard.go:326 · in a \
         goroutine of v2.TestCacheDelRandomly"
    );
    let all = failures_within(&bytes, u64::MAX);
    let stats = all
        .iter()
        .find(|l| l.starts_with("--- FAIL: TestWriteAndReadParallelSameKeyWithStats "))
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert!(
        stats
            .contains("\n  L168 assert_test.go:16: · bigcache_test.go:725: Not equal: · expected:"),
        "{stats}"
    );
    assert!(
        stats.contains("Hits:10000") && stats.contains("Hits:9997"),
        "{stats}"
    );
}

/// A fatal error in a goroutine that no function created (the test binary's main one, in a
/// deadlock) is said without the `created by` of the goroutines listed after its stack.
#[test]
fn go_test_a_fatal_error_s_goroutine_is_only_the_one_that_was_running() {
    let text = "fatal error: all goroutines are asleep - deadlock!\n\
                \n\
                goroutine 1 [chan receive]:\n\
                main.main()\n\
                \t/home/dev/app/main_test.go:12 +0x45\n\
                \n\
                goroutine 7 [chan send]:\n\
                example.com/app.worker()\n\
                \t/home/dev/app/worker.go:30 +0x2b\n\
                created by example.com/app.TestWorkers in goroutine 6\n\
                \t/home/dev/app/worker_test.go:9 +0x1d\n\
                FAIL\texample.com/app\t0.01s\n";
    let r = report(text.as_bytes());
    assert_eq!(
        rendered(&r, "fatal error:"),
        "fatal error: all goroutines are asleep - deadlock! · at /home/dev/app/main_test.go:12"
    );
}

/// tox running pytest on python-json-logger (corpus 22): two sets compared, pytest's reprs
/// of them elided (`assert dict_keys(['l..., 'exc_info']) == {'asctime', '...o', …}`), are
/// told apart by the item one has that the other lacks, as pytest's explanation says it.
#[test]
fn pytest_sets_elided_are_told_apart_by_their_extra_items() {
    let all = failures_within(&corpus22("tox-e-py311-python-json-logger.txt"), u64::MAX);
    assert_eq!(
        all[1],
        "tests/test_formatters.py::test_percentage_format[JsonFormatter]\n  L38 E       \
         AssertionError: assert dict_keys(['l..., 'exc_info']) == {'asctime', '...o', \
         'message'} · Extra items in the left set: 'exc_info' · tests/test_formatters.py:166: \
         AssertionError"
    );
}

/// valgrind's leak check of jo (corpus 22): its HEAP SUMMARY's total heap usage is said with
/// the error and leak summaries, as summed over the file's lines.
#[test]
fn valgrind_says_the_total_heap_usage() {
    let bytes = corpus22("valgrind-leak-check-jo.txt");
    let text = String::from_utf8_lossy(&bytes);
    let usage: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once("total heap usage: ").map(|(_, u)| u))
        .collect();
    assert_eq!(usage, ["30 allocs, 26 frees, 5,312 bytes allocated"]);
    let r = report(&bytes);
    assert!(
        rendered(&r, "valgrind: ERROR SUMMARY")
            .ends_with("; total heap usage: 30 allocs, 26 frees, 5,312 bytes allocated"),
        "{:?}",
        r.render()
    );
}

/// A Falcon app's log under wsgiref (corpus 21): Falcon writes the traceback of a request it
/// failed into its record's line (`[FALCON] [ERROR] POST /alice/things => Traceback (most recent
/// call last):`). The traceback is read as the record's, and its exception counted with the
/// others: every traceback of the file is counted, as a direct count over the file gives.
#[test]
fn a_traceback_begun_on_its_record_s_line_is_that_record_s() {
    let bytes = corpus21("python3-falcon-wsgiref-log-things.txt");
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(
        text.matches("Traceback (most recent call last):").count(),
        12
    );
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("AttributeError: "))
            .count(),
        3
    );
    let r = report(&bytes);
    assert!(
        rendered(&r, "log:").contains(
            "; 12 exceptions (AttributeError ×3, socket.gaierror ×2, \
             urllib3.exceptions.NameResolutionError ×2, urllib3.exceptions.MaxRetryError ×2, \
             requests.exceptions.ConnectionError ×2 +1 more)"
        ),
        "{}",
        rendered(&r, "log:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[2],
        "  L6 [ERROR] POST /alice/things: AttributeError: 'dict' object has no attribute 'id' · \
         File \"/home/dev/falcon-4.0.2/examples/things_advanced.py\", line 22, in add_thing · \
         thing.id = str(uuid.uuid4())"
    );
}

/// pytest -v on email-validator (corpus 21): two values whose reprs print alike (`assert
/// <ValidatedEmail 伊昭傑@郵件.商務> != <ValidatedEmail 伊昭傑@郵件.商務>`) are told apart by the
/// lines of the project's explanation that say `!=`.
#[test]
fn pytest_values_printed_alike_are_told_apart_by_what_differs() {
    let all = failures_within(
        &corpus21("pytest-v-unicode-ids-email-validator.txt"),
        u64::MAX,
    );
    assert_eq!(all[0], "[ctxoff] failed tests and errors (21):");
    assert!(
        all[2].ends_with(
            "<ValidatedEmail 伊昭傑@郵件.商務> · smtputf8 False != True · ascii_local_part \
             '伊昭傑' != None · tests/test_syntax.py:385: AssertionError"
        ),
        "{}",
        all[2]
    );
}

/// pytest -n 2 on ujson with a segfault put in (corpus 21): a worker that crashed is reported
/// in a section titled by its file alone; the failure is named by the test it was running and
/// told by the line as printed, the fatal error and the test's frame where the worker died
/// (from faulthandler's stack, printed during the run before `replacing crashed worker gw0`).
/// The workers that went down are counted as a direct count over the file gives.
#[test]
fn pytest_a_crashed_worker_s_test_is_told_by_its_fatal_error_and_frame() {
    let bytes = corpus21("pytest-n2-worker-crash-ujson.txt");
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(text.matches("] node down: ").count(), 4);
    let r = report(&bytes);
    assert!(
        rendered(&r, "tests:").ends_with("(pytest, 2 workers [478 items], 4 down)"),
        "{}",
        rendered(&r, "tests:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "tests/test_ujson.py::test_encode_surrogate_characters\n  L230 worker 'gw0' crashed while \
         running 'tests/test_ujson.py::test_encode_surrogate_characters' · Fatal Python error: \
         Segmentation fault · File \"/home/dev/ujson-6.1.0/tests/test_ujson.py\", line 667 in \
         test_encode_surrogate_characters"
    );
    let gw4 = all
        .iter()
        .find(|f| f.contains("worker 'gw4'"))
        .expect("gw4");
    assert!(
        gw4.ends_with("line 801 in test_encode_decode_big_int"),
        "{gw4}"
    );
}

/// pytest-timeout's thread method on fasteners with a deadlock put in (corpus 21): the run is
/// killed after the dump, so pytest prints no summary. The dump's threads are counted by where
/// each waits in the project's own code, as a direct count over the file gives, and the first
/// thread waiting in each place is shown with that frame; the main thread's is the test's.
#[test]
fn a_timeout_s_thread_dump_says_where_the_threads_wait() {
    let bytes = corpus21("pytest-timeout-thread-fasteners.txt");
    let text = String::from_utf8_lossy(&bytes);
    assert_eq!(text.matches("~ Stack of ").count(), 21);
    assert_eq!(
        text.matches(", line 191, in _acquire_write_lock").count(),
        13
    );
    assert_eq!(text.matches(", line 142, in _acquire_read_lock").count(), 7);
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "timeout:"),
        "timeout: +++ Timeout +++ (pytest-timeout): 21 threads' stacks dumped; waiting in \
         fasteners/lock.py:191 in _acquire_write_lock ×13, fasteners/lock.py:142 in \
         _acquire_read_lock ×7, tests/test_lock.py:206 in test_no_concurrent_readers_writers ×1"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[0],
        "[ctxoff] threads, the first waiting in each place (3):"
    );
    assert_eq!(
        all[3],
        "  L395 ~~~ Stack of MainThread (140513934277504) ~~~: File \
         \"/home/dev/fasteners-0.20/tests/test_lock.py\", line 206, in \
         test_no_concurrent_readers_writers · t.join()"
    );
    let hint = r.hint().expect("a hint");
    let re = regex::Regex::new(hint.split('\'').nth(1).expect("quoted")).expect("valid");
    let found = text.lines().filter(|l| re.is_match(l)).count();
    assert_eq!(found, 21 + 2, "every thread's header and both banners");
}

/// vitest 4 on tinybench with an afterAll hook's promise no longer awaited (corpus 21): the
/// errors vitest caught outside any test are counted as its `Errors  2 errors` line says,
/// and each is shown under its heading with what was thrown and where.
#[test]
fn vitest_counts_and_shows_the_errors_it_caught_outside_tests() {
    let bytes = corpus21("vitest-run-unhandled-tinybench.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 241 run, 206 passed, 35 failed of 241 (vitest, Test Files 14 failed of 64, 2 \
         unhandled errors)"
    );
    let all = failures_within(&bytes, u64::MAX);
    let at = all
        .iter()
        .position(|l| l == "[ctxoff] unhandled errors (2):")
        .expect("the list");
    assert_eq!(
        all[at + 1],
        "  L799 Unhandled Rejection: Error: AfterAll · at test/hooks-errors.test.ts:123:19"
    );
}

/// pytest -q on soupsieve (corpus 21): its tests print lines that start with `=` (`====PARSER:
/// html.parser`) into the report; they are no separator, so the report is read to its end
/// and every failure is listed, as the summary line counts them (77, not the 2 before the
/// first such line).
#[test]
fn pytest_a_test_s_line_starting_with_equals_does_not_end_the_report() {
    let bytes = corpus21("pytest-q-many-soupsieve.txt");
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.lines()
            .any(|l| l.starts_with("====PARSER:  html.parser"))
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("FAILED ")).count(),
        77
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (77):");
}

/// node's spec reporter on merge-json-schemas (corpus 21): a deep-equal diff longer than the
/// lines read for its values still gives the test's line where it failed, past the diff.
#[test]
fn node_spec_finds_where_a_test_failed_past_a_long_diff() {
    let bytes = corpus21("node-test-spec-merge-json-schemas.txt");
    let all = failures_within(&bytes, u64::MAX).join("\n");
    for place in [
        "at /home/dev/merge-json-schemas/test/any-of.test.js:39:10",
        "at /home/dev/merge-json-schemas/test/any-of.test.js:71:10",
    ] {
        assert!(all.contains(place), "{place} in {all}");
    }
}

fn corpus10(name: &str) -> Vec<u8> {
    fixture("corpus10", name)
}

/// uvu (klona, corpus 10): its closing counts, failed ones derived from them, and each
/// failure by its `FAIL` heading with the assertion, the values compared (node's message over
/// several lines, as one) and the test's line.
#[test]
fn uvu_counts_its_tests_and_shows_each_failure() {
    let bytes = corpus10("uvu-klona.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 137 run, 133 passed, 4 failed, 0 skipped (uvu)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (4):");
    assert_eq!(
        all[1],
        "FAIL  RegExp  \"state\"\n  L30 Expected values to be loosely deep-equal: · /foo/gi should \
         loosely deep-equal /foo/gi · at /home/dev/klona/test/suites/regexp.js:25:10"
    );
    assert!(
        all[2].ends_with(
            "deep-equal: · { a: 2, b: 2 } should loosely deep-equal { a: 1 } · at \
             /home/dev/klona/test/suites/map.js:31:10"
        ),
        "{all:#?}"
    );
}

/// mocha's dot reporter on micromatch (corpus 20): node's `deepEqual` message says both values
/// over many lines around `should loosely deep-equal`; they are one line of the detail, as
/// they read, where only `[` and the first item were shown.
#[test]
fn mocha_node_assertion_values_over_lines_are_one_line() {
    let all = failures_within(&corpus20("mocha-dot-micromatch.txt"), u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (47):");
    assert_eq!(
        all[1],
        "  L70 .braceExpand() should expand a brace pattern: AssertionError [ERR_ASSERTION]: \
         Expected values to be loosely deep-equal: · [ '{a,b}' ] should loosely deep-equal [ \
         'a', 'b' ] · at test/api.braceExpand.js:17:12"
    );
}

/// node's test runner with `--test-reporter=tap` on nanoid (corpus 20): three failures named
/// `has flat distribution`, in the suites `node`, `browser` and `non secure`, are told apart by
/// their path, before their line as printed; the suites that failed only because a subtest did
/// are not failures of their own (7, as node counts them).
#[test]
fn node_tap_nested_failures_are_named_by_their_path() {
    let all = failures_within(&corpus20("node-test-reporter-tap-nanoid.txt"), u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (7):");
    let shown = all.join("\n");
    for path in [
        "node > not ok 10 - has flat distribution\n  L96 63 == 64",
        "node > customAlphabet > not ok 8 - supports non-string alphabets\n",
        "non secure > not ok 6 - has flat distribution\n",
        "browser > has flat distribution",
    ] {
        assert!(shown.contains(path), "{path} in {shown}");
    }
}

/// An AddressSanitizer test binary of mpc ending in LeakSanitizer's report (corpus 20): its
/// 132 leak records counted, with the bytes and objects they leaked (the same as the report's
/// own `SUMMARY: … 1976 byte(s) leaked in 162 allocation(s)`), by where each was allocated; the
/// report's detail is its first record.
#[test]
fn leak_sanitizer_records_are_counted_by_where_they_were_allocated() {
    let bytes = corpus20("asan-test-lsan-mpc.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "leaks:"),
        "leaks: 132 records (132 direct, 0 indirect), 1,976 bytes leaked in 162 objects; \
         allocated in mpc_ast_new /home/dev/mpc/mpc.c:2964 ×75, mpc_ast_add_tag \
         /home/dev/mpc/mpc.c:3033 ×25, mpc_ast_tag /home/dev/mpc/mpc.c:3049 ×20, \
         mpc_ast_add_root_tag /home/dev/mpc/mpc.c:3042 ×11, mpc_export /home/dev/mpc/mpc.c:289 ×1"
    );
    let text = String::from_utf8_lossy(&bytes);
    assert!(text.contains("SUMMARY: AddressSanitizer: 1976 byte(s) leaked in 162 allocation(s)."));
    assert_eq!(text.matches("\nDirect leak of ").count(), 132);
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "  L64 ERROR: LeakSanitizer: detected memory leaks · Direct leak of 256 byte(s) in 4 object(s) \
         · in mpc_export /home/dev/mpc/mpc.c:289"
    );
}

/// uvu on dequal (corpus 20): values on one line each are said with which is which
/// (`++false (Expected)`), and where a helper of the test file failed with the test's own
/// line that called it.
#[test]
fn uvu_says_which_value_was_expected_and_the_test_line_past_a_helper() {
    let all = failures_within(&corpus20("npm-test-uvu-dequal.txt"), u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (10):");
    assert_eq!(
        all[1],
        "FAIL  Object  \"Objects\"\n  L35 Expected values to be strictly equal:  (is) · ++false \
         (Expected) · --true (Actual) · at /home/dev/dequal/test/index.js:10:9, from \
         /home/dev/dequal/test/index.js:67:2"
    );
}

/// yamllint's report is ESLint's stylish with the rule in brackets and no total (ansible
/// examples, corpus 10): its problems are counted as a direct count over the file gives, and
/// the first of each rule is listed, the duplicate key and the syntax error put in by hand
/// among them.
#[test]
fn yamllint_counts_its_problems_and_shows_the_first_of_each_rule() {
    let bytes = corpus10("yamllint-ansible-examples.txt");
    let text = String::from_utf8_lossy(&bytes);
    let count = |level: &str| {
        text.lines()
            .filter(|l| {
                let t = l.trim_start();
                t.split_whitespace().nth(1) == Some(level)
                    && t.split(' ').next().is_some_and(|p| p.contains(':'))
            })
            .count()
    };
    let r = report(&bytes);
    let line = rendered(&r, "yamllint:");
    assert!(
        line.starts_with(&format!(
            "yamllint: {} errors, {} warnings; error rules: line-length ×",
            count("error"),
            count("warning")
        )),
        "{line}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    for shown in [
        "./lamp_simple/site.yml:14:3  error  duplication of key \"hosts\" in mapping  \
         (key-duplicates)",
        "./lamp_simple/roles/web/tasks/main.yml:4:3  error  syntax error: expected <block end>, \
         but found '-' (syntax)",
    ] {
        assert!(all.contains(shown), "{shown} in {all}");
    }
}

/// minitest's error raised in the library (mustache, corpus 10): where it was raised, then the
/// test that called it, without the test's function said again.
#[test]
fn a_numbered_error_raised_in_the_library_names_the_test_frame_too() {
    let all = failures_within(&corpus10("minitest-mustache.txt"), u64::MAX);
    assert_eq!(
        all[1],
        "  L120 MustacheTest#test_liberal_tag_names_in_class: Mustache::Parser::SyntaxError: \
         Unclosed tag · at /home/dev/mustache/lib/mustache/parser.rb:286:in `error', from \
         /home/dev/mustache/test/mustache_test.rb:570"
    );
    // A failure in the test file itself has no other frame to name.
    assert!(
        all[5].ends_with("· at /home/dev/mustache/test/autoloading_test.rb:39"),
        "{all:#?}"
    );
}

/// svelte-check's human output (realworld, corpus 10): its closing total, problems counted as
/// a direct count over the file gives, and each problem read from its place line and the
/// `Error:` line under it, the parse error and the two typos put in by hand among them.
#[test]
fn svelte_check_counts_its_problems_and_shows_where() {
    let bytes = corpus10("svelte-check-realworld.txt");
    let text = String::from_utf8_lossy(&bytes);
    let errors = text.lines().filter(|l| l.starts_with("Error: ")).count();
    let r = report(&bytes);
    assert_eq!(errors, 56);
    assert!(
        rendered(&r, "svelte-check found").starts_with(
            "svelte-check found 56 errors and 1 warning in 23 files; counted: 56 errors, 1 \
             warning in 23 files"
        ),
        "{}",
        rendered(&r, "svelte-check found")
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    for shown in [
        "src/lib/ListErrors.svelte:9:5 Error: Expected token each",
        "src/routes/Nav.svelte:10:48 Error: Property 'pathnme' does not exist",
        "src/routes/Pagination.svelte:6:24 Error: Cannot find name 'pageCount'. (js)",
    ] {
        assert!(all.contains(shown), "{shown} in {all}");
    }
}

/// mocha's TAP reporter puts no YAML under a `not ok`: the message, the error and its stack
/// are indented lines of its own (body-parser, corpus 10). Each failure gets its message once
/// and its first frame in the project, not one in `node_modules`.
#[test]
fn mocha_tap_failures_take_their_indented_message_and_frame() {
    let bytes = corpus10("mocha-tap-body-parser.txt");
    let text = String::from_utf8_lossy(&bytes);
    let failed = text.lines().filter(|l| l.starts_with("not ok ")).count();
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], format!("[ctxoff] failed tests ({failed}):"));
    assert_eq!(
        all[1],
        "not ok 45 bodyParser.json() with verify option should 415 on unknown charset prior to \
         verify\n  L45 expected 415 \"Unsupported Media Type\", got 400 \"Bad Request\" · at \
         test/json.js:528:12"
    );
    assert!(
        all[3].ends_with(
            "L240 Unexpected token 'p', \"[parameters\"... is not valid JSON · at \
             test/urlencoded.js:499:12"
        ),
        "{all:#?}"
    );
    assert_eq!(all.len(), failed + 1);
}

/// `find src tests -name '*.php' -exec php -l {} ;` on monolog (corpus 10): what `find` runs
/// prints the output, so it is no listing; PHP's parse errors are counted and each is shown as
/// printed, the files `php -l` failed quoted, the files it passed counted as a direct count
/// over the file gives, and `No syntax errors detected` is no error.
#[test]
fn php_lint_counts_its_parse_errors_and_files() {
    let bytes = corpus10("find-php-l-monolog.txt");
    let text = String::from_utf8_lossy(&bytes);
    let clean = text
        .lines()
        .filter(|l| l.starts_with("No syntax errors detected in "))
        .count();
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "php:"),
        format!(
            "php: 3 errors, 0 warnings in 3 files; kinds: Parse error ×3; php -l: 3 files with \
             errors, {clean} without"
        )
    );
    let shown = r.render();
    let at = shown
        .iter()
        .position(|l| l.starts_with("[ctxoff] php:"))
        .expect("the php fact");
    assert_eq!(
        shown[at + 1..at + 4],
        [
            "Errors parsing src/Monolog/Formatter/JsonFormatter.php",
            "Errors parsing src/Monolog/Logger.php",
            "Errors parsing src/Monolog/Handler/StreamHandler.php",
        ]
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[2],
        "  L40 PHP Parse error:  syntax error, unexpected token \"public\" in \
         src/Monolog/Logger.php on line 205"
    );
}

/// stylelint's report is ESLint's stylish with marks for severities (animate.css, corpus 9):
/// its total, problems counted per rule as a direct count over the file gives, and the first
/// of each rule shown as its file joined to the line as printed, columns two spaces apart.
#[test]
fn stylelint_counts_its_problems_per_rule_and_shows_the_first_of_each() {
    let bytes = corpus9("stylelint-animate.css.txt");
    let text = String::from_utf8_lossy(&bytes);
    let r = report(&bytes);
    let line = rendered(&r, "stylelint:");
    assert!(
        line.starts_with(
            "stylelint: 292 problems (292 errors, 0 warnings); counted: 292 errors, 0 warnings"
        ),
        "{line}"
    );
    let marked = text.lines().filter(|l| l.contains("  ✖  ")).count();
    assert_eq!(marked, 292);
    let kebab = text
        .lines()
        .filter(|l| l.ends_with("  keyframes-name-pattern"))
        .count();
    assert!(
        line.contains(&format!("keyframes-name-pattern ×{kebab}")),
        "{line}"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] first of each kind (15):");
    assert_eq!(
        all[1],
        "  L3 source/_base.css:3:3  ✖  Unknown property \"animation-fill-mod\"  property-no-unknown"
    );
    assert_eq!(
        all[2],
        "  L6 source/attention_seekers/bounce.css:1:1  ✖  Unclosed block  CssSyntaxError"
    );
    assert_eq!(fact(&r, "stylelint")["errors"], 292);
}

/// coverage.py's table under pytest-cov (corpus 9): files and files below 100% counted from
/// the table, its TOTAL row and the least covered file's row quoted under its header, as
/// printed.
#[test]
fn coverage_py_table_counts_files_and_quotes_the_total_and_the_least_covered() {
    let bytes = corpus9("pytest-cov-natsort.txt");
    let text = String::from_utf8_lossy(&bytes);
    let r = report(&bytes);
    let f = fact(&r, "coverage");
    // The rows between the header's rule and TOTAL's, counted directly.
    let lines: Vec<&str> = text.lines().collect();
    let header = lines.iter().position(|l| l.starts_with("Name ")).unwrap();
    let total = lines.iter().position(|l| l.starts_with("TOTAL ")).unwrap();
    let rows: Vec<&str> = lines[header + 2..total - 1].to_vec();
    assert_eq!(json_u64(&f["files"]), rows.len() as u64);
    let below = rows.iter().filter(|r| !r.contains(" 100%")).count() as u64;
    assert_eq!(json_u64(&f["below_100"]), below);
    assert_eq!(f["total"]["line"], (total + 1) as u64);
    assert_eq!(f["total"]["percent"], 91.0);
    assert_eq!(
        rendered(&r, "coverage"),
        "coverage (coverage.py): 11 files, 5 below 100%; total 91%"
    );
    let shown = r.render().join("\n");
    assert!(
        shown.contains(
            "Name                                 Stmts   Miss  Cover   Missing\n\
             TOTAL                                  588     51    91%\n\
             natsort/compat/locale.py                46     17    63%   27-55, 81\n"
        ),
        "{shown}"
    );
}

/// pytest-cov under nox with `--cov-fail-under=100` (corpus 9): the minimum not reached is
/// said, with pytest-cov's closing line (the exact total), not xdist's earlier one.
#[test]
fn coverage_below_its_required_minimum_is_said_with_the_closing_line() {
    let r = report(&corpus9("nox-installer.txt"));
    let f = fact(&r, "coverage");
    assert_eq!(
        f["threshold"]["text"],
        "FAIL Required test coverage of 100% not reached. Total coverage: 99.83%"
    );
    assert!(rendered(&r, "coverage").ends_with("; required minimum not reached"));
    assert_eq!((json_u64(&f["files"]), json_u64(&f["below_100"])), (10, 1));
    assert!(
        f["lowest"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("installer/records.py") && t.ends_with("99%   143"))
    );
}

/// istanbul's text table (jest `--coverage`, corpus 9): files are the rows under a directory's
/// row, the total is `All files`, a file is below 100% when any of its four figures is, and the
/// least covered is the lowest `% Stmts`.
#[test]
fn istanbul_table_counts_files_and_quotes_all_files_and_the_least_covered() {
    let bytes = corpus9("jest-coverage-cron-parser.txt");
    let text = String::from_utf8_lossy(&bytes);
    let r = report(&bytes);
    let f = fact(&r, "coverage");
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("% Stmts"))
        .skip(1)
        .take_while(|l| l.contains('|'))
        .collect();
    let files: Vec<&str> = table.into_iter().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(json_u64(&f["files"]), files.len() as u64);
    let below = files
        .iter()
        .filter(|l| {
            l.split('|')
                .skip(1)
                .take(4)
                .any(|c| c.trim().parse::<f64>().is_ok_and(|p| p < 100.0))
        })
        .count() as u64;
    assert_eq!(json_u64(&f["below_100"]), below);
    assert_eq!(f["tool"], "istanbul");
    assert!(
        f["total"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("All files                 |   99.63 |    99.37 |"))
    );
    assert!(
        f["lowest"][0]["text"]
            .as_str()
            .is_some_and(|t| t.contains("CronExpression.ts       |   98.41 |"))
    );
}

/// node-tap runs each test file as a subtest: the top level's `not ok` lines are the failed
/// files, quoted under the TAP line as printed (without node-tap's `# time=` directive), since
/// the list of failures is of the assertions under them; a coverage table of nothing but 100%
/// is a count (node-semver, corpus 9).
#[test]
fn node_tap_names_its_failed_files_and_a_full_coverage_table_is_a_count() {
    let bytes = corpus9("tap-node-semver.txt");
    let text = String::from_utf8_lossy(&bytes);
    let r = report(&bytes);
    let top: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("not ok "))
        .map(|l| l.split(" # time=").next().unwrap())
        .collect();
    assert_eq!(top.len(), 5);
    assert_eq!(top[0], "not ok 1 - test/bin/semver.js");
    assert_eq!(rendered(&r, "TAP:"), "TAP: 12 planned, 7 ok, 5 not ok");
    let shown = r.render();
    let at = shown
        .iter()
        .position(|l| l == "[ctxoff] TAP: 12 planned, 7 ok, 5 not ok")
        .expect("the TAP fact");
    assert_eq!(shown[at + 1..at + 6], top);
    assert_eq!(
        rendered(&r, "coverage"),
        "coverage (istanbul): 12 files, all at 100%"
    );
    assert!(
        fact(&r, "coverage")["total"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("All files           |     100 |"))
    );
    let shown = shown.join("\n");
    assert!(!shown.contains("% Stmts"), "{shown}");
}

/// A Sphinx build with `-n -W` (pyparsing, corpus 9): warnings and errors counted line by
/// line, errors listed, then the first warning of each category; a warning that goes on to
/// an exception takes the exception's last line and its category from the end of it.
#[test]
fn sphinx_counts_its_problems_and_shows_the_first_of_each_category() {
    let bytes = corpus9("sphinx-build-pyparsing.txt");
    let text = String::from_utf8_lossy(&bytes);
    let r = report(&bytes);
    let f = fact(&r, "sphinx");
    let count = |level: &str| {
        text.lines()
            .filter(|l| l.starts_with(&format!("{level}: ")) || l.contains(&format!(": {level}: ")))
            .count() as u64
    };
    assert_eq!(json_u64(&f["warnings"]), count("WARNING"));
    assert_eq!(json_u64(&f["errors"]), count("ERROR"));
    // Sphinx's own count is of both.
    assert_eq!(
        json_u64(&f["closing_warnings"]),
        count("WARNING") + count("ERROR")
    );
    assert_eq!(json_u64(&f["categories"]["ref.class"]), 38);
    // The log's reading of the same lines is superseded.
    assert!(!shapes(&r).contains(&"log".to_string()), "{:?}", shapes(&r));
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains("  L49 /home/dev/pyparsing-3.3.3/docs/whats_new_in_3_2.rst:12: ERROR: Unknown directive type \"contentz\".\n"),
        "{all}"
    );
    assert!(
        all.contains(
            "  L29 WARNING: autodoc: failed to import 'one_of_many' from module \
             'pyparsing.helpers'; the following exception was raised: · AttributeError: \
             one_of_many · [autodoc.import_object]\n"
        ),
        "{all}"
    );
    let categories = all.matches("WARNING: ").count();
    assert_eq!(categories, 8, "{all}");
}

/// tox runs Sphinx twice (docs, doctest), each failing on the same warning: the second
/// section's list says it is the same as the first's, in a few tokens, and the doctest
/// builder's own report of its failed example stays beside Sphinx's counts (corpus 7).
#[test]
fn a_failure_another_section_showed_is_said_to_be_the_same() {
    let bytes = fixture("corpus7", "tox-cachetools.txt");
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    // The two warnings, word for word the same.
    assert_eq!(lines[1238], lines[1276]);
    assert!(lines[1238].starts_with("WARNING: failed to reach any of the inventories"));
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "[ctxoff] docs: first warning of each category (1):\n  L1,239 WARNING: failed to \
             reach any of the inventories with the following issues: · intersphinx inventory"
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "[ctxoff] doctest: first warning of each category (1):\n  L1,277 same as L1,239\n"
        ),
        "{all}"
    );
    assert!(
        all.contains("[ctxoff] doctest: failed examples (1):"),
        "{all}"
    );
}

/// A Sphinx warning that goes on (it ends in `:`) ends at the next problem, which is a
/// problem of its own even when it carries a category (lines of corpus 7's and corpus 9's
/// builds, one after the other).
#[test]
fn sphinx_warning_that_goes_on_ends_at_the_next_problem() {
    let log = concat!(
        "Running Sphinx v9.0.4\n",
        "WARNING: failed to reach any of the inventories with the following issues:\n",
        "intersphinx inventory 'https://docs.python.org/3/objects.inv' not fetchable due to <class 'requests.exceptions.ConnectionError'>\n",
        "<unknown>:4: WARNING: py:obj reference target not found: pyparsing.diagram.T [ref.obj]\n",
        "build finished with problems, 2 warnings (with warnings treated as errors).\n",
    );
    let r = report(log.as_bytes());
    let f = fact(&r, "sphinx");
    assert_eq!(json_u64(&f["warnings"]), 2);
    assert_eq!(json_u64(&f["categories"]["ref.obj"]), 1);
    assert_eq!(json_u64(&f["categories"]["none"]), 1);
    let all = failures_within(log.as_bytes(), u64::MAX).join("\n");
    assert!(
        all.contains("  L2 WARNING: failed to reach any of the inventories with the following issues: · intersphinx inventory"),
        "{all}"
    );
    assert!(
        all.contains("  L4 <unknown>:4: WARNING: py:obj reference target not found: pyparsing.diagram.T [ref.obj]"),
        "{all}"
    );
}

/// A server logging JSON records (Fastify's pino, corpus 4): each request is counted once at
/// its end (`res.statusCode`), named by the method and URL of its beginning (`incoming
/// request`, same `reqId`), though Fastify logs an error record with the status before it.
#[test]
fn access_log_of_json_records_counts_each_request_once_at_its_end() {
    let text = String::from_utf8(corpus4("node-fastify-log.txt")).unwrap();
    let r = report(text.as_bytes());
    let f = fact(&r, "access log");
    let completed: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"msg\":\"request completed\""))
        .collect();
    let count = |needle: &str| completed.iter().filter(|l| l.contains(needle)).count() as u64;
    assert_eq!(json_u64(&f["requests"]), completed.len() as u64);
    assert_eq!(json_u64(&f["statuses"]["500"]), count("\"statusCode\":500"));
    assert_eq!(json_u64(&f["statuses"]["404"]), count("\"statusCode\":404"));
    assert_eq!(
        json_u64(&f["failed"]),
        count("\"statusCode\":4") + count("\"statusCode\":5")
    );
    assert_eq!(json_u64(&f["methods"]["DELETE"]), 1);
    let shown = r.render().join("\n");
    assert!(shown.contains("  L21 GET /report 500\n"), "{shown}");
}

/// pino-http logs a request whole in one record (`req` and `res`), and a warning its handler
/// logged for it (`req.log.warn`) before that: the warning is the failed request's reason.
#[test]
fn access_log_of_json_records_gives_a_failed_request_its_warning() {
    let r = report(&fixture("more", "pino-http-express.txt"));
    let f = fact(&r, "access log");
    assert_eq!((json_u64(&f["requests"]), json_u64(&f["failed"])), (8, 4));
    assert_eq!(
        f["statuses"],
        serde_json::json!({"200": 4, "404": 2, "400": 1, "500": 1})
    );
    let shown = r.render().join("\n");
    assert!(
        shown.contains("  L4 GET /items/9 404: item not found\n"),
        "{shown}"
    );
    assert!(shown.contains("  L5 POST /items 400\n"), "{shown}");
}

/// Express logging with morgan's `dev` format, coloured: requests without quotes (`GET
/// /notes/1 500 1.741 ms - 1160`), counted by status and method as curl sent them, and the
/// first of each error status said as logged, up to its status.
#[test]
fn access_log_of_morgan_counts_requests_written_without_quotes() {
    let r = report(&fixture("more", "morgan-dev-express.txt"));
    let f = fact(&r, "access log");
    assert_eq!((json_u64(&f["requests"]), json_u64(&f["failed"])), (21, 12));
    assert_eq!(
        f["statuses"],
        serde_json::json!({"200": 7, "201": 1, "204": 1, "400": 2, "403": 1, "404": 5, "500": 4})
    );
    assert_eq!(
        f["methods"],
        serde_json::json!({"GET": 17, "POST": 3, "DELETE": 1})
    );
    let shown = r.render().join("\n");
    for request in [
        "L8 GET /notes/1 500",
        "GET /notes/7 404",
        "POST /notes 400",
        "GET /admin 403",
    ] {
        assert!(shown.contains(request), "{request}: {shown}");
    }
}

/// gin's log (`[GIN] DATE | 500 | 952µs | 127.0.0.1 | GET "/notes/1"`), between its debug
/// lines and the panics its Recovery printed: requests counted as curl sent them.
#[test]
fn access_log_of_gin_reads_its_columns() {
    let r = report(&fixture("more", "gin-notes.txt"));
    let f = fact(&r, "access log");
    assert_eq!((json_u64(&f["requests"]), json_u64(&f["failed"])), (17, 9));
    assert_eq!(
        f["statuses"],
        serde_json::json!({"200": 7, "201": 1, "400": 1, "403": 1, "404": 4, "500": 3})
    );
    assert_eq!(f["methods"], serde_json::json!({"GET": 15, "POST": 2}));
    let shown = r.render().join("\n");
    // With the panic gin's Recovery printed before it.
    assert!(
        shown.contains(
            "| 500 |     952.198µs |       127.0.0.1 | GET      \"/notes/1\": runtime error: \
             index out of range [0] with length 0"
        ),
        "{shown}"
    );
    // The read-more pattern finds the requests that failed, and only those.
    let hint = r.hint().expect("a hint");
    let pattern = regex::Regex::new(hint.trim_matches('\'')).unwrap();
    let bytes = fixture("more", "gin-notes.txt");
    let found = bytes
        .split(|&b| b == b'\n')
        .filter(|l| pattern.is_match(&clean_line(l)))
        .count();
    assert_eq!(found, 9, "{hint}");
}

/// A chi server's log (corpus 18): its requests counted as curl sent them, and the first
/// that answered 500 said as logged with the panic chi's Recoverer printed before it, and the
/// frame it marks (`->   …/main.go:501`).
#[test]
fn access_log_of_chi_gives_a_failed_request_the_panic_before_it() {
    let r = report(&corpus18("rest-server-log-chi.txt"));
    let f = fact(&r, "access log");
    assert_eq!((json_u64(&f["requests"]), json_u64(&f["failed"])), (29, 23));
    assert_eq!(f["statuses"]["500"], 11);
    let shown = r.render().join("\n");
    assert!(
        shown.contains(
            "L66 \"GET http://127.0.0.1:3333/articles HTTP/1.1\" from 127.0.0.1:45398 - 500 0B: \
             panic: runtime error: index out of range [2] with length 2 · at \
             /home/dev/chi/_examples/rest/main.go:501"
        ),
        "{shown}"
    );
}

/// Tornado's log: records whose level is a letter (`[E 261206 11:35:52 web:1947]`), each
/// uncaught exception detailed by its traceback, which Tornado indents; its access lines
/// (`404 GET /favicon.ico (127.0.0.1) 6.68ms`) counted as requests, a failed request given the
/// reason Tornado logged for it on the line before, and a 500 left to the access log (not
/// listed again as an error record: the exception it answered says `answered 500`). Its
/// truth: the 27 requests sent with curl.
#[test]
fn access_log_of_tornado_and_its_tracebacks() {
    let r = report(&corpus19("python3-server-log-tornado.txt"));
    let access = fact(&r, "access log");
    assert_eq!(
        (json_u64(&access["requests"]), json_u64(&access["failed"])),
        (27, 23)
    );
    for (status, n) in [
        ("200", 4),
        ("400", 3),
        ("403", 6),
        ("404", 7),
        ("405", 1),
        ("500", 6),
    ] {
        assert_eq!(access["statuses"][status], n, "{status}");
    }
    let log = fact(&r, "log");
    assert_eq!(json_u64(&log["errors"]), 12);
    assert_eq!(json_u64(&log["exceptions_raised"]), 6);
    let all = failures_within(&corpus19("python3-server-log-tornado.txt"), u64::MAX);
    assert_eq!(
        line_with(&all, "  L42 "),
        "  L42 [E 261206 11:35:55 web:1947] Uncaught exception POST /a/message/updates \
         (127.0.0.1): KeyError: 'ID' · File \"/home/dev/tornado/demos/chat/chatdemo.py\", line \
         42, in get_messages_since · if msg[\"ID\"] == cursor: · answered 500"
    );
    assert!(
        all.iter().any(|l| l
            == "  L26 403 POST /a/message/new (127.0.0.1): '_xsrf' argument missing from POST"),
        "{all:#?}"
    );
    assert!(
        all.iter().any(|l| l == "  L21 500 GET / (127.0.0.1)"),
        "{all:#?}"
    );
    assert!(
        !all.iter().any(|l| l.contains("web:2418] 500 ")),
        "{all:#?}"
    );
}

/// glog's format, as absl's logging writes it (`E1206 14:17:43.285215 140313465592704
/// ingest.py:34] row 3: no price for '3'`), on a real run of a small importer with a bug put in
/// by hand: its 22 records counted by level as written (12 `E`, 7 `W`, 2 `I`, 1 `F`), each
/// error and the fatal one listed, and the read-more pattern that finds them.
#[test]
fn a_glog_format_log_is_read_by_its_level_letters() {
    let bytes = fixture("more", "absl-logging-ingest.txt");
    let r = report(&bytes);
    let log = fact(&r, "log");
    assert_eq!(
        (json_u64(&log["records"]), json_u64(&log["errors"])),
        (22, 13)
    );
    for (level, n) in [("error", 12), ("warning", 7), ("info", 2), ("fatal", 1)] {
        assert_eq!(log["levels"][level], n, "{level}");
    }
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.iter().any(
            |l| l == "  L22 F1206 14:17:43.285891 140313465592704 ingest.py:40] 12 rows failed"
        ),
        "{all:#?}"
    );
    assert_eq!(r.hint().as_deref(), Some("'^[EF][0-9]{4} ' -A 3"));
}

/// A log record whose message is a bare status (`ERROR: 500`) is no Tornado request: reading
/// it so once panicked past the end of the line, and the log's facts were lost with it.
#[test]
fn a_record_of_a_bare_status_is_still_a_log_record() {
    let r = report(b"ERROR: 500\nERROR: 502\nWARNING: 404\n[x] 404\n");
    let log = fact(&r, "log");
    assert_eq!(
        (json_u64(&log["records"]), json_u64(&log["errors"])),
        (3, 2)
    );
}

/// nginx's combined format, and lines that only look like requests in other output.
#[test]
fn access_log_in_the_combined_format_and_never_on_too_few_requests() {
    let log = concat!(
        "10.0.0.1 - - [10/Oct/2000:13:55:36 -0700] \"GET /a HTTP/1.1\" 200 2326 \"-\" \"curl/8\"\n",
        "10.0.0.2 - bob [10/Oct/2000:13:55:37 -0700] \"PUT /b HTTP/2.0\" 503 12 \"-\" \"curl/8\"\n",
        "10.0.0.1 - - [10/Oct/2000:13:55:38 -0700] \"GET /c HTTP/1.1\" 304 0 \"-\" \"curl/8\"\n",
    );
    let r = report(log.as_bytes());
    let f = fact(&r, "access log");
    assert_eq!((json_u64(&f["requests"]), json_u64(&f["failed"])), (3, 1));
    assert_eq!(f["methods"], serde_json::json!({"GET": 2, "PUT": 1}));
    // The failed request as logged, with the size of its answer.
    assert!(
        r.render()
            .iter()
            .any(|l| l.ends_with("L2 \"PUT /b HTTP/2.0\" 503 12")),
        "{:#?}",
        r.render()
    );
    let two: String = log.lines().take(2).map(|l| format!("{l}\n")).collect();
    let r = report(two.as_bytes());
    assert!(
        !shapes(&r).contains(&"access log".to_string()),
        "{:?}",
        shapes(&r)
    );
}

/// Plain pytest on schema with 46 failures, the first two `DID NOT RAISE SchemaError` in two
/// tests: the second test is another place to fix, said as the same as the first with where it
/// is, before later failures of other ways (the first three failing tests come first).
#[test]
fn a_first_test_failing_as_one_shown_is_said_with_its_place() {
    let shown = failures_within(&corpus17("pytest-did-not-raise-schema.txt"), 1_000).join("\n");
    assert!(
        shown.contains(
            "test_schema.py::test_dict_keys\n  L41 same as L33 · test_schema.py:321: Failed"
        ),
        "{shown}"
    );
    assert_eq!(
        shown.matches("DID NOT RAISE SchemaError").count(),
        1,
        "{shown}"
    );
}

/// jest --verbose on card-validator, one test file not compiling under ts-jest: the suite
/// that failed to run is said with TypeScript's error and the line of code it is in.
#[test]
fn a_jest_suite_that_does_not_compile_shows_its_line_of_code() {
    let shown = failures_within(
        &corpus17("npm-test-jest-verbose-card-validator.txt"),
        u64::MAX,
    )
    .join("\n");
    assert!(
        shown.contains(
            "L993 src/__tests__/validator.ts: src/__tests__/validator.ts:10:57 - error TS1005: ')' expected. · 10     expect(validator.postalCode).toBeInstanceOf(Function;"
        ),
        "{shown}"
    );
}

/// Node's test runner through tsx, as TAP: an `error: |-` block whose message introduces a
/// diff (`Expected values to be strictly deep-equal:`, `+ actual - expected`) is said with the
/// diff's first change, each side joined.
#[test]
fn a_tap_error_block_says_the_values_its_message_introduces() {
    let shown = failures_within(&corpus17("tsx-test-p-queue.txt"), u64::MAX).join("\n");
    assert!(
        shown.contains(
            "L93 Expected values to be strictly deep-equal: · - 'keep', 'also-keep' · + 'also-keep', 'keep' · at /home/dev/p-queue/test/advanced.ts:417:9"
        ),
        "{shown}"
    );
}

/// picohttpparser's tests under prove, its build with ASan: picotest prints each check as
/// an `ok`/`not ok` line with nothing under it, inside a subtest per group. Every failed
/// check is a failed test (none was listed before: a `not ok` needed diagnostics), counted
/// against a direct count; the group's own `not ok` over them is quoted as printed, not
/// listed with them; and the checks after a failed one are not its detail.
#[test]
fn tap_failures_with_nothing_under_them_are_failures_and_their_group_is_quoted() {
    let bytes = corpus18("make-test-asan-picohttpparser.txt");
    let text = String::from_utf8_lossy(&bytes);
    let nested = text
        .lines()
        .filter(|l| l.starts_with("    not ok "))
        .count();
    let r = report(&bytes);
    let all = r.render().join("\n");
    assert!(
        all.contains(&format!("failed tests ({nested}):")),
        "{nested}: {all}"
    );
    assert!(all.contains("\nnot ok 3 - response\n"), "{all}");
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    assert!(shown.contains("not ok 3 - test.c 183\n  L149\n"), "{shown}");
    assert!(!shown.contains("ok 4 - test.c 184"), "{shown}");
    assert!(!shown.contains("response"), "{shown}");
}

/// picohttpparser's test program aborted by ASan inside its `chunked` subtest: the TAP ends
/// there, without the subtest's result or a plan. Where it died is said, with its last line.
/// Subtests that ended, in node's way (the comment as indented as its result) or picotest's
/// (the comment indented with its lines), are said nothing of.
#[test]
fn tap_that_ends_inside_a_subtest_says_which_and_its_last_line() {
    let r = report(&corpus18("make-test-asan-picohttpparser.txt"));
    let all = r.render().join("\n");
    assert!(
        all.contains(
            "TAP ended inside `# Subtest: chunked`, after L308 `# testing per-byte, source at \
             line 412`"
        ),
        "{all}"
    );
    for closed in [
        corpus10("node-test-coverage-webidl-conversions.txt"),
        corpus9("tap-node-semver.txt"),
    ] {
        let all = report(&closed).render().join("\n");
        assert!(!all.contains("ended inside"), "{all}");
    }
}

/// Test::More names its failures by `#   Failed test` lines on stderr, before or after the
/// bare `not ok` they are about: each failure is counted once, either way.
#[test]
fn a_test_more_failure_is_counted_once_whichever_stream_came_first() {
    let after = "ok 1\nnot ok 2 - adds\n#   Failed test 'adds'\n#   at t/a.t line 5.\n\
                 #          got: '3'\n#     expected: '4'\nok 3\nnot ok 4 - subs\n\
                 #   Failed test 'subs'\n#   at t/a.t line 9.\n1..4\n";
    let before = "#   Failed test 'adds'\n#   at t/a.t line 5.\nok 1\nnot ok 2 - adds\nok 3\n\
                  #   Failed test 'subs'\n#   at t/a.t line 9.\nnot ok 4 - subs\n1..4\n";
    for text in [after, before] {
        let all = report(text.as_bytes()).render().join("\n");
        assert!(all.contains("failed tests (2):"), "{all}");
    }
}

/// Node's spec reporter on find-my-way: two suites each have failing tests named `with
/// trailing slash` (and three other names twice). Listed by name within a budget, each is
/// told apart by where it was defined, as the list of failed tests printed it (`test at …`).
#[test]
fn node_spec_failed_tests_of_one_name_are_told_apart_by_where_they_were_defined() {
    let bytes = corpus18("node-test-spec-timeout-find-my-way.txt");
    for (budget, wanted) in [
        (
            400,
            "\n    with trailing slash (test/errors.test.js:295:3)\n",
        ),
        (
            800,
            "\n    with trailing slash (test/errors.test.js:414:3)\n",
        ),
    ] {
        let shown = failures_within(&bytes, budget).join("\n");
        assert!(shown.contains(wanted), "{wanted}: {shown}");
        // A name of its own is said alone.
        assert!(
            shown.contains("\n    Method already declared nested route\n"),
            "{shown}"
        );
    }
}

/// `pytest -vv` on wcwidth: a list of 16 dicts asserted empty. The assertion's line holds the
/// whole list, cut in its middle; pytest's `Left contains 16 more items, first extra item: …`
/// says how many and which first, and is the detail after the assertion's start. A dict's
/// `Left contains 3 more items:`, its items on the lines under it, says nothing alone.
#[test]
fn pytest_says_how_many_more_items_a_sequence_has() {
    let shown = failures_within(&corpus18("pytest-vv-long-diff-wcwidth.txt"), u64::MAX).join("\n");
    assert!(
        shown.contains(
            "L81 E       AssertionError: assert [{'expected_width': 2, 'line': '0031 FE0F  ; emoji \
             style; #… · Left contains 16 more items, first extra item: {'expected_width': 2, \
             'line': '0031 FE0F  ; emoji style; # (1.1) DIGIT ONE'"
        ),
        "{shown}"
    );
    let shown = failures_within(&corpus13("pytest-randomly-pydash.txt"), u64::MAX).join("\n");
    assert!(
        shown.contains("L189 E       AssertionError: assert {'a': 1, 'b': 2, 'c': 3} == {1: 'a', 2: 'b', 3: 'c'} · tests/test_objects.py:204"),
        "{shown}"
    );
}

/// tcltest on tcllib's json module with a breakage (`tclsh json.test`, exit 0): the totals of
/// its closing line, every failed test counted (each closes with `==== name FAILED`), the first
/// named as tcltest says it, with what it returned and what it should have.
#[test]
fn tcltest_totals_and_failures_of_a_real_run() {
    let bytes = corpus17("tclsh-json-test-tcllib.txt");
    let text = String::from_utf8_lossy(&bytes);
    let closed = text
        .lines()
        .filter(|l| {
            l.strip_prefix("==== ")
                .and_then(|r| r.strip_suffix(" FAILED"))
                .is_some_and(|name| !name.contains(' '))
        })
        .count();
    assert_eq!(closed, 135);
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 512 run, 377 passed, 135 failed (tcltest)"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    assert!(shown.starts_with("[ctxoff] failed tests (135):"), "{shown}");
    assert!(
        shown.contains(
            "==== json-tcl-8.1 test FAIL escape1 FAILED\n  L46 was: unexpected token \"\"\\%\"\" at position 0; expected STRING · should have been: unexpected token \"\"\\%\"\" at position 0; expecting STRING"
        ),
        "{shown}"
    );
}

/// jest's `it.each` rows on credit-card-type: a failure with four lines of values
/// (`toHaveLength`'s expected and received lengths and the array) still says where it failed,
/// in place of its last line of values.
#[test]
fn a_failure_with_many_lines_of_values_still_says_where() {
    let shown = failures_within(
        &corpus17("npm-test-jest-each-credit-card-type.txt"),
        u64::MAX,
    )
    .join("\n");
    assert!(
        shown.contains(
            "L151 expect(received).toHaveLength(expected) · Expected length: 1 · Received length: 0 · at src/__tests__/index.ts:183:22"
        ),
        "{shown}"
    );
}

/// vitest on pathe: one report under the FAIL lines of two tests that failed alike is each
/// one's, so the first failed test is said with it too (before, only the last had it).
#[test]
fn vitest_tests_listed_over_one_report_each_have_it() {
    let shown = failures_within(&corpus17("npx-vitest-run-many-pathe.txt"), u64::MAX).join("\n");
    for wanted in [
        "L508 test/index.spec.ts > normalizeWindowsPath > normalizeWindowsPath('c:\\\\foo\\\\bar') should be 'C:/foo/bar': AssertionError: expected 'C:/foo\\bar' to equal 'C:/foo/bar'",
        // The second, word for word the same, is named with the others.
        "\n    test/index.spec.ts > toNamespacedPath > toNamespacedPath('C:\\\\foo\\\\bar') should be 'C:/foo/bar'\n",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// The sqlite3 shell running a script with five errors on the Chinook database (exit 1, as
/// for one error): each error as printed, counted by kind, a parse error with the statement
/// sqlite shows where it stopped.
#[test]
fn sqlite3_errors_of_a_real_script() {
    let bytes = corpus17("sqlite3-script-errors-chinook.txt");
    let text = String::from_utf8_lossy(&bytes);
    let parse = text
        .lines()
        .filter(|l| l.starts_with("Parse error near line "))
        .count();
    let runtime = text
        .lines()
        .filter(|l| l.starts_with("Runtime error near line "))
        .count();
    assert_eq!((parse, runtime), (3, 2));
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "sqlite3:"),
        "sqlite3: 5 errors (3 parse, 2 runtime)"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "L26 Parse error near line 12: no such column: InvoiceDt: SELECT strftime('%Y-%m', InvoiceDt) AS month",
        "L81 Parse error near line 46: near \";\": syntax error: eId GROUP BY e.EmployeeId ORDER BY customers DESC,;",
        "L135 Runtime error near line 66: FOREIGN KEY constraint failed (19)",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// 57 failing vitest tests that fail in a few ways (33 of them with the same `TypeError`):
/// within a budget, the first three failing tests come first (each at a line of its own), then
/// one failure of each way of failing (its detail but for the values compared), before another
/// test failing a way already shown; the others are named.
#[test]
fn failures_within_a_budget_show_the_first_tests_then_each_way_of_failing() {
    let bytes = corpus2("vitest-date-fns.txt");
    let first = failures_within(&bytes, 500).join("\n");
    for wanted in [
        "L657 src/addBusinessDays/test.ts > addBusinessDays > returns the Monday when 1 day is added on the Friday: AssertionError: expected 2020-01-11T00:00:00.000Z to deeply equal 2020-01-13T00:00:00.000Z",
        "L676 src/addBusinessDays/test.ts > addBusinessDays > starting from a weekend day should land on a weekday when reducing a divisible by 5: AssertionError: expected 2019-08-10T00:00:00.000Z to deeply equal 2019-08-12T00:00:00.000Z · at src/addBusinessDays/test.ts:76:35",
        "L695 src/addBusinessDays/test.ts > addBusinessDays > context > allows to specify the context: AssertionError: expected '2024-08-24T23:00:00.000+08:00'",
    ] {
        assert!(first.contains(wanted), "{wanted} in {first}");
    }
    let lines = failures_within(&bytes, 900);
    let shown = lines.join("\n");
    for wanted in [
        "to deeply equal 2020-01-13T00:00:00.000Z",
        "AssertionError: expected '2024-08-24T23:00:00.000+08:00' to be '2024-08-23T23:00:00.000+08:00'",
        "AssertionError: expected 1 to be 2 // Object.is equality",
        "TypeError: Cannot read properties of undefined (reading 'locale')",
        "AssertionError: expected error to be instance of RangeError",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    let typeerrors = lines
        .iter()
        .filter(|l| l.contains("(reading 'locale')"))
        .count();
    assert_eq!(typeerrors, 1, "{shown}");
    assert!(lines.last().unwrap().starts_with("  … "), "{shown}");
}

/// pytest 9's subtests: the final line counts them apart (`21190 subtests passed`), the short
/// summary names them `SUBFAILED(size=1) …`, and a test's subtests are one group, so within a
/// tight budget the other failing tests come before a second subtest of the first.
#[test]
fn pytest_subtests_are_counted_apart_and_grouped_with_their_test() {
    let bytes = corpus2("pytest-v-more-itertools.txt");
    let r = report(&bytes);
    let f = fact(&r, "pytest");
    assert_eq!(
        (f["run"].as_u64(), f["failed"].as_u64()),
        (Some(769), Some(7))
    );
    assert_eq!(f["subtests"]["passed"], 21190);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 769 run, 762 passed, 7 failed; subtests: 21,190 passed (pytest)"
    );
    let shown = failures_within(&bytes, 250).join("\n");
    for wanted in [
        "MarkEndsTests::test_basic (size=1)\n  L880 E               AssertionError: Lists differ",
        "AlwaysReversibleTests::test_nonseq_reversed\n  L1,042 E           TypeError: 'generator' object is not reversible",
        "QuantifyTests::test_custom_predicate\n  L1,053 E       AssertionError: 6 != 5",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    assert!(!shown.contains("(size=2)\n"), "{shown}");
}

/// Four failing tests whose details all fit: no room is kept for a line naming the others.
#[test]
fn every_failure_is_detailed_when_every_one_fits() {
    let lines = failures_within(&corpus2("cargo-test-bytes.txt"), 270);
    let shown = lines.join("\n");
    assert_eq!(lines.len(), 5, "heading and four failures: {shown}");
    assert!(
        shown.contains("src/lib.rs - (line 30) ... FAILED\n  L1,455 panicked at src/lib.rs:13:1:"),
        "{shown}"
    );
    assert!(!shown.contains("more"), "{shown}");
}

/// The preview and report of a whole output at the default budget, as `summarise` makes them.
fn summarised(
    bytes: &[u8],
    tokenizer: &crate::tokens::Tokenizer,
) -> (super::preview::Preview, Report) {
    let (analysis, lines) = feed(bytes, 200);
    let ends = super::preview::Ends {
        start: bytes,
        end: bytes,
        end_at_line_start: true,
        whole: true,
        total_lines: lines,
        total_bytes: bytes.len() as u64,
    };
    let total = tokenizer.count_bytes(bytes);
    super::summarise(analysis, &ends, tokenizer, 1000, Some(total))
}

/// A log's errors within a budget: one record of each template before a second of any
/// (`user bob not found` and `user mallory not found` are one template), so the rarer faults
/// further down (a CGI script's malformed header) are shown rather than the same denial twice.
#[test]
fn a_logs_errors_show_each_template_once_first() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let (_, apache) = summarised(&corpus5("apache2-foreground-log.txt"), &tokenizer);
    let lines = apache.render();
    let shown = lines.join("\n");
    assert!(
        shown.contains("L159 [authz_core:error] AH01630:"),
        "{shown}"
    );
    assert!(
        shown.contains("L167 [auth_basic:error] AH01618: user bob"),
        "{shown}"
    );
    assert!(
        shown.contains("malformed header from script 'upload.py'"),
        "{shown}"
    );
    for repeat in ["L161 ", "L172 "] {
        assert!(
            !lines.iter().any(|l| l.starts_with(&format!("  {repeat}"))),
            "{shown}"
        );
    }
}

/// A log's record served again at another time, on another port, is the same message: said
/// to be the same as the first in a few tokens, beside the second way the server failed (a
/// compaction panic), within a budget that its requests' list (the first 400, 404 and 405)
/// shares.
#[test]
fn a_logs_record_again_is_the_same_message() {
    let lines = failures_within(&corpus4("go-run-kvserver-log.txt"), 220);
    let shown = lines.join("\n");
    assert!(
        shown.contains("L65 ") && shown.contains("L420 panic: runtime error: slice bounds"),
        "{shown}"
    );
    assert!(lines.iter().any(|l| l == "  L179 same as L65"), "{shown}");
}

/// Exceptions raised at one place with messages of their own (huey's task and Flask's view
/// each fed `'abc'`, `'x1'`, `'1e3'`): each message is shown, the place and its source line
/// once, the others said to be at the same place as the first.
#[test]
fn exceptions_at_a_place_shown_before_say_so_instead_of_repeating_it() {
    let lines = failures_within(&corpus7("honcho-start-huey-flask-ex.txt"), u64::MAX);
    let shown = lines.join("\n");
    let frame = r#"File "/home/dev/huey-3.5.4/examples/flask_ex/views.py", line 15, in home"#;
    assert_eq!(shown.matches(frame).count(), 1, "{shown}");
    assert!(
        shown.contains(&format!(
            "L88 ValueError: invalid literal for int() with base 10: 'abc' · {frame}"
        )),
        "{shown}"
    );
    for (line, value) in [("L160", "'x1'"), ("L251", "'1e3'")] {
        let said = format!(
            "  {line} ValueError: invalid literal for int() with base 10: {value} · same place as L88"
        );
        assert!(lines.contains(&said), "{said} in {shown}");
    }
    // A place seen once is said whole: the SyntaxError in another file.
    assert!(
        shown.contains(r#"L314 SyntaxError: expected ':' · File "/home/dev/huey-3.5.4/examples/flask_ex/tasks.py", line 23"#),
        "{shown}"
    );
}

/// An example is not the same record again at another time (PostgreSQL's two failed logins as
/// `admin`), nor a record whose message a failure shown already quotes (the same Go panic
/// served again, its line cut before the message).
#[test]
fn examples_do_not_repeat_a_record_or_a_failure_shown() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let (_, postgres) = summarised(&corpus4("postgres-log.txt"), &tokenizer);
    let examples: Vec<String> = postgres
        .render()
        .into_iter()
        .filter(|l| l.contains("password authentication failed for user \"admin"))
        .collect();
    assert!(examples.len() <= 1, "{examples:#?}");
    let (_, go) = summarised(&corpus4("go-run-kvserver-log.txt"), &tokenizer);
    let lines = go.render();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("L65 ") && l.contains("nil pointer dereference")),
        "{lines:#?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains(": ") && l.starts_with("  L87:")),
        "{lines:#?}"
    );
}

/// The notable lines are part of the budget: when the failures already took what head and
/// tail may give (34 pytest failures), they are counted with one example, not two, so the
/// summary stays within its budget.
#[test]
fn notable_lines_past_failures_that_fill_the_share_have_one_example() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let examples = |bytes: &[u8]| {
        let (_, report) = summarised(bytes, &tokenizer);
        let lines = report.render();
        let counts = lines
            .iter()
            .position(|l| l.starts_with("[ctxoff] omitted lines contain:"))
            .unwrap_or_else(|| panic!("{lines:#?}"));
        lines[counts + 1..]
            .iter()
            .take_while(|l| l.starts_with("  L"))
            .count()
    };
    assert_eq!(examples(&corpus3("pytest-xdist-dateutil.txt")), 1);
    // A few failures leave room: two examples.
    assert_eq!(examples(&corpus2("mvn-test-json-simple.txt")), 2);
}

/// A runner's line that a fact quotes (go's `FAIL\tpkg\t0.048s`) is not said twice: when the
/// tail shows it, the fact's list leaves it out; without a preview it is there.
#[test]
fn quoted_lines_shown_in_the_tail_are_not_repeated() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let bytes = corpus3("go-test-race-logrus.txt");
    let in_tail = "FAIL\tgithub.com/sirupsen/logrus/hooks/writer\t0.010s";
    let above = "FAIL\tgithub.com/sirupsen/logrus\t0.048s";
    let (preview, summary) = summarised(&bytes, &tokenizer);
    let tail: Vec<&str> = preview.tail.iter().map(|l| l.text.as_str()).collect();
    assert!(
        tail.contains(&in_tail) && !tail.contains(&above),
        "{tail:#?}"
    );
    let lines = summary.render();
    assert!(!lines.iter().any(|l| l == in_tail), "{lines:#?}");
    assert!(lines.iter().any(|l| l == above), "{lines:#?}");
    assert!(report(&bytes).render().iter().any(|l| l == in_tail));
}

/// A notable example is there to show what the rest of the summary does not: on real outputs
/// where the first error, a failed target or a failure's message is stated by a fact or shown
/// in the head or tail, no example repeats it, and no two examples say the same.
#[test]
fn notable_examples_repeat_nothing_the_summary_shows() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let mut examples = 0;
    for (corpus, name) in [
        ("corpus3", "cmake-build-fmt.txt"),
        ("corpus3", "cmake-build-clang-fmt.txt"),
        ("corpus3", "cargo-clippy-regex-syntax.txt"),
        ("corpus3", "make-check-libsodium.txt"),
        ("corpus3", "pytest-doctest-toolz.txt"),
        ("corpus3", "flask-run-flaskr-log.txt"),
        ("corpus3", "jest-jest-extended.txt"),
        ("corpus8", "python-unittest-simplejson.txt"),
    ] {
        let (preview, report) = summarised(&fixture(corpus, name), &tokenizer);
        let rendered = report.render();
        let Some(at) = rendered
            .iter()
            .position(|l| l.contains("omitted lines contain"))
        else {
            continue;
        };
        let shown: Vec<&str> = preview
            .head
            .iter()
            .chain(&preview.tail)
            .map(|l| l.text.as_str())
            .chain(rendered[..at].iter().map(String::as_str))
            .collect();
        let mut said: Vec<&str> = Vec::new();
        for example in rendered[at + 1..]
            .iter()
            .take_while(|l| l.starts_with("  L"))
        {
            let text = example.split_once(": ").map_or("", |(_, t)| t);
            let text = text.trim_matches('…').trim();
            examples += 1;
            assert!(
                text.len() < 16 || !shown.iter().any(|l| l.contains(text)),
                "{name}: {example} is shown already"
            );
            assert!(!said.contains(&text), "{name}: {example} twice");
            said.push(text);
        }
    }
    assert!(examples >= 6, "{examples} examples");
}

/// A log's record begins with its time and process, which a failure's detail leaves out: an
/// example whose end a nearby failure's detail quotes (PostgreSQL's `DETAIL:  Failing row
/// contains …` under its error, the same `FATAL:` three lines on) is said already.
#[test]
fn log_examples_do_not_repeat_a_nearby_failures_detail() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let (_, report) = summarised(&corpus4("postgres-log.txt"), &tokenizer);
    let rendered = report.render();
    let at = rendered
        .iter()
        .position(|l| l.contains("omitted lines contain"))
        .expect("notable lines");
    let details = rendered[..at].join("\n");
    assert!(
        details.contains("Failing row contains (3, SKU-0003"),
        "{details}"
    );
    assert!(
        details.contains(r#"FATAL:  password authentication failed for user "app""#),
        "{details}"
    );
    for example in rendered[at + 1..]
        .iter()
        .take_while(|l| l.starts_with("  L"))
    {
        assert!(
            !example.contains("Failing row contains")
                && !example.contains(r#"failed for user "app""#),
            "{example} repeats a failure shown in {rendered:#?}"
        );
    }
}

/// The notable lines are part of the preview budget, as facts and failures are: head, tail,
/// facts, failures and notable lines together stay within it.
#[test]
fn notable_lines_are_taken_from_the_preview_budget() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    for name in ["cargo-build-errors-ansi.txt", "cargo-clippy-pedantic.txt"] {
        let (preview, report) = summarised(&corpus(name), &tokenizer);
        let cost = |l: &str| tokenizer.count(&format!("{l}\n"));
        let body: u64 = preview
            .head
            .iter()
            .chain(&preview.tail)
            .map(|l| cost(&l.text))
            .chain(report.render().iter().map(|l| cost(l)))
            .sum();
        assert!(
            report
                .render()
                .iter()
                .any(|l| l.contains("omitted lines contain")),
            "{name}: notable lines expected"
        );
        // Each side's whole lines are counted with their newline, as the preview counts them.
        assert!(body <= 1000 + 5, "{name}: {body} tokens");
    }
}

// ---- C test runs: valgrind, CTest, Unity ----

/// valgrind run straight on a cJSON test binary with two bugs put in by hand; the figures are
/// those of valgrind's own XML report of the same program (12 InvalidRead, 15
/// Leak_DefinitelyLost) and of its ERROR and LEAK SUMMARY.
#[test]
fn valgrind_errors_leaks_and_summaries_of_a_real_run() {
    let bytes = corpus2("valgrind-misc-tests-cjson.txt");
    let r = report(&bytes);
    let v = fact(&r, "valgrind");
    assert_eq!(
        (
            v["processes"].as_u64(),
            v["errors"].as_u64(),
            v["contexts"].as_u64()
        ),
        (Some(1), Some(29), Some(27))
    );
    assert_eq!(v["records"], 27);
    assert_eq!(v["kinds"][0]["kind"], "Invalid read of size 1");
    assert_eq!(v["kinds"][0]["count"], 12);
    assert_eq!(v["kinds"][1]["kind"], "definitely lost");
    assert_eq!(v["kinds"][1]["count"], 15);
    assert_eq!(v["leak_summary"][0]["bytes"], 92);
    assert_eq!(v["leak_summary"][0]["blocks"], 23);
    // The records' own bytes add up to the LEAK SUMMARY's.
    assert_eq!(v["leak_records"][0]["bytes"], 92);
    assert_eq!(
        rendered(&r, "valgrind: ERROR"),
        "valgrind: ERROR SUMMARY: 29 errors from 27 contexts; LEAK SUMMARY: definitely lost: 92 bytes in 23 blocks; total heap usage: 11,140 allocs, 11,117 frees, 715,241 bytes allocated"
    );
    assert_eq!(
        rendered(&r, "unity:"),
        "unity: 30 tests, 30 passed, 0 failed, 0 ignored"
    );
    // Where the read happened, and where the block it overran was allocated (valgrind's own
    // malloc frame left out, addresses too).
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "L6 Invalid read of size 1: at case_insensitive_strcmp (cJSON.c:145) · by get_object_item (cJSON.c:1955) · Address 0x4b99c65 is 0 bytes after a block of size 5 alloc'd · by cJSON_strdup (cJSON.c:199)"
        ),
        "{all}"
    );
    assert!(!all.contains("vgpreload"), "{all}");
}

/// With two lists (errors, then leaks) and room for little (200 tokens: the errors alone would
/// fill it with four), the leaks still get their first one: the first list does not take the
/// room of the second.
#[test]
fn every_list_of_failures_gets_its_first_within_a_tight_budget() {
    let lines = failures_within(&corpus2("valgrind-misc-tests-cjson.txt"), 200);
    let shown = lines.join("\n");
    assert!(shown.contains("[ctxoff] valgrind errors (12):"), "{shown}");
    assert!(
        shown.contains("[ctxoff] valgrind leaks (definitely and possibly lost) (15):"),
        "{shown}"
    );
    assert!(
        shown.contains("2 bytes in 1 blocks are definitely lost in loss record 1 of 15: by cJSON_strdup (cJSON.c:199)"),
        "{shown}"
    );
}

/// valgrind -q in a test log: no summaries, one leak record, its bytes said.
#[test]
fn a_quiet_valgrind_leak_in_a_test_log() {
    let r = report(&corpus2("cat-jqtest-log.txt"));
    assert_eq!(
        rendered(&r, "valgrind:"),
        "valgrind: 1 record shown: definitely lost ×1 (40 bytes in 2 blocks)"
    );
    assert_eq!(fact(&r, "valgrind")["processes"], 0);
}

/// ctest --output-on-failure of fmt's googletest binaries with case bugs put in: each failing
/// CTest test's output is read on its own, so each binary's failed cases are listed under its
/// name, as many as its own `N FAILED TESTS` line says. cJSON's tests under valgrind, eight
/// sections of three fact lines each, are read whole (see the test after this one).
#[test]
fn ctest_reads_each_failing_tests_output_on_its_own() {
    let bytes = fixture("corpus8", "ctest-fmt.txt");
    let text = String::from_utf8_lossy(&bytes);
    // Direct counts: the binary whose result line came last, and its googletest total.
    let mut expected = Vec::new();
    let mut binary = "";
    for line in text.lines() {
        if let Some((_, rest)) = line.split_once(" Test ")
            && let Some((_, rest)) = rest.split_once(": ")
        {
            binary = rest.split(' ').next().unwrap_or("");
        }
        if let Some(n) = line.trim().strip_suffix(" FAILED TESTS") {
            expected.push(format!("[ctxoff] {binary}: failed tests ({n}):"));
        }
        if line.trim() == "1 FAILED TEST" {
            expected.push(format!("[ctxoff] {binary}: failed tests (1):"));
        }
    }
    assert_eq!(expected.len(), 4, "{expected:?}");
    let r = report(&bytes);
    let headings: Vec<String> = r
        .render()
        .into_iter()
        .filter(|l| l.contains(": failed tests ("))
        .collect();
    assert_eq!(headings, expected);
    assert!(
        r.render().contains(
            &"[ctxoff] ranges-test: tests: 25 run, 24 passed, 1 failed (googletest: 2 test suites)"
                .to_owned()
        ),
        "{:#?}",
        r.render()
    );
    let whole = report(&corpus2("ctest-valgrind-cjson.txt"));
    assert!(
        whole
            .render()
            .iter()
            .all(|l| !l.starts_with("[ctxoff] parse_examples: ")),
        "{:#?}",
        whole.render()
    );
}

/// ctest -j8 of c-blosc's suite: tests end in no order, and ctest lists the failed ones by
/// number at the end (`278 - test_getitem_1_702713_32_5_0_1 (Failed)`). The summary lists them
/// in that order, the detail read from each test's output kept with it.
#[test]
fn parallel_ctest_failures_are_listed_in_ctests_own_order() {
    let bytes = corpus13("ctest-output-on-failure-c-blosc.txt");
    let text = String::from_utf8_lossy(&bytes);
    let listed: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "The following tests FAILED:")
        .skip(1)
        .take_while(|l| l.starts_with('\t'))
        .map(str::trim)
        .collect();
    assert_eq!(listed.len(), 122);
    let rendered = report(&bytes).render();
    let shown: Vec<&str> = rendered
        .iter()
        .skip_while(|l| !l.starts_with("[ctxoff] failed tests (122):"))
        .skip(1)
        .take_while(|l| l.starts_with("  L"))
        .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest.trim_start()))
        .filter_map(|l| l.split_once(' ').map(|(_, rest)| rest))
        .collect();
    assert!(shown.len() >= 10, "{rendered:#?}");
    // Those shown without a detail are the list's first, in its order.
    let bare: Vec<&str> = shown
        .iter()
        .copied()
        .filter(|l| !l.contains("): "))
        .collect();
    let listed_bare: Vec<&str> = listed
        .iter()
        .copied()
        .filter(|l| !shown.iter().any(|s| s.contains("): ") && s.starts_with(l)))
        .take(bare.len())
        .collect();
    assert_eq!(bare, listed_bare, "{rendered:#?}");
    assert!(
        shown[0].starts_with("1 - test_api (Failed): ")
            && shown[0].contains("get_nthreads incorrect"),
        "{rendered:#?}"
    );
}

/// ctest --output-on-failure of cJSON's suite under valgrind: the totals and failing tests of
/// ctest's JUnit report of the same run; each failing test's detail is valgrind's first error
/// in its output, with where it happened.
#[test]
fn ctest_failures_with_the_first_problem_of_each() {
    let bytes = corpus2("ctest-valgrind-cjson.txt");
    let r = report(&bytes);
    let c = fact(&r, "ctest");
    assert_eq!(
        (c["failed"].as_u64(), c["total"].as_u64()),
        (Some(8), Some(19))
    );
    assert_eq!(
        (c["passed"].as_u64(), c["listed_failed"].as_u64()),
        (Some(11), Some(8))
    );
    assert_eq!(
        rendered(&r, "ctest:"),
        "ctest: 58% tests passed, 8 tests failed out of 19; Failed ×8"
    );
    let v = fact(&r, "valgrind");
    assert_eq!(
        (v["processes"].as_u64(), v["errors"].as_u64()),
        (Some(8), Some(134))
    );
    let all = failures_within(&bytes, u64::MAX);
    let junit_failed = [
        "parse_examples",
        "parse_object",
        "print_object",
        "misc_tests",
        "parse_with_opts",
        "compare_tests",
        "cjson_add",
        "readme_examples",
    ];
    let tests: Vec<&String> = all
        .iter()
        .skip_while(|l| !l.starts_with("[ctxoff] failed tests (8):"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .collect();
    // Each failing test is named; one whose detail is word for word another's (print_object
    // leaks as parse_object does) is named in the closing line instead of repeating it.
    let listed = tests
        .iter()
        .map(|l| l.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for name in junit_failed {
        assert!(
            listed.contains(&format!(" {name} (Failed)")),
            "{name}: {listed}"
        );
    }
    assert_eq!(
        tests.last().unwrap().as_str(),
        "  … 1 more failed: 12 - print_object (Failed)"
    );
    assert!(
        listed.contains(
            " misc_tests (Failed): Invalid read of size 1 · at case_insensitive_strcmp (cJSON.c:145)\n"
        ),
        "{listed}"
    );
    assert!(
        tests[0].contains("definitely lost in loss record 1 of 29 · by parse_string (cJSON.c:858)"),
        "{}",
        tests[0]
    );
}

/// memcheck and helgrind on a small program (`testdata/valgrind-bad.c`): an uninitialised
/// read, a write through NULL and the signal that ended the process (whose first detail comes
/// before its stack, the write's); two data races, each with helgrind's `Locks held:` and the other access
/// it conflicts with (after a blank line), thread announcements not counted as errors.
#[test]
fn memcheck_and_helgrind_kinds_of_error() {
    let mem = include_bytes!("testdata/valgrind-memcheck-segv.txt");
    let r = report(mem);
    assert_eq!(
        rendered(&r, "valgrind: 3"),
        "valgrind: 3 records shown: Conditional jump or move depends on uninitialised value(s) ×1 · \
         Invalid write of size 4 ×1 · Process terminating with default action of signal 11 (SIGSEGV) ×1"
    );
    let all = failures_within(mem, u64::MAX).join("\n");
    // The signal came where the write through NULL was made: said so, not the stack again.
    assert!(
        all.contains("L9 Invalid write of size 4: at main (bad.c:10)")
            && all.contains("Process terminating with default action of signal 11 (SIGSEGV): Access not within mapped region at address 0x0 · same place as L9"),
        "{all}"
    );
    let hel = include_bytes!("testdata/valgrind-helgrind-race.txt");
    let r = report(hel);
    let v = fact(&r, "valgrind");
    assert_eq!(
        (v["records"].as_u64(), v["errors"].as_u64()),
        (Some(2), Some(2))
    );
    let all = failures_within(hel, u64::MAX).join("\n");
    assert!(
        all.contains("Possible data race during read of size 4 at 0x10C02C by thread #3: at worker (bad.c:5) · by start_thread (pthread_create.c:442) · This conflicts with a previous write of size 4 by thread #2 · at worker (bad.c:5)"),
        "{all}"
    );
    assert!(!all.contains("Locks held"), "{all}");
    // A race with a lock held on one side (`testdata/valgrind-lock.c`): the lock's own
    // announcement and its stack are no error.
    let lock = include_bytes!("testdata/valgrind-helgrind-lock.txt");
    let r = report(lock);
    assert_eq!(
        rendered(&r, "valgrind: 2"),
        "valgrind: 2 records shown: Possible data race during read of size 4 ×1 · \
         Possible data race during write of size 4 ×1"
    );
}

/// mypy --strict on requests: after the first error, the errors that raise at run time, then
/// the others mypy reports by default, then its optional checks and its complaints about
/// missing stubs, rarest first in each.
#[test]
fn mypy_lists_default_checks_before_optional_ones() {
    let all = failures_within(&corpus2("mypy-requests.txt"), u64::MAX);
    let codes: Vec<&str> = all
        .iter()
        .filter_map(|l| l.rsplit_once("  [").map(|(_, c)| c.trim_end_matches(']')))
        .collect();
    // The first of each code (then more errors at other places, of codes seen already).
    let distinct = (1..codes.len())
        .find(|&i| codes[..i].contains(&codes[i]))
        .unwrap_or(codes.len());
    let codes = &codes[..distinct];
    assert_eq!(codes[0], "import-not-found", "{all:#?}");
    let optional = |c: &&str| {
        [
            "unused-ignore",
            "redundant-cast",
            "comparison-overlap",
            "no-untyped-def",
            "no-untyped-call",
            "no-any-return",
            "import-not-found",
            "import-untyped",
        ]
        .iter()
        .any(|o| o.starts_with(c.trim_end_matches('…')))
    };
    let first_optional = codes[1..].iter().position(optional).unwrap() + 1;
    assert!(codes[first_optional..].iter().all(optional), "{codes:?}");
    // Those that raise when the line runs first, the rarest first: the bad attribute of a
    // union member, the undefined name, the bad operands, then the 30 bad attributes.
    assert_eq!(
        codes[1..5],
        ["union-attr", "name-defined", "operator", "attr-defined"],
        "{codes:?}"
    );
    assert!(all[2].contains("has no attribute \"__iter__\""), "{all:#?}");
}

/// mocha's spec reporter on express with three bugs put in by hand: the totals of mocha's JSON
/// report of the same tree (1,190 passing, 4 pending, 66 failing); each failure named by its
/// full title as mocha names it (its parts joined by a space, as `--grep` takes it), with its
/// error and the test's own line of the stack.
#[test]
fn mocha_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("mocha-express.txt");
    let r = report(&bytes);
    let m = fact(&r, "mocha");
    assert_eq!(
        (
            m["passing"].as_u64(),
            m["pending"].as_u64(),
            m["failing"].as_u64()
        ),
        (Some(1190), Some(4), Some(66))
    );
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 1,256 run, 1,190 passed, 66 failed, 4 pending (mocha)"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "L1,934 express.static() basic operations should not choke on auth-looking URL: Error: expected 'Not Found' response body, got '404' · at test/express.static.js:72:10"
        ),
        "{all}"
    );
    // The 62nd failure is the only AssertionError: kept past the first 40 for that, with the
    // two values compared.
    assert!(
        all.contains(
            "L3,084 utils.setCharset(type, charset) should set charset: AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: · + 'text/html; charset=UTF-8' · - 'text/html; charset=utf-8' · at test/utils.js:62:12"
        ),
        "{all}"
    );
    let shown = failures_within(&bytes, 700).join("\n");
    assert!(shown.contains("AssertionError"), "{shown}");
    // The 61st fails the way thirteen `'Not Found'` ones did, with its own message: it is kept
    // and shown before a second of any message.
    assert!(
        shown.contains(
            "res .sendStatus(statusCode) should send the status code and message as body: Error: expected 'Created' response body, got '201'"
        ),
        "{shown}"
    );
    assert_eq!(shown.matches("'Not Found'").count(), 1, "{shown}");
    // Within the floor of a tight budget, the first failing tests come first: the second and
    // third fail as the first did, at lines of their own, and are said so, with where.
    let tight = failures_within(&bytes, 350).join("\n");
    for wanted in [
        "should skip POST requests: same as L1,934 · at test/express.static.js:100:10",
        "should ignore hidden files: same as L1,934 · at test/express.static.js:133:10",
    ] {
        assert!(tight.contains(wanted), "{wanted} in {tight}");
    }
    assert_eq!(tight.matches("'Not Found'").count(), 1, "{tight}");
    // Then, among messages as rare, the one of a way of failing that has two messages comes
    // before a second of the fifty Content-Type failures, whose messages vary with the type
    // tested.
    let little_more = failures_within(&bytes, 400).join("\n");
    assert!(
        little_more.contains("expected 'Created' response body, got '201'"),
        "{little_more}"
    );
    assert_eq!(
        little_more.matches("expected \"Content-Type\"").count(),
        1,
        "{little_more}"
    );
    // Two runs in one log: totals and failures of both, each failure list read as its own.
    let twice = [bytes.as_slice(), bytes.as_slice()].concat();
    let r = report(&twice);
    let m = fact(&r, "mocha");
    assert_eq!(
        (
            m["runs"].as_u64(),
            m["passing"].as_u64(),
            m["failing"].as_u64()
        ),
        (Some(2), Some(2380), Some(132))
    );
    assert_eq!(m["failures"][0]["total"], 132);
}

/// doctest (C++) on argparse with bugs put in by hand: the totals of its JUnit report (246 test
/// cases, 6 failed, 1 skipped; 895 assertions, 6 failed), each failing test case named by its
/// `TEST CASE:` line and detailed by its first failed assertion from the file's name on, with
/// the values doctest printed under it.
#[test]
fn cpp_doctest_cases_and_totals_of_a_real_run() {
    let bytes = corpus19("doctest-argparse.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 246 test cases run, 240 passed, 6 failed, 1 skipped (doctest; assertions: 895, \
         6 failed)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed test cases (6):");
    assert!(
        all.iter().any(|l| l
            == "  L29 Test container representation<std::vector<int>>: test_repr.cpp:49: FATAL \
                ERROR: REQUIRE( argparse::details::repr(big) == \"{1 2 3 4...15}\" ) is NOT \
                correct! · values: REQUIRE( {1 2 3...15} == {1 2 3 4...15} )"),
        "{all:#?}"
    );
}

/// `vitest run --typecheck` on scule: its `Type Errors  5 failed` line is a total of its own
/// (the type errors are also among the 10 failed tests, as vitest's JSON report counts them).
#[test]
fn vitest_typecheck_states_its_type_errors() {
    let r = report(&corpus19("vitest-run-typecheck-scule.txt"));
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 75 run, 65 passed, 10 failed of 75 (vitest, Test Files 2 failed of 2, Type \
         Errors 5 failed)"
    );
    assert_eq!(fact(&r, "vitest")["type_errors"], 5);
}

/// mocha titles a failure with one part per line, each describe block indented two more;
/// iconv-lite names its describe blocks with a colon (`Win-1251:`), which is where mocha ends
/// a title too. The title goes on while a line is indented as its next part would be, so the
/// test's own name is its name, not the first line of its detail; 27 failures as mocha's JSON
/// report counts them.
#[test]
fn mocha_title_goes_on_past_a_describe_block_named_with_a_colon() {
    let bytes = corpus19("npm-test-mocha-spec-iconv-lite.txt");
    let r = report(&bytes);
    let m = fact(&r, "mocha");
    assert_eq!(
        (
            m["passing"].as_u64(),
            m["failing"].as_u64(),
            m["pending"].as_u64()
        ),
        (Some(115), Some(27), Some(184))
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        line_with(&all, "  L396 "),
        "  L396 Test Cyrillic encodings Win-1251: Convert from buffer: AssertionError \
         [ERR_ASSERTION]: Expected values to be strictly equal: · + 'Рсйгжу!' · - 'Привет!' · at \
         test/cyrillic-test.js:57:18"
    );
    assert!(
        line_with(&all, "  L449 ")
            .starts_with("  L449 Test Cyrillic encodings Koi8-R: Convert from buffer: ")
    );
}

/// `python -m unittest` on Python-Markdown with two bugs put in by hand: the totals of
/// unittest's own TestResult for the same tests (1,141 run, 54 failures, 51 errors, 66
/// skipped); each FAIL and ERROR named by its test id, with its exception and the innermost
/// frame of its traceback. Some blocks are subtests' (`testHTMLAttributeWithAngleBracket …
/// (quote='"')`), so how many tests passed is not said.
#[test]
fn unittest_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("unittest-markdown.txt");
    let r = report(&bytes);
    let u = fact(&r, "unittest");
    assert_eq!(
        (
            u["ran"].as_u64(),
            u["failed"].as_u64(),
            u["errors"].as_u64(),
            u["skipped"].as_u64()
        ),
        (Some(1141), Some(54), Some(51), Some(66))
    );
    assert_eq!(
        (u["blocks"]["fail"].as_u64(), u["blocks"]["error"].as_u64()),
        (Some(54), Some(51))
    );
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 1,141 run, 54 failed, 51 errors, 66 skipped (unittest: FAILED; failures and errors count subtests)"
    );
    let shown = failures_within(&bytes, 700).join("\n");
    for wanted in [
        "ERROR: test_horizontal_rules (test_legacy.TestBasic.test_horizontal_rules)\n  L3 TypeError: rstrip arg must be None or str · File \"/home/dev/markdown-3.11.3/markdown/blockprocessors.py\", line 537, in run",
        "FAIL: test_toc_invalid (test_legacy.TestExtensions.test_toc_invalid)\n  L1,236 AssertionError: '<h2 id=\"TOC\">",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// unittest on simplejson: each failure is named by unittest's own header line, and placed as
/// Python places it: the innermost frame, and the test method's own frame when the exception
/// was raised deeper (`JSONDecodeError` in the decoder, reached from `test_float.py` line 10).
#[test]
fn unittest_failures_are_said_and_placed_as_python_says_them() {
    let all = failures_within(
        &fixture("corpus8", "python-unittest-simplejson.txt"),
        u64::MAX,
    );
    assert_eq!(
        line_with(&all, "test_degenerates_allow"),
        "ERROR: test_degenerates_allow (simplejson.tests.test_float.TestFloat.\
         test_degenerates_allow)\n  L148 simplejson.errors.JSONDecodeError: Expecting value: line 1 \
         column 1 (char 0) · File \"/home/dev/simplejson-3.19.2/simplejson/decoder.py\", line \
         416, in raw_decode · File \"/home/dev/simplejson-3.19.2/simplejson/tests/test_float.py\", \
         line 10, in test_degenerates_allow"
    );
    // Raised in the test method itself: its frame once.
    let key = line_with(&all, "test_bytes_key");
    assert!(
        key.ends_with(
            "· File \"/home/dev/simplejson-3.19.2/simplejson/tests/test_dump.py\", line 225, in \
             test_bytes_key"
        ),
        "{key}"
    );
    assert_eq!(key.matches("File ").count(), 1, "{key}");
}

/// RSpec on dry-inflector with three bugs put in by hand: the totals of RSpec's JSON formatter
/// for the same seed (1,138 examples, 16 failures, 14 pending); the Pending section's numbered
/// entries are not failures; within a tight budget each describe (`Dry::Inflector#demodulize`)
/// gets its first failure before a second of another.
#[test]
fn rspec_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("rspec-dry-inflector.txt");
    let r = report(&bytes);
    let f = fact(&r, "rspec");
    assert_eq!(
        (
            f["examples"].as_u64(),
            f["failed"].as_u64(),
            f["pending"].as_u64()
        ),
        (Some(1138), Some(16), Some(14))
    );
    assert_eq!(f["failed_examples_listed"], 16);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 1,138 examples, 1,108 passed, 16 failed, 14 pending (rspec)"
    );
    let shown = failures_within(&bytes, 350).join("\n");
    for wanted in [
        // Examples made in a loop are named by the ids RSpec reruns them by.
        "L97 ./spec/unit/dry/inflector/ordinalize_spec.rb[1:1:43] # Dry::Inflector#ordinalize ordinalizes 42 => 42nd: expected: \"42nd\" · got: \"42rd\" · at ./spec/unit/dry/inflector/ordinalize_spec.rb:7",
        "11) Dry::Inflector#demodulize demodulizes module name: A::B::C::D::E => E\n  L261 expected: \"E\" · got: \"A\"",
        "14) Dry::Inflector#underscore handles diacritics\n  L288 ",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    assert!(!shown.contains("missing exception or rule"), "{shown}");
}

/// GoogleTest's `--gtest_brief=1` on snappy (corpus 16), aborted by a test before its totals:
/// no `[ RUN      ]` lines, each failure's lines before its `[  FAILED  ]`; the tests that
/// failed are listed with their first failure, and the totals said to be missing.
#[test]
fn gtest_brief_cut_short_lists_its_failures() {
    let bytes = corpus16("gtest-brief-snappy.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 2 failed; no totals printed (googletest)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "[  FAILED  ] Snappy.FindMatchLength\n  L3 /home/dev/snappy/snappy_unittest.cc:806: Failure · 6 · TestFindMatchLength(\"012345\", \"012345\", 6) · Which is: 5"
    );
    assert!(
        all[2].starts_with("[  FAILED  ] Snappy.FindMatchLengthRandom\n  L64 "),
        "{all:#?}"
    );
}

/// `python -m unittest -v` on tomli (corpus 16), with subtests and no skips: its verdict
/// `FAILED (failures=6, errors=9)` is unittest's, not green's or trial's (whose verdicts read
/// alike but say `passes=` or `successes=`); each block is listed; how many tests passed is
/// not said, since unittest counts each failing subtest (16 tests ran, 15 blocks failed).
#[test]
fn unittest_with_subtests_and_no_skips_is_unittest() {
    let bytes = corpus16("unittest-v-subtest-tomli.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["unittest"]);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 16 run, 6 failed, 9 errors (unittest: FAILED; failures and errors count subtests)"
    );
    assert_eq!(fact(&r, "unittest")["passed"], serde_json::Value::Null);
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (FAIL and ERROR) (15):");
    assert!(all[1].starts_with("ERROR: test_valid (tests.test_data.TestData.test_valid) [spec-example-1-compact]\n  L33 NameError: name 'cached_tz' is not defined"), "{all:#?}");
}

/// ty on h11 (corpus 16): its diagnostics are rustc's shape with rules named in words; the
/// summary says ty, counts 62 as ty's `Found 62 diagnostics` does (49 errors, 13 warnings in
/// its JSON), tallies the warnings' rules too, and its read-more hint finds the headers.
#[test]
fn ty_is_told_by_its_rules_named_in_words() {
    let r = report(&corpus16("ty-check-h11.txt"));
    let line = rendered(&r, "ty:");
    assert!(
        line.starts_with("ty: 49 errors, 13 warnings; codes: invalid-argument-type ×29"),
        "{line}"
    );
    let hint = r.hint().expect("a hint");
    let re = regex::Regex::new(hint.split('\'').nth(1).expect("quoted")).expect("valid");
    assert!(re.is_match("error[missing-attribute]: Unresolved attribute"));
    assert!(re.is_match("warning[redundant-condition]: A 2-element tuple is always truthy"));
}

/// pytest on h11 (corpus 16): a failure whose handling raised again (`During handling of the
/// above exception…`) is told by both exceptions, the last with where it was raised.
#[test]
fn pytest_chained_exceptions_say_where_the_last_was_raised() {
    let all = failures_within(&corpus16("pytest-chained-h11.txt"), u64::MAX).join("\n");
    assert!(
        all.contains("L72 E           h11._util.LocalProtocolError: Too much data for declared Content-Length · h11/_writers.py:91: LocalProtocolError · AttributeError: 'ConnectionState' object has no attribute 'process_errors' · at h11/_connection.py:257\n"),
        "{all}"
    );
}

/// pytest's warnings summary is said in one line: pytest's own total, its distinct warnings
/// by category, and the first's message (rfc3986's 4,917 deprecations are six warnings, each
/// from several places; aiofiles' coroutine never awaited is one, from six tests).
#[test]
fn pytest_warnings_summary_is_counted_and_its_first_warning_quoted() {
    let r = report(&corpus19("pytest-rfe-many-rfc3986.txt"));
    assert_eq!(
        rendered(&r, "warnings:"),
        "warnings: 4,917 (6 distinct: DeprecationWarning ×6); first: DeprecationWarning: Please \
         use rfc3986.validators.Validator instead. This method will be eventually removed."
    );
    let r = report(&corpus19("pytest-asyncio-unawaited-aiofiles.txt"));
    assert!(
        rendered(&r, "warnings:").starts_with(
            "warnings: 6 (1 distinct: RuntimeWarning ×1); first: RuntimeWarning: coroutine \
             'AsyncSpooledTemporaryFile._check' was never awaited"
        ),
        "{}",
        rendered(&r, "warnings:")
    );
}

/// A short line under an exception's in pytest's `E` lines is its note (hypothesis says which
/// strategy was generating when it raised); under an assertion it is pytest's explanation,
/// taken only as before.
#[test]
fn pytest_takes_the_note_under_an_exception() {
    let all = failures_within(&corpus19("pytest-hypothesis-hyperlink.txt"), u64::MAX);
    assert!(
        line_with(&all, "  L67 ").contains(
            "\n  L67 E           ValueError: one or more reserved delimiters /?# present in path \
             segment: '/' · while generating 'url' from decoded_urls() · src/hyperlink/_url.py:600"
        ),
        "{all:#?}"
    );
}

/// pytest `-q --tb=short` on filelock (corpus 16): a failure raised in the library is placed
/// where it raised (the short traceback's last frame), from the test's line; failures in
/// several files are named by their node ids where the names are listed (`tests/
/// test_filelock.py::test_simple[…]`), as the short summary says them and `pytest` reruns them.
#[test]
fn pytest_short_tracebacks_are_placed_and_names_say_their_file() {
    let bytes = corpus16("pytest-q-tb-short-filelock.txt");
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains("tests/test_filelock.py::test_simple[a-str-UnixFileLock]\n  L13 E   NameError: name 'time' is not defined · at src/filelock/_api.py:326, from tests/test_filelock.py:44"),
        "{all}"
    );
    let names = fact(&report(&bytes), "pytest")["failures"][0]["kept"].to_string();
    assert!(
        names.contains("\"tests/test_filelock.py::test_simple[a-str-SoftFileLock]\"")
            && names.contains("\"tests/test_virtualenv.py::test_virtualenv\""),
        "{names}"
    );
}

/// RSpec on diff-lcs (corpus 16): six examples share one description and are told apart by
/// RSpec's rerun list (`./spec/change_spec.rb:60 # …`); an exception raised in the library is
/// placed with the example's own line (`from ./spec/change_spec.rb:58`); a heredoc echoed under
/// a bare `Failure/Error:` is not taken for the message (`expected:`/`got:` are).
#[test]
fn rspec_examples_of_one_description_and_echoed_heredocs() {
    let bytes = corpus16("rspec-diff-lcs.txt");
    let all = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        // Said by its rerun name: its header (`1) Diff::LCS::Change a finished_b`) is the
        // others' too.
        "  L6 ./spec/change_spec.rb:58 # Diff::LCS::Change a finished_b: RuntimeError: · Invalid Change Action '<' · at ./lib/diff/lcs/change.rb:30:in `initialize', from ./spec/change_spec.rb:58",
        "  L73 expected: \"@@ -1,5 +1,5 @@",
    ] {
        assert!(all.contains(wanted), "{wanted} in {all}");
    }
    let names = fact(&report(&bytes), "rspec")["failures"][0]["kept"].to_string();
    assert!(
        names.contains("\"./spec/change_spec.rb:62 # Diff::LCS::Change a finished_b\""),
        "{names}"
    );
    assert!(!all.contains("Diff::LCS::Change a finished_b  ×"), "{all}");
    assert!(!all.contains("eq(<<-EXPECTED.chomp)"), "{all}");
}

/// cargo nextest on base64 with a bug put in by hand: the totals of nextest's JUnit report of
/// the same run (192 tests, 41 failures, 7 of them aborts); each failure with its panic and the
/// values compared, the aborted ones marked; the failures nextest lists again after its Summary
/// are not counted twice; nextest's `error: test run failed` is no compiler error.
#[test]
fn nextest_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("nextest-base64.txt");
    let r = report(&bytes);
    let n = fact(&r, "nextest");
    assert_eq!(n["run"], 192);
    assert_eq!(n["passed_lines"], 151);
    assert_eq!(n["statuses"][0]["status"], "FAIL");
    assert_eq!(n["statuses"][0]["count"], 34);
    assert_eq!(n["statuses"][1]["status"], "SIGABRT");
    assert_eq!(n["statuses"][1]["count"], 7);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 192 run, 151 passed, 41 failed, 0 skipped (nextest); not by a failed assertion: SIGABRT ×7"
    );
    assert_eq!(fact(&r, "rustc")["errors"], 0);
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (41):");
    assert!(
        all[1].starts_with(
            "  L65 base64 decode::tests::decode_into_nonempty_vec_doesnt_clobber_existing_prefix: panicked at src/tests.rs:44:5: assertion `left == right` failed · left: "
        ),
        "{}",
        all[1]
    );
    // Within a tight budget, each way of failing, with its values; then each group's first
    // failure at a place no failure shown points to, the rarest place first: the one panic
    // in the integration tests before the three at src/engine/tests.rs:1273:5.
    let tight = failures_within(&bytes, 400).join("\n");
    for wanted in [
        "panicked at src/tests.rs:44:5: assertion `left == right` failed · left: ",
        "every_possible_split_of_input: SIGABRT · panicked at src/encode.rs:89:5: assertion `left == right` failed · left: ",
        "base64::encode encoded_len_overflow: panicked at tests/encode.rs:75:5: assertion `left == right` failed · left: Some(18446744073709551615)",
    ] {
        assert!(tight.contains(wanted), "{wanted} in {tight}");
    }
    assert!(!tight.contains("src/engine/tests.rs:1273:5"), "{tight}");
}

/// googletest's own unit tests with two bugs put in by hand: the totals of its JSON report of
/// the same run (447 tests, 13 disabled, 3 failures); each failure with its file:line and the
/// values compared; the names googletest lists again after its totals are not counted twice.
#[test]
fn googletest_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("gtest-googletest.txt");
    let r = report(&bytes);
    let g = fact(&r, "googletest");
    assert_eq!(
        (
            g["ran"].as_u64(),
            g["passed"].as_u64(),
            g["failed"].as_u64(),
            g["disabled"].as_u64()
        ),
        (Some(434), Some(431), Some(3), Some(13))
    );
    assert_eq!(g["failed_lines"], 3);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 434 run, 431 passed, 3 failed, 13 disabled (googletest: 104 test suites)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all,
        [
            "[ctxoff] failed tests (3):",
            "[  FAILED  ] CodePointToUtf8Test.CanEncodeInvalidCodePoint\n  L140 /home/dev/googletest/googletest/test/gtest_unittest.cc:678: Failure · \"(Invalid Unicode 0x1234ABCD)\" · CodePointToUtf8(L'\\x1234ABCD') · Which is: \"(Invalid Unicode 0x1234abcd)\"",
            "[  FAILED  ] WideStringToUtf8Test.CanEncodeInvalidCodePoint\n  L165 /home/dev/googletest/googletest/test/gtest_unittest.cc:753: Failure · \"(Invalid Unicode 0xABCDFF)\" · WideStringToUtf8(L\"\\xABCDFF\", -1).c_str() · Which is: \"(Invalid Unicode 0xabcdff)\"",
            "[  FAILED  ] StringTest.EndsWithCaseInsensitive\n  L216 /home/dev/googletest/googletest/test/gtest_unittest.cc:1101: Failure · Value of: String::EndsWithCaseInsensitive(\"\", \"\") · Actual: false · Expected: true",
        ]
    );
}

/// `mvn test` on json-simple with bugs put in by hand: the totals of Surefire's XML reports of
/// the same run (73 tests, 5 failures, 1 error); each failure by its class and method, with the
/// values compared and the test's own file:line, not the JUnit frames above it; the failures
/// Maven lists again under `Results:` are not counted twice.
#[test]
fn maven_surefire_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("mvn-test-json-simple.txt");
    let r = report(&bytes);
    let m = fact(&r, "maven");
    assert_eq!(
        (
            json_u64(&m["tests"]),
            json_u64(&m["failed"]),
            json_u64(&m["errors"]),
            json_u64(&m["skipped"])
        ),
        (73, 5, 1, 0)
    );
    assert_eq!(m["compile_errors"], 0);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 73 run, 67 passed, 5 failed, 1 error, 0 skipped (maven surefire); BUILD FAILURE"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (6):");
    assert_eq!(all.len(), 7, "{all:#?}");
    assert_eq!(
        all[1],
        "  L44 JsonerTest.testEnumSerialization: org.junit.ComparisonFailure: expected:<...Test$TestStaticEnums[.]ONE\"> but was:<...Test$TestStaticEnums[:]ONE\"> · at JsonerTest.java:176"
    );
    let shown = all.join("\n");
    for wanted in [
        "JSONArrayTest.testIntArrayToString: org.junit.ComparisonFailure: expected:<[-7,22,86[,-99]]> but was:<[-7,22,86[]]> · at JSONArrayTest.java:152",
        "JsonObjectTest.testGetBigDecimal: java.lang.ClassCastException: class java.lang.String cannot be cast",
        "JSONValueTest.testIntArrayToJsonString:",
        "JSONValueTest.testObjectArrayToJsonString:",
        "JSONArrayTest.testObjectArrayToString:",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    // Surefire's exception frames (org.junit.Assert…) are not where the test failed.
    assert!(!shown.contains("Assert.java"), "{shown}");
}

/// The same project when it does not compile: javac's own count (`3 errors`), each error with
/// its file, [line,col] and the symbol it could not find; Maven repeating them after `Failed to
/// execute goal` counts nothing twice.
#[test]
fn maven_compile_errors_of_a_real_run() {
    let bytes = corpus2("mvn-compile-error-json-simple.txt");
    let r = report(&bytes);
    let m = fact(&r, "maven");
    assert_eq!(m["compile_errors"], 3);
    assert_eq!(m["verdict"], "BUILD FAILURE");
    assert_eq!(
        rendered(&r, "javac:"),
        "javac: 3 errors (maven); BUILD FAILURE"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all,
        [
            "[ctxoff] compile errors (3):",
            "  L24 /home/dev/json-simple-2.3.0/src/main/java/org/json/simple/JsonArray.java:[72,46] cannot find symbol: symbol:   variable idx · location: class org.json.simple.JsonArray",
            "  L27 /home/dev/json-simple-2.3.0/src/main/java/org/json/simple/Jsoner.java:[402,40] incompatible types: java.lang.String cannot be converted to int",
            "  L28 /home/dev/json-simple-2.3.0/src/main/java/org/json/simple/Jsoner.java:[425,41] cannot find symbol: symbol:   variable bulider · location: class org.json.simple.Jsoner",
        ]
    );
    // No test ran: no totals are made up.
    assert!(
        !r.render().iter().any(|l| l.starts_with("[ctxoff] tests:")),
        "{:#?}",
        r.render()
    );
}

/// PHPUnit on doctrine/inflector with bugs put in by hand: the totals of its JUnit report of the
/// same run (1,012 tests, 1,034 assertions, 4 failures, 2 errors); each failure with its message,
/// the values of its diff and its file:line.
#[test]
fn phpunit_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("phpunit-doctrine-inflector.txt");
    let r = report(&bytes);
    let p = fact(&r, "phpunit");
    assert_eq!(
        (
            json_u64(&p["tests"]),
            json_u64(&p["assertions"]),
            json_u64(&p["failed"]),
            json_u64(&p["errors"])
        ),
        (1012, 1034, 4, 2)
    );
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 1,012 run, 1,006 passed, 4 failed, 2 errors, 0 skipped (phpunit; 1,034 assertions); ERRORS!"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (6):");
    assert_eq!(all.len(), 7, "{all:#?}");
    let shown = all.join("\n");
    for wanted in [
        "TurkishFunctionalTest::testInflectingPlurals with data set #1 ('kiraz', 'kirazlar'): preg_match(): Compilation failed: missing terminating ] for character class at offset 28 · at /home/dev/doctrine-inflector/lib/Doctrine/Inflector/Rules/Pattern.php:40",
        "InflectorFunctionalTest::testCapitalize: Failed asserting that two strings are identical. · -'Top-O-The-Morning To All_of_you!' +'Top-o-the-morning To All_of_you!' · at /home/dev/doctrine-inflector/tests/Doctrine/Tests/Inflector/InflectorFunctionalTest.php:15",
        // The test's own message, above PHPUnit's and the values.
        "NorwegianBokmalFunctionalTest::testInflectingSingulars with data set #3 ('kalender', 'kalendere'): 'kalendere' should be singularized to 'kalender' · Failed asserting that two strings are identical. · -'kalender' +'kalende' · at ",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    // The diff's headers are no detail.
    assert!(!shown.contains("--- Expected"), "{shown}");
}

/// Catch2 (v2) on CLI11's HelpersTest with bugs put in by hand: the totals of its JUnit report
/// of the same binary (74 test cases, 4 failed; 463 assertions, 6 failed); each failing case
/// with its first failed assertion, the expansion of its values and its file:line; an
/// unexpected exception with its message.
#[test]
fn catch2_totals_and_failures_of_a_real_run() {
    let bytes = corpus2("catch2-cli11.txt");
    let r = report(&bytes);
    let c = fact(&r, "catch2");
    assert_eq!(
        (
            json_u64(&c["test_cases"]["total"]),
            json_u64(&c["test_cases"]["passed"]),
            json_u64(&c["test_cases"]["failed"]),
            json_u64(&c["assertions"]["total"]),
            json_u64(&c["assertions"]["failed"])
        ),
        (74, 70, 4, 463, 6)
    );
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 74 test cases run, 70 passed, 4 failed (catch2; assertions: 463, 6 failed)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[..3],
        [
            "[ctxoff] failed test cases (4):",
            "  L12 StringTools: flagValues: CHECK( 1 == CLI::detail::to_flag_value(\"1\") ) · 1 == 0 · at HelpersTest.cpp:204",
            "  L28 Join: Backward: CHECK( CLI::detail::rjoin(val) == \"one,two,three\" ) · \"onetwo,three\" == \"one,two,three\" · at HelpersTest.cpp:856",
        ]
    );
    assert_eq!(all.len(), 5, "{all:#?}");
    // Values with a newline in them span several lines; they make one line of detail.
    assert_eq!(
        all[3],
        "  L44 FixNewLines: BasicCheck: CHECK( output == result ) · \"one ; two\" == \"one ; wo\" · at HelpersTest.cpp:1302"
    );
    assert!(
        all[4].contains("FixNewLines: EdgesCheck: due to unexpected exception with message: · basic_string::substr: __pos (which is 12) > this->size() (which is 11) · at HelpersTest.cpp:1305"),
        "{}",
        all[4]
    );
}

/// The same run with `--testdox`: failures as `✘ Capitalize` under their class's heading, their
/// details behind `│`; the recap PHPUnit prints after them lists all six again and is not
/// counted twice.
#[test]
fn phpunit_testdox_failures_are_counted_once() {
    let bytes = fixture("more", "phpunit-testdox-doctrine-inflector.txt");
    let r = report(&bytes);
    let p = fact(&r, "phpunit");
    assert_eq!(
        (
            json_u64(&p["tests"]),
            json_u64(&p["failed"]),
            json_u64(&p["errors"])
        ),
        (1012, 4, 2)
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (6):");
    let shown = all.join("\n");
    for wanted in [
        "L20 InflectorFunctional > Capitalize: Failed asserting that two strings are identical. · -'Top-O-The-Morning To All_of_you!' +'Top-o-the-morning To All_of_you!' · at ",
        "L868 NorwegianBokmalFunctional > Inflecting singulars with data set #3: 'kalendere' should be singularized to 'kalender' · ",
        "L1,083 TurkishFunctional > Inflecting plurals with data set #1: preg_match(): Compilation failed",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    assert!(
        !shown.contains("L1,131"),
        "the recap's entries are no failures: {shown}"
    );
}

/// javac run directly with `-Xlint:all`: its diagnostics are gcc's lines without a column, and
/// labelled javac; the counts are javac's own (106 warnings, of which it showed 100); each
/// error with the symbol it could not find.
#[test]
fn javac_counts_and_errors_of_a_real_run() {
    let bytes = fixture("more", "javac-json-simple.txt");
    let r = report(&bytes);
    let g = fact(&r, "gcc");
    assert_eq!((json_u64(&g["errors"]), json_u64(&g["warnings"])), (3, 106));
    assert!(
        rendered(&r, "javac:").starts_with("javac: 3 errors, 106 warnings; "),
        "{}",
        rendered(&r, "javac:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "  L389 ./org/json/simple/JsonObject.java:65: error: cannot find symbol · symbol:   class StringBuildr · location: class JsonObject"
    );
    assert!(
        all.iter()
            .any(|l| l.contains(": warning: [dep-ann] deprecated item")),
        "a warning's code is its bracketed word: {all:#?}"
    );
}

/// OUnit 2 under dune (`more/README.md`): the totals are OUnit's JUnit report's, every failed
/// test is listed with its message (the exception an error raised, the values a failure
/// compared) and, for an error, the frame of the project's own code it was raised from; OUnit's
/// closing `FAILED: Cases: …` is no ninja target.
#[test]
fn ounit_failures_of_a_real_dune_run() {
    let bytes = fixture("more", "dune-test-ocaml-fileutils.txt");
    let r = report(&bytes);
    let o = fact(&r, "ounit");
    assert_eq!(
        (
            json_u64(&o["tests"]),
            json_u64(&o["errors"]),
            json_u64(&o["failed"])
        ),
        (227, 6, 2)
    );
    assert_eq!(
        rendered(&r, "OUnit:"),
        "OUnit: 227 tests ran, 2 failures, 6 errors"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (8):");
    let shown = all.join("\n");
    // The six errors fail alike: the first is shown with its detail, the others named.
    let first = "L5 ocaml-fileutils:0:FilePath:1:Win32 FilePath:56:extension: Invalid_argument(\"String.sub / Bytes.sub\") · Called from ExtensionPath.chop in file \"src/lib/fileutils/ExtensionPath.ml\", line 53\n";
    assert!(shown.contains(first), "{first} in {shown}");
    for os in ["Unix FilePath:57", "Unix FilePath:58", "Unix FilePath:59"]
        .iter()
        .chain(&[
            "Win32 FilePath:55",
            "Win32 FilePath:56",
            "Win32 FilePath:57",
        ])
    {
        let n = if os.starts_with("Unix") { 0 } else { 1 };
        let name = format!("ocaml-fileutils:0:FilePath:{n}:{os}:extension");
        assert!(shown.contains(&name), "{name} in {shown}");
    }
    for failure in [
        "ocaml-fileutils:1:FileUtil:35:Size:1:size_add:0: expected: 1 TB 10 MB 12 KB but got: 1 TB 10 GB 12 KB",
        "ocaml-fileutils:1:FileUtil:35:Size:1:size_add:1: expected: 2 MB 976 KB but got: 1 GB 1 MB 976 KB",
    ] {
        assert!(shown.contains(failure), "{failure} in {shown}");
    }
    // OUnit's places (`File "…", line 62, …:` over `Error: … (in the log).`) are no
    // compiler's, and its closing line no ninja target.
    for other in ["make", "ocaml"] {
        assert!(!shapes(&r).contains(&other.to_owned()), "{:?}", shapes(&r));
    }
}

/// Alcotest under dune and with `--show-errors` (`more/README.md`): the counts are the test
/// program's `--json` summary's (27 run, 2 failures); each failed test is listed, with its
/// message, the values compared and where it was raised, for every report Alcotest printed; when
/// it printed only the first, the summary says so and where all of them are.
#[test]
fn alcotest_failures_of_a_real_run() {
    let first = "codec 0 RFC4648 test vectors: encode f · Expected: `\"Zg==\"' · Received: `\"ZgA=\"' · Called from Dune__exe__Test.test_rfc4648.(fun) in file \"test/test.ml\", line 132";
    // Its message is `encode` and the bytes encoded, some of them control bytes.
    let second = " · Expected: `\"FPucAw==\"' · Received: `\"FPucAwA=\"' · Called from Dune__exe__Test.test_rfc3548.(fun) in file \"test/test.ml\", line 144";
    for (name, reports) in [
        ("dune-test-alcotest-base64.txt", 1),
        ("alcotest-show-errors-base64.txt", 2),
    ] {
        let bytes = fixture("more", name);
        let r = report(&bytes);
        let a = fact(&r, "alcotest");
        assert_eq!(
            (
                json_u64(&a["tests"]),
                json_u64(&a["failed"]),
                json_u64(&a["closing_tests_run"])
            ),
            (27, 2, 27),
            "{name}"
        );
        let all = failures_within(&bytes, u64::MAX);
        assert_eq!(all[0], "[ctxoff] failed tests (2):", "{name}");
        assert!(all[1].ends_with(first), "{name}: {all:#?}");
        if reports == 2 {
            assert!(
                all[2].contains(" codec 1 RFC3548 test vectors: encode ")
                    && all[2].ends_with(second),
                "{name}: {all:#?}"
            );
        } else {
            assert!(
                all[2].ends_with(" codec 1 RFC3548 test vectors"),
                "{all:#?}"
            );
            assert_eq!(
                rendered(&r, "Alcotest printed"),
                "Alcotest printed the report of 1 of 2 failures; all are in \
                 /home/dev/ocaml-base64-3.5.0/_build/default/test/_build/_tests/Base64"
            );
        }
    }
}

/// The OCaml compiler under dune (`more/README.md`): every `Error` line is counted, with its
/// place (`File "…", line N` above it, the code shown between) and its message's further lines,
/// and a warning or alert made an error by its kind.
#[test]
fn ocaml_compiler_errors_of_real_builds() {
    for (name, places) in [
        (
            "dune-build-ocaml-fileutils.txt",
            &[
                "src/lib/fileutils/ExtensionPath.ml:27: This expression has type string but an expression was expected of type · char",
                "src/lib/fileutils/FileUtilSize.ml:42: This function has type int64 -> int64 -> int64 · It is applied to too many arguments; maybe you forgot a `;'.",
                "src/lib/fileutils/UnixPath.ml:33: this pattern-matching is not exhaustive. · Here is an example of a case that is not matched: · CurrentDir Short",
            ][..],
        ),
        (
            "dune-test-deprecated-base64.txt",
            &["test/test.ml:272: Fmt.strf · use Fmt.str instead."][..],
        ),
    ] {
        let bytes = fixture("more", name);
        let text = String::from_utf8_lossy(&bytes);
        let errors = text.lines().filter(|l| l.starts_with("Error")).count() as u64;
        let r = report(&bytes);
        let o = fact(&r, "ocaml");
        assert_eq!(
            (json_u64(&o["errors"]), json_u64(&o["warnings"])),
            (errors, 0),
            "{name}"
        );
        let shown = failures_within(&bytes, u64::MAX).join("\n");
        for place in places {
            assert!(shown.contains(place), "{place} in {shown}");
        }
    }
}

/// JavaScript Standard Style prints a line per problem and no total: its counts are those of
/// standard's own API on the same tree (the truth file's report: 2,345 errors, 191 warnings in 9
/// files), and the rare rules that broke the code (`no-undef`, `eqeqeq`) are listed among two
/// thousand `indent` and `semi`.
#[test]
fn standard_counts_and_rare_rules_of_a_real_run() {
    let bytes = fixture("corpus6", "standard-qs.txt");
    let truth: serde_json::Value =
        serde_json::from_slice(&fixture("corpus6", "standard-qs.truth.json")).unwrap();
    let report_of = &truth["report"];
    let r = report(&bytes);
    let f = fact(&r, "standard");
    assert_eq!(
        (json_u64(&f["errors"]), json_u64(&f["warnings"])),
        (
            json_u64(&report_of["errors"]),
            json_u64(&report_of["warnings"])
        )
    );
    assert!(
        rendered(&r, "standard:").starts_with("standard: 2,345 errors, 191 warnings in 9 files; "),
        "{}",
        rendered(&r, "standard:")
    );
    let shown = failures_within(&bytes, 600).join("\n");
    for wanted in [
        "/home/dev/qs/lib/parse.js:23:32: 'option' is not defined. (no-undef)",
        "/home/dev/qs/lib/utils.js:53:23: Expected '!==' and instead saw '!='. (eqeqeq)",
        "/home/dev/qs/lib/formats.js:1:13: Extra semicolon. (semi)",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// CMake and autoconf configure steps of projects the shapes were not written on
/// (`more/README.md`): each CMake error with its place and message, CMake's verdict; configure's
/// error and the check that failed before it.
#[test]
fn cmake_and_configure_errors_of_real_runs() {
    let bytes = fixture("more", "cmake-json-c.txt");
    let text = String::from_utf8_lossy(&bytes);
    let count = |kind: &str| {
        text.lines()
            .filter(|l| l.strip_prefix("CMake ").is_some_and(|l| l.contains(kind)))
            .count()
    };
    let (errors, warnings) = (count("Error"), count("Warning"));
    assert_eq!((errors, warnings), (3, 2));
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "cmake:"),
        "cmake: 3 errors, 2 warnings; CMake Generate step failed.  Build files cannot be \
         regenerated correctly."
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "CMakeLists.txt:454 (add_library): Cannot find source file: · /home/dev/json-c-0.16/linkhash.c",
        "CMakeLists.txt:454 (add_library): No SOURCES given to target: json-c\n",
        "CMakeLists.txt:473 (add_library): No SOURCES given to target: json-c-static",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }

    let bytes = fixture("more", "configure-libassuan.txt");
    let text = String::from_utf8_lossy(&bytes);
    let checks = text.lines().filter(|l| l.starts_with("checking ")).count();
    let r = report(&bytes);
    assert_eq!(json_u64(&fact(&r, "configure")["checks"]), checks as u64);
    assert_eq!(
        rendered(&r, "configure: error:"),
        "configure: error: libgpg-error was not found"
    );
    assert_eq!(
        rendered(&r, "failed checks"),
        "failed checks behind the messages: checking for GPG Error - version >= 1.17... no"
    );
}

/// A cargo build whose dependency's build script failed has no located diagnostic: the script
/// is listed by cargo's own line, with its exit status, where it panicked and what it said
/// (`more/README.md`, and corpus 8's cpal build); a build script that ran a compiler says the
/// compiler's errors it passed on (`cargo:warning=…: Error: …`) and cc's own error (blake3,
/// corpus 15).
#[test]
fn failed_build_scripts_of_real_builds() {
    for (bytes, said, wanted) in [
        (
            fixture("more", "cargo-build-libudev-sys.txt"),
            "error: failed to run custom build command for `libudev-sys v0.1.4`",
            "exit status: 101 · thread 'main' (30911) panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/libudev-sys-0.1.4/build.rs:38:41: · called `Result::unwrap()` on an `Err` value: \"\\npkg-config exited with status code 1",
        ),
        (
            fixture("corpus8", "cargo-build-cpal.txt"),
            "error: failed to run custom build command for `alsa-sys v0.3.1`",
            "exit status: 101 · thread 'main' (7136) panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/alsa-sys-0.3.1/build.rs:13:18: · `PKG_CONFIG_ALLOW_SYSTEM_CFLAGS=\"1\" PKG_CONFIG_ALLOW_SYSTEM_LIBS=\"1\" \"pkg-config\" \"--libs\" \"--cflags\" \"alsa\"` did not exit successfully: exit status: 1 · error: could not find system library 'alsa' required by the 'alsa-sys' crate",
        ),
        (
            corpus15("cargo-build-vv-blake3.txt"),
            "error: failed to run custom build command for `blake3 v1.5.4 (/home/dev/blake3-1.5.4)`",
            "exit status: 1 · c/blake3_sse2_x86-64_unix.S:49: Error: unsupported instruction \
             `pshufd' · c/blake3_sse2_x86-64_unix.S:68: Error: bad expression · error occurred in \
             cc-rs: command did not execute successfully (status code exit status: 1): \"cc\"",
        ),
    ] {
        let r = report(&bytes);
        assert_eq!(rendered(&r, "cargo:"), "cargo: 1 build script failed");
        let all = failures_within(&bytes, u64::MAX);
        assert_eq!(all[0], "[ctxoff] build scripts that failed (1):");
        let shown = flat(&all[1..2]);
        assert!(
            shown.starts_with(&format!("{said}: {wanted}")),
            "{said}: {wanted}\nin {shown}"
        );
    }
}

/// pip indents the compiler it runs to build a wheel: gcc's lines are read all the same (31
/// errors and 3 warnings, as a direct count finds), and the one error that fails another way
/// (`‘bitarray_reverse’ undeclared`) is listed right after the first, not lost behind thirty
/// errors of the first one's kind.
#[test]
fn gcc_under_pip_counts_and_lists_each_way_of_failing() {
    let bytes = fixture("corpus5", "pip-install-bitarray.txt");
    let text = String::from_utf8_lossy(&bytes);
    let count = |level: &str| {
        text.lines()
            .filter(|l| {
                let t = l.trim_start();
                t.len() < l.len()
                    && t.split_once(": ").is_some_and(|(place, rest)| {
                        place.matches(':').count() == 2 && rest.starts_with(level)
                    })
            })
            .count() as u64
    };
    let r = report(&bytes);
    let g = fact(&r, "gcc");
    assert_eq!(
        (json_u64(&g["errors"]), json_u64(&g["warnings"])),
        (count("error: "), count("warning: "))
    );
    assert_eq!(count("error: "), 31);
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all[1].ends_with(
            "bitarray/bitarray.h:64:49: error: ‘bitarrayobject’ has no member named ‘endian’"
        ),
        "{all:#?}"
    );
    assert!(
        all[2].contains("bitarray/_bitarray.c:4663:36: error: ‘bitarray_reverse’ undeclared here"),
        "{all:#?}"
    );
}

/// dune runs one OUnit program per test executable, each after its own line (`     test_re
/// alias lib_test/runtest (exit 1)`): each is read as a section, with its own totals (those of
/// its `FAILED: Cases:` line) and failures.
#[test]
fn dune_reads_each_test_programs_output_on_its_own() {
    let bytes = fixture("corpus5", "dune-test-ocaml-re.txt");
    let text = String::from_utf8_lossy(&bytes);
    // Direct counts: each failed program's closing line, under the program named last.
    let mut expected = Vec::new();
    let mut program = "";
    for line in text.lines() {
        if let Some((name, _)) = line.trim_start().split_once(" alias ") {
            program = name;
        }
        if let Some(rest) = line.strip_prefix("FAILED: Cases: ") {
            let count = |key: &str| {
                let at = rest.find(key).unwrap() + key.len();
                rest[at..].split_whitespace().next().unwrap().to_owned()
            };
            expected.push((
                program,
                count("Tried: "),
                count("Failures: "),
                count("Errors: "),
            ));
        }
    }
    assert_eq!(expected.len(), 3, "{expected:?}");
    let r = report(&bytes);
    for (program, tried, failures, errors) in expected {
        let line = rendered(&r, &format!("{program}: OUnit:"));
        let plural = |n: &str, one: &str| format!("{n} {one}{}", if n == "1" { "" } else { "s" });
        assert_eq!(
            line,
            format!(
                "{program}: OUnit: {tried} tests ran, {}, {}",
                plural(&failures, "failure"),
                plural(&errors, "error")
            )
        );
        assert_eq!(
            rendered(&r, &format!("{program}: failed tests (")),
            format!(
                "{program}: failed tests ({}):",
                failures.parse::<u64>().unwrap() + errors.parse::<u64>().unwrap()
            )
        );
    }
    for other in ["make", "ocaml"] {
        assert!(!shapes(&r).contains(&other.to_owned()), "{:?}", shapes(&r));
    }
}

// ---- corpus 3: third-party projects the shapes were not written for ----

fn corpus3(name: &str) -> Vec<u8> {
    fixture("corpus3", name)
}

/// pytest on attrs (70 failed, 6 errors by its JUnit report): every section of the report is
/// one failure, counted once, though only the first 40 and the new ways of failing are kept
/// (the short summary used to add the others again: 115).
#[test]
fn pytest_counts_each_section_once_past_the_first_ones() {
    let all = failures_within(&corpus3("pytest-attrs.txt"), u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (76):");
    // A title too long for its banner has one underscore each side (`_ T.test_x[…] _`).
    let native = failures_within(&corpus3("pytest-tb-native-attrs.txt"), u64::MAX);
    assert_eq!(native[0], "[ctxoff] failed tests and errors (18):");
}

/// `--tb=native`: the detail is the exception and the innermost frame of the project's own
/// code (attrs' `_make.py`), with its source line, then the test's own frame, which reached it.
#[test]
fn pytest_native_tracebacks_give_the_exception_and_where_it_was_raised() {
    let shown = flat(&failures_within(
        &corpus3("pytest-tb-native-attrs.txt"),
        u64::MAX,
    ));
    assert!(
        shown.contains(
            "TestEvolve::test_private: TypeError: TestEvolve.test_private.<locals>.C.__init__() got an \
             unexpected keyword argument '_a' · File \"/home/dev/attrs-26.1.0/src/attr/_make.py\", \
             line 642, in evolve · return cls(**changes) · File \
             \"/home/dev/attrs-26.1.0/tests/test_funcs.py\", line 749, in test_private"
        ),
        "{shown}"
    );
    // Raised in the test itself: its frame is said once, and hypothesis's example has the room.
    assert!(
        shown.contains(
            "TestAddHash::test_hash_attribute: TypeError: __hash__ method should return an integer \
             · File \"/home/dev/attrs-26.1.0/tests/test_dunders.py\", line 548, in \
             test_hash_attribute · assert hash(C(1, 2)) == hash(C(2, 2)) · Failing test case: \
             test_hash_attribute("
        ),
        "{shown}"
    );
    // An exception group is followed by its first member.
    assert!(
        shown.contains(
            "TestEvolve::test_no_changes: ExceptionGroup: Hypothesis found 2 distinct failures. (2 \
             sub-exceptions) · TypeError: HypClass.__init__() got an unexpected keyword argument '_b'"
        ),
        "{shown}"
    );
}

/// `--tb=native` on python-multipart (unittest-style tests): a helper of the test file
/// (`assert_data`) raised, and the test's own line that called it is said after it; a test
/// reached through a decorator of another test file (`tests/compat.py`) is said by its own
/// frame, not the decorator's.
#[test]
fn pytest_native_tracebacks_say_the_test_line_that_reached_a_helper() {
    let shown = flat(&failures_within(
        &corpus19("pytest-tb-native-captured-log-python-multipart.txt"),
        u64::MAX,
    ));
    let tests = "File \"/home/dev/python_multipart-0.0.20/tests/test_multipart.py\"";
    for wanted in [
        format!(
            "AssertionError: b'=3AX' != b':X' · {tests}, line 629, in assert_data · \
             self.assertEqual(self.f.read(), data) · {tests}, line 684, in test_not_aligned"
        ),
        format!(
            "line 1218, in _internal_write · raise e · {tests}, line 1189, in \
             test_bad_content_transfer_encoding"
        ),
    ] {
        assert!(shown.contains(&wanted), "{wanted} in {shown}");
    }
    assert!(!shown.contains("compat.py"), "{shown}");
}

/// `--doctest-modules` on toolz: a doctest's failure is its example and what was expected and
/// what came (or its unexpected exception and where), named by its node id as the short
/// summary names it.
#[test]
fn pytest_doctests_show_the_example_and_what_came() {
    let bytes = corpus3("pytest-doctest-toolz.txt");
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (9):");
    let shown = flat(&all);
    for wanted in [
        "toolz/functoolz.py::toolz.functoolz.flip: >>> flip(div, 2, 6) · Expected: 3 Got: 0",
        "toolz/itertoolz.py::toolz.itertoolz.topk: >>> topk(2, [1, 100, 10, 1000]) · Expected: (1000, 100) Got: (1, 10)",
        "UNEXPECTED EXCEPTION: LookupError('The sequence passed to `parition_all` has invalid length')",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    assert_eq!(
        rendered(&report(&corpus3("pytest-xdist-dateutil.txt")), "tests:"),
        "tests: 5,080 run, 5,029 passed, 34 failed, 264 skipped, 17 xfailed (pytest, 2 workers [5344 items])"
    );
}

/// go test with testify: an assertion's block (`Error:`, `expected:`, `actual  :`,
/// `Messages:`) is the log line's detail; a multi-line t.Errorf goes on too; a panic is placed
/// in the project's own frame, not reflect's.
#[test]
fn go_test_reads_testify_blocks_and_multi_line_messages() {
    let shown = flat(&failures_within(&corpus3("go-test-testify.txt"), u64::MAX));
    for wanted in [
        "TestInDelta (0.00s): assertions_test.go:1394: Should be false · Expected |1 - 2| <= 0.5 to fail",
        "TestHTTPRedirect (0.00s): http_assertions_test.go:54: Not equal: · expected: false · actual  : true",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    let toml = flat(&failures_within(
        &corpus3("go-test-v-go-toml.txt"),
        u64::MAX,
    ));
    for wanted in [
        "TestTreeWriteToFloat (0.00s): tomltree_write_test.go:345: Expected: · a = 3.0 · Got: · a = 3",
        "TestQuerySliceStartNegative (0.00s): panic: reflect: slice index out of range [recovered] · at \
         /home/dev/go/src/github.com/pelletier/go-toml/query/match.go:175",
    ] {
        assert!(toml.contains(wanted), "{wanted} in {toml}");
    }
}

/// cargo test of regex-syntax and itertools: two long values compared are shown where they
/// differ (`Superfluous` against `Meta`, in the middle of 2,000 characters each), and a
/// property test's shrunk input is kept.
#[test]
fn libtest_shows_where_long_values_differ_and_the_failing_input() {
    let shown = failures_within(&corpus3("cargo-test-regex-syntax.txt"), u64::MAX).join("\n");
    assert!(
        shown.contains("kind: Superfluous, c: '#'") && shown.contains("kind: Meta, c: '#'"),
        "{shown}"
    );
    let quick = failures_within(&corpus3("cargo-test-itertools.txt"), u64::MAX).join("\n");
    assert!(
        quick.contains("[quickcheck] TEST FAILED. Arguments: ([0.0, 0.0, 1.0])"),
        "{quick}"
    );
    // The panics before quickcheck's verdict were its tries, the first with random values:
    // where the test panicked, then the shrunk input and the error it gave.
    assert!(
        quick.contains(
            "  L366 panicked at tests/quick.rs:1813:9: assertion `left == right` failed · \
             [quickcheck] TEST FAILED (runtime error). Arguments: ([0, 0, 1], 0) · Error: \
             \"assertion `left == right` failed\\n  left: {0: MinMax(0, 1)}\\n right: {0: \
             MinMax(1, 0)}\"\n"
        ),
        "{quick}"
    );
    assert!(
        quick.contains(
            "  L792 panicked at tests/specializations.rs:92:13: assertion failed: len <= max · \
             [quickcheck] TEST FAILED (runtime error). Arguments: ([0, 0]) · Error: \
             \"assertion failed: len <= max\"\n"
        ),
        "{quick}"
    );
}

/// g++ on fmt: an error inside a template is detailed with where its instantiation was asked
/// for in the code compiled (`required from here`); googletest's `Which is:` stays with its
/// expression, and a test's second failure is not read into its first's.
#[test]
fn template_errors_name_their_origin_and_gtest_values_stay_with_their_expressions() {
    let shown = failures_within(&corpus3("cmake-build-fmt.txt"), u64::MAX).join("\n");
    assert!(
        shown.contains(
            "/home/dev/fmtlib-9.1.0+ds1/test/ranges-odr-test.cc:16:3:   required from here"
        ),
        "{shown}"
    );
    let gtest = flat(&failures_within(&corpus3("ctest-fmt.txt"), u64::MAX));
    assert!(
        gtest.contains(
            "chrono_test.format_tm: /home/dev/fmtlib-9.1.0+ds1/test/chrono-test.cc:148: Failure · \
             system_strftime(iso_week_spec, &tm) · Which is: \"1970-01-01: 1970 70 01\" · \
             fmt::format(fmt::runtime(fmt_spec), tm) · Which is: \"1970-01-01: 1969 69 52\""
        ),
        "{gtest}"
    );
}

/// node's test runner writes TAP 13 when not on a terminal: its closing counts are the totals,
/// each `not ok` is a failure with its YAML's error and the stack's first frame in the project.
#[test]
fn node_test_runner_totals_and_failures_from_its_yaml() {
    let bytes = corpus3("node-test-fast-json-stringify.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 720 run, 679 passed, 41 failed (TAP)"
    );
    // The failed tests' files, from their `location:` (only failed tests have one here),
    // counted as a direct count over the file counts them.
    let root = "/home/dev/fast-json-stringify-7.3.10/";
    let mut direct: Vec<(String, u64)> = Vec::new();
    for line in bytes.split(|&b| b == b'\n').map(clean_line) {
        let Some(place) = line.trim().strip_prefix("location: '") else {
            continue;
        };
        let file = place.split(':').next().unwrap().trim_start_matches(root);
        match direct.iter_mut().find(|(f, _)| f == file) {
            Some((_, n)) => *n += 1,
            None => direct.push((file.to_owned(), 1)),
        }
    }
    assert_eq!(direct.iter().map(|(_, n)| n).sum::<u64>(), 41);
    let named: Vec<String> = direct.iter().map(|(f, n)| format!("{f} ×{n}")).collect();
    assert_eq!(direct.len(), 14);
    assert_eq!(
        rendered(&r, "failed tests by file"),
        format!("failed tests by file (14): {}", named.join(", "))
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (41):");
    assert!(
        all[1].ends_with(
            "anyOf object with field date-time of type string with format or null\n  L369 \
             '{\"prop\":\"2026-11-02T05:49:43.880Z\"}' == '{\"prop\":\"2026-12-02T05:49:43.880Z\"}' · \
             at /home/dev/fast-json-stringify-7.3.10/test/anyof.test.js:508:12"
        ),
        "{all:#?}"
    );
}

/// expat's minicheck run with `-v`, stdout and stderr in one file: its closing line
/// (`98%: Checks: 365, Failed: 7`) is the total, each `FAIL:` line a failure with where, and the
/// seven `ERROR:` messages (three of them inside a `PASS:` line) are listed as printed.
#[test]
fn minicheck_totals_failures_and_their_messages() {
    let bytes = corpus3("runtests-v-expat.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 365 checks, 358 passed, 7 failed (Check)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (7):");
    assert_eq!(
        all[5],
        "  L222 test_attributes: during actual test at runtests.c:3032"
    );
    let messages = all
        .iter()
        .position(|l| l == "[ctxoff] failure messages as printed (stderr) (7):")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(
        all[messages + 2],
        "  L110 ERROR: expected 11 columns, saw 12"
    );
    assert_eq!(all.len(), messages + 8, "{all:#?}");
}

/// Check's test programs of libqb run one after the other: the closing lines of the four runs
/// summed, each `file:line:F:tcase:test:0:` line a failure with its assertion and where.
#[test]
fn check_runs_are_summed_and_each_failure_has_its_assertion() {
    let bytes = fixture("more", "check-libqb.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 27 checks, 24 passed, 3 failed (Check, 4 runs)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all,
        [
            "[ctxoff] failed tests (3):",
            "  L3 test_array_limits: Assertion 'res == -34' failed: res == 0, -34 == -34 · at check_array.c:59",
            "  L54 test_hashtable_simple: Assertion 'qb_map_count_get(m) == 3' failed: qb_map_count_get(m) == 4, 3 == 3 · at check_map.c:141",
            "  L71 test_hashtable_accents: Assertion 'qb_map_count_get(m) == 0' failed: qb_map_count_get(m) == 13, 0 == 0 · at check_map.c:771",
        ]
    );
}

/// jest 30 (` FAIL  file`, in colour) on jest-extended: 18 tests failed with 19 reports (one
/// test failed twice), so the list counts reports; jest 22 on dayjs: the values under their
/// labels, `● Console` no failure.
#[test]
fn jest_of_two_eras() {
    let extended = corpus3("jest-jest-extended.txt");
    assert_eq!(
        failures_within(&extended, u64::MAX)[0],
        "[ctxoff] failure reports (19):"
    );
    let dayjs = failures_within(&corpus3("jest-dayjs.txt"), u64::MAX);
    let shown = flat(&dayjs);
    assert!(
        shown.contains(
            "isoWeekday: expect(received).toBe(expected) // Object.is equality · Expected value to \
             be: 7 · Received: 0 · at test/plugin/isoWeek.test.js:41:48"
        ),
        "{shown}"
    );
    assert!(!shown.contains("Console"), "{shown}");
}

/// Failed snapshots are counted as each runner's closing lines count them (jest:
/// `Snapshots:   15 failed, 341 passed, 356 total`; vitest: `Snapshots  12 failed`): the count
/// says an update may be what the run needs.
#[test]
fn failed_snapshots_are_counted() {
    let jest = report(&corpus3("jest-jest-extended.txt"));
    assert_eq!(
        rendered(&jest, "tests:"),
        "tests: 901 run, 883 passed, 18 failed of 901 (jest, Test Suites: 6 failed, 79 total, \
         Snapshots: 15 failed)"
    );
    let vitest = report(&corpus3("vitest-zod.txt"));
    assert_eq!(json_u64(&fact(&vitest, "vitest")["snapshots_failed"]), 12);
    assert!(rendered(&vitest, "tests:").ends_with(", Snapshots 12 failed)"));
}
/// Server logs: gunicorn's records by level and each exception under the record that logged
/// it (what was raised, the innermost frame of the app's own code); nginx's errors, each kind
/// once first (a refused upstream among 47 missing files).
#[test]
fn logs_count_levels_and_detail_each_error() {
    let gunicorn = corpus3("gunicorn-flaskr-log.txt");
    let r = report(&gunicorn);
    assert_eq!(
        rendered(&r, "log:"),
        "log: 38 records (info ×32, error ×4, critical ×2), first error L176; 4 exceptions \
         (SystemExit ×2, sqlite3.OperationalError ×1, sqlite3.ProgrammingError ×1); \
         started L2, stopping L492"
    );
    let shown = failures_within(&gunicorn, u64::MAX).join("\n");
    assert!(
        shown.contains(
            "ERROR in app: Exception on /2/update [POST]: sqlite3.OperationalError: no such \
             column: post_id · File \"/home/dev/gunicorn-app/flaskr/blog.py\", line 107, in update"
        ),
        "{shown}"
    );
    let nginx = failures_within(&corpus3("nginx-log.txt"), 700).join("\n");
    assert!(
        nginx.contains("connect() failed (111: Connection refused) while connecting to upstream"),
        "{nginx}"
    );
    // A test run's `ERROR` lines are its own to state: no log fact beside it.
    assert!(!shapes(&report(&corpus3("pytest-attrs.txt"))).contains(&"log".to_owned()));
}

/// pylint on tabulate (json2 report: 4 errors, 88 warnings, 68 refactor, 116 convention; score
/// 8.99): counts by category, the errors first with their places.
#[test]
fn pylint_counts_by_category_and_lists_its_errors_first() {
    let bytes = corpus3("pylint-tabulate.txt");
    let p = fact(&report(&bytes), "pylint");
    assert_eq!(
        (
            json_u64(&p["categories"]["error"]),
            json_u64(&p["categories"]["warning"]),
            json_u64(&p["categories"]["refactor"]),
            json_u64(&p["categories"]["convention"])
        ),
        (4, 88, 68, 116)
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all[1].ends_with(
            "tabulate/__init__.py:946:25: E0602: Undefined variable 'math' (undefined-variable)"
        ),
        "{all:#?}"
    );
    // The kinds not shown are named as lint messages, not as failures, and one without a name
    // is counted, not shown as a bare line number.
    let within = failures_within(&bytes, 400);
    let more = within.last().unwrap();
    assert!(more.starts_with("  … "), "{within:#?}");
    assert!(!more.contains("failed"), "{more}");
    assert!(!more.ends_with(' ') && !more.contains(": …"), "{more}");
}

/// `n` INFO records of a server log.
fn served_requests(n: usize) -> String {
    (0..n)
        .map(|i| format!("2026-12-02 10:00:0{i} INFO request {i} served\n"))
        .collect()
}

/// A Python traceback that ends with `exception`.
fn traceback(exception: &str) -> String {
    format!(
        "Traceback (most recent call last):\n  File \"/srv/app.py\", line 3, in <module>\n    \
         run()\n{exception}\n"
    )
}

/// A line longer than the part of it kept to name a crash report, cut inside a character,
/// before a traceback: named by its first part, no panic (a regression: the cut was by byte).
#[test]
fn a_long_line_before_a_crash_report_is_cut_at_a_character() {
    let mut log = served_requests(5);
    // `é` is two bytes: the 1024th byte falls inside one.
    log.push_str("Error processing ");
    log.push_str(&"é".repeat(600));
    log.push('\n');
    log.push_str(&traceback("ValueError: bad input"));
    let all = failures_within(log.as_bytes(), u64::MAX);
    assert!(
        all.iter().any(|l| l.contains("ValueError: bad input")),
        "{all:#?}"
    );
}

fn corpus4(name: &str) -> Vec<u8> {
    fixture("corpus4", name)
}

/// A vitest or jest message that ends with `:` (`Expected "valid-exact" fixture not to throw an
/// error but it did:`) is followed by what it introduces, the error that was thrown.
#[test]
fn a_js_message_ending_in_a_colon_is_followed_by_what_it_introduces() {
    let all = failures_within(&corpus4("vitest-verbose-superstruct.txt"), u64::MAX);
    assert!(
        line_with(&all, "size > valid-exact").contains(
            "fixture not to throw an error but it did: · StructError: Expected a string with a \
             length of `4` but received one with a length of `4` · at test/index.test.ts:51:23"
        ),
        "{all:#?}"
    );
}

/// jansson's tests under AddressSanitizer (CTest): each failing test's report names where the
/// test itself reached the overflow, the first frame of its stack in the tests' code (not the
/// allocation's stack, not the library's frames).
#[test]
fn a_sanitizer_report_names_the_frame_in_the_tests_own_code() {
    let all = failures_within(&corpus4("ctest-asan-jansson.txt"), u64::MAX);
    let of = |name: &str| {
        all.iter()
            .find(|l| l.contains(&format!(" {name} (Failed)")))
            .unwrap_or_else(|| panic!("{name}: {all:#?}"))
            .clone()
    };
    let chaos = of("test_chaos");
    assert!(
        chaos.ends_with(" · in test_chaos /home/dev/jansson-2.14/test/suites/api/test_chaos.c:124"),
        "{chaos}"
    );
    assert!(of("test_dump").ends_with(
        " · in circular_references /home/dev/jansson-2.14/test/suites/api/test_dump.c:102"
    ));
    // A failure without a sanitizer's report keeps its own detail.
    assert!(of("test_number").contains("test_number.c:23: could construct a real from Inf"));
}

/// x/mod's table tests log the module they test (`rule_test.go:1575: module …`, a `t.Log`)
/// before the failing check: passing cases log there too, so the failing case's detail is the
/// line it logged elsewhere, the `t.Errorf`.
#[test]
fn a_go_test_s_preamble_logged_by_passing_tests_too_is_not_its_failure() {
    let all = failures_within(&corpus4("go-test-v-run-x-mod.txt"), u64::MAX);
    let major = line_with(
        &all,
        "--- FAIL: TestAddRetractValidateVersion/mismatched_major (0.00s)\n",
    );
    assert!(
        major.contains("rule_test.go:1583: f.AddRetract({Low:v1.0.0 High:v1.0.0}, ``) = <nil> · want `version \"v1.0.0\" invalid: should be v2, not v1`"),
        "{major}"
    );
    assert!(!major.contains("rule_test.go:1575"), "{major}");
    // A test whose first log line is its failure keeps it.
    let multi = all
        .iter()
        .find(|l| l.contains("--- FAIL: TestSetRequire/existing_multi (0.00s)\n"))
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert!(multi.contains("rule_test.go:1408: have:"), "{multi}");
}

/// `npm test --workspaces` on eslint's rewrite (mocha in six workspaces, two failing): each
/// failed script is one error with the workspace and command npm names, and the runs that
/// failed are stated with their own totals beside the sums.
#[test]
fn npm_workspace_errors_and_the_mocha_runs_that_failed() {
    let bytes = corpus4("npm-test-eslint-rewrite.txt");
    let r = report(&bytes);
    // Each workspace's run, after npm's banner (`> @eslint/compat@2.1.0 test`), is read as a
    // section of its own.
    assert_eq!(
        rendered(&r, "@eslint/compat:"),
        "@eslint/compat: tests: 332 run, 332 passed, 0 failed (mocha)"
    );
    assert_eq!(
        rendered(&r, "@eslint/object-schema: tests:"),
        "@eslint/object-schema: tests: 71 run, 70 passed, 1 failed (mocha)"
    );
    assert_eq!(
        rendered(&r, "@eslint/plugin-kit: tests:"),
        "@eslint/plugin-kit: tests: 92 run, 84 passed, 8 failed (mocha)"
    );
    assert_eq!(
        rendered(&r, "@eslint/plugin-kit: npm:"),
        "@eslint/plugin-kit: npm: 2 error(s)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.iter().any(|l| l.ends_with(
            "Lifecycle script `test:unit` failed with error: · code 8 · workspace \
             @eslint/plugin-kit@0.7.2 · command sh -c mocha \"tests/**/*.test.js\""
        )),
        "{all:#?}"
    );
}

/// clang stops at its error limit with an unlocated `fatal error: too many errors emitted`,
/// which its own `20 errors generated.` counts: the errors per file are clang's totals.
#[test]
fn clang_s_error_limit_counts_as_the_error_it_is() {
    let r = report(&corpus3("make-k-clang-libyaml.txt"));
    let line = rendered(&r, "gcc/clang:");
    assert!(
        line.starts_with(
            "gcc/clang: 26 errors, 2 warnings, 28 notes; errors and warnings by file: \
             scanner.c ×20, reader.c ×6"
        ),
        "{line}"
    );
}

/// marshmallow's tests (pytest -v): a failure raised in the code under test says where the
/// test reached it (its first frame in the tests' code); one raised in the test does not.
#[test]
fn pytest_names_the_test_s_frame_when_the_failure_was_raised_elsewhere() {
    let all = failures_within(&corpus4("pytest-v-marshmallow.txt"), u64::MAX);
    let find = |name: &str| {
        all.iter()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {all:#?}"))
    };
    assert!(
        find(
            "ERROR at setup of TestFieldOrdering.test_declared_field_order_is_maintained_on_load:"
        )
        .ends_with(" · src/marshmallow/fields.py:1277: TypeError, from tests/conftest.py:27")
    );
    assert!(find("::test_length_max\n").ends_with(
        "Length must be between 1 and 3. · src/marshmallow/validate.py:444: ValidationError, from tests/test_validate.py:509"
    ));
    assert!(
        find("test_float_field_allow_nan[inf-None]\n")
            .ends_with("DID NOT RAISE ValidationError · tests/test_deserialization.py:308: Failed")
    );
}

/// `cargo check --all-targets --keep-going` on itertools broken by hand: the targets cargo
/// could not compile, each by cargo's own line with its error count (they sum to rustc's 25),
/// quoted as printed while there are at most twelve; more are named in one line.
#[test]
fn cargo_names_the_targets_it_could_not_compile() {
    let r = report(&corpus3("cargo-check-itertools.txt"));
    let quoted: Vec<String> = r
        .render()
        .into_iter()
        .filter(|l| l.starts_with("error: could not compile"))
        .collect();
    assert_eq!(
        quoted,
        [
            "error: could not compile `itertools` (test \"test_std\") due to 4 previous errors",
            "error: could not compile `itertools` (test \"laziness\") due to 1 previous error",
            "error: could not compile `itertools` (test \"specializations\") due to 1 previous error",
            "error: could not compile `itertools` (test \"quick\") due to 18 previous errors",
            "error: could not compile `itertools` (bench \"specializations\") due to 1 previous error",
        ]
    );
    let mut many = String::new();
    for k in 1..=13 {
        many.push_str(&format!(
            "error[E0425]: cannot find x\n --> tests/t{k}.rs:1:1\n"
        ));
        many.push_str(&format!(
            "error: could not compile `a` (test \"t{k}\") due to 1 previous error\n"
        ));
    }
    let r = report(many.as_bytes());
    assert!(rendered(&r, "could not compile (13): ").ends_with(", `a` (test \"t13\"): 1 error"));
    assert!(
        !r.render()
            .iter()
            .any(|l| l.starts_with("error: could not compile"))
    );
    // One target: the counts say it already.
    let r = report(&corpus("cargo-build-errors.txt"));
    assert!(
        !r.render()
            .iter()
            .any(|l| l.contains("could not compile (") || l.starts_with("error: could not")),
        "{:#?}",
        r.render()
    );
}

/// fmt's googletest binaries under CTest: the cases that failed are listed once, as
/// googletest's with their details; CTest's list names the binaries.
#[test]
fn ctest_leaves_googletest_cases_to_googletest() {
    let all = failures_within(&corpus3("ctest-fmt.txt"), u64::MAX);
    assert!(
        all.iter().any(|l| l.ends_with(" chrono-test (Failed)")),
        "{all:#?}"
    );
    let detailed: Vec<&String> = all
        .iter()
        .filter(|l| l.contains("chrono-test.cc:148: Failure"))
        .collect();
    assert_eq!(detailed.len(), 1, "{all:#?}");
    assert!(
        detailed[0].contains(" chrono_test.format_tm\n  L12 "),
        "{all:#?}"
    );
}

/// A PostgreSQL server's log: its `LOG:` records count as records of their own level, so the
/// total is every record the server wrote (695 LOG, 11 ERROR, 6 FATAL).
#[test]
fn postgres_log_records_are_counted_by_their_own_levels() {
    let r = report(&corpus4("postgres-log.txt"));
    assert_eq!(
        rendered(&r, "log:"),
        "log: 712 records (log ×695, error ×11, fatal ×6), first error L74; started L2, \
         stopping L736"
    );
}

/// A server's log says when the server came up and why it stopped (the signal or request, not
/// the shutdown steps after it), each line quoted (a record from its level on) unless head or
/// tail shows it: what a reader of a dev server's output asks first.
#[test]
fn a_servers_start_and_why_it_stopped_are_quoted() {
    let cases = [
        (
            corpus4("postgres-log.txt"),
            "started L2, stopping L736",
            "LOG:  received fast shutdown request",
        ),
        (
            corpus3("nginx-log.txt"),
            "stopping L658",
            "signal 3 (SIGQUIT) received from 6916, shutting down",
        ),
        (
            corpus5("celery-worker-ingest.txt"),
            "started L36, stopping L517",
            "worker: Warm shutdown (MainProcess)",
        ),
        (
            corpus5("apache2-foreground-log.txt"),
            "started L3, stopping L356",
            "AH00491: caught SIGTERM, shutting down",
        ),
        (
            corpus3("gunicorn-flaskr-log.txt"),
            "started L2, stopping L492",
            "[INFO] Handling signal: term",
        ),
    ];
    for (output, said, stop) in cases {
        let r = report(&output);
        let stated = rendered(&r, "log:");
        assert!(stated.ends_with(said), "{stated}");
        let lines = r.render();
        let at = lines.iter().position(|l| l.starts_with("[ctxoff] log:"));
        let quoted: Vec<&String> = lines[at.expect("a log fact") + 1..]
            .iter()
            .take_while(|l| !l.starts_with("[ctxoff]"))
            .collect();
        assert!(
            quoted.last().is_some_and(|l| l.ends_with(stop)),
            "{quoted:?}"
        );
        let json = &fact(&r, "log")["stopping"];
        assert!(
            json["text"].as_str().is_some_and(|t| t.ends_with(stop)),
            "{json}"
        );
        assert!(said.ends_with(&format!("stopping L{}", json_u64(&json["line"]))));
    }
    // A record is quoted from its level on (its time and process say nothing there).
    let postgres = report(&corpus4("postgres-log.txt")).render();
    assert!(
        postgres.contains(&"LOG:  received fast shutdown request".to_owned()),
        "{postgres:#?}"
    );
    // A line the tail shows is not quoted again.
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let (preview, apache) = summarised(&corpus5("apache2-foreground-log.txt"), &tokenizer);
    let stop = "AH00491: caught SIGTERM, shutting down";
    assert!(preview.tail.iter().any(|l| l.text.ends_with(stop)));
    assert!(!apache.render().iter().any(|l| l.ends_with(stop)));
}

/// The line that names a crash report (`Internal Server Error: /notes/41/`) names that report
/// only: a second traceback right after the first is not given its name.
#[test]
fn a_report_s_name_is_not_given_to_the_next_report() {
    let mut log = served_requests(5);
    log.push_str("Internal Server Error: /notes/41/\n");
    for exception in ["KeyError: 'id'", "ValueError: bad input"] {
        log.push_str(&traceback(exception));
    }
    let all = failures_within(log.as_bytes(), u64::MAX);
    let named: Vec<&String> = all
        .iter()
        .filter(|l| l.contains("Internal Server Error: /notes/41/"))
        .collect();
    assert_eq!(named.len(), 1, "{all:#?}");
    assert!(named[0].contains("KeyError: 'id'"), "{all:#?}");
    assert!(
        all.iter().any(|l| l.contains("ValueError: bad input")),
        "{all:#?}"
    );
}

/// Django's dev server: a chained traceback (`The above exception was the direct cause…`) is
/// one failure, stated as what was raised in the end, where in the app's own code (the
/// first report has only the database driver's frames) and what it came from.
#[test]
fn a_chained_traceback_is_stated_by_its_last_exception_and_the_app_s_own_frame() {
    let all = failures_within(&corpus4("django-runserver-log.txt"), u64::MAX);
    let of = |start: &str| line_with(&all, start).to_owned();
    assert_eq!(
        of("L68 "),
        "  L68 Internal Server Error: /tags/todo/: django.db.utils.OperationalError: no such \
         table: notes_tag · File \"/home/dev/notebook/notes/views.py\", line 38, in by_tag · \
         tag = Tag.objects.filter(name=name).first() · from sqlite3.OperationalError"
    );
    // A cause with its own message keeps it.
    assert!(
        of("L790 ").ends_with(
            ": django.utils.datastructures.MultiValueDictKeyError: 'format' · File \
             \"/home/dev/notebook/notes/views.py\", line 47, in export · \
             fmt = request.GET[\"format\"] · from KeyError"
        ),
        "{}",
        of("L790 ")
    );
    // A report that is not chained keeps the frame it has.
    assert!(of("L29 ").contains("views.py\", line 22, in note_detail"));
}

/// Uvicorn logs a failed request and then `Exception in ASGI application`, which does not say
/// which request it was: the request on the line before is that error's. Flask logs its error
/// first and the request after the traceback, so the request before its next error is the
/// last one's and is not given to it. Uvicorn's access lines (no date, the status's reason
/// after the code) are counted as requests.
#[test]
fn a_uvicorn_error_names_the_request_logged_just_before_it() {
    let all = failures_within(&corpus11("uvicorn-log-inventory-api.txt"), u64::MAX);
    assert!(
        line_with(&all, "  L72 ").starts_with(
            "  L72 ERROR Exception in ASGI application: 127.0.0.1:38444 - \"GET /items/9/value \
             HTTP/1.1\" 500 Internal Server Error · KeyError: 9 · File \"/home/dev/inventory-api/app.py\", \
             line 55, in stock_value"
        ),
        "{all:#?}"
    );
    let r = report(&corpus11("uvicorn-log-inventory-api.txt"));
    let access = fact(&r, "access log");
    assert_eq!(
        (access["requests"].as_u64(), access["failed"].as_u64()),
        (Some(22), Some(11))
    );
    assert!(
        all.iter()
            .any(|l| l == "  L239 127.0.0.1:38470 - \"POST /orders HTTP/1.1\" 409 Conflict"),
        "{all:#?}"
    );
    let flask = failures_within(&corpus3("flask-run-flaskr-log.txt"), u64::MAX);
    assert!(
        flask
            .iter()
            .filter(|l| l.contains("ERROR in app"))
            .all(|l| !l.contains("HTTP/1.1")),
        "{flask:#?}"
    );
}

/// Python's `--- Logging error ---` (a log call whose arguments do not fit its format): the
/// failure is the formatting error, the app's own frame in the `Call stack:` that made the
/// call, and the message and arguments it passed, not the logging module's frames.
#[test]
fn a_failed_log_call_names_the_call_and_what_it_passed() {
    let all = failures_within(&corpus4("django-runserver-log.txt"), u64::MAX);
    let line = line_with(&all, "  L140 ");
    assert_eq!(
        line,
        "  L140 --- Logging error ---: TypeError: not enough arguments for format string · \
         File \"/home/dev/notebook/notes/views.py\", line 32, in note_stats · \
         Message: 'stats: %d total, %d done, ratio %.2f' · Arguments: (40, 14)"
    );
}

/// An access log's failed request gets the reason the framework logged for it on the line
/// before, when that line ends with the request's path (Django's `Forbidden (CSRF cookie not
/// set.): /notes/new/`); a line about another path is not its reason.
#[test]
fn a_failed_request_gets_the_reason_logged_for_its_path() {
    let all = failures_within(&corpus4("django-runserver-log.txt"), u64::MAX);
    let status = |code: &str| {
        all.iter()
            .find(|l| l.contains(&format!(" HTTP/1.1\" {code} ")))
            .unwrap_or_else(|| panic!("{code}: {all:#?}"))
            .clone()
    };
    assert_eq!(
        status("403"),
        "  L843 \"POST /notes/new/ HTTP/1.1\" 403 2870: Forbidden (CSRF cookie not set.): /notes/new/"
    );
    assert!(status("400").ends_with("400 64010: Bad Request: /notes/"));
    let mut log = String::new();
    for (reason, request) in [
        ("Not Found: /a/", "GET /b/ HTTP/1.1"),
        ("Not Found: /c/", "GET /c/?x=1 HTTP/1.1"),
        ("Not Found: /d/", "GET /d/ HTTP/1.1"),
    ] {
        log.push_str(&format!(
            "{reason}\n[02/Dec/2026 06:52:27] \"{request}\" 200 10\n"
        ));
    }
    log.push_str("Not Found: /a/\n[02/Dec/2026 06:52:27] \"GET /b/ HTTP/1.1\" 404 10\n");
    log.push_str("Not Found: /c/\n[02/Dec/2026 06:52:27] \"GET /c/?x=1 HTTP/1.1\" 410 10\n");
    let all = failures_within(log.as_bytes(), u64::MAX);
    assert_eq!(
        all[1..],
        [
            "  L8 \"GET /b/ HTTP/1.1\" 404 10",
            "  L10 \"GET /c/?x=1 HTTP/1.1\" 410 10: Not Found: /c/"
        ],
        "{all:#?}"
    );
}

/// node's uncaught error: where it was thrown (`path:line` and the source line, printed above
/// the error) is kept beside the script's own frame; a JSON record whose error says what its
/// message says is stated once (`GET /report: RangeError: Invalid time value`).
#[test]
fn node_s_throw_site_is_kept_and_a_json_error_is_said_once() {
    let all = failures_within(&corpus4("node-crash-contacts-audit.txt"), u64::MAX);
    assert_eq!(
        all[1..],
        [
            "  L360 TypeError: Cannot read properties of undefined (reading 'split') · \
          at /home/dev/contacts-audit/check-contacts.js:27:27 · thrown at \
          /home/dev/contacts-audit/node_modules/validator/lib/normalizeEmail.js:71: \
          var raw_parts = email.split('@');"
        ],
        "{all:#?}"
    );
    let all = failures_within(&corpus4("node-fastify-log.txt"), u64::MAX);
    assert!(
        all.contains(
            &"  L21 GET /report: RangeError: Invalid time value · at /home/dev/fastify-app/app.js:53:85"
                .to_owned()
        ),
        "{all:#?}"
    );
    // The error's header names no failure of its own: it is the failure's detail.
    assert!(
        all.iter().any(|l| l.starts_with(
            "  L301 SyntaxError: Expected ',' or '}' after property value in JSON at position 65 · \
             at /home/dev/fastify-app/app.js:60:21 · thrown at <anonymous_script>:1: {\"updated\""
        )),
        "{all:#?}"
    );
}

/// hcl's decoder tests print two long map dumps on the lines under their log line (`Actual,
/// Expected.`): each is shown around where they differ, so the difference is in the summary
/// (the two keys swapped), not cut out of the middle.
#[test]
fn two_long_go_values_compared_are_shown_where_they_differ() {
    let all = failures_within(&corpus4("go-test-hcl.txt"), u64::MAX);
    let list = line_with(&all, " TestDecode_interface/structure_list.json (");
    assert!(
        list.ends_with(
            "Actual, Expected. · …ing]interface {}{\"key\":12}, map[string]interface {}{\"key\":7}}} \
             · …ing]interface {}{\"key\":7}, map[string]interface {}{\"key\":12}}}"
        ),
        "{list}"
    );
}

/// x/mod's rule tests log `have:`, the file they made, `want:`, the file expected: the detail
/// is their first line that differs, under each label (not the start of the first block cut
/// in its middle), and a compact line keeps it: a label says nothing without it.
#[test]
fn two_go_blocks_compared_are_shown_by_their_first_difference() {
    let all = failures_within(&corpus4("go-test-v-run-x-mod.txt"), u64::MAX);
    let of = |name: &str| line_with(&all, &format!(" {name} (")).to_owned();
    assert_eq!(
        of("TestSetRequire/existing_multi"),
        "--- FAIL: TestSetRequire/existing_multi (0.00s)\n  L18 rule_test.go:1408: have: · …require v1.2.3 v1.2.3 · \
         want: …require x.y/a v1.2.3"
    );
    assert!(of("TestAddRetract/new_interval").ends_with(
        "rule_test.go:1471: have: · …retract [v1.1.0, v1.0.0] · want: …retract [v1.0.0, v1.1.0]"
    ));
    let tight = failures_within(&corpus4("go-test-v-run-x-mod.txt"), 300);
    assert!(
        tight
            .iter()
            .any(|l| l.contains("have: · …require v1.2.3 v1.2.3 · want: …require x.y/a v1.2.3")),
        "{tight:#?}"
    );
}

/// An xfail test that passed under `xfail_strict` fails with no traceback: its report's one
/// line `[XPASS(strict)]` is its detail, not the short summary's cut `[XPASS(stri...`.
#[test]
fn a_strict_xpass_is_stated_as_its_report_says() {
    let all = failures_within(&corpus4("pytest-ra-pint.txt"), u64::MAX);
    assert!(
        all.contains(
            &"pint/testsuite/test_issues.py::TestIssues::test_issue86c\n  L98 [XPASS(strict)]"
                .to_owned()
        ),
        "{all:#?}"
    );
}

/// pytest shortens two long strings compared (`assert 'Ambiguous op...for guidance.' == …`):
/// the difference is in its `- ` and `+ ` lines, shown around where they differ.
#[test]
fn a_shortened_string_comparison_shows_its_difference() {
    let all = failures_within(&corpus4("pytest-ra-pint.txt"), u64::MAX);
    let line = line_with(&all, "::TestErrors::test_logarithmic_unit_calculus_error\n");
    assert!(
        line.contains(
            "== 'Ambiguous op...for guidance.' · - ic unit (decibel). See \
             https://pint.readthedocs.io/en/stable/user/lo… · + ic unit (dimensionless). See \
             https://pint.readthedocs.io/en/stable/u… · pint/testsuite/test_errors.py:92: \
             AssertionError"
        ),
        "{line}"
    );
}

fn corpus5(name: &str) -> Vec<u8> {
    fixture("corpus5", name)
}

/// Runners with no shape of their own that number their failures (jasmine, ExUnit, minitest):
/// the runner's line of counts, each block's name, message, the values compared where they
/// differ (over several lines: the first line that differs) and where it failed.
#[test]
fn numbered_failures_of_runners_without_a_shape() {
    let jasmine = corpus5("jasmine-marked.txt");
    assert_eq!(
        rendered(&report(&jasmine), "tests,"),
        "tests, as the runner counts them: 1605 specs, 46 failures"
    );
    let all = failures_within(&jasmine, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests, as numbered (46):");
    assert_eq!(
        line_with(&all, "should remove periods"),
        "  L280 Test slugger functionality should remove periods: TypeError: Cannot read \
         properties of undefined (reading 'dryrun') · at Slugger.slug \
         (/home/dev/marked/src/Slugger.js:53:47), from \
         /home/dev/marked/test/unit/marked-spec.js:59:20"
    );
    assert_eq!(
        line_with(&all, "example 62"),
        "  L379 GFM ATX headings should pass example 62: Expected: \
         </h3><h4>foo</h4><h5>foo</h5><h6>foo</h6> · Actual: </h3><h4>foo</h4><h5>foo</h5><p>###### \
         foo</p> · at /home/dev/marked/test/specs/run-spec.js:39:39"
    );

    let exunit = corpus5("mix-test-trace-eex.txt");
    assert_eq!(
        rendered(&report(&exunit), "tests,"),
        "tests, as the runner counts them: 7 doctests, 101 tests, 38 failures"
    );
    let all = failures_within(&exunit, u64::MAX);
    assert_eq!(
        line_with(&all, "strings with fn-end with newline"),
        "  L98 test strings with fn-end with newline (EEx.TokenizerTest): Assertion with == \
         failed · left: …{:text, 'foo', %{column: 4, line: 2}}, · right: …{:text, 'foo', \
         %{column: 3, line: 2}}, · at test/eex/tokenizer_test.exs:263: (test)"
    );
    // A runtime's frames are passed over for the first of the code under test, then the
    // first in a test file.
    assert!(line_with(&all, "error with missing assigns").ends_with(
        "· at (eex 1.14.0) lib/eex/engine.ex:133: EEx.Engine.fetch_assign!/2, from \
         test/eex/smart_engine_test.exs:56: EEx.SmartEngineTest.assert_eval/3"
    ));

    let minitest = corpus5("rake-minitest-builder.txt");
    let r = report(&minitest);
    assert_eq!(
        rendered(&r, "tests,"),
        "tests, as the runner counts them: 113 runs, 182 assertions, 11 failures, 10 errors, 0 skips"
    );
    // The `--- expected` / `+++ actual` of values compared is no diff of files.
    assert!(!r.render().iter().any(|l| l.starts_with("[ctxoff] diff:")));
    let all = failures_within(&minitest, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests, as numbered (21):");
    assert_eq!(
        all[1],
        "  L121 TestDeclarations#test_complex_declaration: -  <!ELEMENT chapter (title,para+)> · \
         +<!ELEMENT chapter (title,para+)> · at /home/dev/builder-3.2.4/test/test_markupbuilder.rb:356"
    );
}

/// A numbered list that reports no failure (steps, a menu) is no list of failures.
#[test]
fn a_numbered_list_without_failures_is_not_one() {
    let text = "Next steps:\n  1) install the package\n     with pip\n  2) run the server\n\
                3 steps, 0 warnings\n";
    let r = report(&text.repeat(3).into_bytes());
    assert!(
        !r.facts_json().to_string().contains("numbered"),
        "{:#}",
        r.facts_json()
    );
}

/// pytest compares two strings over several lines: the lines alike and its `?` marks say
/// nothing of how they differ; its `-` and `+` lines do.
#[test]
fn pytest_strings_over_several_lines_show_their_minus_and_plus_lines() {
    let all = failures_within(&corpus5("pytest-sqlparse.txt"), u64::MAX);
    assert_eq!(
        line_with(&all, "test_python"),
        "tests/test_format.py::TestOutputFormat::test_python\n  L203 E       assert \"sql = ('sele... 'from foo;')\" == \"sql = \
         ('sele... 'from foo;')\" · -        'from foo;') · +       'from foo;') · \
         tests/test_format.py:660: AssertionError"
    );
}

/// An assertion whose values say little (`assert False`, `assert 2 == 1`) or that pytest
/// elided (`assert deque([TClass...])`) is explained by pytest's next `E` lines: the first
/// `+  where …`, `At index 0 diff: …`, the differing attribute; its headings (`Differing
/// attributes:`, `Omitting 29 identical items`) are not a detail. An exception whose message
/// compares (`AssertionError: b'#' != b'\\#'`) is still the first line.
#[test]
fn pytest_explains_an_assertion_that_says_little() {
    let all = failures_within(&corpus5("pytest-hypothesis-cattrs.txt"), u64::MAX);
    let sets = line_with(&all, "test_structure_abstract_sets[BaseConverter-True]");
    assert!(
        sets.contains("assert False · +  where False = isinstance({1, 2, 3}, frozenset)"),
        "{sets}"
    );
    let deque = line_with(
        &all,
        "test_structure_deque_of_generic_unions[BaseConverter-True]",
    );
    assert!(
        deque.contains(" · At index 0 diff: TClass(a=1, b=2, c=0) != TClass2(c='string')"),
        "{deque}"
    );
    let orjson = all
        .iter()
        .find(|l| l.contains("Everything(st...l_with_bare=1)"))
        .expect("an Everything comparison");
    assert!(
        orjson.contains("Everything(st...l_with_bare=1) · a_homogenous_tuple: () != (0,)"),
        "{orjson}"
    );
    assert!(
        !all.iter()
            .any(|l| l.contains("Differing attributes") || l.contains("Omitting 29")),
        "{all:#?}"
    );
    let sqlparse = failures_within(&corpus5("pytest-sqlparse.txt"), u64::MAX);
    assert!(
        line_with(&sqlparse, "assert 2 == 1")
            .contains("assert 2 == 1 · +  where 2 = len([<Identifier '6.6742...' at"),
        "{sqlparse:#?}"
    );
    let pathspec = failures_within(
        &fixture("corpus7", "parallel-tag-pytest-pathspec.txt"),
        u64::MAX,
    );
    assert!(
        line_with(&pathspec, "b'#' != b'")
            .contains("AssertionError: b'#' != b'\\\\#' · tests/test_02_gitignore_base.py:29"),
        "{pathspec:#?}"
    );
}

/// A setup error ends with the fixture's place alone (`/abs/tests/conftest.py:42`); a module
/// that failed to import ends with its `E` line, placed by its frame in the tests' code
/// (`tests/test_parser.py:17: in <module>`). An absolute path is shown from the tests'
/// directory on.
#[test]
fn pytest_places_setup_and_collection_errors() {
    let sqlparse = failures_within(&corpus5("pytest-sqlparse.txt"), u64::MAX);
    assert!(
        sqlparse.iter().any(|l| l.ends_with(
            "ERROR at setup of test_stream: E       fixture 'encoding' not found · at tests/conftest.py:42"
        )),
        "{sqlparse:#?}"
    );
    let arrow = failures_within(&corpus5("pytest-q-arrow.txt"), u64::MAX);
    assert!(
        line_with(&arrow, "ERROR collecting tests/test_parser.py").ends_with(
            "ImportError: cannot import name 'ParserMatchError' from 'arrow.parser' \
             (/home/dev/arrow-1.4.0/arrow/parser.py) · at tests/test_parser.py:17"
        ),
        "{arrow:#?}"
    );
}

/// A failure raised from another (`The above exception was the direct cause of the following
/// exception:`) shows the exception the test saw, even when the first one was located.
#[test]
fn pytest_shows_the_exception_raised_from_the_one_located() {
    let all = failures_within(&corpus3("pytest-xdist-dateutil.txt"), u64::MAX);
    let shown = all.join("\n");
    assert!(
        shown.contains("dateutil.parser._parser.ParserError: hour must be in 0..23: 12:08 PM"),
        "{shown}"
    );
}

/// flake8 over a project: the findings that are likely bugs (undefined names, bad comparisons)
/// are listed each, before the first finding of each style rule; pylint's errors likewise.
#[test]
fn lint_findings_that_are_bugs_are_listed_each_before_style() {
    let all = failures_within(&corpus5("flake8-boltons.txt"), u64::MAX);
    assert_eq!(
        all[0],
        "[ctxoff] likely bugs (syntax errors, undefined names, bad comparisons) (8):"
    );
    for wanted in [
        "  L90 ./boltons/iterutils.py:106:12: F821 undefined name 'is_iterble'",
        "  L203 ./boltons/strutils.py:641:12: F821 undefined name 'zlib'",
        "  L142 ./boltons/mathutils.py:241:12: F632 use ==/!= to compare constant literals (str, bytes, int, float, tuple)",
    ] {
        assert!(all.iter().any(|l| l == wanted), "{wanted} in {all:#?}");
    }
    let style = all
        .iter()
        .position(|l| l == "[ctxoff] first of each kind (37):")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert!(!all[style..].iter().any(|l| l.contains(" F821 ")));

    let all = failures_within(&corpus3("pylint-tabulate.txt"), u64::MAX);
    assert_eq!(
        all[..5],
        [
            "[ctxoff] errors (4):",
            "  L34 tabulate/__init__.py:946:25: E0602: Undefined variable 'math' (undefined-variable)",
            "  L35 tabulate/__init__.py:946:54: E0602: Undefined variable 'math' (undefined-variable)",
            "  L59 tabulate/__init__.py:1398:31: E0602: Undefined variable 'visible_widht' (undefined-variable)",
            "  L61 tabulate/__init__.py:1403:15: E1120: No value for argument 's' in function call (no-value-for-parameter)",
        ]
    );
}

/// pyright: its closing totals, the rules tallied from the ends of messages that go on over
/// lines indented with no-break spaces (as its `--outputjson` counts them), and the first error
/// of each rule, those that raise at run time first.
#[test]
fn pyright_totals_rules_and_the_first_of_each() {
    let bytes = corpus5("pyright-tomlkit.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "pyright:"),
        "pyright: 421 errors, 0 warnings, 0 informations; rules: reportOptionalSubscript ×205, \
         reportOptionalMemberAccess ×180, reportArgumentType ×10, reportAttributeAccessIssue ×10, \
         reportIncompatibleMethodOverride ×4 +5 more; in 10 files"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[2],
        "  L447 /home/dev/tomlkit-0.15.2/tomlkit/container.py:1358:12 - error: \"math\" is not \
         defined (reportUndefinedVariable)"
    );
}

/// shellcheck's tty output over a project's scripts: findings by level (as its JSON report
/// counts them), every error at its place, then the first finding of each other code,
/// warnings first.
#[test]
fn shellcheck_levels_errors_each_then_the_first_of_each_code() {
    let bytes = corpus5("shellcheck-devscripts.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "shellcheck:").starts_with(
            "shellcheck: 646 findings (error ×14, warning ×166, info ×387, style ×79) in 27 files; \
             other codes: SC2086 ×332,"
        ),
        "{}",
        rendered(&r, "shellcheck:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] errors (14):");
    assert_eq!(
        all[1],
        "  L71 scripts/annotate-output.sh:95: SC2145 (error): Argument mixes string and array. \
         Use * or separate argument."
    );
    assert_eq!(
        line_with(&all, "debsign.sh:133: SC1020"),
        "  L1,504 scripts/debsign.sh:133: SC1020 (error): You need a space before the ]."
    );
    let others = all
        .iter()
        .position(|l| l == "[ctxoff] first of each other code (46):")
        .unwrap_or_else(|| panic!("{all:#?}"));
    // After the first finding, warnings before info and style.
    assert!(all[others + 2].contains("(warning)"), "{all:#?}");
}

/// celery's records, `[date time: LEVEL/ProcessName] message`, are counted by level (as `grep
/// -c` counts them), and an error record that no traceback follows is listed too.
#[test]
fn celery_records_with_their_process_after_the_level() {
    let bytes = corpus5("celery-worker-ingest.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "log:")
            .starts_with("log: 205 records (info ×185, error ×11, warning ×9), first error L94;"),
        "{}",
        rendered(&r, "log:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        line_with(&all, "unregistered"),
        "  L321 ERROR/MainProcess] Received unregistered task of type 'pipeline.archive_invoice'."
    );
}

/// The JUnit Platform console launcher: its closing counts and each failure of its `Failures`
/// section with its exception, where it was thrown in the project's code and the test's line.
#[test]
fn junit_console_counts_and_failures() {
    let bytes = corpus5("junit-console-jsoup.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 1,090 found, 1,035 successful, 10 failed, 45 skipped (JUnit)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (10):");
    assert_eq!(
        all[3],
        "  L1,146 ElementTest.testFirstAndLastSiblings(): java.lang.IndexOutOfBoundsException: \
         Index 3 out of bounds for length 3 · at \
         org.jsoup.nodes.Element.lastElementSibling(Element.java:971), from \
         org.jsoup.nodes.ElementTest.testFirstAndLastSiblings(ElementTest.java:234)"
    );
    assert_eq!(
        all[10],
        "  L1,244 SelectorTest.testByClass(): org.opentest4j.AssertionFailedError: expected: <2> \
         but was: <1> · at org.jsoup.select.SelectorTest.testByClass(SelectorTest.java:44)"
    );
}

/// busted in GoogleTest's form: a failure's message after the place in the spec file
/// (`spec/a_spec.lua:356: Expected objects to be the same.`) is its detail, each value with
/// its label, up to the stack.
#[test]
fn busted_failures_in_googletest_form_have_their_message_and_values() {
    let all = failures_within(&corpus5("busted-gtest-luassert.txt"), u64::MAX);
    assert_eq!(
        line_with(&all, "composite matcher"),
        "[  FAILED  ] spec/matchers_spec.lua @ 348: Test Matchers Checks all() composite \
         matcher\n  L223 spec/matchers_spec.lua:356: Expected objects to be the same. · Passed in: (boolean) \
         true · Expected: (boolean) false"
    );
}

/// A diff between two releases: the files git's headers say were created, deleted and renamed
/// (as `git diff --name-status` lists them).
#[test]
fn a_diff_names_its_new_deleted_and_renamed_files() {
    let r = report(&corpus5("git-diff-tags-urllib3.txt"));
    assert_eq!(
        rendered(&r, "new files"),
        "new files (3): src/urllib3/_base_connection.py, src/urllib3/py.typed, \
         src/urllib3/util/util.py"
    );
    assert!(rendered(&r, "deleted files").starts_with("deleted files (9): "));
    assert!(rendered(&r, "deleted files").contains("src/urllib3/packages/six.py"));
    assert_eq!(
        rendered(&r, "renamed"),
        "renamed (1): src/urllib3/request.py → src/urllib3/_request_methods.py"
    );
}

/// ansible-playbook: the recap summed over hosts, each failed task by name and host with its
/// message (and stderr), where the task is, and whether it was ignored.
#[test]
fn ansible_recap_and_failed_tasks() {
    let bytes = corpus5("ansible-playbook-v-ledgerd.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "ansible:"),
        "ansible: 31 tasks, 1 host; ok=29 changed=15 unreachable=0 failed=1 skipped=0 rescued=1 ignored=2"
    );
    assert!(!r.render().iter().any(|l| l.starts_with("[ctxoff] log:")));
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tasks (5):");
    assert_eq!(
        all[1],
        "  L64 Probe the service port [localhost]: Timeout when waiting for 127.0.0.1:8420 · at \
         /home/dev/ansible/site.yml:83:7 · (ignored)"
    );
    assert_eq!(
        all[4],
        "  L159 Render database settings [localhost] (item=staging): Task failed: 'db_port' is \
         undefined · at /home/dev/ansible/site.yml:193:7"
    );
}

fn corpus6(name: &str) -> Vec<u8> {
    fixture("corpus6", name)
}

/// UndefinedBehaviorSanitizer's reports in a program's output: counted, each with its place.
#[test]
fn sanitizer_reports_outside_a_test_run() {
    let bytes = corpus6("pcre2test-ubsan-pcre2.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "sanitizers:"),
        "sanitizers: 6 reports (runtime error ×6)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all.len(), 7, "{all:#?}");
    assert_eq!(
        all[6],
        "  L6,774 src/pcre2_study.c:1458:11: runtime error: shift exponent 133 is too large for \
         32-bit type 'int'"
    );
}

/// `go test -race` on logrus with two locks removed: each `WARNING: DATA RACE` is a report,
/// described by the code's innermost frame of each access (the atomic the code called is the
/// runtime's, not where the race is).
#[test]
fn go_race_reports_name_both_accesses() {
    let bytes = corpus3("go-test-race-logrus.txt");
    let text = String::from_utf8_lossy(&bytes);
    let races = text.lines().filter(|l| *l == "WARNING: DATA RACE").count();
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "sanitizers:"),
        format!("sanitizers: {races} reports (Go race detector: data race ×{races})")
    );
    let all = failures_within(&bytes, u64::MAX);
    let races: Vec<&String> = all
        .iter()
        .skip_while(|l| !l.starts_with("[ctxoff] sanitizer reports"))
        .skip(1)
        .collect();
    assert_eq!(
        races[0].as_str(),
        "  L3 WARNING: DATA RACE: Read by goroutine 14: github.com/sirupsen/logrus.(*Entry).write() \
         /home/dev/go/src/github.com/sirupsen/logrus/entry.go:289 · Previous write by goroutine \
         13: github.com/sirupsen/logrus.(*Logger).SetFormatter() \
         /home/dev/go/src/github.com/sirupsen/logrus/logger.go:383"
    );
    assert!(
        races.iter().all(|l| !l.contains("sync/atomic.")),
        "{races:#?}"
    );
}

/// scan-build on lua: one checker (`unix.Malloc`) found a leak, a use after free and a double
/// free; each way of failing is a kind of its own, so none hides behind the checker's first.
#[test]
fn a_checkers_different_findings_are_each_shown() {
    let all = failures_within(&fixture("corpus8", "scan-build-lua.txt"), u64::MAX).join("\n");
    for finding in [
        "lauxlib.c:784:7: warning: Potential leak of memory pointed to by 'fcopy' [unix.Malloc]",
        "lbaselib.c:163:23: warning: Use of memory after it is freed [unix.Malloc]",
        "loadlib.c:665:5: warning: Attempt to free released memory [unix.Malloc]",
    ] {
        assert!(all.contains(finding), "{finding} in {all}");
    }
}

/// clang-tidy's check names are the codes of its diagnostics: the rare checks are listed
/// before the repeats of common ones, and the checks are tallied.
#[test]
fn clang_tidy_checks_are_codes() {
    let bytes = corpus6("clang-tidy-checks-serd.txt");
    let r = report(&bytes);
    let gcc = fact(&r, "gcc");
    assert_eq!(json_u64(&gcc["errors"]), 20, "{gcc}");
    let all = failures_within(&bytes, 700);
    let listed = all.join("\n");
    for check in [
        "[clang-analyzer-unix.Malloc,",
        "[clang-analyzer-core.uninitialized.UndefReturn,",
        "[clang-analyzer-valist.Uninitialized,",
        "[bugprone-suspicious-string-compare,",
        "[cert-err33-c,",
        "[bugprone-easily-swappable-parameters,",
    ] {
        assert!(listed.contains(check), "{check} missing from {all:#?}");
    }
}

/// behave: its closing counts summed, each failing scenario with its place, how it failed
/// (an assertion, or a traceback's exception and its innermost frame in the project's own code,
/// with its source line) and the step that failed;
/// the closing list completes the count.
#[test]
fn behave_failing_scenarios() {
    let bytes = corpus6("behave-slugify.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "behave:"),
        "behave: 67 scenarios (44 passed, 17 failed, 6 error, 0 skipped); 201 steps (172 \
         passed, 17 failed, 6 error, 6 skipped)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failing scenarios (23):");
    assert_eq!(
        all[1],
        "  L105 features/entities.feature:15 Entities are decoded before slugifying -- @1.3: \
         ASSERT FAILED: expected 'foo-z-bar', got 'foo-x17d-bar' · in step: Then the slug \
         should be \"foo-z-bar\""
    );
    assert_eq!(
        line_with(&all, "separators.feature:13 "),
        "  L192 features/separators.feature:13 Words are joined with the chosen separator -- \
         @1.1: NameError: name 'seperator' is not defined · File \
         \"/home/dev/python_slugify-9.2.0/slugify/_legacy.py\", line 161, in slugify · return \
         text.replace(DEFAULT_SEPARATOR, seperator) if separator != DEFAULT_SEPARATOR else text \
         · in step: When I slugify it with the separator \"_\""
    );
}

/// cucumber-js's numbered failures: each scenario's message, first frame and failed step;
/// an undefined step is a failure too.
#[test]
fn cucumber_js_failing_scenarios() {
    let bytes = fixture("more", "cucumber-js-cart.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "cucumber:"),
        "cucumber: 116 scenarios (84 failed, 1 undefined, 31 passed); 350 steps (84 failed, 1 \
         undefined, 2 skipped, 263 passed)"
    );
    assert!(!shapes(&r).contains(&"numbered failures".to_owned()));
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failing scenarios (85):");
    assert_eq!(
        all[1],
        "  L5 features/cart.feature:6 One item: AssertionError [ERR_ASSERTION]: Expected values \
         to be strictly equal: · 3 !== 6 · at World.<anonymous> \
         (/home/dev/cart/features/step_definitions/steps.js:10:10) · in step: Then the total \
         is 6"
    );
    assert_eq!(
        line_with(&all, "cart.feature:26 "),
        "  L49 features/cart.feature:26 Discount codes: TypeError: this.totl is not a function \
         · at Cart.discount (/home/dev/cart/src/cart.js:6:78) · in step: And I apply the code \
         \"NONE\""
    );
    assert!(line_with(&all, "cart.feature:28 ").contains("Undefined."));
}

/// EUnit, verbose: the totals, and each failed test by its line and title with the error's
/// kind, the values it compared and where it was raised (a function of the project's that
/// called an undefined one, when the error is `undef`).
#[test]
fn eunit_failures() {
    let bytes = corpus6("erl-eunit-getopt.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "eunit:"),
        "eunit: 101 tests, 90 passed, 11 failed, 0 skipped"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (11):");
    assert_eq!(
        all[1],
        "  L61 getopt_test:198 (Option with short form, long form and boolean argument): \
         error:assertMatch · {pattern,\"{ ok , { [ { short_long_bool , false } ] , [ ] } }\"} · \
         {value,{ok,{[{short_long_bool,true}],[\"off\"]}}} · at test/getopt_test.erl, line 198"
    );
    assert_eq!(
        all[2],
        "  L93 getopt_test:262 (Shell variable expansion (simple Unix/bash format)): error:undef \
         · in os:get_env/1 called from getopt:get_env_var/3 (src/getopt.erl, line 919)"
    );
}

/// A failing scenario read in the run and again in the closing list is counted once, however
/// many there are (past those whose failures are kept).
#[test]
fn gherkin_failing_scenarios_are_counted_once() {
    let mut out = String::new();
    for i in 1..=300 {
        out.push_str(&format!(
            "  Scenario: case {i}  # features/a.feature:{i}\n    Then it holds  # steps.py:4\n      \
             ASSERT FAILED: case {i}\n\n"
        ));
    }
    out.push_str("Failing scenarios:\n");
    for i in 1..=300 {
        out.push_str(&format!("  features/a.feature:{i}  case {i}\n"));
    }
    out.push_str("\n0 features passed, 1 failed, 0 skipped\n");
    out.push_str("0 scenarios passed, 300 failed, 0 skipped\n");
    let all = failures_within(out.as_bytes(), u64::MAX);
    assert_eq!(all[0], "[ctxoff] failing scenarios (300):");
}

/// bun test: its counts, and each failed test with the report printed before its `(fail)`
/// line (the error, `Expected` and `Received`, where it failed and the test's own line); the
/// closing list of failed tests is not counted again; an error between tests is a failure.
#[test]
fn bun_test_failures() {
    let bytes = fixture("more", "bun-test-commander.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "bun test:"),
        "bun test: 1,043 tests, 1,027 passed, 16 failed, 1 error (97 files)"
    );
    assert!(!shapes(&r).contains(&"log".to_owned()), "{:?}", shapes(&r));
    let all = failures_within(&bytes, u64::MAX);
    // Bun counts 16 failed and lists 15 tests under `16 tests failed:`: the error between
    // tests is one of its 16.
    assert_eq!(all[0], "[ctxoff] failed tests (16):");
    assert_eq!(
        all[1],
        "  L567 when imply from positive option then positive implied: TypeError: undefined is \
         not an object (evaluating 'this.negativeOptions.get(option.name()).presetArg') · at \
         /home/dev/commander/lib/option.js:282:58, from \
         /home/dev/commander/tests/options.implies.test.js:98:11"
    );
    assert_eq!(
        line_with(&all, "suggest bat, cat, rat"),
        "  L776 when cli of xat and commands [\"rat\",\"cat\",\"bat\"] then suggest bat, cat, rat \
         because sorted possibles: error: expect(received).toBe(expected) · Expected: \"bat, cat, \
         rat\" · Received: \"rat, cat, bat\" · at \
         /home/dev/commander/tests/help.suggestion.test.js:48:22"
    );
    assert_eq!(
        line_with(&all, "unhandled error"),
        "  L741 unhandled error between tests in tests/ts-imports.test.ts: SyntaxError: Export \
         named 'createCommand' not found in module '/home/dev/commander/index.js'."
    );
}

/// deno test: its closing counts, and each failed test with its report from ` ERRORS `: the
/// message, the values (one line, or the first `+` and `-` lines of a diff) and the first frame.
#[test]
fn deno_test_failures() {
    let bytes = fixture("more", "deno-test-js-yaml.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "deno test:"),
        "deno test: 28 tests, 24 passed, 4 failed"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all,
        [
            "[ctxoff] failed tests (4):",
            "  L3 loader: construct-bool: AssertionError: Expected values to be strictly \
             deep-equal: · actual: false, · expected: true · at \
             /home/dev/js-yaml/test/loader_test.mjs:26:14",
            "  L5 loader: construct-float: AssertionError: Expected values to be strictly equal: · \
             actual: Infinity · expected: -Infinity · at \
             /home/dev/js-yaml/test/samples-common/construct-float.js:20:10",
            "  L25 loader: more-floats: AssertionError: Expected values to be strictly equal: · 1 \
             !== -1 · at /home/dev/js-yaml/test/samples-common/more-floats.js:20:10",
            "  L26 loader: negative-float-bug: AssertionError: Expected values to be strictly \
             deep-equal: · 1 !== -1 · at /home/dev/js-yaml/test/loader_test.mjs:26:14",
        ]
    );
}

/// Robot Framework: the outermost suite's counts (printed last), and each failed test with its
/// message; a suite's own `| FAIL |` line is no test.
#[test]
fn robot_failed_tests() {
    let bytes = corpus6("robot-humanize.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "robot:"),
        "robot: 120 tests, 105 passed, 15 failed"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (15):");
    assert_eq!(all[1], "  L24 Ordinal Of 13: 13rd != 13th");
    assert!(!all.iter().any(|l| l.contains("Tests.01")), "{all:#?}");
    assert_eq!(
        line_with(&all, "(one)"),
        "  L241 Natural List Of 2 Items (one): TypeError: can only concatenate str (not \"list\") \
         to str"
    );
}

/// meson test with `--print-errorlogs`: the closing counts, and each failed test with how it
/// ended and its log's first telling line and last line; the summary of failures is not
/// counted again.
#[test]
fn meson_test_failures() {
    let bytes = corpus6("meson-test-errorlogs-fribidi.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "meson test:"),
        "meson test: 8 tests, 4 ok, 4 failed"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (4):");
    assert_eq!(
        all[3],
        "  L52 BidiCharacterTest: exit status 11 · failure on line 102 · 11 errors"
    );
    assert!(
        all[1].starts_with(
            "  L5 CapRTL_implicit: exit status 1 · Exception: fribidi --test output for charset \
             CapRTL and input file"
        ),
        "{all:#?}"
    );
}

/// bandit: its issues by severity, and the first issue of each test, the most severe first
/// after the very first; the code it echoes gives no notable examples.
#[test]
fn bandit_issues_by_severity() {
    let bytes = corpus6("bandit-r-invoke.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "bandit:").starts_with(
            "bandit: 1,292 issues (High: 1, Medium: 12, Low: 1,279); 18,558 lines of code; \
             tests: B101 ×1,266,"
        ),
        "{}",
        rendered(&r, "bandit:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[0],
        "[ctxoff] first issue of each test, the most severe first (11):"
    );
    assert_eq!(
        all[1],
        "  L10 ./invoke/config.py:497:16: B105 Possible hardcoded password: 'invoke' (Low)"
    );
    assert_eq!(
        all[2],
        "  L84 ./invoke/runners.py:1365:27: B602 subprocess call with shell=True identified, \
         security issue. (High)"
    );
    assert!(all[3].contains(": B307 "), "{all:#?}");
}

/// Counts at the edge of u64 in runners' closing lines (summed over runs) are held at the
/// largest count: not wrapped, and no shape panics.
#[test]
fn huge_counts_in_closing_lines_do_not_overflow() {
    let max = u64::MAX;
    let mut out = String::new();
    for _ in 0..2 {
        for line in [
            format!(" {max} pass"),
            format!("Ran {max} tests across {max} files. [1ms]"),
            format!("FAILED | {max} passed | {max} failed (1ms)"),
            format!("Ok: {max}"),
            format!("Fail: {max}"),
            "Expected Fail: 1".to_owned(),
            "Unexpected Pass: 1".to_owned(),
            "Skipped: 1".to_owned(),
            "Timeout: 1".to_owned(),
            format!("  Failed: {max}.  Skipped: {max}.  Passed: {max}."),
            format!("{max} scenarios passed, {max} failed, 1 error, 0 skipped"),
            format!("{max} scenarios ({max} failed, 1 passed)"),
            "Total issues (by severity):".to_owned(),
            format!("\t\tLow: {max}"),
            format!("\t\tHigh: {max}"),
            // Runners read before this stop.
            format!("===== {max} failed, {max} passed in 0.10s ====="),
            format!("  {max} passing (3ms)"),
            format!("  {max} failing"),
            format!("{max} Tests {max} Failures 0 Ignored"),
            format!("[  PASSED  ] {max} tests."),
            format!("[  FAILED  ] {max} tests, listed below:"),
            format!("Tests run: {max}, Failures: {max}, Errors: 0, Skipped: 0"),
            format!("{max} runs, 1 assertions, {max} failures, 1 errors, 0 skips"),
            format!("test cases: {max} | {max} passed | 1 failed"),
            format!("100%: Checks: {max}, Failures: {max}, Errors: {max}"),
            format!("{max} errors generated."),
        ] {
            out.push_str(&line);
            out.push('\n');
        }
    }
    let (analysis, _) = feed(out.as_bytes(), 10);
    assert_eq!(analysis.panicked_shapes(), 0);
    let r = report(out.as_bytes());
    let meson = fact(&r, "meson test");
    assert_eq!(json_u64(&meson["fail"]), u64::MAX, "{meson}");
    assert!(
        rendered(&r, "bandit:").starts_with("bandit: 18,446,744,073,709,551,615 issues"),
        "{}",
        rendered(&r, "bandit:")
    );
}

/// strace: the calls and how many failed by error, how each process ended, what the program
/// wrote to standard error (in full where it is interleaved after a cut string), and the calls
/// that failed on its own files, the last first; lookups that fail by design (libraries,
/// locales, stat probes, terminal checks) are not among them.
#[test]
fn strace_reads_ends_messages_and_the_programs_own_failures() {
    let bytes = corpus5("strace-f-reportsync.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "strace:"),
        "strace: 2,134 calls in 2 processes, 210 failed (ENOENT ×115, EINVAL ×3, ENOTTY ×89, \
         ESPIPE ×2, EINPROGRESS ×1, ECONNREFUSED ×1)"
    );
    assert_eq!(
        rendered(&r, "ends:"),
        "ends: L1,692 [pid 26476] +++ exited with 128 +++ · L2,159 +++ exited with 1 +++"
    );
    let all = failures_within(&bytes, u64::MAX);
    let at = |prefix: &str| {
        all.iter()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{prefix}: {all:#?}"))
    };
    let written = at("[ctxoff] written to standard error (21):");
    assert!(
        all[written + 1]
            .starts_with("  L1,353 WARNING reportsync: no config file found (reportsync.toml, ")
    );
    assert!(all.contains(
        &"  L1,696 ERROR reportsync: git log failed in reports-data (exit 128): fatal: bad object HEAD"
            .to_owned()
    ));
    assert!(all.contains(
        &"  L2,152 [Errno 2] No such file or directory: 'templates/summary.txt'".to_owned()
    ));
    let own = at(
        "[ctxoff] calls that failed on the program's own files and sockets, the last first (21):",
    );
    assert_eq!(
        all[own + 1],
        "  L1,784 openat(AT_FDCWD, \"templates/summary.txt\", O_RDONLY|O_CLOEXEC) = -1 ENOENT \
         (No such file or directory)"
    );
    assert_eq!(
        all[own + 2],
        "  L1,779 getsockopt(3, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0"
    );
    assert!(
        !all.iter()
            .any(|l| l.contains("/usr/share/locale") || l.contains("ENOTTY ("))
    );
}

/// node-tap describes a failed comparison by a diff (`diff: |`, or folded `diff: >` with blank
/// lines between): its first change, the lines removed (expected) and added (actual), is the
/// detail, under the test's path through its subtests; the closing count (`# failed 4 of 10 tests`) is quoted as printed.
#[test]
fn node_tap_diffs_show_their_first_change() {
    let bytes = corpus6("tap-normalize-package-data.txt");
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        line_with(&all, "bcrypt.json"),
        "test/consistency.js > consistent normalization > not ok 3 - Normalization of bcrypt.json \
         is consistent.\n  L32 - \"email\": \"<<savedfastcool@gmail.com>\", · + \"email\": \
         \"<savedfastcool@gmail.com>\", · at test/consistency.js:26:11"
    );
    // Folded, with blank lines between the removed and the added line: its test alone, as
    // if at the top level.
    let text = String::from_utf8_lossy(&bytes);
    let folded: Vec<&str> = text
        .lines()
        .skip(209)
        .take(24)
        .map(|l| l.strip_prefix("        ").unwrap_or(l))
        .collect();
    assert!(folded[2].ends_with("diff: >"), "{folded:#?}");
    let one = failures_within(folded.join("\n").as_bytes(), u64::MAX);
    assert!(
        line_with(&one, "read-package-json.json")
            .contains("- \"email\": \"<<i@izs.me>\", · + \"email\": \"<i@izs.me>\","),
        "{one:#?}"
    );
    assert!(
        line_with(&all, "should be equivalent").contains(
            "-Object { \"type\": \"git\", \"url\": \"git+ssh://git@gist.github.com/123456.git\", } \
             · +undefined · at test/normalize.js:179:5"
        ),
        "{all:#?}"
    );
    // A block that ends with its diff's change (`...` next): the change is still read.
    let ended: Vec<&str> = text
        .lines()
        .skip(31)
        .take(11)
        .map(|l| l.strip_prefix("        ").unwrap_or(l))
        .chain(["  ..."])
        .collect();
    assert!(ended[0].starts_with("not ok 3 - "), "{ended:#?}");
    let one = failures_within(ended.join("\n").as_bytes(), u64::MAX);
    assert!(
        line_with(&one, "bcrypt.json").ends_with(
            "- \"email\": \"<<savedfastcool@gmail.com>\", · + \"email\": \
             \"<savedfastcool@gmail.com>\","
        ),
        "{one:#?}"
    );
    let rendered = report(&bytes).render();
    let at = rendered
        .iter()
        .position(|l| l.starts_with("[ctxoff] TAP: 10 planned, 6 ok, 4 not ok"))
        .expect("the TAP fact");
    assert_eq!(
        rendered[at + 1..at + 6],
        [
            "not ok 2 - test/consistency.js",
            "not ok 6 - test/normalize.js",
            "not ok 7 - test/scoped.js",
            "not ok 10 - test/typo.js",
            "# failed 4 of 10 tests",
        ]
    );
}

/// After the first error of each kind, errors of those kinds at other places: those with a
/// message or a file of their own first, of the rarer kinds first (standard's second undefined
/// name, not the next of 850 extra semicolons in the first file).
#[test]
fn more_errors_of_a_kind_are_those_that_tell_more() {
    let all = failures_within(&corpus6("standard-qs.txt"), u64::MAX);
    for wanted in [
        "  L2,096 /home/dev/qs/test/stringify.js:324:9: Object prototype is read only, \
         properties should not be added. (no-extend-native)",
        "  L300 /home/dev/qs/lib/stringify.js:22:14: 'utils' is not defined. (no-undef)",
    ] {
        assert!(all.iter().any(|l| l == wanted), "{wanted} in {all:#?}");
    }
    // The first file's extra semicolons and indentation: their first only.
    for rule in ["(semi)", "(indent)"] {
        let first_file: Vec<&String> = all
            .iter()
            .filter(|l| l.contains("lib/formats.js") && l.ends_with(rule))
            .collect();
        assert_eq!(first_file.len(), 1, "{first_file:#?}");
    }
}

/// A test whose thread overflowed its stack does not panic: nextest's SIGABRT is explained by
/// the thread's own line.
#[test]
fn nextest_names_a_stack_overflow() {
    let all = failures_within(&corpus7("nextest-ci-hashbrown.txt"), u64::MAX);
    assert_eq!(
        line_with(&all, "set::test_set::test_eq"),
        "  L170 hashbrown set::test_set::test_eq: SIGABRT · thread 'set::test_set::test_eq' \
         (18157) has overflowed its stack"
    );
}

/// automake's test driver runs each test in a shell, which says how a test died just before
/// its result (`test-driver: line 112:  1921 Aborted …`, then `FAIL: secretstream`): the
/// result is named with it.
#[test]
fn an_automake_result_says_how_its_test_died() {
    let rendered = report(&corpus3("make-check-libsodium.txt")).render();
    let line = rendered
        .iter()
        .find(|l| l.contains("(automake): "))
        .expect("automake's results");
    assert!(
        line.contains(", FAIL: secretstream (Aborted), ERROR: sodium_utils"),
        "{line}"
    );
    assert!(line.contains("ERROR: generichash, "), "{line}");
}

fn corpus7(name: &str) -> Vec<u8> {
    fixture("corpus7", name)
}

/// A CTest test that compares its output with what was expected shows how they differ: a
/// normal diff's first hunk with its `<` and `>` lines (the script's trace, `+ diff a b`, is
/// passed over), a unified diff's first change after the output's first line (what the diff
/// is of); the rest of the diff is not read as the test's detail.
#[test]
fn ctest_outputs_compared_show_the_first_difference() {
    let jsonc = failures_within(&corpus7("ctest-j2-jsonc.txt"), u64::MAX);
    let parse = line_with(&jsonc, "14 - test_parse (Failed)");
    assert!(
        parse.ends_with(
            "failed (set VERBOSE=1 to see full output): · 235c235 < json_tokener_parse_ex(tok, \
             \"\\r\"        ,   4) ... OK: got object of type [string]: \"\\r\" · > \
             json_tokener_parse_ex(tok, \"\\r\"        ,   4) ... OK: got object of type \
             [string]: \"\\n\""
        ),
        "{parse}"
    );
    assert!(!jsonc.iter().any(|l| l.contains("+ diff ")), "{jsonc:#?}");
    let cmark = failures_within(&corpus5("ctest-cmark.txt"), u64::MAX);
    assert!(
        line_with(&cmark, "3 - spectest_library (Failed)").ends_with(
            "Example 25 (lines 650-658) Entity and numeric character references · -¾ ℋ ⅆ · \
             +&amp;frac34; ℋ ⅆ"
        ),
        "{cmark:#?}"
    );
    // A diff that ends with its change (no line alike after it): the change is still read.
    let text = String::from_utf8_lossy(&corpus5("ctest-cmark.txt")).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let ended: Vec<&str> = lines[..3]
        .iter()
        .chain(&lines[29..42])
        .chain(&[""])
        .copied()
        .collect();
    assert!(
        ended[4].starts_with("3/9 Test #3: spectest_library"),
        "{ended:#?}"
    );
    assert_eq!(ended[ended.len() - 2], "+&amp;frac34; ℋ ⅆ");
    let one = failures_within(ended.join("\n").as_bytes(), u64::MAX);
    assert!(
        line_with(&one, "3 - spectest_library (Failed)").ends_with("-¾ ℋ ⅆ · +&amp;frac34; ℋ ⅆ"),
        "{one:#?}"
    );
}

/// chai's message elides the values it compares (`expected [ [ 1, 2.2, 1000 ], …(3) ] to deeply
/// equal …`): the first change of its diff (`+ expected - actual`) says where they differ. A
/// message that showed its values already (node's `true !== false`) is not followed by it.
#[test]
fn mocha_elided_values_are_shown_by_the_diffs_first_change() {
    let all = failures_within(&corpus7("pnpm-r-no-bail-libs-monorepo.txt"), u64::MAX);
    assert!(
        line_with(&all, "Dynamic typing converts numeric literals").contains(
            "…(3) ] · + expected - actual: - \"9007199254740991\" · + 9007199254740991 · at \
             tests/test-cases.js:1683:11"
        ),
        "{all:#?}"
    );
    let eslint = failures_within(&corpus4("npm-test-eslint-rewrite.txt"), u64::MAX);
    let shown = line_with(&eslint, "defined as 'overwrite'");
    assert!(
        shown.ends_with(
            "Expected values to be strictly equal: · true !== false · at \
             file:///home/dev/eslint-rewrite/packages/object-schema/tests/object-schema.test.js:286:11"
        ),
        "{shown}"
    );
}

/// A monorepo's test run through turbo: each task's lines carry a `pkg:test: ` prefix, which
/// the shapes read without, each task's as a section of its own (vitest's, mocha's and tape's
/// counts, named after their task), and turbo's closing lines name the failed tasks with their
/// exit status.
#[test]
fn a_task_runners_prefixed_output_is_read_per_runner() {
    let r = report(&corpus7("turbo-continue-libs-monorepo.txt"));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks (turbo): 5 total, 1 successful, 4 failed: qs#test (exit 1), papaparse#test \
         (exit 3), chance#test (exit 1), zod#test (exit 1)"
    );
    assert_eq!(
        rendered(&r, "zod:test: tests:"),
        "zod:test: tests: 1,833 run, 1,821 passed, 12 failed of 1,833 (vitest, Test Files 7 \
         failed of 108, Snapshots 2 failed)"
    );
    assert_eq!(
        rendered(&r, "papaparse:test: tests:"),
        "papaparse:test: tests: 264 run, 261 passed, 3 failed, 25 pending (mocha)"
    );
    assert_eq!(
        rendered(&r, "qs:test: tests:"),
        "qs:test: tests: 1,699 run, 1,689 passed, 10 failed (TAP)"
    );
    // tape's passing run (`# tests 153`, `# pass 153`, `# ok`: no `# fail` line).
    assert_eq!(
        rendered(&r, "minimist:test: tests:"),
        "minimist:test: tests: 153 run, 153 passed, 0 failed (TAP)"
    );
    let r = report(&corpus7("pnpm-r-no-bail-libs-monorepo.txt"));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks (pnpm): 5 total, 1 successful, 4 failed: chance@1.1.13 test (exit 1), \
         papaparse@5.7.1 test (exit 3), qs@6.17.1 test (exit 1), zod@4.6.7 test (exit 1)"
    );
    assert!(rendered(&r, "packages/zod test: tests: 1,833 run").contains("vitest"));
    let r = report(&corpus7("nx-lint-typecheck-libs-monorepo.txt"));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks (nx): 5 total, 4 failed: qs:lint, papaparse:lint, chance:lint, zod:typecheck"
    );
}

/// npm's script banners (`> zod@4.6.7 test`) begin each package's run in a workspace run and
/// in lerna's: each run's failures are listed under its package, each within a floor of its own
/// (four failing packages, each failure with its detail).
#[test]
fn a_workspace_runs_failures_are_listed_per_package() {
    let bytes = corpus7("npm-ws-test-libs-monorepo.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "qs: tests:"),
        "qs: tests: 1,699 run, 1,689 passed, 10 failed (TAP)"
    );
    assert_eq!(
        rendered(&r, "minimist: tests:"),
        "minimist: tests: 153 run, 153 passed, 0 failed (TAP)"
    );
    let within = failures_within(&bytes, 4 * 450);
    let at = |heading: &str| {
        within
            .iter()
            .position(|l| l == heading)
            .unwrap_or_else(|| panic!("no {heading} in {within:#?}"))
    };
    // tape's default message is shown under its test (`# limits specific array indices …`),
    // both as printed, and its YAML block's values are the detail.
    let qs = at("[ctxoff] qs: failed tests (10):");
    let not_ok = within[qs..]
        .iter()
        .position(|l| l.starts_with("not ok 158 "))
        .map(|i| qs + i)
        .unwrap_or_else(|| panic!("{within:#?}"));
    assert_eq!(
        within[not_ok - 1],
        "# limits specific array indices to arrayLimit",
        "{within:#?}"
    );
    assert_eq!(
        within[not_ok],
        "not ok 158 should be deeply equivalent\n  L1,612 expected: { a: { 20: 'a' } } · \
         actual: { a: [ 'a' ] } · at /home/dev/libs-monorepo/packages/qs/test/parse.js:453:12",
        "{within:#?}"
    );
    let zod = at("[ctxoff] zod: failed tests (12):");
    assert!(
        within[zod + 1].ends_with(
            "array.test.ts > array length: Error: Snapshot `array length 1` mismatched · -     \
             \"code\": \"too_small\", · +     \"code\": \"too_big\", · at \
             src/v4/classic/tests/array.test.ts:48:28"
        ),
        "{within:#?}"
    );
    at("[ctxoff] papaparse: failed tests (3):");
}

/// Time stamps put on by a CI log or `ts`, and GNU parallel's job tags, hide no test run; each
/// of parallel's jobs is a section of its own.
#[test]
fn stamped_and_tagged_lines_are_read_without_the_stamp_or_tag() {
    let r = report(&corpus7("ts-pytest-packaging.txt"));
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 64,204 run, 64,189 passed, 15 failed, 3 skipped, 446 deselected (pytest)"
    );
    let r = report(&corpus7("parallel-tag-pytest-pathspec.txt"));
    assert_eq!(
        rendered(&r, "tests/test_02_gitignore_base.py: tests:"),
        "tests/test_02_gitignore_base.py: tests: 2 run, 0 passed, 2 failed (pytest)"
    );
    assert_eq!(
        rendered(&r, "tests/test_01_util.py: tests:"),
        "tests/test_01_util.py: tests: 26 run, 26 passed, 0 failed (pytest)"
    );
}

/// Process managers: the process that failed, the ones stopped after it (a signal's negative
/// status is no failure), and the servers' own logs read behind honcho's prefix.
#[test]
fn a_process_managers_ends_and_its_processes_logs() {
    let r = report(&corpus7("honcho-start-huey-flask-ex.txt"));
    assert_eq!(rendered(&r, "tasks"), "tasks: 1 failed: web.1 (rc=1)");
    assert_eq!(
        rendered(&r, "ended:"),
        "ended: redis.1 (rc=-15), worker.1 (rc=-15)"
    );
    // Each process's log is read as a section of its own.
    assert_eq!(
        rendered(&r, "worker.1: log:"),
        "worker.1: log: 56 records (info ×48, error ×8), first error L21; 8 exceptions \
         (ZeroDivisionError ×4, ValueError ×3, TypeError ×1); stopping L326"
    );
    assert!(rendered(&r, "web.1: access log: 56 requests, 11 failed").contains("500 ×3"));
    let r = report(&corpus7("concurrently-npm-deep-equal.txt"));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks: 2 failed: npm run lint (exit 1), npm run tests-only (exit 1)"
    );
    assert!(rendered(&r, "[0] eslint: 16 problems").contains("3 errors, 13 warnings"));
    let r = report(&corpus7("tox-cachetools.txt"));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks (tox): 6 failed (evaluation failed)"
    );
    // tox's own verdicts, quoted without their timings, under the count.
    let lines = r.render();
    let at = lines
        .iter()
        .position(|l| l == "[ctxoff] tasks (tox): 6 failed (evaluation failed)")
        .expect("the tasks line");
    assert_eq!(
        lines[at + 1..at + 7],
        [
            "py: FAIL code 1",
            "docs: FAIL code 1",
            "doctest: FAIL code 1",
            "pyright: FAIL code 1",
            "ruff: FAIL code 1",
            "ruff-format: FAIL code 1"
        ]
    );
}

/// deep-equal's tape tests assert in a helper (`test/_tape.js`): the failure is said under its
/// test's comment (`# Sets`) and says where the helper asserted and which test called it. Its eslint run's three errors are each shown,
/// the second `no-unused-vars` too.
#[test]
fn a_tape_failure_in_a_helper_names_the_test_and_each_eslint_error_is_shown() {
    let bytes = corpus7("concurrently-names-deep-equal.txt");
    let all = failures_within(&bytes, u64::MAX);
    let at = |heading: &str| {
        all.iter()
            .position(|l| l == heading)
            .unwrap_or_else(|| panic!("no {heading} in {all:#?}"))
    };
    let tests = at("[ctxoff] [test] failed tests (6):");
    assert_eq!(all[tests + 1], "# Sets");
    assert_eq!(
        all[tests + 2],
        "not ok 107 two inequally sized Sets are not equal\n  L112 expected: false · actual:   true \
         · at /home/dev/deep-equal/test/_tape.js:27:5, from /home/dev/deep-equal/test/cmp.js:255:5"
    );
    let lint = at("[ctxoff] [lint] first of each kind (5):");
    let errors: Vec<&String> = all[lint + 1..lint + 6]
        .iter()
        .filter(|l| l.contains("  error  "))
        .collect();
    assert_eq!(errors.len(), 3, "{all:#?}");
    assert!(errors[2].contains(
        "index.js:311:9  error  'aTime' is assigned a value but never used  no-unused-vars"
    ));
}

/// jest on jest-extended: a snapshot that differs is named (`Snapshot name: …`) and shown by
/// its diff's counts and its first line taken out and first put in, the colour tags jest
/// writes into snapshots left out; a deep equality's diff that jest counted likewise. A diff
/// under a message that states both values (`expected false to be true`) is not repeated.
#[test]
fn a_snapshot_that_differs_shows_its_first_changed_lines() {
    let all = failures_within(&corpus3("jest-jest-extended.txt"), u64::MAX);
    assert!(
        line_with(
            &all,
            "fails when given type of undefined which is not an array\n"
        )
        .ends_with(
            "L4 expect(received).toThrowErrorMatchingSnapshot() · Snapshot name: \
             `.toBeArrayOfSize fails when given type of undefined which is not an array 1` · \
             - Snapshot  - 7 · + Received  + 1 · - expect(received).toBeArrayOfSize(expected) · \
             + Cannot convert undefined or null to object · at \
             test/matchers/toBeArrayOfSize.test.ts:26:54"
        ),
        "{all:#?}"
    );
    assert!(
        line_with(&all, "should tokenize given string").contains(
            "expect(received).toEqual(expected) // deep equality · - Expected  -  3 · + Received  \
             + 19 · -     \"value\": \" · +     \"value\": \" \", · at test/utils/print.test.ts:7:20"
        ),
        "{all:#?}"
    );
    let zod = failures_within(&corpus7("turbo-continue-libs-monorepo.txt"), u64::MAX);
    let e164 = line_with(&zod, "E.164 validation");
    assert!(
        e164.contains("expected false to be true // Object.is equality · at "),
        "{e164}"
    );
}

/// toml's lexer tests compare snapshots with snapbox, whose diff begins with a `---- expected:`
/// line (not the next test's section): the failure's detail is the changed lines.
#[test]
fn a_snapshot_diff_in_a_panic_shows_its_changed_lines() {
    let all = failures_within(&corpus7("cargo-test-nff-ws-toml.txt"), u64::MAX);
    assert!(
        all.contains(
            &"test lexer::test::all ... FAILED\n  L161 panicked at crates/toml_parser/src/lexer/test.rs:1473:5: \
              - span: 23..29, · + span: 23..30, · - span: 29..31, · + span: 30..31,"
                .to_owned()
        ),
        "{all:#?}"
    );
}

/// `cargo test --no-fail-fast` closes with the targets that failed, each as the arguments that
/// run it again: quoted under the counts, as cargo printed them.
#[test]
fn cargo_names_the_targets_that_failed() {
    let r = report(&corpus7("cargo-test-nff-ws-toml.txt"));
    let lines = r.render();
    let at = lines
        .iter()
        .position(|l| l == "error: 4 targets failed:")
        .unwrap_or_else(|| panic!("{lines:#?}"));
    assert_eq!(
        lines[at + 1..at + 5],
        [
            "    `-p toml --lib`",
            "    `-p toml_parser --lib`",
            "    `-p serde_spanned --doc`",
            "    `-p toml_edit --doc`",
        ]
    );
}

/// AVA's default reporter: its closing counts in its words, the `✔` lines counted for the
/// passed tests it does not state beside failures, each failed test with what differed and
/// where, an uncaught exception with its error, and the file that exited with it.
/// AVA's `✘ [fail]:` line puts a failed assertion's message after the test's title; the
/// failure's block is headed by the title alone, and its detail (the place, the message, what
/// was not true) belongs to that failure, not to the block before (query-string, corpus 9).
/// Each failure is shown by AVA's own line up to its title, which the reader can search for;
/// the message follows once, in the detail.
#[test]
fn ava_failure_with_its_message_on_the_fail_line_gets_its_own_block() {
    let all = failures_within(&corpus9("ava-query-string.txt"), u64::MAX).join("\n");
    assert!(
        all.contains(
            "✘ [fail]: extract › extracts query string from url\n  L2 at test/extract.js:5 · - \
             '?abc=def&hij=klm' · + 'abc=def&hij=klm'\n"
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "✘ [fail]: parse-url › handles query-heavy URLs without splitting the whole URL\n  \
             L8 at test/parse-url.js:30 · Expected URL parsing to avoid splitting the whole URL. \
             Took 286.7518319999999ms. · Value is not `true`: false\n"
        ),
        "{all}"
    );
}

#[test]
fn ava_counts_failures_and_crashed_files() {
    let bytes = fixture("more", "ava-camelcase.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests (ava):"),
        "tests (ava): 8 tests failed, 1 uncaught exception, 12 passed (✔ lines)"
    );
    assert_eq!(
        rendered(&r, "files that exited"),
        "files that exited with a non-zero exit code (1): test-locale-extra.js (exit code 1)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (9):");
    assert!(all[1].starts_with(
        "  L2 uncaught exception in test-locale-extra.js: Error [ERR_MODULE_NOT_FOUND]: Cannot \
         find module '/home/dev/camelcase/fixtures-locale.js'"
    ));
    assert_eq!(
        all[2],
        "✘ [fail]: test › camelCase\n  L17 at test.js:39 · - 'foobar' · + 'fooBar'"
    );
    assert_eq!(
        all[9],
        "✘ [fail]: test › invalid input\n  L36 at test.js:411 · Function threw unexpected \
         exception: TypeError { message: 'Input must be `string | string[]`', } · Expected \
         message to match: /Expected the input to be/"
    );
    let bytes = fixture("more", "ava-p-map.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests (ava):"),
        "tests (ava): 4 tests failed, 1 known failure, 1 test skipped, 1 test todo, 1 uncaught \
         exception, 46 passed (✔ lines)"
    );
    let all = failures_within(&bytes, u64::MAX);
    // A deep equality's diff: the line that changed, not the ones around it.
    assert_eq!(
        all[2],
        "✘ [fail]: test › pMapSkip\n  L8 at test.js:177 · -   Symbol(skip),"
    );
    assert_eq!(
        all[4],
        "  L20 uncaught exception in test-uncaught.js: at test-uncaught.js:7 · Error: timer \
         callback exploded after mapping"
    );
}

/// AVA 0.19 (chance's tests, in a lerna run) says only that 18 files exited: what they printed
/// as they died says why.
#[test]
fn ava_0_19_s_crashed_files_and_what_they_printed() {
    let bytes = corpus7("lerna-no-bail-libs-monorepo.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "chance: tests (ava):"),
        "chance: tests (ava): 18 exceptions"
    );
    assert!(rendered(&r, "chance: files that exited").starts_with(
        "chance: files that exited with a non-zero exit code (18): test/test.address.js (exit code 1)"
    ));
    let all = failures_within(&bytes, u64::MAX);
    let at = all
        .iter()
        .position(|l| l == "[ctxoff] chance: errors printed by the test files (18):")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(
        all[at + 1],
        "  L443 ReferenceError: CopyToken is not defined · at \
         /home/dev/libs-monorepo/packages/chance/chance.js:432:5"
    );
}

/// tox's `py: commands[0]> …` and pre-commit's `black.....Failed` begin each environment's
/// and hook's run: each is read as a section, and pre-commit's hooks are its tasks.
#[test]
fn tox_environments_and_pre_commit_hooks_are_sections() {
    let r = report(&corpus7("tox-cachetools.txt"));
    assert_eq!(
        rendered(&r, "py: tests:"),
        "py: tests: 476 run, 443 passed, 33 failed (pytest)"
    );
    assert!(rendered(&r, "ruff: ruff: 1 finding").contains("F401 ×1"));
    // Sphinx's doctest builder writes Python's doctest report.
    assert_eq!(
        rendered(&r, "doctest: tests:"),
        "doctest: tests: 58 run, 57 passed, 1 failed (doctest)"
    );
    let all = failures_within(&corpus7("tox-cachetools.txt"), u64::MAX);
    assert!(
        all.contains(
            &"  L1,296 default: print(sorted(peps.keys())) · Expected: [218, 279, 289, 320] · \
              Got: [9, 218, 290, 320] · File \"index.rst\", line 292"
                .to_owned()
        ),
        "{all:#?}"
    );
    let r = report(&corpus7("pre-commit-all-cachetools.txt"));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks (pre-commit): 7 total, 1 successful, 6 failed"
    );
    // Each failed hook, with what it said but for diffs, findings and their totals, which the
    // sections' shapes read.
    assert_eq!(
        rendered(&r, "black (exit 1) failed:"),
        "black (exit 1) failed: would reformat src/cachetools/__init__.pyi · 1 file would be \
         reformatted, 11 files would be left unchanged. · would reformat \
         tests/test_cachedmethod.py"
    );
    assert_eq!(rendered(&r, "mypy (exit 1) failed"), "mypy (exit 1) failed");
    assert_eq!(
        rendered(&r, "codespell (exit 65) failed"),
        "codespell (exit 65) failed"
    );
    let texttable = report(&fixture(
        "corpus27",
        "pre-commit-run-all-files-texttable.txt",
    ));
    assert_eq!(
        rendered(&texttable, "isort (exit 1) failed:"),
        "isort (exit 1) failed: ERROR: /home/dev/texttable-1.7.2/tests.py Imports are \
         incorrectly sorted and/or formatted."
    );
    assert!(rendered(&r, "ruff check: ruff: 11 findings").contains("SIM105 ×6"));
    assert!(rendered(&r, "mypy: mypy: Found 83 errors in 11 files").contains("attr-defined ×38"));
    // ruff's facts are named `lint` where ruff's own total is not among the lines read: the
    // whole output's reading of the same shape is not stated beside the sections'.
    assert!(
        r.render().iter().all(|l| !l.starts_with("[ctxoff] lint:")),
        "{:#?}",
        r.render()
    );
}

// ---- linters and formatters of corpus 8 ----

/// The direct count of the lines of `bytes` (display-cleaned) that `keep` accepts.
fn count_lines(bytes: &[u8], keep: impl Fn(&str) -> bool) -> u64 {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| keep(&clean_line(l)))
        .count() as u64
}

/// Biome's headings (`path:line:col category ━━━`) are its diagnostics: 75, as it says
/// (`Found 75 errors.`, and its JSON report of the same run), and the first of each of its 11
/// categories is listed with its place and message.
#[test]
fn biome_diagnostics_by_category() {
    let bytes = fixture("corpus8", "biome-lint-commander.txt");
    let headings = count_lines(&bytes, |l| {
        l.ends_with('━')
            && l.split(' ')
                .next()
                .is_some_and(|w| w.matches(':').count() == 2)
    });
    assert_eq!(headings, 75);
    let r = report(&bytes);
    let f = fact(&r, "biome");
    assert_eq!(json_u64(&f["errors"]), headings);
    assert!(
        rendered(&r, "biome:").starts_with(
            "biome: Checked 7 files in 92ms. No fixes applied. Found 75 errors; counted: \
             75 errors, 0 warnings in 5 files; error categories: lint/style/noParameterAssign ×27"
        ),
        "{}",
        rendered(&r, "biome:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "  L1 lib/suggestSimilar.js:70:3 lint/complexity/noForEach × Prefer for...of instead of forEach."
    );
    for category in [
        "lint/suspicious/noDebugger",
        "lint/style/noVar",
        "lint/correctness/useIsNan",
        "lint/suspicious/noAssignInExpressions",
    ] {
        line_with(&all, &format!(" {category} × "));
    }
    // Biome's code frames are source: their words are not counted as failures.
    assert!(
        !r.render().iter().any(|l| l.contains("│")),
        "{:#?}",
        r.render()
    );
}

/// Oxlint's diagnostics are read with the place printed under each: 68 warnings, as it says
/// and as its JSON report of the same run counts, in 23 files, the first of each rule listed.
#[test]
fn oxlint_diagnostics_with_their_places() {
    let bytes = fixture("corpus8", "oxlint-deny-warnings-axios.txt");
    let marked = count_lines(&bytes, |l| l.starts_with("  ! "));
    assert_eq!(marked, 68);
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "oxlint:"),
        "oxlint: Found 68 warnings and 0 errors; counted: 0 errors, 68 warnings in 23 files"
    );
    let all = failures_within(&bytes, u64::MAX);
    line_with(
        &all,
        "! eslint(no-debugger): `debugger` statement is not allowed [lib/core/Axios.js:39:5]",
    );
    line_with(
        &all,
        "! unicorn(no-thenable): Do not add `then` to a class. [lib/cancel/CancelToken.js:39:5]",
    );
}

/// markdownlint prints no total: its 146 problems, all errors (its JSON report's count), are
/// counted by rule, and the first of each of its 7 rules is listed.
#[test]
fn markdownlint_problems_by_rule() {
    let bytes = fixture("corpus8", "markdownlint-readme-commander.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "markdownlint:"),
        "markdownlint: 146 errors, 0 warnings in 1 file; rules: MD013 ×135, MD060 ×3, \
         MD009 ×2, MD012 ×2, MD024 ×2 +2 more"
    );
    let all = failures_within(&bytes, u64::MAX);
    for rule in [
        "MD009", "MD013", "MD012", "MD024", "MD060", "MD010", "MD040",
    ] {
        line_with(&all, &format!(" error {rule}/"));
    }
}

/// `cargo fmt --check`: 35 places in 8 files (`cargo fmt --check -- -l` of the same tree lists
/// the 8), each file with its count and the first change rustfmt wants; the diff's words are
/// not counted as failures.
#[test]
fn rustfmt_check_places_per_file() {
    let bytes = fixture("corpus8", "cargo-fmt-check-semver.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "rustfmt:"),
        "rustfmt: 35 places in 8 files not formatted"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[0],
        "[ctxoff] files to format, with the first change (8):"
    );
    assert!(
        all[1].starts_with(
            "  L1 /home/dev/semver-1.0.28/src/display.rs: 2 places: \
             -        let do_display=|formatter"
        ),
        "{all:#?}"
    );
    line_with(&all, "/tests/test_version_req.rs: 6 places");
    assert!(
        !r.render()
            .iter()
            .any(|l| l.contains("omitted lines contain")),
        "{:#?}",
        r.render()
    );
}

/// A test that runs rustfmt prints its diff: there the test run's facts stand alone.
#[test]
fn rustfmt_inside_a_test_run_gives_way() {
    let r = report(&fixture("corpus3", "cargo-test-smol-str.txt"));
    assert!(
        !shapes(&r).contains(&"rustfmt".to_owned()),
        "{:?}",
        shapes(&r)
    );
}

/// `go vet ./...` of golang.org/x/tools: 37 package headers for 36 packages (present twice,
/// go/pointer also as its test build), 85 problems (88 located lines less 3 `too many errors`),
/// every package said by its header, in the order reported, with its first problem (`vet:`
/// lines included).
#[test]
fn go_vet_names_every_package_with_its_first_problem() {
    let bytes = fixture("corpus5", "go-vet-x-tools.txt");
    let located = count_lines(&bytes, |l| {
        let l = l.strip_prefix("vet: ").unwrap_or(l);
        l.split(' ').next().is_some_and(|w| {
            let w = w.trim_end_matches(':');
            w.contains(".go:") && w.matches(':').count() == 2
        })
    });
    let too_many = count_lines(&bytes, |l| l.ends_with(": too many errors"));
    assert_eq!((located, too_many), (88, 3));
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "go:"),
        "go: 85 problems in 36 packages (the compiler said `too many errors` and stopped \
         listing 3 times)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] first problem of each package (36):");
    assert_eq!(
        all[1],
        "# golang.org/x/tools/present\n  L2 present/parse.go:591:39: non-boolean condition in if statement"
    );
    line_with(
        &all,
        "# golang.org/x/tools/cmd/stringer\n  L35 cmd/stringer/stringer.go:278:13: cannot initialize",
    );
    // The test build of go/pointer fails as go/pointer does: it is named among the rest.
    assert_eq!(
        all.last().map(String::as_str),
        Some("  … 1 more: golang.org/x/tools/go/pointer [golang.org/x/tools/go/pointer.test]")
    );
}

/// bats: plain TAP with each failure's detail as comments under its `not ok` — 23 failures
/// of 162 planned (bats' JUnit report of the same run), each with the test file's line and its
/// assertion, the helpers' frames left out.
#[test]
fn bats_failures_with_their_comments() {
    let bytes = fixture("corpus8", "bats-rbenv.txt");
    let not_ok = count_lines(&bytes, |l| l.starts_with("not ok "));
    assert_eq!(not_ok, 23);
    let r = report(&bytes);
    assert_eq!(rendered(&r, "TAP:"), "TAP: 162 planned, 139 ok, 23 not ok");
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (23):");
    assert_eq!(
        line_with(&all, "not ok 18 default\n"),
        "not ok 18 default\n  L32 in test file test/global.bats, line 8 · #   `assert_output \
         \"system\"' failed · # expected: system · # actual:   sytem"
    );
    // A value of many lines is one value, and what came is shown after it.
    assert!(
        line_with(&all, "not ok 14 ")
            .ends_with("# expected: --help\\nrake\\nruby · # actual:   --help"),
        "{all:#?}"
    );
    assert!(!all.iter().any(|l| l.contains("from function")), "{all:#?}");
}

/// scan-build: the static analyzer's checkers are the warnings' codes, so the first of each of
/// its 9 checkers (scan-build's SARIF report of the same run) is listed besides gcc's own
/// `-Wuse-after-free`.
#[test]
fn static_analyzer_checkers_are_codes() {
    let bytes = fixture("corpus8", "scan-build-lua.txt");
    let all = failures_within(&bytes, u64::MAX);
    for checker in [
        "[core.NullDereference]",
        "[deadcode.DeadStores]",
        "[unix.Malloc]",
        "[core.DivideZero]",
        "[core.uninitialized.UndefReturn]",
        "[-Wuse-after-free]",
    ] {
        line_with(&all, checker);
    }
}

/// CUnit under automake (`make check VERBOSE=1`): 4 failed and 207 passed tests, as its run
/// summary and its own log of the same run say, each failed test with its failed assertions.
#[test]
fn cunit_failed_tests_with_their_assertions() {
    let bytes = fixture("corpus8", "make-check-nghttp2.txt");
    let failed = count_lines(&bytes, |l| {
        l.starts_with("  Test: ") && l.ends_with(" ...FAILED")
    });
    assert_eq!(failed, 4);
    let r = report(&bytes);
    assert_eq!(rendered(&r, "CUnit:"), "CUnit: 207 passed, 4 failed");
    assert!(
        rendered(&r, "CUnit's run summary")
            .ends_with("tests 211 211 207 4 0 · asserts 76649 76649 76633 16 n/a"),
        "{}",
        rendered(&r, "CUnit's run summary")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        line_with(&all, "check_header_name"),
        "Test: check_header_name ...FAILED\n  L297 1. nghttp2_helper_test.c:154  - !check_header_name(\":\")"
    );
}

/// The same run: automake prints `test-suite.log` after its results, where `FAIL: main`
/// heads the test's log (underlined) and `FAIL main (exit status: 4)` ends it. The failed test
/// is named once, and the log's verdict is quoted.
#[test]
fn automake_names_a_failed_test_once_with_its_exit_status() {
    let bytes = fixture("corpus8", "make-check-nghttp2.txt");
    assert_eq!(count_lines(&bytes, |l| l == "FAIL: main"), 2);
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests: TOTAL"),
        "tests: TOTAL: 2; PASS: 1; FAIL: 1 (automake): FAIL: main; See tests/test-suite.log"
    );
    let lines = r.render();
    let at = lines
        .iter()
        .position(|l| l.starts_with("[ctxoff] tests: TOTAL"))
        .unwrap();
    assert_eq!(lines[at + 1], "FAIL main (exit status: 4)");
}

/// The linters' and formatters' shapes of corpus 8, and go vet's packages, on 100 MB of their
/// lines, each package, rule, file and test new: their lists and sets stay bounded.
#[test]
fn bounded_memory_linters_and_formatters() {
    let (r, _) = stream_big(|n, s| {
        let _ = match n % 8 {
            0 => write!(s, "# example.com/m/pkg{n}"),
            1 => write!(s, "pkg{n}/a.go:{n}:3: undefined: name{n}"),
            2 => write!(s, "lib/f{n}.js:{n}:5 lint/style/rule{n} ━━━━━━━━━━"),
            3 => write!(s, "  × message number {n}"),
            4 => write!(
                s,
                "Readme{n}.md:{n} error MD{:03}/rule-{n} Message {n}",
                n % 1000
            ),
            5 => write!(s, "Diff in /p/src/file{n}.rs:{n}:"),
            6 => write!(s, "  Test: case_{n} ...FAILED"),
            _ => write!(s, "    1. test{n}.c:{n}  - {n} == x"),
        };
    });
    for shape in ["go vet", "biome", "markdownlint", "cunit"] {
        assert!(shapes(&r).contains(&shape.to_owned()), "{:?}", shapes(&r));
    }
}

/// A Go example that failed prints what it printed (`got:`) and what its `// Output:` comment
/// wanted (`want:`), unindented after its `--- FAIL`: their first line that differs is its
/// detail.
#[test]
fn a_failed_go_example_shows_where_got_and_want_differ() {
    let all = failures_within(&fixture("corpus8", "go-test-go-cmp.txt"), u64::MAX);
    assert_eq!(
        line_with(&all, "ExampleIgnoreFields_testing"),
        "--- FAIL: ExampleIgnoreFields_testing (0.00s)\n  L2,145 got: · …... // 2 identical elements · want: …... \
         // 3 identical elements"
    );
}

/// RSpec on hashie, 10 failed examples: the three of one message (a required property set to
/// nil raised nothing) are one entry in full and two that say where they differ, within the
/// budget, and every other failure is still named.
#[test]
fn a_failure_whose_message_was_shown_says_where_it_is() {
    let all = failures_within(&corpus5("rspec-doc-hashie.txt"), 600);
    let shown = flat(&all);
    for wanted in [
        "1) DashTest errors out when attempting to set a required property to nil: expected \
         ArgumentError with \"The property 'first_name' is required for DashTest.\" but nothing \
         was raised · at ./spec/hashie/dash_spec.rb:112",
        "2) DashTest writing to properties fails writing a required property to nil: same as \
         L1,108 · at ./spec/hashie/dash_spec.rb:131",
        "3) DashTest writing to properties fails writing a required property to nil using []=: \
         same as L1,108 · at ./spec/hashie/dash_spec.rb:137",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    for name in [
        "DashTest#merge errors out",
        "DashTest#merge! errors out",
        "converts nested arrays",
        "Hashie::Mash returns false on a ? method",
        "Hashie::Mash#except excludes keys",
    ] {
        assert!(shown.contains(name), "{name} in {shown}");
    }
}
/// byteorder with quickcheck broken, 66 failed: libtest lists every `FAILED` line before any
/// detail, so the doc-tests past the first 40 failures were dropped before their panics came.
/// A section's test is taken again then, said as the runner said it, and its new way of
/// failing is shown.
#[test]
fn a_failure_reported_past_the_first_ones_kept_is_detailed_by_its_section() {
    let all = failures_within(&fixture("corpus6", "cargo-test-bt-byteorder.txt"), u64::MAX);
    assert!(
        all[0].starts_with("[ctxoff] failed tests (66):"),
        "{all:#?}"
    );
    for wanted in [
        "test src/io.rs - io::ReadBytesExt::read_i16_into (line 737) ... FAILED\n  L2,771 panicked \
         at src/io.rs:11:1: assertion `left == right` failed · left: [517, 768] · right: [1282, 3]",
        "test src/lib.rs - ByteOrder::write_int (line 895) ... FAILED\n  L3,050 panicked at \
         src/lib.rs:9:1: assertion `left == right` failed · left: -1000 · right: 16776216",
    ] {
        assert!(all.contains(&wanted.to_owned()), "{wanted} in {all:#?}");
    }
    assert!(
        all.last().unwrap().starts_with("  … 60 more failed: "),
        "{all:#?}"
    );
}

/// A failure taken again from its section is said as the runner said it (`- should panic`
/// included); a passing test's section (`--show-output`'s `successes:`) is no failure.
#[test]
fn a_failure_taken_again_is_said_as_printed_and_successes_are_not_failures() {
    let mut text = String::from("running 46 tests\ntest ok1 ... ok\n");
    for k in 1..=45 {
        match k {
            44 => text.push_str("test t44 - should panic ... FAILED\n"),
            _ => text.push_str(&format!("test t{k} ... FAILED\n")),
        }
    }
    text.push_str(
        "\nsuccesses:\n\n---- ok1 stdout ----\nthread 'ok1' panicked at src/ok.rs:1:1:\nfine\n\n",
    );
    text.push_str("\nfailures:\n\n");
    for k in 1..=45 {
        text.push_str(&format!(
            "---- t{k} stdout ----\nthread 't{k}' panicked at src/t{k}.rs:{k}:1:\nway {k}\n\n"
        ));
    }
    text.push_str("failures:\n");
    for k in 1..=45 {
        text.push_str(&format!("    t{k}\n"));
    }
    text.push_str(
        "\ntest result: FAILED. 1 passed; 45 failed; 0 ignored; 0 measured; 0 filtered out\n",
    );
    let all = failures_within(text.as_bytes(), u64::MAX);
    assert!(
        all.contains(
            &"test t44 - should panic ... FAILED\n  L231 panicked at src/t44.rs:44:1: way 44"
                .to_owned()
        ),
        "{all:#?}"
    );
    assert!(!flat(&all).contains("ok1"), "{all:#?}");
    assert!(
        all[0].starts_with("[ctxoff] failed tests (45):"),
        "{all:#?}"
    );
}

/// pyflakes' unittest run, 29 failed: fewer than are kept, so none is set apart as the last;
/// the names line still ends with the output's last failure, whatever else it has room for.
#[test]
fn the_names_line_ends_with_the_last_failure_when_all_were_kept() {
    let all = failures_within(&corpus4("unittest-v-pyflakes.txt"), 600);
    let names = all.last().expect("a names line");
    assert!(names.starts_with("  … "), "{all:#?}");
    assert!(
        names.ends_with(
            " pyflakes.test.test_type_annotations.TestTypeAnnotations.test_typing_guard_for_protocol"
        ),
        "{names}"
    );
    assert!(names.contains(" more …, L"), "{names}");
}

/// Failing tests not detailed whose names are phrases go one to a line: joined by commas,
/// `… not equal (reversed), strict: two errors …` leaves where a name ends to a guess.
/// Names like identifiers stay on one line.
#[test]
fn failures_not_detailed_with_phrase_names_are_listed_one_to_a_line() {
    let shown = failures_within(&corpus7("concurrently-npm-deep-equal.txt"), 1_000).join("\n");
    assert!(
        shown.contains(
            "  … 3 more failed:\n    Sets > strict: two inequally sized Sets are not equal\n    \
             Errors > strict: two errors of the same type with a different message are not \
             equal\n"
        ),
        "{shown}"
    );
    let shown = failures_within(&corpus2("pytest-v-more-itertools.txt"), 250).join("\n");
    assert!(
        shown.contains("more failed: MarkEndsTests.test_basic (size=2), MarkEndsTests"),
        "{shown}"
    );
}

fn corpus11(name: &str) -> Vec<u8> {
    fixture("corpus11", name)
}

fn corpus12(name: &str) -> Vec<u8> {
    fixture("corpus12", name)
}

fn corpus13(name: &str) -> Vec<u8> {
    fixture("corpus13", name)
}

fn corpus14(name: &str) -> Vec<u8> {
    fixture("corpus14", name)
}

fn corpus15(name: &str) -> Vec<u8> {
    fixture("corpus15", name)
}

fn corpus16(name: &str) -> Vec<u8> {
    fixture("corpus16", name)
}

fn corpus17(name: &str) -> Vec<u8> {
    fixture("corpus17", name)
}

fn corpus18(name: &str) -> Vec<u8> {
    fixture("corpus18", name)
}

fn corpus19(name: &str) -> Vec<u8> {
    fixture("corpus19", name)
}

/// `go test -json` is go test's own output in events: each failing test is named by its
/// `--- FAIL` line and detailed by its log line, numbered as the event's line, as without
/// `-json` (it had only a JSON Lines tally and `fail ×8`).
#[test]
fn go_test_json_events_are_read_as_the_text_they_carry() {
    let bytes = corpus11("go-test-json-google-uuid.txt");
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "--- FAIL: TestUUID (0.00s)\n  L48 uuid_test.go:104: Variant(f47ac10b-58cc-4372-c567-0e02b2c3d479) got 2 expected 3",
        "--- FAIL: TestMD5 (0.00s)\n  L97 uuid_test.go:409: MD5: got",
        "--- FAIL: TestSHA1 (0.00s)",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    let line_48 = String::from_utf8_lossy(&bytes)
        .lines()
        .nth(47)
        .unwrap()
        .to_owned();
    assert!(
        line_48.contains(r#""Output":"    uuid_test.go:104: Variant("#),
        "{line_48}"
    );
    // The hint finds go test's lines inside the events, where `^` would find none.
    assert_eq!(
        report(&bytes).hint().as_deref(),
        Some(r#"'"\s*--- FAIL|"panic:|"fatal error:|_test\.go:\d+:' -A 2"#)
    );
}

/// zope.testrunner and green head each failure with a line of their own (`Failure in test …`,
/// `Error in …`) and its traceback under it: the run's totals, each failure by its heading
/// with what was raised, where in the project and from which test line (zope's run was read
/// as a log of 53 exceptions, with no test counted).
#[test]
fn zope_and_green_failures_are_read_under_their_headings() {
    let bytes = corpus11("zope-testrunner-vv-zope.schema.txt");
    assert_eq!(
        rendered(&report(&bytes), "tests:"),
        "tests: 1,097 run, 1,043 passed, 21 failed, 32 errors, 1 skipped (zope.testrunner)"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        shown.contains(
            "Error in test test_validate_max (zope.schema.tests.test__bootstrapfields.ComplexTests.test_validate_max)\n  L40 zope.schema._bootstrapinterfaces.TooBig: (20, 20) · File \"/home/dev/zope_schema-8.1/src/zope/schema/_bootstrapfields.py\", line 493, in _validate · File \"/home/dev/zope_schema-8.1/src/zope/schema/tests/test__bootstrapfields.py\", line 210, in test_validate_max"
        ),
        "{shown}"
    );
    let bytes = corpus11("green-vvv-jsonpatch.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 429 run, 317 passed, 44 failed, 68 errors (green)"
    );
    assert_eq!(fact(&r, "green")["headings"]["error"], 68);
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "Failure in tests.ApplyPatchTestCase.test_test_literals_differ_from_numbers\n  L671 AssertionError: JsonPatchTestFailed not raised · File \"/home/dev/jsonpatch-1.48/tests.py\", line 462",
        // A module green could not load is an error of its own, not the test's before it.
        "Error in green.loader.N/A.poolRunner\n  L3,027 Exception: Exception while loading doctest",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// stestr's subunit-trace: the totals block, and each `... FAILED` test with what its
/// indented `Captured traceback:` raised (it had notable counts only).
#[test]
fn stestr_failures_and_totals_are_read() {
    let bytes = corpus11("stestr-run-fixtures.txt");
    assert_eq!(
        rendered(&report(&bytes), "tests:"),
        "tests: 142 run, 129 passed, 8 failed, 5 skipped (stestr)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all.len(), 9, "{all:#?}");
    assert!(
        all[1].starts_with(
            "  L4 tests.test_fixture.TestFixture.test_exit_runs_all_raises_first_exception: \
             testtools.matchers._impl.MismatchError: ('woo',) != ('hoo',) · File \
             \"/home/dev/fixtures-4.3.2/tests/test_fixture.py\", line 120"
        ),
        "{all:#?}"
    );
}

/// Ruby's test-unit: its closing counts, each failure by its heading with its message (the
/// source around the line and the diff left out) and where, each error with the frame of the
/// project's code and the test's (it had a failure-word tally only).
#[test]
fn test_unit_failures_and_errors_are_read_from_their_blocks() {
    let bytes = corpus11("ruby-test-unit-v-csv.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 527 run, 494 passed, 31 failed, 2 errors (test-unit, 4,026 assertions)"
    );
    // `failures` in a fact's JSON is its list of failures, not a count.
    let json = fact(&r, "test-unit");
    assert_eq!(
        (
            json["failed"].as_u64(),
            json["failures"][0]["total"].as_u64()
        ),
        (Some(31), Some(33))
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "Failure: test_builtin_integer_converter(TestCSVDataConverters)\n  L28 <-5> expected but \
         was · <\"-5\"> · at /home/dev/csv/test/csv/test_data_converters.rb:17",
        "Error: test_to_hash_with_block_transform_entries(TestCSVRow)\n  L478 NoMethodError: \
         undefined method `include_key?' for {}:Hash · at /home/dev/csv/lib/csv/row.rb:671, \
         from /home/dev/csv/test/csv/test_row.rb:360",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// cmocka prints GoogleTest's tags in a form of its own (`[==========] 51 test(s) run.`, a
/// failed test's `[  FAILED  ] name` without a time, its `[  ERROR   ] --- …` and
/// `[   LINE   ] --- file:line: error: Failure!`): its totals and each failure with them
/// (the run had a sanitizer's report only).
#[test]
fn cmocka_runs_are_read_as_googletest_is() {
    let bytes = corpus11("cmocka-libcbor.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 51 run, 45 passed, 6 failed (cmocka)"
    );
    assert_eq!(fact(&r, "cmocka")["failed_lines"], 6);
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "[  FAILED  ] test_serialize_negint16\n  L17 difference at offset 0 0x19 0x39 · 1 bytes of \
         0x56285c67f200 and 0x7fffe23aa410 differ · \
         /home/dev/libcbor/test/cbor_serialize_test.c:100: error: Failure!",
        "[  FAILED  ] test_serialize_tags\n  L74 /home/dev/libcbor/test/assertions.c:64: error: \
         Failure! · (/home/dev/libcbor/test/cbor_serialize_test.c:462) assert_size_equal: \
         Expected 2 to equal 1",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// trybuild's cases are listed by their lines as printed, each mismatch with where its
/// expected and actual compiler output first differ (`$DIR` read as trybuild reads it), and
/// the diagnostics inside the blocks are not counted as the build's errors.
#[test]
fn trybuild_mismatches_show_where_expected_and_actual_differ() {
    let bytes = corpus11("cargo-test-trybuild-num-enum.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "trybuild:"),
        "trybuild: 5 of 26 tests failed (4 mismatch, 1 error)"
    );
    assert!(
        !r.render().iter().any(|l| l.contains("rustc: ")),
        "{:#?}",
        r.render()
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "test tests/try_build/compile_fail/garbage_attribute.rs ... mismatch\n  L85 expected: 5 |     #[num_enum(garbage)] · actual: 5 |     #[num_enum(rubbish)]",
        "test tests/try_build/compile_fail/multiple_defaults.rs ... mismatch\n  L136 expected: (no more) · actual: error[E0308]: mismatched types · --> tests/try_build/compile_fail/multiple_defaults.rs:12:23",
        "test tests/try_build/compile_fail/repr_c.rs ... error\n  L168 Expected test case to fail to compile, but it succeeded.",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// perlcritic: violations counted by severity and file, its own policy tally, and the first
/// of each message, the most severe first, as printed up to its place (it had notable counts
/// only, with 'fail' words from messages as examples).
#[test]
fn perlcritic_violations_are_counted_by_severity_most_severe_first() {
    let bytes = corpus11("perlcritic-severity3-statistics-path-tiny.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "perlcritic:"),
        "perlcritic: 460 violations in 34 files (severity 5 ×24, severity 4 ×143, severity 3 ×293)"
    );
    assert!(
        rendered(&r, "perlcritic policies:")
            .contains("RegularExpressions::RequireExtendedFormatting ×79")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "  L71 lib/Path/Tiny.pm: Bareword file handle opened at line 1077, column 5. (Severity: 5)"
    );
    let severe = all
        .iter()
        .take_while(|l| !l.contains("(Severity: 4)"))
        .count();
    assert!(
        all[1..severe]
            .iter()
            .all(|l| l.contains("(Severity: 5)") || l.contains("same as")),
        "{all:#?}"
    );
}

/// lintian: tags counted by level, and each error and warning tag by its line as printed,
/// errors first, then the first of each info and pedantic tag (it had notable counts whose
/// examples were `N:   Visibility: error` lines).
#[test]
fn lintian_tags_are_counted_by_level_errors_first() {
    let bytes = corpus11("lintian-info-pedantic-hello.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "lintian:"),
        "lintian: 4 errors, 8 warnings, 7 info, 6 pedantic"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[1], "  L3 E: hello: dir-in-usr-local [usr/local/bin/]");
    assert!(
        all[4].starts_with("  L50 W: hello: debug-suffix-not-dbg"),
        "{all:#?}"
    );
    assert!(
        all.iter().any(|l| l == "  L190 I: hello source: out-of-date-standards-version 3.9.8 (released 2016-04-06) (current is 4.6.2)"),
        "{all:#?}"
    );
}

/// Lines of `path:line: CODE message` without a column (doc8) are read as flake8's are:
/// findings counted per rule, the first of each listed, the rarest first (doc8's run had no
/// facts at all: its codes are not failure words).
#[test]
fn lint_lines_without_a_column_are_counted_per_rule() {
    let bytes = corpus11("doc8-pyramid.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "lint:"),
        "lint: 1,185 findings; rules: D001 ×1,068, D002 ×108, D003 ×6, D000 ×2, D005 ×1"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        shown.contains("  L406 docs/narr/router.rst:10: D000 Title underline too short."),
        "{shown}"
    );
    assert_eq!(
        r.hint().as_deref(),
        Some("':[0-9]+(:[0-9]+)?:? \\[?[A-Z]+[0-9]+\\]? |^  --> ' -B 1")
    );
}

/// JSHint's reporter: problems counted per file, the first of each kind of message listed
/// (the five put into q.js among 513 in vendored code were a notable count of 5).
#[test]
fn jshint_problems_are_counted_per_file_and_kind() {
    let bytes = corpus11("jshint-q.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "jshint:").starts_with("jshint: 518 problems in 21 files; files: "),
        "{}",
        rendered(&r, "jshint:")
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "  L92 q.js: line 350, col 20, Expected '===' and instead saw '=='.",
        "  L93 q.js: line 350, col 34, Missing semicolon.",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// Twisted's trial: its verdict's counts, and each test named under a `[FAIL]` or `[ERROR]`
/// block with what the block's traceback raised, a message of several lines included (the
/// run had notable counts only: trial's `successes=` is no count unittest knows).
#[test]
fn trial_blocks_name_their_tests_after_the_traceback() {
    let bytes = corpus11("trial-treq.txt");
    assert_eq!(
        rendered(&report(&bytes), "tests:"),
        "tests: 248 run, 224 passed, 17 failed, 7 errors (trial: FAILED)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests and errors (24):");
    let shown = all.join("\n");
    assert!(
        shown.contains(
            "  L378 treq.test.test_content.EncodingFromHeadersTests.test_quotedString: \
             builtins.AssertionError: 'ascii' != 'ASCII' · File \
             \"/home/dev/treq-26.7.0/src/treq/test/test_content.py\", line 314, in test_quotedString"
        ),
        "{shown}"
    );
}

/// vitest's JUnit reporter printed to the terminal: the root's totals exactly, every failed
/// suite as its element with its counts, and each failed test as the report names it, with
/// the exception its body names (as printed, escapes left) and its place in the test's file.
#[test]
fn a_junit_xml_report_states_its_totals_suites_and_failures() {
    let bytes = corpus12("vitest-junit-ufo.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["junit xml"]);
    let f = fact(&r, "junit xml");
    assert_eq!(
        (
            f["tests"].as_u64(),
            f["failed"].as_u64(),
            f["errors"].as_u64()
        ),
        (Some(485), Some(49), Some(0))
    );
    // The cases the report holds agree with its totals.
    assert_eq!(f["cases"]["tests"], 485);
    assert_eq!(f["cases"]["failed"], 49);
    let all = failures_within(&bytes, u64::MAX);
    let shown = all.join("\n");
    assert!(
        shown.contains(
            "<testcase classname=\"test/base.test.ts\" name=\"withBase &gt; &quot;/foo&quot; + \
             &quot;/bar&quot;\"\n  L10 AssertionError: expected &apos;/foo//bar&apos; to be \
             &apos;/foo/bar&apos; // Object.is equality · at test/base.test.ts:36:41"
        ),
        "{shown}"
    );
    let lines = r.render().join("\n");
    assert!(lines.contains("[ctxoff] suites failed (9):"), "{lines}");
    assert!(
        lines.contains("<testsuite name=\"test/query.test.ts\" tests=\"34\" failures=\"14\">"),
        "{lines}"
    );
}

/// A JUnit XML report written on one line (as some writers do) is read the same: its
/// elements are found wherever they are on the line, a failure's body included.
#[test]
fn a_junit_xml_report_on_one_line_is_read_the_same() {
    let xml = "<?xml version=\"1.0\"?><testsuites><testsuite name=\"pkg\" tests=\"3\" \
               failures=\"1\" errors=\"1\"><testcase classname=\"pkg\" name=\"TestA\" \
               time=\"0\"><failure message=\"Failed\" type=\"\">a_test.go:12: got 1, want \
               2</failure></testcase><testcase classname=\"pkg\" name=\"TestB\"><error \
               message=\"boom\" type=\"RuntimeError\"/></testcase><testcase classname=\"pkg\" \
               name=\"TestC\"/></testsuite></testsuites>\n";
    let r = report(xml.as_bytes());
    let f = fact(&r, "junit xml");
    assert_eq!(
        (
            f["tests"].as_u64(),
            f["failed"].as_u64(),
            f["errors"].as_u64()
        ),
        (Some(3), Some(1), Some(1))
    );
    let all = failures_within(xml.as_bytes(), u64::MAX).join("\n");
    assert!(all.contains("L1 a_test.go:12: got 1, want 2\n"), "{all}");
    assert!(all.contains("RuntimeError: boom"), "{all}");
}

/// A JUnit XML report cut short (a one-line report longer than the 64 KiB a capture reads of a
/// line, or a writer killed): the root's totals stand, and the test cases counted are said to
/// be those read, not the report's; a whole report, one with a root or without, says nothing
/// of the kind.
#[test]
fn a_junit_xml_report_cut_short_says_its_cases_are_those_read() {
    let case = "<testcase classname=\"pkg\" name=\"T\"/>";
    let whole = format!(
        "<testsuites tests=\"3\" failures=\"0\"><testsuite name=\"pkg\" tests=\"3\">{}\
         </testsuite></testsuites>\n",
        case.repeat(3)
    );
    let cut = format!(
        "<testsuites tests=\"3\" failures=\"0\"><testsuite name=\"pkg\" tests=\"3\">{}\n",
        case.repeat(2)
    );
    let no_root = format!(
        "<testsuite name=\"pkg\" tests=\"3\">{}</testsuite>\n",
        case.repeat(3)
    );
    let rendered_of = |xml: &str| report(xml.as_bytes()).render().join("\n");
    for xml in [&whole, &no_root] {
        let lines = rendered_of(xml);
        assert!(lines.contains("tests: 3 run, 3 passed"), "{lines}");
        assert!(!lines.contains("test cases"), "{lines}");
        assert_eq!(fact(&report(xml.as_bytes()), "junit xml")["complete"], true);
    }
    let lines = rendered_of(&cut);
    assert!(lines.contains("tests: 3 run, 3 passed"), "{lines}");
    assert!(
        lines.contains(
            "test cases read: 2 (0 failed, 0 errors, 0 skipped) (the report's end was not read)"
        ),
        "{lines}"
    );
    assert_eq!(
        fact(&report(cut.as_bytes()), "junit xml")["complete"],
        false
    );
}

/// Node's spec reporter: its totals exactly, and each failed test once (from its list under
/// `✖ failing tests:`, which leaves out the suites that failed by them) as its line, with its
/// error's message, the values under `+ actual - expected` labelled, and the project's frame.
#[test]
fn node_s_spec_reporter_names_each_failed_test_with_its_values() {
    let bytes = fixture("more", "node-test-spec-suites.txt");
    let r = report(&bytes);
    let f = fact(&r, "node test");
    assert_eq!(
        (
            f["tests"].as_u64(),
            f["passed"].as_u64(),
            f["failed"].as_u64()
        ),
        (Some(8), Some(2), Some(4))
    );
    assert_eq!(
        (f["skipped"].as_u64(), f["todo"].as_u64()),
        (Some(1), Some(1))
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (4):", "{all:#?}");
    assert_eq!(
        all[2],
        "✖ multiplies (1.499717ms)\n  L121 AssertionError [ERR_ASSERTION]: Expected values to \
         be strictly deep-equal: · + 2 (actual) · - 3 (expected) · at \
         /home/dev/nt/a.test.js:7:35"
    );
    assert!(
        all[4].ends_with("· assert.ok(0 > 1) · at /home/dev/nt/a.test.js:13:33"),
        "{all:#?}"
    );
    assert!(!all.iter().any(|l| l.contains("✖ math")), "{all:#?}");
    // The corpus's run: every failure's values.
    let run = failures_within(&corpus12("node-test-spec-light-my-request.txt"), u64::MAX);
    assert!(
        run[1].ends_with(
            "· + 'SUPER' (actual) · - 'Super' (expected) · at \
             /home/dev/light-my-request-6.8.1/test/index.test.js:43:14"
        ),
        "{run:#?}"
    );
}

/// pylama's lines (`path:line:col CODE message [linter]`, no `:` after the place) are read as
/// flake8's: counted by rule, shown as printed, and its pylint-style error codes (`E0602
/// undefined name`, `E` and four digits) listed each as likely bugs.
#[test]
fn pylama_s_findings_are_counted_and_its_errors_listed() {
    let bytes = corpus12("pylama-isodate.txt");
    let r = report(&bytes);
    let f = fact(&r, "ruff");
    assert_eq!(f["errors"], 205, "{f:#}");
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[..2],
        [
            "[ctxoff] likely bugs (syntax errors, undefined names, bad comparisons) (1):",
            "  L66 src/isodate/duration.py:31:23 E0602 undefined name 'calendar' [pyflakes]"
        ],
        "{all:#?}"
    );
    assert!(
        all.iter().any(|l| l
            == "  L61 src/isodate/duration.py:10:1 W0611 'math' imported but unused [pyflakes]"),
        "{all:#?}"
    );
}

/// checkbashisms: its bashisms counted by kind and file, the first of each kind as printed
/// with its line of script, and each script it could not read to the end.
#[test]
fn checkbashisms_counts_its_kinds_and_lists_what_it_could_not_read() {
    let bytes = corpus12("checkbashisms-acme-sh.txt");
    let r = report(&bytes);
    let f = fact(&r, "checkbashisms");
    assert_eq!(
        (f["bashisms"].as_u64(), f["unread"].as_u64()),
        (Some(39), Some(15))
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.iter().any(|l| l
            == "  L46 possible bashism in dnsapi/dns_gd.sh line 17 (should be '.', not \
                'source'): · source \"$LE_WORKING_DIR/gd.env\""),
        "{all:#?}"
    );
    assert!(
        all.iter().any(|l| l
            == "  L11 error: dnsapi/dns_ali.sh: Unterminated quoted string found, EOF reached. \
                Wanted: <\">, opened in line 211"),
        "{all:#?}"
    );
}

/// A `should_panic` test whose panic was not the one expected: with `RUST_BACKTRACE=1` libtest
/// prints what it expected after the frames, which are otherwise not read; it is the
/// failure's detail, after the panic, with libtest's note that says so.
#[test]
fn a_should_panic_test_s_expected_substring_is_read_after_its_backtrace() {
    let all = failures_within(&corpus12("cargo-test-backtrace-cfb.txt"), u64::MAX);
    let line = all
        .iter()
        .find(|l| l.contains("non_null_terminated_name_strict"))
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert!(
        line.ends_with(
            "(name not NUL-terminated)\" } · note: panic did not contain expected string · \
             expected substring: \"Malformed directory entry (name not null-terminated)\""
        ),
        "{line}"
    );
}

/// pretty_assertions' own tests, its diff header broken by hand: each `should_panic` test
/// panicked, with a message that differs from the one expected deep inside (`< left | right >`
/// for `< left / right >`, among colour codes). What the test panicked with is no failure:
/// the detail is that the message differs, and where, on both sides.
#[test]
fn a_should_panic_test_s_message_is_shown_where_it_differs_from_the_one_expected() {
    let all = failures_within(
        &corpus18("cargo-test-should-panic-pretty-assertions.txt"),
        u64::MAX,
    );
    let line = all
        .iter()
        .find(|l| l.contains("L85 "))
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(
        line.lines().last(),
        Some(
            "  L85 panicked at tests/macros.rs:121:9: assertion failed: `(left == right)` · note: \
         panic did not contain expected string · panic message: …eft\\u{1b}[0m | \
         \\u{1b}[32mright >\\u{1b}[0… · expected substring: …eft\\u{1b}[0m / \
         \\u{1b}[32mright >\\u{1b}[0…"
        )
    );
}

/// automake's test summary points to the log that holds the failed tests' output when that was
/// not printed (`See test/test-suite.log`): the totals say where to look.
#[test]
fn automake_s_totals_say_where_the_failed_tests_output_is() {
    let r = report(&corpus12("make-distcheck-cjose.txt"));
    let line = rendered(&r, "tests: TOTAL: 1");
    assert_eq!(
        line,
        "tests: TOTAL: 1; FAIL: 1 (automake): FAIL: check_cjose; See test/test-suite.log"
    );
}

/// Criterion under `cargo bench`: a panic is the failure of the benchmark running, named by
/// its `Benchmarking NAME` line, with the panic's place and message; the benchmarks measured
/// are counted.
#[test]
fn a_criterion_benchmark_that_panicked_is_named_with_its_panic() {
    let bytes = corpus11("cargo-bench-criterion-quick-xml.txt");
    let r = report(&bytes);
    let f = fact(&r, "criterion");
    assert_eq!(
        (f["measured"].as_u64(), f["panicked"].as_u64()),
        (Some(26), Some(2))
    );
    assert!(!shapes(&r).contains(&"log".to_owned()), "{:?}", shapes(&r));
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "  L264 Benchmarking parse_document_nocopy_with_namespaces/rpm_primary.xml: thread \
         'main' (22791) panicked at benches/macrobenches.rs:192:70: called `Result::unwrap()` on \
         an `Err` value: Namespace(InvalidPrefixForXmlns([114, 112, 109]))"
    );
}

/// radon's complexity report: blocks counted by rank, each file it could not parse with its
/// error, and the most complex blocks (rank D–F), the highest score first, with their file.
#[test]
fn radon_lists_what_it_could_not_parse_and_the_most_complex_blocks() {
    let bytes = corpus11("radon-cc-s-a-paramiko.txt");
    let r = report(&bytes);
    let f = fact(&r, "radon");
    assert_eq!(
        (f["blocks"].as_u64(), f["unparsed"].as_u64()),
        (Some(941), Some(1))
    );
    assert_eq!(f["ranks"]["E"], 4, "{f:#}");
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[..4],
        [
            "[ctxoff] files it could not parse (1):",
            "  L938 paramiko/kex_gex.py: ERROR: expected ':' (<unknown>, line 105)",
            "[ctxoff] most complex blocks (rank D–F) (8):",
            "  L215 paramiko/transport.py: M 2019:4 Transport.run - E (38)",
        ],
        "{all:#?}"
    );
}

/// ansible-lint: violations counted by rule, the first of each at its place with what it is
/// about (YAML's own error for a file that did not load), the rules that keep a playbook from
/// loading or running first, whether or not marked `(warning)`.
#[test]
fn ansible_lint_lists_the_rules_that_break_a_playbook_first() {
    let bytes = corpus11("ansible-lint-offline-ansible-for-devops.txt");
    let r = report(&bytes);
    let f = fact(&r, "ansible-lint");
    assert_eq!(
        (f["violations"].as_u64(), f["marked_warning"].as_u64()),
        (Some(55), Some(2))
    );
    let all = failures_within(&bytes, u64::MAX);
    let listed: Vec<&str> = all[1..5]
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap_or(""))
        .collect();
    assert_eq!(
        listed,
        [
            "syntax-check[unknown-module]",
            "args[module]",
            "syntax-check[specific]",
            "load-failure[yaml]"
        ],
        "{all:#?}"
    );
    assert!(
        all[4].ends_with(
            "load-failure[yaml]: Failed to load YAML file (warning) · did not find \
                          expected key"
        ),
        "{all:#?}"
    );
}

/// ESLint's checkstyle report, one line of 93 KB: its problems read from the tags on the line,
/// counted exactly (550 `<error` tags in 126 files), the first of each rule at its place. A
/// report cut short (a capture reads a line to its first 64 KiB) says its counts are of the
/// part read: its `</checkstyle>` was not.
#[test]
fn a_checkstyle_report_on_one_line_says_what_it_read() {
    let bytes = corpus11("eslint-f-checkstyle-jquery-ui.txt");
    let whole = report(&bytes);
    let f = fact(&whole, "checkstyle xml");
    assert_eq!(
        (f["complete"].as_bool(), f["errors"].as_u64()),
        (Some(true), Some(550))
    );
    assert_eq!(f["files_read"], 126);
    let r = report(&bytes[..64 * 1024]);
    assert_eq!(fact(&r, "checkstyle xml")["complete"], false);
    let line = rendered(&r, "checkstyle XML: ");
    assert!(line.starts_with("checkstyle XML: at least "), "{line}");
    assert!(
        line.ends_with("(the report's end, </checkstyle>, was not read)"),
        "{line}"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(
        all[1],
        "  L1 /home/dev/jquery-ui/ui/widgets/dialog.js:118:7 error &apos;unusedHeight&apos; is \
         assigned a value but never used. (no-unused-vars)"
    );
}

/// hapi's lab on hoek with bugs put in by hand: its totals (`9 of 243 tests failed`), and each
/// failed test of its `Failed tests:` list as its numbered title, with its message (not the
/// values' word diff above it, run together without its colours) and its place.
#[test]
fn lab_states_its_totals_and_each_failed_test_with_its_message() {
    let bytes = corpus11("lab-v-hoek.txt");
    let r = report(&bytes);
    let lines = r.render().join("\n");
    assert!(
        lines.contains("[ctxoff] tests: 243 run, 234 passed, 9 failed (lab)"),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all.len(), 10, "{all:?}");
    assert_eq!(all[0], "[ctxoff] failed tests (9):");
    assert_eq!(
        all[1],
        "  L273 58) escapeHtml() encodes / characters: Expected \
         '&ltscript&gt;alert&#x28;1&#x29;&lt&#x2f;script&gt;' to equal specified value: \
         '&lt;script&gt;alert&#x28;1&#x29;&lt;&#x2f;script&gt;' · at \
         /home/dev/hoek/test/escaper.js:20:28"
    );
    assert!(
        all[3].ends_with(
            "95) merge() overrides values in target: Expected 1 to equal specified value: \
             null · at /home/dev/hoek/test/index.js:248:24"
        ),
        "{all:?}"
    );
}

/// lab's errors outside any test are listed by their message and first frame; a run whose
/// tests all passed states them complete with the skipped ones, and a coverage below the
/// threshold is said as printed. Totals not followed by lab's duration line are not lab's.
#[test]
fn lab_states_script_errors_skipped_tests_and_coverage() {
    let out = "Test script errors:\n\nCannot read properties of undefined (reading 'x')\n  \
               at Object.<anonymous> (/home/dev/p/test/a.js:3:9)\n  at Module._compile \
               (node:internal/modules/cjs/loader:1554:14)\n\nThere were 1 test script \
               error(s).\n\n12 tests complete (2 skipped)\nTest duration: 30 ms\nCoverage: \
               87.10% (12/93)\nlib/a.js missing coverage on line(s): 3, 4\nCode coverage below \
               threshold: 87.10 < 100\n";
    let r = report(out.as_bytes());
    let lines = r.render().join("\n");
    assert!(
        lines.contains("[ctxoff] tests: 12 run, 12 passed, 0 failed, 2 skipped (lab)"),
        "{lines}"
    );
    assert!(lines.contains("[ctxoff] test script errors: 1"), "{lines}");
    assert!(
        lines.contains("[ctxoff] Code coverage below threshold: 87.10 < 100"),
        "{lines}"
    );
    let all = failures_within(out.as_bytes(), u64::MAX).join("\n");
    assert!(
        all.contains(
            "[ctxoff] test script errors (1):\n  L3 Cannot read properties of undefined \
             (reading 'x'): at /home/dev/p/test/a.js:3:9"
        ),
        "{all}"
    );
    let not_lab = report(b"9 of 243 tests failed\nand more\n");
    assert!(
        !shapes(&not_lab).iter().any(|s| s == "lab"),
        "{:?}",
        shapes(&not_lab)
    );
}

/// ESLint's JSON report (one line of 81 KB, longer than a line is read) on fast-uri with bugs put
/// in by hand, read from its bytes: the problems by severity and rule, the first of each rule as
/// the report writes it (up to its column) under its file, the parsing error among them, and
/// each file with problems by its path and its own counts.
#[test]
fn eslint_s_json_report_is_read_whole_from_its_bytes() {
    let bytes = corpus13("eslint-f-json-fast-uri.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["eslint json"]);
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] ESLint JSON: 17 problems (9 errors, 8 warnings) in 3 files of 35 read; \
             error rules: eqeqeq ×6"
        ),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    for said in [
        "/home/dev/fast-uri/lib/schemes.js: \"ruleId\":null,\"nodeType\":null,\"fatal\":true,\
         \"severity\":2,\"message\":\"Parsing error: Unexpected token ?\",\"line\":118,\
         \"column\":7",
        "/home/dev/fast-uri/lib/utils.js: \"ruleId\":\"eqeqeq\",\"severity\":2,\"message\":\
         \"Expected '===' and instead saw '=='.\",\"line\":35,\"column\":14",
        "\"filePath\":\"/home/dev/fast-uri/lib/utils.js\" · \"errorCount\":8,\
         \"fatalErrorCount\":0,\"warningCount\":0",
    ] {
        assert!(all.contains(said), "{said}\n{all}");
    }
    // One rule, one line: eqeqeq's six are said once.
    assert_eq!(all.matches("\"ruleId\":\"eqeqeq\"").count(), 1, "{all}");
}

/// A JSON report is read the same whatever the chunks its bytes come in, and one cut short
/// says its counts are of the part read.
#[test]
fn a_json_report_is_read_the_same_in_any_chunks() {
    let bytes = corpus13("eslint-f-json-fast-uri.txt");
    let whole = report(&bytes).render();
    for chunk in [1, 7, 4096] {
        assert_eq!(
            feed(&bytes, chunk).0.finish(None).render(),
            whole,
            "chunks of {chunk}"
        );
    }
    let cut = report(&bytes[..bytes.len() / 2]).render().join("\n");
    assert!(cut.contains("[ctxoff] ESLint JSON: at least "), "{cut}");
    assert!(cut.contains("(the report's end was not read)"), "{cut}");
}

/// mocha's JSON reporter on async with bugs put in by hand (10,000 lines, pretty-printed): its
/// stats, and each failed test by its full title with its message's first line and its place.
#[test]
fn mocha_s_json_report_names_each_failed_test_with_its_message() {
    let bytes = corpus13("mocha-json-async.txt");
    let r = report(&bytes);
    let lines = r.render().join("\n");
    assert!(
        lines.contains("[ctxoff] tests: 690 run, 665 passed, 25 failed (mocha JSON)"),
        "{lines}"
    );
    assert!(!shapes(&r).iter().any(|s| s == "json"), "{:?}", shapes(&r));
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "L5,047 async function support should handle async functions in sortBy: expected [ \
             3, 2, 1 ] to deeply equal [ 1, 2, 3 ] · at \
             /home/dev/async/test/es2017/asyncFunctions.js:256:31"
        ),
        "{all}"
    );
    assert!(all.contains("[ctxoff] failed tests (25):"), "{all}");
}

/// jest's `--json` report alone (stdout, its terminal report not kept): its totals, each failed
/// test by its full name with its message's first line, the values compared and the test's
/// place, and a file that failed to run with its error. Printed after jest's own terminal
/// report, it gives way to that report. A JSON log is no report.
#[test]
fn jest_s_json_report_alone_states_its_totals_and_failures() {
    let msg = "Error: \\u001b[2mexpect(\\u001b[22mreceived\\u001b[2m).toBe(expected)\\n\\nExpected: \
               \\u001b[32m2\\u001b[39m\\nReceived: \\u001b[31m3\\u001b[39m\\n    at Object.<anonymous> \
               (/home/dev/p/test/a.test.js:5:17)\\n    at node_modules/jest-circus/x.js:1:1";
    let json = format!(
        "{{\"numFailedTestSuites\":2,\"numFailedTests\":1,\"numPassedTests\":4,\
         \"numPendingTests\":1,\"numTodoTests\":0,\"numTotalTestSuites\":3,\"numTotalTests\":6,\
         \"testResults\":[{{\"assertionResults\":[{{\"ancestorTitles\":[\"a\"],\
         \"failureMessages\":[\"{msg}\"],\"fullName\":\"a adds\",\"status\":\"failed\"}},\
         {{\"failureMessages\":[],\"fullName\":\"a keeps\",\"status\":\"passed\"}}],\
         \"message\":\"x\",\"name\":\"/home/dev/p/test/a.test.js\",\"status\":\"failed\"}},\
         {{\"assertionResults\":[],\"message\":\"  \\u25cf Test suite failed to run\\n\\n    \
         Cannot find module './b' from 'test/b.test.js'\",\"name\":\"/home/dev/p/test/b.test.js\",\
         \"status\":\"failed\"}}]}}\n"
    );
    assert!(
        serde_json::from_str::<serde_json::Value>(&json).is_ok(),
        "{json}"
    );
    let r = report(json.as_bytes());
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] tests: 5 run, 4 passed, 1 failed, 1 skipped of 6 (jest JSON, test files 2 \
             failed of 3)"
        ),
        "{lines}"
    );
    let all = failures_within(json.as_bytes(), u64::MAX).join("\n");
    assert!(
        all.contains(
            "L1 a adds: Error: expect(received).toBe(expected) · Expected: 2 · Received: 3 · at \
             /home/dev/p/test/a.test.js:5:17"
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "L1 FAIL /home/dev/p/test/b.test.js: Cannot find module './b' from 'test/b.test.js'"
        ),
        "{all}"
    );
    // After jest's terminal report (class-validator's run, stderr before the JSON on stdout),
    // that report is stated, not the JSON's.
    let r = report(&corpus13("jest-json-class-validator.txt"));
    assert_eq!(shapes(&r), ["jest"]);
    let log = "{\"level\":\"info\",\"msg\":\"up\"}\n{\"level\":\"error\",\"msg\":\"down\"}\n";
    let r = report(log.as_bytes());
    assert!(
        !shapes(&r)
            .iter()
            .any(|s| s.ends_with(" json") && s != "json"),
        "{:?}",
        shapes(&r)
    );
}

/// vitest's dot reporter in a workspace (es-toolkit with bugs put in by hand): each `FAIL` line
/// carries its project's badge (` es-toolkit `, its colours gone); the failed files are listed
/// without it and each failed test is named as its line names it, path and all.
#[test]
fn vitest_s_failures_are_named_as_their_line_names_them_without_the_project() {
    let bytes = corpus13("vitest-dot-es-toolkit.txt");
    let r = report(&bytes);
    let files = rendered(&r, "files with failed tests");
    assert!(
        files.starts_with(
            "files with failed tests (15): src/array/chunk.spec.ts, src/math/clamp.spec.ts"
        ),
        "{files}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "L12 src/array/chunk.spec.ts > chunk > should place the remaining elements in the \
             last chunk when the total length is not a multiple of the size: AssertionError"
        ),
        "{all}"
    );
    assert!(!all.contains("es-toolkit  "), "{all}");
}

/// mocha's failures named by their full title (space-joined) are still grouped by their
/// outermost describe block: negotiator's charset, encoding and language failures are each
/// detailed before a second failure of one block is.
#[test]
fn mocha_failures_are_grouped_by_their_outermost_describe_block() {
    let bytes = corpus11("mocha-dot-negotiator.txt");
    let shown = failures_within(&bytes, 1_200).join("\n");
    for block in [
        "negotiator.charset()",
        "negotiator.encoding()",
        "negotiator.language(array)",
    ] {
        let detailed = shown.lines().any(|l| {
            l.starts_with("  L")
                && l.contains(&format!(" {block} "))
                && l.contains("AssertionError")
        });
        assert!(detailed, "{block}\n{shown}");
    }
}

/// ruff's grouped format on pydash with bugs put in by hand: each file's line, then its
/// findings as `  2101:12 F821 Undefined name …`; counted as ruff counts them (281), by rule
/// and file, the undefined name listed as a likely bug at its place in its file.
#[test]
fn ruff_s_grouped_format_is_read_under_each_file() {
    let bytes = corpus13("ruff-grouped-pydash.txt");
    let r = report(&bytes);
    let line = rendered(&r, "ruff:");
    assert!(
        line.starts_with("ruff: 281 findings (Found 281 errors, 28 fixable) in 22 files;"),
        "{line}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "[ctxoff] likely bugs (syntax errors, undefined names, bad comparisons) (1):\n  L176 \
             src/pydash/strings.py:2101:12: F821 Undefined name `html`"
        ),
        "{all}"
    );
    assert!(
        all.contains("L42 src/pydash/collections.py:1287:5: F841 Local variable `seen`"),
        "{all}"
    );
}

/// A line that is no JSON (a string broken by a newline) does not keep the report on the next
/// line from being read.
#[test]
fn a_json_report_after_a_broken_document_is_read() {
    let out = b"{\"a\": \"broken\n[{\"filePath\":\"/p/a.js\",\"messages\":[{\"ruleId\":\"semi\",\
                \"severity\":2,\"message\":\"Missing semicolon.\",\"line\":1,\"column\":9}],\
                \"errorCount\":1,\"fatalErrorCount\":0,\"warningCount\":0}]\n";
    let r = report(out);
    let line = rendered(&r, "ESLint JSON");
    assert!(
        line.starts_with("ESLint JSON: 1 problem (1 error, 0 warnings) in 1 file of 1 read"),
        "{line}"
    );
}

/// A monorepo's runs whose failures alone take the whole budget: head and tail shrink to a
/// sixth of it (the runner's banner and its list of failed tasks), every run's failures keep
/// their details, and the tasks that failed are still named.
#[test]
fn failures_past_the_budget_shrink_head_and_tail() {
    let tokenizer = crate::tokens::Tokenizer::load(Default::default());
    let (preview, report) = summarised(&corpus7("lerna-no-bail-libs-monorepo.txt"), &tokenizer);
    let ends: u64 = preview
        .head
        .iter()
        .chain(&preview.tail)
        .map(|l| tokenizer.count(&format!("{}\n", l.text)))
        .sum();
    assert!(ends <= 1000 / 6, "head and tail take {ends} tokens");
    assert!(!preview.head.is_empty() && !preview.tail.is_empty());
    let shown = report.render().join("\n");
    for detail in [
        "AssertionError: expected [ [ 1, 2.2, 1000 ], …(3) ]",
        "ReferenceError: CopyToken is not defined",
        "expected: { a: { 20: 'a' } } · actual: { a: [ 'a' ] }",
        "TypeError: input.toLowercase is not a function",
        "tasks (lerna): 5 total, 4 failed: papaparse:test, chance:test, qs:test, zod:test",
    ] {
        assert!(shown.contains(detail), "{detail}\n{shown}");
    }
}

/// ESLint's `json-with-metadata` report (its files under `results`, then 40 KB of rules'
/// metadata on the same line) on picomatch with bugs put in by hand: read as `-f json` is, and
/// an error of a rule seen before is listed too when its message is its own (`no-undef` of
/// `REGEX_REMOVE_BACKSLASH` after `isPathSeparator`).
#[test]
fn eslint_s_report_with_its_metadata_is_read_as_its_plain_one() {
    let bytes = corpus14("eslint-f-json-with-metadata-picomatch.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["eslint json"]);
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] ESLint JSON: 7 problems (7 errors, 0 warnings) in 4 files of 5 read; \
             error rules: no-undef ×3"
        ),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    for said in [
        "/home/dev/picomatch/lib/scan.js: \"ruleId\":\"no-undef\",\"severity\":2,\"message\":\
         \"'isPathSeparator' is not defined.\",\"line\":314,\"column\":9",
        "/home/dev/picomatch/lib/utils.js: \"ruleId\":\"no-undef\",\"severity\":2,\"message\":\
         \"'REGEX_REMOVE_BACKSLASH' is not defined.\",\"line\":30,\"column\":22",
        "\"filePath\":\"/home/dev/picomatch/lib/scan.js\" · \"errorCount\":3,\
         \"fatalErrorCount\":0,\"warningCount\":0",
    ] {
        assert!(all.contains(said), "{said}\n{all}");
    }
    // The rules' metadata (each with its own `messages`) is no file's problems.
    assert!(!all.contains("Wrap the regexp literal"), "{all}");
}

/// jest's `github-actions` reporter without its default one (svgo with bugs put in by hand):
/// each file's failures under `::group::Errors thrown in file` are read as under `FAIL file`,
/// the files quoted as printed, each failure named with its first detail.
#[test]
fn jest_s_github_actions_groups_are_its_failed_files() {
    let bytes = corpus14("jest-ci-github-actions-svgo.txt");
    let r = report(&bytes);
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] failed files (5):\n::group::Errors thrown in test/plugins/_index.test.js"
        ),
        "{lines}"
    );
    assert!(
        lines.contains("::group::Errors thrown in lib/path.test.js"),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(all.starts_with("[ctxoff] failed tests (24):"), "{all}");
    assert!(
        all.contains("● plugins tests › convertColors.02\n  L55 expect(received).toStrictEqual(expected) // deep equality · - Expected  - 1 · + Received  + 1 · -     <g color=\"#f0a\"/> · +     <g color=\"#ffa\"/>"),
        "{all}"
    );
    assert!(
        all.contains("stringify path data › should configure precision"),
        "{all}"
    );
}

/// GNU Autotest, as `make check` prints it and in its `testsuite.log` (gdbm with bugs put in
/// by hand): the suite's totals, each failed group by its verdict as printed, and from the log
/// the command that failed with the lines it printed that differ; the log's diffs are no diff
/// of files.
#[test]
fn autotest_s_failed_groups_are_named_with_what_they_printed() {
    let console = report(&corpus14("make-check-autotest-gdbm.txt"))
        .render()
        .join("\n");
    assert!(
        console.contains("[ctxoff] tests: 22 run, 18 passed, 4 failed, 11 skipped (autotest)"),
        "{console}"
    );
    let log = corpus14("cat-testsuite-log-gdbm.txt");
    let r = report(&log);
    assert!(
        !shapes(&r).contains(&"diff".to_string()),
        "{:?}",
        shapes(&r)
    );
    let all = failures_within(&log, u64::MAX).join("\n");
    for said in [
        "[ctxoff] failed test groups (4):",
        "1. version.at:17: 1. gdbm version (version.at:17): FAILED (version.at:19)\n  L204 \
         ./version.at:19: gtver -lib -full -header -full · -1.23.0 · +1.23.1",
        "28. wordwrap.at:17: 28. wordwrap (wordwrap.at:17): FAILED (wordwrap.at:24)\n  L245 \
         ./wordwrap.at:24: t_wordwrap -right=10 abcdefghijklmn · -abcdefghi",
    ] {
        assert!(all.contains(said), "{said}\n{all}");
    }
}

/// mocha's xunit reporter (picomatch with bugs put in by hand): a test's class is its describe
/// title, so its name is mocha's full title, class and test joined by a space, its entities
/// decoded (`should handle leading "./" when negated`), as `--grep` takes it; those detailed
/// are quoted as the report writes them.
#[test]
fn mocha_s_xunit_report_names_tests_by_their_full_titles() {
    let all = failures_within(&corpus14("mocha-xunit-picomatch.txt"), 400).join("\n");
    assert!(
        all.contains(
            "<testcase classname=\"picomatch .scan\" name=\"should handle leading &#x22;./&#x22;\""
        ),
        "{all}"
    );
    assert!(
        all.contains(
            "posix classes POSIX: From the test suite for the POSIX.2 (BRE) pattern matching \
             code: should match multiple posix classses"
        ),
        "{all}"
    );
    assert!(!all.contains(" > "), "{all}");
    let whole = failures_within(&corpus14("mocha-xunit-picomatch.txt"), 1000).join("\n");
    assert!(
        whole.contains("picomatch .scan should handle leading \"./\" when negated"),
        "{whole}"
    );
}

/// vitest's JSON report (ohash with bugs put in by hand): a snapshot's failure is placed in the
/// test's file, past the frames of vitest's own modules named by URL
/// (`file:///…/node_modules/vitest/dist/chunks/test.js:4027:23`).
#[test]
fn a_failure_s_place_is_in_the_test_past_dependencies_named_by_url() {
    let all = failures_within(&corpus14("vitest-json-ohash.txt"), u64::MAX).join("\n");
    assert!(
        all.contains(
            "serialize primitive and builtins BigInt: Error: Snapshot `serialize > primitive and \
             builtins > BigInt 1` mismatched · at /home/dev/ohash/test/serialize.test.ts:75:49"
        ),
        "{all}"
    );
    assert!(!all.contains("node_modules"), "{all}");
}

/// A SARIF log (ruff's, on chardet with bugs put in by hand; 5,000 pretty-printed lines): its
/// tool, its results by level, file and rule, and the first result of each rule at its place,
/// the rarest first (the deleted import's `F821` among 31 `UP007`). A JSON schema that is not
/// SARIF's is no SARIF log.
#[test]
fn a_sarif_log_s_results_are_counted_and_placed() {
    let bytes = corpus14("ruff-sarif-chardet.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["sarif"]);
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] SARIF (ruff 0.17.6): 117 results (117 errors, 0 warnings) in 20 files; \
             error rules: UP007 ×31, UP045 ×27"
        ),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "/home/dev/chardet-5.2.0/chardet/universaldetector.py:179:36: error F821 Undefined \
             name `codecs`"
        ),
        "{all}"
    );
    // A rule's repeats, word for word in the same file, are said once; those with a message
    // or a file of their own are listed after the first of each rule.
    assert_eq!(
        all.matches("Use a single `if` statement instead of nested `if` statements")
            .count(),
        1,
        "{all}"
    );
    assert!(
        all.contains("chardet/cli/chardetect.py:18:1: error UP035 Import from `collections.abc`"),
        "{all}"
    );
    // A result whose `locations` is no array is read without its place.
    let odd = report(
        b"{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\", \"runs\": [{\"results\": \
          [{\"level\": \"error\", \"locations\": 5, \"ruleId\": \"X1\", \"message\": {\"text\": \
          \"m\"}}]}]}\n",
    );
    let odd = odd.render().join("\n");
    assert!(
        odd.contains("[ctxoff] SARIF: 1 result (1 error, 0 warnings); error rules: X1 ×1"),
        "{odd}"
    );
    let schema = report(
        b"{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\",\n  \"runs\": [],\n  \
          \"type\": \"object\"\n}\n",
    );
    assert!(
        !shapes(&schema).contains(&"sarif".to_string()),
        "{:?}",
        shapes(&schema)
    );
}

/// cpplint (tinyxml2 with changes made by hand): its own total, problems by category and file,
/// and the first of each category as printed, the rarest first: the TODO without a username
/// that the change added, among 41 `readability/inheritance`.
#[test]
fn cpplint_s_problems_are_counted_by_category() {
    let bytes = corpus14("cpplint-filter-tinyxml2.txt");
    let lines = report(&bytes).render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] cpplint: 109 errors in 3 files; categories: readability/inheritance ×41"
        ),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains("L14 tinyxml2.cpp:607:  Missing username in TODO;"),
        "{all}"
    );
    assert!(
        all.contains(
            "tinyxml2.cpp:607:  Never use sprintf. Use snprintf instead.  [runtime/printf] [5]"
        ),
        "{all}"
    );
}

/// pylint's `json2` report (inflect with bugs put in by hand; 3,000 pretty-printed lines): its
/// messages by type in its own words, its score, and each message as its text report prints
/// it at the line its object opens on, the error first (the renamed method's `E1101`), then the
/// first of each warning, refactor and convention (28 kinds). An array of objects whose first
/// key is `type` but which are no pylint messages is no pylint report.
#[test]
fn pylint_s_json_report_says_its_messages_as_its_text_report_does() {
    let bytes = corpus14("pylint-json2-inflect.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["pylint json"]);
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "[ctxoff] pylint JSON: 202 messages (1 error, 15 warnings, 34 refactor, 152 \
             convention) in 2 files; rated at 8.25/10; error codes: E1101 ×1"
        ),
        "{lines}"
    );
    let all = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        all.contains(
            "[ctxoff] first of each kind (28):\n  L2,718 inflect/__init__.py:3697:24: E1101: \
             Instance of 'engine' has no 'millfn' member; maybe 'mill_fn'? (no-member)"
        ),
        "{all}"
    );
    let events = report(b"[{\"type\": \"start\", \"at\": 1}, {\"type\": \"stop\", \"at\": 2}]\n");
    assert!(
        !shapes(&events).contains(&"pylint json".to_string()),
        "{:?}",
        shapes(&events)
    );
    // A chat log's `messages` first, then pylint's `json` format: read as the array it is.
    let after = report(
        b"{\"messages\": [{\"role\": \"user\"}]}\n[{\"type\": \"error\", \"symbol\": \"no-member\", \
          \"message\": \"m\", \"message-id\": \"E1101\", \"path\": \"a.py\", \"line\": 3, \
          \"column\": 4}]\n",
    );
    let all = after.render().join("\n");
    assert!(all.contains("a.py:3:4: E1101: m (no-member)"), "{all}");
}

/// An AddressSanitizer report (parson's tests built with ASan and UBSan, a bug put in by hand):
/// its kind and address without the registers, the access, the first frame in the program and
/// where the address lies, `0 bytes to the right of 128-byte region`: one past the array.
#[test]
fn an_asan_report_says_the_access_and_the_region() {
    let all = failures_within(&corpus14("make-asan-ubsan-parson.txt"), u64::MAX).join("\n");
    assert!(
        all.contains(
            "L4 ERROR: AddressSanitizer: heap-buffer-overflow on address 0x60c0000882c0 · WRITE of size \
             8 · in json_object_clear /home/dev/parson/parson.c:2302 · is located 0 bytes to the \
             right of 128-byte region"
        ),
        "{all}"
    );
    assert!(!all.contains(" at pc 0x"), "{all}");
}

/// `cargo test -- --nocapture` prints each panic as its test runs, before the test's `FAILED`
/// line and with no `---- NAME stdout ----` section after: the panic is the failure's detail.
/// Tests run side by side, so two panics may come before either verdict; a doc test's panic
/// (thread `main`, on its stderr) belongs to the doc test whose verdict follows it. A
/// pretty_assertions diff is shown by its changed lines (hex, corpus 13).
#[test]
fn panics_printed_as_tests_ran_are_their_failures_detail() {
    let all = failures_within(&corpus13("cargo-test-nocapture-hex.txt"), u64::MAX);
    let flat = flat(&all);
    for expected in [
        "test test::test_decode ... FAILED: panicked at src/lib.rs:445:9: assertion failed: \
         `(left == right)` · Diff < left / right > : · <        110, · >        111,",
        "test test::test_decode_to_slice ... FAILED: panicked at src/lib.rs:422:9: assertion \
         failed: `(left == right)` · Diff < left / right > : · <    106, · >    107,",
        "test src/lib.rs - FromHex (line 153) ... FAILED: panicked at src/lib.rs:12:1: assertion \
         `left == right` failed · left: \"Hello world!\" · right: \"Hekkn wnrkd!\"",
    ] {
        assert!(flat.contains(expected), "{expected}\n{flat}");
    }
}

/// A test that panics and passes (`#[should_panic]`) under `--nocapture` lends its panic to no
/// failure, and a panic no verdict follows is nobody's detail.
#[test]
fn a_panic_whose_test_passed_is_no_failure_s_detail() {
    let out = "running 2 tests\n\
               thread 'a::expected' (7) panicked at src/a.rs:3:5:\n\
               boom as planned\n\
               test a::expected - should panic ... ok\n\
               thread 'a::broken' (8) panicked at src/a.rs:9:5:\n\
               index out of bounds\n\
               test a::broken ... FAILED\n\
               \n\
               failures:\n    a::broken\n\n\
               test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n";
    let flat = flat(&failures_within(out.as_bytes(), u64::MAX));
    assert!(
        flat.contains("test a::broken ... FAILED: panicked at src/a.rs:9:5: index out of bounds"),
        "{flat}"
    );
    assert!(!flat.contains("boom"), "{flat}");
}

/// gotestsum's default format: a line per package (`✖  match (66ms)`, `✓`, `∅` without test
/// files), then a block per failure headed `=== FAIL: PKG TestX (0.00s)` holding the test's
/// output, and its total `DONE 107 tests, 7 failures in 3.550s`. Each failure is said by its
/// block's head, its first log line its detail; go's own `--- FAIL` line in the block is not a
/// second failure; the panic is the detail of the test it ended (glob, corpus 15).
#[test]
fn gotestsum_s_blocks_are_its_failures() {
    let bytes = corpus15("gotestsum-glob.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests:"),
        "tests: 7 failed (go test: 2 packages ok, 4 failed, 3 without test files)"
    );
    let lines = r.render().join("\n");
    assert!(
        lines.contains("\nDONE 107 tests, 7 failures in 3.550s\n"),
        "{lines}"
    );
    let all = flat(&failures_within(&bytes, u64::MAX));
    for expected in [
        "=== FAIL: . TestGlob/#31 (0.00s): glob_test.go:166: pattern \"[!a]*\" matching \"this \
         is a test3\" should be true but got false",
        "=== FAIL: match TestEveryOfIndex (0.00s): every_of_test.go:39: #1 unexpected index: \
         exp: 1, act: -1",
        "=== FAIL: util/runes TestLastIndex (0.00s): panic: runtime error: index out of range \
         [11] with length 11 [recovered]",
    ] {
        assert!(all.contains(expected), "{expected}\n{all}");
    }
    assert_eq!(all.matches("TestGlob/#31").count(), 1, "{all}");
}

/// nyc, c8 and jest say each measure below its threshold on a line of its own: each is said,
/// not only the last (multer, corpus 15).
#[test]
fn each_coverage_threshold_not_met_is_said() {
    let r = report(&corpus15("nyc-check-coverage-multer.txt"));
    let lines = r.render().join("\n");
    assert!(
        lines.contains(
            "ERROR: Coverage for lines (91.43%) does not meet global threshold (95%)\n\
             ERROR: Coverage for functions (91.66%) does not meet global threshold (95%)\n\
             ERROR: Coverage for branches (82.44%) does not meet global threshold (90%)\n\
             ERROR: Coverage for statements (89.81%) does not meet global threshold (95%)"
        ),
        "{lines}"
    );
    assert_eq!(
        fact(&r, "coverage")["thresholds"].as_array().map(Vec::len),
        Some(4)
    );
}

/// Node's test runner writes TAP to a file: a failure's YAML says the values compared as
/// printed (`expected: 'a'`, `actual: 'a1'`, a string's quotes kept), even when the message
/// holds the same letters (`text/a, a`), and the test's own frame after the helper's; the
/// test is named by its path through its suites (mime, corpus 15).
#[test]
fn node_tap_failures_say_their_values_as_printed() {
    let all = flat(&failures_within(
        &corpus15("npm-test-node-test-mime.txt"),
        u64::MAX,
    ));
    let expected = "class Mime > not ok 2 - new constructor(): new constructor(): text/a, a · \
                    expected: 'a' · actual: 'a1' · at file:///home/dev/mime/test/test_util.js:15:12, from \
                    file:///home/dev/mime/test/mime.test.js:29:5";
    assert!(all.contains(expected), "{expected}\n{all}");
}

/// ShellCheck's `-f gcc` format: its findings by level as it prints them (its style findings
/// are notes), labelled as ShellCheck's, and the first of each code listed, notes included,
/// the rarest first after the warnings (neofetch, corpus 15).
#[test]
fn shellcheck_gcc_format_lists_the_first_of_each_code() {
    let bytes = corpus15("shellcheck-f-gcc-all-neofetch.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "shellcheck:").starts_with("shellcheck: 0 errors, 11 warnings, 922 notes"),
        "{}",
        rendered(&r, "shellcheck:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] first of each kind (14):");
    assert_eq!(all.iter().filter(|l| l.ends_with("[SC2154]")).count(), 1);
    for line in [
        "  L356 neofetch:2681:27: note: read without -r will mangle backslashes. [SC2162]",
        "  L852 neofetch:4765:12: note: Double quote to prevent globbing and word splitting. \
         [SC2086]",
    ] {
        assert!(all.iter().any(|l| l == line), "{line}\n{all:#?}");
    }
}

/// A JSON report of no format known by name: the objects that hold a file, a line and a
/// message are its findings, counted by severity and code as written, the first of each code
/// said as `file:line:col: severity code: message`. bandit's `code` is the source it flags,
/// not its code (babel, corpus 15); mypy writes a finding a line (JSON Lines); pyright's
/// zero-based range is said from one (rsa, corpus 14).
#[test]
fn findings_of_a_json_report_are_counted_and_said_in_the_usual_form() {
    let bandit = corpus15("bandit-json-babel.txt");
    let r = report(&bandit);
    assert_eq!(
        rendered(&r, "findings"),
        "findings (JSON report): 33 in 12 files; by severity: 28 LOW, 5 MEDIUM; by code: \
         B101 ×18, B105 ×5, B301 ×3, B403 ×2, B404 ×1 +4 more"
    );
    let all = failures_within(&bandit, u64::MAX);
    assert!(
        all.contains(
            &"  L737 babel/messages/frontend.py:960:22: MEDIUM B306: Use of insecure and \
              deprecated function (mktemp)."
                .to_owned()
        ),
        "{all:#?}"
    );
    let mypy = corpus14("mypy-json-strict-rsa.txt");
    assert!(
        rendered(&report(&mypy), "findings")
            .starts_with("findings (JSON report): 27 in 7 files; by severity: 27 error;")
    );
    let all = failures_within(&mypy, u64::MAX);
    assert_eq!(
        all[1],
        "  L1 rsa/asn1.py:20:0: error import-untyped: Library stubs not installed for \
         \"pyasn1.type\""
    );
    let all = failures_within(&corpus14("pyright-outputjson-rsa.txt"), u64::MAX);
    assert!(
        all[1].starts_with(
            "  L5 /home/dev/rsa-4.9.1/rsa/cli.py:221:9: error reportIncompatibleMethodOverride:"
        ),
        "{all:#?}"
    );
}

/// Data with places and no messages holds no findings; a document read in vain for long is
/// passed over, and so are the documents after it (a large JSON output costs little more).
#[test]
fn json_data_is_no_findings_and_is_not_read_to_its_end() {
    let data = b"[{\"path\": \"src/a.rs\", \"line\": 3}, {\"path\": \"src/b.rs\", \"line\": 4}]\n";
    assert!(!shapes(&report(data)).contains(&"json findings".to_owned()));
    let mut big = b"[".to_vec();
    for i in 0..50_001 {
        big.extend_from_slice(format!("{{\"id\": {i}}},").as_bytes());
    }
    big.extend_from_slice(b"{\"file\": \"a.py\", \"line\": 1, \"message\": \"late\"}]\n");
    big.extend_from_slice(b"{\"file\": \"b.py\", \"line\": 2, \"message\": \"later\"}\n");
    assert!(!shapes(&report(&big)).contains(&"json findings".to_owned()));
    let lines = b"{\"file\": \"a.py\", \"line\": 1, \"message\": \"m\", \"code\": \"X1\"}\n\
                  {\"file\": \"b.py\", \"line\": 2, \"message\": \"n\", \"code\": \"X2\"}\n";
    assert!(
        rendered(&report(lines), "findings").starts_with("findings (JSON report): 2 in 2 files")
    );
}

/// Test::More's subtests print their failures indented, before their parent's `#   Failed
/// test`, which says only where it is: the parent's detail is its first failed subtest with
/// what it got and expected. A test script that died under a failure says why (`Can't locate
/// object method … at t/lib/TestBridge.pm line 352.`, over two lines). prove's report is said
/// in its words, with each file's counts (YAML::Tiny, corpus 15).
#[test]
fn test_more_parents_take_their_first_subtest_s_detail_and_a_death_is_said() {
    let bytes = corpus15("prove-l-yaml-tiny.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "prove:").contains(
            "failed files (4): t/10_read.t (Tests: 6 Failed: 2; Failed tests: 1, 3), \
             t/30_yaml_spec_tml.t (Tests: 3 Failed: 1; Failed test: 1; Parse errors: No plan \
             found in TAP output),"
        ),
        "{}",
        rendered(&r, "prove:")
    );
    let all = flat(&failures_within(&bytes, u64::MAX));
    for expected in [
        "Failed test 'UTF-8 BOM': subtest: Failed test 'YAML::Tiny reads without exception' · \
         #          got: 'Can't locate object method \"_unquote_double\" via package \
         \"YAML::Tiny\" · #     expected: '' · #   at t/10_read.t line 63.",
        "#   at t/30_yaml_spec_tml.t line 32. · Can't locate object method \"_unquote_double\" \
         via package \"YAML::Tiny\" at t/lib/TestBridge.pm line 352.",
    ] {
        assert!(all.contains(expected), "{expected}\n{all}");
    }
}

/// pytest's report line that says where a failure happened is read whatever the package's
/// name starts with: `networkx/…/test_kcomponents.py:192: AssertionError` was taken for a line
/// of totals (which start with a digit or `no tests ran`) and never placed (networkx, corpus
/// 15).
#[test]
fn a_pytest_failure_in_a_package_named_with_n_is_placed() {
    let all = flat(&failures_within(
        &corpus15("pytest-q-many-networkx.txt"),
        u64::MAX,
    ));
    let karate = all
        .lines()
        .find(|l| {
            l.starts_with(
                "networkx/algorithms/approximation/tests/test_kcomponents.py::test_karate_1: ",
            )
        })
        .unwrap_or_else(|| panic!("{all}"));
    assert!(
        karate.ends_with(
            "> assert k_num in (karate_k_num, approx_karate_k_num) · \
             networkx/algorithms/approximation/tests/test_kcomponents.py:192: AssertionError"
        ),
        "{karate}"
    );
}

/// pytest comparing two dicts says which items differ, `Differing items:` then `{…} != {…}`:
/// that line is the failure's detail, each side shown where they differ, and the assertion's
/// own line, both dicts cut in their middle, is kept to its start (deepdiff, corpus 15).
#[test]
fn pytest_s_differing_items_are_the_detail_of_a_dict_comparison() {
    let all = flat(&failures_within(
        &corpus15("pytest-vv-deepdiff.txt"),
        u64::MAX,
    ));
    let expected = "test_compare_func_with_duplicates_removed: E       assert \
                    {'iterable_item_removed': {'root[2]': {'id': 1, 'val': 3}}, \
                    'iterable_item_… · differing items: {'values_changed': {\"root[2]['val']\": \
                    {'new_value': 3, 'old_value': 1, 'new_path': \"root[0]['val']\"}}} != \
                    {'values_changed': {\"root[2]['val']\": {'new_value': 3, 'old_value': 1}}} \
                    · tests/test_delta.py:1906: AssertionError";
    assert!(all.contains(expected), "{expected}\n{all}");
}

/// ShellCheck's `-f json` report, one line of JSON (neofetch with bugs put in by hand; see
/// `more/README.md`): its comments are findings, counted by level and code as it writes them,
/// the first of each code at its place.
#[test]
fn shellcheck_s_json_report_is_read_for_its_findings() {
    let bytes = fixture("more", "shellcheck-json-neofetch.json");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "findings"),
        "findings (JSON report): 13 in 1 file; by severity: 8 info, 3 style, 2 warning; by \
         code: 2317 ×4, 2162 ×2, 2236 ×2, 2086 ×2, 2004 ×1 +2 more"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] first of each kind (7):");
    assert!(
        all.contains(
            &"  L1 neofetch:2681:27: info 2162: read without -r will mangle backslashes."
                .to_owned()
        ),
        "{all:#?}"
    );
}

/// rspec over examples made in a loop (corpus 23: ruby-units' foot-inch conversions, all at
/// `unit_spec.rb:1926`): RSpec reruns each by its id, and each is named by it.
#[test]
fn rspec_examples_of_one_line_are_named_by_their_ids() {
    let bytes = fixture("corpus23", "rspec-ruby-units.txt");
    let all = failures_within(&bytes, u64::MAX);
    for id in [
        "unit_spec.rb[6:10:19]",
        "unit_spec.rb[6:10:9]",
        "unit_spec.rb[6:10:17]",
    ] {
        let target = format!("./spec/ruby_units/{id} # Unit Conversions Foot-inch conversions");
        assert!(all.iter().any(|l| l.contains(&target)), "{id}: {all:#?}");
    }
    // An example alone on its line is named by its description.
    assert!(
        all.iter()
            .any(|l| l.starts_with("1) RubyUnits::Configuration.separator when set to false")),
        "{all:#?}"
    );
}

/// JUnitCore's failures (corpus 23: semver4j) are shown at the test's frame, not at JUnit's
/// `Assert.fail`.
#[test]
fn junit_failures_are_placed_in_the_test_not_in_junit() {
    let bytes = fixture("corpus23", "junitcore-semver4j.txt");
    let all = failures_within(&bytes, u64::MAX);
    let first = line_with(&all, "  L5 ");
    assert!(
        first.ends_with(
            "java.lang.AssertionError · at com.vdurmont.semver4j.SemverTest.isGreaterThan_test(SemverTest.java:136)"
        ),
        "{first}"
    );
    assert!(all.iter().all(|l| !l.contains("at org.junit.")), "{all:#?}");
}

/// RuboCop (corpus 23: rufus-scheduler, 623 offenses): counted by severity as a direct count
/// over the file gives, and each warning cop's first shown before the conventions, though the
/// two put in by hand come after sixty-four kinds of conventions.
#[test]
fn rubocop_counts_offenses_and_lists_warnings_first() {
    let bytes = fixture("corpus23", "rubocop-lib-rufus-scheduler.txt");
    let text = String::from_utf8_lossy(&bytes);
    let count = |s: &str| text.lines().filter(|l| l.contains(s)).count();
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "rubocop:"),
        format!(
            "rubocop: 8 files inspected, 623 offenses detected, 525 offenses autocorrectable; \
             counted: 623 offenses in 8 files; severity: convention ×{}, warning ×{}",
            count(": C: "),
            count(": W: ")
        )
    );
    let all = failures_within(&bytes, u64::MAX);
    let at = all
        .iter()
        .position(|l| l.starts_with("[ctxoff] first of each kind"))
        .expect("the list");
    let warnings: Vec<&String> = all[at + 1..]
        .iter()
        .take_while(|l| l.contains(": W: "))
        .collect();
    let mut cops: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(": W: "))
        .filter_map(|(_, rest)| rest.trim_start_matches("[Correctable] ").split(':').next())
        .collect();
    cops.sort_unstable();
    cops.dedup();
    assert_eq!(warnings.len(), cops.len(), "{all:#?}");
    for cop in ["Lint/UselessAssignment", "Lint/Debugger"] {
        assert!(warnings.iter().any(|l| l.contains(cop)), "{cop}: {all:#?}");
    }
}

/// quicktest's failures (corpus 23: spf13/cast): each label is said with its value, and the
/// stack under them is left out (the log line says where).
#[test]
fn go_test_quicktest_labels_are_said_with_their_values() {
    let all = failures_within(
        &fixture("corpus23", "go-test-v-subtests-cast.txt"),
        u64::MAX,
    );
    let first = line_with(&all, "--- FAIL: TestToUintE ");
    assert!(
        first.ends_with(
            "L2 cast_test.go:103: · error: got non-nil error · comment: i = 28 · got: \
             e`unable to cast \"8.0\" of type string to uint`"
        ),
        "{first}"
    );
    assert!(all.iter().all(|l| !l.contains("stack:")), "{all:#?}");
}

/// eslint's unix format names no rule for a parsing error (`… [Error]`): it is still an error,
/// listed among the first of each kind.
#[test]
fn eslint_unix_parsing_error_is_an_error_of_no_rule() {
    let bytes = corpus10("eslint-unix-chromium-vim.txt");
    let text = String::from_utf8_lossy(&bytes);
    let r = report(&bytes);
    assert!(
        rendered(&r, "eslint:").starts_with(&format!(
            "eslint: 309 problems; counted: {} errors, 0 warnings",
            text.lines().filter(|l| l.ends_with("]")).count()
        )),
        "{}",
        rendered(&r, "eslint:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.iter().any(|l| l.ends_with(
            "content_scripts/status.js:12:28: Parsing error: Unexpected token { [Error]"
        )),
        "{all:#?}"
    );
}

/// Cppcheck (corpus 23: cmark): its findings are counted at every severity and by id, as its
/// XML report counts them (gcc's reading counted only the one error and the one warning), and
/// the most frequent id is named.
#[test]
fn cppcheck_counts_findings_at_every_severity_and_by_id() {
    let bytes = fixture("corpus23", "cppcheck-enable-all-cmark.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "cppcheck:"),
        "cppcheck: 189 findings in 17 files; severity: style ×186, error ×1, warning ×1, \
         information ×1"
    );
    assert_eq!(
        rendered(&r, "findings by id:"),
        "findings by id: unsignedLessThanZero ×68, unreadVariable ×38, variableScope ×37, \
         unusedFunction ×36, redundantAssignment ×4 +6 more"
    );
    assert_eq!(shapes(&r), ["cppcheck"]);
    let all = failures_within(&bytes, u64::MAX);
    let first = all
        .iter()
        .position(|l| l.starts_with("[ctxoff] first of each kind"))
        .expect("the list");
    assert!(
        all[first + 1].ends_with("src/houdini_html_u.c:47:11: error: Array 'digits[8]' accessed at index 8, which is out of bounds. [arrayIndexOutOfBounds]"),
        "{all:#?}"
    );
}

/// Node's assert under jest (corpus 23: radash): the assertion's message (chai's `expected [
/// 1 ] to deeply equal [ 1, 1 ]`) is the detail, in place of the call it failed in.
#[test]
fn jest_node_assert_failures_say_their_message() {
    let all = failures_within(&fixture("corpus23", "jest-verbose-radash.txt"), u64::MAX);
    let detail = all
        .iter()
        .find(|l| l.contains("L136 "))
        .expect("the first failure's detail");
    assert!(
        detail.contains("L136 Message: expected [ 1 ] to deeply equal [ 1, 1 ] · Expected value"),
        "{detail}"
    );
    assert!(!detail.contains("assert.deepStrictEqual"), "{detail}");
}

/// vitest (corpus 23: purify): a message that abbreviates a value (`expected { Object
/// (__value, _) } to deeply equal Right(0)`) is followed by its diff's first changed lines,
/// which say what the value was.
#[test]
fn vitest_abbreviated_values_are_said_by_their_diff() {
    let bytes = fixture("corpus23", "npm-test-vitest-coverage-purify.txt");
    let all = failures_within(&bytes, u64::MAX);
    let detail = |at: &str| {
        all.iter()
            .find(|l| l.contains(at))
            .unwrap_or_else(|| panic!("{at}: {all:#?}"))
    };
    assert!(
        detail("L217 ").contains(
            "to deeply equal Right(0) · - [ · + \"Expected an array with one or more elements, \
             but received an empty array\" · at src/Codec.test.ts:539:37"
        ),
        "{all:#?}"
    );
    // A message that shows its values whole is not followed by the diff.
    assert!(
        detail("L238 ").ends_with(
            "AssertionError: expected Just(5) to deeply equal Nothing · at src/Maybe.test.ts:288:43"
        ),
        "{all:#?}"
    );
}

/// cargo's warning total of each target (corpus 23: byteorder under clippy) is quoted when it
/// was left out: the counts of the diagnostics printed (each once) do not say it.
#[test]
fn cargo_warning_totals_by_target_are_quoted() {
    let all = report(&fixture(
        "corpus23",
        "cargo-clippy-all-targets-byteorder.txt",
    ))
    .render();
    let said = "warning: `byteorder` (lib) generated 9 warnings (run `cargo clippy --fix --lib -p \
                byteorder -- ` to apply 9 suggestions)";
    assert_eq!(all.iter().filter(|l| *l == said).count(), 1, "{all:#?}");
}

/// jasmine under c8 (corpus 24: fast-xml-parser): the coverage table printed after the run
/// does not hide the run's numbered failures, and the pending specs jasmine numbers too are
/// not counted among them.
#[test]
fn jasmine_failures_stand_beside_a_coverage_table_and_pending_specs_are_no_failures() {
    let bytes = fixture("corpus24", "npm-test-c8-jasmine-fast-xml-parser.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["coverage", "numbered failures"]);
    assert_eq!(
        rendered(&r, "tests, as the runner counts them:"),
        "tests, as the runner counts them: 325 specs, 22 failures, 2 pending specs"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.contains(&"[ctxoff] failed tests, as numbered (22):".to_owned()),
        "{all:#?}"
    );
    assert!(
        all.iter()
            .any(|l| l.starts_with("  L218 XMLParser should validate big XML file")),
        "{all:#?}"
    );
    assert!(
        !all.iter()
            .any(|l| l.contains("should parse a XML to JSON string")),
        "a pending spec: {all:#?}"
    );
}

/// strace of a Python program (corpus 24: a peewee script): the traceback printed among the
/// calls is read past them, and what the program raised is stated with its own frame, after
/// its last line of output.
#[test]
fn strace_states_what_the_traced_program_raised_and_its_last_lines() {
    let all = failures_within(
        &fixture("corpus24", "strace-f-file-clubreport-peewee.txt"),
        u64::MAX,
    );
    let at = all
        .iter()
        .position(|l| l == "[ctxoff] raised by the program (1):")
        .expect("what the program raised");
    assert_eq!(
        all[at + 1],
        "  L1,341 peewee.OperationalError: unable to open database file: File \
         \"/home/dev/clubdata/clubreport.py\", line 35, in main · db.connect() · from \
         sqlite3.OperationalError"
    );
    assert_eq!(all[at + 2], "[ctxoff] the program's last lines (1):");
    assert!(
        all[at + 3].ends_with("__main__:main:34 - opening instance/clubdata.db"),
        "{all:#?}"
    );
}

/// loguru's `backtrace=True` tracebacks (corpus 24: a billing job) mark the frame the error was
/// caught in with `> File`: it is a frame, not the exception, and each error is said with what
/// was raised and the innermost frame of the program.
#[test]
fn loguru_backtraces_say_what_was_raised_and_where() {
    let all = failures_within(&fixture("corpus24", "loguru-log-billing.txt"), u64::MAX);
    for (at, raised) in [
        (
            "  L23 ",
            ": decimal.InvalidOperation: [<class 'decimal.DivisionUndefined'>] · File \
             \"/home/dev/clubbilling/billing.py\", line 35, in invoice · per_slot = ",
        ),
        (
            "  L504 ",
            ": KeyError: 30 · File \"/home/dev/clubbilling/billing.py\", line 36, in invoice · \
             referrer = member_names[recommendedby]",
        ),
    ] {
        let line = all
            .iter()
            .find(|l| l.starts_with(at))
            .unwrap_or_else(|| panic!("{at}: {all:#?}"));
        assert!(line.contains(raised), "{line}");
    }
}

/// CherryPy's server log (corpus 24) names no level in its records; its tracebacks make it a
/// log, and the server's start (`Serving on http://…`) and why it stopped are stated.
#[test]
fn a_cherrypy_log_says_where_the_server_started_and_why_it_stopped() {
    let r = report(&fixture("corpus24", "cherrypy-log-clubapi.txt"));
    assert!(
        rendered(&r, "log:").ends_with("; started L6, stopping L325"),
        "{}",
        rendered(&r, "log:")
    );
    let all = r.render();
    for said in [
        "[07/Dec/2026:03:46:28] ENGINE Serving on http://127.0.0.1:8973",
        "[07/Dec/2026:03:46:31] ENGINE Caught signal SIGTERM.",
    ] {
        assert!(all.iter().any(|l| l == said), "{said}: {all:#?}");
    }
}

/// rsync's `configure.sh` (corpus 24) aborts with a message that says nothing (`Aborting
/// configure run`); the lines it printed after its last check say what is missing.
#[test]
fn configure_says_what_the_script_printed_before_its_error() {
    let r = report(&fixture("corpus24", "configure-rsync.txt"));
    assert_eq!(
        rendered(&r, "configure: error:"),
        "configure: error: Aborting configure run"
    );
    let said = rendered(&r, "said before the error:");
    for missing in ["xxhash.h", "zstd.h", "lz4.h"] {
        assert!(
            said.contains(&format!("- Failed to find {missing} for ")),
            "{said}"
        );
    }
}

/// automake under dpkg-buildpackage (corpus 24: libmd): `test-suite.log` is printed, and each
/// failed test's short log says how it failed (the assertion that aborted it); its counts are
/// said apart (`PASS: 4;`, not `PASS: 4,`), and its zero counts are no notable errors.
#[test]
fn automake_failed_tests_are_said_with_their_logs_last_lines() {
    let bytes = fixture("corpus24", "dpkg-buildpackage-b-libmd.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "tests: TOTAL:").starts_with("tests: TOTAL: 6; PASS: 4; FAIL: 2 (automake)"),
        "{}",
        rendered(&r, "tests: TOTAL:")
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.iter().any(|l| l.ends_with(
            "sha2: sha2: sha2.c:34: test_SHA384: Assertion `strcmp(hash_str_ref, hash_str_got) \
             == 0' failed. · FAIL sha2 (exit status: 134)"
        )),
        "{all:#?}"
    );
    assert!(crate::summary::notable::is_incidental("# ERROR: 0"));
    assert!(!crate::summary::notable::is_incidental("# ERROR: 2"));
}

/// ESLint's stylish report (corpus 24: fast-xml-parser): a parsing error (of no rule: its
/// file was not linted) is listed before the rarest rules.
#[test]
fn eslint_parsing_errors_come_before_rules() {
    let all = failures_within(
        &fixture("corpus24", "eslint-stylish-fast-xml-parser.txt"),
        u64::MAX,
    );
    let parsing = all
        .iter()
        .position(|l| l.contains("Parsing error: "))
        .expect("a parsing error");
    let rule = all
        .iter()
        .position(|l| l.ends_with("no-dupe-keys"))
        .expect("the rarest rule");
    assert!(parsing < rule, "{all:#?}");
}

/// mypy (corpus 24: mashumaro): an error's note at its line (`note: Left operand is of type
/// …`) is said with it; a heading note (`Possible overload variants:`, corpus 16) with the
/// note after it.
#[test]
fn mypy_errors_are_said_with_their_notes() {
    let all = failures_within(
        &fixture("corpus24", "mypy-strict-notes-mashumaro.txt"),
        u64::MAX,
    );
    assert!(
        all.iter()
            .any(|l| l.ends_with("[operator] · note: Left operand is of type \"str | Any\"")),
        "{all:#?}"
    );
    let all = failures_within(&fixture("corpus16", "mypy-src-platformdirs.txt"), u64::MAX);
    assert!(
        all.iter().any(|l| l.ends_with(
            "· note: Possible overload variants: · note: def join(str, /, *paths: str) -> str"
        )),
        "{all:#?}"
    );
}

/// Hypothesis's state machine (corpus 24: bidict): the failing case's last step, the one that
/// failed, is said with the assertion, within the tight budget.
#[test]
fn a_failing_state_machine_says_its_last_step() {
    let all = failures_within(
        &fixture("corpus24", "python-m-pytest-hypothesis-stateful-bidict.txt"),
        150,
    );
    assert!(
        all.iter().any(|l| l.contains(
            "failing case's last step: state.popitem(flip=False, inv=False, last=False)"
        )),
        "{all:#?}"
    );
}

/// Cython (corpus 24: cytoolz; corpus 13: msgpack): its errors name no level (`a.pyx:42:10:
/// message` after the source it quotes), and are counted and listed with the module it
/// stopped at; its warnings say `warning:` before the place.
#[test]
fn cython_errors_are_counted_and_listed() {
    let bytes = fixture("corpus24", "setup-py-build-ext-cython-cytoolz.txt");
    assert_eq!(
        rendered(&report(&bytes), "cython:"),
        "cython: 3 errors, 0 warnings in 1 file; stopped at [1/5] Cythonizing \
         cytoolz/dicttoolz.pyx"
    );
    let all = failures_within(&bytes, 150);
    assert_eq!(
        all[1..4],
        [
            "  L19 cytoolz/dicttoolz.pyx:42:10: undeclared name not builtin: PtrIter_Nxt",
            "  L32 cytoolz/dicttoolz.pyx:42:21: Cannot convert Python object to 'PyObject *'",
            "  L45 cytoolz/dicttoolz.pyx:42:21: Storing unsafe C derivative of temporary \
             Python reference",
        ],
        "{all:#?}"
    );
    let bytes = fixture("corpus13", "cython-msgpack.txt");
    assert_eq!(
        rendered(&report(&bytes), "cython:"),
        "cython: 6 errors, 3 warnings in 2 files"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all.iter().any(|l| l.ends_with(
            "L80 warning: msgpack/_unpacker.pyx:365:43: Python attribute access is not usefully \
             protected by critical_section"
        )),
        "{all:#?}"
    );
}

/// tape (corpus 25: resolve): three failing assertions share one message (`all desired module
/// dirs were found`); each is said under its test's comment, which tells them apart.
#[test]
fn tape_failures_are_said_under_their_tests_comment() {
    let all = failures_within(&fixture("corpus25", "tape-resolve.txt"), u64::MAX);
    for (test, n) in [
        ("with paths=array option", 510),
        ("with 1 moduleDirectory and paths options", 523),
        ("with 1+ moduleDirectory and paths options", 527),
    ] {
        let at = all
            .iter()
            .position(|l| l.starts_with(&format!("not ok {n} ")))
            .unwrap_or_else(|| panic!("{n}: {all:#?}"));
        assert_eq!(all[at - 1], format!("# {test}"), "{all:#?}");
    }
}

/// basedpyright (corpus 25: anytree) closes with `20 errors, 1669 warnings, 0 notes`: its
/// report is pyright's, and its errors are listed before its 1,669 warnings.
#[test]
fn basedpyright_is_read_as_pyright() {
    let bytes = fixture("corpus25", "basedpyright-src-anytree.txt");
    assert!(
        rendered(&report(&bytes), "pyright:")
            .starts_with("pyright: 20 errors, 1,669 warnings, 0 notes; rules: "),
        "{}",
        rendered(&report(&bytes), "pyright:")
    );
    let all = failures_within(&bytes, u64::MAX);
    for error in [
        "nodemixin.py:130:18 - error: Cannot access attribute \"__check_loop\" for class \
         \"NodeMixin*\" (reportAttributeAccessIssue)",
        "resolver.py:302:26 - error: \"re\" is not defined (reportUndefinedVariable)",
    ] {
        assert!(all[..8].iter().any(|l| l.ends_with(error)), "{all:#?}");
    }
}

/// shUnit2's test runner (corpus 25: shunit2's own suite under three shells): its verdicts
/// count assertions, a test fails by printing `ASSERT:` in a file that failed, and the JUnit
/// XML its own tests print (ideal and actual) is their output, not this run's report.
#[test]
fn shunit2_runs_are_counted_over_files_and_shells() {
    let bytes = fixture("corpus25", "test-runner-shunit2.txt");
    let report = report(&bytes);
    assert!(!shapes(&report).contains(&"junit xml".to_owned()));
    assert_eq!(
        rendered(&report, "tests:"),
        "tests: 207 run, 6 failed (shUnit2, 33 test files); assertions: 6 failed, 126 skipped"
    );
    let shunit2 = fact(&report, "shunit2");
    assert_eq!(shunit2["failed_tests"], 6);
    assert_eq!(shunit2["warnings"][0]["warning"], "/bin/sh not passing");
    assert_eq!(shunit2["warnings"][0]["count"], 2);
    let all = failures_within(&bytes, u64::MAX);
    let verdict = "  shunit2_misc (/bin/sh): FAILED (failures=1,skipped=1)";
    assert!(report.render().iter().any(|l| l == verdict));
    let misc = line_with(&all, "shunit2_misc testIssue7 (/bin/sh)");
    assert!(misc.ends_with("ASSERT:expected:<0> but got:<1>"), "{misc}");
    // shunit2_failures prints the ASSERT lines it checks, and passes: none is a failure.
    assert!(!flat(&all).contains("testFailsWithArgs"), "{all:#?}");
}

/// Sanic (corpus 26) draws each traceback in a box under the record that logged it (`╭
/// …ERROR: Exception occurred while handling uri: …`, `│ server.py:38 book_view:`, `╰ KeyError:
/// 4`), wrapped at 80 columns, and logs each request with its whole URL: each error is said
/// with its exception, its frame and the line that raised, and the requests answered 500 count.
#[test]
fn sanic_tracebacks_in_boxes_are_read() {
    let bytes = fixture("corpus26", "sanic-log-loans.txt");
    let report = report(&bytes);
    assert!(
        rendered(&report, "log:").starts_with("log: 47 records (info ×38, error ×9)"),
        "{}",
        rendered(&report, "log:")
    );
    assert!(rendered(&report, "access log:").contains("500 ×9"));
    let all = failures_within(&bytes, u64::MAX);
    let books = line_with(&all, "uri: 'http://127.0.0.1:8097/books':");
    assert!(
        books.ends_with(
            "KeyError: 4 · server.py:38 book_view · \"author\": AUTHORS[book[\"author_id\"]],"
        ),
        "{books}"
    );
    // A source line the box wrapped is joined again.
    let search = line_with(&all, "uri: 'http://127.0.0.1:8097/search':");
    assert!(
        search.ends_with("if q.lower() in v[\"title\"].lower()]"),
        "{search}"
    );
    assert!(
        all.iter()
            .any(|l| l.ends_with("GET http://127.0.0.1:8097/books 500"))
    );
}

/// markdown2's own harness under tox (corpus 26) names its tests its own way (`FAIL:
/// cli/filevars/file_vars_after_path`) and crashed before unittest's summary: its blocks are
/// still read, its verbose results counted, and the failure whose block never printed named.
#[test]
fn an_unfinished_unittest_run_keeps_its_failures() {
    let bytes = fixture("corpus26", "tox-e-py-make-markdown2.txt");
    let report = report(&bytes);
    assert_eq!(
        rendered(&report, "unittest:"),
        "unittest: no summary (the run stopped before `Ran N tests`); 31 FAIL and 0 ERROR \
         reports; results printed: 227 ok, 32 FAIL, 0 ERROR, 0 skipped"
    );
    assert_eq!(
        rendered(&report, "failed with no report"),
        "failed with no report printed (1): markdown2/direct/toc_with_persistent_object [toc, \
         issue208]"
    );
    let all = failures_within(&bytes, u64::MAX);
    let first = line_with(&all, "FAIL: cli/filevars/file_vars_after_path");
    assert!(
        first.contains("AssertionError: '<h1 id=\"heading\">Heading</h1>' not found in"),
        "{first}"
    );
    assert!(first.contains("test_cli.py\", line 41"), "{first}");
}

/// luacheck (corpus 26: Moses, 1,343 warnings, most of them whitespace) lists the first of
/// each kind of finding, the globals first: the two typos a reader must fix come before the
/// 1,073 whitespace findings. A file that does not parse has an error (corpus 11: Penlight).
#[test]
fn luacheck_findings_are_counted_by_kind_globals_first() {
    let bytes = fixture("corpus26", "luacheck-moses.txt");
    let moses = report(&bytes);
    assert_eq!(
        rendered(&moses, "luacheck:"),
        "luacheck: Total: 1343 warnings / 0 errors in 9 files; counted: 0 errors, 1,343 \
         warnings in 9 files"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert!(
        all[1].ends_with("moses.lua:898:5: setting non-standard global variable randPos"),
        "{all:#?}"
    );
    assert!(
        all[2].ends_with("moses.lua:1564:37: accessing undefined variable setp"),
        "{all:#?}"
    );
    let penlight = report(&fixture("corpus11", "luacheck-penlight.txt"));
    assert_eq!(fact(&penlight, "luacheck")["errors"], 1);
}

/// A mocha failure is placed at its test's line (`at Context.<anonymous>`), not at a helper
/// in another file that every test calls (nunjucks's `equal` in tests/util.js, corpus 27;
/// validator's tests/testFunctions.js, corpus 4); a function of the test's own file that
/// failed stays its place (eventemitter3's listener, corpus 24), named from the root or in
/// full.
#[test]
fn a_mocha_failure_is_placed_in_its_test_not_a_shared_helper() {
    let all = failures_within(&fixture("corpus27", "mocha-spec-nunjucks.txt"), u64::MAX);
    let first = line_with(&all, "compiler should autoescape by default");
    assert!(first.ends_with("at tests/compiler.js:1857:7"), "{first}");
    let validator = failures_within(&fixture("corpus4", "mocha-spec-validator.txt"), u64::MAX);
    let ip = line_with(&validator, "isIP should validate IP addresses");
    assert!(ip.ends_with("at test/validators/isIP.test.js:5:9"), "{ip}");
    let emitter = failures_within(
        &fixture("corpus24", "npm-test-c8-mocha-eventemitter3.txt"),
        u64::MAX,
    );
    let symbols = line_with(&emitter, "works with ES6 symbols");
    assert!(symbols.ends_with("at test/test.js:59:38"), "{symbols}");
}

/// webpack's problems (corpus 25: popper's entry build; corpus 27: nunjucks's four bundles,
/// which print the same errors for each) are listed once each with their messages, errors
/// first, and each compilation's verdict is said; its `ERROR in` lines are no log's records.
#[test]
fn webpack_problems_are_listed_once_with_their_messages() {
    let popper = report(&fixture("corpus25", "webpack-entry-popper.txt"));
    assert_eq!(
        rendered(&popper, "webpack:"),
        "webpack: 1 compilation: compiled with 2 errors and 32 warnings; printed: 2 errors, 32 \
         warnings (34 distinct)"
    );
    assert!(!shapes(&popper).contains(&"log".to_owned()));
    let all = failures_within(&fixture("corpus25", "webpack-entry-popper.txt"), u64::MAX);
    let first = line_with(&all, "ERROR in ./lib/createPopper.js 3:0-64");
    assert!(
        first.ends_with("Did you mean './dom-utils/listScrollParents.js'?"),
        "{first}"
    );
    let nunjucks = report(&fixture(
        "corpus27",
        "npm-run-build-bundle-webpack-nunjucks.txt",
    ));
    assert_eq!(
        rendered(&nunjucks, "webpack:"),
        "webpack: 4 compilations: compiled with 8 errors (×2); compiled with 4 errors (×2); \
         printed: 24 errors, 0 warnings (8 distinct)"
    );
    assert_eq!(fact(&nunjucks, "webpack")["distinct_errors"], 8);
}

/// A Redis server's log (corpus 27) is a log, not search results: its records are counted
/// by level, and its warnings that say something failed are its errors (it has no error
/// level); one that calls itself a warning stays one.
#[test]
fn a_redis_log_is_read_with_its_failures() {
    let r = report(&fixture("corpus27", "redis-server-verbose-log.txt"));
    assert_eq!(shapes(&r), ["log"]);
    assert_eq!(
        rendered(&r, "log:"),
        "log: 205 records (info ×180, error ×15, warning ×10), first error L101; started L8"
    );
    let all = failures_within(
        &fixture("corpus27", "redis-server-verbose-log.txt"),
        u64::MAX,
    );
    line_with(
        &all,
        "L107 # Can't open or create append-only dir appendonlydir: Permission denied",
    );
}

/// testthat's problems (corpus 26: desc, stopped early at its maximum of failures; corpus 5:
/// stringr; corpus 25: crayon under `R CMD check`) are listed with their messages, and its
/// counts said as printed.
#[test]
fn testthat_problems_and_counts() {
    let bytes = fixture("corpus26", "rscript-test-local-desc.txt");
    let desc = report(&bytes);
    assert_eq!(
        rendered(&desc, "testthat:"),
        "testthat: [ FAIL 10 | WARN 8 | SKIP 0 | PASS 246 ] (expectations); terminated early: \
         its maximum number of failures was reached"
    );
    let all = failures_within(&bytes, u64::MAX);
    let first = line_with(&all, "Error ('test-authors.R:240'): add_me works");
    assert!(
        first.ends_with("Error: $add_me needs the 'whoami' package"),
        "{first}"
    );
    assert!(flat(&all).contains("Failure ('test-deps.R:38'): set_dep"));
    let stringr = report(&fixture("corpus5", "testthat-stringr.txt"));
    assert_eq!(fact(&stringr, "testthat")["failed"], 12);
    assert_eq!(fact(&stringr, "testthat")["blocks"]["failed"], 12);
    let crayon = report(&fixture("corpus25", "r-cmd-check-crayon.txt"));
    assert_eq!(fact(&crayon, "testthat")["skipped"], 2);
    assert!(
        flat(&failures_within(
            &fixture("corpus25", "r-cmd-check-crayon.txt"),
            u64::MAX
        ))
        .contains("Error ('test-operations.R:195'): col_align")
    );
}

/// `python -m doctest -v` (corpus 26: python-stdnum) prints `Test passed.` after each file
/// that passed, and the tracebacks its examples expect: neither is EUnit's total nor a log's
/// exception. An example that raised says where, in the code it called (corpus 10).
#[test]
fn verbose_doctest_is_doctest_alone() {
    let stdnum = report(&fixture("corpus26", "doctest-v-o-flags-stdnum.txt"));
    assert_eq!(shapes(&stdnum), ["doctest"]);
    let all = failures_within(
        &fixture("corpus10", "doctest-v-sortedcontainers.txt"),
        u64::MAX,
    );
    let discard = line_with(&all, "sl.discard(5)");
    assert!(
        discard.contains(
            "raised NameError: name '_list' is not defined · at File \
             \"/home/dev/sortedcontainers-2.4.0/sortedcontainers/sortedlist.py\", line 420, in \
             discard"
        ),
        "{discard}"
    );
}

/// Sphinx's doctest builder (corpus 13: pydash) states totals per document, seven of them:
/// the run's are their sums (1,048 tests, 8 failed), not the last document's (3 passed), as
/// its own `Doctest summary` says.
#[test]
fn doctest_totals_are_summed_over_runs() {
    let report = report(&fixture("corpus13", "sphinx-doctest-pydash.txt"));
    assert_eq!(
        rendered(&report, "tests:"),
        "tests: 1,048 run, 1,040 passed, 8 failed (doctest, the totals of 7 runs)"
    );
}

/// Totals summed over runs (doctest's per file, shUnit2's per test file) are summed without
/// overflow whatever they say: the shapes still state them, saturated, rather than panic.
#[test]
fn summed_totals_saturate() {
    let max = u64::MAX;
    let doctest = format!("{max} tests in 1 items.\n{max} passed and 0 failed.\n").repeat(2);
    let summed = report(doctest.as_bytes());
    assert_eq!(fact(&summed, "doctest")["tests"], max);
    let shunit2 = format!("testA\n\nRan {max} tests.\n\nOK\n").repeat(2);
    let summed = report(shunit2.as_bytes());
    assert_eq!(fact(&summed, "shunit2")["run"], max);
}

/// A compiler's warnings of one kind at other places are listed when the list has room, each
/// with words of its own: rustdoc's broken links (corpus 27: crossbeam-utils, 31 warnings of
/// two kinds) name each missing item, where warnings that differ only by a number (gcc's
/// `region of size 82`, `… 87`, corpus 3: libsodium) are one warning.
#[test]
fn a_short_list_names_warnings_with_words_of_their_own() {
    let all = failures_within(
        &fixture("corpus27", "cargo-doc-broken-links-crossbeam-utils.txt"),
        u64::MAX,
    );
    line_with(
        &all,
        "src/lib.rs:23:22: warning: unresolved link to `sync::ShardedLock`",
    );
    line_with(
        &all,
        "src/sync/mod.rs:4:9: warning: unresolved link to `ShardedLock`",
    );
    line_with(
        &all,
        "src/sync/parker.rs:52:17: warning: unresolved link to `Unparker::unpark`",
    );
    assert_eq!(
        all.iter()
            .filter(|l| l.contains("to `ShardedLock`"))
            .count(),
        1,
        "{all:#?}"
    );
    let sodium = failures_within(&fixture("corpus3", "make-check-libsodium.txt"), u64::MAX);
    let overreads = |name: &str| {
        sodium
            .iter()
            .filter(|l| l.contains(&format!("‘{name}’ reading 128 bytes")))
            .count()
    };
    assert_eq!(overreads("crypto_pwhash_str_verify"), 1, "{sodium:#?}");
    assert_eq!(
        overreads("crypto_pwhash_argon2i_str_needs_rehash"),
        1,
        "{sodium:#?}"
    );
}

/// node-tap's reporter (corpus 28: hosted-git-info, 190,222 tokens of its live area redrawn):
/// its closing counts, the files that failed and each failed assertion from its block, with the
/// values compared and where; the lists of `✖` lines the live area and the summary print are
/// not failures of their own, and the zero-width spaces its renderer puts between colours are
/// not shown.
#[test]
fn node_tap_assertions_are_read_from_their_blocks() {
    let bytes = fixture("corpus28", "tap-hosted-git-info.txt");
    let r = report(&bytes);
    assert_eq!(shapes(&r), ["node-tap", "coverage"]);
    assert_eq!(
        rendered(&r, "tap:"),
        "tap: Suites: 3 failed, 5 passed, 8 of 8 completed · Asserts: 16 failed, 877 passed, of 893"
    );
    assert_eq!(
        rendered(&r, "files that failed"),
        "files that failed (3): test/bitbucket.js (8 failed of 137 2s), test/gist.js (6 failed \
         of 283 2s), test/github.js (2 failed of 173 1s)"
    );
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed assertions (16):");
    let first = line_with(&all, "L186 ");
    assert_eq!(
        first,
        "  L186 test/bitbucket.js string methods populate correctly › should be equal: expected: \
         https://bitbucket.org/foo/bar/src/HEAD/lib/index.js?mode=edit · actual: \
         https://bitbucket.org/foo/bar/tree/HEAD/lib/index.js?mode=edit · at test/bitbucket.js:182"
    );
}

/// HAProxy's log (corpus 28): its HTTP log lines are requests whose failures say the server
/// and the termination state (`sH--`: the server's timeout; `<NOSRV>`, `SC--`: none was up),
/// and its few warnings (`Server be_catalog/cat2 is DOWN`) are listed after its one alert, each
/// message once. A log of many different warnings (prettier's `[warn] FILE` per file, corpus
/// 22) lists none: they are a report's findings.
#[test]
fn a_log_lists_its_few_warnings_and_haproxy_requests_are_read() {
    let bytes = fixture("corpus28", "haproxy-db-log-backend-down.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "access log:").starts_with("access log: 159 requests, 26 failed (4xx/5xx)"),
        "{}",
        rendered(&r, "access log:")
    );
    let all = failures_within(&bytes, u64::MAX);
    line_with(
        &all,
        "L88 fe_web be_catalog/cat1 0/0/0/-1/3002 504 198 - - sH-- 1/1/0/0/0 0/0 \"GET /slow HTTP/1.1\"",
    );
    line_with(&all, "[ctxoff] warnings logged, each message once (5):");
    line_with(
        &all,
        "L90 [WARNING] Server be_catalog/cat2 is DOWN, reason:",
    );
    let prettier = failures_within(&fixture("corpus22", "prettier-check-zustand.txt"), u64::MAX);
    assert!(
        !prettier.iter().any(|l| l.contains("warnings logged")),
        "{prettier:#?}"
    );
}

/// prove's summary report names a file that failed by its exit status or an unparsable TAP
/// stream (`Tests: 7 Failed: 0`, then `Non-zero exit status: 255`, `Parse errors: No plan
/// found`) as failed too (corpus 28: Moo, three files, one with a failed test).
#[test]
fn prove_counts_a_file_that_died_among_its_failed_files() {
    let r = report(&fixture("corpus28", "prove-lv-moo.txt"));
    assert_eq!(
        rendered(&r, "prove:"),
        "prove: Files=71, Tests=825; Result: FAIL; failed files (3): t/accessor-pred-clear.t \
         (Tests: 7 Failed: 0; Non-zero exit status: 255; Parse errors: No plan found in TAP \
         output), t/accessor-roles.t (Tests: 10 Failed: 0; Non-zero exit status: 255; Parse \
         errors: No plan found in TAP output), t/method-generate-accessor.t (Tests: 49 Failed: \
         1; Failed test: 5)"
    );
}

/// A unittest failure is placed at the innermost frame of the project's own code, not in a
/// library it called (django-filter's `utils.py`, line 243, under Django's `timezone.py`), and
/// a message that goes on under its first line says its values there (mock's `expected call not
/// found.`, then `Expected: …` and `Actual: …`), corpus 28.
#[test]
fn a_unittest_failure_is_placed_in_its_own_code_with_its_message_whole() {
    let all = failures_within(
        &fixture("corpus28", "python-runtests-django-filter.txt"),
        u64::MAX,
    );
    let first = line_with(&all, "ERROR: test_datetime_string_is_parsed");
    assert!(
        first.contains("django_filters/utils.py\", line 243, in handle_timezone"),
        "{first}"
    );
    let mock = line_with(
        &all,
        "FAIL: test_filtering_start (tests.test_filters.DateFromToRangeFilterTests",
    );
    assert!(
        mock.contains(
            "AssertionError: expected call not found. · Expected: \
             filter(None__gte=datetime.date(2015, 4, 7)) · Actual: \
             filter(None__gt=datetime.date(2015, 4, 7))"
        ),
        "{mock}"
    );
}

/// uvu's default suite names a failure by its test alone, quoted whole: `FAIL  "static"`,
/// `FAIL  "inject "/foo/:bar/*" with [bar,*]"` (corpus 28: regexparam, 18 failed).
#[test]
fn uvu_failures_of_its_default_suite_are_all_read() {
    let bytes = fixture("corpus28", "npm-test-uvu-regexparam.txt");
    let all = failures_within(&bytes, u64::MAX);
    assert_eq!(all[0], "[ctxoff] failed tests (18):");
    line_with(&all, "FAIL  \"inject \"/foo/:bar/*\" with [bar,*]\"");
    line_with(&all, "(raw) exec");
}

/// uWSGI's log (corpus 28): its request lines (`[pid: …] PEER () {…} [DATE] GET /a =>
/// generated 0 bytes in 0 msecs (HTTP/1.1 500)`) are an access log, and its workers' deaths
/// (`DAMN ! worker 1 (pid: 27876) died, killed by signal 6`) and harakiri are errors.
#[test]
fn uwsgi_requests_and_workers_deaths_are_read() {
    let bytes = fixture("corpus28", "uwsgi-http-socket-harakiri-inventory.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "access log:").starts_with("access log: 42 requests, 4 failed (4xx/5xx)"),
        "{}",
        rendered(&r, "access log:")
    );
    assert!(
        rendered(&r, "log:").starts_with("log: 9 records (warning ×5, error ×4), first error L72"),
        "{}",
        rendered(&r, "log:")
    );
    let all = failures_within(&bytes, u64::MAX);
    line_with(
        &all,
        "L72 DAMN ! worker 1 (pid: 27876) died, killed by signal 6 :( trying respawn ...",
    );
    line_with(
        &all,
        "L61 GET /stock/sku-200 => generated 0 bytes in 0 msecs (HTTP/1.1 500)",
    );
}

/// `git shortlog` is content: its commits and authors are counted and the authors with the most
/// commits named, and the words of its subjects are no failures (corpus 28: the GitHub CLI,
/// whose subjects say `error` 25 times; corpus 16: werkzeug's `-sn`).
#[test]
fn git_shortlog_counts_commits_and_names_the_top_authors() {
    let r = report(&fixture(
        "corpus28",
        "git-shortlog-no-merges-tags-gh-cli.txt",
    ));
    assert_eq!(shapes(&r), ["git shortlog"]);
    assert_eq!(
        rendered(&r, "git shortlog:"),
        "git shortlog: 797 commits by 129 authors; most: Mislav Marohnić (105), vilmibm (84), \
         Sam Coe (82), Caleb Brose (53), JP Ungaretti (38)"
    );
    let bytes = fixture("corpus28", "git-shortlog-no-merges-tags-gh-cli.txt");
    let omitted = feed(&bytes, 0).0.finish(Some(40..=980));
    assert!(
        !omitted.render().iter().any(|l| l.contains("lines contain")),
        "{:#?}",
        omitted.render()
    );
    let sn = report(&fixture("corpus16", "git-shortlog-sn-werkzeug.txt"));
    assert_eq!(shapes(&sn), ["git shortlog"]);
}

/// `pnpm -r --parallel test:lib` over nine packages: their vitest runs interleaved, each line
/// behind `packages/x test:lib: ` (a script named with a colon). Each package's run is read
/// as its own, with its totals and failed tests; the whole read as one run would state the
/// last run's `11 passed` for all. pnpm 11's `[ERROR] pkg test:lib: …` lines name the failed
/// tasks.
#[test]
fn a_parallel_workspace_run_is_read_package_by_package() {
    let r = report(&fixture(
        "corpus29",
        "pnpm-r-parallel-no-bail-test-lib-tanstack-store.txt",
    ));
    assert_eq!(
        rendered(&r, "packages/vue-store test:lib: tests"),
        "packages/vue-store test:lib: tests: 33 run, 21 passed, 12 failed of 33 (vitest, Test \
         Files 1 failed of 2)"
    );
    assert!(
        rendered(&r, "packages/preact-store test:lib: tests").contains("2 failed of 50"),
        "{:#?}",
        r.render()
    );
    assert!(!r.render().iter().any(|l| l.starts_with("[ctxoff] tests: ")));
    assert_eq!(
        rendered(&r, "tasks"),
        "tasks (pnpm): 9 total, 5 successful, 4 failed: @tanstack/preact-store@0.13.2 \
         test:lib (exit 1), @tanstack/solid-store@0.11.1 test:lib (exit 1), \
         @tanstack/svelte-store@0.12.1 test:lib (exit 1), @tanstack/vue-store@0.11.1 test:lib \
         (exit 1)"
    );
    // One coverage table is quoted, not one per package: the others' counts are in their
    // lines.
    let tables = r.render().iter().filter(|l| l.starts_with("File ")).count();
    assert_eq!(tables, 1, "{:#?}", r.render());
}

/// TestNG's runner on Failsafe (`-verbose 2`): its `FAILED: name` lines are failed tests, not
/// a ninja build's targets; each is shown with its exception and the project's own frame it
/// failed in, under the suite's counts; `PASSED: shouldSupportErrors` is no example of an
/// error.
#[test]
fn testng_failures_are_tests_with_their_exception_and_place() {
    let bytes = fixture("corpus29", "testng-verbose2-failsafe.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests"),
        "tests: 306 run, 288 passed, 18 failed (TestNG)"
    );
    assert!(!r.render().iter().any(|l| l.contains("ninja")));
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    assert!(
        shown.contains(
            "L1,673 shouldGetSuccessAndFailureStats: java.lang.AssertionError: expected [43] but \
             found [57] · at dev.failsafe.CircuitBreakerTest.shouldGetSuccessAndFailureStats(\
             CircuitBreakerTest.java:48)"
        ),
        "{shown}"
    );
    assert!(!r.render().iter().any(|l| l.contains("PASSED: ")));
}

/// PHPMD's text report on league/csv: its violations, padded into columns and never totalled,
/// are counted by rule and file; the files its parser could not read come first, then each
/// rule's first violation, unused code first, each rule another way of failing (the unused
/// private method after the unused private field, not alike for their words).
#[test]
fn phpmd_violations_are_counted_by_rule_with_unused_code_first() {
    let bytes = fixture("corpus29", "phpmd-text-rulesets-league-csv.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "phpmd"),
        "phpmd: 171 violations in 25 files, 3 files it could not parse"
    );
    let shown = failures_within(&bytes, 500).join("\n");
    for wanted in [
        "Unexpected token: List, line: 18",
        "Writer.php:140 UnusedPrivateMethod Avoid unused private methods such as 'flushIfNeeded'.",
        "Reader.php:147 UnusedLocalVariable",
        "Statement.php:44 UnusedPrivateField",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// Common Test's console on recon: the run's `TEST COMPLETE, 30 ok, 4 failed, 1 skipped of 35
/// test cases` is its totals, and each case framed as `… failed on line N` / `Reason: …` is a
/// failed case with its line and reason, the fourth one too (past 370 lines of a passing
/// case's printout), within the tight budget.
#[test]
fn common_test_cases_fail_with_their_line_and_reason() {
    let bytes = fixture("corpus29", "ct-run-pa-dir-recon.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests"),
        "tests: 35 run, 30 passed, 4 failed, 1 skipped (Common Test)"
    );
    let shown = failures_within(&bytes, 300).join("\n");
    for wanted in [
        "recon_SUITE:udp: failed on line 235 · Reason: {badmatch,false}",
        "recon_alloc_SUITE:units: failed on line 162",
        "recon_lib:term_to_pid: failed on line 153 · Reason: {function_clause,",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// cucumber-js 10's progress summary on its own acceptance suite: its `Failed scenarios:`
/// number each scenario without its keyword (`1) Attach a string that is already base64
/// encoded # features/attachments.feature:31`), each failure a chai diff under its step; the
/// scenario under `Undefined scenarios:` fails at a step with no definition. Each is listed
/// with how it failed: the diff's change, the timeout's message, the undefined step.
#[test]
fn cucumber_js_scenarios_fail_with_their_diff_or_undefined_step() {
    let bytes = fixture("corpus29", "cucumber-js-acceptance-cucumber-js.txt");
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "features/order.feature:33 run in defined order scenario: undefined step: Then the \
         scenarios are reported in source order",
        "features/attachments.feature:31 Attach a string that is already base64 encoded: \
         AssertionError · -[ { \"body\": \"iVBORw==\"",
        "· +[] · at World.<anonymous> (/home/dev/cucumber-js/features/step_definitions/\
         message_steps.ts:187:34)",
        "Error: function timed out, ensure the promise resolves within 10000 milliseconds",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
    let r = report(&bytes);
    assert!(
        r.render()
            .iter()
            .any(|l| l.contains("failing scenarios (22)")),
        "{:?}",
        r.render()
    );
}

/// FiveAM on esrap (`asdf:test-system`, which exits 0): its `Did 5837 checks.` and `Pass:` /
/// `Fail:` lines are the counts, and each block under `Failure Details:` a failed check with
/// why, a wrapped description (`… [Test parsing … in case-insensitive` / `mode.]:`) no
/// obstacle: all 25 are listed.
#[test]
fn fiveam_failed_checks_are_listed_with_why() {
    let bytes = fixture("corpus30", "sbcl-asdf-test-system-esrap.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "FiveAM"),
        "FiveAM: 5,837 checks, 5,812 passed, 25 failed, 0 skipped"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    assert!(shown.contains("failed checks (25):"), "{shown}");
    for wanted in [
        "EXAMPLES-FROM-README.DECIMAL.INTERPRETED: Unexpected Error: \
         #<SB-INT:SIMPLE-PROGRAM-ERROR \"invalid number of arguments: ~S\" {1005E40FD3}> · \
         invalid number of arguments: 2.",
        "At foo bar ^ (Line 2, Column 4, Position 11) In context LINE:",
        "CHARACTER-RANGE.COMPILED: (PARSE '(CHARACTER-RANGES (#\\a #\\z) #\\-) \"a\" \
         :JUNK-ALLOWED T) · evaluated to NIL which is not EQUAL to #\\a",
        "PARSE.CASE-INSENSITIVE.INTERPRETED",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// FPCUnit's plain report on HashLib4Pascal: the `Number of …` totals, the suites whose
/// `N:… E:… F:…` line counts errors or failures, and the tests of `List of errors:` and `List
/// of failures:` with their messages, the error's with its exception's class.
#[test]
fn fpcunit_tests_are_listed_with_their_messages() {
    let bytes = fixture(
        "corpus30",
        "hashlibconsole-a-format-plain-hashlib4pascal.txt",
    );
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "tests"),
        "tests: 1,927 run, 1,913 passed, 13 failed, 1 errors (FPCUnit)"
    );
    assert_eq!(
        rendered(&r, "suites with"),
        "suites with errors or failures (5): TTestFNV1a F:4, TTestJenkins3 F:2, TTestKMAC128 F:2, \
         TTestKMAC256 F:4, TTestPBKDF_Scrypt E:1 F:1"
    );
    let shown = failures_within(&bytes, 300).join("\n");
    for wanted in [
        "TTestPBKDF_Scrypt.TestVectors: EArgumentHashLibException: Iteration must be greater \
         than zero.",
        "TTestFNV1a.TestDefaultData: \"Expected 1892F1F8 but got F343F928.\"",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// `nim check` on jsony: its `file(line, col) Error:` diagnostics are counted by level and
/// file, and the first of each kind listed, an undeclared identifier with the spelling
/// suggestion under it (the renamed proc), a generic's error with the caller's line it was
/// reached from.
#[test]
fn nim_diagnostics_are_counted_and_listed_with_their_context() {
    let bytes = fixture("corpus30", "nim-check-jsony.txt");
    let r = report(&bytes);
    assert!(
        rendered(&r, "compiler").starts_with("compiler: 146 errors, 23 warnings; "),
        "{:?}",
        r.render()
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "jsony.nim(161, 24) type mismatch: got 'uint32'",
        "jsony.nim(321, 7) undeclared identifier: 'skipValue' · candidates (edit distance, \
         scope distance); see '--spellSuggest': · (4, 4): 'skipJsonValue'",
        "undeclared field: 'toFloat32' for type system.float",
        "reached from /home/dev/jsony/tests/test_arrays.nim(12, 12) template/generic \
         instantiation of `fromJson` from here",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// webpack with ts-loader on tempo: each problem's header names only its file (`ERROR in
/// /p/tsup.config.ts`), its place on the `[tsl]` line under it; five problems in one file were
/// one. Each is told apart by its place and message and listed with its TypeScript error,
/// the first of each kind first.
#[test]
fn webpack_ts_loader_problems_are_told_apart_by_their_place() {
    let bytes = fixture("corpus30", "webpack-mode-production-ts-loader-tempo.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "webpack"),
        "webpack: 1 compilation: compiled with 66 errors; printed: 66 errors, 0 warnings (66 \
         distinct)"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "ERROR in /home/dev/tempo/tsup.config.ts(1,30): TS2307: Cannot find module 'tsup'",
        "ERROR in /home/dev/tempo/tsup.config.ts(13,22): TS7031: Binding element 'format'",
        "ERROR in /home/dev/tempo/src/add.ts(9,25): TS2305: Module '\"./types\"' has no \
         exported member 'MaybeDateInput'.",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}

/// `npm ls --depth=1` in date-io's workspace: the problems said on the tree's lines (`UNMET
/// DEPENDENCY luxon@^3.0.4`, `dayjs@1.11.13 invalid: …`, `… extraneous`) are listed, each
/// package once, the missing first; the counts are npm's own list's, after the tree (59: the
/// tree, cut at its depth, shows fewer), with its error code.
#[test]
fn npm_ls_problems_are_listed_from_the_tree_and_counted_from_npms_list() {
    let bytes = fixture("corpus30", "npm-ls-depth1-workspaces-date-io.txt");
    let r = report(&bytes);
    assert_eq!(
        rendered(&r, "npm ls"),
        "npm ls: 229 packages listed; npm's problems (ELSPROBLEMS, 59): 3 missing, 3 invalid, 53 \
         extraneous; 2 missing optional"
    );
    let shown = failures_within(&bytes, u64::MAX).join("\n");
    for wanted in [
        "L57 UNMET DEPENDENCY luxon@^3.0.4",
        "L17 dayjs@1.11.13 invalid: \"^2.0.0-alpha.4\" from packages/dayjs",
        "tslib@1.14.1 invalid: \"^2.5.0\" from packages/hijri",
    ] {
        assert!(shown.contains(wanted), "{wanted} in {shown}");
    }
}
