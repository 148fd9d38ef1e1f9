//! `go test` output: package results (`ok`, `FAIL`, `?  … [no test files]`) and test results
//! (`--- FAIL: TestX (0.00s)`, subtests included, as `go test -json` counts them). Passed and
//! skipped tests are only printed with `-v`, so they are only counted then (`=== RUN` seen).
//!
//! A failing test's first detail is its first log line (`    x_test.go:47: got 1, want 2`),
//! printed before its `--- FAIL` line with `-v` (under the `=== RUN`/`=== CONT` line of the test
//! that ran) and after it without; a panic (`panic: runtime error: …`) is the detail of the test
//! that was failing when it happened, located at the frame that panicked (the one after the
//! last `panic(…)` frame of the trace, or the first frame of the project's own code after it).
//!
//! A log line's message may go on over more lines, indented deeper (`Expected:` and the
//! values under it); testify's assertion blocks (`Error Trace:`, `Error:`, `Messages:`, the
//! `expected:`/`actual  :` lines) are such lines: the error joins the log line, the values and
//! messages follow it, the trace and the diff are left out.

use serde_json::json;

use super::names::{Failures, NAMES_KEPT, Names, where_they_differ};
use super::{Fact, Shape};
use crate::format::{cut, cut_middle, plural, thousands};

/// Tests whose first log line is remembered until they pass or fail (with `-v`).
const PENDING: usize = 256;

#[derive(Debug, Default)]
pub(crate) struct GoTest {
    verbose: bool,
    passed: u64,
    failed: u64,
    skipped: u64,
    failures: Failures,
    /// Top-level failing tests, and how many of their subtests failed.
    top: Vec<(String, u64)>,
    top_total: u64,
    packages_ok: u64,
    /// The packages that failed, with go's verdict line for each (`FAIL\tpkg\t0.01s`).
    packages_failed: Names,
    packages_without_tests: u64,
    /// The test whose output follows (`=== RUN`, `=== CONT`, `=== NAME`).
    running: String,
    /// Log lines of tests still running.
    pending: Vec<Pending>,
    /// Where passing tests logged (`rule_test.go:1575`): what a failing test logs there too
    /// is its preamble (`t.Log`), not how it failed.
    passing_places: Vec<String>,
    /// The lines that go on a test's first log line, while they may follow.
    more: Option<More>,
    /// Indentation of the last `--- FAIL` line, while its log lines may follow.
    after_fail: Option<usize>,
    /// The last `--- FAIL` was an example's: its `got:` and `want:` blocks may follow.
    example: bool,
    /// Where a panic's trace is: 1 after a `panic(` frame, 2 after its file line, 3 after the
    /// next function (whose file line is where it panicked), 4 after a function of the
    /// project's own code past that (whose file line is where in the project).
    trace: u8,
    /// In one of gotestsum's `=== FAIL: PKG TestX (0.00s)` blocks.
    gotestsum_block: bool,
    /// gotestsum's `=== Failed` summary came after failures were counted (after go's own
    /// output): its blocks repeat them.
    repeated: bool,
    /// gotestsum's closing `DONE 107 tests, 3 skipped, 7 failures in 3.550s`.
    done: Option<String>,
    /// The runtime's first fatal error (`fatal error: concurrent map writes`), which kills the
    /// test binary with no `--- FAIL` line: what it said, where (its first frame's file line),
    /// the function whose goroutine it was in (`created by …TestCacheDelRandomly`), and how
    /// many there were.
    fatal: Option<Fatal>,
    fatal_errors: u64,
}

#[derive(Debug, Default)]
struct Fatal {
    said: String,
    at: Option<String>,
    created_by: Option<String>,
    /// Its trace is being read.
    reading: bool,
}

/// The log lines of a test still running: its first, and the first it logged elsewhere.
#[derive(Debug)]
struct Pending {
    test: String,
    /// The line number and detail of the first log line.
    first: (u64, Vec<String>),
    /// The same of the first log line at another place.
    other: Option<(u64, Vec<String>)>,
}

/// Places where passing tests logged, remembered.
const PASSING_PLACES: usize = 64;

