//! Free Pascal's FPCUnit console runner, `--format=plain`: a line per suite with its counts
//! (`  TTestFNV1a Time:00.015 N:13 E:0 F:4 I:0`) and per test (`    00.000  TestOnetoNine
//! Failed: "Expected BB86B11C but got B64F58EC." …`), then the totals,
//!
//! ```text
//! Number of run tests: 1927
//! Number of errors:    1
//! Number of failures:  13
//! ```
//!
//! and under `List of errors:` and `List of failures:` an entry per test: `  Failure: `, then
//! `    Message:           TTestFNV1a.TestDefaultData: "Expected 1892F1F8 but got F343F928." …`,
//! `    Exception class:   EAssertionFailedError`, `    Exception message: …` and an address.
//!
//! Stated, once the totals are read: the totals, the suites that had errors or failures with
//! their counts, and each test of the lists with its message (an error's with its exception's
//! class).

use serde_json::json;

use super::names::{Failures, Names};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

#[derive(Debug, Default)]
pub(crate) struct FpcUnit {
    failures: Failures,
    /// Run, errors, failures, ignored, as the totals say them.
    totals: [Option<u64>; 4],
    /// Suites with errors or failures: `TTestFNV1a E:0 F:4`.
    suites: Names,
    /// In `List of errors:` (true) or `List of failures:` (false).
    list: Option<bool>,
    /// The message of the entry being read, said once its exception's class is read.
    message: Option<String>,
}

impl Shape for FpcUnit {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("Number of ") {
            for (i, words) in ["run tests:", "errors:", "failures:", "ignored tests:"]
                .iter()
                .enumerate()
            {
                if let Some(n) = rest.strip_prefix(words) {
                    self.totals[i] = n.trim().parse().ok();
                }
            }
            return;
        }
        match text.trim_end() {
            "List of errors:" => self.list = Some(true),
            "List of failures:" => self.list = Some(false),
            _ => {}
        }
        let Some(errors) = self.list else {
            if let Some(suite) = suite_counts(text) {
                self.suites.push(&suite);
            }
            return;
        };
        let t = text.trim();
        if let Some(message) = t.strip_prefix("Message:") {
            let message = message.trim();
            let (name, said) = message.split_once(": ").unwrap_or((message, ""));
            self.failures.push(number, name);
            if errors {
                self.message = Some(said.to_owned());
            } else if let Some(f) = self.failures.current() {
                f.add_detail(&cut(said, 300));
            }
        } else if let Some(class) = t.strip_prefix("Exception class:")
            && let Some(message) = self.message.take()
            && let Some(f) = self.failures.current()
        {
            f.add_detail(&cut(&format!("{}: {message}", class.trim()), 300));
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let [Some(run), Some(errors), Some(failed), ignored] = self.totals else {
            return None;
        };
        let line = super::names::test_counts(
            run,
            Some(run.saturating_sub(errors + failed + ignored.unwrap_or(0))),
            failed,
            Some(errors),
            &[(ignored.unwrap_or(0), "ignored")],
            "FPCUnit",
        );
        let mut lines = vec![line];
        if self.suites.total > 0 {
            lines.push(format!(
                "suites with errors or failures ({}): {}",
                thousands(self.suites.total),
                self.suites.render(self.suites.total)
            ));
        }
        let json = json!({
            "shape": "fpcunit",
            "run": run,
            "errors": errors,
            "failed": failed,
            "ignored": ignored,
            "failing_suites": self.suites.json(),
        });
        let mut listed = self.failures;
        Some(
            Fact::new("fpcunit", lines, json)
                .failures(listed.take_as("failed tests"))
                .hint_if_failed(errors + failed > 0, "'^    Message: ' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.suites.approx_heap()
            + self.message.as_ref().map_or(0, String::capacity)
    }
}

/// `  TTestFNV1a Time:00.015 N:13 E:0 F:4 I:0` with errors or failures → `TTestFNV1a F:4`.
fn suite_counts(text: &str) -> Option<String> {
    let t = text.strip_prefix("  ")?;
    // The suite's name, then its time (found fast: most lines indented are no suite's).
    let space = memchr::memchr(b' ', t.as_bytes())?;
    let (suite, rest) = (&t[..space], t[space..].strip_prefix(" Time:")?);
    if suite.is_empty() {
        return None;
    }
    let mut said = Vec::new();
    for field in rest.split(' ').skip(1) {
        let (key, n) = field.split_once(':')?;
        let n: u64 = n.parse().ok()?;
        if matches!(key, "E" | "F") && n > 0 {
            said.push(format!("{key}:{n}"));
        }
    }
    (!said.is_empty()).then(|| format!("{suite} {}", said.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_suites_and_listed_tests_are_read() {
        let text = "  TTestFNV1a Time:00.015 N:13 E:0 F:4 I:0\n\
                    \x20   00.000  TestDefaultData  Failed: \"Expected 1\" expected: <1> but was: <2>\n\
                    \x20 TTestCRC Time:00.035 N:5 E:0 F:0 I:0\n\
                    \n\
                    Number of run tests: 1927\n\
                    Number of errors:    1\n\
                    Number of failures:  13\n\
                    \n\
                    List of errors:\n\
                    \x20 Error: \n\
                    \x20   Message:           TTestPBKDF_Scrypt.TestVectors: Iteration must be greater than zero.\n\
                    \x20   Exception class:   EArgumentHashLibException\n\
                    \x20   Exception message: Iteration must be greater than zero.\n\
                    \n\
                    List of failures:\n\
                    \x20 Failure: \n\
                    \x20   Message:           TTestFNV1a.TestDefaultData: \"Expected 1\" expected: <1> but was: <2>\n\
                    \x20   Exception class:   EAssertionFailedError\n";
        let fact = super::super::read_lines::<FpcUnit>(text).expect("an FPCUnit run");
        assert_eq!(
            fact.lines,
            [
                "tests: 1,927 run, 1,913 passed, 13 failed, 1 errors (FPCUnit)",
                "suites with errors or failures (1): TTestFNV1a F:4"
            ]
        );
        let failed: Vec<_> = fact.failures[0].iter().collect();
        assert_eq!(failed[0].name, "TTestPBKDF_Scrypt.TestVectors");
        assert_eq!(
            failed[0].detail,
            ["EArgumentHashLibException: Iteration must be greater than zero."]
        );
        assert_eq!(failed[1].name, "TTestFNV1a.TestDefaultData");
        assert_eq!(
            failed[1].detail,
            ["\"Expected 1\" expected: <1> but was: <2>"]
        );
    }
}
