//! GoogleTest: `[ RUN      ] Suite.Test`, the failure under it (`foo_test.cc:23: Failure`, then
//! `Expected equality of these values:` / `Which is: 1` …), `[  FAILED  ] Suite.Test (0 ms)`,
//! and the totals: `[==========] 1234 tests from 120 test suites ran.`, `[  PASSED  ] 1200
//! tests.`, `[  FAILED  ] 32 tests, listed below:` (whose list repeats the names),
//! `[  SKIPPED ] …`, `YOU HAVE 4 DISABLED TESTS`. Totals of several binaries (a CTest run) add up.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// What to read of GoogleTest's failures: each one's lines and its `[  FAILED  ]` line.
const GTEST_HINT: &str = "': Failure$|^\\[  FAILED  \\]' -A 5";

/// Lines of a failure kept: where (`file:line: Failure`) and what follows.
const DETAIL_LINES: usize = 4;

#[derive(Debug, Default)]
pub(crate) struct Gtest {
    /// Summed over binaries: ran, suites, passed, failed, skipped, disabled.
    totals: [u64; 6],
    binaries: u64,
    /// `[  FAILED  ] Suite.Test (0 ms)` lines read.
    failed_lines: u64,
    failures: Failures,
    /// The running test's failure so far: its line and lines.
    running: Option<(Option<u64>, Vec<String>)>,
    /// cmocka's run (`[==========] 51 test(s) run.`, `[  ERROR   ] --- …`), not GoogleTest's.
    cmocka: bool,
}