/// The lines that go on a log line, indented deeper than `indent`.
#[derive(Debug)]
struct More {
    indent: usize,
    /// Whose detail they are: a test still running, or the failure whose `--- FAIL` came first.
    pending: Option<String>,
    /// They go on the test's log line at another place ([`Pending::other`]).
    other: bool,
    /// What testify's `Error:` says, for the log line itself.
    error: Option<String>,
    /// The other lines, joined.
    text: String,
    /// Inside testify's `Error Trace:` or `Diff:`, or quicktest's `stack:`, which are left out.
    skipping: bool,
    /// An example's `got:` and `want:` blocks: lines at any indentation go on.
    any_indent: bool,
    /// The log line says nothing after its place (`assert_test.go:16: `, a helper's that
    /// does not call `t.Helper()`): the log line under it, deeper, is its message
    /// (`bigcache_test.go:725: Not equal:`).
    bare: bool,
    /// quicktest's label on a line of its own (`error:`, `got:`), for the value under it.
    label: Option<String>,
    /// The first lines (up to `BLOCK_LINES`): two long values compared are shown around where
    /// they differ (`Actual, Expected.`, then a map dump on each line), two blocks by their
    /// first line that differs (`have:`, the lines of one, `want:`, the lines of the other).
    values: Vec<String>,
}

/// How long the lines that go on a log line may be, joined.
const MORE_CHARS: usize = 300;
/// How much of a value compared is shown, around where it differs.
const COMPARED_CHARS: usize = 70;
/// How much of each of the first lines is kept to compare them.
const VALUE_KEPT: usize = 4 * 1024;
/// How many lines two blocks compared may have, together.
const BLOCK_LINES: usize = 64;
/// The labels of two blocks compared, each alone at the end of its line.
const BLOCK_LABELS: [&str; 6] = ["have:", "want:", "got:", "expected:", "actual:", "wanted:"];

/// A line of go test's own: a result, a run, a package's verdict.
fn is_go_test_line(text: &str) -> bool {
    let t = text.trim_start();
    ["--- ", "=== ", "FAIL", "ok  ", "PASS", "panic: "]
        .iter()
        .any(|p| t.starts_with(p))
}

/// `have:`, then the lines of one block, a line `want:`, the lines of the other: their first
/// line that differs, under each label (`have: …require v1.2.3 v1.2.3 · want: …require x.y/a
/// v1.2.3`; `…`: lines alike before it), or the end of the shorter. `None` when they are alike
/// or there is no second label.
fn blocks_differ(values: &[String]) -> Option<String> {
    let k = values
        .iter()
        .position(|v| BLOCK_LABELS.contains(&v.as_str()))?;
    let (a, b) = (&values[..k], &values[k + 1..]);
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))?;
    let at = |block: &[String]| {
        let line = block.get(i).map_or("(end)", String::as_str);
        let line = cut(line, COMPARED_CHARS * 2);
        if i > 0 { format!("…{line}") } else { line }
    };
    Some(format!("{} · {} {}", at(a), values[k], at(b)))
}

