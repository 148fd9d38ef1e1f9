//! cargo-nextest: a status line per test (`        FAIL [   0.071s] ( 18/192) base64
//! decode::tests::x`, `PASS`, `SIGABRT`, `TIMEOUT`, `LEAK`…), the failing tests' captured output
//! under them (`  stderr ───`, or `--- STDERR: …` in older versions), and the total
//! (`     Summary [  20.751s] 192 tests run: 151 passed, 41 failed, 0 skipped`), after which the
//! failures are listed again. A failure's detail is its panic: where, and the message with
//! `left:`/`right:`.

use serde_json::json;

use super::names::{Counts, Failures};
use super::{Fact, Shape};
use crate::format::thousands;

/// Statuses of a test that did not pass, counted by name; more are counted as `other`.
const STATUSES_KEPT: usize = 12;

#[derive(Debug, Default)]
pub(crate) struct Nextest {
    passed_lines: u64,
    /// Status lines of tests that did not pass (`FAIL`, `SIGABRT`…), before the Summary.
    statuses: Counts,
    /// The Summary's counts: tests run (and of how many), then each `count word` in order.
    summary: Option<Summary>,
    failures: Failures,
    /// Reading a failing test's output: whether its panic was found.
    reading: Option<bool>,
}

#[derive(Debug)]
struct Summary {
    run: u64,
    of: Option<u64>,
    counts: Vec<(u64, String)>,
}

