//! node-tap's own reporter (tap 15 and 16): a live area redrawn as the run goes (`RUNS
//! test/a.js`, `Suites:   0 of 8 completed`, `Asserts:  352 passed, of 352`), each failed
//! assertion printed once above it as a block — ` ✖ should be equal`, the test's source around
//! the call, a diff of `--- expected` and `+++ actual`, then `test: test/a.js string methods`,
//! `at:` with its `line:` and `file:`, and the stack — and at the end `🌈 SUMMARY RESULTS 🌈`:
//! each file that failed (`FAIL  test/a.js 8 failed of 137 2s`) with its failed assertions,
//! then the closing `Suites:` and `Asserts:` counts.
//!
//! Stated: the closing counts as printed; the files that failed, with their counts; each failed
//! assertion, named by its test and its own words, with the values compared and where.
//! An assertion listed without its block (the live area and the summary list them) is not
//! read again.

use serde_json::json;

use super::names::{Failures, where_they_differ};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// How much of a value compared is shown, around where the two differ.
const VALUE_CHARS: usize = 80;
/// How many files that failed are kept.
const FILES_KEPT: usize = 32;

#[derive(Debug, Default)]
pub(crate) struct NodeTap {
    failures: Failures,
    /// The failed assertion whose block is being read.
    block: Option<Block>,
    /// The last `Suites:` and `Asserts:` lines, as printed.
    suites: Option<String>,
    asserts: Option<String>,
    /// Each file that failed, with its last `FAIL` line (the live area's counts grow).
    failed_files: Vec<(String, String)>,
    failed_files_past: bool,
}

/// A failed assertion's block: its words, and what its lines said.
#[derive(Debug, Default)]
struct Block {
    line: u64,
    assertion: String,
    test: Option<String>,
    expected: Option<String>,
    actual: Option<String>,
    /// The diff's header was read: its `-` and `+` lines are the values.
    in_diff: bool,
    file: Option<String>,
    at_line: Option<String>,
}

