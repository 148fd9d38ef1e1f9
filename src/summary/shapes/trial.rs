//! Twisted's trial: after the run, a block per failure between lines of `=`, headed `[FAIL]`
//! or `[ERROR]`, its traceback, then the ids of the tests that failed that way
//! (`treq.test.test_auth.AddAuthTests.test_add_basic_auth`, one or several); then
//! `Ran 248 tests in 6.150s` and `FAILED (failures=17, errors=7, successes=224)` or
//! `PASSED (successes=12)`. Each test named under a block fails with what its traceback
//! raised (see [`TestTraceback`]).

use serde_json::json;

use super::names::{Failures, is_rule, test_counts};
use super::pytrace::TestTraceback;
use super::{Fact, Shape};

/// The verdict's counts, in the order stated.
const COUNTS: [&str; 6] = [
    "failures",
    "errors",
    "skips",
    "expectedFailures",
    "unexpectedSuccesses",
    "successes",
];

#[derive(Debug, Default)]
pub(crate) struct Trial {
    ran: Option<u64>,
    verdict: Option<(bool, [u64; 6])>,
    /// `[FAIL]` and `[ERROR]` blocks read.
    blocks: [u64; 2],
    failures: Failures,
    block: Option<Block>,
    after_rule: bool,
}

#[derive(Debug)]
struct Block {
    trace: TestTraceback,
    /// What the traceback raised, once read; the ids under it follow.
    details: Option<Vec<String>>,
}

impl Shape for Trial {
    fn line(&mut self, number: u64, text: &str) {
        let rule = is_rule(text, b'=', 40);
        if rule {
            self.block = None;
            self.after_rule = true;
            return;
        }
        if std::mem::take(&mut self.after_rule) {
            let kind = match text {
                "[FAIL]" => Some(0),
                "[ERROR]" => Some(1),
                _ => None,
            };
            if let Some(kind) = kind {
                self.blocks[kind] += 1;
                self.block = Some(Block {
                    trace: TestTraceback::default(),
                    details: None,
                });
                return;
            }
        }
        if let Some(block) = &mut self.block {
            match &block.details {
                None => {
                    block.trace.line(text);
                    if block.trace.is_done() {
                        let trace = std::mem::take(&mut block.trace);
                        block.details = Some(trace.details());
                    }
                }
                Some(details) => {
                    if is_test_id(text) {
                        self.failures.push(number, text);
                        self.failures.add_details(details);
                    } else if is_rule(text, b'-', 40) {
                        // The line above `Ran N tests`.
                        self.block = None;
                    }
                    // Else the rest of the exception's message (`- ascii`, `+ ASCII`).
                }
            }
            return;
        }
        if let Some(rest) = text.strip_prefix("Ran ")
            && let Some((n, tail)) = rest.split_once(' ')
            && (tail.starts_with("tests in ") || tail.starts_with("test in "))
        {
            self.ran = n.parse().ok();
        } else if self.ran.is_some()
            && let Some(verdict) = verdict(text)
        {
            self.verdict = Some(verdict);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let ran = self.ran?;
        let (passed_run, counts) = self.verdict?;
        let [failures, errors, skips, xfail, xpass, successes] = counts;
        // unittest's `FAILED (failures=6, errors=9)` reads as trial's: trial's own says its
        // `successes=` (or `PASSED`), or its blocks were read.
        if !passed_run && successes == 0 && self.blocks == [0, 0] {
            return None;
        }
        let others = [
            (skips, "skipped"),
            (xfail, "expected failures"),
            (xpass, "unexpected successes"),
        ];
        let runner = if passed_run {
            "trial: PASSED"
        } else {
            "trial: FAILED"
        };
        let line = test_counts(
            ran,
            Some(successes),
            failures,
            Some(errors),
            &others,
            runner,
        );
        let json = json!({
            "shape": "trial",
            "ran": ran,
            "passed": successes,
            "failed": failures,
            "errors": errors,
            "skipped": skips,
            "expected_failures": xfail,
            "unexpected_successes": xpass,
            "blocks": {"fail": self.blocks[0], "error": self.blocks[1]},
        });
        let listed = self.failures.take_as("failed tests and errors");
        Some(
            Fact::new("trial", vec![line], json)
                .failures(listed)
                .hint_if_failed(failures + errors > 0, "'^\\[(FAIL|ERROR)\\]$' -A 20")
                .supersedes(&["log", "unittest"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + std::mem::size_of::<Block>()
    }
}

/// `treq.test.test_auth.AddAuthTests.test_add_basic_auth`: a dotted name, nothing else.
fn is_test_id(text: &str) -> bool {
    text.contains('.')
        && !text.starts_with('.')
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// `FAILED (failures=17, errors=7, successes=224)` or `PASSED (successes=12)`.
fn verdict(text: &str) -> Option<(bool, [u64; 6])> {
    let (passed, rest) = match text.strip_prefix("PASSED (") {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix("FAILED (")?),
    };
    let mut counts = [0; 6];
    for part in rest.strip_suffix(')')?.split(", ") {
        let (word, n) = part.split_once('=')?;
        let i = COUNTS.iter().position(|c| *c == word)?;
        counts[i] = n.parse().ok()?;
    }
    Some((passed, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_and_test_ids() {
        assert_eq!(
            verdict("FAILED (failures=17, errors=7, successes=224)"),
            Some((false, [17, 7, 0, 0, 0, 224]))
        );
        assert_eq!(
            verdict("PASSED (skips=3, successes=12)"),
            Some((true, [0, 0, 3, 0, 0, 12]))
        );
        assert_eq!(verdict("FAILED (failures=1, widgets=2)"), None);
        assert!(is_test_id(
            "treq.test.test_auth.AddAuthTests.test_add_basic_auth"
        ));
        assert!(!is_test_id("Ran 248 tests in 6.150s"));
    }
}
