//! Python test runners that head each failure with a line of their own and print its
//! traceback under it:
//!
//! - zope.testrunner: `Failure in test test_x (pkg.tests.Class.test_x)` or `Error in test …`,
//!   then `Traceback (most recent call last):`; each layer's total is
//!   `  Ran 1097 tests with 21 failures, 32 errors and 1 skipped in 0.409 seconds.`, and a run
//!   of several layers closes with `Total: 1200 tests, 21 failures, 32 errors and 1 skipped …`.
//! - green: `Failure in tests.Class.test_x (doc={…})` or `Error in …`, the frames right under
//!   it; `Ran 429 tests in 4.826s using 2 processes`, then
//!   `FAILED (errors=68, failures=44, passes=317)` or `OK (passes=12, skips=1)`.
//!
//! A failure's detail is what was raised in the end, where in the project's own code and
//! from which line of a test file (see [`TestTraceback`]). The counts are stated only once
//! the runner's own total was read: `Error in …` is something many logs say.

use serde_json::json;

use super::names::{Failures, test_counts};
use super::pytrace::TestTraceback;
use super::unittest::test_id;
use super::{Fact, Shape};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Runner {
    Zope,
    Green,
}

impl Runner {
    fn name(self) -> &'static str {
        match self {
            Runner::Zope => "zope.testrunner",
            Runner::Green => "green",
        }
    }
}

/// Counts in the runner's order: run, failures, errors, skipped, passed (green says it).
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    ran: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
    passed: Option<u64>,
}

#[derive(Debug, Default)]
pub(crate) struct Headed {
    runner: Option<Runner>,
    /// zope's layers' `Ran …` lines, added up.
    layers: Option<Counts>,
    /// zope's `Total: …` or green's verdict: the whole run's.
    total: Option<Counts>,
    /// green's `Ran 429 tests in …`, until its verdict.
    green_ran: Option<u64>,
    /// `Failure in` and `Error in` headings read.
    headings: [u64; 2],
    failures: Failures,
    /// The traceback of the failure being read.
    trace: Option<TestTraceback>,
}

