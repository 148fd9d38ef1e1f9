//! Node's test runner with its spec reporter (`node --test`, the default on a terminal, and
//! `--test-reporter=spec`): a line per test, `✔ name (1.2ms)`, `✖ name (3ms)` with its error
//! indented under it, `﹣ name (0.1ms) # SKIP`, a suite's tests indented under its `▶ name`;
//! the totals, `ℹ tests 184`, `ℹ pass 174`, `ℹ fail 10` …; then, since Node 20, each failed
//! test again under `✖ failing tests:`, after the place it was defined (`test at
//! test/a.test.js:29:1`).
//!
//! A failed test is named by its line as printed, its detail read from its error: the message
//! (`AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:`), the values that
//! follow it (under `+ actual - expected`, the first line of each, labelled), and the first
//! frame in the project's files. When the run lists its failed tests again, that list is read
//! in place of the tests' lines (a failed suite's line has no error of its own).

use serde_json::json;

use super::names::{Failures, test_counts};
use super::{Fact, Shape};

/// Lines of a failure's error read for its message and values (past them, only for its first
/// frame in the project's files).
const ERROR_LINES: usize = 60;

/// The totals, as the reporter names them, in its order.
const TOTALS: [&str; 7] = [
    "tests",
    "suites",
    "pass",
    "fail",
    "cancelled",
    "skipped",
    "todo",
];

#[derive(Debug, Default)]
pub(crate) struct NodeSpec {
    totals: [Option<u64>; 7],
    /// `✖` lines read before the list of failed tests.
    failed_lines: u64,
    failures: Failures,
    /// Past `✖ failing tests:`.
    listed: bool,
    /// The error being read: the failed test's line's indent, and what is read of it.
    error: Option<Error>,
    /// Where the failed test listed next was defined: `test at test/a.test.js:29:1`.
    defined: Option<String>,
    /// Where each failed test listed was defined, by the line that lists it (the failures
    /// kept: those past them are counted, not named).
    places: Vec<(u64, String)>,
}

/// Places of failed tests remembered, to tell apart those of one name.
const PLACES_KEPT: usize = 256;

#[derive(Debug, Default)]
struct Error {
    indent: usize,
    lines: usize,
    message: bool,
    /// The message ended with `:`: its values follow.
    values_next: bool,
    in_diff: bool,
    /// The first `+` and `-` lines of the diff are read.
    diff: [bool; 2],
    framed: bool,
}

