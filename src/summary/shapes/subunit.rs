//! subunit-trace, the report of `stestr run` and `ostestr` (OpenStack's runners): a line per
//! test, `{0} tests.test_a.TestA.test_x [0.001s] ... FAILED` (`ok`, `SKIPPED: why`, `xfail`,
//! `uxsuccess`), a failed test's `Captured traceback:` under it, indented, and the totals
//! block: `Ran: 142 tests in 2.1 sec.`, then ` - Passed: 129`, ` - Skipped: 5`,
//! ` - Expected Fail: 0`, ` - Unexpected Success: 0`, ` - Failed: 8`. A failed test's detail
//! is what its traceback raised (see [`TestTraceback`]); the tracebacks printed again after
//! `Failed 8 tests - output below:` are not read twice.

use serde_json::json;

use super::names::{Failures, test_counts};
use super::pytrace::TestTraceback;
use super::{Fact, Shape};

/// The totals' lines, in subunit-trace's order.
const TOTALS: [&str; 5] = [
    "Passed",
    "Skipped",
    "Expected Fail",
    "Unexpected Success",
    "Failed",
];

#[derive(Debug, Default)]
pub(crate) struct Subunit {
    /// Test lines read, failed ones among them.
    tests: u64,
    failed_lines: u64,
    ran: Option<u64>,
    totals: [Option<u64>; 5],
    failures: Failures,
    trace: Option<TestTraceback>,
    /// The line fed to the traceback last was a frame: a source line follows.
    after_frame: bool,
    /// Past `Failed N tests - output below:`.
    repeated: bool,
}

impl Shape for Subunit {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((id, status)) = test_line(text) {
            self.end_failure();
            self.tests += 1;
            if status == "FAILED" {
                self.failed_lines += 1;
                self.failures.push(number, id);
                self.trace = Some(TestTraceback::default());
            }
            return;
        }
        if text.starts_with("Failed ") && text.ends_with(" tests - output below:") {
            self.end_failure();
            self.repeated = true;
            return;
        }
        if let Some(trace) = &mut self.trace
            && !self.repeated
        {
            // The traceback is indented by four; its frames by six, their source lines by
            // four again.
            if let Some(t) = text.strip_prefix("    ") {
                if std::mem::take(&mut self.after_frame) {
                    trace.line(text);
                } else {
                    self.after_frame = t.starts_with("  File \"");
                    trace.line(t);
                }
            } else if text == "======" || text.starts_with("{") {
                self.end_failure();
            }
            return;
        }
        if let Some(rest) = text.strip_prefix("Ran: ") {
            self.end_failure();
            self.ran = rest
                .split_once(' ')
                .filter(|(_, r)| r.starts_with("tests in ") || r.starts_with("test in "))
                .and_then(|(n, _)| n.parse().ok());
        } else if self.ran.is_some()
            && let Some((word, n)) = text.strip_prefix(" - ").and_then(|r| r.split_once(": "))
            && let Some(i) = TOTALS.iter().position(|t| *t == word)
        {
            self.totals[i] = n.parse().ok();
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_failure();
        let ran = self.ran?;
        let [passed, skipped, xfail, uxsuccess, failed] = self.totals.map(|t| t.unwrap_or(0));
        self.totals[0]?;
        let others = [
            (skipped, "skipped"),
            (xfail, "expected failures"),
            (uxsuccess, "unexpected successes"),
        ];
        let line = test_counts(ran, Some(passed), failed, None, &others, "stestr");
        let json = json!({
            "shape": "stestr",
            "ran": ran,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "expected_failures": xfail,
            "unexpected_successes": uxsuccess,
            "lines": {"tests": self.tests, "failed": self.failed_lines},
        });
        let listed = self.failures.take_as("failed tests");
        Some(
            Fact::new("stestr", vec![line], json)
                .failures(listed)
                .hint_if_failed(failed > 0, "'\\.\\.\\. FAILED$' -A 20")
                .supersedes(&["log", "unittest"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + std::mem::size_of::<TestTraceback>()
    }
}

impl Subunit {
    fn end_failure(&mut self) {
        self.after_frame = false;
        if let Some(trace) = self.trace.take() {
            self.failures.add_details(&trace.details());
        }
    }
}

/// `{0} tests.test_a.TestA.test_x [0.000072s] ... ok` → the test's id and its status.
fn test_line(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('{')?;
    let (worker, rest) = rest.split_once("} ")?;
    if worker.is_empty() || !worker.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (id, rest) = rest.split_once(' ')?;
    let rest = match rest.strip_prefix('[') {
        Some(timed) => timed.split_once("s] ")?.1,
        None => rest,
    };
    let status = rest.strip_prefix("... ")?;
    let status = status.split(':').next().unwrap_or(status);
    ["ok", "FAILED", "SKIPPED", "xfail", "uxsuccess"]
        .contains(&status)
        .then_some((id, status))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_lines_with_and_without_their_time() {
        assert_eq!(
            test_line("{0} tests.test_a.TestA.test_x [0.000072s] ... ok"),
            Some(("tests.test_a.TestA.test_x", "ok"))
        );
        assert_eq!(
            test_line("{1} tests.a.B.test_y [0.5s] ... SKIPPED: no network"),
            Some(("tests.a.B.test_y", "SKIPPED"))
        );
        assert_eq!(
            test_line("{12} t.T.test_z ... FAILED"),
            Some(("t.T.test_z", "FAILED"))
        );
        assert_eq!(test_line("{x} t ... ok"), None);
        assert_eq!(test_line("{0} t [1s] ... maybe"), None);
    }
}
