//! Test runners no other shape knows that list their failures numbered, each a block under
//! `  N) title` (jasmine, Elixir's ExUnit, Ruby's minitest, karma…), and close with a line of
//! counts (`1605 specs, 46 failures`, `113 runs, 182 assertions, 11 failures, 10 errors, 0
//! skips`, `FAILED: Cases: 13 Tried: 13 Errors: 0 Failures: 2`). Each block is read for what
//! most runners put in it: the test's name (on the title line, or under a bare `Failure:` /
//! `Error:` title), its message, two values compared (`Expected:` / `Actual:`, `left:` /
//! `right:`, each maybe over several lines) or the first `-` and `+` lines of a diff, and
//! where it failed (the first frame of its stack outside a runtime's own files, or a
//! `file:line` alone on its line). Stated only when no other shape recognised the output (a log
//! aside): see [`Fact::fallback`].

use serde_json::json;

use super::names::{Failures, is_test_file, where_they_differ};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// Lines of a block read, and how much of each.
const BLOCK_LINES: usize = 80;
const LINE_KEPT: usize = 2 * 1024;
/// How much of a value compared is shown, around where it differs.
const COMPARED_CHARS: usize = 70;
/// How long a counts line may be.
const COUNTS_CHARS: usize = 160;

#[derive(Debug, Default)]
pub(crate) struct Numbered {
    /// The number the next block has (1: a new list).
    next: u64,
    block: Option<Block>,
    failures: Failures,
    /// Blocks whose lines hold a failure word.
    evidenced: u64,
    /// The last line of counts, as printed, the failures it counts, and how many there were.
    counts: Option<(String, u64)>,
    count_lines: u64,
    /// Lists read (a log of several runs has several).
    lists: u64,
    /// Reading jasmine's list of pending specs, which are no failures.
    pending: bool,
}

/// A failure's block: where it began, its title and its lines (indentation kept).
#[derive(Debug)]
struct Block {
    line: u64,
    title: String,
    lines: Vec<String>,
}