impl Shape for Gtest {
    fn line(&mut self, number: u64, text: &str) {
        let Some((tag, rest)) = tagged(text) else {
            // `--gtest_brief=1` prints no `[ RUN      ]`: a failure starts its test's lines.
            if self.running.is_none() && text.trim_end().ends_with(": Failure") {
                self.running = Some((None, Vec::new()));
            }
            if let Some((at, lines)) = &mut self.running {
                read_failure(number, text, at, lines);
            }
            self.disabled(text);
            return;
        };
        match tag {
            "RUN" => self.running = Some((None, Vec::new())),
            "OK" => self.running = None,
            "ERROR" | "LINE" => {
                // cmocka: `[  ERROR   ] --- difference at offset 0`, `[   LINE   ] ---
                // test/a.c:100: error: Failure!`.
                if let Some((at, lines)) = &mut self.running {
                    self.cmocka = true;
                    at.get_or_insert(number);
                    let message = cmocka_message(rest);
                    if lines.len() < DETAIL_LINES && !message.is_empty() {
                        lines.push(message.to_owned());
                    }
                }
            }
            "FAILED" => {
                // GoogleTest's `Suite.Test (0 ms)`; cmocka's name alone, under a test running
                // (the list after the totals names them again).
                let name = rest
                    .strip_suffix(" ms)")
                    .and_then(|r| r.rsplit_once(" ("))
                    .map(|(name, _)| name)
                    .or_else(|| {
                        let alone = !rest.is_empty() && !rest.contains(' ');
                        (alone && self.running.is_some()).then_some(rest)
                    });
                if let Some(name) = name {
                    self.failed_lines += 1;
                    let (at, lines) = self.running.take().unwrap_or_default();
                    self.failures.push_said(
                        at.unwrap_or(number),
                        name,
                        &format!("[  FAILED  ] {name}"),
                    );
                    if let Some(failure) = self.failures.current() {
                        // The suite: `FooTest` of `FooTest.Bar`, `Prefix/FooP` of `Prefix/FooP.Case/0`.
                        failure.group = failure.name.find('.');
                        for line in &lines {
                            failure.add_detail(line);
                        }
                    }
                } else if let Some(n) = count_before(rest, " test") {
                    self.totals[3] = self.totals[3].saturating_add(n);
                }
            }
            "PASSED" => {
                if let Some(n) = count_before(rest, " test") {
                    self.totals[2] = self.totals[2].saturating_add(n);
                }
            }
            "SKIPPED" => {
                if let Some(n) = count_before(rest, " test")
                    && rest.contains("listed below")
                {
                    self.totals[4] = self.totals[4].saturating_add(n);
                }
            }
            "==========" => {
                // `1234 tests from 120 test suites ran. (456 ms total)`
                if let Some((tests, suites)) = rest.split_once(" from ")
                    && suites.contains(" ran.")
                    && let Some(n) = count_before(tests, " test")
                    && let Some(s) = count_before(suites, " test")
                {
                    self.binaries += 1;
                    self.totals[0] = self.totals[0].saturating_add(n);
                    self.totals[1] += s;
                } else if let Some(n) = rest
                    .strip_suffix(" test(s) run.")
                    .and_then(|n| n.parse::<u64>().ok())
                {
                    // cmocka's `51 test(s) run.`
                    self.cmocka = true;
                    self.binaries += 1;
                    self.totals[0] = self.totals[0].saturating_add(n);
                }
            }
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.binaries == 0 {
            return self.cut_short();
        }
        let [ran, suites, passed, failed, skipped, disabled] = self.totals;
        let mut line = format!(
            "tests: {} run, {} passed, {} failed",
            thousands(ran),
            thousands(passed),
            thousands(failed)
        );
        if skipped > 0 {
            line.push_str(&format!(", {} skipped", thousands(skipped)));
        }
        if disabled > 0 {
            line.push_str(&format!(", {} disabled", thousands(disabled)));
        }
        if self.cmocka {
            line.push_str(" (cmocka");
        } else {
            line.push_str(&format!(
                " (googletest: {}",
                plural(suites, "test suite", "test suites")
            ));
        }
        if self.binaries > 1 {
            line.push_str(&format!(", {} binaries", thousands(self.binaries)));
        }
        line.push(')');
        let shape = if self.cmocka { "cmocka" } else { "googletest" };
        let json = json!({
            "shape": shape,
            "binaries": self.binaries,
            "ran": ran,
            "suites": suites,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "disabled": disabled,
            "failed_lines": self.failed_lines,
        });
        let listed = self.failures.take_as("failed tests");
        let hint = if self.cmocka {
            "'^\\[ +(ERROR|LINE|FAILED) +\\] ' -A 2"
        } else {
            GTEST_HINT
        };
        Some(
            Fact::new(shape, vec![line], json)
                .failures(listed)
                .hint_if_failed(failed > 0, hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.running.as_ref().map_or(0, |(_, lines)| {
                lines.iter().map(|l| l.capacity() + 24).sum::<usize>()
            })
    }
}

impl Gtest {
    /// A run that ended before its totals (a test aborted the binary): the tests that failed
    /// before, as their `[  FAILED  ]` lines said, the totals said to be missing.
    fn cut_short(mut self) -> Option<Fact> {
        if self.failed_lines == 0 || self.cmocka {
            return None;
        }
        let line = format!(
            "tests: {} failed; no totals printed (googletest)",
            thousands(self.failed_lines)
        );
        let json = json!({
            "shape": "googletest",
            "binaries": 0,
            "failed_lines": self.failed_lines,
        });
        let listed = self.failures.take_as("failed tests");
        Some(
            Fact::new("googletest", vec![line], json)
                .failures(listed)
                .hint(GTEST_HINT),
        )
    }

    /// `  YOU HAVE 4 DISABLED TESTS`
    fn disabled(&mut self, text: &str) {
        if let Some(rest) = text.trim_start().strip_prefix("YOU HAVE ")
            && let Some(n) = count_before(rest, " DISABLED TEST")
        {
            self.totals[5] = self.totals[5].saturating_add(n);
        }
    }
}

/// A line of the running test: its first failure (`foo_test.cc:23: Failure`, or MSVC's
/// `foo_test.cc(23): error: …`) and the lines under it.
fn read_failure(number: u64, text: &str, at: &mut Option<u64>, lines: &mut Vec<String>) {
    let t = text.trim();
    let header = t.ends_with(": Failure") || t.contains("): error: ") || is_located(t);
    if at.is_none() {
        if header {
            *at = Some(number);
            lines.push(t.to_owned());
        }
        return;
    }
    // The first failure's detail is complete (an empty line marks it).
    if lines.last().is_some_and(String::is_empty) {
        return;
    }
    // The test's next failure, or the stack under this one (busted's `stack traceback:`).
    if header || t == "stack traceback:" {
        lines.push(String::new());
        return;
    }
    // `Expected equality of these values:` only announces the two values (and their `Which
    // is:`) that follow: room goes to those.
    // A value's `Which is: 42` goes with the expression it evaluates: one of the lines kept.
    if let Some(value) = t.strip_prefix("Which is: ")
        && lines.len() > 1
        && let Some(expression) = lines.last_mut()
    {
        expression.push_str(&format!(" · Which is: {value}"));
        return;
    }
    // A label alone (busted's `Passed in:`, `Expected:`) goes with the value under it.
    if let Some(label) = lines.last_mut().filter(|l| lines_len_ok(l) && is_label(l))
        && !t.is_empty()
    {
        label.push(' ');
        label.push_str(t);
        return;
    }
    if lines.len() < DETAIL_LINES && !t.is_empty() && t != "Expected equality of these values:" {
        lines.push(t.to_owned());
    }
}

/// A line kept that is not the failure's first (which a label never is).
fn lines_len_ok(line: &str) -> bool {
    !line.is_empty()
}

/// `Expected:`, `Passed in:`: a short label alone on its line.
fn is_label(line: &str) -> bool {
    line.strip_suffix(':').is_some_and(|l| {
        !l.is_empty() && l.len() <= 24 && l.bytes().all(|b| b.is_ascii_alphabetic() || b == b' ')
    })
}

/// `spec/a_spec.lua:63: Expected objects to be the same.`: a message after the place in a
/// file where it failed (busted's and other runners' output in GoogleTest's form).
fn is_located(t: &str) -> bool {
    let Some((path, rest)) = t.split_once(':') else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && rest[digits..].starts_with(": ")
        && !path.is_empty()
        && !path.contains(' ')
        && path.contains('.')
}

/// cmocka's `--- [   LINE   ] --- test/a.c:64: error: Failure!` → `test/a.c:64: error:
/// Failure!` (an `ERROR` line may hold a `LINE` one).
fn cmocka_message(rest: &str) -> &str {
    let mut m = rest.trim();
    loop {
        let before = m;
        m = m.strip_prefix("---").map_or(m, str::trim_start);
        if let Some((tag, after)) = tagged(m)
            && matches!(tag, "ERROR" | "LINE")
        {
            m = after.trim_start();
        }
        if m == before {
            return m;
        }
    }
}

/// `[  FAILED  ] Suite.Test (0 ms)` → (`FAILED`, `Suite.Test (0 ms)`).
fn tagged(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('[')?;
    let (tag, rest) = rest.split_once("] ")?;
    let tag = tag.trim();
    let known = matches!(
        tag,
        "RUN"
            | "OK"
            | "FAILED"
            | "PASSED"
            | "SKIPPED"
            | "=========="
            | "----------"
            | "DISABLED"
            | "ERROR"
            | "LINE"
    );
    known.then_some((tag, rest))
}

/// `32 tests, listed below:` with ` test` → 32.
fn count_before(text: &str, word: &str) -> Option<u64> {
    let (n, _) = text.split_once(word)?;
    n.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_counts() {
        assert_eq!(
            tagged("[  FAILED  ] FooTest.Bar (0 ms)"),
            Some(("FAILED", "FooTest.Bar (0 ms)"))
        );
        assert_eq!(
            tagged("[==========] 14 tests from 5 test suites ran. (0 ms total)"),
            Some((
                "==========",
                "14 tests from 5 test suites ran. (0 ms total)"
            ))
        );
        assert_eq!(tagged("[1] foo"), None);
        assert_eq!(count_before("32 tests, listed below:", " test"), Some(32));
        assert_eq!(count_before("1 test, listed below:", " test"), Some(1));
        assert_eq!(count_before("13 tests.", " test"), Some(13));
    }
}
