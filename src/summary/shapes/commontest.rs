//! Erlang's Common Test, as `ct_run` prints it to the console and as `rebar3 ct` does.
//!
//! `ct_run` frames each failure between rules of `- - -`: the function it failed in and the
//! line (`recon_SUITE:udp failed on line 235`, or a fun's name,
//! `recon_lib:'-scheduler_usage_diff/2-fun-0-' failed on line 234`), then `Reason:
//! {badmatch,false}`; then `Testing dev.recon: *** FAILED test case 15 of 35 ***`, and at the
//! end `Testing dev.recon: TEST COMPLETE, 30 ok, 4 failed, 1 skipped of 35 test cases` (one such
//! line per test run of a spec).
//!
//! `rebar3 ct` prints a dot per passing case and for each other one `%%% recon_SUITE ==> udp:
//! FAILED` with its reason on the next `%%% recon_SUITE ==> {badmatch,false}`; then its totals,
//! `Failed 4 tests. Skipped 1 (1, 0) tests. Passed 30 tests.` or `All 35 tests passed.`.
//!
//! Stated, once a run's totals are read: the totals, and each failed case with where it failed
//! and why.

use serde_json::json;

use super::eslint::is_number;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::cut;

#[derive(Debug, Default)]
pub(crate) struct CommonTest {
    failures: Failures,
    /// Summed over the runs: ok, failed, skipped, and the cases run.
    totals: [u64; 4],
    /// Which of ct_run's and rebar3's totals were read.
    ct_run: bool,
    rebar3: bool,
    /// The line after a failure's place or a rebar3 `FAILED` line: its reason.
    reason_next: bool,
}

