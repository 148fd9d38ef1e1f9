//! OCaml's Alcotest: a line per test (`  [OK]          codec                0   RFC4648 test
//! vectors.`, `> [FAIL]        codec …` for the first failure, `[SKIP]`, `[TODO]`), then the
//! first failure's report in a box (`│ [FAIL]        codec …   │`; every failure's with
//! `--show-errors`): the test's log (`ASSERT encode f`, `FAIL encode f`), the values compared
//! (`   Expected: `"Zg=="'`, `   Received: `"ZgA="'`) or the exception (`[exception] Not_found`,
//! `[failure] …`, `[invalid] …`), its backtrace, and where its log was saved; then `Full test
//! results in `…'.` and `2 failures! in 0.012s. 27 tests run.` (or `Test Successful in …`).
//! Counted from the test lines; each failed test is listed, with its report's message, values
//! and the frame of the project's code where it was raised, when the report was printed.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::json;

use super::names::Failures;
use super::ounit::{frame, is_own, place};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

const KEPT_CHARS: usize = 200;
/// Lines of a report read at most.
const REPORT_LINES: usize = 200;

#[derive(Debug, Default)]
pub(crate) struct Alcotest {
    /// Test lines read: passed, failed, skipped, todo.
    tests: [u64; 4],
    failures: Failures,
    /// The failure whose boxed report is being read, once its box closed.
    report: Option<Report>,
    /// The box's top line was read: its middle line names the failure.
    in_box: bool,
    /// Closing lines read (`2 failures! in …`, `Test Successful in …`), and the failures and
    /// tests they state, summed.
    closings: u64,
    stated: [u64; 2],
    /// Where the full results are (`Full test results in `…'.`), the last one said.
    results: Option<String>,
}

#[derive(Debug, Default)]
struct Report {
    name: String,
    lines: usize,
    message: Option<String>,
    values: Vec<String>,
    raised: Option<String>,
    frame: Option<String>,
    /// The first line of the test's own log, when nothing else tells how it failed.
    other: Option<String>,
}

static TEST_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[> ] \[(OK|FAIL|SKIP|TODO)\] +(\S.*?) +(\d+)   (.*?)\.?$").expect("valid regex")
});

