//! TestNG's text report (its own runner with `-verbose 2`, and Maven Surefire's TestNG
//! provider): a line per test method, `PASSED: name`, `SKIPPED: name`, or `FAILED: name` with
//! the exception under it (`java.lang.AssertionError: expected [43] but found [57]`) and its
//! stack (`\tat dev.failsafe.CircuitBreakerTest.shouldGet…(CircuitBreakerTest.java:48)`),
//! closed by each test's and the suite's counts between rules of `=`: `Total tests run: 306,
//! Failures: 18, Skips: 0` (TestNG 7 adds `Passes: 288`).
//!
//! Stated, once the suite's counts are read: those counts; each failed test, with its exception
//! and the frame of the project's own code it failed in (TestNG's `Assert`, the JDK's and
//! reflection's frames are not). A TestNG run is no ninja build: its `FAILED:` lines are tests.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::cut;

#[derive(Debug, Default)]
pub(crate) struct TestNg {
    failures: Failures,
    /// The suite's counts: run, failures, skips, and passes when printed.
    total: Option<(u64, u64, u64, Option<u64>)>,
    /// The failed test whose exception and stack are being read.
    reading: Reading,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum Reading {
    #[default]
    Nothing,
    /// The line after `FAILED: name`: its exception.
    Exception,
    /// Its stack, until a frame of the project's own code.
    Stack,
}

/// Frames of TestNG's, the JDK's and reflection's own code: not where a test failed.
const NOT_OWN: [&str; 6] = [
    "org.testng.",
    "java.",
    "javax.",
    "jdk.",
    "sun.",
    "org.junit.",
];

impl Shape for TestNg {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(name) = text.strip_prefix("FAILED: ") {
            self.failures.push(number, &cut(name.trim(), 200));
            self.reading = Reading::Exception;
            return;
        }
        match self.reading {
            Reading::Exception => {
                if let Some(f) = self.failures.current()
                    && !text.trim().is_empty()
                {
                    f.add_detail(&cut(text.trim(), 300));
                }
                self.reading = Reading::Stack;
                return;
            }
            Reading::Stack => match text.trim_start().strip_prefix("at ") {
                Some(frame) => {
                    if !NOT_OWN.iter().any(|p| frame.starts_with(p)) {
                        if let Some(f) = self.failures.current() {
                            f.add_detail(&format!("at {}", cut(frame, 200)));
                        }
                        self.reading = Reading::Nothing;
                    }
                    return;
                }
                _ => self.reading = Reading::Nothing,
            },
            Reading::Nothing => {}
        }
        if let Some(counts) = text.strip_prefix("Total tests run: ") {
            self.total = suite_counts(counts);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let (run, failed, skipped, passes) = self.total?;
        let passed = passes.unwrap_or(run.saturating_sub(failed).saturating_sub(skipped));
        let line = super::names::test_counts(
            run,
            Some(passed),
            failed,
            None,
            &[(skipped, "skipped")],
            "TestNG",
        );
        let json = json!({
            "shape": "testng",
            "run": run,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
        });
        let mut listed = self.failures;
        Some(
            Fact::new("testng", vec![line], json)
                .failures(listed.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'^FAILED: ' -A 1")
                // Its `FAILED: name` lines are ninja's form too.
                .supersedes(&["make"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
    }
}

/// `306, Failures: 18, Skips: 0` or `306, Passes: 288, Failures: 18, Skips: 0`: run, failures,
/// skips and passes.
fn suite_counts(counts: &str) -> Option<(u64, u64, u64, Option<u64>)> {
    let mut fields = counts.trim().split(", ");
    let run = fields.next()?.parse().ok()?;
    let (mut failed, mut skipped, mut passes) = (None, None, None);
    for field in fields {
        let (name, n) = field.split_once(": ")?;
        let n: u64 = n.trim().parse().ok()?;
        match name {
            "Failures" => failed = Some(n),
            "Skips" => skipped = Some(n),
            "Passes" => passes = Some(n),
            _ => {}
        }
    }
    Some((run, failed?, skipped?, passes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_tests_are_read_with_their_exception_and_own_frame() {
        let text = "PASSED: shouldSupportErrors\n\
                    FAILED: shouldGetSuccessAndFailureStats\n\
                    java.lang.AssertionError: expected [43] but found [57]\n\
                    \tat org.testng.Assert.fail(Assert.java:94)\n\
                    \tat org.testng.Assert.assertEquals(Assert.java:399)\n\
                    \tat dev.failsafe.CircuitBreakerTest.shouldGet(CircuitBreakerTest.java:48)\n\
                    \tat java.base/jdk.internal.reflect.Method.invoke(Method.java:568)\n\
                    \n\
                    ===============================================\n\
                    Default Suite\n\
                    Total tests run: 306, Failures: 18, Skips: 0\n\
                    ===============================================\n";
        let fact = super::super::read_lines::<TestNg>(text).expect("a TestNG run");
        assert_eq!(
            fact.lines,
            ["tests: 306 run, 288 passed, 18 failed (TestNG)"]
        );
        let failed: Vec<_> = fact.failures[0].iter().collect();
        assert_eq!(failed.len(), 1);
        assert_eq!(failed[0].name, "shouldGetSuccessAndFailureStats");
        assert_eq!(
            failed[0].detail,
            [
                "java.lang.AssertionError: expected [43] but found [57]",
                "at dev.failsafe.CircuitBreakerTest.shouldGet(CircuitBreakerTest.java:48)"
            ]
        );
    }

    #[test]
    fn without_the_suites_counts_it_is_no_testng_run() {
        let ninja = "[1/3] cc -c a.c\nFAILED: a.o\ncc -c a.c\na.c:1:1: error: x\n";
        assert!(super::super::read_lines::<TestNg>(ninja).is_none());
        assert_eq!(
            suite_counts("12, Passes: 10, Failures: 1, Skips: 1"),
            Some((12, 1, 1, Some(10)))
        );
    }
}