impl Shape for Headed {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((kind, runner, name)) = heading(text) {
            self.end_failure();
            self.runner.get_or_insert(runner);
            self.headings[kind] += 1;
            self.failures.push_said(number, &name, text);
            self.trace = Some(match runner {
                Runner::Zope => TestTraceback::default(),
                Runner::Green => TestTraceback::open(),
            });
            return;
        }
        if let Some(trace) = &mut self.trace {
            trace.line(text);
            if !trace.is_done() {
                return;
            }
        }
        if let Some(c) = zope_ran(text) {
            self.end_failure();
            let sum = self.layers.get_or_insert_with(Counts::default);
            sum.ran += c.ran;
            sum.failures += c.failures;
            sum.errors += c.errors;
            sum.skipped += c.skipped;
        } else if let Some(rest) = text.strip_prefix("Total: ")
            && self.layers.is_some()
        {
            self.total = zope_counts(rest);
        } else if let Some(ran) = green_ran(text) {
            self.end_failure();
            self.green_ran = Some(ran);
        } else if let Some(ran) = self.green_ran
            && let Some(c) = green_verdict(text, ran)
        {
            self.total = Some(c);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_failure();
        let runner = self.runner.unwrap_or(match self.green_ran {
            Some(_) => Runner::Green,
            None => Runner::Zope,
        });
        let c = match runner {
            Runner::Zope => self.total.or(self.layers)?,
            // unittest's own verdict reads the same, but for green's `passes=`: without it or
            // one of green's headings, the run is unittest's.
            Runner::Green => self
                .total
                .filter(|c| c.passed.is_some() || self.runner.is_some())?,
        };
        let passed = c
            .passed
            .unwrap_or_else(|| c.ran.saturating_sub(c.failures + c.errors + c.skipped));
        let line = test_counts(
            c.ran,
            Some(passed),
            c.failures,
            Some(c.errors),
            &[(c.skipped, "skipped")],
            runner.name(),
        );
        let json = json!({
            "shape": runner.name(),
            "ran": c.ran,
            "passed": passed,
            "failed": c.failures,
            "errors": c.errors,
            "skipped": c.skipped,
            "headings": {"failure": self.headings[0], "error": self.headings[1]},
        });
        let hint = match runner {
            Runner::Zope => "'^(Failure|Error) in test ' -A 20",
            Runner::Green => "'^(Failure|Error) in ' -A 20",
        };
        let listed = self.failures.take_as("failed tests and errors");
        Some(
            Fact::new(runner.name(), vec![line], json)
                .failures(listed)
                .hint_if_failed(c.failures + c.errors > 0, hint)
                .supersedes(&["log", "unittest"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + std::mem::size_of::<TestTraceback>()
    }
}

impl Headed {
    /// The failure being read is complete: its traceback is its detail.
    fn end_failure(&mut self) {
        if let Some(trace) = self.trace.take() {
            self.failures.add_details(&trace.details());
        }
    }
}

/// `Failure in test test_x (pkg.Class.test_x)` (zope) or `Error in tests.Class.test_x (a=1)`
/// (green): 0 for a failure, 1 for an error, the runner and the test's name.
fn heading(text: &str) -> Option<(usize, Runner, String)> {
    let (kind, rest) = match text.strip_prefix("Failure in ") {
        Some(rest) => (0, rest),
        None => (1, text.strip_prefix("Error in ")?),
    };
    if let Some(test) = rest.strip_prefix("test ") {
        return Some((kind, Runner::Zope, test_id(test)?));
    }
    // green: a dotted name, then the subtest's parameters, if any.
    let (id, params) = rest.split_once(' ').unwrap_or((rest, ""));
    // (`green.loader.N/A.poolRunner` when a module failed to load)
    let dotted = id.contains('.') && !id.ends_with('.') && !id.ends_with(':');
    (dotted && (params.is_empty() || params.starts_with('(')))
        .then(|| (kind, Runner::Green, rest.to_owned()))
}

/// A zope layer's `  Ran 1097 tests with 21 failures, 32 errors and 1 skipped in 0.4 seconds.`
fn zope_ran(text: &str) -> Option<Counts> {
    let rest = text.trim_start().strip_prefix("Ran ")?;
    let (ran, rest) = rest
        .split_once(" tests with ")
        .or(rest.split_once(" test with "))?;
    let mut c = zope_counts(rest)?;
    c.ran = ran.parse().ok()?;
    Some(c)
}

/// `21 failures, 32 errors and 1 skipped in …` (after `Total: 1200 tests, `, the run too).
fn zope_counts(text: &str) -> Option<Counts> {
    let (counts, _) = text.split_once(" in ")?;
    let mut c = Counts::default();
    let mut seen = false;
    for part in counts.split(", ").flat_map(|p| p.split(" and ")) {
        let (n, word) = part.trim().split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        match word {
            "tests" | "test" => c.ran = n,
            "failures" | "failure" => c.failures = n,
            "errors" | "error" => c.errors = n,
            "skipped" => c.skipped = n,
            _ => return None,
        }
        seen = true;
    }
    seen.then_some(c)
}

/// green's `Ran 429 tests in 4.826s using 2 processes` → 429.
fn green_ran(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Ran ")?;
    let (n, rest) = rest.split_once(' ')?;
    let timed = rest
        .strip_prefix("tests in ")
        .or(rest.strip_prefix("test in "))?;
    timed
        .split(' ')
        .next()
        .is_some_and(|t| t.ends_with('s'))
        .then(|| n.parse().ok())
        .flatten()
}

/// green's `FAILED (errors=68, failures=44, passes=317)` or `OK (passes=12, skips=1)`.
fn green_verdict(text: &str, ran: u64) -> Option<Counts> {
    let rest = text
        .strip_prefix("FAILED (")
        .or(text.strip_prefix("OK ("))?
        .strip_suffix(')')?;
    let mut c = Counts {
        ran,
        ..Counts::default()
    };
    for part in rest.split(", ") {
        let (word, n) = part.split_once('=')?;
        let n: u64 = n.parse().ok()?;
        match word {
            "failures" => c.failures = n,
            "errors" => c.errors = n,
            "skips" => c.skipped = n,
            "passes" => c.passed = Some(n),
            "expected_failures" | "unexpected_successes" => {}
            _ => return None,
        }
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_and_totals_of_both_runners() {
        assert_eq!(
            heading("Failure in test test_x (pkg.tests.Class.test_x)"),
            Some((0, Runner::Zope, "pkg.tests.Class.test_x".into()))
        );
        assert_eq!(
            heading("Error in tests.Class.test_js (comment=None)"),
            Some((
                1,
                Runner::Green,
                "tests.Class.test_js (comment=None)".into()
            ))
        );
        assert_eq!(heading("Error in module loading: boom"), None);
        let c = zope_ran(
            "  Ran 1097 tests with 21 failures, 32 errors and 1 skipped in 0.409 seconds.",
        )
        .unwrap();
        assert_eq!((c.ran, c.failures, c.errors, c.skipped), (1097, 21, 32, 1));
        let c =
            zope_counts("1200 tests, 2 failures, 0 errors and 0 skipped in 3.1 seconds.").unwrap();
        assert_eq!((c.ran, c.failures), (1200, 2));
        assert_eq!(
            green_ran("Ran 429 tests in 4.826s using 2 processes"),
            Some(429)
        );
        let c = green_verdict("FAILED (errors=68, failures=44, passes=317)", 429).unwrap();
        assert_eq!((c.errors, c.failures, c.passed), (68, 44, Some(317)));
        assert!(green_verdict("FAILED (widgets=3)", 3).is_none());
    }
}
