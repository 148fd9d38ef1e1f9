//! Python's unittest runner (`python -m unittest`, Django's `manage.py test`): the total
//! (`Ran 1141 tests in 1.149s`, then `FAILED (failures=54, errors=51, skipped=66)` or `OK`),
//! and a block per failure or error (`======…`, `FAIL: test_x (module.Class.test_x)`, `------…`,
//! the traceback). A failure's detail is its exception line and the innermost frame of its
//! traceback; after a chained traceback, the last one's. A harness of its own may name its
//! tests otherwise (`FAIL: cli/filevars/file_vars_after_path`): such a header opens a block
//! when the dashes follow it.
//!
//! A run that stopped before its summary (the harness crashed, the run was killed) still has
//! its blocks, and, when verbose, a result per test (`name ... FAIL`): those are counted, and
//! the failures whose block was never printed are named from them.

use std::collections::VecDeque;

use serde_json::json;

use super::names::{Failures, is_rule, test_counts};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// The verbose results counted, as printed after ` ... `.
const RESULTS: [&str; 4] = ["ok", "FAIL", "ERROR", "skipped"];
/// How many of the last failing tests' names are kept, for those whose block never printed.
const FAILED_LAST_KEPT: usize = 8;

/// The outcome counts unittest reports in parentheses, in its order.
const OUTCOMES: [&str; 5] = [
    "failures",
    "errors",
    "skipped",
    "expected failures",
    "unexpected successes",
];

#[derive(Debug, Default)]
pub(crate) struct Unittest {
    ran: Option<u64>,
    /// `OK` or `FAILED`, with the counts of `OUTCOMES`.
    verdict: Option<(bool, [u64; 5])>,
    /// `FAIL:` and `ERROR:` blocks read.
    blocks: [u64; 2],
    failures: Failures,
    after_separator: bool,
    block: Option<Block>,
    /// A header in a harness's own naming, which is a block's when dashes follow: its line,
    /// its kind, the test's name and the header.
    unconfirmed: Option<(u64, usize, String, String)>,
    /// The verbose results printed (`name ... ok`): ok, FAIL, ERROR, skipped.
    results: [u64; 4],
    /// The last tests whose verbose result was FAIL or ERROR.
    failed_last: VecDeque<String>,
    /// A block was a subtest's (`FAIL: test_x (m.C.test_x) [case]`): unittest counts each
    /// failing subtest, so the failures and errors are not tests, and passed is not `ran`
    /// less them.
    subtests: bool,
}

/// How many lines of an exception's message after its first are kept.
const MESSAGE_LINES: u8 = 2;
/// How long a message grows before no more of its lines are kept.
const MESSAGE_CHARS: usize = 300;

/// The traceback of the failure being read.
#[derive(Debug, Default)]
struct Block {
    /// The test method's name (`test_x` of `FAIL: test_x (module.Class.test_x)`).
    method: String,
    /// The innermost frame of the traceback so far, as printed: `File "x.py", line 4, in f`.
    location: Option<String>,
    /// The frame of the test method itself, when the traceback went deeper: where the test
    /// reached what raised.
    test_frame: Option<String>,
    exception: Option<String>,
    /// Lines of the exception's message after its first, while they go on (mock's `Expected:
    /// filter(a__gte=1)` and `Actual: filter(a__gt=1)` under `expected call not found.`).
    message_lines: u8,
    /// The innermost frame of the project's own code, when a library's frames are deeper.
    own_location: Option<String>,
    /// Past the `------` line under the header.
    in_traceback: bool,
    /// A traceback's frames were read and its exception line is next.
    awaiting_exception: bool,
}

