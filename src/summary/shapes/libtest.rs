//! `cargo test` / libtest output: totals summed over every test binary's `test result:` line,
//! each binary's own result, failing tests from `test NAME ... FAILED` (or `-q`'s
//! `NAME --- FAILED`) lines with their first detail from the `---- NAME stdout ----` sections
//! (the panic's location and message, `left:`/`right:`, `test did not panic as expected at …`;
//! a failure past the first ones kept, dropped when its `FAILED` line came, is taken again by its
//! section), and test binaries that stopped before their result line (a crash or abort), which get no
//! invented totals.

use serde_json::json;

use super::names::{Failure, Failures, Names, where_they_differ};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// Binaries whose results are all listed; with more, only the failing ones are.
const BINARIES_LISTED: u64 = 4;

#[derive(Debug, Default)]
pub(crate) struct Libtest {
    suites: u64,
    results: u64,
    passed: u64,
    failed: u64,
    ignored: u64,
    measured: u64,
    failures: Failures,
    /// The binary running now (from `Running …` / `Doc-tests …`).
    binary: String,
    /// Each binary's result: `tests/x.rs: 24 passed; 2 failed` (failing ones, and the first
    /// few of the others).
    results_shown: Names,
    passing_binaries: Vec<String>,
    /// The binary currently running: tests it announced and `... ok` lines it printed.
    open: Option<(u64, u64)>,
    /// Its name.
    open_binary: String,
    stopped: u64,
    first_stopped: Option<(u64, u64)>,
    /// The first binary that stopped, and how (`signal: 6, SIGABRT: process abort signal`).
    stopped_binary: Option<String>,
    stopped_by: Option<String>,
    overflowed: Option<String>,
    /// The `---- NAME stdout ----` section being read: its test, and how far it is read.
    section: Option<(String, Reading)>,
    /// A panic printed as its test ran (`-- --nocapture`, a doc test's stderr), outside any
    /// section: its detail, read until its panic is told, kept until its test's verdict.
    loose: Option<(Failure, Reading)>,
    /// Panics told, whose tests have no verdict yet (tests run side by side: both panic
    /// before either `FAILED` line), the latest last.
    pending: Vec<Failure>,
    /// The sections being read are of tests that passed (`--show-output`'s `successes:`).
    successes: bool,
    /// The runner's lines that said a test failed other than as `test NAME ... FAILED`
    /// (`-q`'s `NAME --- FAILED`, `test NAME - should panic ... FAILED`), the first ones: a
    /// failure pushed again is said as it was.
    said_otherwise: Vec<(String, String)>,
    /// cargo's closing `error: 4 targets failed:` (`--no-fail-fast`), and the targets it lists
    /// under it (`    \`-p toml --lib\``): how to run each again.
    closing_error: Option<String>,
    failed_targets: Names,
    reading_targets: bool,
}

/// Runner's lines kept in [`Libtest::said_otherwise`].
const SAID_OTHERWISE: usize = 64;
/// Panics kept in [`Libtest::pending`].
const PENDING: usize = 32;

/// How far a failure's output is read: whether its panic was seen, a `left:` value waiting for
/// its `right:`, and whether its `stack backtrace:` began (the frames say where, as the panic
/// did: what follows is not read).
#[derive(Debug, Default)]
struct Reading {
    panicked: bool,
    left: Option<String>,
    trace: bool,
    /// In pretty_assertions' diff (`Diff < left / right > :`), whose changed lines start
    /// with `<` (left) or `>` (right), its other lines alike on both sides.
    diff: bool,
    /// A `should_panic` test's panic without the text it expected: the panic's message,
    /// escaped on one line (`panic message: "…"`), once read.
    mismatch: Option<String>,
}

/// libtest's note on a `should_panic(expected = …)` test whose panic said something else;
/// the panic's message and the text expected follow.
const SHOULD_PANIC_MISMATCH: &str = "note: panic did not contain expected string";

/// How much of a panic's message and of the text expected is shown around where they differ
/// (both are escaped, their colour codes too).
const MISMATCH_CHARS: usize = 40;

/// quickcheck's verdict, after the tries it shrank.
const QUICKCHECK_VERDICT: &str = "[quickcheck] TEST FAILED";