impl Shape for Numbered {
    fn line(&mut self, number: u64, text: &str) {
        // jasmine lists its pending specs numbered too, under `Pending:`.
        if matches!(text.as_bytes().first(), Some(b'P' | b'F')) {
            match text.trim_end() {
                "Pending:" => {
                    self.end_block();
                    self.pending = true;
                    return;
                }
                "Failures:" => self.pending = false,
                _ => {}
            }
        }
        if self.pending {
            if counts(text).is_none() {
                return;
            }
            self.pending = false;
        }
        if let Some((n, title)) = block_start(text)
            && (n == 1 || n == self.next)
        {
            self.end_block();
            if n == 1 {
                self.lists += 1;
            }
            self.next = n + 1;
            self.block = Some(Block {
                line: number,
                title: title.to_owned(),
                lines: Vec::new(),
            });
            return;
        }
        if let Some(failed) = counts(text) {
            self.end_block();
            self.next = 0;
            self.count_lines += 1;
            self.counts = Some((cut(text.trim(), COUNTS_CHARS), failed));
            return;
        }
        if let Some(block) = &mut self.block
            && block.lines.len() < BLOCK_LINES
        {
            block.lines.push(cut(text, LINE_KEPT));
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        let blocks = self.failures.total;
        let failed = self.counts.as_ref().map_or(0, |(_, f)| *f);
        if blocks == 0 || (failed == 0 && self.evidenced * 2 < blocks) {
            return None;
        }
        let mut lines = Vec::new();
        if let Some((counts, _)) = &self.counts {
            let mut line = format!("tests, as the runner counts them: {counts}");
            if self.count_lines > 1 {
                line.push_str(&format!(
                    " (the last of {} such lines)",
                    thousands(self.count_lines)
                ));
            }
            lines.push(line);
        }
        let json = json!({
            "shape": "numbered failures",
            "numbered_failures": blocks,
            "lists": self.lists,
            "counts": self.counts.as_ref().map(|(c, _)| c),
        });
        Some(
            Fact::new("numbered failures", lines, json)
                .failures(self.failures.take_as("failed tests, as numbered"))
                .hint("'^ *[0-9]+\\) ' -A 12")
                .fallback(),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.block.as_ref().map_or(0, |b| {
            b.title.capacity() + b.lines.iter().map(String::capacity).sum::<usize>()
        }) + self.failures.approx_heap()
            + self.counts.as_ref().map_or(0, |(c, _)| c.capacity())
    }
}

impl Numbered {
    /// The block read so far is complete: its failure, named, with its detail.
    fn end_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let read = Read::of(&block);
        if block
            .lines
            .iter()
            .chain([&block.title])
            .any(|l| has_failure_word(l))
        {
            self.evidenced += 1;
        }
        self.failures.push(block.line, &read.name);
        if let Some(failure) = self.failures.current() {
            for detail in read.detail() {
                failure.add_detail(&detail);
            }
        }
    }
}

/// `  12) title` → (12, `title`): at most six spaces before the number.
fn block_start(text: &str) -> Option<(u64, &str)> {
    let t = text.trim_start_matches(' ');
    if text.len() - t.len() > 6 {
        return None;
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 5 {
        return None;
    }
    let title = t[digits..].strip_prefix(") ")?.trim_end();
    let n = t[..digits].parse().ok()?;
    (n > 0 && !title.is_empty()).then_some((n, title))
}

/// Words that count a run's tests in a line of counts.
const COUNTED: &[&str] = &[
    "test",
    "tests",
    "spec",
    "specs",
    "example",
    "examples",
    "run",
    "runs",
    "check",
    "checks",
    "assertion",
    "assertions",
    "doctest",
    "doctests",
    "case",
    "cases",
    "scenario",
    "scenarios",
    "step",
    "steps",
    "property",
    "properties",
    "tried",
];

/// A line of counts — `N word` clauses joined by `, ` (`1605 specs, 46 failures`) or at least
/// three `Word: N` pairs (`FAILED: Cases: 13 Tried: 13 Errors: 0 Failures: 2`) — with one that
/// counts tests and one that counts failures or errors: how many failed.
fn counts(text: &str) -> Option<u64> {
    let t = text.trim().trim_end_matches('.');
    // `1605 specs, …`: a number, a space and a word (a date or a time is none); read only
    // then, since splitting a line costs a search of all of it.
    let number = t
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b',')
        .count();
    if number > 0 {
        if !t[number..]
            .strip_prefix(' ')
            .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
        {
            return None;
        }
        let mut clauses = 0;
        let (mut counted, mut failed) = (false, None);
        for clause in t.split(", ") {
            let (n, word) = clause.split_once(' ')?;
            let n: u64 = n.replace(',', "").parse().ok()?;
            let word = word.split(' ').next()?.to_ascii_lowercase();
            if word.is_empty() || !word.bytes().all(|b| b.is_ascii_alphabetic()) {
                return None;
            }
            counted |= COUNTED.contains(&word.as_str());
            if is_failure_count(&word) {
                failed = Some(failed.unwrap_or(0u64).saturating_add(n));
            }
            clauses += 1;
        }
        return (clauses >= 2 && counted).then_some(failed?);
    }
    // `Word: N` pairs: a line that starts with a capital and is short (read only then: most
    // lines are not).
    if !t.starts_with(|c: char| c.is_ascii_uppercase())
        || t.len() > COUNTS_CHARS
        || memchr::memchr_iter(b':', t.as_bytes()).count() < 3
    {
        return None;
    }
    let words: Vec<&str> = t.split_whitespace().collect();
    let (mut pairs, mut counted, mut failed) = (0, false, None);
    for pair in words.windows(2) {
        let (Some(label), Ok(n)) = (pair[0].strip_suffix(':'), pair[1].parse::<u64>()) else {
            continue;
        };
        let label = label.to_ascii_lowercase();
        pairs += 1;
        counted |= COUNTED.contains(&label.as_str());
        if is_failure_count(&label) {
            failed = Some(failed.unwrap_or(0) + n);
        }
    }
    (pairs >= 3 && counted).then_some(failed?)
}

/// `failures`, `failed`, `errors`, `failing`, `broken`: a word that counts failures.
fn is_failure_count(word: &str) -> bool {
    word.starts_with("fail") || word.starts_with("error") || word == "broken"
}

fn has_failure_word(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    ["fail", "error", "expected", "assert", "exception"]
        .iter()
        .any(|w| lower.contains(w))
}

/// Labels of a value compared (before `:`, any case).
const VALUE_LABELS: &[&str] = &[
    "expected", "actual", "left", "right", "got", "want", "wanted", "have", "received", "but was",
    "but got",
];

/// `Expected: 1` → (`Expected`, `1`): a value compared, after its label.
fn value_label(t: &str) -> Option<(&str, &str)> {
    let (label, value) = t.split_once(':')?;
    VALUE_LABELS
        .contains(&label.trim().to_ascii_lowercase().as_str())
        .then(|| (label.trim(), value.trim()))
}

/// Labels of a block's parts that only introduce others (`Message:`, `Stack:`).
const STACK_LABELS: &[&str] = &["stack", "stacktrace", "backtrace", "trace", "traceback"];

/// What a block says: the test's name, its message, two values compared, a diff's first lines
/// and where it failed.
#[derive(Debug, Default)]
struct Read {
    name: String,
    message: Option<String>,
    /// Values compared: label (with its colon), and the value's lines.
    values: Vec<(String, Vec<String>)>,
    diff: (Option<String>, Option<String>),
    /// A frame of the stack outside a runtime's files, and a `file:line` alone on its line.
    frame: Option<String>,
    place: Option<String>,
    /// The first frame in a test file, when `frame` is not (the test that called the code
    /// that raised).
    test_frame: Option<String>,
}

impl Read {
    fn of(block: &Block) -> Read {
        let mut read = Read::default();
        let mut lines = block.lines.iter().map(|l| l.trim_end());
        let title = block.title.trim();
        read.name = if is_bare_label(title) {
            // minitest: `  1) Failure:`, the name on the next line.
            lines
                .by_ref()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or(title)
                .to_owned()
        } else {
            title.to_owned()
        };
        // `Test#test_x [test/a.rb:12]:` → the name and where.
        let name = read.name.trim_end_matches(':').to_owned();
        read.name = match name.strip_suffix(']').and_then(|n| n.rsplit_once(" [")) {
            Some((name, place)) => {
                read.place = Some(place.to_owned());
                name.to_owned()
            }
            None => name,
        };
        let mut in_stack = false;
        let mut in_diff = false;
        // The value being read: its indentation; lines more indented go on it.
        let mut value_indent: Option<usize> = None;
        for line in lines {
            let t = line.trim();
            let indent = line.len() - line.trim_start().len();
            if t.is_empty() {
                value_indent = None;
                continue;
            }
            if let Some(at) = value_indent {
                // jasmine aligns `Actual:` under `Expected:`: a label starts a value of its own.
                if indent > at && value_label(t).is_none() {
                    if let Some((_, v)) = read.values.last_mut()
                        && v.len() < BLOCK_LINES
                    {
                        v.push(t.to_owned());
                    }
                    continue;
                }
                value_indent = None;
            }
            if in_stack || is_frame(t) {
                // Under a `stacktrace:` label, any line with a place is a frame.
                in_stack = true;
                if !is_runtime_frame(t) && has_place(t) {
                    match &read.frame {
                        None => read.frame = Some(frame_shown(t)),
                        Some(first) if read.test_frame.is_none() && !is_test_file(first) => {
                            let shown = frame_shown(t);
                            if is_test_file(&shown) {
                                // Its function is the test's, named already (Ruby's
                                // `:in 'test_x'`).
                                let place = shown.split(":in ").next().unwrap_or(&shown);
                                read.test_frame = Some(place.to_owned());
                            }
                        }
                        Some(_) => {}
                    }
                }
                continue;
            }
            if is_bare_label(t) {
                let label = t.trim_end_matches(':').to_ascii_lowercase();
                if STACK_LABELS.contains(&label.as_str()) {
                    in_stack = true;
                } else if VALUE_LABELS.contains(&label.as_str()) && read.values.len() < 2 {
                    read.values.push((t.to_owned(), Vec::new()));
                    value_indent = Some(indent);
                }
                continue;
            }
            if in_diff || t.starts_with("--- ") || t.starts_with("+++ ") {
                in_diff = true;
                let (minus, plus) = &mut read.diff;
                if t.starts_with("--- ") || t.starts_with("+++ ") || t.starts_with("@@") {
                    continue;
                }
                if t.starts_with('-') && minus.is_none() {
                    *minus = Some(t.to_owned());
                } else if t.starts_with('+') && plus.is_none() {
                    *plus = Some(t.to_owned());
                }
                continue;
            }
            if is_place_alone(t) {
                if read.place.is_none() {
                    read.place = Some(t.trim_start_matches("# ").to_owned());
                }
                continue;
            }
            if let Some((label, value)) = value_label(t)
                && read.values.len() < 2
            {
                read.values
                    .push((format!("{label}:"), vec![value.to_owned()]));
                value_indent = Some(indent);
                continue;
            }
            if t.starts_with("code:") || t.starts_with("Failure/Error:") {
                // The test's own line, echoed.
                continue;
            }
            if read.message.is_none() && read.values.is_empty() {
                read.message = Some(t.to_owned());
            }
        }
        read
    }

