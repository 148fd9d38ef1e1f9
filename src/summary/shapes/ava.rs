//! AVA's default reporter (AVA 3 to 6, and 0.19's closing lines): a line per test as it ends
//! (`✘ [fail]: test › camelCase`, `✔ test › main (312ms)`, `- [skip] …`, `- [todo] …`,
//! `✔ [expected fail] …`), `Uncaught exception in test-x.js` and `✘ test-x.js exited with a
//! non-zero exit code: 1` for a file that crashed or failed to load, then after a `─` each
//! failure's block (its title, `test.js:39`, an excerpt of the source, what differed, `›`
//! frames) and the closing counts in AVA's words (`8 tests failed`, `1 known failure`,
//! `1 uncaught exception`; AVA 0.19: `18 exceptions`).

use serde_json::json;

use super::names::{Failures, Names};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// The words of AVA's closing counts, singular and plural.
const COUNTS: [(&str, &str); 14] = [
    ("test failed", "tests failed"),
    ("test passed", "tests passed"),
    ("known failure", "known failures"),
    ("test skipped", "tests skipped"),
    ("test todo", "tests todo"),
    ("uncaught exception", "uncaught exceptions"),
    ("unhandled rejection", "unhandled rejections"),
    ("test remained", "tests remained"),
    ("exception", "exceptions"),
    ("rejection", "rejections"),
    ("failed", "failed"),
    ("passed", "passed"),
    ("skipped", "skipped"),
    ("todo", "todo"),
];

#[derive(Debug, Default)]
pub(crate) struct Ava {
    /// A line only AVA writes was seen (its counts are read after it).
    seen: bool,
    /// `✔` lines, of them `✔ [expected fail]`, `- [skip]` and `- [todo]` lines.
    passed: u64,
    expected_fail: u64,
    skipped: u64,
    todo: u64,
    /// The closing counts as printed (`8 tests failed`), in order.
    counts: Vec<String>,
    failures: Failures,
    /// Files that exited with a non-zero exit code, with it.
    exited: Names,
    /// After the first `─`: failure blocks and the closing counts.
    in_details: bool,
    /// The failure whose block is being read, and the detail's object being joined
    /// (`TypeError {` … `}`).
    block: Option<String>,
    object: Option<String>,
    /// A line ending in `:` (`Expected message to match:`) waiting for the line it introduces.
    label: Option<String>,
    /// In a block's `Difference (- actual, + expected):`, whose changed lines are its detail.
    diff: bool,
    /// Errors a test file printed as it crashed, outside any block (AVA 0.19 shows only that
    /// the file exited): `ReferenceError: CopyToken is not defined`, with its first own frame.
    printed: Failures,
    /// The frame of the error printed last is still to be read.
    printed_frame: bool,
}

