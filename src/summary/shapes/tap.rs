//! Test Anything Protocol and the harnesses around it: TAP lines (`ok 3 - …`, `not ok 9`, with
//! Test::More's `#   Failed test …` diagnostics and their `got:`/`expected:` lines), `prove`'s
//! summary (`Test Summary Report`, `Files=40, Tests=1230, …`, `Result: FAIL`), automake's test
//! driver (`FAIL: tests/x`, `# TOTAL: 4`, `# FAIL:  3`), and test logs that report a failure
//! as `*** Expected …, but got …` with a closing `339 of 340 tests passed`. TAP 13's YAML
//! diagnostics under a `not ok` (node's test runner, tape, node-tap: `error:`, `expected:`,
//! `actual:`, the stack's first frame in the project's files or the test's `location:`) are
//! the failure's detail, and node's closing counts (`# tests 720`, `# pass 679`, `# fail 41`)
//! its totals; a `not ok` that only says its subtests failed is no failure of its own. The
//! failed tests are counted by the file their `location:` names, which node prints nowhere else.
//! bats and other plain producers write a failure's detail as comments under its `not ok`
//! (`# (in test file test/global.bats, line 8)`, `# expected: system`).
//! Check (`100%: Checks: 12, Failures: 0, Errors: 0`, a failure as
//! `check_money.c:17:F:Core:test_create:0: Assertion … failed`) and expat's minicheck
//! (`98%: Checks: 365, Failed: 7`, `FAIL: test_x (during actual test at runtests.c:1084)`) count
//! their checks in one closing line per run; their failures are named with where they failed.

use serde_json::json;

use super::change::Change;
use super::names::{Counts, Failure, Failures, Names};
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// automake's result words, in the order its summary lists them.
const AUTOMAKE: [&str; 6] = ["PASS", "SKIP", "XFAIL", "FAIL", "XPASS", "ERROR"];

#[derive(Debug, Default)]
pub(crate) struct Tap {
    ok: u64,
    not_ok: u64,
    /// The plan, `1..162`: how many tests were to run.
    plan: Option<u64>,
    /// node-tap's closing count of failed tests, as printed (`# failed 4 of 10 tests`).
    closing: Option<String>,
    /// `Files=40, Tests=1230` of prove.
    prove_totals: Option<(u64, u64)>,
    result: Option<String>,
    /// Failing test files of prove's summary report, with their failed tests.
    failed_files: Names,
    in_report: bool,
    /// The file of prove's report being read, as it is said so far, and whether it failed.
    report_file: Option<(String, bool)>,
    /// automake: counts per result word from its `# WORD: N` summary, and from its lines.
    automake_summary: [Option<u64>; 6],
    automake_total: Option<u64>,
    automake_failed: Names,
    /// The log its summary points to for the failures' output (`See test/test-suite.log`).
    automake_see: Option<String>,
    /// A result line (`FAIL: main`) waiting for the next: when that is a rule of `=` as long,
    /// it is the heading of the test's log in `test-suite.log`, printed after the results.
    automake_heading: Option<String>,
    /// How the test of the result line waiting died, as the test driver's shell said it just
    /// before (`test-driver: line 112:  1921 Aborted  "$@" …` → `Aborted`).
    heading_died: Option<String>,
    /// The shell's word for how the last line's job died.
    died: Option<String>,
    /// The log's verdicts on the failed tests (`FAIL main (exit status: 4)`).
    automake_exits: Names,
    /// Reading a failed test's log in automake's `test-suite.log` (under `FAIL: name` and its
    /// `====` line): its name and line, and its last lines so far.
    automake_log: Option<(u64, String)>,
    automake_log_last: Vec<String>,
    automake_log_lines: u64,
    /// The failed tests whose logs were printed, each with its log's last lines.
    automake_logged: Failures,
    /// `339 of 340 tests passed`
    passed_of: Option<(u64, u64)>,
    failures: Failures,
    /// Reading the diagnostics of the last failure.
    in_diagnostic: bool,
    /// Test::More's first failed subtest (indented under its parent, before the parent's own
    /// `#   Failed test`) since the last failure: its name and what it got and expected, the
    /// detail of a parent that says only where it is. Whether its diagnostics are being read.
    subtest: Option<(String, Vec<String>)>,
    in_subtest: bool,
    /// The first line of a message a test script died with, under a failure, until the line
    /// that says where (` at t/lib/x.pm line 352.`).
    death: Option<String>,
    /// Reading the indented lines under the last failure (mocha's TAP reporter: the message,
    /// the error and its stack): how far its `not ok` was indented (they are indented more; a
    /// subtest's next results, at its own depth, are none of its), and whether its frame in
    /// the project was read.
    indented: Option<(usize, bool)>,
    /// A `not ok` whose YAML diagnostics may follow.
    yaml: Option<Yaml>,
    /// node's closing counts: tests, pass, fail, cancelled, skipped, todo.
    node: [Option<u64>; 6],
    /// The test a `# name` comment began last (tape's, node-tap's `# Subtest: name`): it names
    /// an assertion that has only tape's default message (`should be deeply equivalent`).
    test: Option<String>,
    /// Check's and minicheck's closing lines, summed over runs.
    check: Option<CheckTotals>,
    /// minicheck's `ERROR: message` lines: on stderr, so merged with stdout they come before
    /// the `FAIL:` line they belong to, sometimes inside another line.
    check_messages: Failures,
    /// The files of the failed tests, from their YAML's `location:` (node's test runner).
    files: Counts,
    /// The top level's `not ok` tests (node-tap's test files), named when subtests failed
    /// under them: the list of failures is of the subtests.
    top_failed: Names,
    /// Whether a `not ok` was indented (a subtest's).
    nested: bool,
    /// How far the last `not ok` was indented (a shallower one after it is its parent).
    failed_depth: Option<usize>,
    /// A `not ok` with nothing under it, a failure once no `#   Failed test` line follows to
    /// name it: its line, name and line as printed.
    bare: Option<(u64, String, Option<String>)>,
    /// Test::More's `#   Failed test` lines were read: they name the failures.
    more: bool,
    /// The subtests begun (`# Subtest: name`, indented this much) and not ended by their
    /// result.
    open: Vec<(usize, String)>,
    /// The last line read inside the innermost of them.
    inside: Option<(u64, String)>,
}

/// Subtests begun and not ended that are remembered (deeper ones are not).
const OPEN_KEPT: usize = 64;