impl Shape for GoTest {
    fn line(&mut self, number: u64, text: &str) {
        let bytes = text.as_bytes();
        if self.trace == 2 && !bytes.starts_with(b"\t") && !text.starts_with("panic(") {
            self.trace = 3;
        }
        if self.trace == 3 && !bytes.starts_with(b"\t") && is_own_function(text) {
            self.trace = 4;
        }
        if self.example && text == "got:" {
            // An example's output (`got:` its lines, `want:` the expected ones): the first
            // line that differs is its detail.
            self.example = false;
            self.end_more();
            if let Some(f) = self.failures.current()
                && !f.has_detail()
            {
                f.add_detail(text);
                let mut more = More::new(0, None);
                more.any_indent = true;
                self.more = Some(more);
                return;
            }
        }
        if let Some(more) = &mut self.more {
            let indent = text.len() - text.trim_start_matches(' ').len();
            let t = &text[indent..];
            let goes_on = if more.any_indent {
                !is_go_test_line(text)
            } else {
                indent > more.indent
                    && !t.starts_with("--- ")
                    && (log_line(t).is_none() || (more.bare && more.text.is_empty()))
            };
            if goes_on {
                more.line(t);
                return;
            }
            self.end_more();
        }
        if self.gotestsum_block
            && (self.repeated || text.trim_start().starts_with("--- "))
            && !text.starts_with("=== ")
            && !text.starts_with("DONE ")
        {
            // A repeated block says nothing new; in a block, go's own `--- FAIL` line is the
            // block's failure again.
            return;
        }
        match bytes.first() {
            Some(b' ' | b'-') => {
                let indent = text.len() - text.trim_start_matches(' ').len();
                let t = &text[indent..];
                if let Some(rest) = t.strip_prefix("--- ") {
                    self.result(number, indent, rest);
                } else if let Some(log) = log_line(t) {
                    self.log(number, indent, log);
                }
            }
            Some(b'=') if self.gotestsum_line(number, text) => {}
            Some(b'=') => {
                if let Some(rest) = ["=== RUN ", "=== CONT ", "=== NAME "]
                    .iter()
                    .find_map(|p| text.strip_prefix(p))
                {
                    self.verbose |= text.starts_with("=== RUN ");
                    self.after_fail = None;
                    self.running.clear();
                    self.running.push_str(rest.trim());
                }
            }
            Some(b'o') if text.starts_with("ok  \t") => self.packages_ok += 1,
            Some(b'F') if text.starts_with("FAIL\t") => {
                let package = text[5..].split('\t').next().unwrap_or("");
                self.packages_failed.push_said(package, text.trim_end());
            }
            Some(b'?') if text.starts_with("?   \t") && text.ends_with("\t[no test files]") => {
                self.packages_without_tests += 1
            }
            Some(b'f') if text.starts_with("fatal error: ") => {
                self.fatal_errors += 1;
                if self.fatal.is_none() {
                    self.fatal = Some(Fatal {
                        said: cut(text.trim_end(), 200),
                        reading: true,
                        ..Fatal::default()
                    });
                }
            }
            // The running goroutine's stack ends at a blank line; the goroutines after it
            // are others', and a `created by` of theirs says nothing of the fatal error.
            None => {
                if let Some(f) = self.fatal.as_mut().filter(|f| f.at.is_some()) {
                    f.reading = false;
                }
            }
            Some(b'c') if text.starts_with("created by ") => {
                if let Some(f) = self.fatal.as_mut().filter(|f| f.reading) {
                    let function = text["created by ".len()..].split(" in goroutine").next();
                    f.created_by = function.map(|n| n.rsplit('/').next().unwrap_or(n).to_owned());
                    f.reading = false;
                }
            }
            Some(b'p') => {
                if text.starts_with("panic: ") {
                    self.panic(number, text);
                } else if text.starts_with("panic(") {
                    self.trace = 1;
                }
            }
            Some(b'\t') => self.frame_file(text),
            // gotestsum's package lines: `✖  pkg (10ms)`, `✓  pkg (1.2s)`, `∅  pkg`.
            Some(0xE2) => {
                if let Some(package) = text.strip_prefix("✖  ") {
                    let package = package.split(" (").next().unwrap_or(package);
                    self.packages_failed.push(package.trim_end());
                } else if text.starts_with("✓  ") {
                    self.packages_ok += 1;
                } else if text.starts_with("∅  ") {
                    self.packages_without_tests += 1;
                }
            }
            Some(b'D') if text.starts_with("DONE ") && text.contains(" tests") => {
                self.gotestsum_block = false;
                self.done = Some(cut(text.trim_end(), 200));
            }
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_more();
        let packages = self.packages_ok + self.packages_failed.total + self.packages_without_tests;
        if packages == 0 {
            return None;
        }
        let mut line = if self.verbose {
            format!(
                "tests: {} run, {} passed, {} failed, {} skipped",
                thousands(self.passed + self.failed),
                thousands(self.passed),
                thousands(self.failed),
                thousands(self.skipped)
            )
        } else {
            format!("tests: {} failed", thousands(self.failed))
        };
        line.push_str(&format!(
            " (go test: {} ok, {} failed",
            plural(self.packages_ok, "package", "packages"),
            thousands(self.packages_failed.total)
        ));
        if self.packages_without_tests > 0 {
            line.push_str(&format!(
                ", {} without test files",
                thousands(self.packages_without_tests)
            ));
        }
        line.push(')');
        let mut lines = vec![line];
        if !self.top.is_empty() {
            let shown: Vec<String> = self
                .top
                .iter()
                .map(|(name, subtests)| match subtests {
                    0 => name.clone(),
                    &n => format!("{name} ({})", plural(n, "subtest", "subtests")),
                })
                .collect();
            let mut top = format!("failed top-level tests: {}", shown.join(", "));
            let more = self.top_total - self.top.len() as u64;
            if more > 0 {
                top.push_str(&format!(" +{} more", thousands(more)));
            }
            lines.push(top);
        }
        // Go's verdict lines as printed while they are few; past that, the names.
        let failed = self.packages_failed.total;
        let verdicts = self
            .packages_failed
            .said_lines()
            .unwrap_or_default()
            .to_vec();
        if verdicts.is_empty() && failed > 0 {
            let shown = self.packages_failed.render(failed);
            lines.push(format!("FAIL {}", shown.replace(", ", " · FAIL ")));
        }
        if let Some(fatal) = &self.fatal {
            let mut line = fatal.said.clone();
            if let Some(at) = &fatal.at {
                line.push_str(&format!(" · at {at}"));
            }
            if let Some(function) = &fatal.created_by {
                line.push_str(&format!(" · in a goroutine of {function}"));
            }
            if self.fatal_errors > 1 {
                line.push_str(&format!(" (+{} more fatal errors)", self.fatal_errors - 1));
            }
            lines.push(line);
        }
        let json = json!({
            "shape": "go test",
            "fatal_errors": self.fatal_errors,
            "verbose": self.verbose,
            "passed": self.verbose.then_some(self.passed),
            "failed": self.failed,
            "skipped": self.verbose.then_some(self.skipped),
            "failing": self.failures.names(NAMES_KEPT),
            "packages_ok": self.packages_ok,
            "packages_failed": self.packages_failed.total,
            "failed_packages": self.packages_failed.json(),
            "packages_without_tests": self.packages_without_tests,
        });
        let failing = self.failed > 0
            || self.packages_failed.total > 0
            || !self.failures.is_empty()
            || self.fatal_errors > 0;
        let failures = self.failures.take_as("failed (sub)tests");
        // gotestsum's total, as it printed it, and its failures' blocks to search for.
        let hint = if self.done.is_some() {
            "'^=== FAIL|^panic:|^fatal error:|_test\\.go:\\d+:' -A 2"
        } else {
            "'^\\s*--- FAIL|^panic:|^fatal error:|_test\\.go:\\d+:' -A 2"
        };
        let quoted = self.done.take().into_iter().chain(verdicts).collect();
        Some(
            Fact::new("go test", lines, json)
                .quoting(quoted)
                .failures(failures)
                .hint_if_failed(failing, hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.packages_failed.approx_heap()
            + self.fatal.as_ref().map_or(0, |f| {
                f.said.capacity()
                    + f.at.as_ref().map_or(0, String::capacity)
                    + f.created_by.as_ref().map_or(0, String::capacity)
            })
            + self
                .top
                .iter()
                .map(|(n, _)| n.capacity() + 32)
                .sum::<usize>()
            + self.running.capacity()
            + self
                .pending
                .iter()
                .map(|p| {
                    let lines =
                        |d: &Vec<String>| d.iter().map(|l| l.capacity() + 24).sum::<usize>();
                    p.test.capacity()
                        + lines(&p.first.1)
                        + p.other.as_ref().map_or(0, |o| lines(&o.1))
                        + 112
                })
                .sum::<usize>()
            + self
                .passing_places
                .iter()
                .map(|p| p.capacity() + 24)
                .sum::<usize>()
            + self.more.as_ref().map_or(0, |m| {
                m.text.capacity()
                    + m.error.as_ref().map_or(0, String::capacity)
                    + m.pending.as_ref().map_or(0, String::capacity)
            })
    }
}

/// Top-level failing tests listed by name, as many as names are elsewhere (hcl's `TestFiles`,
/// the ninth, is the one its 14 failing subtests belong to).
const TOP_SHOWN: usize = NAMES_KEPT;

impl GoTest {
    /// gotestsum's summary: `=== Failed` (or `=== Skipped`, `=== Errors`), then a block for
    /// each failure, headed `=== FAIL: PKG TestX (0.00s)` (a subtest's before its parent's),
    /// holding the test's output. Returns whether the line was one of these.
    fn gotestsum_line(&mut self, number: u64, text: &str) -> bool {
        if matches!(text, "=== Failed" | "=== Skipped" | "=== Errors") {
            self.end_more();
            self.gotestsum_block = false;
            self.repeated |= text == "=== Failed" && self.failed > 0;
            return true;
        }
        let Some((_package, rest)) = text
            .strip_prefix("=== FAIL: ")
            .and_then(|r| r.split_once(' '))
        else {
            self.gotestsum_block = false;
            return false;
        };
        self.end_more();
        if !self.repeated {
            let name = rest.split(" (").next().unwrap_or(rest);
            self.running.clear();
            self.result(number, 0, &format!("FAIL: {rest}"));
            if self.failures.current().is_some_and(|f| f.name == name) {
                self.failures.say(text.trim_end());
            }
        }
        self.gotestsum_block = true;
        true
    }

    /// `--- PASS: TestX (0.00s)`, `--- FAIL: …`, `--- SKIP: …` (after the `--- `).
    fn result(&mut self, number: u64, indent: usize, rest: &str) {
        let Some((status, rest)) = rest.split_once(": ") else {
            return;
        };
        let Some((name, _)) = rest.split_once(" (") else {
            return;
        };
        if self
            .more
            .as_ref()
            .is_some_and(|m| m.pending.as_deref() == Some(name))
        {
            self.end_more();
        }
        let pending = self.pending.iter().position(|p| p.test == name);
        let pending = pending.map(|i| self.pending.swap_remove(i));
        if status == "PASS"
            && let Some(p) = &pending
        {
            for (_, lines) in std::iter::once(&p.first).chain(&p.other) {
                let place = lines.first().and_then(|l| place(l));
                if let Some(place) = place
                    && self.passing_places.len() < PASSING_PLACES
                    && !self.passing_places.iter().any(|p| p == place)
                {
                    self.passing_places.push(place.to_owned());
                }
            }
        }
        let detail = pending.map(|p| self.failing_detail(p));
        self.example = false;
        match status {
            "PASS" => self.passed += 1,
            "SKIP" => self.skipped += 1,
            "FAIL" => {
                // The runner's line: `--- FAIL: TestX/sub (0.00s)`.
                let said = format!("--- {status}: {rest}");
                self.failed += 1;
                self.after_fail = Some(indent);
                self.example = name.starts_with("Example") && !name.contains('/');
                let top = name.split('/').next().unwrap_or(name);
                match self.top.iter_mut().find(|(n, _)| n == top) {
                    Some((_, subtests)) => *subtests += u64::from(name != top),
                    None => {
                        self.top_total += 1;
                        if self.top.len() < TOP_SHOWN {
                            self.top.push((top.to_owned(), u64::from(name != top)));
                        }
                    }
                }
                // A parent's `--- FAIL` comes before its subtests': the first failing subtest
                // takes the parent's place, unless the parent said something itself.
                if name != top
                    && let Some(parent) = self.failures.current()
                    && parent.name == top
                    && !parent.has_detail()
                {
                    parent.name = name.to_owned();
                    parent.line = number;
                    if let Some((_, line, lines)) = detail {
                        parent.line = line;
                        for text in &lines {
                            parent.add_detail(text);
                        }
                    }
                    self.failures.say(&said);
                    return;
                }
                if let Some((_, line, lines)) = detail {
                    self.failures.push_said(line, name, &said);
                    if let Some(f) = self.failures.current() {
                        for text in &lines {
                            f.add_detail(text);
                        }
                    }
                } else {
                    self.failures.push_said(number, name, &said);
                }
            }
            _ => {}
        }
    }

    /// `x_test.go:47: got 1, want 2` (after the indentation): a test's log line.
    fn log(&mut self, number: u64, indent: usize, log: &str) {
        let bare = place(log).is_some_and(|at| log[at.len()..].trim() == ":");
        if let Some(fail_indent) = self.after_fail
            && indent > fail_indent
        {
            if let Some(f) = self.failures.current()
                && !f.has_detail()
            {
                f.line = number;
                f.add_detail(log);
                self.more = Some(More::new(indent, None).bare_if(bare));
            }
            return;
        }
        if self.running.is_empty() {
            return;
        }
        let logged = (number, vec![cut_middle(log.trim(), 400)]);
        let room = self.pending.len() < PENDING;
        match self.pending.iter_mut().find(|p| p.test == self.running) {
            // A second place, in case the first turns out to be a preamble.
            Some(p)
                if p.other.is_none() && p.first.1.first().and_then(|l| place(l)) != place(log) =>
            {
                p.other = Some(logged);
                self.more = Some(More::new(indent, Some(self.running.clone())).bare_if(bare));
                if let Some(m) = &mut self.more {
                    m.other = true;
                }
            }
            Some(_) => {}
            None if room => {
                self.pending.push(Pending {
                    test: self.running.clone(),
                    first: logged,
                    other: None,
                });
                self.more = Some(More::new(indent, Some(self.running.clone())).bare_if(bare));
            }
            None => {}
        }
    }

    /// A failing test's log line and its detail: the first, unless passing tests logged at
    /// its place too and it logged elsewhere (then that).
    fn failing_detail(&self, p: Pending) -> (String, u64, Vec<String>) {
        let preamble = p
            .first
            .1
            .first()
            .and_then(|l| place(l))
            .is_some_and(|place| self.passing_places.iter().any(|p| p == place));
        match p.other {
            Some((line, lines)) if preamble => (p.test, line, lines),
            _ => (p.test, p.first.0, p.first.1),
        }
    }

    /// The lines that went on a log line are over: they join its test's detail.
    fn end_more(&mut self) {
        let Some(more) = self.more.take() else {
            return;
        };
        let detail = match &more.pending {
            Some(test) => match self.pending.iter_mut().find(|p| p.test == *test) {
                Some(p) if more.other => match &mut p.other {
                    Some((_, detail)) => detail,
                    None => return,
                },
                Some(p) => &mut p.first.1,
                None => return,
            },
            None => match self.failures.current() {
                Some(f) => {
                    // Its message changes: its form is read again.
                    f.message_form = None;
                    &mut f.detail
                }
                None => return,
            },
        };
        if let (Some(error), Some(first)) = (&more.error, detail.first_mut()) {
            *first = cut_middle(&format!("{} {error}", first.trim_end()), 400);
        }
        // The log line ends in a block's label (`rule_test.go:1408: have:`).
        let labelled = detail
            .first()
            .and_then(|d| d.rsplit(' ').next())
            .is_some_and(|l| BLOCK_LABELS.contains(&l));
        let text = match more.values.as_slice() {
            [a, b] if a.chars().count().max(b.chars().count()) > COMPARED_CHARS => {
                let (a, b) = where_they_differ(a, b, COMPARED_CHARS);
                format!("{a} · {b}")
            }
            values if labelled && values.len() < BLOCK_LINES => {
                blocks_differ(values).unwrap_or(more.text)
            }
            _ => more.text,
        };
        if !text.is_empty() && detail.len() < 2 {
            detail.push(cut_middle(&text, MORE_CHARS));
        }
    }

    /// `panic: runtime error: …`: the detail of the test failing when it happened.
    fn panic(&mut self, number: u64, text: &str) {
        self.after_fail = None;
        if let Some(f) = self.failures.current() {
            let replace = !f.detail.iter().any(|d| d.starts_with("panic: "));
            if replace {
                f.detail.clear();
                f.line = number;
                f.add_detail(text);
            }
        }
    }

    /// A trace's file line (`\t/path/x.go:27 +0xc5`); the one after the last `panic(` frame's
    /// function is where the panic happened.
    fn frame_file(&mut self, text: &str) {
        if let Some(f) = self.fatal.as_mut().filter(|f| f.reading && f.at.is_none()) {
            f.at = Some(text.trim().split(" +0x").next().unwrap_or("").to_owned());
        }
        match self.trace {
            1 => self.trace = 2,
            3 | 4 => {
                // The frame that panicked (often Go's own library), and then the first of the
                // project's own code, which replaces it.
                let own = self.trace == 4;
                self.trace = if own { 0 } else { 3 };
                let at = text.trim().split(" +0x").next().unwrap_or("");
                if let Some(f) = self.failures.current()
                    && f.detail.first().is_some_and(|d| d.starts_with("panic: "))
                    && (own || f.detail.len() == 1)
                {
                    f.detail.truncate(1);
                    f.add_detail(&format!("at {at}"));
                }
            }
            _ => {}
        }
    }
}

/// quicktest's labels: `error:`, `got:`, `want:`, `comment:`, `got type:`.
fn is_quicktest_label(t: &str) -> bool {
    t.strip_suffix(':').is_some_and(|label| {
        !label.is_empty()
            && label.len() <= 16
            && label.bytes().all(|b| b.is_ascii_lowercase() || b == b' ')
            && label.matches(' ').count() <= 1
    })
}

impl More {
    fn new(indent: usize, pending: Option<String>) -> More {
        More {
            indent,
            pending,
            other: false,
            error: None,
            text: String::new(),
            skipping: false,
            any_indent: false,
            bare: false,
            label: None,
            values: Vec::new(),
        }
    }

    fn bare_if(mut self, bare: bool) -> More {
        self.bare = bare;
        self
    }

    /// A line that goes on the log line (without its indentation).
    fn line(&mut self, t: &str) {
        let value = match t.strip_prefix('\t') {
            // testify: `\tError:      \tNot equal: `, then `\t            \texpected: 1`.
            Some(block) => {
                let (label, value) = block.split_once('\t').unwrap_or(("", block));
                let value = value.trim();
                match label.trim() {
                    "" if value == "Diff:" => {
                        self.skipping = true;
                        return;
                    }
                    "" if self.skipping => return,
                    "" => value.to_owned(),
                    "Error Trace:" | "Test:" => {
                        self.skipping = true;
                        return;
                    }
                    "Error:" => {
                        self.skipping = false;
                        self.error = Some(value.to_owned());
                        return;
                    }
                    "Messages:" => {
                        self.skipping = false;
                        value.to_owned()
                    }
                    label => {
                        self.skipping = false;
                        format!("{label} {value}")
                    }
                }
            }
            // quicktest: `error:`, `got:`, `want:` each over its value's lines, then
            // `stack:` and the frames, which are left out (the log line says where).
            None if self.skipping => return,
            None if !self.any_indent && t.trim_end() == "stack:" => {
                self.skipping = true;
                return;
            }
            None if !self.any_indent && is_quicktest_label(t.trim_end()) => {
                // Compared as a block's label, said with the value under it.
                let label = t.trim_end();
                if self.values.len() < BLOCK_LINES {
                    self.values.push(label.to_owned());
                }
                self.label = Some(label.to_owned());
                return;
            }
            None => t.trim().to_owned(),
        };
        if value.is_empty() {
            return;
        }
        if self.values.len() < BLOCK_LINES {
            self.values.push(cut(&value, VALUE_KEPT));
        }
        let value = match self.label.take() {
            Some(label) => format!("{label} {value}"),
            None => value,
        };
        if self.text.len() >= MORE_CHARS {
            return;
        }
        if !self.text.is_empty() {
            self.text.push_str(" · ");
        }
        self.text.push_str(&value);
    }
}

/// A trace's function line of the project's own code: its package path starts with a domain
/// (`github.com/a/b.F(…)`) or it is `main`; Go's own packages (`runtime`, `reflect`,
/// `testing`) have neither.
pub(crate) fn is_own_function(text: &str) -> bool {
    let first = text.split('/').next().unwrap_or("");
    (text.contains('/') && first.contains('.') && !first.contains('(')) || text.starts_with("main.")
}

/// `x_test.go:47: message` → `x_test.go:47`: where a log line was logged.
fn place(log: &str) -> Option<&str> {
    log_line(log)?;
    let file = log.find(':')?;
    let digits = log[file + 1..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    Some(&log[..file + 1 + digits])
}

/// `x_test.go:47: message` → the whole line, when it is a Go log line.
fn log_line(t: &str) -> Option<&str> {
    let (file, rest) = t.split_once(':')?;
    if !file.ends_with(".go") || file.contains(' ') {
        return None;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && rest[digits..].starts_with(": ")).then_some(t)
}
