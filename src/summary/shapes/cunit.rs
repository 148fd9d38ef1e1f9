//! CUnit's basic interface: `Suite: name`, then a line per test, `  Test: name ...passed` or
//! `  Test: name ...FAILED` with its failed assertions numbered under it
//! (`    1. test.c:1045  - 0 == stream->recv_window_size`), and CUnit's closing table (`Run
//! Summary:    Type  Total    Ran Passed Failed Inactive`, then `suites`, `tests` and `asserts`
//! rows). The table's rows are stated as printed; each failed test is listed with its first
//! failed assertions.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::thousands;

#[derive(Debug, Default)]
pub(crate) struct Cunit {
    passed: u64,
    failed: u64,
    /// Reading the failed assertions of the test that failed last.
    in_failure: bool,
    /// The closing table's rows (`tests 211 211 207 4 0`), once `Run Summary:` was read.
    in_summary: bool,
    rows: Vec<String>,
    failures: Failures,
}

/// The closing table's rows, in CUnit's order.
const ROWS: [&str; 3] = ["suites", "tests", "asserts"];

impl Shape for Cunit {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(test) = text.strip_prefix("  Test: ") {
            self.in_failure = false;
            if let Some(name) = test.strip_suffix(" ...FAILED") {
                self.failed += 1;
                self.failures.push_said(number, name, text);
                self.in_failure = true;
            } else if test.ends_with(" ...passed") {
                self.passed += 1;
            }
            return;
        }
        if self.in_failure {
            // `    1. test.c:1045  - 0 == x`
            let t = text.trim_start();
            let digits = t.bytes().take_while(u8::is_ascii_digit).count();
            if digits > 0 && t[digits..].starts_with(". ") {
                if let Some(f) = self.failures.current() {
                    f.add_detail(t);
                }
                return;
            }
            self.in_failure = false;
        }
        if text.starts_with("Run Summary:") {
            self.in_summary = true;
            self.rows.clear();
            return;
        }
        if self.in_summary {
            let t = text.trim_start();
            let row = ROWS
                .iter()
                .any(|r| t.strip_prefix(r).is_some_and(|rest| rest.starts_with(' ')));
            if row && self.rows.len() < ROWS.len() {
                self.rows
                    .push(t.split_whitespace().collect::<Vec<_>>().join(" "));
            } else {
                self.in_summary = false;
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.passed + self.failed == 0 {
            return None;
        }
        let mut lines = vec![format!(
            "CUnit: {} passed, {} failed",
            thousands(self.passed),
            thousands(self.failed)
        )];
        if !self.rows.is_empty() {
            lines.push(format!(
                "CUnit's run summary (Total Ran Passed Failed Inactive): {}",
                self.rows.join(" · ")
            ));
        }
        let json = json!({
            "shape": "cunit",
            "passed": self.passed,
            "failed": self.failed,
            "summary": self.rows,
        });
        let failures = self.failures.take_as("failed tests");
        Some(
            Fact::new("cunit", lines, json)
                .failures(failures)
                .hint("'\\.\\.\\.FAILED$' -A 3"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.rows.iter().map(String::capacity).sum::<usize>() + self.failures.approx_heap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_tests_with_their_assertions_and_the_closing_table() {
        let text = "Suite: main\n  Test: a ...passed\n  Test: b ...FAILED\n    \
                    1. t.c:10  - 0 == x\n    2. t.c:11  - 1 == y\n  Test: c ...passed\n\n\
                    Run Summary:    Type  Total    Ran Passed Failed Inactive\n              \
                    suites      1      1    n/a      0        0\n               \
                    tests      3      3      2      1        0\n             \
                    asserts      9      9      7      2      n/a\n\nElapsed time = 0.1 seconds\n";
        let mut shape = Box::<Cunit>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines,
            [
                "CUnit: 2 passed, 1 failed",
                "CUnit's run summary (Total Ran Passed Failed Inactive): suites 1 1 n/a 0 0 · \
                 tests 3 3 2 1 0 · asserts 9 9 7 2 n/a"
            ]
        );
        let failed = &fact.failures[0].kept[0];
        assert_eq!(failed.name, "b");
        assert_eq!(
            failed.detail,
            ["1. t.c:10  - 0 == x", "2. t.c:11  - 1 == y"]
        );
    }
}
