//! `bun test`: each file's name on a line of its own (`tests/a.test.js:`), a line per test
//! (`(pass) suite > name [0.09ms]`, `(fail) …`, `(skip) …`, `(todo) …`; `✓`/`✗` on a
//! terminal), and a failure's report *before* its `(fail)` line: the code frame
//! (`48 |   expect(x).toBe(y);`), the error (`error: expect(received).toBe(expected)`,
//! `TypeError: …`), `Expected:` / `Received:`, and the stack. An error outside any test is
//! reported under `# Unhandled error between tests`. The failing tests are listed again
//! (`16 tests failed:`) before the counts (` 1027 pass`, ` 16 fail`, ` 1 error`) and
//! `Ran 1043 tests across 97 files.`, by which the run is recognised.

use serde_json::json;

use super::crash::is_exception_line;
use super::jest::JsDetail;
use super::names::{Failure, Failures};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// How long a failing test's name may be.
const NAME_CHARS: usize = 160;

#[derive(Debug, Default)]
pub(crate) struct Bun {
    failures: Failures,
    /// The report read since the last test line, for the test that fails next.
    report: Option<(Failure, JsDetail)>,
    /// The test file being run.
    file: Option<String>,
    /// In the closing list of failing (or skipped) tests, which are not counted again.
    in_recap: bool,
    /// After `# Unhandled error between tests`, until its error is read.
    unhandled: bool,
    /// ` N pass`, ` N fail`, ` N error`, ` N skip`, ` N todo`.
    counts: [u64; 5],
    /// `Ran N tests across M files.`: tests and files, summed over runs.
    ran: Option<(u64, u64)>,
}

const COUNT_WORDS: [&str; 5] = ["pass", "fail", "error", "skip", "todo"];