impl Shape for NodeSpec {
    fn line(&mut self, number: u64, text: &str) {
        let indent = text.len() - text.trim_start_matches(' ').len();
        let t = &text[indent..];
        if let Some(error) = &self.error
            && (t.is_empty() || indent > error.indent)
        {
            self.error_line(t);
            return;
        }
        self.error = None;
        if let Some(rest) = t.strip_prefix("ℹ ") {
            if let Some((word, n)) = rest.split_once(' ')
                && let Some(i) = TOTALS.iter().position(|w| *w == word)
            {
                self.totals[i] = n.parse().ok();
            }
            return;
        }
        if t == "✖ failing tests:" {
            // Each failed test again, with its error: read from here on, once each.
            self.listed = true;
            self.failures = Failures::default();
            return;
        }
        if self.listed
            && let Some(place) = t.strip_prefix("test at ")
        {
            self.defined = Some(crate::format::cut(place, 200));
            return;
        }
        let defined = self.defined.take();
        if t.starts_with("✖ ") && timed(t) {
            if !self.listed {
                self.failed_lines += 1;
            } else if let Some(place) = defined
                && self.places.len() < PLACES_KEPT
            {
                self.places.push((number, place));
            }
            let start = "✖ ".len();
            let end = t.rfind(" (").filter(|&e| e >= start).unwrap_or(t.len());
            let name = t[start..end].trim_end();
            self.failures.push_said(number, name, t.trim_end());
            self.error = Some(Error {
                indent,
                ..Error::default()
            });
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let [tests, suites, pass, fail, cancelled, skipped, todo] = self.totals;
        let (tests, pass, fail) = (tests?, pass?, fail?);
        let (cancelled, skipped, todo) = (
            cancelled.unwrap_or(0),
            skipped.unwrap_or(0),
            todo.unwrap_or(0),
        );
        let others = [
            (cancelled, "cancelled"),
            (skipped, "skipped"),
            (todo, "todo"),
        ];
        let line = test_counts(tests, Some(pass), fail, None, &others, "node --test");
        let json = json!({
            "shape": "node test",
            "tests": tests,
            "suites": suites,
            "passed": pass,
            "failed": fail,
            "cancelled": cancelled,
            "skipped": skipped,
            "todo": todo,
            "lines": {"failed": self.failed_lines, "listed": self.listed},
        });
        self.tell_apart();
        let listed = self.failures.take_as("failed tests");
        Some(
            Fact::new("node test", vec![line], json)
                .failures(listed)
                .hint_if_failed(fail + cancelled > 0, "'^\\s*✖ ' -A 12")
                .supersedes(&["log"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.defined.as_ref().map_or(0, String::capacity)
            + self
                .places
                .iter()
                .map(|(_, p)| p.capacity() + 8)
                .sum::<usize>()
    }
}

impl NodeSpec {
    /// Failed tests of one name (`with trailing slash`, in two suites) are told apart in a
    /// list of names by where they were defined, as the list printed it (`test at
    /// test/errors.test.js:295:3`); a test detailed says where it failed.
    fn tell_apart(&mut self) {
        let names: Vec<String> = self.failures.iter().map(|f| f.name.clone()).collect();
        for f in self.failures.iter_mut() {
            if names.iter().filter(|n| **n == f.name).count() < 2 {
                continue;
            }
            let Some((_, place)) = self.places.iter().find(|(line, _)| *line == f.line) else {
                continue;
            };
            f.name = format!("{} ({place})", f.name);
        }
    }

    /// A line of a failed test's error (`t`, its indent taken off).
    fn error_line(&mut self, t: &str) {
        let Some(error) = &mut self.error else {
            return;
        };
        error.lines += 1;
        if t.is_empty() {
            return;
        }
        let Some(failure) = self.failures.current() else {
            return;
        };
        if error.lines > ERROR_LINES {
            // Past a long diff, where the test failed is still looked for.
            if !error.framed {
                error.framed = super::tap::stack_line(t, false, failure).unwrap_or(false);
            }
            return;
        }
        if !error.message {
            error.message = true;
            error.values_next = t.ends_with(':');
            failure.add_detail(t);
            return;
        }
        if error.values_next {
            if t == "+ actual - expected" {
                error.in_diff = true;
                return;
            }
            if error.in_diff {
                for (i, which) in [("+ ", "actual"), ("- ", "expected")].iter().enumerate() {
                    if !error.diff[i] && t.starts_with(which.0) && t.len() > 2 {
                        error.diff[i] = true;
                        let value = t[2..].trim();
                        failure.add_detail(&format!("{}{value} ({})", which.0, which.1));
                        return;
                    }
                }
            } else if !t.starts_with("at ") {
                // `assert.ok(x)`, `1 !== 2`: the values on one line.
                error.values_next = false;
                failure.add_detail(t);
                return;
            }
        }
        if let Some(framed) = super::tap::stack_line(t, error.framed, failure) {
            error.framed = framed;
            error.values_next = false;
        }
    }
}

/// Whether a test's line ends with its time (`name (1.2ms)`), which a suite's opening line
/// and an error's text do not.
fn timed(t: &str) -> bool {
    t.trim_end()
        .strip_suffix("ms)")
        .and_then(|r| r.rsplit_once(" ("))
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_s_line_ends_with_its_time() {
        assert!(timed("✖ returns non-chunked payload (10.079455ms)"));
        assert!(timed("✖ a (b) (3ms)"));
        assert!(!timed("✖ failing tests:"));
        assert!(!timed("✖ a (b)"));
    }

    #[test]
    fn a_line_without_a_name_is_read_without_a_panic() {
        let mut spec = NodeSpec::default();
        for (k, line) in ["✖ (3ms)", "✖  (3ms)", "ℹ tests 2", "ℹ pass 0", "ℹ fail 2"]
            .iter()
            .enumerate()
        {
            spec.line(k as u64 + 1, line);
        }
        let fact = Box::new(spec).finish().expect("a run");
        assert_eq!(fact.failures[0].total, 2);
    }
}