    /// Its lines of detail: the message, the values compared where they differ, the diff's
    /// first lines, where.
    fn detail(&self) -> Vec<String> {
        let mut out = Vec::new();
        out.extend(self.message.clone());
        if let [(a_label, a), (b_label, b)] = &self.values[..] {
            out.extend(compared(a_label, a, b_label, b));
        } else if let [(label, value)] = &self.values[..] {
            out.push(format!("{label} {}", value.join(" ")));
        }
        if let (Some(minus), Some(plus)) = &self.diff {
            out.push(minus.clone());
            out.push(plus.clone());
        }
        let place = self.frame.as_ref().or(self.place.as_ref());
        if let Some(place) = place
            && !out.iter().any(|d| d.contains(place.as_str()))
        {
            match &self.test_frame {
                // `at lib/parser.rb:164, from test/parser_test.rb:570`: where it raised, then
                // the test.
                Some(test) => out.push(format!("at {place}, from {test}")),
                None => out.push(format!("at {place}")),
            }
        }
        out
    }
}

/// Two values compared, each on one line: around where they differ, or, for values over
/// several lines, their first line that differs.
fn compared(a_label: &str, a: &[String], b_label: &str, b: &[String]) -> Vec<String> {
    if a.len() <= 1 && b.len() <= 1 {
        let a = format!("{a_label} {}", a.first().map_or("", String::as_str));
        let b = format!("{b_label} {}", b.first().map_or("", String::as_str));
        let (a, b) = where_they_differ(&a, &b, COMPARED_CHARS);
        return vec![a, b];
    }
    let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) else {
        return Vec::new();
    };
    let at = |v: &[String]| {
        let line = v.get(i).map_or("(end)", String::as_str);
        let line = cut(line, COMPARED_CHARS * 2);
        if i > 0 { format!("…{line}") } else { line }
    };
    vec![
        format!("{a_label} {}", at(a)),
        format!("{b_label} {}", at(b)),
    ]
}

