//! doctest (C++), its console reporter: each failing test case under a rule of `=`s, its place
//! (`test/test_choices.cpp:26:`), `TEST SUITE: choices`, `TEST CASE:  Parse argument …` and
//! its subcases indented under it; then each failed assertion (`test/test_choices.cpp:35:
//! FATAL ERROR: REQUIRE_NOTHROW( … ) THREW exception: "…"`, `…:49: ERROR: CHECK( a == b ) is
//! NOT correct!` with `  values: CHECK( 1 == 2 )` under it); and the totals (`[doctest] test
//! cases: 246 | 240 passed | 6 failed | 1 skipped`, `[doctest] assertions: 895 | 889 passed |
//! 6 failed |`). Totals of several binaries in one log are summed.

use super::catch2::{add, file_name, totals, totals_fact};
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::cut;

/// doctest's rule is 79 `=`s; shorter rules are someone else's.
const RULE: usize = 70;
/// How much of an assertion's line is kept (its expression may be long).
const ASSERTION_CHARS: usize = 300;

#[derive(Debug, Default)]
pub(crate) struct CppDoctest {
    /// Summed test cases and assertions: total, passed, failed, skipped; and how many totals.
    cases: [u64; 4],
    assertions: [u64; 4],
    runs: u64,
    failures: Failures,
    state: State,
    /// The test case being read: its name, with its subcases after it.
    name: String,
    /// Its first failed assertion was read (the rest are not detailed), and its `values:`
    /// line may follow.
    detailed: bool,
    values_next: bool,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Outside,
    /// After a rule: the test case's place, suite, name and subcases, until a blank line.
    Header,
    /// Its assertions.
    Case,
}

impl Shape for CppDoctest {
    fn line(&mut self, number: u64, text: &str) {
        if text.len() >= RULE && text.bytes().all(|b| b == b'=') {
            self.state = State::Header;
            self.name.clear();
            self.detailed = false;
            self.values_next = false;
            return;
        }
        if let Some(rest) = text.strip_prefix("[doctest] ") {
            self.state = State::Outside;
            match totals(rest) {
                Some(("test cases", counts)) => {
                    add(&mut self.cases, counts);
                    self.runs += 1;
                }
                Some((_, counts)) => add(&mut self.assertions, counts),
                None => {}
            }
            return;
        }
        match self.state {
            State::Outside => {}
            State::Header => {
                if let Some(name) = text.strip_prefix("TEST CASE:") {
                    self.name = name.trim().to_owned();
                } else if text.is_empty() {
                    self.state = State::Case;
                } else if !self.name.is_empty() && text.starts_with("  ") {
                    // A subcase: `  when the input is empty`.
                    self.name.push_str(" / ");
                    self.name.push_str(text.trim());
                }
            }
            State::Case => self.case_line(number, text),
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.runs == 0 {
            return None;
        }
        Some(totals_fact(
            ("doctest (C++)", "doctest"),
            self.cases,
            self.assertions,
            self.runs,
            self.failures.take_as("failed test cases"),
            "'^TEST CASE:|: (FATAL )?ERROR: ' -A 1",
        ))
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.name.capacity() + self.failures.approx_heap()
    }
}

impl CppDoctest {
    /// A line of a failing test case: its first failed assertion (and the values under it)
    /// details it.
    fn case_line(&mut self, number: u64, text: &str) {
        if std::mem::take(&mut self.values_next)
            && let Some(values) = text.trim_start().strip_prefix("values: ")
        {
            if let Some(f) = self.failures.current() {
                f.add_detail(&format!("values: {}", cut(values, ASSERTION_CHARS)));
            }
            return;
        }
        if self.detailed || self.name.is_empty() {
            return;
        }
        let Some(at) = [": ERROR: ", ": FATAL ERROR: "]
            .iter()
            .find_map(|m| text.find(m))
        else {
            return;
        };
        self.detailed = true;
        self.values_next = true;
        // From the file's name on: its directory says nothing the case's place did not.
        let said = format!("{}{}", file_name(&text[..at]), &text[at..]);
        self.failures.push(number, &self.name);
        if let Some(f) = self.failures.current() {
            f.add_detail(&cut(&said, ASSERTION_CHARS));
        }
    }
}
