//! CTest, CMake's test driver: a result line per test (` 2/19 Test  #2: parse_examples
//! ....***Failed    0.32 sec`), the tests' own output under `--output-on-failure`, the total
//! (`58% tests passed, 8 tests failed out of 19`) and `The following tests FAILED:`. A failed
//! test's detail is the first line of its output that reports a problem (an assertion, a
//! sanitizer's or valgrind's error), with the line after it.

use serde_json::json;

use super::change::Change;
use super::names::{Counts, Failure, Failures, where_they_differ};
use super::valgrind::{source_frame, split};
use super::{Fact, Shape};
use crate::format::{plural, thousands};
use crate::summary::notable::{default_kinds, is_incidental, notable_stems};

/// Statuses counted by name (`Failed`, `Timeout`, `Exception: SegFault`); one more is `other`.
const STATUSES_KEPT: usize = 15;
/// Lines of detail taken from a failed test's output.
const DETAIL_LINES: usize = 2;

#[derive(Debug, Default)]
pub(crate) struct Ctest {
    project: bool,
    passed: u64,
    /// Result lines other than `Passed`, by status (`Failed`, `Exception: SegFault`, `Timeout`).
    statuses: Counts,
    /// `58% tests passed, 8 tests failed out of 19`: failed, total, and the line as printed.
    total: Option<(u64, u64)>,
    total_said: String,
    /// Names listed under `The following tests FAILED:`.
    listed_failed: u64,
    /// The failures again, in the order of that list: by test number, where a parallel run
    /// (`ctest -j8`) reported them in the order they ended.
    listed: Failures,
    in_failed_list: bool,
    failures: Failures,
    /// Reading the output of the last failed test.
    in_output: bool,
    /// valgrind's header waiting for its stack (`==12== Invalid read of size 1`).
    valgrind_header: Option<String>,
    /// The first `file:line: message` of the failed test's output.
    unworded: Option<String>,
    /// A normal diff of the test's output against what was expected (`23,27c23,27`): its
    /// hunk, and its first `<` line while the first `>` line is awaited.
    diff: Option<(String, Option<String>)>,
    /// A unified diff in the test's output (`--- expected HTML`), read for its first change
    /// (`None` when read, or before one).
    unified: Option<Change>,
    /// The failed test's first unified diff is read.
    unified_read: bool,
    /// The failed test's first line of output: what a diff under it is of (`Example 25
    /// (lines 650-658) Entity and numeric character references`).
    first_line: Option<String>,
    /// A sanitizer's report being read: its first stack is over (a blank line after a frame),
    /// and the first frame in the tests' own code (`in test_chaos test/api/test_chaos.c:124`).
    sanitizer: Option<(bool, Option<String>)>,
    /// The failed test's output is googletest's, whose cases its own shape reports.
    googletest: bool,
    lower: Vec<u8>,
}

