//! Python's doctest report, as `python -m doctest`, Sphinx's doctest builder and test runners
//! that run doctests print it: each failure after a line of 70 `*` (`File "index.rst", line 292,
//! in default`, `Failed example:`, the example, `Expected:` and `Got:` with their values, or
//! `Exception raised:` and a traceback), then its totals (`58 tests in 1 items.`, `57 passed and
//! 1 failed.`, `***Test Failed*** 1 failures.`).

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

#[derive(Debug, Default)]
pub(crate) struct Doctest {
    failures: Failures,
    /// The part of a failure's block being read.
    part: Part,
    /// The block's last line of an exception raised (a traceback's last line says what), and
    /// the traceback's innermost frame outside the example.
    raised: Option<String>,
    raised_at: Option<String>,
    /// Where the failing example is (`File "index.rst", line 292`), stated after what failed.
    place: Option<String>,
    /// `58 tests in 1 items.`, `57 passed and 1 failed.`, summed over the runs.
    tests: Option<u64>,
    passed_failed: Option<(u64, u64)>,
    /// How many runs stated their totals (each summed).
    runs: u64,
    /// `***Test Failed*** 1 failures.`, summed over the runs that print it.
    test_failed: Option<u64>,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum Part {
    #[default]
    Outside,
    /// After the `*****` line, before `File "…", line N, in NAME`.
    Separated,
    /// In a failure's block, before its parts.
    Block,
    /// The lines after `Failed example:`, `Expected:`, `Got:`, `Exception raised:`.
    Example,
    Expected,
    Got,
    Raised,
}

impl Shape for Doctest {
    fn line(&mut self, number: u64, text: &str) {
        if text.len() == 70 && text.bytes().all(|b| b == b'*') {
            self.end_block();
            self.part = Part::Separated;
            return;
        }
        match self.part {
            Part::Outside => self.totals(text),
            Part::Separated => {
                // `File "index.rst", line 292, in default`
                if let Some(rest) = text.strip_prefix("File \"")
                    && let Some((file, rest)) = rest.split_once("\", line ")
                    && let Some((line, name)) = rest.split_once(", in ")
                {
                    self.failures.push(number, name.trim());
                    // In doctest's words: its line may be `?` (an example in `__test__`).
                    self.place = Some(format!("File \"{file}\", line {line}"));
                    self.part = Part::Block;
                } else {
                    self.part = Part::Outside;
                    self.totals(text);
                }
            }
            _ => self.block_line(text),
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        let counted = self.tests.is_some() || self.test_failed.is_some();
        if self.failures.is_empty() && !counted {
            return None;
        }
        let mut parts = Vec::new();
        if let Some(tests) = self.tests {
            parts.push(format!("{} run", thousands(tests)));
        }
        if let Some((passed, failed)) = self.passed_failed {
            parts.push(format!("{} passed", thousands(passed)));
            parts.push(format!("{} failed", thousands(failed)));
        } else if let Some(failed) = self.test_failed {
            parts.push(format!("{} failed", thousands(failed)));
        } else {
            parts.push(format!("{} failed", thousands(self.failures.total)));
        }
        let runner = match self.runs {
            0 | 1 => "doctest".to_owned(),
            runs => format!("doctest, the totals of {} runs", thousands(runs)),
        };
        let line = format!("tests: {} ({runner})", parts.join(", "));
        let json = json!({
            "shape": "doctest",
            "tests": self.tests,
            "passed": self.passed_failed.map(|p| p.0),
            "failed": self.passed_failed.map(|p| p.1).or(self.test_failed),
        });
        let failed = !self.failures.is_empty();
        Some(
            // A test runner that ran the doctests (pytest, unittest) states them itself.
            Fact::new("doctest", vec![line], json)
                .failures(self.failures.take_as("failed examples"))
                .hint_if_failed(failed, "'^File \"|^Failed example|^Expected|^Got' -A 2")
                .defers()
                // The tracebacks in it are examples' output, expected or got.
                .supersedes(&["log"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.raised.as_ref().map_or(0, String::capacity)
            + self.raised_at.as_ref().map_or(0, String::capacity)
            + self.place.as_ref().map_or(0, String::capacity)
    }
}

impl Doctest {
    /// A line of a failure's block: what its parts hold (their lines are indented).
    fn block_line(&mut self, text: &str) {
        let next = match text {
            "Failed example:" => Some(Part::Example),
            "Expected:" => Some(Part::Expected),
            "Got:" => Some(Part::Got),
            "Exception raised:" => Some(Part::Raised),
            _ => None,
        };
        if let Some(next) = next {
            self.part = next;
            return;
        }
        if text == "Expected nothing" || text == "Got nothing" {
            if let Some(f) = self.failures.current() {
                f.add_detail(text);
            }
            return;
        }
        let Some(value) = text.strip_prefix("    ") else {
            // Not the block's any more: a run's totals, or other output.
            self.end_block();
            self.part = Part::Outside;
            self.totals(text);
            return;
        };
        let label = match self.part {
            Part::Example => "",
            Part::Expected => "Expected: ",
            Part::Got => "Got: ",
            Part::Raised => {
                let value = value.trim();
                // The innermost frame of the code the example called: after the example's
                // own (doctest's runner is before it).
                if value.starts_with("File \"<doctest ") {
                    self.raised_at = None;
                } else if value.starts_with("File \"") {
                    self.raised_at = Some(cut(value, 200));
                } else if !value.is_empty() {
                    // The last line is the exception.
                    self.raised = Some(cut(value, 200));
                }
                return;
            }
            _ => return,
        };
        // A part's first line; the rest of a long value is in the file.
        if let Some(f) = self.failures.current() {
            f.add_detail(&format!("{label}{}", value.trim()));
        }
        self.part = Part::Block;
    }

    /// The block is over: an exception raised is stated by its traceback's last line.
    fn end_block(&mut self) {
        let (raised, place) = (self.raised.take(), self.place.take());
        let raised_at = self.raised_at.take();
        if let Some(f) = self.failures.current() {
            if let Some(raised) = raised {
                f.add_detail(&format!("raised {raised}"));
                if let Some(at) = raised_at {
                    f.add_detail(&format!("at {at}"));
                }
            }
            if let Some(place) = place {
                f.add_detail(&place);
            }
        }
    }

    /// `58 tests in 1 items.`, `57 passed and 1 failed.`, `***Test Failed*** 1 failures.`
    fn totals(&mut self, text: &str) {
        // Read by bytes first: most lines are neither.
        let t = text.trim_start_matches(' ');
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let counted = digits > 0 && t.as_bytes().get(digits) == Some(&b' ');
        if !counted && !t.starts_with("***Test Failed*** ") {
            return;
        }
        let t = t.trim_end();
        if let Some(n) = t.strip_prefix("***Test Failed*** ") {
            if let Some(n) = n
                .strip_suffix(" failures.")
                .and_then(|n| n.parse::<u64>().ok())
            {
                let failed = self.test_failed.get_or_insert(0);
                *failed = failed.saturating_add(n);
            }
            return;
        }
        let Some(first) = t.split(' ').next().and_then(|n| n.parse::<u64>().ok()) else {
            return;
        };
        if let Some(rest) = t
            .strip_suffix(" items.")
            .or_else(|| t.strip_suffix(" item."))
            && rest.contains(" tests in ")
        {
            // Each run (a file, a document) states its own: the output's are their sums.
            let tests = self.tests.get_or_insert(0);
            *tests = tests.saturating_add(first);
            self.runs += 1;
        } else if let Some(rest) = t.strip_suffix(" failed.")
            && let Some((_, failed)) = rest.split_once(" passed and ")
            && let Ok(failed) = failed.parse::<u64>()
        {
            let (passed, all_failed) = self.passed_failed.get_or_insert((0, 0));
            *passed = passed.saturating_add(first);
            *all_failed = all_failed.saturating_add(failed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `python3 -m doctest mathx.py` (Python 3.11) on a module with a wrong expected value and
    /// an example that raises.
    const RUN: &str = r#"**********************************************************************
File "/home/dev/mathx.py", line 5, in mathx.half
Failed example:
    half(3)
Expected:
    1.5
Got:
    1
**********************************************************************
File "/home/dev/mathx.py", line 14, in mathx.inverse
Failed example:
    inverse(0)
Exception raised:
    Traceback (most recent call last):
      File "/usr/lib/python3.11/doctest.py", line 1353, in __run
        exec(compile(example.source, filename, "single",
      File "<doctest mathx.inverse[1]>", line 1, in <module>
        inverse(0)
      File "/home/dev/mathx.py", line 17, in inverse
        return 1 / n
               ~~^~~
    ZeroDivisionError: division by zero
**********************************************************************
2 items had failures:
   1 of   2 in mathx.half
   1 of   2 in mathx.inverse
***Test Failed*** 2 failures.
"#;

    #[test]
    fn each_failed_example_with_what_was_expected_and_got_or_raised() {
        let mut shape = Box::<Doctest>::default();
        for (i, line) in RUN.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().unwrap_or_else(|| panic!("not read"));
        assert_eq!(fact.lines, ["tests: 2 failed (doctest)"]);
        let failures: Vec<_> = fact.failures[0].iter().collect();
        assert_eq!(failures[0].name, "mathx.half");
        assert_eq!(
            failures[0].detail,
            [
                "half(3)",
                "Expected: 1.5",
                "Got: 1",
                "File \"/home/dev/mathx.py\", line 5"
            ]
        );
        assert_eq!(
            failures[1].detail,
            [
                "inverse(0)",
                "raised ZeroDivisionError: division by zero",
                "at File \"/home/dev/mathx.py\", line 17, in inverse",
                "File \"/home/dev/mathx.py\", line 14"
            ]
        );
    }
}
