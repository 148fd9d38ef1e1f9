//! R's testthat: a block per problem, headed `Failure ('test-deps.R:27'): set_dep` (also
//! `Error`, `Warning`, `Skip`; under `R CMD check` indented and between rules, `── Error
//! ('test-x.R:195'): col_align ────`; before testthat 3, `── 1. Failure: name (@test-x.R#12)
//! ──`), its message on the lines under it; and the expectations counted at the end, `[ FAIL
//! 10 | WARN 8 | SKIP 0 | PASS 246 ]`, then `══ Terminated early ══` when it stopped at its
//! maximum of failures. Stated: the counts as printed, whether it stopped early, and each
//! failure and error with its message.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// How many of a problem's message lines are its detail.
const DETAIL_LINES: usize = 2;

#[derive(Debug, Default)]
pub(crate) struct Testthat {
    failures: Failures,
    /// Message lines still to read for the failure pushed last.
    detail_left: usize,
    /// `[ FAIL 10 | WARN 8 | SKIP 0 | PASS 246 ]`: the last printed, and its counts.
    counts: Option<(String, [u64; 4])>,
    warnings: u64,
    skips: u64,
    /// `══ Terminated early ══`, or `Maximum number of failures exceeded`.
    early: bool,
}

impl Shape for Testthat {
    fn line(&mut self, number: u64, text: &str) {
        // Cheap first: most lines start with none of what this shape reads (a header's kind,
        // `[ FAIL`, `Maximum`, a rule's `─` or `═`), after the indent `R CMD check` adds.
        let first = text.bytes().find(|b| *b != b' ');
        if self.detail_left == 0
            && !matches!(first, Some(b'F' | b'E' | b'W' | b'S' | b'M' | b'[' | 0xE2))
        {
            return;
        }
        let t = text.trim();
        if self.detail_left > 0 {
            if t.is_empty() || t == "Backtrace:" || is_rule(t) {
                self.detail_left = 0;
            } else {
                self.detail_left -= 1;
                if let Some(f) = self.failures.current() {
                    f.add_detail(&cut(t, 300));
                }
                return;
            }
        }
        if let Some(counts) = counts(t) {
            self.counts = Some((t.to_owned(), counts));
            return;
        }
        if t.starts_with("══ Terminated early")
            || t.starts_with("Maximum number of failures exceeded")
        {
            self.early = true;
            return;
        }
        let Some((kind, header)) = header(t) else {
            return;
        };
        match kind {
            "Failure" | "Error" => {
                self.failures.push_said(number, header, header);
                self.detail_left = DETAIL_LINES;
            }
            "Warning" => self.warnings += 1,
            _ => self.skips += 1,
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let (said, [fail, warn, skip, pass]) = self.counts?;
        let mut line = format!("testthat: {said} (expectations)");
        if self.early {
            line.push_str("; terminated early: its maximum number of failures was reached");
        }
        let json = json!({
            "shape": "testthat",
            "failed": fail,
            "warnings": warn,
            "skipped": skip,
            "passed": pass,
            "terminated_early": self.early,
            "blocks": {"failed": self.failures.total, "warnings": self.warnings,
                "skipped": self.skips},
        });
        let mut lines = vec![line];
        if self.failures.total > 0 && self.failures.total != fail {
            lines.push(format!(
                "failures and errors reported: {}",
                thousands(self.failures.total)
            ));
        }
        let mut failures = self.failures;
        Some(
            Fact::new("testthat", lines, json)
                .failures(failures.take_as("failed tests"))
                .hint_if_failed(fail > 0, "'^ *(── )?([0-9]+\\. )?(Failure|Error)[ :]' -A 6"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.counts.as_ref().map_or(0, |(s, _)| s.capacity())
    }
}

/// A line of `─` or `═` (with a title maybe).
fn is_rule(t: &str) -> bool {
    t.starts_with("───") || t.starts_with("═══")
}

/// `Failure ('test-deps.R:27'): set_dep` (maybe between `── ` and a rule), or testthat 2's
/// `── 1. Failure: name (@test-x.R#12) ──`: the kind, and the header without its rules.
fn header(t: &str) -> Option<(&str, &str)> {
    let t = t.strip_prefix("── ").unwrap_or(t);
    let t = t.trim_end_matches('─').trim_end();
    // testthat 2 numbers its problems.
    let unnumbered = match t.split_once(". ") {
        Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => rest,
        _ => t,
    };
    let (kind, rest) = unnumbered.split_once([' ', ':'])?;
    if !matches!(kind, "Failure" | "Error" | "Warning" | "Skip") {
        return None;
    }
    // Its place: `('test-deps.R:27'):`, or testthat 2's `(@test-x.R#12)`.
    let placed = (rest.starts_with("('") && rest.contains(".R:") && rest.contains("'): "))
        || (rest.contains(" (@") && rest.ends_with(')') && rest.contains(".R#"));
    placed.then_some((kind, t))
}

/// `[ FAIL 10 | WARN 8 | SKIP 0 | PASS 246 ]` → [10, 8, 0, 246].
fn counts(t: &str) -> Option<[u64; 4]> {
    let inner = t.strip_prefix("[ ")?.strip_suffix(" ]")?;
    let mut out = [0; 4];
    for (part, (slot, key)) in inner
        .split(" | ")
        .zip(out.iter_mut().zip(["FAIL", "WARN", "SKIP", "PASS"]))
    {
        *slot = part.strip_prefix(key)?.trim().parse().ok()?;
    }
    (inner.split(" | ").count() == 4).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_and_counts_of_each_testthat() {
        assert_eq!(
            header("Failure ('test-deps.R:27'): set_dep"),
            Some(("Failure", "Failure ('test-deps.R:27'): set_dep"))
        );
        assert_eq!(
            header("── Error ('test-operations.R:195'): col_align ──────────"),
            Some(("Error", "Error ('test-operations.R:195'): col_align"))
        );
        assert_eq!(
            header("── 1. Failure: pads (@test-pad.R#12)  ──────"),
            Some(("Failure", "1. Failure: pads (@test-pad.R#12)"))
        );
        assert_eq!(header("Error: $add_me needs the 'whoami' package"), None);
        assert_eq!(header("Failure to launch"), None);
        assert_eq!(
            counts("[ FAIL 10 | WARN 8 | SKIP 0 | PASS 246 ]"),
            Some([10, 8, 0, 246])
        );
        assert_eq!(counts("[ FAIL 1 | WARN 0 ]"), None);
    }
}
