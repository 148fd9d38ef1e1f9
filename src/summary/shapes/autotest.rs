//! GNU Autotest test suites (`./testsuite`, run by `make check` in projects built with
//! Autoconf): a line per test group as it runs (`  1: gdbm version   FAILED (version.at:19)`,
//! `ok`, `skipped (…)`, `expected failure`), the results (`ERROR: 22 tests were run,` /
//! `4 failed unexpectedly.` / `11 tests were skipped.`, or `All 33 tests were successful.`),
//! and, in its `testsuite.log`, each failed group's commands, the diff of what it printed
//! against what was expected, and its verdict (`1. version.at:17: 1. gdbm version
//! (version.at:17): FAILED (version.at:19)`).
//!
//! Stated: the suite's own totals; each failed group by its verdict as printed, with its first
//! detail from the log (the failing command, the lines it printed that differ, its exit code).

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Lines of a failed group's detail kept from the log.
const DETAIL_LINES: usize = 6;
/// How much of a detail line is kept.
const DETAIL_CHARS: usize = 200;

#[derive(Debug, Default)]
pub(crate) struct Autotest {
    /// The results: tests run, failed unexpectedly, passed unexpectedly, skipped, expected
    /// failures; `None` until the suite states them.
    run: Option<u64>,
    failed: u64,
    passed_unexpectedly: u64,
    skipped: u64,
    expected_failures: u64,
    /// Group lines read: ok, failed, skipped.
    groups: [u64; 3],
    failures: Failures,
    /// The log's failed group being read (`N. file.at:L: testing NAME ...`): its line, name
    /// and the detail gathered so far.
    open: Option<(u64, String, Vec<String>)>,
}

