//! pytest output: the final summary line (`3 failed, 59 passed, 1 error in 0.10s`, with or
//! without `=` banners), failing tests and errors from the `short test summary info` section,
//! and an interrupted collection (`Interrupted: 1 error during collection`), which is a failure
//! with 0 tests run — never "no tests". Each failure's first detail comes from its section of
//! the `FAILURES` or `ERRORS` report (`____ test_x ____`): the first `E   …` lines and where it
//! failed (`tests/a.py:12: AssertionError`); with `--tb=line`, the report's `E` lines and
//! `path:line: message` lines, in the order of the summary.

use serde_json::json;

use super::diagnostics::Tally;
use super::names::{
    Failure, Failures, Names, is_test_file, where_they_differ, without_pytest_mark,
};
use super::pytrace::{Traceback, frame_place};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

#[derive(Debug, Default)]
pub(crate) struct Pytest {
    sessions: u64,
    /// passed, failed, skipped, xfailed, xpassed, errors, deselected, warnings
    counts: [u64; 9],
    /// The same words counted for subtests (`21190 subtests passed`, pytest 9 and
    /// pytest-subtests).
    subtests: [u64; 9],
    in_short_summary: bool,
    /// Inside the `FAILURES` or `ERRORS` report.
    in_report: bool,
    /// A failure of the report is being read, and whether its location was seen.
    open: bool,
    located: bool,
    /// The failure's first frame, when it is in the tests' own code (`tests/conftest.py:27`):
    /// where the test reached what raised, if that was elsewhere.
    test_frame: Option<String>,
    /// The last frame above the `E` lines (`--tb=short`: `src/a.py:326: in acquire`), where
    /// it raised when no location line follows.
    raised: Option<String>,
    /// Failures and errors in report order, named by their section (or, with `--tb=line`,
    /// by the summary).
    failures: Failures,
    /// `--tb=line`'s failures (it has no sections) by their place in the report (0 the
    /// first), for those that may still be kept: the summary names them in the same order.
    blocks: Vec<(usize, u64)>,
    /// How many of them were reported, and how many named (those between are unnamed yet).
    blocks_reported: usize,
    blocks_named: usize,
    /// Sections of the report (`____ test_x ____`), each a failure or error.
    sections: u64,
    failing: Names,
    errors: Names,
    interrupted: Option<String>,
    /// pytest-xdist's `2 workers [5344 items]`.
    workers: Option<String>,
    /// The report's `The above exception was the direct cause of the following exception:`:
    /// the next `E` line says what was raised in the end.
    chained: bool,
    /// What was raised in the end was said: where (`h11/_connection.py:257: AttributeError`,
    /// the chain's last place) is next.
    chain_place: bool,
    /// The report's `Differing items:` (two dicts compared): the next `E` line is the items
    /// that differ, `{…} != {…}`.
    differing: bool,
    /// The report's `Extra items in the left set:` (two sets compared, their reprs elided):
    /// the next `E` line is the first item one has and the other lacks.
    extra: Option<String>,
    /// A Python traceback in the report (`--tb=native`, a doctest's unexpected exception).
    trace: Traceback,
    /// The traceback's frame of the test itself (`File "tests/test_a.py", line 42, in
    /// test_x`), else its first frame in a test file: as printed, and whether it is the test's.
    test_call: Option<(String, bool)>,
    /// That frame, when the test's exception was raised in another function, until the end of
    /// its section.
    reached_from: Option<String>,
    /// The doctest whose failure is being read (`____ [doctest] mod.func ____`).
    doctest: Option<Doctest>,
    /// The `- ` line of a shortened string comparison, until its `+ ` line.
    expected: Option<String>,
    /// Hypothesis's example that failed (`Failing test case: test_x(`, its arguments, `)`).
    example: Option<String>,
    /// Hypothesis's state machine that failed (`Failing test case: <state machine>`, then its
    /// steps, `state.popitem(last=False)`): the last step read before its teardown.
    machine_step: Option<String>,
    /// The source line the report marks with `>` (the statement that failed), until the
    /// failure's first `E` line.
    source: Option<String>,
    /// A worker's fatal error during the run (`Fatal Python error: Segmentation fault`, then
    /// faulthandler's stacks): what it said, and the innermost frame of the project's own code
    /// in the crashing thread's stack, once read.
    fatal: Option<Fatal>,
    /// xdist's workers that went down (`[gw0] node down: Not properly terminated`).
    workers_down: u64,
    /// Fatal errors by the worker they killed (`replacing crashed worker gw0`), for the
    /// report's `worker 'gw0' crashed while running …`.
    crashed: Vec<(String, Fatal)>,
    /// Inside the `warnings summary`: its warnings by category, and the first as printed.
    in_warnings: bool,
    warnings: Tally,
    first_warning: Option<String>,
}

/// A failing doctest's report: the example that failed, then what was expected and what came.
#[derive(Debug, Default)]
struct Doctest {
    example: Option<String>,
    /// Inside `Expected:` (1) or `Got:` (2).
    part: u8,
    expected: String,
    got: String,
}

/// A fatal error of the interpreter, as faulthandler reports it.
#[derive(Debug, Default)]
struct Fatal {
    /// `Fatal Python error: Segmentation fault`.
    said: String,
    /// Past `Current thread 0x… (most recent call first):`, before its frame is found.
    in_current: bool,
    /// `File "/src/tests/test_a.py", line 667 in test_x`.
    frame: Option<String>,
}

impl Fatal {
    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.said.capacity() + self.frame.as_ref().map_or(0, String::capacity)
    }
}

/// Workers' fatal errors remembered.
const CRASHES_KEPT: usize = 64;

/// How much of the statement that failed is shown.
const SOURCE_CHARS: usize = 160;
/// `--tb=line` failures remembered by their place before those no longer kept are forgotten.
const BLOCKS_KEPT: usize = 256;
/// How much of a string compared is shown, around where it differs.
const COMPARED_CHARS: usize = 70;
/// How long a doctest's expected or actual output may be, joined on one line.
const DOCTEST_CHARS: usize = 160;

const WORDS: [&[&str]; 9] = [
    &["passed"],
    &["failed"],
    &["skipped"],
    &["xfailed"],
    &["xpassed"],
    &["error", "errors"],
    &["deselected"],
    &["warning", "warnings"],
    // pytest-rerunfailures: the tries again, past the first, of tests that failed.
    &["rerun"],
];