impl Shape for Ctest {
    fn line(&mut self, number: u64, text: &str) {
        if text.starts_with("Test project ") {
            self.project = true;
            return;
        }
        if let Some((test, name, status)) = result_line(text) {
            self.in_output = false;
            if status == "Passed" {
                self.passed += 1;
                return;
            }
            self.statuses.add(status, STATUSES_KEPT);
            self.end_output();
            // As ctest lists it at the end: `7 - format-test (Failed)`.
            self.failures
                .push(number, &format!("{test} - {name} ({status})"));
            self.in_output = true;
            self.valgrind_header = None;
            self.diff = None;
            self.unified = None;
            self.unified_read = false;
            self.first_line = None;
            self.sanitizer = None;
            self.googletest = false;
            return;
        }
        let trimmed = text.trim_start();
        if trimmed.starts_with("Start ") && text.starts_with(' ') {
            self.in_output = false;
            return;
        }
        if let Some(total) = total_line(text) {
            self.total = Some(total);
            text.trim_end().clone_into(&mut self.total_said);
            self.in_output = false;
            return;
        }
        if text == "The following tests FAILED:" {
            self.in_failed_list = true;
            return;
        }
        if self.in_failed_list {
            // `\t  2 - parse_examples (Failed)`
            if text.starts_with('\t') && trimmed.contains(" - ") {
                self.listed_failed += 1;
                // `674 - test_nthreads (Failed)`, or `(SEGFAULT)` where its result line said
                // `Exception: SegFault`: the same test by its number and name.
                let key = without_status(trimmed);
                match self.failures.find(|name| without_status(name) == key) {
                    Some(reported) => {
                        let reported = reported.clone();
                        self.listed.push_failure(reported);
                    }
                    None => self.listed.push(number, trimmed),
                }
                return;
            }
            self.in_failed_list = false;
        }
        if self.in_output {
            self.detail(text);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_output();
        let results = self.passed + self.statuses.total();
        if !self.project || (results == 0 && self.total.is_none()) {
            return None;
        }
        // CTest's own total, as a reader searches for it.
        let mut line = match self.total {
            Some(_) => format!("ctest: {}", self.total_said),
            None => format!(
                "ctest: {} reported (no total line), {} passed",
                plural(results, "result", "results"),
                thousands(self.passed)
            ),
        };
        let statuses = self.statuses.render(|_| true);
        if !statuses.is_empty() {
            line.push_str(&format!("; {}", statuses.join(" · ")));
        }
        let json = json!({
            "shape": "ctest",
            "passed": self.passed,
            "statuses": self.statuses.json("status"),
            "failed": self.total.map(|t| t.0),
            "total": self.total.map(|t| t.1),
            "listed_failed": self.listed_failed,
        });
        let failing = !self.failures.is_empty() || self.total.is_some_and(|(failed, _)| failed > 0);
        if self.listed.total == self.failures.total {
            self.failures = std::mem::take(&mut self.listed);
        }
        let failures = self.failures.take_as("failed tests");
        Some(
            Fact::new("ctest", vec![line], json)
                .failures(failures)
                .hint_if_failed(failing, "'\\*\\*\\*[A-Z]|^\\t +[0-9]+ - ' -A 8")
                // It names each test's sanitizer report itself.
                .supersedes(&["sanitizer"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.listed.approx_heap()
            + self.lower.capacity()
            + self.statuses.approx_heap()
            + self.valgrind_header.as_ref().map_or(0, String::capacity)
            + self.unworded.as_ref().map_or(0, String::capacity)
            + self
                .sanitizer
                .as_ref()
                .and_then(|(_, frame)| frame.as_ref())
                .map_or(0, String::capacity)
    }
}

impl Ctest {
    /// The failed test's output is over: without a worded problem, its first located line.
    fn end_output(&mut self) {
        if let Some(change) = self.unified.take()
            && !self.unified_read
            && let Some(f) = self.failures.current()
        {
            take_change(&change, self.first_line.as_deref(), f);
        }
        if let Some(unworded) = self.unworded.take()
            && let Some(f) = self.failures.current()
            && !f.has_detail()
        {
            f.add_detail(&unworded);
        }
    }

    /// A line of a failed test's output: its first problem, and the line after it, are its
    /// detail.
    fn detail(&mut self, text: &str) {
        let Some(failure) = self.failures.current() else {
            return;
        };
        if text.starts_with("[==========] ") || text.starts_with("[ RUN      ] ") {
            // googletest's cases, with their details, are listed as googletest's.
            self.googletest = true;
            failure.detail.clear();
            failure.message_form = None;
        }
        if self.googletest {
            return;
        }
        // A sanitizer's report: its kind first, its `SUMMARY:` (where, in which function)
        // always.
        if let Some((_, report)) = text.split_once("==ERROR: ")
            && report.contains("Sanitizer: ")
            && !failure.has_detail()
        {
            // As the sanitizer says it, without its process id: `ERROR: AddressSanitizer: …`.
            let kind = report.split(" on address ").next().unwrap_or(report);
            failure.add_detail(&format!("ERROR: {kind}"));
            self.sanitizer = Some((false, None));
            return;
        }
        if text.starts_with("SUMMARY: ") && text.contains("Sanitizer") {
            failure.add_essential_detail(text);
            // Where the test reached what went wrong.
            if let Some((_, Some(frame))) = self.sanitizer.take() {
                failure.add_essential_detail(&frame);
            }
            return;
        }
        if let Some((stack_over, own)) = &mut self.sanitizer {
            let t = text.trim_start();
            if let Some(frame) = sanitizer_frame(t) {
                if !*stack_over && own.is_none() && is_test_code(frame) {
                    *own = Some(crate::format::cut(frame, 300));
                }
                return;
            }
            *stack_over |= t.is_empty();
        }
        let trimmed = text.trim_start();
        if self.first_line.is_none() && !trimmed.is_empty() {
            self.first_line = Some(crate::format::cut(text, 200));
        }
        // A unified diff of the test's output (`--- expected HTML`), read for its first change.
        if let Some(change) = &mut self.unified {
            let in_diff = text.starts_with([' ', '-', '+', '@']);
            if in_diff && !change.is_read() {
                change.line(text.len() - trimmed.len(), trimmed);
            }
            if !self.unified_read && (change.is_read() || !in_diff) {
                self.unified_read = take_change(change, self.first_line.as_deref(), failure);
            }
            if in_diff {
                return;
            }
            self.unified = None;
        }
        if text.starts_with("--- ") && !self.unified_read {
            let mut change = Change::default();
            change.line(0, text);
            self.unified = Some(change);
            return;
        }
        if let Some((hunk, old)) = &mut self.diff {
            if let Some(line) = text.strip_prefix("< ") {
                old.get_or_insert_with(|| line.to_owned());
                return;
            }
            if let Some(line) = text.strip_prefix("> ") {
                let detail = match old {
                    Some(old) => {
                        let (old, new) = where_they_differ(old, line, DIFFERING_CHARS);
                        format!("{hunk} < {old} · > {new}")
                    }
                    None => format!("{hunk} > {line}"),
                };
                failure.add_essential_detail(&detail);
                self.diff = None;
                return;
            }
            if text != "---" {
                self.diff = None;
            }
            return;
        }
        if failure.detail.len() >= DETAIL_LINES || text.trim().is_empty() {
            return;
        }
        if !failure.has_detail()
            && self.unworded.is_none()
            && super::diagnostics::location(text.trim(), |p| p.contains('.')).is_some()
        {
            // `test_number.c:23: could construct a real from Inf`: a problem without a
            // failure word, taken when no worded one comes.
            self.unworded = Some(crate::format::cut(text.trim(), 300));
        }
        if failure.has_detail() {
            // A test script's trace of its commands (`+ diff a.expected a.out`) is not its
            // output; the diff's first hunk says how the output differs.
            if text.starts_with("+ ") {
                return;
            }
            if is_hunk(text) {
                self.diff = Some((text.to_owned(), None));
                return;
            }
            failure.add_detail(split(text).map_or(text, |(_, body)| body));
            return;
        }
        // valgrind: a header is an error when its stack follows; its first frame in source
        // says where.
        if let Some((_, body)) = split(text) {
            if body.starts_with("   at 0x") || body.starts_with("   by 0x") {
                if let Some(frame) = source_frame(body)
                    && let Some(header) = self.valgrind_header.take()
                {
                    failure.add_detail(&header);
                    failure.add_detail(&frame);
                }
            } else if !body.starts_with(' ') && !body.is_empty() {
                self.valgrind_header = Some(body.to_owned());
            }
            return;
        }
        let hits = notable_stems(text.as_bytes(), &mut self.lower);
        if default_kinds(text, hits) != 0 && !is_incidental(text) {
            failure.add_detail(text);
        }
    }
}

/// A unified diff's first change, read or ended with the diff or the test's output, as the
/// failure's detail, after the output's `first_line` when nothing else said what failed.
/// Whether there was a change to take.
fn take_change(change: &Change, first_line: Option<&str>, failure: &mut Failure) -> bool {
    let details: Vec<String> = change.details().collect();
    if details.is_empty() {
        return false;
    }
    if !failure.has_detail()
        && let Some(first) = first_line
    {
        failure.add_detail(first);
    }
    failure.add_essential_detail(&details.join(" · "));
    true
}

/// How much of each side of a differing line is shown, around where they differ.
const DIFFERING_CHARS: usize = 100;

/// A normal diff's hunk: `23,27c23,27`, `235c235`, `4a5`.
/// A failed test's name as ctest lists it, without its status: `674 - test_nthreads`.
fn without_status(name: &str) -> &str {
    name.rfind(" (").map_or(name, |end| &name[..end])
}

fn is_hunk(text: &str) -> bool {
    let Some(at) = text.find(['a', 'c', 'd']) else {
        return false;
    };
    let range = |r: &str| {
        let mut parts = r.splitn(2, ',');
        parts.all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    range(&text[..at]) && range(&text[at + 1..])
}

/// `#8 0x55abba99994e in test_chaos /src/test/api/test_chaos.c:124` → `in test_chaos
/// /src/test/api/test_chaos.c:124`: a frame of a sanitizer's stack, from its function on.
fn sanitizer_frame(t: &str) -> Option<&str> {
    let rest = t.strip_prefix('#')?;
    let (number, rest) = rest.split_once(' ')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (address, rest) = rest.split_once(' ')?;
    address.starts_with("0x").then_some(rest)
}

/// A frame in the tests' own code: its file is under a `test` or `tests` directory or is
/// named as a test (`test_chaos.c`, `parser_test.cc`).
fn is_test_code(frame: &str) -> bool {
    let Some(path) = frame.rsplit(' ').next() else {
        return false;
    };
    let mut parts = path.split('/');
    let file = parts.next_back().unwrap_or("");
    parts.any(|d| matches!(d, "test" | "tests" | "testsuite" | "unittests"))
        || file.starts_with("test_")
        || file.contains("_test.")
}

/// ` 2/19 Test  #2: parse_examples ...................***Failed    0.32 sec`
/// → (`2`, `parse_examples`, `Failed`).
fn result_line(text: &str) -> Option<(&str, &str, &str)> {
    // `N/M` first: most lines are not CTest's, and this sees them off in a few bytes.
    let t = text.trim_start_matches(' ');
    if !t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (count, rest) = t.split_once(' ')?;
    let (done, of) = count.split_once('/')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(done) || !digits(of) {
        return None;
    }
    let rest = rest.trim_start().strip_prefix("Test")?;
    let rest = rest.trim_start().strip_prefix('#')?;
    let (number, rest) = rest.split_once(": ")?;
    if !digits(number) {
        return None;
    }
    let (name, rest) = rest.split_once(" ..")?;
    let status = rest.trim_start_matches('.').trim_start();
    let status = status.strip_prefix("***").unwrap_or(status);
    let status = status.rsplit_once(" sec").map_or(status, |(s, _)| s);
    // What is left: `Failed    0.32`
    let status = status
        .trim_end()
        .rsplit_once(' ')
        .filter(|(_, time)| time.parse::<f64>().is_ok())
        .map_or(status, |(s, _)| s)
        .trim();
    (!status.is_empty()).then_some((number, name, status))
}

/// `58% tests passed, 8 tests failed out of 19` → (8, 19).
fn total_line(text: &str) -> Option<(u64, u64)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let rest = text[digits..].strip_prefix("% tests passed, ")?;
    let (failed, rest) = rest.split_once(" test")?;
    let total = rest.split_once(" failed out of ")?.1;
    Some((failed.parse().ok()?, total.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_and_total_lines() {
        assert_eq!(
            result_line(" 2/19 Test  #2: parse_examples ...................***Failed    0.32 sec"),
            Some(("2", "parse_examples", "Failed"))
        );
        assert_eq!(
            result_line("19/19 Test #19: minify_tests .....................   Passed    0.27 sec"),
            Some(("19", "minify_tests", "Passed"))
        );
        assert_eq!(
            result_line(
                " 3/4 Test  #3: crash ............................***Exception: SegFault  0.01 sec"
            ),
            Some(("3", "crash", "Exception: SegFault"))
        );
        assert_eq!(
            result_line("4/4 Test #4: slow .............................***Timeout  10.00 sec"),
            Some(("4", "slow", "Timeout"))
        );
        assert_eq!(result_line("Test project /home/dev/x"), None);
        assert_eq!(
            total_line("58% tests passed, 8 tests failed out of 19"),
            Some((8, 19))
        );
        assert_eq!(
            total_line("100% tests passed, 0 tests failed out of 1"),
            Some((0, 1))
        );
    }
}