impl Shape for Bun {
    fn line(&mut self, number: u64, text: &str) {
        if self.in_recap {
            if text.trim().is_empty() {
                self.in_recap = false;
            }
            return;
        }
        if let Some((word, n)) = count_line(text) {
            self.counts[word] = self.counts[word].saturating_add(n);
            return;
        }
        if let Some((tests, files)) = ran(text) {
            let (t, f) = self.ran.get_or_insert((0, 0));
            *t = t.saturating_add(tests);
            *f = f.saturating_add(files);
            return;
        }
        if let Some((result, name)) = test_line(text) {
            let report = self.report.take();
            if result == "fail" {
                let mut failure = report.map(|(f, _)| f).unwrap_or_default();
                if failure.detail.is_empty() {
                    failure.line = number;
                }
                failure.name = cut(name, NAME_CHARS);
                self.failures.push_failure(failure);
            }
            return;
        }
        if is_recap(text) {
            self.report = None;
            self.in_recap = true;
            return;
        }
        if text == "# Unhandled error between tests" {
            self.report = None;
            self.unhandled = true;
            return;
        }
        if self.unhandled {
            let t = text.trim();
            if t.is_empty() || t.bytes().all(|b| b == b'-') {
                return;
            }
            self.unhandled = false;
            let place = self.file.as_deref().unwrap_or("a test file");
            self.failures
                .push(number, &format!("unhandled error between tests in {place}"));
            if let Some(f) = self.failures.current() {
                f.add_detail(t);
            }
            return;
        }
        if let Some(file) = file_line(text) {
            self.report = None;
            self.file = Some(cut(file, NAME_CHARS));
            return;
        }
        // A caret under the code frame says nothing in a summary.
        if text.ends_with('^') && text.trim_start().bytes().all(|b| b == b'^') {
            return;
        }
        if self.report.is_none() && starts_report(text) {
            self.report = Some((Failure::default(), JsDetail::default()));
        }
        if let Some((failure, detail)) = &mut self.report
            && !detail.line(failure, number, text)
        {
            self.report = None;
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let (tests, files) = self.ran?;
        let [passed, failed, errors, skipped, todo] = self.counts;
        let mut line = format!(
            "bun test: {}, {} passed, {} failed",
            plural(tests, "test", "tests"),
            thousands(passed),
            thousands(failed)
        );
        for (n, word) in [(errors, "error"), (skipped, "skipped"), (todo, "todo")] {
            if n > 0 {
                let word = if word == "error" && n > 1 {
                    "errors"
                } else {
                    word
                };
                line.push_str(&format!(", {} {word}", thousands(n)));
            }
        }
        line.push_str(&format!(" ({})", plural(files, "file", "files")));
        let json = json!({
            "shape": "bun test",
            "tests": tests,
            "files": files,
            "passed": passed,
            "failed": failed,
            "errors": errors,
            "skipped": skipped,
            "todo": todo,
        });
        let failing = failed > 0 || errors > 0;
        Some(
            Fact::new("bun test", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failing, "'^\\(fail\\)|^error: |Expected|Received' -B 2")
                .supersedes(&["log", "numbered failures"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.file.as_ref().map_or(0, String::capacity)
            + self.report.as_ref().map_or(0, |(f, _)| {
                f.name.capacity() + f.detail.iter().map(String::capacity).sum::<usize>()
            })
    }
}

/// `(fail) suite > name [0.42ms]` (or `✗ …`) → (`fail`, `suite > name`).
fn test_line(text: &str) -> Option<(&str, &str)> {
    let (result, rest) = if let Some(rest) = text.strip_prefix('(') {
        let (result, rest) = rest.split_once(") ")?;
        (result, rest)
    } else if let Some(rest) = text.strip_prefix("✓ ") {
        ("pass", rest)
    } else if let Some(rest) = text.strip_prefix("✗ ") {
        ("fail", rest)
    } else {
        return None;
    };
    if !matches!(result, "pass" | "fail" | "skip" | "todo") {
        return None;
    }
    let name = match rest.rsplit_once(" [") {
        Some((name, time)) if time.ends_with("s]") => name,
        _ => rest,
    };
    Some((result, name.trim_end()))
}

/// ` 1027 pass` → (0, 1027), with the index of its word in `COUNT_WORDS`.
fn count_line(text: &str) -> Option<(usize, u64)> {
    let t = text.strip_prefix(' ')?;
    let (n, word) = t.split_once(' ')?;
    let word = COUNT_WORDS
        .iter()
        .position(|w| *w == word || (*w == "error" && word == "errors"))?;
    Some((word, n.parse().ok()?))
}

/// `Ran 1043 tests across 97 files. [6.92s]` → (1043, 97).
fn ran(text: &str) -> Option<(u64, u64)> {
    let rest = text.strip_prefix("Ran ")?;
    let (tests, rest) = rest.split_once(' ')?;
    let rest = rest
        .strip_prefix("tests across ")
        .or_else(|| rest.strip_prefix("test across "))?;
    let (files, rest) = rest.split_once(' ')?;
    rest.starts_with("file").then_some(())?;
    Some((tests.parse().ok()?, files.parse().ok()?))
}

/// `16 tests failed:`, `1 test skipped:`: the closing lists.
fn is_recap(text: &str) -> bool {
    if !text.starts_with(|c: char| c.is_ascii_digit()) || !text.ends_with(':') {
        return false;
    }
    let Some((n, rest)) = text.split_once(' ') else {
        return false;
    };
    !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && matches!(
            rest,
            "tests failed:"
                | "test failed:"
                | "tests skipped:"
                | "test skipped:"
                | "tests todo:"
                | "test todo:"
        )
}

/// `tests/help.suggestion.test.js:` → the file.
fn file_line(text: &str) -> Option<&str> {
    let file = text.strip_suffix(':')?;
    let name = file.rsplit('/').next()?;
    let test_file = name.contains(".test.")
        || name.contains("_test.")
        || name.contains(".spec.")
        || name.contains("_spec.");
    (test_file && !file.contains(' ')).then_some(file)
}

/// A failure's report begins with its code frame (`48 |   expect(x)`) or its error.
fn starts_report(text: &str) -> bool {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && text[digits..].starts_with(" | ") {
        return true;
    }
    if text.starts_with("error: ") {
        return true;
    }
    // `TypeError: …`, `AssertionError [ERR_ASSERTION]: …`
    is_exception_line(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tests_counts_and_files() {
        assert_eq!(
            test_line("(fail) a > when x then y [0.42ms]"),
            Some(("fail", "a > when x then y"))
        );
        assert_eq!(test_line("(skip) later"), Some(("skip", "later")));
        assert_eq!(test_line("✗ b [1.00s]"), Some(("fail", "b")));
        assert_eq!(test_line("(see above) x"), None);
        assert_eq!(count_line(" 1027 pass"), Some((0, 1027)));
        assert_eq!(count_line(" 1 error"), Some((2, 1)));
        assert_eq!(count_line(" 1305 expect() calls"), None);
        assert_eq!(
            ran("Ran 1043 tests across 97 files. [6.92s]"),
            Some((1043, 97))
        );
        assert_eq!(ran("Ran 1 test across 1 file. [5.00ms]"), Some((1, 1)));
        assert!(is_recap("16 tests failed:"));
        assert!(!is_recap("16 tests failed: see above"));
        assert_eq!(
            file_line("tests/help.suggestion.test.js:"),
            Some("tests/help.suggestion.test.js")
        );
        assert_eq!(file_line("Expected:"), None);
    }
}
