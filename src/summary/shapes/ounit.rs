//! OCaml's OUnit (1 and 2): each failed test between two rules, `=` × 78 above and `-` × 78
//! below, headed `Error: suite:0:name.` (OUnit 1: `Failure: suite:0:name`), then OUnit 2's
//! places (`File "…/oUnit-x.log", line 62, …` with `Error: … (in the log).`, `File
//! "lib_test/test_re.ml", line 288, characters 1-1:` with `Error: … (in the code).`), the
//! backtrace (`Raised at …`, `Called from …`) and the message (`expected: … but got: …`,
//! `Not_found`). Each run closes with `Ran: 58 tests in: 0.25 seconds.` and `OK` or `FAILED:
//! Cases: 58 Tried: 58 Errors: 0 Failures: 38 Skip:  0 Todo: 0 Timeouts: 0.`; the runs of an
//! output (dune runs one per test executable) are summed. Each failed test is listed with its
//! message and where it failed in the project's code.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// How long the message and place lines kept may be, and how many message lines are kept.
const KEPT_CHARS: usize = 200;
const MESSAGE_LINES: usize = 3;
/// Lines of a failure read at most (a long backtrace or message is not read to its end).
const BLOCK_LINES: usize = 200;

/// A run's closing counts, in OUnit's order.
const KEYS: [&str; 7] = [
    "Cases", "Tried", "Errors", "Failures", "Skip", "Todo", "Timeouts",
];

#[derive(Debug, Default)]
pub(crate) struct Ounit {
    failures: Failures,
    /// The failure being read, once its header came.
    block: Option<Block>,
    /// A rule of `=` was the last line: a header may follow.
    after_rule: bool,
    /// `Ran: N tests` was read and its verdict (`OK`, `FAILED: …`) is next.
    ran: Option<u64>,
    /// Failures closed by OUnit's lower rule (`-` × 78): a header under a rule of `=` alone
    /// could be any program's.
    closed: u64,
    /// Runs closed, and of them failed.
    runs: u64,
    failed_runs: u64,
    /// Summed over runs: tests ran, then errors, failures, skipped, todo, timeouts.
    totals: [u64; 6],
}

#[derive(Debug, Default)]
struct Block {
    lines: usize,
    /// Where the test failed in the project's code: OUnit 2's `File "x.ml", line N` (of the
    /// code, not of its log), else the first backtrace frame outside OCaml's and OUnit's own.
    place: Option<String>,
    frame: Option<String>,
    message: Vec<String>,
    /// The line before was a `File "…"` line: the `Error: … (in the log).` under it says which.
    file: Option<String>,
}

