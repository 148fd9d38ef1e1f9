//! uvu's report: a line per suite with a mark per test, then each failure as a block headed
//! `FAIL  Suite  "test"`, its assertion's message, uvu's `++expected (Expected)` and
//! `--actual (Actual)` lines and the stack, whose first frame outside `node_modules` is the
//! test's line; it closes with `Total:`, `Passed:` and `Skipped:` counts. A failure is named
//! `Suite > test`.

use serde_json::json;

use super::names::Failures;
use super::tap::stack_line;
use super::{Fact, Shape};
use crate::format::thousands;

#[derive(Debug, Default)]
pub(crate) struct Uvu {
    failures: Failures,
    /// The failure whose block is being read, and whether its frame was read.
    in_block: Option<bool>,
    /// `Total:`, `Passed:`, `Skipped:`.
    counts: [Option<u64>; 3],
    /// A line only uvu prints was seen (a suite's `(2 / 3)` or a `FAIL` heading): its
    /// counts are words many runners print.
    seen: bool,
}

const COUNTS: [&str; 3] = ["Total:", "Passed:", "Skipped:"];

impl Shape for Uvu {
    fn line(&mut self, number: u64, text: &str) {
        let t = text.trim();
        if let Some((suite, test)) = fail_heading(t) {
            self.failures
                .push_said(number, &format!("{suite} > {test}"), t);
            self.in_block = Some(false);
            self.seen = true;
            return;
        }
        if !self.seen && is_suite_line(t) {
            self.seen = true;
        }
        if let Some(i) = COUNTS.iter().position(|c| t.starts_with(c)) {
            self.counts[i] = t[COUNTS[i].len()..].trim().parse().ok();
            self.in_block = None;
            return;
        }
        let Some(framed) = self.in_block else {
            return;
        };
        let Some(f) = self.failures.current() else {
            return;
        };
        if let Some(framed) = stack_line(t, framed, f) {
            self.in_block = Some(framed);
            return;
        }
        if framed || t.is_empty() {
            return;
        }
        // `++/foo/gi    (Expected)`, `--/foo/gi    (Actual)`: the values compared.
        let value = t
            .strip_suffix("(Expected)")
            .or_else(|| t.strip_suffix("(Actual)"));
        if let Some(value) = value {
            f.add_essential_detail(value.trim_end());
        } else if f.detail.is_empty() {
            // The assertion's message, first.
            f.add_detail(t);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let [Some(total), Some(passed)] = [self.counts[0], self.counts[1]] else {
            return None;
        };
        if !self.seen {
            return None;
        }
        let skipped = self.counts[2].unwrap_or(0);
        let failed = total.saturating_sub(passed + skipped);
        let line = format!(
            "tests: {} run, {} passed, {} failed, {} skipped (uvu)",
            thousands(total),
            thousands(passed),
            thousands(failed),
            thousands(skipped)
        );
        let json = json!({
            "shape": "uvu",
            "total": total,
            "passed": passed,
            "skipped": skipped,
            "failed": failed,
        });
        Some(
            Fact::new("uvu", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'^ *FAIL ' -A 12"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
    }
}

/// A suite's line of marks, ending in how many of its tests passed: `Arrays  • •   (2 / 2)`.
fn is_suite_line(t: &str) -> bool {
    t.strip_suffix(')')
        .and_then(|r| r.rsplit_once('('))
        .and_then(|(_, r)| r.split_once(" / "))
        .is_some_and(|(a, b)| super::eslint::is_number(a) && super::eslint::is_number(b))
}

/// `FAIL  RegExp  "state"` → (`RegExp`, `state`).
fn fail_heading(t: &str) -> Option<(&str, &str)> {
    let rest = t.strip_prefix("FAIL ")?.trim_start();
    let (suite, test) = rest.split_once(" \"")?;
    let test = test.strip_suffix('"')?;
    let suite = suite.trim_end();
    (!suite.is_empty() && !test.is_empty()).then_some((suite, test))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failures_heading_names_its_suite_and_test() {
        assert_eq!(
            fail_heading("FAIL  Map  \"nested :: keys\""),
            Some(("Map", "nested :: keys"))
        );
        assert_eq!(
            fail_heading("FAIL  RegExp  \"state\""),
            Some(("RegExp", "state"))
        );
        assert_eq!(fail_heading("FAIL: test_a"), None);
        assert_eq!(fail_heading("FAIL src/a.test.ts"), None);
    }

    #[test]
    fn counts_alone_are_not_uvus() {
        let mut other = Box::<Uvu>::default();
        for line in ["Total: 10", "Passed: 8", "Skipped: 0"] {
            other.line(1, line);
        }
        assert!(other.finish().is_none());
        let mut uvu = Box::<Uvu>::default();
        for line in [" Arrays  • •   (2 / 2)", "  Total:     2", "  Passed:    2"] {
            uvu.line(1, line);
        }
        let fact = uvu.finish().expect("uvu's counts");
        assert_eq!(
            fact.lines,
            ["tests: 2 run, 2 passed, 0 failed, 0 skipped (uvu)"]
        );
    }
}
