//! Tcl's tcltest: each failed test between `==== json-tcl-1.6 test JSON escapes FAILED` (its
//! name, then its description) and `==== json-tcl-1.6 FAILED`, with the test's body under
//! `==== Contents of test case:` and what went wrong under `----` lines (`---- Result was:`
//! and `---- Result should have been (exact matching):`, each followed by the value; `----
//! Test generated error; Return code was: 1`, `---- errorInfo: …`). Each test file closes
//! with `json.test:`, then tab-separated `Total 512 Passed 377 Skipped 0 Failed 135`
//! (`all.tcl:` for a whole suite run by `all.tcl`, which then counts every file). A run with
//! failures may exit 0, so the counts are what says it failed. Each failed test is listed with
//! what it returned and what it should have.

use serde_json::json;

use super::names::{Failures, test_counts, where_they_differ};
use super::{Fact, Shape};
use crate::format::cut;

/// How long a value or message kept may be.
const VALUE_CHARS: usize = 200;

#[derive(Debug, Default)]
pub(crate) struct Tcltest {
    failures: Failures,
    /// The failed test being read: its name, until its closing `==== name FAILED`.
    open: Option<String>,
    /// The `----` label whose value is on the next line (`Result was`).
    label: Option<&'static str>,
    /// `was: …`, said with what it should have been.
    was: Option<String>,
    /// The totals of each test file (`json.test:`), summed, and of `all.tcl:` (the whole run).
    files: Totals,
    all: Option<Totals>,
}

/// `Total`, `Passed`, `Skipped`, `Failed` of a totals line, and how many lines were read.
#[derive(Clone, Copy, Debug, Default)]
struct Totals {
    counts: [u64; 4],
    lines: u64,
}

impl Shape for Tcltest {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(label) = self.label.take() {
            let value = format!("{label}: {}", text.trim());
            match (label, self.was.take()) {
                ("was", _) => self.was = Some(value),
                (_, Some(was)) => {
                    // Long values, nearly alike: where they differ.
                    let (was, should) = where_they_differ(&was, &value, VALUE_CHARS / 2);
                    self.detail(&was);
                    self.detail(&should);
                }
                (_, None) => self.detail(&cut(&value, VALUE_CHARS)),
            }
            return;
        }
        if let Some(rest) = text.strip_prefix("==== ") {
            if rest == "Contents of test case:" {
                return;
            }
            let Some(head) = rest.strip_suffix(" FAILED") else {
                return;
            };
            if self.open.as_deref() == Some(head) {
                // `==== json-tcl-1.6 FAILED`: its report is over.
                self.open = None;
                self.end_was();
                return;
            }
            self.end_was();
            let name = head.split_once(' ').map_or(head, |(name, _)| name);
            self.failures.push_said(number, name, text.trim_end());
            self.open = Some(name.to_owned());
            return;
        }
        if self.open.is_some()
            && let Some(rest) = text.strip_prefix("---- ")
        {
            self.label = if rest.starts_with("Result was:") {
                Some("was")
            } else if rest.starts_with("Result should have been") {
                Some("should have been")
            } else {
                None
            };
            if self.label.is_none() && !rest.starts_with("errorCode:") {
                // `Test generated error; Return code was: 1`, `errorInfo: can't read …`.
                self.detail(&cut(rest.trim(), VALUE_CHARS));
            }
            return;
        }
        if let Some((file, counts)) = totals_line(text) {
            let totals = if file == "all.tcl" {
                self.all.get_or_insert_default()
            } else {
                &mut self.files
            };
            for (sum, n) in totals.counts.iter_mut().zip(counts) {
                *sum = sum.saturating_add(n);
            }
            totals.lines += 1;
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_was();
        let totals = self.all.unwrap_or(self.files);
        if totals.lines == 0 {
            return None;
        }
        let [run, passed, skipped, failed] = totals.counts;
        let runner = match (self.all.is_some(), totals.lines) {
            (false, files) if files > 1 => format!("tcltest, {files} test files"),
            _ => "tcltest".to_owned(),
        };
        let line = test_counts(
            run,
            Some(passed),
            failed,
            None,
            &[(skipped, "skipped")],
            &runner,
        );
        let json = json!({
            "shape": "tcltest",
            "run": run,
            "passed": passed,
            "skipped": skipped,
            "failed": failed,
            "files": totals.lines,
        });
        Some(
            Fact::new("tcltest", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'^==== .* FAILED$' -A 10"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.open.as_ref().map_or(0, String::capacity)
            + self.was.as_ref().map_or(0, String::capacity)
    }
}

impl Tcltest {
    /// A result said without what it should have been (a test that raised an error).
    fn end_was(&mut self) {
        if let Some(was) = self.was.take() {
            self.detail(&cut(&was, VALUE_CHARS));
        }
    }

    /// A line of detail for the failed test being read.
    fn detail(&mut self, detail: &str) {
        if let Some(f) = self.failures.current() {
            f.add_detail(detail);
        }
    }
}

/// `json.test:` and, tab-separated, `Total 512 Passed 377 Skipped 0 Failed 135`: the file
/// (without its colon) and the four counts.
fn totals_line(text: &str) -> Option<(&str, [u64; 4])> {
    let mut words = text.split_whitespace();
    let file = words.next()?.strip_suffix(':')?;
    let mut counts = [0; 4];
    for (count, key) in counts
        .iter_mut()
        .zip(["Total", "Passed", "Skipped", "Failed"])
    {
        if words.next()? != key {
            return None;
        }
        *count = words.next()?.parse().ok()?;
    }
    words.next().is_none().then_some((file, counts))
}

#[cfg(test)]
mod tests {
    use super::totals_line;

    #[test]
    fn a_totals_line_is_four_named_counts() {
        assert_eq!(
            totals_line("json.test:\tTotal\t512\tPassed\t377\tSkipped\t0\tFailed\t135"),
            Some(("json.test", [512, 377, 0, 135]))
        );
        assert_eq!(
            totals_line("all.tcl:\tTotal\t9\tPassed\t9\tSkipped\t0\tFailed\t0"),
            Some(("all.tcl", [9, 9, 0, 0]))
        );
        assert_eq!(totals_line("x.test:\tTotal\t9\tPassed\t9"), None);
        assert_eq!(totals_line("Total 9 Passed 9 Skipped 0 Failed 0"), None);
    }
}
