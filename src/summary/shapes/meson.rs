//! `meson test`: a line per test (`2/8 CapRTL_implicit   FAIL   0.77s   exit status 1`), with
//! `--print-errorlogs` a failed test's command (`>>> …`) and its log between scissor rules
//! (`――― ✀ ―――`); the failures listed again under `Summary of Failures:`, then the counts,
//! one per line (`Ok:  4`, `Fail:  4`, `Skipped:  0`, …), by which the run is recognised.
//! Each failed test is listed with how it ended and, from its log, the first line that says
//! what failed and the last line.

use serde_json::json;

use super::crash::is_exception_line;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// How long a test's name and a kept log line may be.
const NAME_CHARS: usize = 160;
const LOG_CHARS: usize = 1024;

/// The counts meson closes with, in its order.
const COUNTS: [&str; 6] = [
    "Ok:",
    "Expected Fail:",
    "Fail:",
    "Unexpected Pass:",
    "Skipped:",
    "Timeout:",
];

#[derive(Debug, Default)]
pub(crate) struct Meson {
    failures: Failures,
    counts: [u64; 6],
    /// Which of the counts were read.
    counted: u8,
    /// Under `Summary of Failures:`, whose lines are not counted again.
    in_recap: bool,
    /// A failed test's log being read: its first telling line and its last line.
    log: Option<Log>,
}

#[derive(Debug, Default)]
struct Log {
    telling: Option<String>,
    last: Option<String>,
}

impl Shape for Meson {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((i, n)) = count_line(text) {
            self.counts[i] = self.counts[i].saturating_add(n);
            self.counted |= 1 << i;
            self.in_recap = false;
            return;
        }
        if text == "Summary of Failures:" {
            self.in_recap = true;
            return;
        }
        if text.starts_with('―') && text.contains('✀') {
            self.log = Some(Log::default());
            return;
        }
        if let Some(log) = &mut self.log {
            if text.starts_with('―') {
                self.end_log();
            } else {
                let t = text.trim();
                if !t.is_empty() {
                    if log.telling.is_none() && is_telling(t) {
                        log.telling = Some(cut(t, LOG_CHARS));
                    }
                    log.last = Some(cut(t, LOG_CHARS));
                }
            }
            return;
        }
        if self.in_recap {
            return;
        }
        if let Some((name, how)) = failed_test(text) {
            self.failures.push(number, &cut(name, NAME_CHARS));
            if let (Some(f), false) = (self.failures.current(), how.is_empty()) {
                f.add_detail(how);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_log();
        // All six counts, or it is something else that has an `Ok:` line.
        if self.counted != (1 << COUNTS.len()) - 1 {
            return None;
        }
        let [ok, expected_fail, fail, unexpected_pass, skipped, timeout] = self.counts;
        let total = self
            .counts
            .iter()
            .fold(0u64, |sum, n| sum.saturating_add(*n));
        let mut line = format!(
            "meson test: {}, {} ok, {} failed",
            plural(total, "test", "tests"),
            thousands(ok),
            thousands(fail)
        );
        for (n, word) in [
            (timeout, "timed out"),
            (unexpected_pass, "passed unexpectedly"),
            (expected_fail, "failed as expected"),
            (skipped, "skipped"),
        ] {
            if n > 0 {
                line.push_str(&format!(", {} {word}", thousands(n)));
            }
        }
        let json = json!({
            "shape": "meson test",
            "ok": ok,
            "expected_fail": expected_fail,
            "fail": fail,
            "unexpected_pass": unexpected_pass,
            "skipped": skipped,
            "timeout": timeout,
        });
        let failing = fail > 0 || timeout > 0 || unexpected_pass > 0;
        Some(
            Fact::new("meson test", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failing, "' (FAIL|TIMEOUT|UNEXPECTEDPASS|ERROR) ' -A 12"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.log.as_ref().map_or(0, |l| {
                l.telling.as_ref().map_or(0, String::capacity)
                    + l.last.as_ref().map_or(0, String::capacity)
            })
    }
}

impl Meson {
    /// The log read is complete: its telling line and its last one go to the failure.
    fn end_log(&mut self) {
        let Some(log) = self.log.take() else {
            return;
        };
        if let Some(f) = self.failures.current() {
            if let Some(telling) = &log.telling {
                f.add_detail(telling);
            }
            if let Some(last) = &log.last
                && log.telling.as_ref() != Some(last)
            {
                f.add_detail(last);
            }
        }
    }
}

/// `2/8 CapRTL_implicit   FAIL   0.77s   exit status 1` → (`CapRTL_implicit`,
/// `exit status 1`); also `TIMEOUT`, `UNEXPECTEDPASS` and `ERROR`.
fn failed_test(text: &str) -> Option<(&str, &str)> {
    // `2/8 `, read byte by byte: most lines fail at once.
    let t = text.trim_start();
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let done = digits(t);
    let rest = t[done..].strip_prefix('/').filter(|_| done > 0)?;
    let of = digits(rest);
    let rest = rest[of..].strip_prefix(' ').filter(|_| of > 0)?;
    // The name may hold spaces (`fribidi:suite / name`): the status is the word before the
    // time (`0.77s`).
    let words_vec: Vec<&str> = rest.split_whitespace().take(64).collect();
    let at = words_vec
        .iter()
        .position(|w| matches!(*w, "FAIL" | "TIMEOUT" | "UNEXPECTEDPASS" | "ERROR"))?;
    let time = words_vec.get(at + 1)?;
    if !time.ends_with('s') || time.trim_end_matches('s').parse::<f64>().is_err() {
        return None;
    }
    let name_end = rest.find(&format!(" {}", words_vec[at]))?;
    let name = rest[..name_end].trim();
    let after_time = rest[name_end..]
        .split_once(time)
        .map_or("", |(_, r)| r.trim());
    Some((name, after_time))
}

/// `Fail:               4   ` → (2, 4).
fn count_line(text: &str) -> Option<(usize, u64)> {
    let i = COUNTS.iter().position(|c| text.starts_with(c))?;
    let n = text[COUNTS[i].len()..].trim();
    Some((i, n.parse().ok()?))
}

/// A line of a log that says what failed: an exception, an error, a failure.
fn is_telling(t: &str) -> bool {
    let opens_with = |w: &str| t.get(..w.len()).is_some_and(|s| s.eq_ignore_ascii_case(w));
    ["error", "fail", "assert", "fatal", "panic"]
        .iter()
        .any(|w| opens_with(w))
        || is_exception_line(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_results_and_counts() {
        assert_eq!(
            failed_test("2/8 CapRTL_implicit   FAIL            0.77s   exit status 1"),
            Some(("CapRTL_implicit", "exit status 1"))
        );
        assert_eq!(
            failed_test(
                " 3/12 proj:unit / parser   TIMEOUT   30.01s   killed by signal 15 SIGTERM"
            ),
            Some(("proj:unit / parser", "killed by signal 15 SIGTERM"))
        );
        assert_eq!(failed_test("1/8 CapRTL_explicit   OK   0.55s"), None);
        assert_eq!(failed_test("1/2 of the FAIL cases"), None);
        assert_eq!(count_line("Fail:               4   "), Some((2, 4)));
        assert_eq!(count_line("Ok:                 4   "), Some((0, 4)));
        assert_eq!(count_line("Okay: 4"), None);
        assert!(is_telling(
            "Exception: fribidi --test output does not match"
        ));
        assert!(is_telling("failure on line 102"));
        assert!(!is_telling("input is: 062A 0031"));
    }
}
