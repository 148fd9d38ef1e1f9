//! pytest output: the final summary line (`3 failed, 59 passed, 1 error in 0.10s`, with or
//! without `=` banners), failing tests and errors from the `short test summary info` section,
//! and an interrupted collection (`Interrupted: 1 error during collection`), which is a failure
//! with 0 tests run — never "no tests". The first `E   …` line of the `ERRORS` section is the
//! first error's cause (`ImportError: …`), shown because a long run's head and tail miss it.

use serde_json::json;

use super::names::Names;
use crate::format::{cut, thousands};
use crate::summary::analysis::Fact;

const CAUSE_CHARS: usize = 160;

#[derive(Debug, Default)]
pub(crate) struct Pytest {
    sessions: u64,
    /// passed, failed, skipped, xfailed, xpassed, errors, deselected, warnings
    counts: [u64; 8],
    in_short_summary: bool,
    in_errors: bool,
    first_error: Option<String>,
    failing: Names,
    errors: Names,
    interrupted: Option<String>,
}

const WORDS: [&[&str]; 8] = [
    &["passed"],
    &["failed"],
    &["skipped"],
    &["xfailed"],
    &["xpassed"],
    &["error", "errors"],
    &["deselected"],
    &["warning", "warnings"],
];

impl Pytest {
    pub(crate) fn line(&mut self, text: &str) {
        match text.as_bytes().first() {
            Some(b'=' | b'0'..=b'9' | b'n') => {
                // Any banner ends the ERRORS section; only its own starts it.
                self.in_errors &= !text.starts_with('=');
                if text.starts_with('=') && text.trim_matches('=') == " ERRORS " {
                    self.in_errors = true;
                } else if text.starts_with('=') && text.contains(" short test summary info ") {
                    self.in_short_summary = true;
                } else if let Some(counts) = parse_final_line(text) {
                    self.sessions += 1;
                    for (total, n) in self.counts.iter_mut().zip(counts) {
                        *total += n;
                    }
                    self.in_short_summary = false;
                }
            }
            Some(b'E') if self.in_errors && self.first_error.is_none() => {
                if let Some(cause) = text.strip_prefix("E   ") {
                    self.first_error = Some(cut(cause.trim(), CAUSE_CHARS));
                }
            }
            Some(b'F' | b'E') if self.in_short_summary => {
                if let Some(rest) = text.strip_prefix("FAILED ") {
                    self.failing.push(node_id(rest));
                } else if let Some(rest) = text.strip_prefix("ERROR ") {
                    self.errors.push(node_id(rest));
                }
            }
            Some(b'!') => {
                if let Some((_, rest)) = text.split_once("Interrupted: ") {
                    self.interrupted = Some(rest.trim_end_matches(['!', ' ']).to_owned());
                }
            }
            _ => {}
        }
    }

    pub(crate) fn finish(self) -> Option<Fact> {
        if self.sessions == 0 {
            return None;
        }
        let [
            passed,
            failed,
            skipped,
            xfailed,
            xpassed,
            errors,
            deselected,
            _,
        ] = self.counts;
        let run = passed + failed + xfailed + xpassed;
        let mut line = format!(
            "tests: {} run, {} passed, {} failed",
            thousands(run),
            thousands(passed),
            thousands(failed)
        );
        for (n, word) in [
            (errors, if errors == 1 { "error" } else { "errors" }),
            (skipped, "skipped"),
            (xfailed, "xfailed"),
            (xpassed, "xpassed"),
            (deselected, "deselected"),
        ] {
            if n > 0 {
                line.push_str(&format!(", {} {word}", thousands(n)));
            }
        }
        match &self.interrupted {
            Some(why) => line.push_str(&format!(" (pytest, interrupted: {why})")),
            None => line.push_str(" (pytest)"),
        }
        if failed > 0 && !self.failing.kept.is_empty() {
            line.push_str(&format!(": {}", self.failing.render(failed)));
        }
        if errors > 0 && !self.errors.kept.is_empty() {
            line.push_str(&format!("; errors: {}", self.errors.render(errors)));
        }
        let mut lines = vec![line];
        if let Some(cause) = self.first_error.as_ref().filter(|_| errors > 0) {
            lines.push(format!("first pytest error: {cause}"));
        }
        Some(Fact {
            lines,
            json: json!({
                "shape": "pytest",
                "run": run,
                "passed": passed,
                "failed": failed,
                "errors": errors,
                "skipped": skipped,
                "xfailed": xfailed,
                "xpassed": xpassed,
                "deselected": deselected,
                "interrupted": self.interrupted,
                "failing": self.failing.kept,
                "error_names": self.errors.kept,
                "first_error": self.first_error.filter(|_| errors > 0),
            }),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.failing.approx_heap()
            + self.errors.approx_heap()
            + self.interrupted.as_ref().map_or(0, String::capacity)
            + self.first_error.as_ref().map_or(0, String::capacity)
    }
}

/// `tests/a.py::test_x[1 - 2] - assert …` → `tests/a.py::test_x[1 - 2]`: the message follows the
/// first ` - ` outside brackets.
fn node_id(rest: &str) -> &str {
    let mut depth = 0i32;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b' ' if depth <= 0 && rest[i..].starts_with(" - ") => return &rest[..i],
            _ => {}
        }
    }
    rest
}

/// `==== 3 failed, 59 passed, 1 error in 0.10s ====`, `3 failed, 59 passed in 0.10s`,
/// `no tests ran in 0.01s`.
fn parse_final_line(text: &str) -> Option<[u64; 8]> {
    let core = text.trim_matches('=').trim();
    // Most lines are not final lines: settle that from the front, before searching the line.
    let counts_first = core.starts_with("no tests ran")
        || core.split_once(' ').is_some_and(|(n, rest)| {
            n.bytes().all(|b| b.is_ascii_digit())
                && rest.starts_with(|c: char| c.is_ascii_lowercase())
        });
    if !counts_first {
        return None;
    }
    let (counts, time) = core.rsplit_once(" in ")?;
    let time = time.split(' ').next()?;
    let seconds = time.strip_suffix('s')?;
    if seconds.is_empty() || !seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let mut parsed = [0u64; 8];
    if counts == "no tests ran" {
        return Some(parsed);
    }
    for part in counts.split(", ") {
        let (n, word) = part.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        let slot = WORDS.iter().position(|words| words.contains(&word))?;
        parsed[slot] += n;
    }
    Some(parsed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_lines() {
        assert_eq!(
            parse_final_line("=== 3 failed, 59 passed, 1 error in 0.10s ==="),
            Some([59, 3, 0, 0, 0, 1, 0, 0])
        );
        assert_eq!(
            parse_final_line("3 failed, 59 passed in 0.10s"),
            Some([59, 3, 0, 0, 0, 0, 0, 0])
        );
        assert_eq!(
            parse_final_line("== 2 passed, 3 warnings in 1.20s (0:00:01) =="),
            Some([2, 0, 0, 0, 0, 0, 0, 3])
        );
        assert_eq!(parse_final_line("no tests ran in 0.01s"), Some([0; 8]));
        assert_eq!(parse_final_line("3 apples in 2s"), None);
        assert_eq!(parse_final_line("=== test session starts ==="), None);
    }

    #[test]
    fn node_ids_keep_brackets() {
        assert_eq!(node_id("t.py::x[a - b] - assert 1"), "t.py::x[a - b]");
        assert_eq!(node_id("t.py::y"), "t.py::y");
    }
}