impl Shape for Nextest {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(summary) = summary_line(text) {
            self.summary = Some(summary);
            self.reading = None;
            return;
        }
        if let Some((status, name)) = status_line(text) {
            self.reading = None;
            // After the Summary, the failures are listed again.
            if self.summary.is_some() {
                return;
            }
            if status == "PASS" || status.ends_with(" PASS") {
                self.passed_lines += 1;
                return;
            }
            if matches!(status, "START" | "SLOW" | "RETRY" | "SKIP") {
                return;
            }
            self.statuses.add(status, STATUSES_KEPT);
            self.failures.push(number, name);
            if let Some(failure) = self.failures.current() {
                // The test's binary and module: `base64 engine::tests` of
                // `base64 engine::tests::decode_doesnt_write_extra_bytes::case_1`.
                failure.group = failure.name.rfind("::");
                if status != "FAIL" {
                    failure.add_detail(status);
                }
            }
            self.reading = Some(false);
            return;
        }
        if let Some(panicked) = self.reading {
            self.detail(number, text.trim(), panicked);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let summary = self.summary.as_ref()?;
        let mut line = format!("tests: {} run", thousands(summary.run));
        if let Some(of) = summary.of {
            line.push_str(&format!(" of {}", thousands(of)));
        }
        for (n, word) in &summary.counts {
            line.push_str(&format!(", {} {word}", thousands(*n)));
        }
        line.push_str(" (nextest)");
        let abnormal = self.statuses.render(|s| s != "FAIL");
        if !abnormal.is_empty() {
            line.push_str(&format!(
                "; not by a failed assertion: {}",
                abnormal.join(" · ")
            ));
        }
        let failed = self.statuses.total();
        let json = json!({
            "shape": "nextest",
            "run": summary.run,
            "of": summary.of,
            "counts": summary.counts.iter().map(|(n, w)| json!({"count": n, "what": w})).collect::<Vec<_>>(),
            "passed_lines": self.passed_lines,
            "statuses": self.statuses.json("status"),
        });
        let listed = self.failures.take_as("failed tests");
        Some(
            Fact::new("nextest", vec![line], json)
                .failures(listed)
                .hint_if_failed(
                    failed > 0,
                    "'^ +(FAIL|SIG[A-Z]+|TIMEOUT) \\[|panicked at' -A 3",
                ),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.statuses.approx_heap()
            + self.summary.as_ref().map_or(0, |s| {
                s.counts
                    .iter()
                    .map(|(_, w)| w.capacity() + 32)
                    .sum::<usize>()
            })
    }
}

impl Nextest {
    /// A line of a failing test's output: its panic (`panicked at src/tests.rs:44:5:`) and
    /// the message under it, up to the backtrace.
    fn detail(&mut self, number: u64, t: &str, panicked: bool) {
        let Some(failure) = self.failures.current() else {
            return;
        };
        if !panicked {
            if let Some(at) = t.find(" panicked at ")
                && t.starts_with("thread '")
            {
                failure.line = number;
                failure.add_detail(&t[at + 1..]);
                self.reading = Some(true);
            } else if t.starts_with("thread '") && t.ends_with(" has overflowed its stack") {
                // No panic: the test's thread overflowed its stack and the process aborted
                // (`fatal runtime error: stack overflow, aborting` follows, said by this).
                failure.line = number;
                failure.add_detail(t);
            }
            return;
        }
        if t.is_empty() || t.starts_with("stack backtrace:") || t.starts_with("note: ") {
            self.reading = None;
            return;
        }
        failure.add_detail(t);
    }
}

/// `        FAIL [   0.071s] ( 18/192) base64 decode::tests::x` → (`FAIL`, `base64
/// decode::tests::x`); also without the counter, and `TRY 2 FAIL`.
fn status_line(text: &str) -> Option<(&str, &str)> {
    let t = text.trim_start();
    if t.len() == text.len() {
        return None;
    }
    // The status: capitals (`FAIL`, `SIGABRT`, `TRY 2 FAIL`), then ` [`. Read byte by byte,
    // so that the many indented lines that are not nextest's cost a byte or two.
    if !t.as_bytes().first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    let words = t
        .bytes()
        .take_while(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' ' || b == b'-')
        .count();
    let rest = t[words..].strip_prefix('[')?;
    let status = t[..words].strip_suffix(' ')?.trim();
    if status.is_empty() {
        return None;
    }
    // `   0.071s] ( 18/192) name` or `> 60.000s] name`
    let (time, rest) = rest.split_once("] ")?;
    if !time.trim_end().ends_with('s') {
        return None;
    }
    let rest = rest.trim_start();
    let name = match rest.strip_prefix('(') {
        Some(counted) => counted.split_once(") ")?.1,
        None => rest,
    };
    (!name.is_empty()).then_some((status, name.trim_end()))
}

/// `     Summary [  20.751s] 192 tests run: 151 passed, 41 failed, 0 skipped`; also
/// `12/192 tests run: …` and counts with notes (`150 passed (1 slow, 2 flaky)`).
fn summary_line(text: &str) -> Option<Summary> {
    let rest = text.trim_start().strip_prefix("Summary [")?;
    let rest = rest.split_once("] ")?.1;
    let (run, counts) = rest.split_once(" run: ")?;
    let run = run
        .strip_suffix(" tests")
        .or_else(|| run.strip_suffix(" test"))?;
    let (run, of) = match run.split_once('/') {
        Some((run, of)) => (run.parse().ok()?, Some(of.parse().ok()?)),
        None => (run.parse().ok()?, None),
    };
    let mut out = Vec::new();
    // Split at commas outside parentheses: `150 passed (1 slow, 2 flaky), 2 failed`.
    let mut depth = 0;
    let mut start = 0;
    let bytes = counts.as_bytes();
    for i in 0..=bytes.len() {
        let end = i == bytes.len();
        if !end {
            match bytes[i] {
                b'(' => depth += 1,
                b')' => depth -= 1,
                _ => {}
            }
        }
        if end || (bytes[i] == b',' && depth == 0) {
            let part = counts[start..i].trim();
            let (n, word) = part.split_once(' ')?;
            out.push((n.parse().ok()?, word.to_owned()));
            start = i + 1;
        }
    }
    Some(Summary {
        run,
        of,
        counts: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_summary_lines() {
        assert_eq!(
            status_line("        FAIL [   0.071s] ( 18/192) base64 decode::tests::x"),
            Some(("FAIL", "base64 decode::tests::x"))
        );
        assert_eq!(
            status_line("     SIGABRT [   0.069s] (156/192) base64 write::t::every"),
            Some(("SIGABRT", "base64 write::t::every"))
        );
        assert_eq!(
            status_line("        PASS [   0.004s] base64 alphabet::tests::same"),
            Some(("PASS", "base64 alphabet::tests::same"))
        );
        assert_eq!(
            status_line("   TRY 2 FAIL [   0.004s] (3/9) crate t::x"),
            Some(("TRY 2 FAIL", "crate t::x"))
        );
        assert_eq!(status_line("FAIL [ 0.1s] x"), None);
        assert_eq!(status_line("    note: [1] x"), None);
        let s = summary_line(
            "     Summary [  20.751s] 192 tests run: 151 passed, 41 failed, 0 skipped",
        )
        .unwrap();
        assert_eq!((s.run, s.of), (192, None));
        assert_eq!(
            s.counts,
            [
                (151, "passed".to_owned()),
                (41, "failed".to_owned()),
                (0, "skipped".to_owned())
            ]
        );
        let s = summary_line(
            "     Summary [   0.5s] 12/192 tests run: 10 passed (1 slow, 2 flaky), 2 failed, 0 skipped",
        )
        .unwrap();
        assert_eq!((s.run, s.of), (12, Some(192)));
        assert_eq!(s.counts[0], (10, "passed (1 slow, 2 flaky)".to_owned()));
        assert!(summary_line("Summary of changes: 3 files").is_none());
    }
}