/// A property test's verdict: the input that fails, shrunk (quickcheck, proptest).
fn is_failing_input(t: &str) -> bool {
    t.starts_with(QUICKCHECK_VERDICT) || t.starts_with("minimal failing input: ")
}

/// A line of a snapshot's diff as snapbox prints it (`  84      -         span: 23..29,`:
/// old and new line numbers, then `|` for context, `-` or `+` for a change; and its headings,
/// `---- expected: src/a.rs:12:9`, `++++ actual:   In-memory`, `⋮`): `Some(Some(change))` for a
/// changed line (`- span: 23..29,`), `Some(None)` for one that says nothing new, `None` for
/// any other line.
fn numbered_diff_line(t: &str) -> Option<Option<String>> {
    if t.starts_with("---- expected: ") || t.starts_with("++++ actual: ") || t == "⋮" {
        return Some(None);
    }
    let numbers = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ');
    if numbers.len() == t.len() || !t.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let marker = numbers.chars().next()?;
    let rest = numbers[marker.len_utf8()..].trim();
    match marker {
        '|' => Some(None),
        '-' | '+' if numbers[1..].starts_with(' ') || numbers.len() == 1 => {
            Some(Some(format!("{marker} {rest}")))
        }
        _ => None,
    }
}

/// `panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/insta-1.31.0/src/
/// runtime.rs:563:9:` → `panicked at insta-1.31.0/src/runtime.rs:563:9:`: a panic raised in a
/// dependency (a test framework's assertion) is placed by the crate it is in; the way to cargo's
/// registry says nothing, and is the longest part of the line.
fn from_registry(panic: &str) -> std::borrow::Cow<'_, str> {
    const REGISTRY: &str = "/.cargo/registry/src/";
    let Some(at) = panic.find(REGISTRY) else {
        return panic.into();
    };
    let start = panic[..at].rfind(' ').map_or(0, |s| s + 1);
    let rest = &panic[at + REGISTRY.len()..];
    let Some((_index, in_crate)) = rest.split_once('/') else {
        return panic.into();
    };
    format!("{}{in_crate}", &panic[..start]).into()
}

/// How much of a long value compared is shown, around where it differs.
const COMPARED_CHARS: usize = 70;
/// How much of a value compared is kept while its other value is read.
const LEFT_KEPT: usize = 8 * 1024;

