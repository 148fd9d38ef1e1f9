//! Catch2 (C++): each failing test case under a rule of dashes (`StringTools: flagValues`, its
//! sections indented under it), then each failed assertion (`tests/x.cpp:204: FAILED:`, the
//! expression, `with expansion:` and the values compared, or `due to unexpected exception with
//! message:` and the message); and the totals (`test cases:  74 |  70 passed | 4 failed`,
//! `assertions: 463 | 457 passed | 6 failed`, or `All tests passed (463 assertions in 74 test
//! cases)`). Totals of several binaries in one log are summed.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::thousands;

/// The rule above and below a test case's name is 79 dashes; shorter rules are someone else's.
const RULE: usize = 70;

/// Enough of a value spread over several lines for a line of detail (which is cut shorter).
const VALUES_CHARS: usize = 200;

#[derive(Debug, Default)]
pub(crate) struct Catch2 {
    /// Summed test cases and assertions: total, passed, failed, skipped; and how many totals.
    cases: [u64; 4],
    assertions: [u64; 4],
    runs: u64,
    failures: Failures,
    state: State,
    /// The test case being read: its name (with sections) and whether it was counted failed.
    name: String,
    failed: bool,
    /// Reading the detail of the test case's first failed assertion.
    detail: bool,
    /// Reading its values (after `with expansion:`), which span several lines when a value
    /// holds a newline; they are joined into one line of detail.
    expansion: Option<String>,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Outside,
    /// Between the rules: the test case's name and sections.
    Name,
    /// Inside a test case.
    Case,
}