impl Shape for Autotest {
    fn line(&mut self, number: u64, text: &str) {
        let t = text.trim();
        let Some(first) = t.bytes().next() else {
            return;
        };
        if first.is_ascii_digit() {
            self.numbered(number, t);
            return;
        }
        if let Some((_, _, detail)) = &mut self.open
            && detail.len() < DETAIL_LINES
            && says_what_failed(text)
        {
            // Of the commands run before the group failed, the last one failed.
            if is_command(text) && detail.last().is_some_and(|d| is_command(d)) {
                detail.pop();
            }
            detail.push(cut(text.trim_end(), DETAIL_CHARS));
        }
        let t = t.strip_prefix("ERROR: ").unwrap_or(t);
        if let Some(rest) = t.strip_prefix("All ")
            && let Some(n) = count_before(rest, " tests were successful.")
        {
            self.run = Some(n);
        } else if let Some(n) = count_before(t, " tests were run,")
            .or_else(|| count_before(t, " test was run,"))
            .or_else(|| {
                t.strip_prefix("All ")
                    .and_then(|r| count_before(r, " tests were run,"))
            })
        {
            self.run = Some(n);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.close(None);
        let run = self.run?;
        let mut line = format!(
            "tests: {} run, {} passed, {} failed",
            thousands(run),
            thousands(run.saturating_sub(self.failed + self.expected_failures)),
            thousands(self.failed)
        );
        if self.expected_failures > 0 {
            line.push_str(&format!(
                ", {}",
                plural(
                    self.expected_failures,
                    "expected failure",
                    "expected failures"
                )
            ));
        }
        if self.passed_unexpectedly > 0 {
            line.push_str(&format!(
                ", {} passed unexpectedly",
                thousands(self.passed_unexpectedly)
            ));
        }
        if self.skipped > 0 {
            line.push_str(&format!(", {} skipped", thousands(self.skipped)));
        }
        line.push_str(" (autotest)");
        let json = json!({
            "shape": "autotest",
            "run": run,
            "failed": self.failed,
            "passed_unexpectedly": self.passed_unexpectedly,
            "skipped": self.skipped,
            "expected_failures": self.expected_failures,
            "groups": {"ok": self.groups[0], "failed": self.groups[1], "skipped": self.groups[2]},
        });
        let failed = self.failed + self.passed_unexpectedly;
        let listed = self.failures.take_as("failed test groups");
        Some(
            Fact::new("autotest", vec![line], json)
                .failures(listed)
                // The log's diffs are of what each group printed, not of files.
                .supersedes(&["diff"])
                .hint_if_failed(failed > 0, "': FAILED \\(|^[0-9]+\\. .*: testing ' -A 12"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.open.as_ref().map_or(0, |(_, name, detail)| {
                name.capacity() + detail.iter().map(String::capacity).sum::<usize>()
            })
    }
}

impl Autotest {
    /// A line that starts with a number: a group's result, a log's group opening or
    /// closing, or one of the results' counts.
    fn numbered(&mut self, number: u64, t: &str) {
        if let Some(n) = count_before(t, " failed unexpectedly.") {
            self.failed = n;
        } else if let Some(n) = count_before(t, " passed unexpectedly.") {
            self.passed_unexpectedly = n;
        } else if let Some(n) = count_before(t, " tests were skipped.")
            .or_else(|| count_before(t, " test was skipped."))
        {
            self.skipped = n;
        } else if let Some((n, m)) = failed_expected(t) {
            // `3 failed (2 expected failures).`
            self.failed = n.saturating_sub(m);
            self.expected_failures = m;
        } else if let Some((n, rest)) = t.split_once(". ")
            && is_number(n)
        {
            self.log_line(number, t, rest);
        } else if let Some((n, rest)) = t.split_once(": ")
            && is_number(n)
        {
            self.group_line(number, t, rest.trim_end());
        }
    }

    /// The console's `  1: gdbm version    FAILED (version.at:19)` (or `ok`, `skipped (…)`).
    fn group_line(&mut self, number: u64, said: &str, rest: &str) {
        let (name, verdict) = if let Some(at) = rest.rfind(" FAILED (") {
            (&rest[..at], 1)
        } else if let Some(name) = rest.strip_suffix(" ok") {
            (name, 0)
        } else if let Some(at) = rest.rfind(" skipped (") {
            (&rest[..at], 2)
        } else {
            return;
        };
        self.groups[verdict] += 1;
        if verdict == 1 {
            let name = name.trim();
            if !self.failures.iter().any(|f| f.name == name) {
                self.failures.push_said(number, name, said);
            }
        }
    }

    /// The log's `1. version.at:17: testing gdbm version ...`, which opens a failed group's
    /// detail, and its `1. version.at:17: 1. gdbm version (version.at:17): FAILED
    /// (version.at:19)`, which closes it.
    fn log_line(&mut self, number: u64, said: &str, rest: &str) {
        let Some((_file, after)) = rest.split_once(": ") else {
            return;
        };
        if let Some(name) = after.strip_prefix("testing ") {
            self.close(None);
            let name = name.trim_end_matches(" ...").trim();
            self.open = Some((number, name.to_owned(), Vec::new()));
        } else if after.contains("): FAILED (") {
            self.close(Some(said));
        } else if after.contains("): ") {
            // Passed, skipped: no failure.
            self.open = None;
        }
    }

    /// The group open is over: a failure when `verdict` says so.
    fn close(&mut self, verdict: Option<&str>) {
        let Some((line, name, detail)) = self.open.take() else {
            return;
        };
        let Some(said) = verdict else {
            return;
        };
        match self.failures.find(|n| n == name) {
            Some(known) => {
                if !known.has_detail() {
                    for d in &detail {
                        known.add_detail(d);
                    }
                }
            }
            None => {
                self.failures.push_said(line, &name, said);
                if let Some(failure) = self.failures.current() {
                    for d in &detail {
                        failure.add_detail(d);
                    }
                }
            }
        }
    }
}

/// A line of a failed group's log that says what failed: the command run
/// (`./version.at:19: gtver -lib`), a line it printed that differs from what was expected
/// (`-1.23.0`, `+1.23.1`), or its exit status (`./setopt02.at:19: exit code was 1, expected 0`);
/// not the diff's own headers.
fn says_what_failed(text: &str) -> bool {
    let t = text.trim_end();
    if t.starts_with("--- ") || t.starts_with("+++ ") || t.starts_with("@@ ") {
        return false;
    }
    (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 || is_command(t) && !t.ends_with(':')
}

/// `./wordwrap.at:24: t_wordwrap -right=10 abcdefghijklmn`: a command the group ran, where.
fn is_command(text: &str) -> bool {
    text.starts_with("./") && text.contains(".at:")
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `22` of `22 tests were run,` when `text` is the number then `suffix`.
fn count_before(text: &str, suffix: &str) -> Option<u64> {
    let n = text.strip_suffix(suffix)?;
    is_number(n).then(|| n.parse().ok()).flatten()
}

/// `3 failed (2 expected failures).` → (3, 2).
fn failed_expected(t: &str) -> Option<(u64, u64)> {
    let (n, rest) = t.split_once(" failed (")?;
    let m = rest
        .strip_suffix(" expected failures).")
        .or_else(|| rest.strip_suffix(" expected failure)."))?;
    Some((n.parse().ok()?, m.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<String>, Vec<String>) {
        let mut shape = Box::<Autotest>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a suite");
        let failures = fact
            .failures
            .iter()
            .flat_map(|f| f.kept.iter())
            .map(|f| {
                format!(
                    "{} | {}",
                    f.said.clone().unwrap_or_default(),
                    f.detail.join(" · ")
                )
            })
            .collect();
        (fact.lines, failures)
    }

    #[test]
    fn a_suite_s_results_and_failed_groups_are_read() {
        let (lines, failures) = read(
            "  1: gdbm version                                    FAILED (version.at:19)\n\
             \x20 2: create database                                 ok\n\
             \x2012: create database                                 skipped (dbmcreate00.at:20)\n\
             ## Test results. ##\n\nERROR: 3 tests were run,\n1 failed unexpectedly.\n\
             1 test was skipped.\n",
        );
        assert_eq!(
            lines,
            ["tests: 3 run, 2 passed, 1 failed, 1 skipped (autotest)"]
        );
        assert_eq!(
            failures,
            ["1: gdbm version                                    FAILED (version.at:19) | "]
        );
    }

    #[test]
    fn a_log_s_failed_group_has_its_command_and_differing_lines() {
        let (lines, failures) = read(
            "ERROR: 22 tests were run,\n4 failed unexpectedly.\n\
             1. version.at:17: testing gdbm version ...\n\
             ./version.at:19: gtver -lib -full -header -full\n\
             --- -\t2026-12-05 21:29:52.514896623 +0000\n\
             +++ /p/tests/testsuite.dir/at-groups/1/stdout\t2026-12-05\n\
             @@ -1,3 +1,3 @@\n-1.23.0\n+1.23.1\n 1.23.0\n\n\
             1. version.at:17: 1. gdbm version (version.at:17): FAILED (version.at:19)\n\
             2. create00.at:17: testing create database ...\n\
             2. create00.at:17: 2. create database (create00.at:17): ok\n",
        );
        assert_eq!(lines, ["tests: 22 run, 18 passed, 4 failed (autotest)"]);
        assert_eq!(
            failures,
            [
                "1. version.at:17: 1. gdbm version (version.at:17): FAILED (version.at:19) | \
              ./version.at:19: gtver -lib -full -header -full · -1.23.0 · +1.23.1"
            ]
        );
        let mut all = Box::<Autotest>::default();
        all.line(1, "All 33 tests were successful.");
        let fact = all.finish().expect("a suite");
        assert_eq!(
            fact.lines,
            ["tests: 33 run, 33 passed, 0 failed (autotest)"]
        );
    }
}
