//! uvu's report: a line per suite with a mark per test, then each failure as a block headed
//! `FAIL  Suite  "test"`, its assertion's message (node's says the values over lines, read as
//! one), uvu's `++expected (Expected)` and `--actual (Actual)` lines and the stack, whose first frame outside `node_modules` is where
//! it failed (a helper of the test file, or the test itself) and the last of that run of frames
//! the test's own line; it closes with `Total:`, `Passed:` and `Skipped:` counts. A failure is
//! named `Suite > test`.

use serde_json::json;

use super::names::Failures;
use super::tap::frame_place;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

#[derive(Debug, Default)]
pub(crate) struct Uvu {
    failures: Failures,
    /// A failure's block is being read.
    in_block: bool,
    /// The stack's first frame in the project's files, the last of the frames in them right
    /// after it (the test's own, which called a helper), and whether that run goes on; none
    /// until the first is read.
    frames: Option<(String, String, bool)>,
    /// The lines of the assertion's message after its first, while they go on.
    body: Option<String>,
    /// The message said the values: the `(Expected)` lines say them again.
    said_values: bool,
    /// `Total:`, `Passed:`, `Skipped:`.
    counts: [Option<u64>; 3],
    /// A line only uvu prints was seen (a suite's `(2 / 3)` or a `FAIL` heading): its
    /// counts are words many runners print.
    seen: bool,
}

const COUNTS: [&str; 3] = ["Total:", "Passed:", "Skipped:"];

/// How much of a message's values is kept.
const BODY_CHARS: usize = 160;

