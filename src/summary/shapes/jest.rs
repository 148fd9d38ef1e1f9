//! jest output: the `Tests:` and `Test Suites:` summary lines, failing tests (`FAIL file` then
//! `  ● describe › test`, named `describe › test` under their file) with their first detail (the
//! matcher or error line, `Expected:`/`Received:`, where), and suites that failed to run with
//! theirs. Jest repeats the failures after `Summary of all failing tests`: they are read once.
//! Its `github-actions` reporter, without the default one, groups each file's failures under
//! `::group::Errors thrown in file`.

use serde_json::json;

use super::names::{Failure, Failures, Names, is_test_file, js_test_counts, where_they_differ};
use super::{Fact, Shape};
use crate::format::thousands;

#[derive(Debug, Default)]
pub(crate) struct Jest {
    /// passed, failed, skipped, todo, total
    tests: Option<[u64; 5]>,
    /// passed, failed, total
    suites: Option<[u64; 3]>,
    /// `Snapshots:   15 failed, 341 passed, 356 total`: failed.
    snapshots: Option<u64>,
    current_file: Option<String>,
    repeated: bool,
    failures: Failures,
    not_run: Failures,
    failed_files: Names,
    /// Reading the detail of the last failure (of `failures`, or of `not_run` when set).
    detail: Option<JsDetail>,
    detail_of_suite: bool,
}

