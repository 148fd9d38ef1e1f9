//! hapi's lab (`lab`, `lab -v`, `npm test` of a hapi module): its console reporter's list of
//! failures at the end, under `Failed tests:`, each as `  58) title:` (its number and its
//! title, describe blocks first), then the values compared (`actual expected` over a word
//! diff of them, whose colours were the difference), the error's message, and its place (`at
//! test/a.js:20:28`) or its stack; errors outside any test under `Test script errors:`; then
//! `9 of 243 tests failed` or `243 tests complete`, with `(3 skipped)`, over `Test duration:
//! 457 ms`.
//!
//! Stated: the totals, confirmed by the duration line under them; each failed test as its
//! numbered title, with its message and its place; the script errors by their message; the
//! coverage below the threshold and the leaks found, as printed.

use serde_json::json;

use super::jest::location;
use super::names::{Failures, test_counts};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// Lines of a failure's block read for its message and place.
const BLOCK_LINES: usize = 40;

#[derive(Debug, Default)]
pub(crate) struct Lab {
    /// `9 of 243 tests failed` (failed, run, skipped), until the next line confirms it.
    pending: Option<(u64, u64, u64)>,
    totals: Option<(u64, u64, u64)>,
    failures: Failures,
    script_errors: Failures,
    /// Where in the report the lines are.
    section: Section,
    /// What of the failure's block is read: lines, a diff of the values to pass over, the
    /// message read.
    block: Option<Block>,
    /// `Code coverage below threshold: …` and `The following leaks were detected: …`.
    verdicts: Vec<String>,
}

#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
enum Section {
    #[default]
    Tests,
    ScriptErrors,
    Failures,
}

#[derive(Debug, Default)]
struct Block {
    lines: usize,
    /// `actual expected` was read: the next line is the diff of the values.
    diff_next: bool,
    message: bool,
}

impl Shape for Lab {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(totals) = self.pending.take()
            && text.starts_with("Test duration: ")
        {
            self.totals = Some(totals);
            self.section = Section::Tests;
            self.block = None;
            return;
        }
        // Most lines of most outputs are none of lab's: passed over on their first byte.
        match text.as_bytes().first() {
            Some(b'0'..=b'9') => {
                if let Some(totals) = totals(text) {
                    self.pending = Some(totals);
                    return;
                }
            }
            Some(b'C' | b'T') => {
                let verdict = [
                    "Code coverage below threshold: ",
                    "The following leaks were",
                ]
                .iter()
                .any(|start| text.starts_with(start));
                if verdict {
                    if self.verdicts.len() < 2 {
                        self.verdicts.push(cut(text, 300));
                    }
                    return;
                }
            }
            _ => {}
        }
        match text {
            "Failed tests:" => {
                self.section = Section::Failures;
                self.failures = Failures::default();
                return;
            }
            "Test script errors:" => {
                self.section = Section::ScriptErrors;
                return;
            }
            _ => {}
        }
        match self.section {
            Section::Tests => {}
            Section::ScriptErrors => self.script_error(number, text),
            Section::Failures => self.failure_line(number, text),
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let (failed, run, skipped) = self.totals?;
        let mut lines = vec![test_counts(
            run,
            Some(run.saturating_sub(failed)),
            failed,
            None,
            &[(skipped, "skipped")],
            "lab",
        )];
        if self.script_errors.total > 0 {
            lines.push(format!(
                "test script errors: {}",
                thousands(self.script_errors.total)
            ));
        }
        lines.extend(self.verdicts.iter().cloned());
        let json = json!({
            "shape": "lab",
            "tests": run,
            "failed": failed,
            "skipped": skipped,
            "script_errors": self.script_errors.total,
        });
        let mut failures = Vec::new();
        let mut script_errors = self.script_errors;
        if script_errors.total > 0 {
            failures.push(script_errors.take_as("test script errors"));
        }
        let mut listed = self.failures;
        failures.push(listed.take_as("failed tests"));
        let mut fact = Fact::new("lab", lines, json);
        for list in failures {
            fact = fact.failures(list);
        }
        Some(fact.hint_if_failed(failed > 0, "'^  [0-9]+\\) .*:$' -A 8"))
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.script_errors.approx_heap()
            + self.verdicts.iter().map(String::capacity).sum::<usize>()
    }
}

impl Lab {
    /// A line of the list of failed tests.
    fn failure_line(&mut self, number: u64, text: &str) {
        if let Some(title) = title(text) {
            self.failures.push(number, title);
            self.block = Some(Block::default());
            return;
        }
        let Some(block) = &mut self.block else {
            return;
        };
        let t = text.trim();
        if t.is_empty() {
            return;
        }
        block.lines += 1;
        if block.lines > BLOCK_LINES {
            self.block = None;
            return;
        }
        if t == "actual expected" {
            block.diff_next = true;
            return;
        }
        if block.diff_next {
            // The values' word diff: without its colours it is both values run together.
            block.diff_next = false;
            return;
        }
        let Some(failure) = self.failures.current() else {
            return;
        };
        if t.starts_with("at ") {
            if let Some(place) = location(t) {
                failure.add_detail(&format!("at {place}"));
                self.block = None;
            }
            return;
        }
        if !block.message {
            block.message = true;
            failure.add_detail(t);
        }
    }

    /// A line under `Test script errors:`: each error's message, then its frames.
    fn script_error(&mut self, number: u64, text: &str) {
        if text.starts_with("There were ") {
            self.section = Section::Tests;
            return;
        }
        if text.is_empty() {
            return;
        }
        if !text.starts_with(' ') {
            self.script_errors.push(number, text);
            return;
        }
        if let Some(place) = location(text.trim())
            && let Some(error) = self.script_errors.current()
            && !error.has_detail()
        {
            error.add_detail(&format!("at {place}"));
        }
    }
}

/// `  58) escapeHtml() encodes / characters:` → `58) escapeHtml() encodes / characters`.
fn title(text: &str) -> Option<&str> {
    let t = text.strip_prefix("  ")?.strip_suffix(':')?;
    let (n, rest) = t.split_once(") ")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !rest.trim().is_empty()).then_some(t)
}

/// `9 of 243 tests failed`, `243 tests complete`, either with ` (3 skipped)` after it →
/// (failed, run, skipped).
fn totals(text: &str) -> Option<(u64, u64, u64)> {
    let (counts, skipped) = match text.split_once(" (") {
        Some((counts, rest)) => {
            let n = rest.strip_suffix(" skipped)")?;
            (counts, n.parse().ok()?)
        }
        None => (text, 0),
    };
    if let Some(run) = counts.strip_suffix(" tests complete") {
        return Some((0, run.parse().ok()?, skipped));
    }
    let (failed, run) = counts.strip_suffix(" tests failed")?.split_once(" of ")?;
    Some((failed.parse().ok()?, run.parse().ok()?, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_titles() {
        assert_eq!(totals("9 of 243 tests failed"), Some((9, 243, 0)));
        assert_eq!(totals("243 tests complete (3 skipped)"), Some((0, 243, 3)));
        assert_eq!(totals("1 of 2 tests failed (1 skipped)"), Some((1, 2, 1)));
        assert_eq!(totals("9 of many tests failed"), None);
        assert_eq!(totals("all tests complete"), None);
        assert_eq!(
            title("  58) escapeHtml() encodes / characters:"),
            Some("58) escapeHtml() encodes / characters")
        );
        assert_eq!(title("  58) x"), None);
        assert_eq!(title("    1) nested:"), None);
    }
}
