//! `deno test`: `running 28 tests from ./test/a_test.ts`, a line per test (`name ... ok (17ms)`,
//! `… FAILED (3ms)`, `… ignored (0ms)`; its steps indented under it), then each failure's
//! report under ` ERRORS ` (`name => ./test/a_test.ts:15:8`, `error: AssertionError: …`, the
//! values, the stack), the failures listed again under ` FAILURES `, and the closing line,
//! `FAILED | 24 passed | 4 failed (63ms)` (or `ok | …`), by which the run is recognised.

use serde_json::json;

use super::jest::location;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// Lines of a failure's report read.
const REPORT_LINES: usize = 60;

#[derive(Debug, Default)]
pub(crate) struct Deno {
    failures: Failures,
    section: Section,
    /// The failure whose report is read, and what is read of it.
    report: Option<Report>,
    /// Summed closing lines: passed, failed, ignored, filtered out; and how many runs.
    counts: [u64; 4],
    runs: u64,
}

#[derive(Debug, Default, PartialEq)]
enum Section {
    #[default]
    Tests,
    Errors,
    Failures,
}

#[derive(Debug)]
struct Report {
    name: String,
    lines: usize,
    /// The message is read, and it ended with `:` (its values follow).
    message: bool,
    values_next: bool,
    /// Under `+ actual - expected`: the first `+` and `-` lines are the values.
    in_diff: bool,
    diff: [bool; 2],
    located: bool,
}

impl Shape for Deno {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(counts) = closing(text) {
            for (sum, n) in self.counts.iter_mut().zip(counts) {
                *sum = sum.saturating_add(n);
            }
            self.runs += 1;
            self.section = Section::Tests;
            self.report = None;
            return;
        }
        match text {
            " ERRORS " => {
                self.section = Section::Errors;
                return;
            }
            " FAILURES " => {
                self.section = Section::Failures;
                self.report = None;
                return;
            }
            _ => {}
        }
        match self.section {
            Section::Tests => {
                // `(3ms)`, `(832µs)`, `(1s)`: checked first, for the lines of other outputs.
                if let Some(name) = text.strip_suffix("s)").and_then(failed_test) {
                    self.failures.push(number, name);
                }
            }
            Section::Errors => {
                if let Some((name, _)) = text.rsplit_once(" => ")
                    && !text.starts_with(' ')
                {
                    self.report = Some(Report {
                        name: name.to_owned(),
                        lines: 0,
                        message: false,
                        values_next: false,
                        in_diff: false,
                        diff: [false; 2],
                        located: false,
                    });
                } else {
                    self.read_report(text);
                }
            }
            Section::Failures => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.runs == 0 {
            return None;
        }
        let [passed, failed, ignored, filtered] = self.counts;
        let mut line = format!(
            "deno test: {}, {} passed, {} failed",
            plural(
                passed.saturating_add(failed).saturating_add(ignored),
                "test",
                "tests",
            ),
            thousands(passed),
            thousands(failed)
        );
        if ignored > 0 {
            line.push_str(&format!(", {} ignored", thousands(ignored)));
        }
        if filtered > 0 {
            line.push_str(&format!(", {} filtered out", thousands(filtered)));
        }
        let json = json!({
            "shape": "deno test",
            "runs": self.runs,
            "passed": passed,
            "failed": failed,
            "ignored": ignored,
            "filtered_out": filtered,
        });
        Some(
            Fact::new("deno test", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "' => |^error: ' -A 8")
                .supersedes(&["log", "numbered failures"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.report.as_ref().map_or(0, |r| r.name.capacity())
    }
}

impl Deno {
    /// A line of the report of the failure named in its header: its message, the values
    /// compared, and the first frame of its stack.
    fn read_report(&mut self, text: &str) {
        let Some(report) = &mut self.report else {
            return;
        };
        report.lines += 1;
        let Some(failure) = self.failures.named(&report.name) else {
            return;
        };
        let t = text.trim();
        if t.is_empty() || report.lines > REPORT_LINES {
            return;
        }
        if !report.message {
            report.message = true;
            let message = t.strip_prefix("error: ").unwrap_or(t);
            report.values_next = message.ends_with(':');
            failure.add_detail(message);
            return;
        }
        if report.values_next {
            if t == "+ actual - expected" {
                report.in_diff = true;
                return;
            }
            for (i, sign) in ["+ ", "- "].iter().enumerate() {
                if !report.diff[i] && t.starts_with(sign) && t.len() > 2 {
                    report.diff[i] = true;
                    let which = if i == 0 { "actual" } else { "expected" };
                    failure.add_detail(&format!("{which}: {}", t[2..].trim()));
                    return;
                }
            }
            if !report.in_diff {
                // `1 !== -1`: the values on one line.
                report.values_next = false;
                failure.add_detail(t);
            }
        }
        if !report.located
            && let Some(at) = location(t)
        {
            report.located = true;
            report.values_next = false;
            let at = at.strip_prefix("file://").unwrap_or(at);
            if !at.starts_with("ext:") {
                failure.add_detail(&format!("at {at}"));
            }
        }
    }
}

/// `name ... FAILED (3m` (the closing `s)` taken off) → `name`, for a test, not one
/// of its steps (indented).
fn failed_test(text: &str) -> Option<&str> {
    if text.starts_with(' ') {
        return None;
    }
    let (name, result) = text.rsplit_once(" ... ")?;
    result.starts_with("FAILED (").then_some(name)
}

/// `FAILED | 24 passed | 4 failed (63ms)`, `ok | 3 passed (2 steps) | 0 failed | 1 ignored
/// (5ms)` → passed, failed, ignored, filtered out.
fn closing(text: &str) -> Option<[u64; 4]> {
    let rest = text
        .strip_prefix("FAILED | ")
        .or_else(|| text.strip_prefix("ok | "))?;
    let mut out = [0; 4];
    let mut seen = 0;
    for part in rest.split(" | ") {
        let (n, word) = part.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        let i = ["passed", "failed", "ignored", "filtered out"]
            .iter()
            .position(|w| word.starts_with(w))?;
        out[i] = n;
        seen += 1;
    }
    (seen >= 2).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tests_and_closing_lines() {
        assert_eq!(
            failed_test("loader: construct-bool ... FAILED (3m"),
            Some("loader: construct-bool")
        );
        assert_eq!(failed_test("  a step ... FAILED (1m"), None);
        assert_eq!(failed_test("loader: x ... ok (1m"), None);
        assert_eq!(
            closing("FAILED | 24 passed | 4 failed (63ms)"),
            Some([24, 4, 0, 0])
        );
        assert_eq!(
            closing("ok | 3 passed (2 steps) | 0 failed | 1 ignored | 2 filtered out (5ms)"),
            Some([3, 0, 1, 2])
        );
        assert_eq!(closing("ok | all good"), None);
    }
}