/// How much of each side of pytest's `Differing items:` is shown, around where they differ.
const DIFFERING_CHARS: usize = 120;
/// How much of an assertion's line is kept when the items that differ are shown.
const ASSERTION_KEPT: usize = 90;

impl Shape for Pytest {
    fn line(&mut self, number: u64, text: &str) {
        if self.in_report
            && (text == "The above exception was the direct cause of the following exception:"
                || text == "During handling of the above exception, another exception occurred:")
        {
            self.chained = true;
            return;
        }
        if self.chain_place && self.in_report && self.raised_in_the_end(text) {
            return;
        }
        if self.workers.is_none() && text.ends_with(" items]") && is_workers(text) {
            self.workers = Some(text.to_owned());
            return;
        }
        if !self.in_report {
            // Only xdist's workers crash and are replaced (pytest itself dies with no report).
            if self.workers.is_some() {
                self.crash_line(text);
            }
        } else if self.open
            && let Some(rest) = text.strip_prefix("worker '")
            && let Some((worker, test)) = rest.split_once("' crashed while running '")
        {
            self.worker_crashed(worker, test.trim_end().trim_end_matches('\''), text);
            return;
        }
        if self.in_report && self.open && self.report_line(number, text) {
            return;
        }
        match text.as_bytes().first() {
            Some(b'=' | b'0'..=b'9' | b'n') => {
                if let Some(title) = banner(text, '=') {
                    self.end_section();
                    self.end_doctest();
                    self.doctest = None;
                    self.in_report = title == "FAILURES" || title == "ERRORS";
                    self.in_warnings = title == "warnings summary";
                    self.open = false;
                    if title == "short test summary info" {
                        self.in_short_summary = true;
                        return;
                    }
                }
                if let Some((counts, subtests)) = parse_final_line(text) {
                    self.sessions += 1;
                    for (total, n) in self.counts.iter_mut().zip(counts) {
                        *total = total.saturating_add(n);
                    }
                    for (total, n) in self.subtests.iter_mut().zip(subtests) {
                        *total = total.saturating_add(n);
                    }
                    self.in_short_summary = false;
                } else if self.in_report && !self.located && banner(text, '=').is_none() {
                    // Where it failed, in a package whose name starts so (`networkx/…`,
                    // `2fa/…`).
                    self.location(text);
                }
            }
            Some(b'_') if self.in_report => {
                if let Some(title) = banner(text, '_') {
                    self.end_section();
                    self.end_doctest();
                    self.sections += 1;
                    self.failures.push(number, title);
                    self.open = true;
                    self.located = false;
                    self.differing = false;
                    self.test_frame = None;
                    self.raised = None;
                    self.trace = Traceback::default();
                    self.test_call = None;
                    self.reached_from = None;
                    self.example = None;
                    self.machine_step = None;
                    self.expected = None;
                    self.source = None;
                    self.doctest = title.starts_with("[doctest] ").then(Doctest::default);
                } else if !self.located {
                    // Where it failed, in a package whose name starts so (`_pytest/…`).
                    self.location(text);
                }
            }
            Some(b'>') if self.in_report && self.open && !self.located => {
                let statement = text[1..].trim();
                if !statement.is_empty() {
                    self.source = Some(cut(statement, SOURCE_CHARS));
                }
            }
            // `E   …` is the error's line; a path starting with E (`Eint/core.py:92:`) is not.
            Some(b'E') if self.in_report && text.starts_with("E ") => {
                self.detail(number, &text[1..]);
            }
            Some(b'F' | b'E' | b'S') if self.in_short_summary => {
                if let Some(rest) = text.strip_prefix("FAILED ") {
                    let id = node_id(rest);
                    self.failing.push(id);
                    self.name(number, id, message(rest));
                } else if let Some((params, rest)) = subtest_failed(text) {
                    let id = node_id(rest);
                    self.failing.push(format!("{id} {params}").trim_end());
                    self.name(number, id, message(rest));
                } else if let Some(rest) = text.strip_prefix("ERROR ") {
                    let id = node_id(rest);
                    self.errors.push(id);
                    self.name(number, id, message(rest));
                }
            }
            Some(b'[') if self.in_report && text.starts_with("[XPASS(strict)]") => {
                // An xfail test that passed under `xfail_strict`: its report has no traceback,
                // only this line (and the short summary cuts it: `[XPASS(stri...`).
                self.detail(number, text.trim_end());
            }
            Some(b'!') => {
                if let Some((_, rest)) = text.split_once("Interrupted: ") {
                    self.interrupted = Some(rest.trim_end_matches(['!', ' ']).to_owned());
                }
            }
            // `--- Captured stdout call ---`: the failure's detail is over. With `--tb=line`
            // (its failure not named yet) the block still ends with where it failed
            // (`test/common.py:9: AssertionError`), and the next `E` line starts the next
            // failure.
            Some(b'-')
                if self.in_report
                    && text.starts_with("--")
                    && text.ends_with('-')
                    && !self.failures.current().is_some_and(|f| f.name.is_empty()) =>
            {
                self.located = true;
            }
            Some(b' ') if self.in_warnings => {
                if let Some((category, message)) = warning(text) {
                    self.warnings.add(category);
                    self.first_warning.get_or_insert_with(|| {
                        format!("{category}: {}", cut(message, WARNING_CHARS))
                    });
                }
            }
            Some(_) if self.in_report && !self.located => self.location(text),
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_doctest();
        if self.sessions == 0 {
            return None;
        }
        let [
            passed,
            failed,
            skipped,
            xfailed,
            xpassed,
            errors,
            deselected,
            _,
            rerun,
        ] = self.counts;
        let run = passed + failed + xfailed + xpassed;
        let mut line = format!(
            "tests: {} run, {} passed, {} failed",
            thousands(run),
            thousands(passed),
            thousands(failed)
        );
        for (n, word) in [
            (errors, if errors == 1 { "error" } else { "errors" }),
            (skipped, "skipped"),
            (xfailed, "xfailed"),
            (xpassed, "xpassed"),
            (deselected, "deselected"),
            (rerun, "rerun"),
        ] {
            if n > 0 {
                line.push_str(&format!(", {} {word}", thousands(n)));
            }
        }
        let subtests: Vec<String> = ["passed", "failed", "skipped", "xfailed", "xpassed"]
            .iter()
            .zip(self.subtests)
            .filter(|&(_, n)| n > 0)
            .map(|(word, n)| format!("{} {word}", thousands(n)))
            .collect();
        if !subtests.is_empty() {
            line.push_str(&format!("; subtests: {}", subtests.join(", ")));
        }
        // xdist's `2 workers [5344 items]`, as it wrote it.
        let mut workers = self
            .workers
            .as_ref()
            .map_or(String::new(), |w| format!(", {w}"));
        if self.workers_down > 0 {
            workers.push_str(&format!(", {} down", thousands(self.workers_down)));
        }
        match &self.interrupted {
            Some(why) => line.push_str(&format!(" (pytest{workers}, interrupted: {why})")),
            None => line.push_str(&format!(" (pytest{workers})")),
        }
        // The failures listed below name them; only what they miss is named here.
        let detailed = self.failures.total;
        if failed > 0 && !self.failing.kept.is_empty() && detailed == 0 {
            line.push_str(&format!(": {}", self.failing.render(failed)));
        }
        if errors > 0 && !self.errors.kept.is_empty() && detailed == 0 {
            line.push_str(&format!("; errors: {}", self.errors.render(errors)));
        }
        let first_error = self
            .failures
            .iter()
            .find(|f| f.name.starts_with("ERROR "))
            .and_then(|f| f.detail.first())
            .map(|d| without_pytest_mark(d).to_owned())
            .filter(|_| errors > 0);
        let json = json!({
            "shape": "pytest",
            "run": run,
            "passed": passed,
            "failed": failed,
            "errors": errors,
            "skipped": skipped,
            "xfailed": xfailed,
            "xpassed": xpassed,
            "deselected": deselected,
            "rerun": rerun,
            "subtests": {
                "passed": self.subtests[0],
                "failed": self.subtests[1],
                "skipped": self.subtests[2],
            },
            "interrupted": self.interrupted,
            "workers_down": self.workers_down,
            "failing": self.failing.json(),
            "error_names": self.errors.json(),
            "first_error": first_error,
            "warnings": self.counts[7],
            "warning_kinds": self.warnings.json(),
        });
        let failing = failed + errors > 0 || !self.failures.is_empty();
        let mut lines = vec![line];
        // The warnings summary: pytest's total, its distinct warnings by category, the first.
        if let (Some(kinds), Some(first)) = (self.warnings.render(), &self.first_warning) {
            let total = self.counts[7];
            let distinct: u64 = self.warnings.iter().map(|(_, n)| n).sum();
            let mut said = match total {
                0 => format!("warnings: {} distinct ({kinds})", thousands(distinct)),
                _ if total == distinct => format!("warnings: {} ({kinds})", thousands(total)),
                _ => format!(
                    "warnings: {} ({} distinct: {kinds})",
                    thousands(total),
                    thousands(distinct)
                ),
            };
            said.push_str(&format!("; first: {first}"));
            lines.push(said);
        }
        self.name_files();
        let failures = self.failures.take_as("failed tests and errors");
        Some(
            Fact::new("pytest", lines, json)
                .failures(failures)
                .hint_if_failed(
                    failing,
                    "'^E |^_{3,} |^[A-Za-z_.]+(Error|Exception): ' -A 2",
                ),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.failing.approx_heap()
            + self.errors.approx_heap()
            + self.warnings.approx_heap()
            + self.first_warning.as_ref().map_or(0, String::capacity)
            + self.interrupted.as_ref().map_or(0, String::capacity)
            + self.workers.as_ref().map_or(0, String::capacity)
            + self.fatal.as_ref().map_or(0, Fatal::approx_heap)
            + self
                .crashed
                .iter()
                .map(|(w, f)| w.capacity() + f.approx_heap())
                .sum::<usize>()
            + self.example.as_ref().map_or(0, String::capacity)
            + self.machine_step.as_ref().map_or(0, String::capacity)
            + self.extra.as_ref().map_or(0, String::capacity)
            + self.test_frame.as_ref().map_or(0, String::capacity)
            + self
                .test_call
                .as_ref()
                .map_or(0, |(call, _)| call.capacity())
            + self.reached_from.as_ref().map_or(0, String::capacity)
            + self.raised.as_ref().map_or(0, String::capacity)
            + self.doctest.as_ref().map_or(0, |d| {
                d.expected.capacity()
                    + d.got.capacity()
                    + d.example.as_ref().map_or(0, String::capacity)
            })
    }
}

impl Pytest {
    /// A line of a failure's section that a traceback or a doctest's report takes; whether it
    /// took it.
    fn report_line(&mut self, number: u64, text: &str) -> bool {
        if self.doctest.is_some() && self.doctest_line(text) {
            return true;
        }
        // Hypothesis's example, on one line: `Failing test case: test_x( a=1, b=2, )`.
        let t = text
            .strip_prefix('E')
            .filter(|t| t.starts_with(' '))
            .unwrap_or(text)
            .trim();
        if let Some(example) = &mut self.example {
            if example.len() < DOCTEST_CHARS {
                example.push(' ');
                example.push_str(t);
            }
            if t == ")" || t.is_empty() {
                let example = self.example.take().unwrap_or_default();
                if let Some(failure) = self.failures.current() {
                    failure.add_detail(&example);
                }
            }
            return true;
        }
        if let Some(step) = &mut self.machine_step {
            // Its steps, and the state it printed between them (`> self.bi=…`).
            if t.starts_with("state") || t.starts_with("> ") {
                if t.starts_with("state.") && t != "state.teardown()" {
                    step.clear();
                    step.push_str(&cut(t, DOCTEST_CHARS));
                }
                return true;
            }
            let step = self.machine_step.take().unwrap_or_default();
            if let Some(failure) = self.failures.current()
                && !step.is_empty()
            {
                failure.add_essential_detail(&format!("failing case's last step: {step}"));
            }
        }
        if t == "Failing test case: <state machine>" || t == "Falsifying example:" {
            self.machine_step = Some(String::new());
            return true;
        }
        if (t.starts_with("Failing test case: ") || t.starts_with("Falsifying example: "))
            && t.ends_with('(')
            && self.failures.current().is_some_and(|f| f.has_detail())
        {
            self.example = Some(t.to_owned());
            return true;
        }
        let reading = self.trace.is_open();
        let raised = self.trace.line(text);
        if !reading && !self.trace.is_open() {
            return false;
        }
        if self.trace.is_open() && self.failures.current().is_some_and(|f| !f.has_detail()) {
            self.test_call(text);
        }
        // The first exception is the detail, with where it was raised; a doctest's says what
        // it was already, so only where; an exception group's is followed by its first
        // member's.
        let call = raised.is_some().then(|| self.test_call.take()).flatten();
        if let Some(raised) = raised
            && let Some(failure) = self.failures.current()
        {
            let doctest = failure
                .detail
                .iter()
                .any(|d| without_pytest_mark(d).starts_with("UNEXPECTED EXCEPTION: "));
            let group = failure.detail.len() == 1 && is_group(&failure.detail[0]);
            if failure.has_detail() && !doctest && !group {
                return true;
            }
            if !failure.has_detail() {
                failure.line = number;
            }
            if is_group(&raised.exception) {
                failure.add_detail(&raised.exception);
            } else if doctest {
                failure.add_detail(raised.frame.as_deref().unwrap_or(""));
            } else {
                for d in raised.detail() {
                    failure.add_detail(d);
                }
                // Where the test reached what raised, when that is another function: the
                // helper or the code under test it called (`line 684, in test_not_aligned`).
                // Said last, when the section is over and has room for it.
                self.reached_from = call.map(|(call, _)| call).filter(|call| {
                    raised
                        .frame
                        .as_deref()
                        .is_none_or(|f| !same_function(f, call))
                });
            }
        }
        true
    }

    /// A line of the run before its report: a worker's fatal error and its stacks, and the
    /// worker it killed (`replacing crashed worker gw0`, `[gw0] node down: …`).
    fn crash_line(&mut self, text: &str) {
        const FATAL: &str = "Fatal Python error: ";
        if let Some(at) = memchr::memmem::find(text.as_bytes(), FATAL.as_bytes()) {
            // After the run's progress marks on the same line (`....Fatal Python error: …`).
            self.fatal = Some(Fatal {
                said: cut(text[at..].trim_end(), 200),
                ..Fatal::default()
            });
            return;
        }
        // `[gw0] node down: Not properly terminated`, after the run's progress marks.
        let down = memchr::memmem::find(text.as_bytes(), b"] node down: ")
            .and_then(|at| text[..at].rsplit_once('['))
            .map(|(_, worker)| worker);
        self.workers_down += u64::from(down.is_some());
        let Some(fatal) = &mut self.fatal else {
            return;
        };
        if text.starts_with("Current thread ") {
            fatal.in_current = true;
            return;
        }
        if fatal.in_current
            && fatal.frame.is_none()
            && let Some(path) = text.trim_start().strip_prefix("File \"")
        {
            if super::pytrace::is_own(path.split('"').next().unwrap_or("")) {
                fatal.frame = Some(cut(text.trim(), 300));
            }
            return;
        }
        let worker = down.or_else(|| {
            text.strip_prefix("replacing crashed worker ")
                .map(str::trim_end)
        });
        if let Some(worker) = worker
            && self.crashed.len() < CRASHES_KEPT
            && let Some(fatal) = self.fatal.take()
        {
            self.crashed.push((worker.to_owned(), fatal));
        }
    }

    /// The report's section of a worker that crashed (titled by its file alone): named by the
    /// test it was running, its detail the line as printed and the fatal error that killed
    /// the worker, with where.
    fn worker_crashed(&mut self, worker: &str, test: &str, said: &str) {
        let fatal = self
            .crashed
            .iter()
            .position(|(w, _)| w == worker)
            .map(|i| self.crashed.remove(i).1);
        let Some(failure) = self.failures.current() else {
            return;
        };
        if failure.has_detail() {
            return;
        }
        failure.name = test.rsplit("::").next().unwrap_or(test).to_owned();
        failure.add_detail(said.trim_end());
        if let Some(fatal) = fatal {
            failure.add_detail(&fatal.said);
            if let Some(frame) = fatal.frame {
                failure.add_detail(&frame);
            }
        }
        self.located = true;
    }

    /// A frame of a native traceback: kept when it is the test's own (a function named
    /// `test…` in a test file), else when it is the first in a test file (a test of a class
    /// reached through a decorator in `tests/compat.py`).
    fn test_call(&mut self, text: &str) {
        let frame = text.trim();
        if !frame_place(frame).is_some_and(|place| is_test_file(&place)) {
            return;
        }
        let test = frame
            .rsplit_once(", in ")
            .is_some_and(|(_, function)| function.starts_with("test"));
        if self
            .test_call
            .as_ref()
            .is_none_or(|(_, kept)| test && !kept)
        {
            self.test_call = Some((cut(frame, SOURCE_CHARS), test));
        }
    }

    /// A line of a failing doctest's report; whether it was the doctest's own.
    fn doctest_line(&mut self, text: &str) -> bool {
        let Some(d) = &mut self.doctest else {
            return false;
        };
        let t = text.trim();
        if d.part > 0 && text.starts_with(' ') {
            let into = if d.part == 1 {
                &mut d.expected
            } else {
                &mut d.got
            };
            if into.len() < DOCTEST_CHARS {
                if !into.is_empty() {
                    into.push(' ');
                }
                into.push_str(t);
            }
            return true;
        }
        match t {
            "Expected:" | "Expected nothing" => {
                d.part = 1;
                if t == "Expected nothing" {
                    d.expected = "nothing".into();
                }
                return true;
            }
            "Got:" | "Got nothing" => {
                d.part = 2;
                if t == "Got nothing" {
                    d.got = "nothing".into();
                }
                return true;
            }
            _ => {}
        }
        if d.part > 0 {
            self.end_doctest();
            return false;
        }
        if let Some(at) = t.find(">>> ") {
            d.example = Some(crate::format::cut(&t[at..], DOCTEST_CHARS));
            return true;
        }
        if t.starts_with("UNEXPECTED EXCEPTION: ") {
            let example = d.example.take();
            if let Some(failure) = self.failures.current() {
                failure.add_detail(example.as_deref().unwrap_or(""));
                failure.add_detail(t);
            }
            return true;
        }
        false
    }

    /// The doctest's report is over: the example, what it expected and what it got.
    fn end_doctest(&mut self) {
        let Some(d) = &mut self.doctest else {
            return;
        };
        if d.part == 0 {
            return;
        }
        let example = d.example.take();
        let compared = format!(
            "Expected: {} Got: {}",
            std::mem::take(&mut d.expected),
            std::mem::take(&mut d.got)
        );
        d.part = 0;
        if let Some(failure) = self.failures.current() {
            failure.add_detail(example.as_deref().unwrap_or(""));
            failure.add_detail(&compared);
        }
    }

    /// A report's section is over: a failure that was not located (a module that failed to
    /// import ends with its `E` line) is placed at its frame in the tests' code
    /// (`tests/test_parser.py:17: in <module>`).
    fn end_section(&mut self) {
        if let Some(from) = self.reached_from.take()
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(&from);
        }
        if !self.open || self.located {
            return;
        }
        let raised = self.raised.take();
        if let Some(frame) = self.test_frame.take()
            && let Some(failure) = self.failures.current()
            && failure.has_detail()
        {
            // Raised in the code under test (`--tb=short`'s last frame), reached from the
            // test's own line.
            match raised.filter(|r| !is_test_file(r)) {
                Some(raised) => failure.add_detail(&format!("at {raised}, from {frame}")),
                None => failure.add_detail(&format!("at {frame}")),
            };
            self.located = true;
        }
    }

    /// An `E   …` line of the report: the first ones are the failure's detail.
    fn detail(&mut self, number: u64, detail: &str) {
        if !self.open {
            // `--tb=line`: no section before its `E` lines; the summary names it.
            self.failures.push(number, "");
            self.blocks.push((self.blocks_reported, number));
            self.blocks_reported += 1;
            if self.blocks.len() > BLOCKS_KEPT {
                let kept: Vec<u64> = self.failures.iter().map(|f| f.line).collect();
                self.blocks.retain(|(_, line)| kept.contains(line));
            }
            self.open = true;
            self.located = false;
            self.test_frame = None;
        }
        let Some(failure) = self.failures.current() else {
            return;
        };
        let d = detail.trim();
        let useful = !d.is_empty() && !d.starts_with(['+', '-', '?']) && !d.starts_with("where ");
        // The exception raised from the one located (`The above exception was the direct
        // cause of …`) is what the test saw, however far down the chain.
        if useful && std::mem::take(&mut self.chained) && failure.has_detail() {
            failure.add_essential_detail(d);
            self.chain_place = true;
            return;
        }
        if self.located {
            return;
        }
        // Two dicts compared: the items that differ say how, each side shown where they differ
        // when long (the dicts themselves are cut in their middle).
        if d == "Differing items:" {
            self.differing = true;
            return;
        }
        if let Some(heading) = self.extra.take()
            && useful
        {
            failure.add_detail(&format!("{heading} {d}"));
            return;
        }
        // Two sets compared, their reprs elided (`assert dict_keys(['l..., 'exc_info']) ==
        // {'asctime', '...o', 'message'}`): the items one has that the other lacks say how.
        if d.starts_with("Extra items in the ")
            && d.ends_with(" set:")
            && failure.detail.len() == 1
            && failure.detail[0].contains("...")
        {
            self.extra = Some(d.to_owned());
            return;
        }
        if std::mem::take(&mut self.differing)
            && let Some((a, b)) = d.split_once(" != ")
        {
            // The assertion's line, both dicts cut in their middle, says less: its start is
            // enough to find it.
            if let Some(first) = failure.detail.first_mut()
                && first.chars().count() > ASSERTION_KEPT
            {
                *first = cut(first, ASSERTION_KEPT);
            }
            let (a, b) = where_they_differ(a, b, DIFFERING_CHARS);
            failure.add_detail(&format!("differing items: {a} != {b}"));
            return;
        }
        // Two strings compared that pytest shortened (`assert 'Ambiguous op...for
        // guidance.' == …`): the difference is in its `- ` and `+ ` lines, around it.
        if failure.detail.len() == 1
            && let Some(first) = failure.detail.first()
            && first.contains("...")
            && (first.contains("' == '") || first.contains("\" == \""))
        {
            if let Some(expected) = d.strip_prefix("- ") {
                self.expected = Some(cut(expected, 4 * 1024));
                return;
            }
            if let Some(actual) = d.strip_prefix("+ ")
                && let Some(expected) = self.expected.take()
            {
                let (expected, actual) = where_they_differ(
                    &format!("- {expected}"),
                    &format!("+ {actual}"),
                    COMPARED_CHARS,
                );
                failure.add_detail(&expected);
                failure.add_detail(&actual);
                return;
            }
            // Strings over several lines: the lines alike (`  sql = …`) come first, and
            // pytest's `?` marks under a line; neither says how they differ.
            return;
        }
        // Two values that print alike (`assert <ValidatedEmail a@b> != <ValidatedEmail a@b>`):
        // what differs is in the lines of the explanation that say `!=` (a project's own
        // `pytest_assertrepr_compare`: `smtputf8 False    != True`), the first two, as
        // they read.
        if useful
            && failure.detail.len() < 3
            && d.contains(" != ")
            && failure.detail.first().is_some_and(|f| printed_alike(f))
        {
            failure.add_detail(&d.split_whitespace().collect::<Vec<_>>().join(" "));
            return;
        }
        // After an assertion whose values say little (`assert False`, `assert 2 == 1`) or
        // were elided (`assert deque([TClass...])`), pytest's explanation says what differed.
        let explains = explains(d);
        // Two sequences of different lengths: how many more one has, and the first of them,
        // say what the lists themselves (cut in their middle when long) do not.
        // (Not a dict's `Left contains 3 more items:`, whose items follow one to a line.)
        let longer = (d.starts_with("Left contains ") || d.starts_with("Right contains "))
            && !d.ends_with(':');
        let wanted = match failure.detail.first() {
            None => useful,
            Some(first) => {
                let short = first.chars().count() < 80;
                // A short line under an exception's (not an assertion's) is its second line
                // or a note added to it (hypothesis's `while generating 'url' from …`).
                let raised = first.trim_start_matches('E').trim_start();
                let noted = !raised.starts_with("assert")
                    && !raised.starts_with("AssertionError")
                    && !d.ends_with(':')
                    && d.chars().count() < 80;
                failure.detail.len() == 1
                    && !is_chatter(d)
                    && ((useful && (short || noted))
                        || (explains && (short || first.contains("...")))
                        || longer)
            }
        };
        if wanted {
            if longer
                && let Some(first) = failure.detail.first_mut()
                && first.chars().count() > ASSERTION_KEPT
            {
                // Its start is enough to find the assertion by.
                *first = cut(first, ASSERTION_KEPT);
            }
            if !failure.has_detail() {
                failure.line = number;
                // The first line as pytest printed it, `E       assert 1 == 2` (an `E`
                // line's, its mark before it): what a search of the output for it finds.
                if detail.starts_with(' ') {
                    failure.add_detail(&format!("E{}", detail.trim_end()));
                    return;
                }
            }
            failure.add_detail(d);
        }
    }

    /// `tests/a.py:12: AssertionError` (long and short tracebacks end with it; `--tb=line`
    /// prints `path:12: message`): where the failure happened.
    fn location(&mut self, text: &str) {
        let Some((path, rest)) = text.split_once(':') else {
            return;
        };
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if path.contains(' ') || !path.ends_with(".py") || digits == 0 {
            return;
        }
        let after = &rest[digits..];
        let frame = after.trim_end() == ":" || after.starts_with(": in ");
        let Some(failure) = self.failures.current() else {
            return;
        };
        if !failure.has_detail() || frame {
            // A frame above where it raised: the first one, if in the tests' code.
            if self.test_frame.is_none() && is_test_file(path) {
                self.test_frame = Some(format!("{path}:{}", &rest[..digits]));
            }
            if !failure.has_detail() && after.starts_with(": in ") {
                self.raised = Some(format!("{}:{}", shown(path), &rest[..digits]));
            }
            if frame || !failure.has_detail() {
                return;
            }
        }
        // `path:42` alone ends a setup error's report: where the fixture is.
        if !after.starts_with(": ") && !after.trim_end().is_empty() {
            return;
        }
        let from = self.test_frame.take().filter(|_| !is_test_file(path));
        let path = shown(path);
        // An assertion of values alone (`assert (1 == 2)`, explained at most by where one
        // came from: `+  where 1 = int('1')`) is read with the statement that computed them.
        if let Some(source) = self.source.take()
            && failure.detail.len() <= 2
            && says_little(&failure.detail[0])
        {
            failure.add_detail(&format!("> {source}"));
        }
        // As pytest prints it, `tests/a.py:12: AssertionError`, when it names the exception
        // (`--tb=line` names the message there, which is the detail already).
        let kind = after
            .strip_prefix(": ")
            .map(str::trim_end)
            .filter(|k| !k.is_empty() && !k.contains(' '));
        let mut at = match kind {
            Some(kind) => format!("{path}:{}: {kind}", &rest[..digits]),
            None => format!("at {path}:{}", &rest[..digits]),
        };
        if let Some(from) = from {
            // Raised in the code under test, reached from the test's own line.
            at.push_str(&format!(", from {from}"));
        }
        failure.add_detail(&at);
        self.located = true;
        if failure.name.is_empty() {
            // `--tb=line`: the next `E` line starts the next failure.
            self.open = false;
        }
    }

    /// `h11/_connection.py:257: AttributeError` after a chain's last exception: said with it.
    /// A section's title or the summary ends the wait.
    fn raised_in_the_end(&mut self, text: &str) -> bool {
        if text.starts_with("___") || text.starts_with("===") {
            self.chain_place = false;
            return false;
        }
        let Some((place, kind)) = text.rsplit_once(": ") else {
            return false;
        };
        let Some((path, line)) = place.split_once(':') else {
            return false;
        };
        let placed = path.ends_with(".py")
            && !path.contains(' ')
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
            && !kind.is_empty()
            && !kind.contains(' ');
        if !placed {
            return false;
        }
        self.chain_place = false;
        if let Some(failure) = self.failures.current()
            && let Some(last) = failure.detail.last_mut()
        {
            last.push_str(&format!(" · at {}:{line}", shown(path)));
        }
        true
    }

    /// Failures in several test files are named by the node id the summary said them by
    /// (`tests/test_api.py::test_x[a]`): bare names would not say where each is, and the id
    /// is what reruns one (`pytest ID`). A test in a class is named by it already
    /// (`TestMarker.test_evaluates[a]`).
    fn name_files(&mut self) {
        fn file(f: &Failure) -> Option<&str> {
            Some(f.said.as_deref()?.split_once("::")?.0)
        }
        let several = {
            let mut files = self.failures.iter().filter_map(file);
            let first = files.next();
            files.any(|f| Some(f) != first)
        };
        if !several {
            return;
        }
        for failure in self.failures.iter_mut() {
            let Some((path, rest)) = failure.said.as_deref().and_then(|s| s.split_once("::"))
            else {
                continue;
            };
            let function = rest.split('[').next().unwrap_or(rest);
            if function.contains("::") {
                continue;
            }
            failure.name = format!("{path}::{rest}");
        }
    }

    /// A failure or error named in the short summary, with the summary's message: names the
    /// next unnamed failure of the report, or adds the failure when the report had none.
    fn name(&mut self, number: u64, id: &str, message: &str) {
        let short = id.rsplit("::").next().unwrap_or(id);
        let dotted = id.split_once("::").map(|(_, t)| t.replace("::", "."));
        let known = self.failures.iter_mut().find(|f| {
            let base = f.name.split(" (").next().unwrap_or(&f.name);
            f.name == short
                || f.name.strip_prefix("[doctest] ") == Some(short)
                || dotted.as_deref() == Some(base)
                || f.name.strip_prefix("ERROR collecting ") == Some(id)
        });
        // Said by its node id, which names it whole and reruns it (`pytest ID`).
        if let Some(known) = known {
            // A section that said nothing (a strict xfail that passed: `[XPASS(strict)]`)
            // has the summary's message.
            if !known.has_detail() {
                known.add_detail(message);
            }
            if !known.name.starts_with("ERROR collecting ") {
                // A subtest keeps its parameters: `t.py::T::test_x (size=1)`.
                let params = known.name.find(" (").map_or("", |i| &known.name[i..]);
                known.say(&format!("{id}{params}"));
            }
            return;
        }
        if self.blocks_named < self.blocks_reported {
            // The summary's n-th failure is the report's n-th: named if it was kept.
            let n = self.blocks_named;
            self.blocks_named += 1;
            let line = self.blocks.iter().find(|(k, _)| *k == n).map(|b| b.1);
            if let Some(failure) = self
                .failures
                .iter_mut()
                .find(|f| Some(f.line) == line && f.name.is_empty())
            {
                failure.name = short.to_owned();
                failure.say(id);
            }
            return;
        }
        // A report with sections named each of its failures, kept or not: the summary adds
        // none (else the count would be off by those not kept).
        if self.sections > 0 {
            return;
        }
        self.failures.push(number, short);
        if let Some(f) = self.failures.current() {
            f.add_detail(message);
            f.say(id);
        }
    }
}

/// An assertion whose message is its values alone, numbers and the like (`AssertionError:
/// assert (1 == 2)`, `assert False`): what they were computed from is in the statement.
fn says_little(message: &str) -> bool {
    let Some(expression) = asserted(message) else {
        return false;
    };
    expression
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .all(|w| {
            w.is_empty()
                || w.bytes().all(|b| b.is_ascii_digit())
                || ["True", "False", "None", "and", "or", "not", "in", "is"].contains(&w)
        })
}

/// An assertion of two values printed alike: `E   AssertionError: assert <Point 1> != <Point
/// 1>` (their reprs leave out what differs).
fn printed_alike(message: &str) -> bool {
    asserted(message)
        .and_then(|e| e.split_once(" != ").or_else(|| e.split_once(" == ")))
        .is_some_and(|(a, b)| a == b)
}

/// The expression an assertion's message states: `E   AssertionError: assert (1 == 2)` →
/// `(1 == 2)`.
fn asserted(message: &str) -> Option<&str> {
    let message = without_pytest_mark(message);
    message
        .strip_prefix("AssertionError: ")
        .unwrap_or(message)
        .strip_prefix("assert ")
}

/// Two frames as Python prints them (`File "tests/t.py", line 9, in helper`) are of one
/// function: in the same file, by the same name.
fn same_function(a: &str, b: &str) -> bool {
    fn split(f: &str) -> Option<(&str, &str)> {
        let (file, rest) = f.split_once("\", line ")?;
        Some((file, rest.split_once(", in ")?.1))
    }
    split(a).is_some_and(|a| split(b) == Some(a))
}

/// pytest-xdist's `2 workers [5344 items]`.
fn is_workers(text: &str) -> bool {
    let Some((n, rest)) = text.split_once(" workers [") else {
        return false;
    };
    let items = rest.strip_suffix(" items]").unwrap_or("");
    !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && !items.is_empty()
        && items.bytes().all(|b| b.is_ascii_digit())
}

/// `ExceptionGroup: Hypothesis found 2 distinct failures. (2 sub-exceptions)`.
fn is_group(exception: &str) -> bool {
    let exception = without_pytest_mark(exception);
    exception.starts_with("ExceptionGroup: ") || exception.starts_with("BaseExceptionGroup: ")
}

/// A banner's title: `===== FAILURES =====` → `FAILURES` (rule `=`), `____ test_x[1-2] ____`
/// → `test_x[1-2]` (rule `_`; a title too long for the banner has one `_` each side). A line
/// that starts with the rule but is no banner (a test's own `====PARSER:  lxml`) has none: it
/// would end the report.
fn banner(text: &str, rule: char) -> Option<&str> {
    let inner = text.strip_prefix(rule)?.trim_start_matches(rule);
    let inner = inner.strip_suffix(rule)?.trim_end_matches(rule);
    let title = inner.strip_prefix(' ')?.strip_suffix(' ')?;
    (!title.is_empty()).then_some(title)
}

/// `SUBFAILED(size=1) tests/a.py::T::test_x - …` → `(size=1)` and the rest.
fn subtest_failed(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("SUBFAILED")?;
    if rest.starts_with('(') {
        let end = rest.find(") ")?;
        return Some((&rest[..=end], &rest[end + 2..]));
    }
    Some(("", rest.strip_prefix(' ')?))
}

/// How much of the first warning's message is quoted (where it was raised is left out: the
/// read-more hint finds it).
const WARNING_CHARS: usize = 120;

/// A warning of the warnings summary: `  /src/a/_mixin.py:116: DeprecationWarning: Please use
/// …` → (`DeprecationWarning`, `Please use …`). Its source line and notes are indented
/// further.
fn warning(text: &str) -> Option<(&str, &str)> {
    let t = text.strip_prefix("  ")?;
    if t.starts_with(' ') {
        return None;
    }
    let at = memchr::memmem::find(t.as_bytes(), b"Warning: ")? + "Warning".len();
    let (place, category) = t[..at].rsplit_once(": ")?;
    let named = category
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
    (named && !place.is_empty()).then(|| (category, t[at + 2..].trim_end()))
}

/// A traceback's path as said: an absolute one from the tests' directory on
/// (`tests/conftest.py`; a relative one is the reader's way to the file already,
/// `src/pkg/tests/test_a.py`), an installed package's from its `site-packages` (the
/// virtualenv's way to it, `.tox/py/lib/python3.11/`, is the same for every frame).
fn shown(path: &str) -> &str {
    let path = match path.rfind("/tests/") {
        Some(i) if path.starts_with('/') => &path[i + 1..],
        _ => path,
    };
    path.rfind("/site-packages/")
        .map_or(path, |i| &path[i + 1..])
}

/// `tests/a.py::test_x[1 - 2] - assert …` → `tests/a.py::test_x[1 - 2]`: the message follows the
/// first ` - ` outside brackets.
fn node_id(rest: &str) -> &str {
    match message_at(rest) {
        Some(i) => &rest[..i],
        None => rest,
    }
}

/// The message after the node id, empty when there is none.
/// The short summary's message of a failure (`FAILED t.py::x - AssertionError`), nothing when
/// pytest cut it to the terminal's width inside its first word (`- Assert...`).
fn message(rest: &str) -> &str {
    let message = message_at(rest).map_or("", |i| &rest[i + 3..]);
    if message.ends_with("...") && !message.contains(' ') {
        return "";
    }
    message
}

fn message_at(rest: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, b) in rest.bytes().enumerate() {
        match b {
            b'[' => depth += 1,
            b']' => depth -= 1,
            b' ' if depth <= 0 && rest[i..].starts_with(" - ") => return Some(i),
            _ => {}
        }
    }
    None
}