impl Shape for CommonTest {
    fn line(&mut self, number: u64, text: &str) {
        if std::mem::take(&mut self.reason_next) {
            let reason = text
                .strip_prefix("Reason: ")
                .map(|r| format!("Reason: {}", r.trim()))
                .or_else(|| rebar3_line(text).map(|(_, rest)| rest.trim().to_owned()));
            if let (Some(reason), Some(f)) = (reason, self.failures.current()) {
                f.add_detail(&cut(&reason, 300));
            }
            return;
        }
        if text.ends_with(|c: char| c.is_ascii_digit())
            && let Some((place, line)) = text.rsplit_once(" failed on line ")
            && !place.contains(' ')
            && is_number(line)
        {
            self.failures.push(number, place);
            if let Some(f) = self.failures.current() {
                f.add_detail(&format!("failed on line {line}"));
            }
            self.reason_next = true;
            return;
        }
        if let Some((suite, rest)) = rebar3_line(text) {
            if let Some(case) = rest.strip_suffix(": FAILED") {
                self.failures.push(number, &format!("{suite}:{case}"));
                self.reason_next = true;
            }
            return;
        }
        // `Testing dev.recon: TEST COMPLETE, …` (its search made only on such lines).
        if let Some(counts) = text
            .strip_prefix("Testing ")
            .and_then(|t| t.split_once(": TEST COMPLETE, "))
            .map(|(_, counts)| counts)
            .or_else(|| text.strip_prefix("TEST COMPLETE, "))
            && let Some(counts) = ct_run_totals(counts)
        {
            self.add(counts);
            self.ct_run = true;
        } else if let Some(counts) = rebar3_totals(text) {
            self.add(counts);
            self.rebar3 = true;
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        if !self.ct_run && !self.rebar3 {
            return None;
        }
        let [ok, failed, skipped, run] = self.totals;
        let runner = if self.ct_run {
            "Common Test"
        } else {
            "rebar3 ct"
        };
        let line =
            super::names::test_counts(run, Some(ok), failed, None, &[(skipped, "skipped")], runner);
        let json = json!({
            "shape": "common_test",
            "run": run,
            "passed": ok,
            "failed": failed,
            "skipped": skipped,
        });
        let hint = if self.ct_run {
            "' failed on line |^Reason: '"
        } else {
            "'^%%% .* ==> ' -A 1"
        };
        let mut listed = self.failures;
        Some(
            Fact::new("common_test", vec![line], json)
                .failures(listed.take_as("failed test cases"))
                .hint_if_failed(failed > 0, hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
    }
}

impl CommonTest {
    /// A run's totals, summed with the others'.
    fn add(&mut self, counts: [u64; 4]) {
        for (sum, n) in self.totals.iter_mut().zip(counts) {
            *sum += n;
        }
    }
}

/// `%%% recon_SUITE ==> udp: FAILED`: the suite and what follows its arrow.
fn rebar3_line(text: &str) -> Option<(&str, &str)> {
    text.strip_prefix("%%% ")?.split_once(" ==> ")
}

/// `30 ok, 4 failed, 1 skipped of 35 test cases`: ok, failed, skipped and run. Skips may be
/// split as `1 skipped (1 user, 0 auto)`; a count ct_run leaves out is zero.
fn ct_run_totals(counts: &str) -> Option<[u64; 4]> {
    let (counts, run) = counts.rsplit_once(" of ")?;
    let run = run.strip_suffix(" test cases")?.trim().parse().ok()?;
    let mut totals = [0, 0, 0, run];
    for count in counts.split(", ") {
        let (n, word) = count.split_once(' ')?;
        let n: u64 = n.parse().ok()?;
        let word = word.split(" (").next().unwrap_or(word);
        match word {
            "ok" => totals[0] = n,
            "failed" => totals[1] = n,
            "skipped" => totals[2] = n,
            _ => {}
        }
    }
    Some(totals)
}

/// rebar3's `Failed 4 tests. Skipped 1 (1, 0) tests. Passed 30 tests.` or `All 35 tests
/// passed.`: ok, failed, skipped and run.
fn rebar3_totals(text: &str) -> Option<[u64; 4]> {
    if let Some(passed) = text
        .strip_prefix("All ")
        .and_then(|t| t.strip_suffix(" tests passed."))
    {
        let passed = passed.parse().ok()?;
        return Some([passed, 0, 0, passed]);
    }
    if !text.ends_with(" tests. ") && !text.ends_with(" tests.") {
        return None;
    }
    let mut totals = [0; 4];
    for sentence in text
        .split(" tests.")
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        let (word, n) = sentence.split_once(' ')?;
        let n: u64 = n.split(' ').next()?.parse().ok()?;
        match word {
            "Passed" => totals[0] = n,
            "Failed" => totals[1] = n,
            "Skipped" => totals[2] = n,
            _ => return None,
        }
    }
    totals[3] = totals[0] + totals[1] + totals[2];
    (totals[3] > 0).then_some(totals)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ct_run_failures_are_read_with_their_line_and_reason() {
        let text = "- - - - - - - - - - - - - - - - - - - -\n\
                    recon_lib:'-scheduler_usage_diff/2-fun-0-' failed on line 234\n\
                    Reason: {badarith,[{recon_lib,...},{...}|...]}\n\
                    - - - - - - - - - - - - - - - - - - - -\n\
                    \n\
                    Testing dev.recon: *** FAILED test case 31 of 35 ***\n\
                    Testing dev.recon: TEST COMPLETE, 30 ok, 4 failed, 1 skipped of 35 test cases\n";
        let fact = super::super::read_lines::<CommonTest>(text).expect("a ct_run run");
        assert_eq!(
            fact.lines,
            ["tests: 35 run, 30 passed, 4 failed, 1 skipped (Common Test)"]
        );
        let failed: Vec<_> = fact.failures[0].iter().collect();
        assert_eq!(failed[0].name, "recon_lib:'-scheduler_usage_diff/2-fun-0-'");
        assert_eq!(
            failed[0].detail,
            [
                "failed on line 234",
                "Reason: {badarith,[{recon_lib,...},{...}|...]}"
            ]
        );
    }

    #[test]
    fn rebar3_failures_are_read_with_their_reason() {
        let text = "%%% rebar_as_SUITE ==> as_multiple_profiles: FAILED\n\
                    %%% rebar_as_SUITE ==> {thrown,fake}\n\
                    ...\n\
                    Failed 1 tests. Skipped 2 (2, 0) tests. Passed 10 tests. \n\
                    Results written to \"/p/_build/test/logs/index.html\".\n";
        let fact = super::super::read_lines::<CommonTest>(text).expect("a rebar3 ct run");
        assert_eq!(
            fact.lines,
            ["tests: 13 run, 10 passed, 1 failed, 2 skipped (rebar3 ct)"]
        );
        let failed: Vec<_> = fact.failures[0].iter().collect();
        assert_eq!(failed[0].name, "rebar_as_SUITE:as_multiple_profiles");
        assert_eq!(failed[0].detail, ["{thrown,fake}"]);
        assert_eq!(rebar3_totals("All 35 tests passed."), Some([35, 0, 0, 35]));
    }

    #[test]
    fn without_totals_it_is_no_common_test_run() {
        let text = "x failed on line 3\nReason: y\nOther tests.\n";
        assert!(super::super::read_lines::<CommonTest>(text).is_none());
    }
}