impl Shape for Ava {
    fn line(&mut self, number: u64, text: &str) {
        // Outside a block, only lines that start as AVA's, a count or an error are read.
        let reading = self.in_details || self.block.is_some() || self.printed_frame;
        let indent = text.bytes().take_while(|c| *c == b' ').count();
        if !reading
            && !matches!(
                text.as_bytes().get(indent),
                Some(0xe2 | b'-' | b'0'..=b'9' | b'A'..=b'Z')
            )
        {
            let t = text.trim();
            if !self.seen && !t.is_empty() {
                self.counts.clear();
            }
            return;
        }
        let t = text.trim();
        if t == "─" {
            if self.seen {
                self.in_details = true;
                self.end_block();
            }
            return;
        }
        if self.block.is_none() && !self.in_details {
            if is_error_line(t) {
                self.printed.push(number, "");
                if let Some(f) = self.printed.current() {
                    f.add_detail(t);
                }
                self.printed_frame = true;
                return;
            }
            if self.printed_frame
                && let Some(frame) = t.strip_prefix("at ")
                && is_own_frame(frame)
            {
                self.printed_frame = false;
                if let Some(f) = self.printed.current() {
                    f.add_detail(&format!("at {}", frame_place(frame)));
                }
            }
        }
        if let Some(title) = t.strip_prefix(FAIL_MARK) {
            self.seen = true;
            self.end_block();
            self.failures.push_said(number, title, t);
            return;
        }
        if let Some(rest) = t.strip_prefix("✘ ").or_else(|| t.strip_prefix("✖ "))
            && let Some((file, code)) = rest.split_once(" exited with a non-zero exit code: ")
        {
            self.seen = true;
            self.exited.push(&format!("{file} (exit code {code})"));
            return;
        }
        if let Some(file) = t.strip_prefix("Uncaught exception in ") {
            self.seen = true;
            let name = format!("uncaught exception in {file}");
            self.failures.push(number, &name);
            self.end_block();
            self.block = Some(name);
            return;
        }
        if let Some(rest) = t.strip_prefix("✔ ") {
            self.end_block();
            self.passed += 1;
            if rest.starts_with("[expected fail] ") {
                self.seen = true;
                self.expected_fail += 1;
            }
            return;
        }
        if t.starts_with("- [skip] ") {
            self.seen = true;
            self.skipped += 1;
            return;
        }
        if t.starts_with("- [todo] ") {
            self.seen = true;
            self.todo += 1;
            return;
        }
        if let Some(count) = closing_count(t) {
            // AVA 0.19 states its counts before the files that exited: kept until a line
            // that is not AVA's says they were someone else's.
            if self.counts.len() < COUNTS.len() {
                self.counts.push(count.to_owned());
            }
            self.end_block();
            return;
        }
        if !self.seen {
            if !t.is_empty() {
                self.counts.clear();
            }
            return;
        }
        // An uncaught exception's block comes among the tests' lines.
        if self.in_details || self.block.is_some() {
            self.detail_line(t);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        if !self.seen || (self.counts.is_empty() && self.failures.is_empty()) {
            return None;
        }
        let mut parts = self.counts.clone();
        // AVA 4 and later state no passed count beside failures: the `✔` lines are counted.
        let said_passed = self.counts.iter().any(|c| c.ends_with("passed"));
        let plain = self.passed - self.expected_fail;
        if !said_passed && plain > 0 {
            parts.push(format!("{} passed (✔ lines)", thousands(plain)));
        }
        // Without closing counts (a run cut short), the failures listed say what there is.
        let mut lines = Vec::new();
        if !parts.is_empty() {
            lines.push(format!("tests (ava): {}", parts.join(", ")));
        }
        if self.exited.total > 0 {
            lines.push(format!(
                "files that exited with a non-zero exit code ({}): {}",
                thousands(self.exited.total),
                self.exited.render(self.exited.total)
            ));
        }
        let json = json!({
            "shape": "ava",
            "counts": self.counts,
            "passed_lines": self.passed,
            "expected_fail": self.expected_fail,
            "skipped": self.skipped,
            "todo": self.todo,
            "exited": self.exited.json(),
        });
        let failed = !self.failures.is_empty() || self.exited.total > 0;
        // What the crashed files printed says why they exited.
        let printed = if self.exited.total > 0 {
            self.printed.take_as("errors printed by the test files")
        } else {
            Failures::default()
        };
        Some(
            Fact::new("ava", lines, json)
                .failures(self.failures.take_as("failed tests"))
                .failures(printed)
                .hint_if_failed(
                    failed,
                    "'✘ \\[fail\\]|Uncaught exception|Difference|unexpected exception' -A 4",
                ),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.printed.approx_heap()
            + self.exited.approx_heap()
            + self.counts.iter().map(|c| c.capacity() + 24).sum::<usize>()
            + self.block.as_ref().map_or(0, String::capacity)
            + self.object.as_ref().map_or(0, String::capacity)
            + self.label.as_ref().map_or(0, String::capacity)
    }
}

/// What AVA's line for a failed test begins with, before its title.
const FAIL_MARK: &str = "✘ [fail]: ";

/// How long a block's title must be to name a failure whose `✘` line it begins: a shorter
/// line of the block (`false`) begins names by chance.
const TITLE_MIN_CHARS: usize = 8;

impl Ava {
    /// A line after the first `─`: a failure's title begins its block; in a block, the place
    /// (`test.js:39`) and what differed are its detail, the source excerpt (`  39:   t.is(…`)
    /// and the frames (`› file://test.js:39:4`) are not.
    fn detail_line(&mut self, t: &str) {
        if t.is_empty() {
            return;
        }
        if self.failures.named(t).is_some() {
            self.end_block();
            self.block = Some(t.to_owned());
            return;
        }
        // AVA's `✘ [fail]:` line puts a failed assertion's message after the title (`parse ›
        // handles … URL Expected URL parsing to avoid …`); its block is headed by the title
        // alone, which names it from here on (the message is in the block, and is not said
        // twice: the runner's line is shown up to the title).
        let titled = |name: &str| {
            name.len() > t.len() + 1 && name.starts_with(t) && name[t.len()..].starts_with(' ')
        };
        if t.chars().count() >= TITLE_MIN_CHARS
            && let Some(failure) = self.failures.find(titled)
        {
            failure.name = t.to_owned();
            failure.message_form = None;
            failure.say(&format!("{FAIL_MARK}{t}"));
            self.end_block();
            self.block = Some(t.to_owned());
            return;
        }
        let Some(name) = &self.block else {
            return;
        };
        let Some(failure) = self.failures.named(name) else {
            return;
        };
        if let Some(object) = &mut self.object {
            object.push(' ');
            object.push_str(t);
            if t == "}" || object.len() > 300 {
                let object = self.object.take().unwrap_or_default();
                let line = match self.label.take() {
                    Some(label) => format!("{label} {object}"),
                    None => object,
                };
                failure.add_detail(&cut(&line, 200));
            }
            return;
        }
        // The source excerpt (`39:   t.is(…`, `382:` for a blank line), the frames (AVA's
        // `› file://test.js:39:4`, Node's `at …`) and the diff's heading.
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let excerpt = digits > 0
            && t[digits..].starts_with(':')
            && !t[digits + 1..].starts_with(|c: char| c != ' ');
        if t == "Difference (- actual, + expected):" {
            self.diff = true;
            return;
        }
        if t.starts_with("› ") {
            self.diff = false;
        }
        if excerpt || t.starts_with("› ") || t.starts_with("at ") {
            return;
        }
        if self.diff {
            // A change (`-   Symbol(skip),`), not the lines around it (`[`, `1,`).
            if t.starts_with(['-', '+']) {
                failure.add_detail(t);
            }
            return;
        }
        if is_place(t) {
            failure.add_detail(&format!("at {t}"));
        } else if t.ends_with(" {") {
            self.object = Some(t.to_owned());
        } else if t.ends_with(':') {
            self.label = Some(t.to_owned());
        } else {
            let line = match self.label.take() {
                Some(label) => format!("{label} {t}"),
                None => t.to_owned(),
            };
            failure.add_detail(&line);
        }
    }

    fn end_block(&mut self) {
        self.diff = false;
        self.block = None;
        self.object = None;
        self.label = None;
    }
}

/// `ReferenceError: CopyToken is not defined`, `Error [ERR_MODULE_NOT_FOUND]: …`: an error
/// as Node prints it when a process dies of it.
fn is_error_line(t: &str) -> bool {
    // Read from the first word only: most lines are not errors.
    let b = t.as_bytes();
    let word = b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    if word == 0 || !b[0].is_ascii_uppercase() || !b[..word].ends_with(b"Error") {
        return false;
    }
    let rest = &t[word..];
    let rest = match rest.strip_prefix(" [") {
        Some(code) => code.split_once(']').map_or("", |(_, r)| r),
        None => rest,
    };
    rest.strip_prefix(": ").is_some_and(|m| !m.is_empty())
}

/// A stack frame in the project's own code (not Node's, not an installed package's).
fn is_own_frame(frame: &str) -> bool {
    let place = frame_place(frame);
    !place.starts_with("node:") && !place.contains("/node_modules/") && place.contains(':')
}

/// `Object.<anonymous> (/a/chance.js:11698:3)` → `/a/chance.js:11698:3`.
fn frame_place(frame: &str) -> &str {
    frame
        .rsplit_once(" (")
        .and_then(|(_, p)| p.strip_suffix(')'))
        .unwrap_or(frame)
}

/// `test.js:39`, `test/unit/a.mjs:7`: a block's place.
fn is_place(t: &str) -> bool {
    t.rsplit_once(':').is_some_and(|(file, line)| {
        !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
            && !file.contains(' ')
            && file.contains('.')
    })
}

/// `8 tests failed`, `1 known failure`, `18 exceptions`: one of AVA's closing counts.
fn closing_count(t: &str) -> Option<&str> {
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    let words = t[digits..].strip_prefix(' ').filter(|_| digits > 0)?;
    COUNTS
        .iter()
        .any(|(one, many)| words == *one || words == *many)
        .then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(text: &str) -> Option<Fact> {
        let mut ava = Box::<Ava>::default();
        for (i, line) in text.lines().enumerate() {
            ava.line(i as u64 + 1, line);
        }
        ava.finish()
    }

    #[test]
    fn counts_without_avas_lines_are_not_avas() {
        assert!(fact("  2 passed\n  1 failed\n").is_none());
        assert!(fact("✔ done\n  3 tests passed\n").is_none());
    }

    #[test]
    fn a_run_cut_short_states_no_empty_counts() {
        let f = fact("  Uncaught exception in test.js\n\n  Error: boom\n")
            .unwrap_or_else(|| panic!("not read"));
        assert!(f.lines.is_empty(), "{:?}", f.lines);
        assert_eq!(f.failures[0].total, 1);
    }

    #[test]
    fn ava_0_19s_closing_lines() {
        let f = fact(
            "  18 exceptions\n\n  ✖ test/a.js exited with a non-zero exit code: 1\n\
             \n  ✖ test/b.js exited with a non-zero exit code: 1\n",
        )
        .unwrap_or_else(|| panic!("not read"));
        assert_eq!(
            f.lines,
            [
                "tests (ava): 18 exceptions",
                "files that exited with a non-zero exit code (2): test/a.js (exit code 1), test/b.js \
                 (exit code 1)"
            ]
        );
    }
}