/// `==== 3 failed, 59 passed, 1 error in 0.10s ====`, `3 failed, 59 passed in 0.10s`,
/// `no tests ran in 0.01s`.
fn parse_final_line(text: &str) -> Option<([u64; 9], [u64; 9])> {
    let core = text.trim_matches('=').trim();
    // Most lines are not final lines: settle that from the front, before searching the line.
    let counts_first = core.starts_with("no tests ran")
        || core.split_once(' ').is_some_and(|(n, rest)| {
            n.bytes().all(|b| b.is_ascii_digit())
                && rest.starts_with(|c: char| c.is_ascii_lowercase())
        });
    if !counts_first {
        return None;
    }
    let (counts, time) = core.rsplit_once(" in ")?;
    let time = time.split(' ').next()?;
    let seconds = time.strip_suffix('s')?;
    if seconds.is_empty() || !seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let mut parsed = [0u64; 9];
    let mut subtests = [0u64; 9];
    if counts == "no tests ran" {
        return Some((parsed, subtests));
    }
    for part in counts.split(", ") {
        let (n, word) = part.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        let (into, word) = match word.strip_prefix("subtests ") {
            Some(word) => (&mut subtests, word),
            None => (&mut parsed, word),
        };
        let slot = WORDS.iter().position(|words| words.contains(&word))?;
        into[slot] = into[slot].saturating_add(n);
    }
    Some((parsed, subtests))
}