/// What Check's closing lines said: checks, failures, errors, and in how many runs.
#[derive(Debug, Default)]
struct CheckTotals {
    checks: u64,
    failures: u64,
    errors: u64,
    runs: u64,
}

/// A `not ok` and what its YAML block said so far.
#[derive(Debug, Default)]
struct Yaml {
    line: u64,
    name: String,
    /// How far the `not ok` line was indented.
    depth: usize,
    /// The `not ok` line as printed, when the name is its own (not under a subtest's).
    said: Option<String>,
    /// Inside its `---` … `...` block.
    open: bool,
    detail: Vec<String>,
    location: Option<String>,
    /// The file of `location:`, without its line and column.
    file: Option<String>,
    /// The first frame of its stack in the project's files.
    frame: Option<String>,
    /// The frame of the test's own function (tape's `Test.<anonymous>`, node's
    /// `TestContext.<anonymous>`), when the assertion
    /// was made in a helper it called.
    test_frame: Option<String>,
    /// Inside its `stack:`, indented this much.
    stack: Option<usize>,
    /// Inside a block value (`expected: |-`) of this key, indented this much.
    block: Option<(&'static str, usize)>,
    /// `failureType: 'subtestsFailed'`: its subtests failed, it did not.
    subtests: bool,
    /// Inside node-tap's `diff: |` (or folded, `diff: >`) block, indented this much.
    diff: Option<usize>,
    /// The diff's first change: the lines it removes (expected) and adds (actual).
    change: Change,
    /// Inside an `error: |-` block, indented this much, whose message introduced a diff
    /// (`Expected values to be strictly deep-equal:`, then `+ actual - expected` and the
    /// values): its first change, once its legend is read.
    message_diff: Option<(usize, Option<Change>)>,
}

/// The last lines of a failed test's log in `test-suite.log` kept, before its verdict, and
/// how long a log is read so (a longer one is its runner's report).
const AUTOMAKE_LOG_LAST: usize = 2;
const AUTOMAKE_LOG_SHORT: u64 = 8;

/// The last line of a failed test's log in automake's `test-suite.log`: `FAIL main (exit
/// status: 4)`.
fn is_log_verdict(text: &str) -> bool {
    ["FAIL ", "ERROR ", "XPASS "]
        .iter()
        .any(|w| text.starts_with(w))
        && text.ends_with(')')
        && text.contains(" (exit status: ")
}

/// node's closing counts, in `Tap::node`'s order.
const NODE_COUNTS: [&str; 6] = ["tests", "pass", "fail", "cancelled", "skipped", "todo"];

impl Shape for Tap {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(result) = self.automake_heading.take() {
            if text.len() == result.len() && text.bytes().all(|b| b == b'=') {
                // The heading of the test's log in `test-suite.log`.
                let name = result.split_once(": ").map_or(result.as_str(), |(_, n)| n);
                self.automake_log = Some((number, name.to_owned()));
                self.automake_log_last.clear();
                self.automake_log_lines = 0;
                return;
            }
            self.push_automake(&result);
        }
        let died = std::mem::replace(&mut self.died, job_died(text).map(str::to_owned));
        if self.bare.is_some() && !text.trim_start().starts_with('#') && !text.trim().is_empty() {
            self.push_bare();
        }
        self.subtests(number, text);
        if self.yaml.is_some() && self.yaml_line(text) {
            return;
        }
        if let Some((past, _)) = self.indented {
            if depth(text) > past && !is_tap(text.trim()) {
                self.indented_line(text.trim());
                return;
            }
            self.indented = None;
        }
        if let Some(rest) = text.trim_start().strip_prefix("not ok")
            && let Some(name) = not_ok_name(rest)
        {
            if text.starts_with("not ok") {
                self.top_failed.push_said(name, untimed(text.trim_end()));
            } else {
                self.nested = true;
            }
            let (name, said) = match (&self.test, self.ancestors(depth(text))) {
                // node's nested suites (`describe`) name a test by its path, which says which
                // of three `has flat distribution` failed; its line as printed follows the
                // path.
                (_, Some(path)) => (
                    format!("{path} > {name}"),
                    Some(format!("{path} > {}", text.trim())),
                ),
                // tape's messages name no test (`should be equal`, or one its assertions
                // share): its test is the comment above, and both lines are shown as printed.
                // Test::More's comments (`#   Failed test`) are its own; node's name the
                // test itself.
                (Some(test), None) if !self.more && name != test => (
                    format!("{test} > {name}"),
                    Some(format!("# {test}\n{}", text.trim())),
                ),
                (_, None) => (name.to_owned(), Some(text.trim().to_owned())),
            };
            self.yaml = Some(Yaml {
                line: number,
                name: crate::format::cut(&name, 200),
                said,
                depth: depth(text),
                ..Yaml::default()
            });
        }
        // The test script died under a failure (`Can't locate object method "x" via package
        // "Y"`, then ` at t/lib/TestBridge.pm line 352.`): what its failure says; the script's
        // own comments about it follow (`# Tests were run but no plan was declared…`).
        let plain = self.in_diagnostic && !text.is_empty() && !text.starts_with(['#', ' ', '\t']);
        let death = match self.death.take() {
            Some(start) if text.starts_with(" at ") && says_line(text) => {
                Some(format!("{start} {}", text.trim()))
            }
            _ if plain && says_line(text) => Some(text.trim().to_owned()),
            _ => {
                if plain {
                    self.death = Some(crate::format::cut(text.trim(), 200));
                }
                None
            }
        };
        if let Some(death) = death {
            if let Some(f) = self.failures.current() {
                f.add_essential_detail(&death);
            }
            self.in_diagnostic = true;
            return;
        }
        if text.starts_with([' ', '\t']) && self.yaml.is_none() && self.subtest_line(text.trim()) {
            return;
        }
        if self.in_diagnostic {
            if let Some(diag) = text.strip_prefix('#')
                && !diag.trim_start().starts_with("Failed test")
                && !diag.trim_start().starts_with("Looks like")
            {
                // bats' trace: the helpers' frames say nothing of this test; the test file's
                // line is where it failed.
                let diag = diag.trim().trim_start_matches('(');
                let place = diag.starts_with("in test file ");
                if (place || !diag.starts_with("from function "))
                    && let Some(f) = self.failures.current()
                {
                    // As printed, a comment (`# expected: 2`); the test file's place read
                    // out of bats' trace. What came (`# actual:`, Test::More's `#   got:`)
                    // is shown even after an expected value of many lines.
                    let in_value = f.detail.last().is_some_and(|d| {
                        d.starts_with("# expected:") || d.starts_with("# actual:")
                    });
                    if place {
                        f.add_detail(diag.trim_end_matches(')'));
                    } else if diag.starts_with("actual:") || diag.starts_with("got:") {
                        f.add_essential_detail(text.trim());
                    } else if in_value && !diag.contains(": ") {
                        // The next line of a value of many lines (`# expected: --help`,
                        // `# rake`): one value.
                        f.continue_detail(diag);
                    } else {
                        f.add_detail(text.trim());
                    }
                }
                return;
            }
            self.in_diagnostic = false;
        }
        if self.automake_total.is_some()
            && let Some(log) = text.strip_prefix("See ")
            && log.ends_with(".log")
            && !log.contains(' ')
        {
            self.automake_see = Some(crate::format::cut(text, 200));
            return;
        }
        if matches!(text.as_bytes().first(), Some(b'F' | b'E' | b'X')) && is_log_verdict(text) {
            match self.automake_log.take() {
                // A short log says how the test failed; a long one is a runner's report, read
                // as such.
                Some((line, name)) if self.automake_log_lines <= AUTOMAKE_LOG_SHORT => {
                    let mut detail = std::mem::take(&mut self.automake_log_last);
                    detail.push(text.trim().to_owned());
                    self.automake_logged.push(line, &name);
                    self.automake_logged.add_details(&detail);
                }
                _ => self.automake_exits.push_said(text, text),
            }
            return;
        }
        if self.automake_log.is_some() {
            let t = text.trim();
            if !t.is_empty() && !t.starts_with(".. contents::") {
                self.automake_log_lines += 1;
                if self.automake_log_last.len() == AUTOMAKE_LOG_LAST {
                    self.automake_log_last.remove(0);
                }
                self.automake_log_last.push(crate::format::cut(t, 300));
            }
        }
        match text.as_bytes().first() {
            Some(b'o') => {
                if text == "ok" {
                    return;
                }
                if let Some(rest) = text.strip_prefix("ok ")
                    && rest.starts_with(|c: char| c.is_ascii_digit())
                {
                    self.ok += 1;
                }
            }
            Some(b'n') => {
                if let Some(rest) = text.strip_prefix("not ok")
                    && (rest.is_empty() || rest.starts_with(' '))
                {
                    self.not_ok += 1;
                }
            }
            Some(b'#') => {
                let diag = text[1..].trim_start();
                if diag.starts_with("Failed test") {
                    // It names the `not ok` before it, if any, and those to come.
                    self.more = true;
                    self.bare = None;
                    let name = diag.trim_end_matches(['.', ' ']);
                    self.failures.push(number, name);
                    self.in_diagnostic = true;
                    self.in_subtest = false;
                    if let Some((subtest, detail)) = self.subtest.take()
                        && let Some(f) = self.failures.current()
                    {
                        f.add_detail(&subtest);
                        for d in &detail {
                            f.add_detail(d);
                        }
                    }
                } else if let Some((word, n)) = diag.split_once(':')
                    && let Some(i) = AUTOMAKE.iter().position(|w| *w == word)
                    && let Ok(n) = n.trim().parse()
                {
                    self.automake_summary[i] = Some(n);
                } else if let Some(n) = diag.strip_prefix("TOTAL:") {
                    self.automake_total = n.trim().parse().ok();
                } else if diag.starts_with("failed ")
                    && (diag.ends_with(" tests") || diag.ends_with(" test"))
                {
                    // node-tap's closing count, `# failed 4 of 10 tests`.
                    self.closing = Some(crate::format::cut(text, 120));
                } else if let Some((word, n)) = diag.split_once(' ')
                    && let Some(i) = NODE_COUNTS.iter().position(|w| *w == word)
                    && let Ok(n) = n.trim().parse()
                {
                    self.node[i] = Some(n);
                } else if !diag.is_empty() {
                    let test = diag.strip_prefix("Subtest: ").unwrap_or(diag);
                    self.test = Some(crate::format::cut(test, 120));
                }
            }
            Some(b'F') => {
                if let Some(rest) = text.strip_prefix("Files=") {
                    let files = rest.split(',').next().and_then(|n| n.parse().ok());
                    let tests = rest
                        .split_once("Tests=")
                        .and_then(|(_, t)| t.split(',').next())
                        .and_then(|n| n.parse().ok());
                    if let (Some(f), Some(t)) = (files, tests) {
                        self.prove_totals = Some((f, t));
                    }
                    self.end_report_file();
                    self.in_report = false;
                } else if let Some(rest) = text.strip_prefix("FAIL: ") {
                    self.automake_heading = Some(text.to_owned());
                    self.heading_died = died;
                    // minicheck: `FAIL: test_x (during actual test at runtests.c:1084)`
                    if let Some((name, at)) = rest.split_once(" (during ") {
                        self.failures.push(number, name);
                        if let Some(f) = self.failures.current() {
                            f.add_detail(&format!("during {}", at.trim_end_matches(')')));
                        }
                    }
                }
            }
            Some(b'E' | b'X') if text.starts_with("ERROR: ") || text.starts_with("XPASS: ") => {
                self.automake_heading = Some(text.to_owned());
                self.heading_died = died;
            }
            Some(b'R') => {
                if let Some(result) = text.strip_prefix("Result: ") {
                    self.result = Some(result.trim().to_owned());
                }
            }
            Some(b'T') if text == "Test Summary Report" => self.in_report = true,
            Some(b' ') if self.in_report => {
                // `  Failed test:  9`, `  Failed tests:  3, 5-7`, and why a file whose tests
                // passed failed: `  Non-zero exit status: 255`, `  Parse errors: No plan found
                // in TAP output` (a `TODO passed:` is no failure).
                let t = text.trim_start();
                if let Some((said, which)) = t.split_once(':')
                    && matches!(
                        said,
                        "Failed tests" | "Failed test" | "Non-zero exit status" | "Parse errors"
                    )
                    && let Some((file, failed)) = &mut self.report_file
                    // Its exit status is its failed tests' number when it names them.
                    && !(said == "Non-zero exit status" && file.contains("Failed test"))
                {
                    let sep = if file.ends_with('(') { "" } else { "; " };
                    file.push_str(&format!("{sep}{said}: {}", which.trim()));
                    *failed = true;
                }
            }
            Some(b'*') => {
                if let Some(rest) = text.strip_prefix("*** ")
                    && rest.to_ascii_lowercase().contains("expected")
                {
                    self.failures.push(number, "");
                    if let Some(f) = self.failures.current() {
                        f.add_detail(text);
                    }
                }
            }
            Some(b'1') if text.starts_with("1..") && text[3..].parse::<u64>().is_ok() => {
                self.plan = text[3..].parse().ok();
            }
            Some(b'0'..=b'9') => {
                // `339 of 340 tests passed (0 malformed)`
                let digits = text.bytes().take_while(u8::is_ascii_digit).count();
                if let Some(rest) = text[digits..].strip_prefix(" of ")
                    && let Some((b, _)) = rest.split_once(" tests passed")
                    && let a = &text[..digits]
                    && let (Ok(a), Ok(b)) = (a.parse(), b.parse())
                {
                    self.passed_of = Some((a, b));
                }
            }
            _ => {}
        }
        // minicheck's message, alone or inside automake's result line (read only there: a
        // search of every line costs).
        let message_at = if text.starts_with("ERROR: ") {
            Some(0)
        } else if text.starts_with("PASS: ") || text.starts_with("FAIL: ") {
            text.find("ERROR: ")
        } else {
            None
        };
        if let Some(at) = message_at {
            self.check_messages.push(number, "");
            if let Some(f) = self.check_messages.current() {
                f.add_detail(&text[at..]);
            }
        }
        if let Some(totals) = check_totals(text) {
            let sum = self.check.get_or_insert_with(CheckTotals::default);
            sum.checks = sum.checks.saturating_add(totals.checks);
            sum.failures = sum.failures.saturating_add(totals.failures);
            sum.errors = sum.errors.saturating_add(totals.errors);
            sum.runs += 1;
        } else if let Some((name, detail)) = check_failure(text) {
            self.failures.push(number, name);
            if let Some(f) = self.failures.current() {
                f.add_detail(&detail);
            }
        }
        if self.in_report
            && !text.starts_with(' ')
            && let Some((file, rest)) = text.split_once(" (Wstat:")
        {
            // With its counts as prove says them: `t/a.t (Tests: 6 Failed: 2)`.
            let counts = rest
                .find("Tests: ")
                .map(|at| rest[at..].trim_end().trim_end_matches(')'));
            self.end_report_file();
            let said = match counts {
                Some(counts) => format!("{} ({counts}", file.trim()),
                None => format!("{} (", file.trim()),
            };
            self.report_file = Some((said, false));
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_report_file();
        self.end_yaml();
        self.push_bare();
        if let Some(result) = self.automake_heading.take() {
            self.push_automake(&result);
        }
        let automake = self.automake_total.is_some();
        // tape leaves out `# fail 0` (and says `# ok`); node's runner prints every count.
        if self.node[0].is_some() && self.node[1].is_some() && self.not_ok == 0 {
            self.node[2].get_or_insert(0);
        }
        let node = self.node[0].is_some() && self.node[1].is_some() && self.node[2].is_some();
        let recognised = self.prove_totals.is_some()
            || automake
            || node
            || self.passed_of.is_some()
            || self.check.is_some()
            || (self.ok + self.not_ok > 0 && !self.failures.is_empty());
        if !recognised {
            return None;
        }
        let mut lines = Vec::new();
        if let Some((files, tests)) = self.prove_totals {
            let mut line = format!(
                "prove: Files={}, Tests={}",
                thousands(files),
                thousands(tests)
            );
            if let Some(result) = &self.result {
                line.push_str(&format!("; Result: {result}"));
            }
            if self.failed_files.total > 0 {
                line.push_str(&format!(
                    "; failed files ({}): {}",
                    self.failed_files.total,
                    self.failed_files.render(self.failed_files.total)
                ));
            }
            lines.push(line);
        }
        if let Some(total) = self.automake_total {
            let counts: Vec<String> = AUTOMAKE
                .iter()
                .zip(self.automake_summary)
                .filter_map(|(w, n)| n.filter(|&n| n > 0).map(|n| format!("{w}: {n}")))
                .collect();
            // `; `, not `, `: a count before a comma reads as part of a number (`4, 5`).
            let mut line = format!("tests: TOTAL: {total}; {}", counts.join("; "));
            if self.automake_failed.total > 0 {
                let failed = self.automake_failed.render(self.automake_failed.total);
                line.push_str(&format!(" (automake): {failed}"));
            }
            // Where the failed tests' output is when it was not printed.
            if let Some(see) = &self.automake_see {
                line.push_str(&format!("; {see}"));
            }
            lines.push(line);
        }
        if let Some((passed, of)) = self.passed_of {
            lines.push(format!(
                "tests: {} of {} tests passed, {} failed",
                thousands(passed),
                thousands(of),
                thousands(of.saturating_sub(passed))
            ));
        }
        if let Some(c) = &self.check {
            let failed = c.failures + c.errors;
            let mut line = format!(
                "tests: {} checks, {} passed, {} failed",
                thousands(c.checks),
                thousands(c.checks.saturating_sub(failed)),
                thousands(c.failures)
            );
            if c.errors > 0 {
                line.push_str(&format!(", {} errors", thousands(c.errors)));
            }
            line.push_str(" (Check");
            if c.runs > 1 {
                line.push_str(&format!(", {} runs", thousands(c.runs)));
            }
            line.push(')');
            lines.push(line);
        }
        // The top level's failed tests as printed, quoted instead of named in the TAP line.
        let mut top_said = Vec::new();
        if let [
            Some(tests),
            Some(pass),
            Some(fail),
            cancelled,
            skipped,
            todo,
        ] = self.node
        {
            let mut line = format!(
                "tests: {} run, {} passed, {} failed",
                thousands(tests),
                thousands(pass),
                thousands(fail)
            );
            for (n, word) in [
                (cancelled, "cancelled"),
                (skipped, "skipped"),
                (todo, "todo"),
            ] {
                if let Some(n) = n.filter(|&n| n > 0) {
                    line.push_str(&format!(", {} {word}", thousands(n)));
                }
            }
            line.push_str(" (TAP)");
            lines.push(line);
            lines.extend(files_line(&self.files));
        } else if self.prove_totals.is_none() && self.ok + self.not_ok > 0 {
            let plan = self
                .plan
                .map(|n| format!("{} planned, ", thousands(n)))
                .unwrap_or_default();
            let mut line = format!(
                "TAP: {plan}{} ok, {} not ok",
                thousands(self.ok),
                thousands(self.not_ok)
            );
            // The top level's failed tests, as printed while they are few, else named.
            if self.nested && self.top_failed.total > 0 && self.top_failed.said_lines().is_none() {
                line.push_str(&format!(
                    ": {}",
                    self.top_failed.render(self.top_failed.total)
                ));
            }
            lines.push(line);
        }
        // The top level's failed tests over failed subtests (a test file's, picotest's
        // group's), as printed while they are few: the failures listed are their subtests'.
        if self.nested
            && self.node[0].is_none()
            && let Some(said) = self.top_failed.said_lines()
        {
            top_said = said.to_vec();
        }
        // The producer died inside a subtest (a crash, an abort): which, and its last line.
        if let Some((_, name)) = self.open.last() {
            let mut line = format!("TAP ended inside `# Subtest: {name}`");
            if let Some((at, last)) = &self.inside {
                line.push_str(&format!(", after L{} `{last}`", thousands(*at)));
            }
            lines.push(line);
        }
        let json = json!({
            "shape": "tap",
            "ok": self.ok,
            "not_ok": self.not_ok,
            "plan": self.plan,
            "prove_files": self.prove_totals.map(|t| t.0),
            "prove_tests": self.prove_totals.map(|t| t.1),
            "result": self.result,
            "failed_files": self.failed_files.json(),
            "top_failed": self.top_failed.json(),
            "automake_total": self.automake_total,
            "automake_failed": self.automake_failed.json(),
            "passed_of": self.passed_of.map(|(p, o)| json!({"passed": p, "of": o})),
            "tests": self.node[0],
            "passed": self.node[1],
            "failed": self.node[2],
            "check": self.check.as_ref().map(|c| json!({
                "checks": c.checks,
                "failures": c.failures,
                "errors": c.errors,
                "runs": c.runs,
            })),
        });
        let failures = self.failures.take_as("failed tests");
        let logged = self
            .automake_logged
            .take_as("failed tests' logs (test-suite.log), their last lines");
        // The failed tests' exit statuses, as the log says them, while they are few.
        let mut quoted = match self.automake_exits.said_lines() {
            Some(said) if automake => said.to_vec(),
            _ => top_said,
        };
        quoted.extend(self.closing.take());
        // Without Check's closing line an `ERROR:` line is automake's result, named above.
        let messages = if self.check.is_some() && !automake {
            self.check_messages
                .take_as("failure messages as printed (stderr)")
        } else {
            Failures::default()
        };
        Some(
            Fact::new("tap", lines, json)
                .quoting(quoted)
                .failures(failures)
                .failures(logged)
                .failures(messages)
                .hint("'^ *not ok|^#   Failed|^FAIL|^\\*\\*\\* |:[0-9]+:[EF]:' -A 3"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.yaml.as_ref().map_or(0, |y| {
            y.name.capacity()
                + y.said.as_ref().map_or(0, String::capacity)
                + y.detail.iter().map(|d| d.capacity() + 24).sum::<usize>()
                + y.location.as_ref().map_or(0, String::capacity)
                + y.frame.as_ref().map_or(0, String::capacity)
                + y.test_frame.as_ref().map_or(0, String::capacity)
        }) + self.test.as_ref().map_or(0, String::capacity)
            + self.failures.approx_heap()
            + self.bare.as_ref().map_or(0, |(_, n, s)| {
                n.capacity() + s.as_ref().map_or(0, String::capacity)
            })
            + self.failed_files.approx_heap()
            + self
                .open
                .iter()
                .map(|(_, n)| n.capacity() + 8)
                .sum::<usize>()
            + self.inside.as_ref().map_or(0, |(_, l)| l.capacity())
            + self.top_failed.approx_heap()
            + self.automake_exits.approx_heap()
            + self.automake_logged.approx_heap()
            + self
                .automake_log_last
                .iter()
                .map(String::capacity)
                .sum::<usize>()
            + self.automake_failed.approx_heap()
            + self.check_messages.approx_heap()
            + self.report_file.as_ref().map_or(0, |(f, _)| f.capacity())
            + self.automake_see.as_ref().map_or(0, String::capacity)
            + self.result.as_ref().map_or(0, String::capacity)
    }
}

/// Check's closing line, `100%: Checks: 12, Failures: 1, Errors: 0`, or minicheck's,
/// `98%: Checks: 365, Failed: 7`.
fn check_totals(text: &str) -> Option<CheckTotals> {
    let t = text.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !t[digits..].starts_with("%: Checks: ") {
        return None;
    }
    let (percent, rest) = t.split_once("%: Checks: ")?;
    percent.parse::<u64>().ok()?;
    let mut totals = CheckTotals::default();
    let mut fields = rest.split(", ");
    totals.checks = fields.next()?.trim().parse().ok()?;
    for field in fields {
        let (word, n) = field.split_once(": ")?;
        let n = n.trim().parse().ok()?;
        match word {
            "Failures" | "Failed" => totals.failures = n,
            "Errors" => totals.errors = n,
            _ => return None,
        }
    }
    Some(totals)
}

/// A failed or errored check, `check_money.c:17:F:Core:test_create:0: Assertion … failed`: the
/// test's name and its message with where.
fn check_failure(text: &str) -> Option<(&str, String)> {
    // Cheap first: `file:123:F:` or `file:123:E:` after the first colon.
    let (_, after) = text.split_once(':')?;
    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !(after[digits..].starts_with(":F:") || after[digits..].starts_with(":E:")) {
        return None;
    }
    let mut parts = text.splitn(7, ':');
    let (file, line, kind, _suite, test, iteration, message) = (
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
        parts.next()?,
    );
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !matches!(kind, "F" | "E")
        || !numeric(line)
        || !numeric(iteration)
        || file.is_empty()
        || file.contains(' ')
        || test.is_empty()
        || test.contains(' ')
    {
        return None;
    }
    Some((test, format!("{} · at {file}:{line}", message.trim())))
}

impl Yaml {
    /// A detail of the YAML block: `error`'s or `message`'s value as it is, the others' with
    /// their key (`expected: …`).
    fn add(&mut self, key: &str, value: &str) {
        let d = if key == "error" || key == "message" {
            value.to_owned()
        } else {
            format!("{key}: {value}")
        };
        // `'1' == '2'` said the values already (as values: `text/a, a` does not say `'a'`).
        let bare = unquoted(value);
        let said = key != "error"
            && self.detail.first().is_some_and(|e| {
                e.contains(&format!("'{bare}'"))
                    || e.contains(&format!("\"{bare}\""))
                    || (bare.len() >= 8 && e.contains(bare))
            });
        if self.detail.len() < YAML_DETAILS && !said {
            self.detail.push(crate::format::cut_middle(&d, 200));
        }
    }

    /// The `error:` block's diff is over: its first change is a detail.
    fn end_message_diff(&mut self) {
        if let Some((_, Some(change))) = self.message_diff.take() {
            for d in change.details() {
                if self.detail.len() < YAML_DETAILS {
                    self.detail.push(d);
                }
            }
        }
    }

    /// The `diff:` block is over (or the YAML block is): its first change is a detail.
    fn end_diff(&mut self) {
        if self.diff.take().is_some() {
            for d in self.change.details() {
                if self.detail.len() < YAML_DETAILS {
                    self.detail.push(d);
                }
            }
        }
    }
}

/// Details kept of a YAML block.
const YAML_DETAILS: usize = 3;

impl Tap {
    /// The file of prove's report read last is over: a failed file when something said it
    /// failed.
    fn end_report_file(&mut self) {
        if let Some((file, true)) = self.report_file.take() {
            self.failed_files.push(&format!("{file})"));
        }
    }

    /// An indented line of Test::More's (trimmed): a subtest's `#   Failed test 'x'` and its
    /// `#          got: …`, `#     expected: …`. Returns whether it was one.
    fn subtest_line(&mut self, t: &str) -> bool {
        let Some(diag) = t.strip_prefix('#').map(str::trim) else {
            self.in_subtest = false;
            return false;
        };
        if diag.starts_with("Failed test") {
            // Only the first failed subtest of its parent is kept.
            self.in_subtest = self.subtest.is_none();
            if self.in_subtest {
                let name = diag.trim_end_matches(['.', ' ']);
                self.subtest = Some((format!("subtest: {name}"), Vec::new()));
            }
            return true;
        }
        if self.in_subtest
            && let Some((_, detail)) = &mut self.subtest
            && (diag.starts_with("got:") || diag.starts_with("expected:"))
            && detail.len() < 2
        {
            detail.push(crate::format::cut(t, 200));
        }
        self.in_subtest &= !diag.starts_with("Looks like");
        self.in_subtest
    }

    /// An automake result (`FAIL: secretstream`), with how its test died when the shell said
    /// (`FAIL: secretstream (Aborted)`).
    fn push_automake(&mut self, result: &str) {
        match self.heading_died.take() {
            Some(died) => self.automake_failed.push(&format!("{result} ({died})")),
            None => self.automake_failed.push(result),
        }
    }

    /// A `not ok` with nothing under it (picotest's, a plain producer's), `depth` indented: a
    /// failure, unless Test::More names it by a `#   Failed test` line (on stderr, so before
    /// the `not ok` or right after it), or it is the top level's over failed subtests (the
    /// TAP line says those), or a parent whose subtests failed under it.
    fn bare(&mut self, line: u64, depth: usize, name: &str, said: Option<&str>) {
        let parent = self.failed_depth.is_some_and(|d| d > depth);
        self.failed_depth = Some(depth);
        self.push_bare();
        if !(parent || self.more || (self.nested && depth == 0)) {
            self.bare = Some((line, name.to_owned(), said.map(str::to_owned)));
        }
    }

    /// Subtests begun and ended (TAP 14's `# Subtest: name`, its lines indented under it, its
    /// result after them): one that never ended is where the producer died.
    fn subtests(&mut self, number: u64, text: &str) {
        let t = text.trim_start_matches([' ', '\t']);
        let depth = text.len() - t.len();
        if let Some(name) = t.strip_prefix("# Subtest: ") {
            if self.open.len() < OPEN_KEPT {
                self.open
                    .push((depth, crate::format::cut(name.trim_end(), 200)));
            }
            self.inside = None;
            return;
        }
        if self.open.is_empty() {
            return;
        }
        if let Some(result) = t.strip_prefix("not ok").or_else(|| t.strip_prefix("ok")) {
            // Its result ends it: less indented than its lines (picotest indents the comment
            // with them), or as indented as the comment and of its name (node's).
            let name = result
                .trim_start_matches(|c: char| c == ' ' || c.is_ascii_digit())
                .trim_start_matches("- ");
            let name = name.split(" # ").next().unwrap_or(name).trim_end();
            while self
                .open
                .last()
                .is_some_and(|(d, open)| depth < *d || (depth == *d && name == open))
            {
                self.open.pop();
            }
        }
        if let Some((d, _)) = self.open.last()
            && depth >= *d
            && !t.trim_end().is_empty()
        {
            self.inside = Some((number, crate::format::cut(t.trim_end(), 200)));
        }
    }

    /// The names of the subtests open around a result indented `depth` (`node > customAlphabet`),
    /// outermost first; none at the top level.
    fn ancestors(&self, depth: usize) -> Option<String> {
        let names: Vec<&str> = self
            .open
            .iter()
            .filter(|(d, _)| *d < depth)
            .map(|(_, name)| name.as_str())
            .collect();
        (!names.is_empty()).then(|| names.join(" > "))
    }

    /// The bare `not ok` waiting is a failure: no `#   Failed test` line came to name it.
    fn push_bare(&mut self) {
        if let Some((line, name, said)) = self.bare.take() {
            self.push(line, &name, said.as_deref());
        }
    }

    /// A `not ok` failure, said by its `not ok` line when the name is that line's own.
    fn push(&mut self, line: u64, name: &str, said: Option<&str>) {
        self.failures.push(line, name);
        if let Some(said) = said {
            self.failures.say(said);
        }
    }

    /// An indented line under a failure without YAML (`t`, trimmed): its message lines until
    /// the stack (the error's line repeating the message is not said twice), then the stack's
    /// first frame in the project's files.
    fn indented_line(&mut self, t: &str) {
        let Some((past, framed)) = self.indented else {
            return;
        };
        let Some(f) = self.failures.current() else {
            return;
        };
        if let Some(framed) = stack_line(t, framed, f) {
            self.indented = Some((past, framed));
            return;
        }
        let said = f.detail.last().is_some_and(|d| t.ends_with(d.as_str()));
        if !framed && !said && t != "----" {
            f.add_detail(t);
        }
    }

    /// A line after a `not ok`: its YAML block, read; whether the line was the block's.
    fn yaml_line(&mut self, text: &str) -> bool {
        let Some(y) = &mut self.yaml else {
            return false;
        };
        let t = text.trim();
        if !y.open {
            if t == "---" {
                y.open = true;
                return true;
            }
            // No YAML: the diagnostics, if any, are Test::More's (read as before), or bats'
            // and other plain TAP producers' comments under the `not ok`, its detail.
            let plain = t.strip_prefix('#').is_some_and(|d| {
                let d = d.trim_start();
                // Not a subtest beginning after it.
                !d.starts_with("Failed test") && !d.starts_with("Subtest:")
            });
            // Else lines of the producer's own, indented under it (mocha's message and
            // stack), not a subtest's next result at the same depth.
            let indented = !plain && depth(text) > y.depth && !is_tap(t);
            let (line, name, said) = (y.line, std::mem::take(&mut y.name), y.said.take());
            let depth = y.depth;
            self.yaml = None;
            if plain || indented {
                self.failed_depth = Some(depth);
                self.push(line, &name, said.as_deref());
            } else {
                self.bare(line, depth, &name, said.as_deref());
            }
            if plain {
                self.in_diagnostic = true;
            }
            if indented {
                self.indented = Some((depth, false));
                self.indented_line(t);
                return true;
            }
            return false;
        }
        if t == "..." {
            self.end_yaml();
            return true;
        }
        let indent = text.len() - text.trim_start().len();
        if let Some(diff_indent) = y.diff {
            // A folded block (`diff: >`) has blank lines between its lines.
            if indent > diff_indent || t.is_empty() {
                y.change.line(indent, t);
                return true;
            }
            y.end_diff();
        }
        if let Some((block_indent, change)) = &mut y.message_diff {
            if indent > *block_indent || t.is_empty() {
                match change {
                    None if t == "+ actual - expected" || t == "+ expected - actual" => {
                        *change = Some(Change::at(indent));
                    }
                    Some(change) => change.line(indent, t),
                    None => {}
                }
                return true;
            }
            y.end_message_diff();
        }
        if let Some((key, block_indent)) = y.block {
            if indent > block_indent {
                // The block's first line is its value (`{ a: { 20: 'a' } }`).
                y.block = None;
                y.add(key, t);
                if key == "error" && t.ends_with(':') {
                    y.message_diff = Some((block_indent, None));
                }
                return true;
            }
            y.block = None;
        }
        if let Some(stack_indent) = y.stack {
            if indent > stack_indent {
                if let Some(at) = frame_place(t) {
                    if y.frame.is_none() {
                        y.frame = Some(format!("at {at}"));
                    } else if y.test_frame.is_none()
                        && ["Test.<anonymous> ", "TestContext.<anonymous> "]
                            .iter()
                            .any(|f| t.trim_start_matches("at ").starts_with(f))
                    {
                        y.test_frame = Some(at.to_owned());
                    }
                }
                return true;
            }
            y.stack = None;
        }
        let Some((key, value)) = t
            .split_once(": ")
            .or_else(|| t.strip_suffix(':').map(|k| (k, "")))
        else {
            return true;
        };
        // A message as text; a value compared as printed (`'1'` is no `1`).
        let printed = value;
        let value = unquoted(value);
        match key {
            "failureType" if value == "subtestsFailed" => y.subtests = true,
            "error" | "message" | "expected" | "actual" | "wanted" | "found" => {
                if matches!(value, "|-" | "|" | ">-" | ">" | "|+" | ">+") {
                    let key = ["error", "message", "expected", "actual", "wanted", "found"]
                        .into_iter()
                        .find(|k| *k == key)
                        .unwrap_or("error");
                    y.block = Some((key, indent));
                } else if !value.is_empty() {
                    y.add(
                        key,
                        if key == "error" || key == "message" {
                            value
                        } else {
                            printed
                        },
                    );
                }
            }
            "location" | "at" if !value.is_empty() => {
                y.location = Some(format!("at {value}"));
                if key == "location" {
                    y.file = Some(without_line(value).to_owned());
                }
            }
            "stack" => y.stack = Some(indent),
            "diff" if value.starts_with(['|', '>']) => y.diff = Some(indent),
            _ => {}
        }
        true
    }

    /// The `not ok` read last is complete: a failure, unless only its subtests failed.
    fn end_yaml(&mut self) {
        let Some(mut y) = self.yaml.take() else {
            return;
        };
        y.end_diff();
        y.end_message_diff();
        if !y.open {
            // The output ended under a `not ok` with nothing under it.
            self.bare(y.line, y.depth, &y.name, y.said.as_deref());
            return;
        }
        self.failed_depth = Some(y.depth);
        if y.subtests {
            return;
        }
        self.push(y.line, &y.name, y.said.as_deref());
        if let Some(file) = &y.file {
            self.files.add(file, FILES_KEPT);
        }
        let mut at = y.frame.or(y.location);
        if let (Some(at), Some(test)) = (&mut at, &y.test_frame) {
            // `at test/_tape.js:27:5, from test/cmp.js:255:5`: the helper, then the test.
            at.push_str(&format!(", from {test}"));
        }
        if let Some(f) = self.failures.current() {
            for d in y.detail.iter().chain(&at) {
                f.add_detail(d);
            }
        }
    }
}

/// A Perl message's end: `… at t/lib/TestBridge.pm line 352.`
fn says_line(text: &str) -> bool {
    text.trim_end()
        .strip_suffix('.')
        .and_then(|t| t.rsplit_once(" line "))
        .is_some_and(|(before, n)| {
            before.contains(" at ") && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// How a shell's job died, as the shell reports it: `…/test-driver: line 112:  1921 Aborted
/// "$@" >> "$log_file" 2>&1` → `Aborted` (`Segmentation fault`, `Killed`, `Aborted (core
/// dumped)`).
fn job_died(text: &str) -> Option<&str> {
    let (_, rest) = text.split_once(": line ")?;
    let (line, rest) = rest.split_once(':')?;
    let rest = rest.trim_start();
    let pid = rest.bytes().take_while(u8::is_ascii_digit).count();
    if line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) || pid == 0 {
        return None;
    }
    let word = rest[pid..].trim_start();
    let word = word.split("  ").next().unwrap_or(word).trim_end();
    (word.starts_with(|c: char| c.is_ascii_uppercase()) && word.len() <= 40).then_some(word)
}

/// Files of failed tests counted apart; the others are counted together.
const FILES_KEPT: usize = 64;
/// Files of failed tests named in the summary.
const FILES_SHOWN: usize = 16;

/// `/a/test/x.js:489:1` → `/a/test/x.js`.
fn without_line(place: &str) -> &str {
    let mut place = place;
    for _ in 0..2 {
        match place.rsplit_once(':') {
            Some((rest, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                place = rest
            }
            _ => break,
        }
    }
    place
}

/// `failed tests by file (14): test/date.test.js ×10, test/anyof.test.js ×5, …`: each file
/// from the directory above the one all of them share (`test/x.js`, not the whole absolute
/// path, nor `x.js` alone).
fn files_line(files: &Counts) -> Option<String> {
    let first = &files.counts.first()?.0;
    let mut common = first.rfind('/').map_or(0, |i| i + 1);
    for (p, _) in &files.counts[1..] {
        while !p.starts_with(&first[..common]) {
            common = first[..common.saturating_sub(1)]
                .rfind('/')
                .map_or(0, |i| i + 1);
        }
    }
    let from = first[..common.saturating_sub(1)]
        .rfind('/')
        .map_or(0, |i| i + 1);
    let shown: Vec<String> = files
        .counts
        .iter()
        .take(FILES_SHOWN)
        .map(|(p, n)| format!("{} ×{}", &p[from..], thousands(*n)))
        .collect();
    // Past the files counted apart, how many there were is not known.
    let mut line = if files.other > 0 {
        format!("failed tests by file: {}", shown.join(", "))
    } else {
        format!(
            "failed tests by file ({}): {}",
            thousands(files.counts.len() as u64),
            shown.join(", ")
        )
    };
    let rest = &files.counts[FILES_SHOWN.min(files.counts.len())..];
    let tests: u64 = rest.iter().map(|(_, n)| n).sum::<u64>() + files.other;
    if tests > 0 {
        let elsewhere = if files.other > 0 {
            "other files".to_string()
        } else {
            plural(rest.len() as u64, "more file", "more files")
        };
        line.push_str(&format!(
            ", … {} in {elsewhere}",
            plural(tests, "failed test", "failed tests")
        ));
    }
    Some(line)
}

/// A YAML value without the one pair of quotes around it (`'a'`, `"a"`, `` `a` ``).
fn unquoted(value: &str) -> &str {
    for q in ['\'', '"', '`'] {
        if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
            return &value[1..value.len() - 1];
        }
    }
    value
}

/// Whether a line (trimmed) is TAP's own, or empty: a result, a plan, a comment (a subtest's,
/// indented), none of a message's.
fn is_tap(t: &str) -> bool {
    t.is_empty()
        || t.starts_with('#')
        || t.starts_with("1..")
        || t.starts_with("not ok")
        || t == "ok"
        || t.starts_with("ok ")
}

/// How far a line is indented, in bytes of blanks.
fn depth(text: &str) -> usize {
    text.len() - text.trim_start_matches([' ', '\t']).len()
}

/// ` 73 - name` (after `not ok`) → `name`; `None` for a `# TODO` test, which may fail.
fn not_ok_name(rest: &str) -> Option<&str> {
    let rest = rest.strip_prefix(' ')?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let name = rest[digits..].trim_start_matches([' ', '-']).trim();
    if name.contains("# TODO") || name.contains("# todo") {
        return None;
    }
    Some(untimed(name))
}

/// `text` without node-tap's `# time=8000.228ms` directive, which is no part of a name and
/// only takes room in a line quoted.
fn untimed(text: &str) -> &str {
    text.split(" # time=").next().unwrap_or(text)
}

/// A line of a failure's stack (`t`, trimmed: `at f (/a/test/x.js:508:12)`): the first frame
/// in the project's files is added to `f`'s detail as `at /a/test/x.js:508:12`. Whether a
/// frame was added now or before (`framed`); `None` for a line that is no frame.
pub(crate) fn stack_line(t: &str, framed: bool, f: &mut Failure) -> Option<bool> {
    let frame = t.strip_prefix("at ")?;
    if !framed && let Some(place) = frame_place(frame) {
        f.add_detail(&format!("at {place}"));
        return Some(true);
    }
    Some(framed)
}

/// The place of a stack frame in the project's files: `Ctx.<anonymous> (/a/test/x.js:508:12)`
/// → `/a/test/x.js:508:12`; Node's own (`node:internal/…`) and installed packages' are none.
pub(crate) fn frame_place(frame: &str) -> Option<&str> {
    let frame = frame.strip_prefix("at ").unwrap_or(frame);
    let place = match frame.rsplit_once(" (") {
        Some((_, place)) => place.strip_suffix(')')?,
        None => frame,
    };
    let own = !place.starts_with("node:")
        && !place.contains("/node_modules/")
        && !place.starts_with("node_modules/");
    let located = place
        .rsplit(':')
        .nth(1)
        .is_some_and(|l| l.bytes().all(|b| b.is_ascii_digit()));
    (own && located && place.contains('/')).then_some(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(paths: &[&str]) -> Counts {
        let mut c = Counts::default();
        for p in paths {
            c.add(without_line(p), FILES_KEPT);
        }
        c
    }

    #[test]
    fn files_are_named_from_the_directory_above_the_one_they_share() {
        let one = files(&["/a/proj/test/x.test.js:4:1", "/a/proj/test/x.test.js:9:1"]);
        assert_eq!(
            files_line(&one).unwrap(),
            "failed tests by file (1): test/x.test.js ×2"
        );
        let two = files(&["/a/proj/test/x.js:4:1", "/a/proj/lib/y.js:2:1"]);
        assert_eq!(
            files_line(&two).unwrap(),
            "failed tests by file (2): proj/test/x.js ×1, proj/lib/y.js ×1"
        );
        let relative = files(&["x.js:1:1", "x.js:2:1"]);
        assert_eq!(
            files_line(&relative).unwrap(),
            "failed tests by file (1): x.js ×2"
        );
        assert_eq!(files_line(&Counts::default()), None);
    }

    #[test]
    fn files_past_those_named_are_counted_with_their_tests() {
        let paths: Vec<String> = (0..FILES_SHOWN + 2)
            .map(|i| format!("/p/t/f{i}.js:1:1"))
            .chain(["/p/t/f0.js:8:1".to_string()])
            .collect();
        let c = files(&paths.iter().map(String::as_str).collect::<Vec<_>>());
        let line = files_line(&c).unwrap();
        assert!(
            line.starts_with("failed tests by file (18): t/f0.js ×2, t/f1.js ×1"),
            "{line}"
        );
        assert!(
            line.ends_with(", t/f15.js ×1, … 2 failed tests in 2 more files"),
            "{line}"
        );
        let mut many = Counts::default();
        for i in 0..FILES_KEPT + 3 {
            many.add(&format!("/p/t/f{i}.js"), FILES_KEPT);
        }
        let line = files_line(&many).unwrap();
        assert!(
            line.starts_with("failed tests by file: t/f0.js ×1"),
            "{line}"
        );
        assert!(
            line.ends_with(", … 51 failed tests in other files"),
            "{line}"
        );
    }
}
