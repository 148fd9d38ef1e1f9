//! trybuild, Rust's compile-fail tests run inside `cargo test`: a line per case,
//! `test tests/ui/bad.rs ... ok` (`mismatch`, `error`), a mismatch's `EXPECTED:` and
//! `ACTUAL OUTPUT:` blocks of compiler output between `┈┈┈` rules, an error's message under
//! it (`Expected test case to fail to compile, but it succeeded.`), and the panic that ends
//! the run, `5 of 26 tests failed`.
//!
//! A mismatch's detail is where the two blocks first differ: the expected line and the
//! actual one, with the actual lines after it when the compiler said more than expected (an
//! error of its own). The compiler's diagnostics inside the blocks are what a case expects or
//! got, not errors of the build: this shape's facts replace rustc's.

use serde_json::json;

use super::names::{Failures, where_they_differ};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// Lines of a block kept to compare, and how long each may be.
const BLOCK_LINES: usize = 80;
const LINE_CHARS: usize = 240;
/// Actual lines shown past the first that differs, when the compiler said more.
const MORE_LINES: usize = 2;
/// Characters of an expected and an actual line shown, around where they differ.
const COMPARED_CHARS: usize = 90;

#[derive(Debug, Default)]
pub(crate) struct Trybuild {
    ok: u64,
    mismatches: u64,
    errors: u64,
    /// The panic's `5 of 26 tests failed`.
    stated: Option<(u64, u64)>,
    failures: Failures,
    block: Block,
    expected: Vec<String>,
    actual: Vec<String>,
    /// An error case's message is the next line with text.
    error_next: bool,
    /// The directory of the case being read (`tests/ui`), which its expected output calls
    /// `$DIR`.
    dir: String,
}

#[derive(Debug, Default, PartialEq, Eq, Clone, Copy)]
enum Block {
    #[default]
    None,
    /// After `EXPECTED:` or `ACTUAL OUTPUT:`, before its opening rule.
    Opening(bool),
    /// Inside; `true` for the actual output.
    In(bool),
}

