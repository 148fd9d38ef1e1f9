//! FiveAM, Common Lisp's test framework (`(asdf:test-system …)`, `(fiveam:run! …)`): a line
//! per test as it runs (` Running test PARSE.SMOKE ..X`), then the checks counted,
//!
//! ```text
//!  Did 5837 checks.
//!     Pass: 5812 (99%)
//!     Skip: 0 ( 0%)
//!     Fail: 25 ( 0%)
//! ```
//!
//! and under ` Failure Details:` a block per failed check between rules of dashes: its test,
//! suite and description (` UNCACHED.INTERPRETED in ESRAP [Test uncached rules.]: `), then
//! why, over several lines (`Unexpected Error: #<SB-INT:SIMPLE-PROGRAM-ERROR …>` and the
//! condition's text, or `(PARSE …) evaluated to NIL which is not EQUAL to #\a`).
//!
//! Stated, once the checks are counted: the counts (summed over the runs), and each failed
//! check's test with why, its lines joined as the sentence they are.

use serde_json::json;

use super::names::{Failures, is_rule};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// How much of a failure's reason is kept.
const REASON_CHARS: usize = 400;

#[derive(Debug, Default)]
pub(crate) struct FiveAm {
    failures: Failures,
    /// Summed over the runs: checks, passed, skipped, failed.
    counts: [u64; 4],
    runs: u64,
    /// After `Did N checks.`, until its `Fail:` line.
    counting: bool,
    /// Under `Failure Details:`, and the reason of the failure being read: its first line,
    /// then the others joined.
    details: bool,
    reason: Option<String>,
    /// A failed test's description goes on over the next lines, to its `]:`.
    wrapped: bool,
}

impl Shape for FiveAm {
    fn line(&mut self, number: u64, text: &str) {
        // Most lines are none of FiveAM's: its counts start with `Did `, its report with
        // `Failure Details:`.
        if !self.counting && !self.details && !text.trim_start().starts_with(['D', 'F']) {
            return;
        }
        let t = text.trim();
        if let Some(checks) = t
            .strip_prefix("Did ")
            .and_then(|c| {
                c.strip_suffix(" checks.")
                    .or_else(|| c.strip_suffix(" check."))
            })
            .and_then(|c| c.parse::<u64>().ok())
        {
            self.counts[0] += checks;
            self.runs += 1;
            self.counting = true;
            return;
        }
        if self.counting {
            for (i, word) in [(1, "Pass: "), (2, "Skip: "), (3, "Fail: ")] {
                if let Some(n) = t
                    .strip_prefix(word)
                    .and_then(|n| n.split(' ').next())
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    self.counts[i] += n;
                    self.counting = i < 3;
                    return;
                }
            }
            self.counting = false;
        }
        if t == "Failure Details:" {
            self.details = true;
            return;
        }
        if !self.details {
            return;
        }
        if is_rule(t, b'-', 10) {
            self.end_failure();
            return;
        }
        match &mut self.reason {
            Some(_) if self.wrapped => self.wrapped = !t.ends_with("]:"),
            Some(reason) => {
                if !t.is_empty() && reason.len() < 2 * REASON_CHARS {
                    if reason.contains('\n') {
                        reason.push(' ');
                    } else if !reason.is_empty() {
                        reason.push('\n');
                    }
                    reason.push_str(t);
                }
            }
            None if t.is_empty() => {}
            None => match failed_test(t) {
                Some((name, closed)) => {
                    self.failures.push(number, name);
                    self.reason = Some(String::new());
                    self.wrapped = !closed;
                }
                None => self.details = false,
            },
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_failure();
        if self.runs == 0 {
            return None;
        }
        let [checks, passed, skipped, failed] = self.counts;
        let line = format!(
            "FiveAM: {} checks, {} passed, {} failed, {} skipped",
            thousands(checks),
            thousands(passed),
            thousands(failed),
            thousands(skipped)
        );
        let json = json!({
            "shape": "fiveam",
            "checks": checks,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
        });
        Some(
            Fact::new("fiveam", vec![line], json)
                .failures(self.failures.take_as("failed checks"))
                .hint_if_failed(failed > 0, "'^ [A-Z0-9.-]+ .*\\]: $' -A 4"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.reason.as_ref().map_or(0, String::capacity)
    }
}

impl FiveAm {
    /// The failure's reason said: its first line (the error, or the form checked), then the
    /// rest as one sentence.
    fn end_failure(&mut self) {
        if let Some(reason) = self.reason.take()
            && let Some(f) = self.failures.current()
        {
            for part in reason.split('\n') {
                f.add_detail(&cut(part, REASON_CHARS));
            }
        }
    }
}

/// `UNCACHED.INTERPRETED in ESRAP [Test uncached rules.]:` (older FiveAM: `NAME []:`) → its
/// test's name, and whether its description is closed on this line (a long one goes on over
/// the next: `PARSE.CASE-INSENSITIVE.INTERPRETED in ESRAP [Test parsing … case-insensitive`).
fn failed_test(t: &str) -> Option<(&str, bool)> {
    let (name, description) = t.split_once(" [")?;
    let closed = description.ends_with("]:");
    let name = match name.split_once(" in ") {
        Some((test, suite)) if !suite.contains(' ') => test,
        Some(_) => return None,
        None if closed => name,
        None => return None,
    };
    (!name.is_empty() && !name.contains(' ')).then_some((name, closed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_checks_are_read_with_their_reason_joined() {
        let text = " Running test CHARACTER-RANGE.COMPILED .X\n \
                    Did 5837 checks.\n    \
                    Pass: 5812 (99%)\n    \
                    Skip: 0 ( 0%)\n    \
                    Fail: 25 ( 0%)\n\
                    \n \
                    Failure Details:\n \
                    --------------------------------\n \
                    CHARACTER-RANGE.COMPILED in ESRAP []: \n      \
                    \n\
                    (PARSE '(CHARACTER-RANGES (#\\a #\\z) #\\-) \"a\" :JUNK-ALLOWED T)\n\
                    \n \
                    evaluated to \n\
                    \n\
                    NIL\n \
                    --------------------------------\n\
                    \n\
                    ; compilation unit finished\n";
        let fact = super::super::read_lines::<FiveAm>(text).expect("a FiveAM run");
        assert_eq!(
            fact.lines,
            ["FiveAM: 5,837 checks, 5,812 passed, 25 failed, 0 skipped"]
        );
        let failed: Vec<_> = fact.failures[0].iter().collect();
        assert_eq!(failed[0].name, "CHARACTER-RANGE.COMPILED");
        assert_eq!(
            failed[0].detail,
            [
                "(PARSE '(CHARACTER-RANGES (#\\a #\\z) #\\-) \"a\" :JUNK-ALLOWED T)",
                "evaluated to NIL"
            ]
        );
    }

    #[test]
    fn names_of_failed_tests() {
        assert_eq!(
            failed_test("UNCACHED.INTERPRETED in ESRAP [Test uncached rules.]:"),
            Some(("UNCACHED.INTERPRETED", true))
        );
        assert_eq!(
            failed_test("PARSE.CI.INTERPRETED in ESRAP [Test parsing in case-insensitive"),
            Some(("PARSE.CI.INTERPRETED", false))
        );
        assert_eq!(failed_test("BOUNDS.1 []:"), Some(("BOUNDS.1", true)));
        assert_eq!(failed_test("see the [notes]:"), None);
        assert_eq!(failed_test("WHILE parsing [x"), None);
        assert!(super::super::read_lines::<FiveAm>("Did you mean x?\n").is_none());
    }
}