/// pytest's explanation of an assertion (its `E` lines): the first `+  where …` that names a
/// value, `At index 0 diff: a != b`, or a differing attribute (`a: () != (0,)`).
fn explains(line: &str) -> bool {
    line.starts_with("+  where ")
        || line.starts_with("+ where ")
        || (line.starts_with("At index ") && line.contains(" diff: "))
        || line.split_once(": ").is_some_and(|(name, rest)| {
            rest.contains(" != ") && !name.is_empty() && !name.contains(char::is_whitespace)
        })
}

/// pytest's headings and hints among an assertion's `E` lines (`Differing attributes:`,
/// `Omitting 29 identical items, use -vv to show`): they name no value.
fn is_chatter(line: &str) -> bool {
    const HEADINGS: [&str; 6] = [
        "Differing ",
        "Matching ",
        "Drill down ",
        "Full diff",
        "Common items",
        "Extra items",
    ];
    (line.ends_with(':') && HEADINGS.iter().any(|h| line.starts_with(h)))
        || line.starts_with("Omitting ")
        || line.starts_with("Use -v")
        || (line.starts_with("['") && line.ends_with("']"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_lines() {
        let plain = |counts| Some((counts, [0; 9]));
        assert_eq!(
            parse_final_line("=== 3 failed, 59 passed, 1 error in 0.10s ==="),
            plain([59, 3, 0, 0, 0, 1, 0, 0, 0])
        );
        assert_eq!(
            parse_final_line("3 failed, 59 passed in 0.10s"),
            plain([59, 3, 0, 0, 0, 0, 0, 0, 0])
        );
        assert_eq!(
            parse_final_line("== 2 passed, 3 warnings in 1.20s (0:00:01) =="),
            plain([2, 0, 0, 0, 0, 0, 0, 3, 0])
        );
        assert_eq!(
            parse_final_line(
                "== 7 failed, 762 passed, 21190 subtests passed in 97.39s (0:01:37) =="
            ),
            Some((
                [762, 7, 0, 0, 0, 0, 0, 0, 0],
                [21190, 0, 0, 0, 0, 0, 0, 0, 0]
            ))
        );
        assert_eq!(parse_final_line("no tests ran in 0.01s"), plain([0; 9]));
        // pytest-rerunfailures' tries again.
        assert_eq!(
            parse_final_line("=== 5 failed, 262 passed, 11 rerun in 10.90s ==="),
            plain([262, 5, 0, 0, 0, 0, 0, 0, 11])
        );
        assert_eq!(parse_final_line("3 apples in 2s"), None);
        assert_eq!(parse_final_line("3 subtests apples in 2s"), None);
        assert_eq!(parse_final_line("=== test session starts ==="), None);
    }

    #[test]
    fn subtest_failures_in_the_short_summary() {
        assert_eq!(
            subtest_failed("SUBFAILED(size=1) t.py::T::test_x - AssertionEr..."),
            Some(("(size=1)", "t.py::T::test_x - AssertionEr..."))
        );
        assert_eq!(
            subtest_failed("SUBFAILED t.py::T::test_x"),
            Some(("", "t.py::T::test_x"))
        );
        assert_eq!(subtest_failed("SUBPASSED(size=1) t.py::T::test_x"), None);
    }

    #[test]
    fn node_ids_keep_brackets() {
        assert_eq!(node_id("t.py::x[a - b] - assert 1"), "t.py::x[a - b]");
        assert_eq!(node_id("t.py::y"), "t.py::y");
        assert_eq!(message("t.py::x[a - b] - assert 1"), "assert 1");
        assert_eq!(banner("____ test_x[1-2] ____", '_'), Some("test_x[1-2]"));
        assert_eq!(
            banner("___ ERROR collecting tests/t.py ___", '_'),
            Some("ERROR collecting tests/t.py")
        );
        assert_eq!(banner("________", '_'), None);
        assert_eq!(
            banner(
                "_ T.test_cleared[HashCacheSerializationTestCached-True] _",
                '_'
            ),
            Some("T.test_cleared[HashCacheSerializationTestCached-True]")
        );
        assert_eq!(banner("===== FAILURES =====", '='), Some("FAILURES"));
        assert_eq!(banner("====PARSER:  lxml", '='), None);
        assert_eq!(banner("==============", '='), None);
    }
}