impl Shape for Ounit {
    fn line(&mut self, number: u64, text: &str) {
        let after_rule = std::mem::take(&mut self.after_rule);
        if is_rule(text, b'=') {
            self.end_block();
            self.after_rule = true;
            return;
        }
        if after_rule && let Some(name) = header(text) {
            self.failures.push(number, name);
            self.block = Some(Block::default());
            return;
        }
        if let Some(ran) = self.ran.take() {
            self.verdict(text, ran);
            return;
        }
        if let Some(ran) = ran_line(text) {
            self.end_block();
            self.ran = Some(ran);
            return;
        }
        if is_rule(text, b'-') {
            if self.block.is_some() {
                self.closed += 1;
            }
            self.end_block();
            return;
        }
        if let Some(block) = &mut self.block {
            block.lines += 1;
            if block.lines > BLOCK_LINES {
                self.end_block();
            } else {
                block.read(text);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        if self.runs == 0 && self.closed == 0 {
            return None;
        }
        let [tests, errors, failures, skipped, todo, timeouts] = self.totals;
        let line = if self.runs == 0 {
            format!(
                "OUnit: {} listed, and no `Ran:` line closing the run",
                plural(self.failures.total, "failed test", "failed tests")
            )
        } else {
            let mut line = format!("OUnit: {} ran, ", plural(tests, "test", "tests"));
            if failures == 0 && errors == 0 {
                line.push_str("none failed");
            } else {
                line.push_str(&format!(
                    "{}, {}",
                    plural(failures, "failure", "failures"),
                    plural(errors, "error", "errors")
                ));
            }
            for (n, what) in [
                (skipped, "skipped"),
                (todo, "todo"),
                (timeouts, "timed out"),
            ] {
                if n > 0 {
                    line.push_str(&format!(", {} {what}", thousands(n)));
                }
            }
            if self.runs > 1 {
                line.push_str(&format!(
                    " · {} runs, {} failed",
                    thousands(self.runs),
                    thousands(self.failed_runs)
                ));
            }
            line
        };
        let json = json!({
            "shape": "ounit",
            "runs": self.runs,
            "failed_runs": self.failed_runs,
            "tests": tests,
            "errors": errors,
            "failed": failures,
            "skipped": skipped,
            "todo": todo,
            "timeouts": timeouts,
        });
        let failed = self.failed_runs > 0 || !self.failures.is_empty();
        Some(
            Fact::new("ounit", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed, "'^(Error|Failure): ' -A 12"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.block.as_ref().map_or(0, |b| {
                [&b.place, &b.frame, &b.file]
                    .iter()
                    .map(|s| s.as_ref().map_or(0, String::capacity))
                    .sum::<usize>()
                    + b.message.iter().map(String::capacity).sum::<usize>()
            })
    }
}

impl Ounit {
    /// The line after `Ran: N tests …`: `OK`, `OK: Cases: 5 Skip: 1`, or `FAILED: Cases: …`.
    fn verdict(&mut self, text: &str, ran: u64) {
        let text = text.trim_end();
        let counts = if text == "OK" {
            Some([0; 5])
        } else if let Some(rest) = text.strip_prefix("OK: ") {
            counts(rest).map(|c| [0, 0, c[4], 0, 0])
        } else if let Some(rest) = text.strip_prefix("FAILED: ") {
            counts(rest).map(|c| [c[2], c[3], c[4], c[5], c[6]])
        } else {
            None
        };
        let Some(counts) = counts else {
            return;
        };
        self.runs += 1;
        if text.starts_with("FAILED") {
            self.failed_runs += 1;
        }
        self.totals[0] = self.totals[0].saturating_add(ran);
        for (sum, n) in self.totals[1..].iter_mut().zip(counts) {
            *sum = sum.saturating_add(n);
        }
    }

    fn end_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        if let Some(failure) = self.failures.current() {
            for line in &block.message {
                failure.add_detail(line);
            }
            if let Some(place) = block.place.or(block.frame) {
                failure.add_detail(&place);
            }
        }
    }
}

impl Block {
    fn read(&mut self, text: &str) {
        let file = self.file.take();
        let t = text.trim_end();
        if t.is_empty() {
            return;
        }
        if t.starts_with("File \"") && t.ends_with(':') {
            self.file = Some(place(t).to_owned());
            return;
        }
        if t.starts_with("Error: ") || t.starts_with("Failure: ") {
            if t.ends_with(" (in the code).") {
                self.place = file.or(self.place.take());
            }
            if t.ends_with(" (in the log).") || t.ends_with(" (in the code).") {
                return;
            }
        }
        if let Some(frame) = frame(t) {
            if self.frame.is_none() && is_own(frame) {
                self.frame = Some(cut(place(t), KEPT_CHARS));
            }
            return;
        }
        if self.message.len() < MESSAGE_LINES {
            self.message.push(cut(t, KEPT_CHARS));
        }
    }
}

/// `File "lib_test/test_re.ml", line 288` of `File "lib_test/test_re.ml", line 288,
/// characters 1-1:` (and a backtrace frame's place likewise).
pub(crate) fn place(line: &str) -> &str {
    let line = line.trim_end_matches(':');
    line.find(", characters ").map_or(line, |at| &line[..at])
}

/// A backtrace line's function: `OUnitAssert.assert_failure` of `Raised at
/// OUnitAssert.assert_failure in file "…", line 45, characters 2-27`.
pub(crate) fn frame(line: &str) -> Option<&str> {
    let rest = ["Raised at ", "Called from ", "Re-raised at "]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .or_else(|| {
            line.starts_with("Raised by primitive operation at ")
                .then_some("")
        })?;
    Some(rest.split(" in file ").next().unwrap_or(rest))
}

/// Whether a backtrace frame is in the project's code, not OCaml's standard library, its
/// runtime or OUnit.
pub(crate) fn is_own(function: &str) -> bool {
    !function.is_empty()
        && !["Stdlib", "Camlinternal", "OUnit"]
            .iter()
            .any(|p| function.starts_with(p))
}

/// The name in a failure's header: `test_re:27:first match` of `Error: test_re:27:first
/// match.` (OUnit 1: `Failure: suite:0:name`, `Error: suite:1:name`).
fn header(text: &str) -> Option<&str> {
    let name = ["Error: ", "Failure: ", "Timeout: "]
        .iter()
        .find_map(|p| text.strip_prefix(p))?
        .trim_end();
    let name = name.strip_suffix('.').unwrap_or(name);
    (!name.is_empty()).then_some(name)
}

fn is_rule(text: &str, c: u8) -> bool {
    text.len() >= 70 && text.bytes().all(|b| b == c)
}

/// The tests of `Ran: 58 tests in: 0.25 seconds.`.
fn ran_line(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Ran: ")?;
    let (n, rest) = rest.split_once(' ')?;
    let tests = rest.starts_with("tests in: ") || rest.starts_with("test in: ");
    tests.then(|| n.parse().ok()).flatten()
}

/// The counts of `Cases: 58 Tried: 58 Errors: 0 Failures: 38 Skip:  0 Todo: 0 Timeouts: 0.`
/// (OUnit 1: `Skip:0 Todo:0`, or no `Skip` at all), in [`KEYS`]' order, absent ones 0. `OK:
/// Cases: 5 Skip: 1` has only `Cases` and `Skip`.
fn counts(text: &str) -> Option<[u64; 7]> {
    let mut counts = [0u64; 7];
    let mut seen = [false; 7];
    let text = text.trim_end_matches('.');
    let mut words = text.split_whitespace().flat_map(|w| {
        // `Skip:0` is a key and its count.
        match w.split_once(':') {
            Some((key, n)) if !n.is_empty() => [Some(key), Some(n)],
            Some((key, _)) => [Some(key), None],
            None => [Some(w), None],
        }
        .into_iter()
        .flatten()
    });
    while let Some(key) = words.next() {
        let at = KEYS.iter().position(|k| *k == key)?;
        counts[at] = words.next()?.parse().ok()?;
        seen[at] = true;
    }
    seen[0].then_some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(text: &str) -> Fact {
        let mut shape = Box::<Ounit>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        shape.finish().expect("a fact")
    }

    #[test]
    fn counts_read_ounit_2_and_1() {
        assert_eq!(
            counts("Cases: 58 Tried: 58 Errors: 0 Failures: 38 Skip:  0 Todo: 0 Timeouts: 0."),
            Some([58, 58, 0, 38, 0, 0, 0])
        );
        assert_eq!(
            counts("Cases: 2 Tried: 2 Errors: 1 Failures: 1 Skip:0 Todo:0"),
            Some([2, 2, 1, 1, 0, 0, 0])
        );
        assert_eq!(counts("Cases: 5 Skip: 1"), Some([5, 0, 0, 0, 1, 0, 0]));
        assert_eq!(counts("Cases: x Tried: 2"), None);
        assert_eq!(counts("all good"), None);
    }

    #[test]
    fn ounit_1_failures_with_their_message() {
        let rule1 = "=".repeat(70);
        let rule2 = "-".repeat(70);
        let text = format!(
            "..F.E\n{rule1}\nError: suite:1:reads.\n\nNot_found\n{rule2}\n{rule1}\n\
             Failure: suite:0:adds\n\nexpected: 3 but got: 4\n{rule2}\n\
             Ran: 5 tests in: 0.01 seconds.\n\
             FAILED: Cases: 5 Tried: 5 Errors: 1 Failures: 1 Skip:0 Todo:0\n"
        );
        let fact = fact(&text);
        assert_eq!(fact.lines, ["OUnit: 5 tests ran, 1 failure, 1 error"]);
        let kept = &fact.failures[0].kept;
        assert_eq!(kept[0].name, "suite:1:reads");
        assert_eq!(kept[0].detail, ["Not_found"]);
        assert_eq!(kept[1].name, "suite:0:adds");
        assert_eq!(kept[1].detail, ["expected: 3 but got: 4"]);
    }

    #[test]
    fn a_frame_of_the_projects_own_code_when_there_is_no_place() {
        let rule1 = "=".repeat(78);
        let rule2 = "-".repeat(78);
        let text = format!(
            "{rule1}\nError: t:0:ext.\n\n\
             File \"/x/_build/oUnit-t-vm#01.log\", line 9, characters 1-1:\n\
             Error: t:0:ext (in the log).\n\n\
             Raised at Stdlib.invalid_arg in file \"stdlib.ml\", line 30, characters 20-45\n\
             Called from Ext.chop in file \"src/ext.ml\", line 53, characters 8-37\n\
             Called from OUnitRunner.run_one_test.(fun) in file \"r.ml\", line 83, characters 1-2\n\n\
             Invalid_argument(\"String.sub / Bytes.sub\")\n{rule2}\n\
             Ran: 1 tests in: 0.01 seconds.\n\
             FAILED: Cases: 1 Tried: 1 Errors: 1 Failures: 0 Skip:  0 Todo: 0 Timeouts: 0.\n\
             Ran: 3 tests in: 0.01 seconds.\nOK\n"
        );
        let fact = fact(&text);
        assert_eq!(
            fact.lines,
            ["OUnit: 4 tests ran, 0 failures, 1 error · 2 runs, 1 failed"]
        );
        assert_eq!(
            fact.failures[0].kept[0].detail,
            [
                "Invalid_argument(\"String.sub / Bytes.sub\")",
                "Called from Ext.chop in file \"src/ext.ml\", line 53"
            ]
        );
    }

    #[test]
    fn a_header_under_a_rule_is_ounit_only_with_its_lower_rule() {
        let read = |lines: &[String]| {
            let mut shape = Box::<Ounit>::default();
            for (i, line) in lines.iter().enumerate() {
                shape.line(i as u64 + 1, line);
            }
            shape.finish()
        };
        let mut lines = vec!["=".repeat(78), "Error: something".into(), "x".into()];
        assert!(read(&lines).is_none());
        // A run cut short before its `Ran:` line: its failures are listed.
        lines.push("-".repeat(78));
        let fact = read(&lines).expect("a fact");
        assert_eq!(
            fact.lines,
            ["OUnit: 1 failed test listed, and no `Ran:` line closing the run"]
        );
        assert_eq!(fact.failures[0].kept[0].detail, ["x"]);
    }
}