impl Shape for Alcotest {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("│ ") {
            if self.in_box
                && let Some((result, name)) =
                    test_line(&format!("  {}", rest.trim_end_matches([' ', '│'])))
                && result == "FAIL"
            {
                self.end_report();
                self.report = Some(Report {
                    name,
                    ..Report::default()
                });
            }
            return;
        }
        self.in_box = text.starts_with("┌─");
        if self.in_box || text.starts_with("└─") {
            return;
        }
        if text.starts_with(" ──") {
            self.end_report();
            return;
        }
        if text.starts_with("  [") || text.starts_with("> [") {
            if let Some((result, name)) = test_line(text) {
                self.end_report();
                let at = ["OK", "FAIL", "SKIP", "TODO"]
                    .iter()
                    .position(|r| *r == result)
                    .unwrap_or(0);
                self.tests[at] += 1;
                if result == "FAIL" {
                    self.failures.push(number, &name);
                }
            }
            return;
        }
        if let Some(rest) = text.strip_prefix("Full test results in `") {
            self.end_report();
            self.results = Some(cut(rest.trim_end_matches(['.', '\'']), KEPT_CHARS));
            return;
        }
        if let Some(stated) = closing(text) {
            self.end_report();
            self.closings += 1;
            for (sum, n) in self.stated.iter_mut().zip(stated) {
                *sum = sum.saturating_add(n);
            }
            return;
        }
        if let Some(report) = &mut self.report {
            report.lines += 1;
            if report.lines > REPORT_LINES {
                self.end_report();
            } else {
                report.read(text);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_report();
        let [passed, failed, skipped, todo] = self.tests;
        let run = passed + failed + skipped + todo;
        if run == 0 || (self.closings == 0 && self.results.is_none()) {
            return None;
        }
        let mut line = format!(
            "Alcotest: {}, {} passed, {} failed",
            plural(run, "test", "tests"),
            thousands(passed),
            thousands(failed)
        );
        for (n, what) in [(skipped, "skipped"), (todo, "todo")] {
            if n > 0 {
                line.push_str(&format!(", {} {what}", thousands(n)));
            }
        }
        let mut lines = vec![line];
        let reported = self.failures.iter().filter(|f| f.has_detail()).count() as u64;
        if let Some(results) = &self.results
            && failed > reported
        {
            lines.push(format!(
                "Alcotest printed the report of {} of {} failures; all are in {results}",
                thousands(reported),
                thousands(failed)
            ));
        }
        let json = json!({
            "shape": "alcotest",
            "tests": run,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "todo": todo,
            "closing_failures": self.stated[0],
            "closing_tests_run": self.stated[1],
            "results": self.results,
        });
        Some(
            Fact::new("alcotest", lines, json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(
                    failed > 0,
                    "'\\[FAIL\\]|Expected: |Received: |^\\[(exception|failure|invalid)\\] '",
                ),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.results.as_ref().map_or(0, String::capacity)
            + self.report.as_ref().map_or(0, |r| {
                r.name.capacity()
                    + [&r.message, &r.raised, &r.frame, &r.other]
                        .iter()
                        .map(|s| s.as_ref().map_or(0, String::capacity))
                        .sum::<usize>()
                    + r.values.iter().map(String::capacity).sum::<usize>()
            })
    }
}

impl Alcotest {
    fn end_report(&mut self) {
        let Some(report) = self.report.take() else {
            return;
        };
        let Some(failure) = self.failures.named(&report.name) else {
            return;
        };
        if failure.has_detail() {
            return;
        }
        let said = report.message.iter().chain(&report.raised);
        let told = said.clone().next().is_some() || !report.values.is_empty();
        for line in said.chain(&report.values).chain(report.frame.as_ref()) {
            failure.add_detail(line);
        }
        if !told && let Some(other) = &report.other {
            failure.add_detail(other);
        }
    }
}

impl Report {
    fn read(&mut self, text: &str) {
        let t = text.trim();
        if t.is_empty() || t.starts_with("ASSERT ") || t.starts_with("Logs saved to ") {
            return;
        }
        if let Some(message) = t.strip_prefix("FAIL ") {
            self.message.get_or_insert_with(|| cut(message, KEPT_CHARS));
        } else if t.starts_with("Expected: ") || t.starts_with("Received: ") {
            if self.values.len() < 2 {
                self.values.push(cut(t, KEPT_CHARS));
            }
        } else if ["[exception] ", "[failure] ", "[invalid] "]
            .iter()
            .any(|p| t.starts_with(p))
        {
            self.raised.get_or_insert_with(|| cut(t, KEPT_CHARS));
        } else if let Some(function) = frame(t) {
            if self.frame.is_none() && is_own(function) && !function.starts_with("Alcotest") {
                self.frame = Some(cut(place(t), KEPT_CHARS));
            }
        } else {
            self.other.get_or_insert_with(|| cut(t, KEPT_CHARS));
        }
    }
}

/// The result and the test's name (`codec 0 RFC4648 test vectors`) of a test line, `  [FAIL]
/// codec                0   RFC4648 test vectors.`.
fn test_line(text: &str) -> Option<(&str, String)> {
    let c = TEST_LINE.captures(text)?;
    let field = |i| c.get(i).map_or("", |m| m.as_str());
    let name = format!("{} {} {}", field(2).trim_end(), field(3), field(4));
    Some((field(1), name))
}

/// The failures and tests run of `2 failures! in 0.012s. 27 tests run.`, or `Test Successful
/// in 0.017s. 27 tests run.`.
fn closing(text: &str) -> Option<[u64; 2]> {
    // Read from the first byte only: most lines are no closing line.
    if !text.starts_with(|c: char| c.is_ascii_digit() || c == 'T') {
        return None;
    }
    let (head, rest) = text.split_once(" in ")?;
    let failures = if head == "Test Successful" {
        0
    } else {
        let n = head
            .strip_suffix(" failures!")
            .or_else(|| head.strip_suffix(" failure!"))?;
        n.parse().ok()?
    };
    let (_, run) = rest.split_once("s. ")?;
    let run = run
        .strip_suffix(" tests run.")
        .or_else(|| run.strip_suffix(" test run."))?;
    Some([failures, run.parse().ok()?])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_lines_and_closing_lines() {
        assert_eq!(
            test_line("> [FAIL]        codec                0   RFC4648 test vectors."),
            Some(("FAIL", "codec 0 RFC4648 test vectors".to_owned()))
        );
        assert_eq!(
            test_line("  [OK]          rfc2045 (2)          5   relaxed rfc2045 - 05."),
            Some(("OK", "rfc2045 (2) 5 relaxed rfc2045 - 05".to_owned()))
        );
        assert_eq!(test_line("  [OK] done"), None);
        assert_eq!(
            closing("2 failures! in 0.012s. 27 tests run."),
            Some([2, 27])
        );
        assert_eq!(
            closing("Test Successful in 0.017s. 1 test run."),
            Some([0, 1])
        );
        assert_eq!(closing("Two failures! in a row."), None);
    }

    #[test]
    fn each_failure_with_its_report_when_printed() {
        let rule = "─".repeat(78);
        let text = format!(
            "Testing `Base64'.\n  [OK]          a          0   one.\n\
             > [FAIL]        a          1   two.\n  [FAIL]        b          0   three.\n\
             ┌{rule}┐\n│ [FAIL]        a          1   two.       │\n└{rule}┘\n\n\
             ASSERT encode f\nFAIL encode f\n\n   Expected: `\"Zg==\"'\n   Received: `\"ZgA=\"'\n\n\
             Raised at Alcotest_engine__Test.check in file \"src/test.ml\", line 196, characters 4-261\n\
             Called from Dune__exe__Test.test_two in file \"test/test.ml\", line 132, characters 6-95\n\n\
             Logs saved to `/x/_tests/B/a.001.output'.\n {rule}\n\n\
             Full test results in `/x/_tests/B'.\n2 failures! in 0.012s. 3 tests run.\n"
        );
        let mut shape = Box::<Alcotest>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines,
            [
                "Alcotest: 3 tests, 1 passed, 2 failed",
                "Alcotest printed the report of 1 of 2 failures; all are in /x/_tests/B"
            ]
        );
        let kept = &fact.failures[0].kept;
        assert_eq!(kept[0].name, "a 1 two");
        assert_eq!(
            kept[0].detail,
            [
                "encode f",
                "Expected: `\"Zg==\"'",
                "Received: `\"ZgA=\"'",
                "Called from Dune__exe__Test.test_two in file \"test/test.ml\", line 132"
            ]
        );
        assert_eq!(kept[1].name, "b 0 three");
        assert!(kept[1].detail.is_empty());
    }
}