impl Shape for Libtest {
    fn line(&mut self, number: u64, text: &str) {
        if self.section.is_some() {
            self.section_line(number, text);
        } else {
            self.loose_line(number, text);
        }
        if let Some(name) = text.strip_suffix(" --- FAILED")
            && !name.is_empty()
            && !name.contains(' ')
        {
            self.fail(number, name, text);
            return;
        }
        if self.reading_targets {
            if text.starts_with("    `") {
                self.failed_targets.push_said(text.trim(), text.trim_end());
                return;
            }
            self.reading_targets = false;
        }
        if text.starts_with("error: ")
            && (text.ends_with(" targets failed:") || text.ends_with(" target failed:"))
        {
            self.closing_error = Some(text.to_owned());
            self.reading_targets = true;
            return;
        }
        match text.as_bytes().first() {
            Some(b'-') => {
                if let Some(name) = text
                    .strip_prefix("---- ")
                    .and_then(|r| r.strip_suffix(" stdout ----"))
                {
                    self.section = Some((name.to_owned(), Reading::default()));
                    // A failure past the first ones kept was dropped when its `FAILED` line
                    // came, its detail unknown: here is its detail, which may be new.
                    let dropped = self.failures.iter().count() < self.failures.total as usize;
                    if dropped && !self.successes && self.failures.named(name).is_none() {
                        let said = match self.said_otherwise.iter().find(|(n, _)| n == name) {
                            Some((_, said)) => said.clone(),
                            None => format!("test {name} ... FAILED"),
                        };
                        self.failures.push_again(number, name);
                        self.failures.say(&said);
                    }
                }
            }
            Some(b' ') => {
                let t = text.trim_start();
                if let Some(rest) = t.strip_prefix("Running ") {
                    // `Running unittests src/lib.rs (target/…)`, `Running tests/a.rs (target/…)`
                    let rest = rest.strip_prefix("unittests ").unwrap_or(rest);
                    self.binary = rest.split(" (").next().unwrap_or(rest).to_owned();
                } else if let Some(krate) = t.strip_prefix("Doc-tests ") {
                    self.binary = format!("doc-tests {krate}");
                } else if t.starts_with("process didn't exit successfully: ") {
                    self.exit_line(t);
                }
            }
            Some(b'r' | b't' | b'f' | b's') => self.status_line(number, text),
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_section();
        self.close_open();
        if self.suites == 0 && self.results == 0 {
            return None;
        }
        let mut lines = Vec::new();
        if self.results > 0 {
            let mut line = format!(
                "tests: {} run, {} passed, {} failed",
                thousands(self.passed + self.failed),
                thousands(self.passed),
                thousands(self.failed)
            );
            if self.ignored > 0 {
                line.push_str(&format!(", {} ignored", thousands(self.ignored)));
            }
            if self.measured > 0 {
                line.push_str(&format!(", {} measured", thousands(self.measured)));
            }
            let binaries = if self.results == 1 {
                "binary"
            } else {
                "binaries"
            };
            line.push_str(&format!(" ({} cargo test {binaries})", self.results));
            lines.push(line);
            let failing_binaries = self.results_shown.total;
            let mut shown = self.results_shown.render(failing_binaries);
            if self.results <= BINARIES_LISTED {
                for passing in &self.passing_binaries {
                    if !shown.is_empty() {
                        shown.push_str(" · ");
                    }
                    shown.push_str(passing);
                }
            } else if failing_binaries < self.results {
                let others = self.results - failing_binaries;
                if !shown.is_empty() {
                    shown.push_str(" · ");
                }
                shown.push_str(&format!(
                    "{} other binar{} passed",
                    thousands(others),
                    if others == 1 { "y" } else { "ies" }
                ));
            }
            if !shown.is_empty() {
                lines.push(format!("per binary: {shown}"));
            }
        }
        if let Some((announced, ok)) = self.first_stopped {
            let mut line = if self.stopped == 1 {
                format!(
                    "tests: a test binary stopped before its result line (running {} tests",
                    thousands(announced)
                )
            } else {
                format!(
                    "tests: {} test binaries stopped before their result line (the first: running {} tests",
                    self.stopped,
                    thousands(announced)
                )
            };
            if ok > 0 {
                line.push_str(&format!(", {} reported ok", thousands(ok)));
            }
            if let Some(binary) = &self.stopped_binary {
                line.push_str(&format!(", {binary}"));
            }
            if let Some(how) = &self.stopped_by {
                line.push_str(&format!("; {how}"));
            }
            line.push(')');
            if let Some(name) = &self.overflowed {
                line.push_str(&format!("; thread '{name}' overflowed its stack"));
            }
            lines.push(line);
        }
        let json = json!({
            "shape": "cargo test",
            "binaries": self.results,
            "run": self.passed + self.failed,
            "passed": self.passed,
            "failed": self.failed,
            "ignored": self.ignored,
            "measured": self.measured,
            "failing": self.failures.names(super::names::NAMES_KEPT),
            "stopped_binaries": self.stopped,
            "overflowed": self.overflowed,
            "stopped_binary": self.stopped_binary,
            "stopped_by": self.stopped_by,
        });
        let failing = self.failed > 0 || self.stopped > 0 || !self.failures.is_empty();
        let failures = self.failures.take_as("failed tests");
        // cargo's closing lines, with the targets while they are few.
        let mut quoted: Vec<String> = self.closing_error.take().into_iter().collect();
        if let Some(targets) = self.failed_targets.said_lines() {
            quoted.extend(targets.iter().cloned());
        }
        Some(
            Fact::new("cargo test", lines, json)
                .quoting(quoted)
                .failures(failures)
                .hint_if_failed(failing, "'^---- |panicked at|^test .* FAILED' -A 4"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.results_shown.approx_heap()
            + self
                .passing_binaries
                .iter()
                .map(|b| b.capacity() + 24)
                .sum::<usize>()
            + self.binary.capacity()
            + self.failed_targets.approx_heap()
            + self.closing_error.as_ref().map_or(0, String::capacity)
            + self
                .pending
                .iter()
                .chain(self.loose.as_ref().map(|(f, _)| f))
                .map(|f| {
                    f.name.capacity() + f.detail.iter().map(String::capacity).sum::<usize>() + 64
                })
                .sum::<usize>()
            + self.section.as_ref().map_or(0, |(s, _)| s.capacity())
            + self.overflowed.as_ref().map_or(0, String::capacity)
            + self.open_binary.capacity()
            + self.stopped_binary.as_ref().map_or(0, String::capacity)
            + self.stopped_by.as_ref().map_or(0, String::capacity)
    }
}

impl Reading {
    /// A line of a failure's output: the first panic and the lines after it, else the first
    /// line that says something.
    fn read(&mut self, failure: &mut Failure, number: u64, t: &str) {
        if t.starts_with("stack backtrace:") {
            self.trace = true;
        }
        if self.trace && t == SHOULD_PANIC_MISMATCH {
            self.mismatch = Some(String::new());
            return;
        }
        if let Some(message) = &mut self.mismatch
            && message.is_empty()
            && t.starts_with("panic message: ")
        {
            *message = cut(t, LEFT_KEPT);
            return;
        }
        if self.trace && t.starts_with("expected substring: ") {
            // A `should_panic` test's panic, the wrong one: what it expected follows the
            // frames. That it panicked is no failure: that the message differs is, and where
            // (the panic's values are what the test meant to make, and give way).
            let Some(message) = self.mismatch.take() else {
                failure.add_detail(t);
                return;
            };
            failure.detail.truncate(1);
            failure.add_detail(SHOULD_PANIC_MISMATCH);
            let (message, expected) = where_they_differ(&message, t, MISMATCH_CHARS);
            if message.contains(": …") {
                // What both say before the difference is not shown: the message's part is.
                failure.add_detail(&message);
            }
            // What it expected, whole when short.
            if t.chars().count() <= COMPARED_CHARS + "expected substring: ".len() {
                failure.add_detail(t);
            } else {
                failure.add_detail(&expected);
            }
            return;
        }
        if self.trace
            || t.is_empty()
            || t == "stderr:"
            || t == "stdout:"
            || t.starts_with("note: run with `RUST_BACKTRACE=1`")
        {
            return;
        }
        if let Some(at) = t.find(" panicked at ")
            && t.starts_with("thread '")
        {
            if self.panicked {
                return;
            }
            self.panicked = true;
            failure.detail.clear();
            failure.line = number;
            failure.add_detail(&from_registry(&t[at + 1..]));
        } else if self.panicked {
            if t.starts_with("left:") && self.left.is_none() && failure.detail.len() < 3 {
                self.left = Some(cut(t, LEFT_KEPT));
                return;
            }
            match self.left.take() {
                Some(left) if t.starts_with("right:") => {
                    let (left, right) = where_they_differ(&left, t, COMPARED_CHARS);
                    failure.add_detail(&left);
                    failure.add_detail(&right);
                }
                Some(left) => {
                    failure.add_detail(&left);
                    failure.add_detail(t);
                }
                None if t.starts_with(QUICKCHECK_VERDICT) => {
                    // The panics before were quickcheck's tries, the first of them with random
                    // values: the shrunk input and its `Error: …` under it say what fails.
                    // Kept: where the test's own panic was, and its message (on that line
                    // when short).
                    let kept = match (failure.detail.first(), failure.detail.get(1)) {
                        (Some(place), Some(m))
                            if place.ends_with(':')
                                && !m.starts_with("left:")
                                && !m.starts_with("right:") =>
                        {
                            2
                        }
                        _ => 1,
                    };
                    failure.detail.truncate(kept);
                    failure.add_detail(t);
                }
                None if is_failing_input(t) => failure.add_essential_detail(t),
                None if t.starts_with("Diff < left / right >") => {
                    self.diff = true;
                    failure.add_detail(t);
                }
                None if self.diff => {
                    if t.starts_with(['<', '>']) {
                        failure.add_detail(t);
                    }
                }
                None => match numbered_diff_line(t) {
                    // A snapshot's diff: its changed lines, not its context and headings.
                    Some(Some(changed)) => {
                        failure.add_detail(&changed);
                    }
                    Some(None) => {}
                    None => {
                        failure.add_detail(t);
                    }
                },
            }
        } else if t.starts_with("Test executable failed") {
            // Doc tests: the panic follows, on the test's stderr.
            if !failure.has_detail() {
                failure.line = number;
                failure.add_detail(t);
            }
        } else if t.starts_with("note: test did not panic") || !failure.has_detail() {
            failure.line = number;
            failure.detail.clear();
            failure.add_detail(t);
        }
    }

    /// The output is over: a `left:` without its `right:` is detail as it is.
    fn end(&mut self, failure: &mut Failure) {
        if let Some(left) = self.left.take() {
            failure.add_detail(&left);
        }
    }
}

impl Libtest {
    /// The test `name` failed, as the runner's line `said` says.
    fn fail(&mut self, number: u64, name: &str, said: &str) {
        if self.failures.named(name).is_none() {
            self.failures.push_said(number, name, said);
            if let Some(panic) = self.take_pending(name)
                && let Some(failure) = self.failures.current()
            {
                // Its panic, printed as it ran: where it is told, and what it says.
                failure.line = panic.line;
                failure.detail = panic.detail;
                failure.message_form = panic.message_form;
            }
            if said
                .strip_prefix("test ")
                .and_then(|s| s.strip_suffix(" ... FAILED"))
                != Some(name)
                && self.said_otherwise.len() < SAID_OTHERWISE
            {
                self.said_otherwise.push((name.to_owned(), said.to_owned()));
            }
        }
    }

    /// `running N tests`, `test result: …`, `test NAME ... FAILED`, `thread '…' has
    /// overflowed its stack`, `failures:`.
    fn status_line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("running ") {
            if let Some(n) = rest
                .strip_suffix(" tests")
                .or_else(|| rest.strip_suffix(" test"))
                && let Ok(n) = n.parse::<u64>()
            {
                self.close_open();
                self.end_loose();
                self.pending.clear();
                self.successes = false;
                self.suites += 1;
                self.open = Some((n, 0));
                self.open_binary.clone_from(&self.binary);
            }
        } else if let Some(rest) = text.strip_prefix("test result: ") {
            self.result(rest);
        } else if let Some(rest) = text.strip_prefix("test ") {
            if let Some((name, outcome)) = rest.split_once(" ... ") {
                let name = name.strip_suffix(" - should panic").unwrap_or(name);
                if outcome == "FAILED" {
                    self.fail(number, name, text);
                } else if outcome == "ok" {
                    // A test that panicked and passed (`should_panic`).
                    self.take_pending(name);
                    if let Some((_, ok)) = &mut self.open {
                        *ok += 1;
                    }
                }
            }
        } else if let Some(rest) = text.strip_prefix("thread '")
            && let Some((name, tail)) = rest.split_once('\'')
            && tail.ends_with(" has overflowed its stack")
            && self.overflowed.is_none()
        {
            self.overflowed = Some(name.to_owned());
        } else if text == "failures:" || text == "successes:" {
            self.end_section();
            self.successes = text == "successes:";
        }
    }

    /// cargo's `process didn't exit successfully: `…` (signal: 6, SIGABRT: process abort
    /// signal)` after a binary that stopped.
    fn exit_line(&mut self, text: &str) {
        if self.stopped_by.is_none()
            && self.open.is_some()
            && let Some((_, how)) = text.rsplit_once("` (")
            && let Some(how) = how.strip_suffix(')')
            && how.starts_with("signal: ")
        {
            self.stopped_by = Some(cut(how, 80));
        }
    }

    /// A line of a `---- NAME stdout ----` section.
    fn section_line(&mut self, number: u64, text: &str) {
        let Some((name, reading)) = &mut self.section else {
            return;
        };
        // The next section (`---- NAME stdout ----`), not snapbox's `---- expected: …` line.
        if text.trim() == "failures:" || (text.starts_with("---- ") && text.ends_with(" ----")) {
            self.end_section();
            return;
        }
        if let Some(failure) = self.failures.named(name) {
            reading.read(failure, number, text.trim());
        }
    }

    /// The section is over: a `left:` without its `right:` is detail as it is.
    fn end_section(&mut self) {
        if let Some((name, mut reading)) = self.section.take()
            && let Some(failure) = self.failures.named(&name)
        {
            reading.end(failure);
        }
    }

    /// A line outside the sections: a panic printed as its test ran starts a loose failure,
    /// read until the panic is told (its frames, a note, the runner's next line).
    fn loose_line(&mut self, number: u64, text: &str) {
        let panic = text.starts_with("thread '") && text.contains(" panicked at ");
        let told = panic
            || self.loose.is_some()
                && (text.starts_with("stack backtrace:")
                    || text.starts_with("note: ")
                    || text.starts_with("test ")
                    || text.starts_with("running ")
                    || text.starts_with("failures:")
                    || text.starts_with("successes:")
                    || text.starts_with("---- ")
                    || text.starts_with("error: "));
        if told {
            self.end_loose();
        }
        if panic && self.open.is_some() {
            let name = text["thread '".len()..]
                .split('\'')
                .next()
                .unwrap_or_default();
            let failure = Failure {
                name: name.to_owned(),
                line: number,
                ..Failure::default()
            };
            self.loose = Some((failure, Reading::default()));
        }
        if let Some((failure, reading)) = &mut self.loose {
            reading.read(failure, number, text.trim());
        }
    }

    /// The loose panic is told: it waits for its test's verdict.
    fn end_loose(&mut self) {
        if let Some((mut failure, mut reading)) = self.loose.take() {
            reading.end(&mut failure);
            if self.pending.len() == PENDING {
                self.pending.remove(0);
            }
            self.pending.push(failure);
        }
    }

    /// The panic told before `name`'s verdict: its own, or in a doc test (whose thread is
    /// `main`) the last one.
    fn take_pending(&mut self, name: &str) -> Option<Failure> {
        self.end_loose();
        let doc_test = name.contains(" - ") && name.ends_with(')');
        let at = self
            .pending
            .iter()
            .rposition(|f| f.name == name || (doc_test && f.name == "main"))?;
        Some(self.pending.remove(at))
    }

    fn close_open(&mut self) {
        if let Some(open) = self.open.take() {
            self.stopped += 1;
            if self.first_stopped.is_none() {
                self.first_stopped = Some(open);
                self.stopped_binary = Some(self.open_binary.clone()).filter(|b| !b.is_empty());
            }
        }
    }

    /// `ok. 204 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.01s`
    fn result(&mut self, rest: &str) {
        let Some((_, counts)) = rest.split_once(". ") else {
            return;
        };
        let mut parsed = [None; 4];
        for part in counts.split("; ") {
            let Some((n, word)) = part.split_once(' ') else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            let slot = match word {
                "passed" => 0,
                "failed" => 1,
                "ignored" => 2,
                "measured" => 3,
                _ => continue,
            };
            parsed[slot] = Some(n);
        }
        let [Some(passed), Some(failed), ignored, measured] = parsed else {
            return;
        };
        self.passed += passed;
        self.failed += failed;
        self.ignored += ignored.unwrap_or(0);
        self.measured += measured.unwrap_or(0);
        self.results += 1;
        self.open = None;
        // The result as libtest words it, so it reads (and greps) the same.
        let mut result = format!("{passed} passed; {failed} failed");
        if let Some(i) = ignored {
            result.push_str(&format!("; {i} ignored"));
        }
        let binary = if self.binary.is_empty() {
            format!("binary {}", self.results)
        } else {
            cut(&self.binary, 80)
        };
        let described = format!("{binary}: {result}");
        if failed > 0 {
            self.results_shown.push(&described);
        } else if self.passing_binaries.len() < BINARIES_LISTED as usize {
            self.passing_binaries.push(described);
        }
        self.end_section();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_a_dependency_is_placed_by_its_crate() {
        assert_eq!(
            from_registry(
                "panicked at /home/dev/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
                 insta-1.31.0/src/runtime.rs:563:9:"
            ),
            "panicked at insta-1.31.0/src/runtime.rs:563:9:"
        );
        assert_eq!(
            from_registry("panicked at src/lib.rs:4:5:"),
            "panicked at src/lib.rs:4:5:"
        );
    }
}