impl Shape for NodeTap {
    fn line(&mut self, number: u64, text: &str) {
        let t = text.trim();
        if let Some(assertion) = t.strip_prefix("✖ ") {
            self.end_block();
            self.block = Some(Block {
                line: number,
                assertion: cut(assertion, 200),
                ..Block::default()
            });
            return;
        }
        if let Some(counts) = t.strip_prefix("Suites:") {
            self.end_block();
            self.suites = Some(format!("Suites: {}", squeezed(counts)));
            return;
        }
        if let Some(counts) = t.strip_prefix("Asserts:") {
            self.end_block();
            self.asserts = Some(format!("Asserts: {}", squeezed(counts)));
            return;
        }
        if let Some(rest) = t.strip_prefix("FAIL ") {
            self.end_block();
            self.failed_file(rest.trim());
            return;
        }
        if t.starts_with("RUNS ") || t.starts_with("PASS ") {
            self.end_block();
            return;
        }
        let Some(block) = &mut self.block else {
            return;
        };
        if let Some(test) = text.strip_prefix("  test: ") {
            block.test = Some(cut(test.trim(), 200));
        } else if let Some(n) = text.strip_prefix("    line: ") {
            block.at_line = Some(n.trim().to_owned());
        } else if let Some(f) = text.strip_prefix("    file: ") {
            block.file = Some(f.trim().to_owned());
        } else if t.starts_with("--- expected") {
            block.in_diff = true;
        } else if block.in_diff && t.starts_with('-') && !t.starts_with("---") {
            block
                .expected
                .get_or_insert_with(|| t[1..].trim().to_owned());
        } else if block.in_diff && t.starts_with('+') && !t.starts_with("+++") {
            block.actual.get_or_insert_with(|| t[1..].trim().to_owned());
        } else if let Some(v) = text.strip_prefix("  found: ") {
            block.actual.get_or_insert_with(|| v.trim().to_owned());
        } else if let Some(v) = text.strip_prefix("  wanted: ") {
            block.expected.get_or_insert_with(|| v.trim().to_owned());
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        let (Some(suites), Some(asserts)) = (&self.suites, &self.asserts) else {
            return None;
        };
        if !suites.contains(" completed") {
            return None;
        }
        let mut lines = vec![format!("tap: {suites} · {asserts}")];
        if !self.failed_files.is_empty() {
            let files: Vec<String> = self
                .failed_files
                .iter()
                .map(|(file, said)| match said.strip_prefix(file.as_str()) {
                    Some(counts) if !counts.trim().is_empty() => {
                        format!("{file} ({})", counts.trim())
                    }
                    _ => file.clone(),
                })
                .collect();
            let more = if self.failed_files_past {
                ", and more"
            } else {
                ""
            };
            lines.push(format!(
                "files that failed ({}{more}): {}",
                thousands(self.failed_files.len() as u64),
                files.join(", ")
            ));
        }
        let failed = self.failures.total;
        let json = json!({
            "shape": "node-tap",
            "suites": suites,
            "asserts": asserts,
            "failed_files": self.failed_files.iter().map(|(f, _)| f).collect::<Vec<_>>(),
            "failed_assertions_read": failed,
        });
        let mut listed = self.failures;
        Some(
            Fact::new("node-tap", lines, json)
                .failures(listed.take_as("failed assertions"))
                .hint_if_failed(failed > 0, "'^ *✖ ' -A 16")
                // Its blocks' `test:`, `at:` and `stack:` are TAP's YAML words.
                .supersedes(&["TAP"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.suites.as_ref().map_or(0, String::capacity)
            + self.asserts.as_ref().map_or(0, String::capacity)
            + self
                .failed_files
                .iter()
                .map(|(a, b)| a.capacity() + b.capacity() + 48)
                .sum::<usize>()
            + self.block.as_ref().map_or(0, |b| {
                b.assertion.capacity()
                    + [&b.test, &b.expected, &b.actual, &b.file, &b.at_line]
                        .iter()
                        .map(|s| s.as_ref().map_or(0, String::capacity))
                        .sum::<usize>()
            })
    }
}

impl NodeTap {
    /// `test/a.js 8 failed of 137 2s`: the file's last such line is kept.
    fn failed_file(&mut self, said: &str) {
        let said = squeezed(said);
        let file = said.split(' ').next().unwrap_or_default().to_owned();
        if let Some(kept) = self.failed_files.iter_mut().find(|(f, _)| *f == file) {
            kept.1 = said;
        } else if self.failed_files.len() < FILES_KEPT {
            self.failed_files.push((file, said));
        } else {
            self.failed_files_past = true;
        }
    }

    /// A block is over: a failed assertion when it named its test (a list's `✖` line names
    /// none).
    fn end_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let Some(test) = block.test else {
            return;
        };
        self.failures
            .push(block.line, &format!("{test} › {}", block.assertion));
        let mut detail = Vec::new();
        match (block.expected, block.actual) {
            (Some(expected), Some(actual)) => {
                let (e, a) = where_they_differ(
                    &format!("expected: {expected}"),
                    &format!("actual: {actual}"),
                    VALUE_CHARS,
                );
                detail.push(e);
                detail.push(a);
            }
            (Some(only), None) => detail.push(format!("expected: {only}")),
            (None, Some(only)) => detail.push(format!("actual: {only}")),
            (None, None) => {}
        }
        match (block.file, block.at_line) {
            (Some(file), Some(line)) => detail.push(format!("at {file}:{line}")),
            (Some(file), None) => detail.push(format!("at {file}")),
            _ => {}
        }
        if let Some(f) = self.failures.current() {
            f.add_detail(&detail.join(" · "));
        }
    }
}

/// Runs of spaces said as one: the live area pads its columns.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<Fact> {
        super::super::read_lines::<NodeTap>(text)
    }

    #[test]
    fn a_block_is_a_failure_and_a_list_entry_is_not() {
        let fact = read(
            " RUNS  test/a.js 3 OK 1s\n\
             Suites:   0 of 1 completed\n\
             Asserts:  3 passed, of 3\n\
             \u{20}FAIL  test/a.js 1 failed of 4 1s\n\
             \u{20}✖ should be equal\n\
             \n\
             \u{20} t.equal(a(), 1)\n\
             ----^\n\
             \n\
             \u{20} --- expected\n\
             \u{20} +++ actual\n\
             \u{20} @@ -1,1 +1,1 @@\n\
             \u{20} -1\n\
             \u{20} +2\n\
             \n\
             \u{20} test: test/a.js adds\n\
             \u{20} at:\n\
             \u{20}   line: 7\n\
             \u{20}   column: 3\n\
             \u{20}   file: test/a.js\n\
             \u{20}FAIL  test/a.js 1 failed of 4 1s\n\
             \u{20}✖ should be equal\n\
             Suites:   1 failed, 1 of 1 completed\n\
             Asserts:  1 failed, 3 passed, of 4\n",
        )
        .expect("read");
        assert_eq!(
            fact.lines,
            [
                "tap: Suites: 1 failed, 1 of 1 completed · Asserts: 1 failed, 3 passed, of 4",
                "files that failed (1): test/a.js (1 failed of 4 1s)",
            ]
        );
        let failures = &fact.failures[0];
        assert_eq!(failures.total, 1);
        assert_eq!(failures.kept[0].name, "test/a.js adds › should be equal");
        assert_eq!(
            failures.kept[0].detail,
            ["expected: 1 · actual: 2 · at test/a.js:7"]
        );
    }

    #[test]
    fn counts_without_their_suites_line_are_another_runner_s() {
        assert!(read("Asserts:  3 passed, of 3\n").is_none());
    }
}
