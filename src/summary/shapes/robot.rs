//! Robot Framework's console: a line per test ending with its status (`Ordinal Of 13   | FAIL |`),
//! a failed test's message on the lines under it up to the next rule (`----…`), and each suite
//! closing with its own status line and counts (`26 tests, 21 passed, 5 failed`); the
//! outermost suite closes last, so the last counts are the run's. Recognised by those counts
//! after a status line; each failed test is listed with its message.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// How long a test's name may be.
const NAME_CHARS: usize = 160;

#[derive(Debug, Default)]
pub(crate) struct Robot {
    failures: Failures,
    /// A `| FAIL |` line just read: a test's, unless counts follow (a suite's).
    pending: Option<(u64, String)>,
    /// Reading the message of the failure pushed last.
    in_message: bool,
    /// The last counts after a status line: tests, passed, failed, skipped.
    counts: Option<[u64; 4]>,
    after_status: bool,
}

impl Shape for Robot {
    fn line(&mut self, number: u64, text: &str) {
        let after_status = std::mem::take(&mut self.after_status);
        if after_status && let Some(counts) = counts(text) {
            // The status line before was a suite's.
            self.pending = None;
            self.counts = Some(counts);
            // Before Robot Framework 4, `… tests total, …` follows `… critical tests, …`.
            self.after_status = true;
            return;
        }
        if let Some((line, name)) = self.pending.take() {
            self.failures.push(line, &name);
            self.in_message = true;
        }
        if let Some((name, status)) = status_line(text) {
            self.in_message = false;
            self.after_status = true;
            if status == "FAIL" {
                self.pending = Some((number, cut(name, NAME_CHARS)));
            }
            return;
        }
        if is_rule(text) {
            self.in_message = false;
            return;
        }
        if self.in_message
            && let Some(f) = self.failures.current()
        {
            f.add_detail(text);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let [tests, passed, failed, skipped] = self.counts?;
        let mut line = format!(
            "robot: {}, {} passed, {} failed",
            plural(tests, "test", "tests"),
            thousands(passed),
            thousands(failed)
        );
        if skipped > 0 {
            line.push_str(&format!(", {} skipped", thousands(skipped)));
        }
        let json = json!({
            "shape": "robot",
            "tests": tests,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
        });
        Some(
            Fact::new("robot", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'\\| FAIL \\|' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.pending.as_ref().map_or(0, |(_, n)| n.capacity())
    }
}

/// `Ordinal Of 13      | FAIL |` → (`Ordinal Of 13`, `FAIL`).
fn status_line(text: &str) -> Option<(&str, &str)> {
    let rest = text.trim_end().strip_suffix(" |")?;
    let (name, status) = rest.rsplit_once(" | ")?;
    matches!(status, "PASS" | "FAIL" | "SKIP" | "NOT RUN").then_some(())?;
    let name = name.trim_end();
    (!name.is_empty()).then_some((name, status))
}

/// A rule between tests or suites: `-----…` or `=====…`.
fn is_rule(text: &str) -> bool {
    let t = text.trim_end();
    t.len() >= 20 && (t.bytes().all(|b| b == b'-') || t.bytes().all(|b| b == b'='))
}

/// `26 tests, 21 passed, 5 failed[, 0 skipped]` (Robot Framework 4 on), `26 tests total, …`
/// and `26 critical tests, …` (before 4) → tests, passed, failed, skipped.
fn counts(text: &str) -> Option<[u64; 4]> {
    let mut parts = text.trim_end().split(", ");
    let first = parts.next()?;
    let (tests, what) = first.split_once(' ')?;
    matches!(what, "tests" | "test" | "tests total" | "critical tests").then_some(())?;
    let mut out = [tests.parse().ok()?, 0, 0, 0];
    for part in parts {
        let (n, word) = part.split_once(' ')?;
        let i = match word {
            "passed" => 1,
            "failed" => 2,
            "skipped" => 3,
            _ => return None,
        };
        out[i] = n.parse().ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_status_lines_and_counts() {
        assert_eq!(
            status_line("Ordinal Of 13                                    | FAIL |"),
            Some(("Ordinal Of 13", "FAIL"))
        );
        assert_eq!(status_line("| a | b |"), None);
        assert_eq!(
            counts("120 tests, 105 passed, 15 failed"),
            Some([120, 105, 15, 0])
        );
        assert_eq!(
            counts("3 tests, 1 passed, 1 failed, 1 skipped"),
            Some([3, 1, 1, 1])
        );
        assert_eq!(
            counts("8 critical tests, 8 passed, 0 failed"),
            Some([8, 8, 0, 0])
        );
        assert_eq!(counts("3 tests, all fine"), None);
    }
}