/// `Failure:`, `Message:`, `Stack trace:`: a short label alone on its line.
fn is_bare_label(t: &str) -> bool {
    t.strip_suffix(':').is_some_and(|label| {
        !label.is_empty()
            && label.len() <= 24
            && label.split(' ').count() <= 3
            && label
                .bytes()
                .all(|b| b.is_ascii_alphabetic() || b == b' ' || b == b'/' || b == b'-')
    })
}

/// A stack frame: `at f (file:3:4)`, `/srv/lib/a.rb:253:in 'f'`, `File "a.py", line 3, in f`,
/// `(app 1.0) lib/a.ex:133: F.f/2`.
fn is_frame(t: &str) -> bool {
    t.starts_with("at ")
        || t.starts_with("File \"")
        || t.contains(":in `")
        || t.contains(":in '")
        || t.strip_prefix('(')
            .and_then(|r| r.split_once(") "))
            .and_then(|(_, r)| r.split_once(": "))
            .is_some_and(|(place, _)| !place.contains(' ') && has_place(place))
}

/// A frame as shown: `at UserContext.<anonymous> (file:///srv/a.js:3:9)` → `/srv/a.js:3:9`,
/// `at f (…)` → `f (…)`.
fn frame_shown(t: &str) -> String {
    let t = t.strip_prefix("at ").unwrap_or(t).replace("file://", "");
    match t.strip_suffix(')').and_then(|f| f.split_once(" (")) {
        Some((function, place)) if function.contains('<') => place.to_owned(),
        _ => t,
    }
}