impl Shape for Uvu {
    fn line(&mut self, number: u64, text: &str) {
        let t = text.trim();
        if let Some((suite, test)) = fail_heading(t) {
            self.end_block();
            let name = if suite.is_empty() {
                test.to_owned()
            } else {
                format!("{suite} > {test}")
            };
            self.failures.push_said(number, &name, t);
            self.in_block = true;
            self.seen = true;
            return;
        }
        if !self.seen && is_suite_line(t) {
            self.seen = true;
        }
        if let Some(i) = COUNTS.iter().position(|c| t.starts_with(c)) {
            self.counts[i] = t[COUNTS[i].len()..].trim().parse().ok();
            self.end_block();
            self.in_block = false;
            return;
        }
        if !self.in_block {
            return;
        }
        if let Some(frame) = t.strip_prefix("at ") {
            match (frame_place(frame), &mut self.frames) {
                (Some(place), None) => {
                    self.end_body();
                    if let Some(f) = self.failures.current() {
                        f.add_detail(&format!("at {place}"));
                    }
                    self.frames = Some((place.to_owned(), place.to_owned(), true));
                }
                (Some(place), Some((_, last, true))) => *last = place.to_owned(),
                (None, Some((.., run))) => *run = false,
                _ => {}
            }
            return;
        }
        if self.frames.is_some() || t.is_empty() {
            return;
        }
        // uvu's diff of the values (`Actual:`, `--··"a":·2,`) after them: said already.
        if t == "Actual:" || t == "Expected:" {
            self.end_body();
            return;
        }
        // `++/foo/gi    (Expected)`, `--/foo/gi    (Actual)`: the values compared, with which
        // is which, without uvu's alignment (`--                        {}`).
        let value = ["(Expected)", "(Actual)"]
            .iter()
            .find_map(|label| Some((t.strip_suffix(label)?.trim_end(), label)));
        if let Some((value, label)) = value {
            let (mark, value) = ["++", "--"]
                .iter()
                .find_map(|m| Some((*m, value.strip_prefix(m)?.trim_start())))
                .unwrap_or(("", value));
            let value = format!("{mark}{value} {label}");
            self.end_body();
            if self.said_values {
                return;
            }
            if let Some(f) = self.failures.current() {
                f.add_essential_detail(&value);
            }
            return;
        }
        let Some(f) = self.failures.current() else {
            return;
        };
        if f.detail.is_empty() {
            // The assertion's message, first; node's message goes on over lines (`{`,
            // `a: 2,`, `}`, `should loosely deep-equal`, …) until the assertion's name.
            f.add_detail(t);
            if t.ends_with(':') {
                self.body = Some(String::new());
            }
        } else if let Some(body) = &mut self.body {
            let (line, last) = match t.rsplit_once("  (") {
                Some((line, name)) if name.ends_with(')') && !name.contains(' ') => (line, true),
                _ => (t, false),
            };
            if body.len() < BODY_CHARS {
                if !body.is_empty() {
                    body.push(' ');
                }
                body.push_str(line.trim());
            }
            if last {
                self.end_body();
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        let [Some(total), Some(passed)] = [self.counts[0], self.counts[1]] else {
            return None;
        };
        if !self.seen {
            return None;
        }
        let skipped = self.counts[2].unwrap_or(0);
        let failed = total.saturating_sub(passed + skipped);
        let line = format!(
            "tests: {} run, {} passed, {} failed, {} skipped (uvu)",
            thousands(total),
            thousands(passed),
            thousands(failed),
            thousands(skipped)
        );
        let json = json!({
            "shape": "uvu",
            "total": total,
            "passed": passed,
            "skipped": skipped,
            "failed": failed,
        });
        Some(
            Fact::new("uvu", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'^ *FAIL ' -A 12"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self
                .frames
                .as_ref()
                .map_or(0, |(a, b, _)| a.capacity() + b.capacity())
            + self.body.as_ref().map_or(0, String::capacity)
    }
}

impl Uvu {
    /// The message's values are over: said as one line (`{ a: 2, b: 2 } should loosely
    /// deep-equal { a: 1 }`).
    fn end_body(&mut self) {
        if let Some(body) = self.body.take().filter(|b| !b.is_empty())
            && let Some(f) = self.failures.current()
        {
            f.add_detail(&cut(&body, BODY_CHARS));
            self.said_values = true;
        }
    }

    /// A failure's block is over: where it failed is said with the test's line that reached
    /// it, when that is another (`at test/index.js:10:9, from test/index.js:67:2`).
    fn end_block(&mut self) {
        self.end_body();
        self.said_values = false;
        if let Some((first, last, _)) = self.frames.take()
            && first != last
            && let Some(f) = self.failures.current()
            && let Some(at) = f.detail.iter_mut().find(|d| **d == format!("at {first}"))
        {
            at.push_str(&format!(", from {last}"));
        }
    }
}

/// A suite's line of marks, ending in how many of its tests passed: `Arrays  • •   (2 / 2)`.
fn is_suite_line(t: &str) -> bool {
    t.strip_suffix(')')
        .and_then(|r| r.rsplit_once('('))
        .and_then(|(_, r)| r.split_once(" / "))
        .is_some_and(|(a, b)| super::eslint::is_number(a) && super::eslint::is_number(b))
}

/// `FAIL  RegExp  "state"` → (`RegExp`, `state`).
fn fail_heading(t: &str) -> Option<(&str, &str)> {
    let rest = t.strip_prefix("FAIL ")?.trim_start();
    // A test of uvu's default suite has no suite's name: `FAIL  "static :: multiple"`, its
    // name quoted whole (quotes of its own inside: `"inject "/foo/:bar/*" with [bar,*]"`).
    if let Some(test) = rest.strip_prefix('"') {
        let test = test.strip_suffix('"')?;
        return (!test.is_empty()).then_some(("", test));
    }
    let (suite, test) = rest.split_once(" \"")?;
    let test = test.strip_suffix('"')?;
    let suite = suite.trim_end();
    (!suite.is_empty() && !test.is_empty()).then_some((suite, test))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failures_heading_names_its_suite_and_test() {
        assert_eq!(
            fail_heading("FAIL  Map  \"nested :: keys\""),
            Some(("Map", "nested :: keys"))
        );
        assert_eq!(
            fail_heading("FAIL  RegExp  \"state\""),
            Some(("RegExp", "state"))
        );
        assert_eq!(fail_heading("FAIL  \"static\""), Some(("", "static")));
        assert_eq!(
            fail_heading("FAIL  \"inject \"/foo/:bar/*\" with [bar,*]\""),
            Some(("", "inject \"/foo/:bar/*\" with [bar,*]"))
        );
        assert_eq!(fail_heading("FAIL: test_a"), None);
        assert_eq!(fail_heading("FAIL src/a.test.ts"), None);
    }

    /// Values of any letters are said with their labels, without uvu's alignment.
    #[test]
    fn values_keep_their_labels_whatever_their_letters() {
        let mut uvu = Box::<Uvu>::default();
        for line in [
            "  FAIL  Str  \"arrows\"",
            "    Expected values to be strictly equal:  (is)",
            "        ++→é    (Expected)",
            "        --                 é→  (Actual)",
            "        →   (Expected)",
        ] {
            uvu.line(1, line);
        }
        let f = uvu.failures.current().expect("a failure");
        assert_eq!(
            f.detail,
            [
                "Expected values to be strictly equal:  (is)",
                "++→é (Expected)",
                "--é→ (Actual)",
                "→ (Expected)"
            ]
        );
    }

    #[test]
    fn counts_alone_are_not_uvus() {
        let mut other = Box::<Uvu>::default();
        for line in ["Total: 10", "Passed: 8", "Skipped: 0"] {
            other.line(1, line);
        }
        assert!(other.finish().is_none());
        let mut uvu = Box::<Uvu>::default();
        for line in [" Arrays  • •   (2 / 2)", "  Total:     2", "  Passed:    2"] {
            uvu.line(1, line);
        }
        let fact = uvu.finish().expect("uvu's counts");
        assert_eq!(
            fact.lines,
            ["tests: 2 run, 2 passed, 0 failed, 0 skipped (uvu)"]
        );
    }
}