impl Shape for Jest {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(reader) = &mut self.detail {
            let list = if self.detail_of_suite {
                &mut self.not_run
            } else {
                &mut self.failures
            };
            if let Some(failure) = list.current()
                && reader.line(failure, number, text)
            {
                return;
            }
            self.detail = None;
        }
        // Jest 30 writes ` FAIL  file` and ` PASS  file`.
        let text = text
            .strip_prefix(' ')
            .filter(|t| t.starts_with("FAIL  ") || t.starts_with("PASS  "))
            .unwrap_or(text);
        match text.as_bytes().first() {
            Some(b'F') => {
                if let Some(file) = text.strip_prefix("FAIL ") {
                    let file = file.split(" (").next().unwrap_or(file).trim();
                    self.current_file = Some(file.to_owned());
                    if !self.repeated && !self.failed_files.contains(file) {
                        // Quoted as jest printed it (`FAIL test/a.test.js`), its time left out.
                        let said = text.split(" (").next().unwrap_or(text).trim_end();
                        self.failed_files.push_said(file, said);
                    }
                }
            }
            Some(b'P') if text.starts_with("PASS ") => self.current_file = None,
            // The `github-actions` reporter, silent: `::group::Errors thrown in file`, its
            // failures, `::endgroup::`.
            Some(b':') => {
                if let Some(file) = text.strip_prefix("::group::Errors thrown in ") {
                    let file = file.trim();
                    self.current_file = Some(file.to_owned());
                    if !self.repeated && !self.failed_files.contains(file) {
                        self.failed_files.push_said(file, text.trim_end());
                    }
                } else if text.starts_with("::endgroup::") {
                    self.current_file = None;
                }
            }
            Some(b' ') => {
                // `● Console` is what the tests logged, not a failure.
                if let Some(name) = text.strip_prefix("  ● ")
                    && name != "Console"
                    && !self.repeated
                    && let Some(file) = &self.current_file
                {
                    if name == "Test suite failed to run" {
                        self.not_run.push(number, file);
                        self.detail_of_suite = true;
                    } else {
                        self.failures.push_said(number, name, text);
                        self.detail_of_suite = false;
                    }
                    self.detail = Some(JsDetail::default());
                }
            }
            Some(b'T') => {
                if let Some(rest) = text.strip_prefix("Tests:") {
                    self.tests =
                        parse_counts(rest, &["passed", "failed", "skipped", "todo", "total"]).map(
                            |c| {
                                let mut out = [0; 5];
                                out.copy_from_slice(&c);
                                out
                            },
                        );
                    self.current_file = None;
                } else if let Some(rest) = text.strip_prefix("Test Suites:") {
                    self.suites = parse_counts(rest, &["passed", "failed", "total"])
                        .map(|c| [c[0], c[1], c[2]]);
                }
            }
            Some(b'S') if text.starts_with("Summary of all failing tests") => self.repeated = true,
            Some(b'S') => {
                if let Some(rest) = text.strip_prefix("Snapshots:") {
                    self.snapshots = parse_counts(rest, &SNAPSHOT_COUNTS).map(|c| c[0]);
                }
            }
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let [passed, failed, skipped, todo, total] = self.tests?;
        let mut line = js_test_counts(passed, failed, skipped, todo, total);
        line.push_str(" (jest");
        if let Some([_, suites_failed, suites_total]) = self.suites {
            line.push_str(&format!(
                // In jest's own words, so it reads and greps the same.
                ", Test Suites: {} failed, {} total",
                thousands(suites_failed),
                thousands(suites_total)
            ));
        }
        if let Some(failed) = self.snapshots.filter(|&n| n > 0) {
            line.push_str(&format!(", Snapshots: {} failed", thousands(failed)));
        }
        line.push(')');
        let mut lines = vec![line];
        // The failed files as jest printed them while they are few; past that, their names.
        let count = self.suites.map_or(self.failed_files.total, |s| s[1]);
        let quoted = self
            .failed_files
            .said_lines()
            .filter(|_| count == self.failed_files.total)
            .unwrap_or_default()
            .to_vec();
        if self.failed_files.total > 0 && quoted.is_empty() {
            lines.push(format!(
                "failed files ({}): {}",
                thousands(count),
                self.failed_files.render(count)
            ));
        } else if self.failed_files.total > 0 {
            lines.push(format!("failed files ({}):", thousands(count)));
        }
        let json = json!({
            "shape": "jest",
            "run": passed + failed,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "todo": todo,
            "total": total,
            "suites_failed": self.suites.map(|s| s[1]),
            "suites_total": self.suites.map(|s| s[2]),
            "snapshots_failed": self.snapshots,
            "failed_files": self.failed_files.json(),
            "failing": self.failures.names(super::names::NAMES_KEPT),
            "suites_not_run": self.not_run.names(usize::MAX),
        });
        let failing = failed > 0
            || self.suites.is_some_and(|s| s[1] > 0)
            || !self.not_run.is_empty()
            || !self.failures.is_empty();
        let not_run = self.not_run.take_as("suites that failed to run");
        // A test that failed twice (two `expect`s of a `test.each` case) has two reports: the
        // list counts reports then, the totals tests.
        let heading = if self.failures.total == failed {
            "failed tests"
        } else {
            "failure reports"
        };
        let failures = self.failures.take_as(heading);
        Some(
            Fact::new("jest", lines, json)
                .quoting(quoted)
                .failures(not_run)
                .failures(failures)
                .hint_if_failed(failing, "'●|Expected|Received' -A 3")
                // Its own terminal report reads better than its `--json` one after it.
                .supersedes(&["jest json"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.not_run.approx_heap()
            + self.failed_files.approx_heap()
            + self.current_file.as_ref().map_or(0, String::capacity)
    }
}

/// Reads a JS test failure's report (jest's after `●`, vitest's after ` FAIL `) into its first
/// detail: the error or matcher line, `Expected:` and `Received:`, and where it failed (the
/// first `at …(file:line:col)` or `❯ file:line:col`). The report ends at the first code frame
/// or stack line after the message, or at a line that starts another report.
#[derive(Debug, Default)]
pub(crate) struct JsDetail {
    located: bool,
    /// Where it failed is outside the tests' files: the stack is read on for the test's own
    /// line.
    seeking_test: bool,
    /// The last line was `Expected value to equal:` or `Received:` (jest before 24), whose
    /// value is on the next line: it joins them.
    value_next: bool,
    /// Inside a diff (`- Expected  -  3`, `+ Received  + 19`, then `-`/`+` lines), whose line
    /// of detail is the last: its labels, then its first line taken out and first put in.
    diff: Option<Diff>,
}

/// A line of a TypeScript code frame: its line number, then the code (`10     expect(x`).
fn is_code_frame_line(t: &str) -> bool {
    let code = t.trim_start_matches(|c: char| c.is_ascii_digit());
    code.len() < t.len() && code.starts_with("  ") && !code.trim().is_empty()
}

/// What a diff's line of detail has so far.
#[derive(Debug, Default)]
struct Diff {
    minus: bool,
    plus: bool,
}

impl JsDetail {
    /// Reads one line into `failure`; false when the report is over (the line is not its own).
    pub(crate) fn line(&mut self, failure: &mut Failure, number: u64, text: &str) -> bool {
        let t = text.trim();
        if t.is_empty() {
            return true;
        }
        if text.starts_with("  ● ")
            || text.starts_with("::")
            || text.starts_with("FAIL ")
            || text.starts_with("PASS ")
            || text.starts_with(" FAIL  ")
            || text.starts_with(" PASS  ")
        {
            return false;
        }
        if self.located {
            // The code frame and the rest of the stack (indented), until the next report or
            // the run's own summary (`Tests:`, at the line's start).
            let indented = text.starts_with([' ', '\t']);
            if indented
                && self.seeking_test
                && let Some(at) = location(t).filter(|at| is_test_file(at))
            {
                // Thrown in the code under test: the test's own line too.
                self.seeking_test = false;
                if let Some(last) = failure.detail.last_mut()
                    && last.starts_with("at ")
                {
                    *last = format!("{last}, from {at}");
                }
            }
            return indented && !text.starts_with(" FAIL ");
        }
        if let Some(at) = location(t) {
            self.located = true;
            if failure.has_detail() {
                failure.add_detail(&format!("at {at}"));
                self.seeking_test = !is_test_file(at);
            }
            return true;
        }
        if is_frame(t) || t.starts_with('⎯') {
            return !t.starts_with('⎯');
        }
        if self.diff.is_some() && !(t.starts_with("- ") || t.starts_with("+ ")) {
            // A line the two sides share, or where a hunk starts (`@@ -11,12 +11,20 @@`).
            return true;
        }
        if t.starts_with("- ") || t.starts_with("+ ") || t == "-" || t == "+" {
            self.diff_line(failure, t);
            return true;
        }
        if std::mem::take(&mut self.value_next)
            && let Some(label) = failure.detail.last_mut()
        {
            *label = format!("{label} {t}");
            if label.starts_with("Message: ") && failure.detail[0].starts_with("assert") {
                // Node's assert under jest: its message (chai's `expected [ 1 ] to deeply
                // equal [ 1, 1 ]`, or the test's own) says more than the call it failed in
                // (`assert.deepStrictEqual(received, expected)`), and takes its place.
                failure.detail.swap_remove(0);
            }
            compare_last_two(failure);
            return true;
        }
        let compared = t.starts_with("Expected") || t.starts_with("Received") || t == "Message:";
        self.value_next = compared && t.ends_with(':');
        // A message that ends with `:` (`Expected "x" fixture not to throw an error but it
        // did:`) is followed by what it introduces (`StructError: …`).
        let introduced =
            failure.detail.len() == 1 && failure.detail.first().is_some_and(|m| m.ends_with(':'));
        // A suite that does not compile (ts-jest): the line of code the error is in, from
        // its code frame (`10     expect(validator.postalCode).toBeInstanceOf(Function;`).
        let code = failure.detail.len() == 1
            && failure.detail[0].contains(" - error TS")
            && is_code_frame_line(t);
        let wanted = compared
            || introduced
            || code
            || !failure.has_detail()
            || t.starts_with("Snapshot name: ");
        if wanted {
            if !failure.has_detail() {
                failure.line = number;
            }
            // A label whose value has no place left is not followed by it.
            self.value_next &= failure.add_detail(t);
            if !self.value_next {
                compare_last_two(failure);
            }
        }
        true
    }

    /// A line of a diff: its labels with their counts (`- Snapshot  - 7`, `+ Received  + 1`)
    /// and its first line taken out and first put in (what a snapshot or a deep equality says
    /// changed) go on one line of detail; the rest are left out.
    fn diff_line(&mut self, failure: &mut Failure, t: &str) {
        // A label, with its count (`- Expected  -  3`) or without (`- Expected`, which says
        // nothing).
        let count = ["- Expected", "+ Received", "- Snapshot", "+ Snapshot"]
            .iter()
            .find_map(|l| t.strip_prefix(l))
            .map(|rest| rest.trim_start_matches([' ', '-', '+']));
        let label = count.is_some_and(|c| c.bytes().all(|b| b.is_ascii_digit()));
        if t[1..].trim().is_empty() || count == Some("") {
            return;
        }
        let sign = t.as_bytes()[0];
        let part = crate::format::cut(&without_style_tags(t), DIFF_PART_CHARS);
        match &mut self.diff {
            // Changed lines are the detail of a snapshot that differs, of a diff jest
            // counted, or of a message that abbreviates a value (chai's `expected { Object
            // (__value, _) } to deeply equal Right(0)`); a diff under `expected false to be
            // true` says it again.
            None if !label
                && !failure.detail.iter().any(|d| {
                    d.contains("Snapshot") || d.contains("snapshot") || abbreviates(d)
                }) => {}
            None => {
                if failure.add_detail(&part) {
                    self.diff = Some(Diff {
                        minus: !label && sign == b'-',
                        plus: !label && sign == b'+',
                    });
                }
            }
            Some(d) => {
                let first = !label
                    && match sign {
                        b'-' => !std::mem::replace(&mut d.minus, true),
                        _ => !std::mem::replace(&mut d.plus, true),
                    };
                if label || first {
                    failure.extend_detail(&part);
                }
            }
        }
    }
}

/// A snapshot of a matcher's message without the tags jest writes its colours as
/// (`<dim>expect(</intensity><red>received</color>`).
fn without_style_tags(t: &str) -> String {
    const TAGS: [&str; 12] = [
        "dim",
        "intensity",
        "bold",
        "color",
        "red",
        "green",
        "yellow",
        "blue",
        "magenta",
        "cyan",
        "inverse",
        "bgYellow",
    ];
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while let Some(i) = rest.find('<') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let name = after.strip_prefix('/').unwrap_or(after);
        match TAGS
            .iter()
            .find(|tag| name.starts_with(*tag) && name[tag.len()..].starts_with('>'))
        {
            Some(tag) => rest = &name[tag.len() + 1..],
            None => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a message shows a value by chai's abbreviations: `{ Object (a, b, ...) }`,
/// `[ Array(12) ]`, or JavaScript's `[object Object]`.
fn abbreviates(message: &str) -> bool {
    message.contains("{ Object (") || message.contains("[ Array(") || message.contains("[object ")
}

/// How much of one line of a diff is shown.
const DIFF_PART_CHARS: usize = 90;

/// `Expected: …` and `Received: …`, long, shown where they differ.
fn compare_last_two(failure: &mut Failure) {
    if let [.., expected, received] = failure.detail.as_mut_slice()
        && expected.starts_with("Expected")
        && received.starts_with("Received")
    {
        let (e, r) = where_they_differ(expected, received, COMPARED_CHARS);
        (*expected, *received) = (e, r);
    }
}

/// How much of a long value compared is shown, around where it differs.
const COMPARED_CHARS: usize = 70;

/// `at Object.toBe (test/a.test.js:698:17)`, `at test/a.test.js:5:3`, `❯ src/a/test.ts:19:65`:
/// the place, `file:line:col`, skipping frames inside dependencies and Node's internals.
pub(crate) fn location(t: &str) -> Option<&str> {
    let rest = t.strip_prefix("at ").or_else(|| t.strip_prefix("❯ "))?;
    let place = match rest.rsplit_once(" (") {
        Some((_, p)) => p.strip_suffix(')')?,
        None => rest.rsplit(' ').next()?,
    };
    // An ES module's frame names its file by URL (`file:///p/test/a.test.ts:75:49`).
    let (file, _) = place
        .strip_prefix("file://")
        .unwrap_or(place)
        .split_once(':')?;
    if file.contains("node_modules") || place.starts_with("node:") || file.is_empty() {
        return None;
    }
    place.bytes().any(|b| b.is_ascii_digit()).then_some(place)
}

/// A code frame line (`> 698 |   expect(…)`, `     17| `, `|   ^`) or a stack frame.
fn is_frame(t: &str) -> bool {
    let t = t.trim_start_matches(['>', ' ']);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    t.starts_with('|')
        || (digits > 0 && t[digits..].trim_start().starts_with('|'))
        || t.starts_with("at ")
        || t.starts_with("❯ ")
}

/// The counts of jest's `Snapshots:` line (and vitest's), failed first.
pub(crate) const SNAPSHOT_COUNTS: [&str; 7] = [
    "failed", "obsolete", "written", "updated", "removed", "passed", "total",
];

/// `3 failed, 1 skipped, 35 passed, 39 total` (jest) or `4 failed | 35 passed (41)` (vitest,
/// with the total in parentheses): the counts of `words`, 0 for those absent; `None` unless
/// every part is a known count.
pub(crate) fn parse_counts(text: &str, words: &[&str]) -> Option<Vec<u64>> {
    let mut counts = vec![0; words.len()];
    let mut any = false;
    for part in text.split([',', '|']) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (n, word) = part.split_once(' ')?;
        let slot = words.iter().position(|w| *w == word)?;
        counts[slot] = n.parse().ok()?;
        any = true;
    }
    any.then_some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_locations() {
        assert_eq!(
            location("at Object.toBe (test/a.test.js:698:17)"),
            Some("test/a.test.js:698:17")
        );
        assert_eq!(
            location("❯ src/a/test.ts:19:65"),
            Some("src/a/test.ts:19:65")
        );
        assert_eq!(location("at x (node_modules/jest/y.js:1:2)"), None);
        assert_eq!(location("at Server.emit (node:events:524:28)"), None);
        assert_eq!(location("at node:internal/main:1:2"), None);
        assert!(is_frame("> 698 |   expect(i.day).toBe(11);"));
        assert!(is_frame("17| "));
    }
}