/// Frames of a runtime's, its libraries' or the test runner's own files.
fn is_runtime_frame(t: &str) -> bool {
    const RUNTIME: &[&str] = &[
        "node_modules",
        "node:",
        "<Jasmine>",
        "/usr/lib/",
        "/usr/local/lib/",
        "site-packages",
        "dist-packages",
        "/rustc/",
        "/lib/ruby/",
        "/gems/",
        "(elixir ",
        "(ex_unit ",
        "(stdlib ",
        "(kernel ",
    ];
    RUNTIME.iter().any(|r| t.contains(r))
        // The JDK's and a test framework's (`at org.junit.Assert.fail(Assert.java:87)`).
        || t.strip_prefix("at ").is_some_and(super::maven::is_framework)
}

/// Whether the text holds a `file:line` (a `:` followed by a digit).
fn has_place(t: &str) -> bool {
    t.as_bytes()
        .windows(2)
        .any(|w| w[0] == b':' && w[1].is_ascii_digit())
}

/// `test/eex/smart_engine_test.exs:18` or `# ./spec/a_spec.rb:7`: a place in a file, alone.
fn is_place_alone(t: &str) -> bool {
    let t = t.trim_start_matches("# ");
    !t.contains(' ') && t.contains(['/', '.']) && has_place(t) && !t.contains("://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_counts() {
        assert_eq!(counts("1605 specs, 46 failures"), Some(46));
        assert_eq!(
            counts("113 runs, 182 assertions, 11 failures, 10 errors, 0 skips"),
            Some(21)
        );
        assert_eq!(counts("7 doctests, 101 tests, 38 failures"), Some(38));
        assert_eq!(
            counts(
                "FAILED: Cases: 13 Tried: 13 Errors: 0 Failures: 2 Skip:  0 Todo: 0 Timeouts: 0."
            ),
            Some(2)
        );
        assert_eq!(counts("12 files, 3 dirs"), None);
        assert_eq!(counts("3 tests, 1 passed"), None);
        assert_eq!(counts("2 apples, 1 failure"), None);
    }

    #[test]
    fn block_starts() {
        assert_eq!(block_start("  12) a test"), Some((12, "a test")));
        assert_eq!(
            block_start("44) CommonMark Images"),
            Some((44, "CommonMark Images"))
        );
        assert_eq!(block_start("        1) deep"), None);
        assert_eq!(block_start("  1)"), None);
        assert_eq!(block_start("(1) x"), None);
    }
}