impl Shape for Unittest {
    fn line(&mut self, number: u64, text: &str) {
        let separator = is_rule(text, b'=', 20);
        let dashes = is_rule(text, b'-', 20);
        if separator {
            self.end_block();
            self.after_separator = true;
            return;
        }
        if let Some((line, kind, name, said)) = self.unconfirmed.take()
            && dashes
        {
            self.open_block(line, kind, &name, &said);
            if let Some(block) = &mut self.block {
                block.in_traceback = true;
            }
            return;
        }
        if std::mem::take(&mut self.after_separator)
            && let Some((kind, header)) = text
                .strip_prefix("FAIL: ")
                .map(|h| (0, h))
                .or_else(|| text.strip_prefix("ERROR: ").map(|h| (1, h)))
        {
            match test_id(header) {
                Some(name) => self.open_block(number, kind, &name, text),
                None if is_harness_name(header) => {
                    self.unconfirmed = Some((number, kind, header.to_owned(), text.to_owned()));
                }
                None => {}
            }
            return;
        }
        if let Some(block) = &mut self.block {
            if dashes {
                if block.in_traceback {
                    // The line above `Ran N tests`.
                    self.end_block();
                } else {
                    block.in_traceback = true;
                }
                return;
            }
            if block.in_traceback {
                block.read(text);
            }
            return;
        }
        if self.verdict.is_none()
            && matches!(text.as_bytes().last(), Some(b'k' | b'L' | b'R' | b'\''))
            && let Some((name, result)) = text.rsplit_once(" ... ")
        {
            let result = result.split(' ').next().unwrap_or(result);
            if let Some(i) = RESULTS.iter().position(|r| *r == result) {
                self.results[i] += 1;
                if (1..=2).contains(&i) {
                    if self.failed_last.len() == FAILED_LAST_KEPT {
                        self.failed_last.pop_front();
                    }
                    // A test before it that printed no result (`a ... b ... FAIL`) is not it.
                    let name = name.rsplit_once(" ... ").map_or(name, |(_, n)| n);
                    self.failed_last.push_back(cut(name.trim(), 200));
                }
                return;
            }
        }
        if let Some(ran) = ran_line(text) {
            self.ran = Some(ran);
        } else if self.ran.is_some()
            && let Some(verdict) = verdict_line(text)
        {
            self.verdict = Some(verdict);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        let (Some(ran), Some((ok, counts))) = (self.ran, self.verdict) else {
            return self.unfinished();
        };
        let [failures, errors, skipped, expected, unexpected] = counts;
        // With subtests, how many tests passed is not said: unittest counts each failing one.
        let passed = (!self.subtests)
            .then(|| ran.saturating_sub(failures + errors + skipped + expected + unexpected));
        let others: Vec<(u64, &str)> = counts[2..]
            .iter()
            .copied()
            .zip(OUTCOMES[2..].iter().copied())
            .collect();
        let verdict = if ok { "OK" } else { "FAILED" };
        let runner = match self.subtests {
            true => format!("unittest: {verdict}; failures and errors count subtests"),
            false => format!("unittest: {verdict}"),
        };
        let line = test_counts(ran, passed, failures, Some(errors), &others, &runner);
        let json = json!({
            "shape": "unittest",
            "ran": ran,
            "ok": ok,
            "passed": passed,
            "failed": failures,
            "errors": errors,
            "skipped": skipped,
            "expected_failures": expected,
            "unexpected_successes": unexpected,
            "blocks": {"fail": self.blocks[0], "error": self.blocks[1]},
        });
        let listed = self.failures.take_as("failed tests (FAIL and ERROR)");
        Some(
            Fact::new("unittest", vec![line], json)
                .failures(listed)
                .hint_if_failed(failures + errors > 0, "'^(FAIL|ERROR): ' -A 15"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.block.as_ref().map_or(0, |b| {
                b.method.capacity()
                    + b.location.as_ref().map_or(0, String::capacity)
                    + b.test_frame.as_ref().map_or(0, String::capacity)
                    + b.exception.as_ref().map_or(0, String::capacity)
            })
            + self
                .unconfirmed
                .as_ref()
                .map_or(0, |(_, _, n, s)| n.capacity() + s.capacity())
            + self.failed_last.iter().map(String::capacity).sum::<usize>()
    }
}

impl Unittest {
    /// A `FAIL:` or `ERROR:` block (`kind` 0 or 1) opens at `line`.
    fn open_block(&mut self, line: u64, kind: usize, name: &str, said: &str) {
        let header = said.split_once(": ").map_or(said, |(_, h)| h);
        self.blocks[kind] += 1;
        self.subtests |= header
            .split_once(") ")
            .is_some_and(|(_, p)| !p.trim().is_empty());
        self.failures.push_said(line, name, said);
        self.block = Some(Block {
            method: header.split(' ').next().unwrap_or("").to_owned(),
            ..Block::default()
        });
    }

    /// A run without its summary: what its blocks and its verbose results say, when it
    /// printed a block.
    fn unfinished(mut self) -> Option<Fact> {
        let [fail, error] = self.blocks;
        if fail + error == 0 {
            return None;
        }
        let mut lines = vec![format!(
            "unittest: no summary (the run stopped before `Ran N tests`); {} FAIL and {} \
             ERROR reports",
            thousands(fail),
            thousands(error)
        )];
        let [passed, failed, errors, skipped] = self.results;
        if failed + errors > 0 {
            lines[0].push_str(&format!(
                "; results printed: {} ok, {} FAIL, {} ERROR, {} skipped",
                thousands(passed),
                thousands(failed),
                thousands(errors),
                thousands(skipped)
            ));
            // Reports are printed in the order the tests failed: the last failures have none.
            let unreported = (failed + errors).saturating_sub(fail + error);
            let named: Vec<&str> = self
                .failed_last
                .iter()
                .skip(self.failed_last.len().saturating_sub(unreported as usize))
                .map(String::as_str)
                .collect();
            if unreported > 0 {
                let more = unreported - named.len() as u64;
                lines.push(format!(
                    "failed with no report printed ({}): {}{}",
                    thousands(unreported),
                    if more > 0 {
                        format!("… {} more, ", thousands(more))
                    } else {
                        String::new()
                    },
                    named.join(", ")
                ));
            }
        }
        let json = json!({
            "shape": "unittest",
            "complete": false,
            "blocks": {"fail": fail, "error": error},
            "results": {"ok": passed, "fail": failed, "error": errors, "skipped": skipped},
        });
        let listed = self.failures.take_as("failed tests (FAIL and ERROR)");
        Some(
            Fact::new("unittest", lines, json)
                .failures(listed)
                .hint("'^(FAIL|ERROR): ' -A 15"),
        )
    }

    /// The failure being read is complete: its exception and where.
    fn end_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        if let Some(failure) = self.failures.current() {
            let location = block.own_location.or(block.location);
            let test_frame = block.test_frame.filter(|t| Some(t) != location.as_ref());
            for detail in block.exception.iter().chain(&location).chain(&test_frame) {
                failure.add_detail(detail);
            }
        }
    }
}

impl Block {
    fn read(&mut self, text: &str) {
        if text == "Traceback (most recent call last):" {
            self.awaiting_exception = true;
            self.location = None;
            return;
        }
        if text.starts_with("  File \"") {
            // Where, as Python says it: `File "/x/test_tools.py", line 166, in test`.
            let frame = text.trim().to_owned();
            let path = frame["File \"".len()..]
                .split('"')
                .next()
                .unwrap_or_default();
            if super::pytrace::is_own(path) {
                self.own_location = Some(frame.clone());
            }
            if !self.method.is_empty()
                && frame
                    .strip_suffix(self.method.as_str())
                    .is_some_and(|f| f.ends_with(", in "))
            {
                self.test_frame = Some(frame.clone());
            }
            self.location = Some(frame);
            return;
        }
        if self.awaiting_exception && !text.starts_with(' ') && !text.is_empty() {
            self.exception = Some(text.to_owned());
            self.awaiting_exception = false;
            self.message_lines = 0;
        } else if !self.awaiting_exception
            && self.message_lines < MESSAGE_LINES
            && let Some(exception) = &mut self.exception
        {
            // A message that compares says its values on its first line (`'a' != 'b'`), and
            // the lines under it are its diff.
            if text.trim().is_empty() || exception.contains(" != ") {
                self.message_lines = MESSAGE_LINES;
            } else if exception.len() < MESSAGE_CHARS {
                exception.push_str(" · ");
                exception.push_str(text.trim());
                self.message_lines += 1;
            }
        }
    }
}

/// `test_x (module.Class.test_x)` → `module.Class.test_x`; Python before 3.11 prints
/// `test_x (module.Class)`; a subtest adds its parameters (`… (i=3)`), kept.
pub(crate) fn test_id(header: &str) -> Option<String> {
    let (method, rest) = header.split_once(" (")?;
    let (inner, params) = rest.split_once(')')?;
    if method.is_empty() || method.contains(' ') || inner.is_empty() || inner.contains(' ') {
        return None;
    }
    let mut id = if inner == method || inner.ends_with(&format!(".{method}")) {
        inner.to_owned()
    } else {
        format!("{inner}.{method}")
    };
    id.push_str(params.trim_end());
    Some(id)
}

/// A harness's own name for a test, as its `FAIL:` header says it: one word, then maybe its
/// tags (`markdown2/tm/header_ids_1 [extra, header-ids]`).
fn is_harness_name(header: &str) -> bool {
    let name = match header.split_once(" [") {
        Some((name, tags)) if tags.ends_with(']') => name,
        _ => header,
    };
    !name.is_empty() && !name.contains(' ') && name.len() <= 200
}

/// `Ran 1141 tests in 1.149s` → 1141.
fn ran_line(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Ran ")?;
    let (n, rest) = rest.split_once(' ')?;
    (rest.starts_with("test in ") || rest.starts_with("tests in "))
        .then(|| n.parse().ok())
        .flatten()
}

/// `FAILED (failures=54, errors=51, skipped=66)`, `OK`, `OK (skipped=3)`.
fn verdict_line(text: &str) -> Option<(bool, [u64; 5])> {
    let (ok, rest) = if let Some(rest) = text.strip_prefix("OK") {
        (true, rest)
    } else {
        (false, text.strip_prefix("FAILED")?)
    };
    let mut counts = [0; 5];
    let rest = rest.trim();
    if rest.is_empty() {
        return Some((ok, counts));
    }
    let inner = rest.strip_prefix('(')?.strip_suffix(')')?;
    for part in inner.split(", ") {
        let (word, n) = part.split_once('=')?;
        let i = OUTCOMES.iter().position(|o| *o == word)?;
        counts[i] = n.parse().ok()?;
    }
    Some((ok, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_totals_and_verdicts() {
        assert_eq!(
            test_id("test_toc (test_legacy.TestExtensions.test_toc)").as_deref(),
            Some("test_legacy.TestExtensions.test_toc")
        );
        assert_eq!(
            test_id("test_toc (test_legacy.TestExtensions)").as_deref(),
            Some("test_legacy.TestExtensions.test_toc")
        );
        assert_eq!(
            test_id("test_range (tests.T.test_range) (i=3)").as_deref(),
            Some("tests.T.test_range (i=3)")
        );
        assert_eq!(test_id("tests/x"), None);
        assert!(is_harness_name("cli/filevars/file_vars_after_path"));
        assert!(is_harness_name(
            "markdown2/tm/header_ids_1 [extra, header-ids]"
        ));
        assert!(!is_harness_name("the run was killed") && !is_harness_name(""));
        assert_eq!(ran_line("Ran 1141 tests in 1.149s"), Some(1141));
        assert_eq!(ran_line("Ran 1 test in 0.000s"), Some(1));
        assert_eq!(ran_line("Ran away"), None);
        assert_eq!(
            verdict_line("FAILED (failures=54, errors=51, skipped=66)"),
            Some((false, [54, 51, 66, 0, 0]))
        );
        assert_eq!(verdict_line("OK"), Some((true, [0; 5])));
        assert_eq!(
            verdict_line("OK (skipped=3, expected failures=1)"),
            Some((true, [0, 0, 3, 1, 0]))
        );
        assert_eq!(verdict_line("OKAY"), None);
        assert_eq!(verdict_line("FAILED (bogus=1)"), None);
    }
}