impl Shape for Catch2 {
    fn line(&mut self, number: u64, text: &str) {
        if text.len() >= RULE && text.bytes().all(|b| b == b'-') {
            self.state = match self.state {
                State::Name => State::Case,
                _ => {
                    self.name.clear();
                    self.failed = false;
                    self.detail = false;
                    self.expansion = None;
                    State::Name
                }
            };
            return;
        }
        if text.len() >= RULE && text.bytes().all(|b| b == b'=') {
            self.state = State::Outside;
            return;
        }
        match self.state {
            State::Name => {
                let part = text.trim();
                if !part.is_empty() && self.name.len() < 300 {
                    if !self.name.is_empty() {
                        self.name.push_str(" / ");
                    }
                    self.name.push_str(part);
                }
            }
            State::Case => self.case_line(number, text),
            State::Outside => {
                if !matches!(text.as_bytes().first(), Some(b't' | b'a' | b'A')) {
                    return;
                }
                if let Some((which, counts)) = totals(text) {
                    if which == "test cases" {
                        self.runs += 1;
                        add(&mut self.cases, counts);
                    } else {
                        add(&mut self.assertions, counts);
                    }
                } else if let Some((assertions, cases)) = all_passed(text) {
                    self.runs += 1;
                    add(&mut self.cases, [cases, cases, 0, 0]);
                    add(&mut self.assertions, [assertions, assertions, 0, 0]);
                }
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.runs == 0 {
            return None;
        }
        Some(totals_fact(
            ("catch2", "catch2"),
            self.cases,
            self.assertions,
            self.runs,
            self.failures.take_as("failed test cases"),
            "': FAILED:$' -A 4",
        ))
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.name.capacity()
    }
}

impl Catch2 {
    fn case_line(&mut self, number: u64, text: &str) {
        if let Some(place) = text.strip_suffix(": FAILED:") {
            if !self.failed {
                self.failed = true;
                self.detail = true;
                self.failures.push(number, &self.name);
                if let Some(failure) = self.failures.current() {
                    failure.add_detail(&format!("at {}", file_name(place)));
                }
            } else {
                self.detail = false;
            }
            return;
        }
        if !self.detail {
            return;
        }
        let t = text.trim();
        if t.is_empty() {
            self.detail = false;
            if let Some(values) = self.expansion.take() {
                self.add_detail(&values);
            }
        } else if t == "with expansion:" {
            self.expansion = Some(String::new());
        } else if let Some(values) = &mut self.expansion {
            if values.len() < VALUES_CHARS {
                if !values.is_empty() {
                    values.push(' ');
                }
                values.push_str(t);
            }
        } else {
            self.add_detail(t);
        }
    }

    /// The expression, the values compared, or the exception and its message; `at` last.
    fn add_detail(&mut self, line: &str) {
        if let Some(failure) = self.failures.current() {
            let at = failure.detail.pop();
            failure.add_detail(line);
            failure.detail.extend(at);
        }
    }
}

/// The facts of a runner that counts test cases and assertions as Catch2 does, summed over
/// its runs (`shape` names the fact, `runner` the line): `tests: 74 test cases run, 70 passed,
/// 4 failed (catch2; assertions: 463, 6 failed)`, with how many runs when more than one; the
/// failed cases, and `hint` when one failed.
pub(super) fn totals_fact(
    (shape, runner): (&'static str, &str),
    cases: [u64; 4],
    assertions: [u64; 4],
    runs: u64,
    failures: Failures,
    hint: &str,
) -> Fact {
    let json = json!({
        "shape": shape,
        "runs": runs,
        "test_cases": {"total": cases[0], "passed": cases[1], "failed": cases[2], "skipped": cases[3]},
        "assertions": {"total": assertions[0], "failed": assertions[2]},
    });
    Fact::new(
        shape,
        vec![totals_line(runner, cases, assertions, runs)],
        json,
    )
    .failures(failures)
    .hint_if_failed(cases[2] > 0, hint)
}

fn totals_line(runner: &str, cases: [u64; 4], assertions: [u64; 4], runs: u64) -> String {
    let [cases, passed, failed, skipped] = cases;
    let mut line = format!(
        "tests: {} test cases run, {} passed, {} failed",
        thousands(cases),
        thousands(passed),
        thousands(failed)
    );
    if skipped > 0 {
        line.push_str(&format!(", {} skipped", thousands(skipped)));
    }
    line.push_str(&format!(
        " ({runner}; assertions: {}, {} failed",
        thousands(assertions[0]),
        thousands(assertions[2])
    ));
    if runs > 1 {
        line.push_str(&format!("; {} runs", thousands(runs)));
    }
    line.push(')');
    line
}

pub(super) fn add(sums: &mut [u64; 4], counts: [u64; 4]) {
    for (sum, n) in sums.iter_mut().zip(counts) {
        *sum = sum.saturating_add(n);
    }
}

/// `/home/dev/x/tests/HelpersTest.cpp:204` → `HelpersTest.cpp:204`.
pub(super) fn file_name(place: &str) -> &str {
    place.rsplit(['/', '\\']).next().unwrap_or(place)
}

/// `test cases:  74 |  70 passed | 4 failed` → (`test cases`, [74, 70, 4, 0]); the same for
/// `assertions:`. A run with nothing passed says `test cases: 1 | 1 failed`. doctest (C++)
/// writes them alike, ending its assertions' with a bar (`assertions: 895 | 889 passed | 6
/// failed |`).
pub(super) fn totals(text: &str) -> Option<(&str, [u64; 4])> {
    let (which, rest) = text.split_once(':')?;
    if which != "test cases" && which != "assertions" {
        return None;
    }
    let mut parts = rest.split('|');
    let mut counts = [0u64; 4];
    counts[0] = parts.next()?.trim().parse().ok()?;
    for part in parts.filter(|p| !p.trim().is_empty()) {
        let (n, word) = part.trim().split_once(' ')?;
        let slot = match word {
            "passed" => 1,
            "failed" => 2,
            "skipped" => 3,
            // `2 failed as expected`: a test that must fail did.
            "failed as expected" => 1,
            _ => return None,
        };
        let n: u64 = n.parse().ok()?;
        counts[slot] = counts[slot].saturating_add(n);
    }
    Some((which, counts))
}

/// `All tests passed (463 assertions in 74 test cases)` → (463, 74).
fn all_passed(text: &str) -> Option<(u64, u64)> {
    let rest = text.strip_prefix("All tests passed (")?.strip_suffix(')')?;
    let (assertions, cases) = rest.split_once(" in ")?;
    let number = |s: &str| s.split(' ').next()?.parse().ok();
    Some((number(assertions)?, number(cases)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catch2_totals() {
        assert_eq!(
            totals("test cases:  74 |  70 passed | 4 failed"),
            Some(("test cases", [74, 70, 4, 0]))
        );
        assert_eq!(
            totals("assertions: 463 | 457 passed | 6 failed"),
            Some(("assertions", [463, 457, 6, 0]))
        );
        assert_eq!(
            totals("test cases: 1 | 1 failed"),
            Some(("test cases", [1, 0, 1, 0]))
        );
        assert_eq!(totals("test cases: many"), None);
        assert_eq!(
            totals("assertions: 895 | 889 passed | 6 failed |"),
            Some(("assertions", [895, 889, 6, 0]))
        );
        assert_eq!(
            all_passed("All tests passed (463 assertions in 74 test cases)"),
            Some((463, 74))
        );
        assert_eq!(
            all_passed("All tests passed (1 assertion in 1 test case)"),
            Some((1, 1))
        );
    }
}