impl Shape for Trybuild {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((_, status)) = case_line(text) {
            self.end_case();
            match status {
                "ok" => self.ok += 1,
                _ => {
                    if status == "mismatch" {
                        self.mismatches += 1;
                    } else {
                        self.errors += 1;
                        self.error_next = true;
                    }
                    let name = text.strip_prefix("test ").unwrap_or(text);
                    let name = name.split(" ... ").next().unwrap_or(name);
                    self.dir = name.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
                    self.failures.push_said(number, name, text);
                }
            }
            return;
        }
        let rule = !text.is_empty() && text.chars().all(|c| c == '┈');
        match self.block {
            Block::Opening(actual) if rule => self.block = Block::In(actual),
            Block::In(actual) if rule => {
                self.block = Block::None;
                if actual {
                    self.end_case();
                }
            }
            Block::In(actual) => {
                let lines = if actual {
                    &mut self.actual
                } else {
                    &mut self.expected
                };
                if lines.len() < BLOCK_LINES {
                    lines.push(cut(text.trim_end(), LINE_CHARS));
                }
            }
            _ if text == "EXPECTED:" => {
                self.expected.clear();
                self.block = Block::Opening(false);
            }
            _ if text == "ACTUAL OUTPUT:" => {
                self.actual.clear();
                self.block = Block::Opening(true);
            }
            _ if self.error_next && !text.trim().is_empty() => {
                self.error_next = false;
                if let Some(failure) = self.failures.current() {
                    failure.add_detail(text);
                }
            }
            _ => {
                if let Some(stated) = stated(text) {
                    self.stated = Some(stated);
                }
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_case();
        let failed = self.mismatches + self.errors;
        let cases = self.ok + failed;
        if cases == 0 || (failed == 0 && self.stated.is_none()) {
            return None;
        }
        let mut line = match self.stated {
            Some((f, of)) => format!("trybuild: {f} of {of} tests failed"),
            None => format!(
                "trybuild: {} cases, {} ok, {} failed",
                thousands(cases),
                thousands(self.ok),
                thousands(failed)
            ),
        };
        if failed > 0 {
            line.push_str(&format!(
                " ({} mismatch, {} error)",
                thousands(self.mismatches),
                thousands(self.errors)
            ));
        }
        let json = json!({
            "shape": "trybuild",
            "cases": cases,
            "ok": self.ok,
            "mismatch": self.mismatches,
            "error": self.errors,
            "stated": self.stated.map(|(f, of)| json!({"failed": f, "of": of})),
        });
        let listed = self.failures.take_as("failed trybuild cases");
        Some(
            Fact::new("trybuild", vec![line], json)
                .failures(listed)
                .hint_if_failed(
                    failed > 0,
                    "'^test .* \\.\\.\\. (mismatch|error)$|^(EXPECTED|ACTUAL OUTPUT):' -A 8",
                )
                .supersedes(&["rustc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self
                .expected
                .iter()
                .chain(&self.actual)
                .map(|l| l.capacity() + 24)
                .sum::<usize>()
    }
}

impl Trybuild {
    /// A mismatch read to the end of its actual output: where the two differ is its detail.
    fn end_case(&mut self) {
        self.error_next = false;
        if self.actual.is_empty() {
            return;
        }
        let (expected, actual) = (
            std::mem::take(&mut self.expected),
            std::mem::take(&mut self.actual),
        );
        let said = |l: &&String| !l.trim().is_empty() && l.trim() != "|";
        let e: Vec<&str> = expected.iter().filter(said).map(|l| l.trim()).collect();
        let a: Vec<&str> = actual.iter().filter(said).map(|l| l.trim()).collect();
        // As trybuild compares them: the case's directory is `$DIR` in what it expects.
        let dir = format!("{}/", self.dir);
        let normal: Vec<String> = a.iter().map(|l| l.replace(&dir, "$DIR/")).collect();
        let Some(at) = (0..e.len().max(a.len()))
            .find(|&i| e.get(i).copied() != normal.get(i).map(String::as_str))
        else {
            return;
        };
        let Some(failure) = self.failures.current() else {
            return;
        };
        match (e.get(at), a.get(at)) {
            (Some(expected), Some(actual)) => {
                let (expected, actual) = where_they_differ(expected, actual, COMPARED_CHARS);
                failure.add_detail(&format!("expected: {expected}"));
                failure.add_detail(&format!("actual: {actual}"));
            }
            (Some(expected), None) => {
                failure.add_detail(&format!("expected: {expected}"));
                failure.add_detail("actual: (no more)");
            }
            (None, actual) => {
                failure.add_detail("expected: (no more)");
                if let Some(actual) = actual {
                    failure.add_detail(&format!("actual: {actual}"));
                }
            }
        }
        if at >= e.len() {
            for line in a.iter().skip(at + 1).take(MORE_LINES) {
                failure.add_detail(line);
            }
        }
    }
}

/// `test tests/ui/bad.rs ... mismatch` → the case's file and its status.
fn case_line(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("test ")?;
    let (path, status) = rest.split_once(" ... ")?;
    let case = path.ends_with(".rs") && !path.contains(' ');
    (case && matches!(status, "ok" | "mismatch" | "error")).then_some((path, status))
}

/// The panic's `5 of 26 tests failed`.
fn stated(text: &str) -> Option<(u64, u64)> {
    let (failed, of) = text.strip_suffix(" tests failed")?.split_once(" of ")?;
    Some((failed.parse().ok()?, of.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_lines_and_the_closing_count() {
        assert_eq!(
            case_line("test tests/ui/bad.rs ... mismatch"),
            Some(("tests/ui/bad.rs", "mismatch"))
        );
        assert_eq!(case_line("test a::b ... ok"), None);
        assert_eq!(case_line("test src/lib.rs - f (line 3) ... ok"), None);
        assert_eq!(stated("5 of 26 tests failed"), Some((5, 26)));
    }
}
