//! shUnit2, the xUnit of shell scripts: each test function's name as it runs (`testIssue7`),
//! an `ASSERT:expected:<0> but got:<1>` line per failed assertion under it, and at each test
//! file's end `Ran 13 tests.` then `OK`, `OK (skipped=1)` or `FAILED (failures=1,skipped=1)`.
//! Its test runner (`test_runner`, shipped with shUnit2 and copied by the projects that use it)
//! runs every `*_test.sh` under each shell it finds: `# Running the test suite with /bin/sh.`,
//! `--- Executing the 'shunit2_misc' test suite. ---` before each file, and `runner:WARN
//! /bin/sh not passing` after a file that failed.
//!
//! Stated: the tests run, failed and skipped over every file and shell; each file that failed,
//! with its shell and its verdict as printed; the runner's warnings as printed; and each failed
//! test with its first assertion. An assertion printed in a file that passed is a test's own
//! output (shUnit2's self-tests print the messages they check) and is not a failure.

use serde_json::json;

use super::names::{self, Failures, Names, test_counts};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// How much of an assertion's message is kept.
const MESSAGE_CHARS: usize = 300;
/// How many different warnings, and errors, are counted apart.
const DISTINCT_KEPT: usize = 8;

#[derive(Debug, Default)]
pub(crate) struct Shunit2 {
    /// The shell the runner runs the files under (`/bin/sh`), and the file running.
    shell: Option<String>,
    suite: Option<String>,
    /// The test function running: the last bare name printed.
    test: Option<String>,
    /// Whether `test` was pushed to `pending` already (its first assertion is its detail).
    test_failed: bool,
    /// The failed tests of the file running, kept until its verdict says whether they failed.
    pending: Failures,
    failures: Failures,
    /// `Ran N tests.` was read: the next non-empty line is the verdict.
    ran: Option<u64>,
    counts: Counts,
    failed_suites: Names,
    /// What `runner:WARN …` and `shunit2:ERROR …` lines say, each with how often.
    warnings: names::Counts,
    errors: names::Counts,
}

/// Tests run, failed and skipped assertions, and files run, over the whole output.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    tests: u64,
    failures: u64,
    skipped: u64,
    files: u64,
}

impl Shape for Shunit2 {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(ran) = self.ran {
            if text.trim().is_empty() {
                return;
            }
            self.ran = None;
            if let Some((failures, skipped)) = verdict(text.trim()) {
                self.verdict(ran, failures, skipped, text.trim());
                return;
            }
        }
        if let Some(message) = text.strip_prefix("ASSERT:") {
            self.assertion(number, message);
        } else if let Some(ran) = ran_line(text) {
            self.ran = Some(ran);
        } else if let Some(rest) = text.strip_prefix("--- Executing the '") {
            self.suite = rest.split_once('\'').map(|(suite, _)| suite.to_owned());
            self.test = None;
            self.pending = Failures::default();
        } else if let Some(rest) = text.strip_prefix("# Running the test suite with ") {
            self.shell = Some(rest.trim_end_matches('.').to_owned());
        } else if let Some(warning) = text.strip_prefix("runner:WARN ") {
            self.warnings.add(warning, DISTINCT_KEPT);
        } else if let Some(error) = text.strip_prefix("shunit2:ERROR ") {
            self.errors.add(error, DISTINCT_KEPT);
        } else if is_name(text) {
            // Most such lines are not tests (a word alone): no allocation for each.
            let test = self.test.get_or_insert_default();
            test.clear();
            test.push_str(text);
            self.test_failed = false;
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let Counts {
            tests,
            failures,
            skipped,
            files,
        } = self.counts;
        if files == 0 {
            return None;
        }
        let runner = if files > 1 {
            format!("shUnit2, {} test files", thousands(files))
        } else {
            "shUnit2".to_owned()
        };
        // Its verdicts count assertions, not tests: the tests that failed are those that
        // printed one in a file that failed.
        let failed = self.failures.total;
        let mut lines = vec![format!(
            "{}; assertions: {} failed, {} skipped",
            test_counts(tests, None, failed, None, &[], &runner),
            thousands(failures),
            thousands(skipped)
        )];
        for (counts, what) in [
            (&self.errors, "shunit2:ERROR"),
            (&self.warnings, "runner:WARN"),
        ] {
            if counts.total() > 0 {
                lines.push(format!("{what}: {}", counts.render(|_| true).join(" · ")));
            }
        }
        let suites = &self.failed_suites;
        let quoted = match suites.said_lines() {
            Some(said) => {
                lines.push(format!("files failed ({}):", thousands(suites.total)));
                said.iter().map(|l| format!("  {l}")).collect()
            }
            None if suites.total > 0 => {
                lines.push(format!(
                    "files failed ({}): {}",
                    thousands(suites.total),
                    suites.render(suites.total)
                ));
                Vec::new()
            }
            None => Vec::new(),
        };
        let json = json!({
            "shape": "shunit2",
            "run": tests,
            "files": files,
            "failed_files": self.failed_suites.json(),
            "failed_tests": failed,
            "failed_assertions": failures,
            "skipped_assertions": skipped,
            "errors": self.errors.json("error"),
            "warnings": self.warnings.json("warning"),
        });
        let mut listed = self.failures;
        Some(
            Fact::new("shunit2", lines, json)
                .quoting(quoted)
                .failures(listed.take_as("failed tests"))
                .hint_if_failed(failures > 0, "'ASSERT:|^FAILED|not passing' -B 1")
                // An XML report a test prints is the test's output, not this run's report.
                .supersedes(&["junit xml"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        [&self.shell, &self.suite, &self.test]
            .iter()
            .map(|s| s.as_ref().map_or(0, String::capacity))
            .sum::<usize>()
            + self.pending.approx_heap()
            + self.failures.approx_heap()
            + self.failed_suites.approx_heap()
            + self.warnings.approx_heap()
            + self.errors.approx_heap()
    }
}

impl Shunit2 {
    /// An `ASSERT:` line: the running test failed, this its first assertion, unless it was
    /// pushed already.
    fn assertion(&mut self, number: u64, message: &str) {
        let detail = cut(&format!("ASSERT:{}", message.trim_end()), MESSAGE_CHARS);
        if self.test_failed {
            if let Some(f) = self.pending.current() {
                f.add_detail(&detail);
            }
            return;
        }
        let test = self.test.as_deref().unwrap_or("(before any test)");
        let mut name = match &self.suite {
            Some(suite) => format!("{suite} {test}"),
            None => test.to_owned(),
        };
        if let Some(shell) = &self.shell {
            name.push_str(&format!(" ({shell})"));
        }
        self.pending.push(number, &name);
        self.pending.add_details(&[detail]);
        self.test_failed = true;
    }

    /// A file's verdict, after its `Ran N tests.`: its counts are summed, and its failed
    /// tests kept when it failed.
    fn verdict(&mut self, ran: u64, failures: u64, skipped: u64, said: &str) {
        // Counts as printed: summed without overflow, whatever they say.
        self.counts.files += 1;
        self.counts.tests = self.counts.tests.saturating_add(ran);
        self.counts.failures = self.counts.failures.saturating_add(failures);
        self.counts.skipped = self.counts.skipped.saturating_add(skipped);
        let pending = std::mem::take(&mut self.pending);
        if failures > 0 {
            self.failures.append(pending);
            let suite = self.suite.as_deref().unwrap_or("tests");
            let name = match &self.shell {
                Some(shell) => format!("{suite} ({shell})"),
                None => suite.to_owned(),
            };
            self.failed_suites
                .push_said(&name, &format!("{name}: {said}"));
        }
        self.test = None;
        self.test_failed = false;
    }
}

/// `Ran 13 tests.` (`Ran 1 test.`): how many ran.
fn ran_line(text: &str) -> Option<u64> {
    let rest = text.strip_prefix("Ran ")?;
    let (n, rest) = rest.split_once(' ')?;
    matches!(rest, "tests." | "test.")
        .then(|| n.parse().ok())
        .flatten()
}

/// `OK`, `OK (skipped=1)`, `FAILED (failures=1,skipped=1)`: the failures and skips.
fn verdict(text: &str) -> Option<(u64, u64)> {
    let (word, rest) = match text.split_once(' ') {
        Some((word, rest)) => (word, rest.strip_prefix('(')?.strip_suffix(')')?),
        None => (text, ""),
    };
    if word != "OK" && word != "FAILED" {
        return None;
    }
    let (mut failures, mut skipped) = (0, 0);
    for pair in rest.split(',').filter(|p| !p.is_empty()) {
        let (key, n) = pair.split_once('=')?;
        let n = n.trim().parse().ok()?;
        match key.trim() {
            "failures" => failures = n,
            "skipped" => skipped = n,
            _ => {}
        }
    }
    (word == "OK" || failures > 0).then_some((failures, skipped))
}

/// A shell function's name alone on its line, as shUnit2 prints the test it runs.
fn is_name(text: &str) -> bool {
    let mut bytes = text.bytes();
    bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::{is_name, ran_line, verdict};

    #[test]
    fn a_files_end_is_its_count_then_its_verdict() {
        assert_eq!(ran_line("Ran 13 tests."), Some(13));
        assert_eq!(ran_line("Ran 1 test."), Some(1));
        // Python's unittest says how long they took.
        assert_eq!(ran_line("Ran 13 tests in 0.002s"), None);
        assert_eq!(verdict("OK"), Some((0, 0)));
        assert_eq!(verdict("OK (skipped=1)"), Some((0, 1)));
        assert_eq!(verdict("FAILED (failures=1,skipped=1)"), Some((1, 1)));
        assert_eq!(verdict("FAILED (failures=2)"), Some((2, 0)));
        assert_eq!(verdict("FAILED"), None);
        assert_eq!(verdict("OK then"), None);
        assert!(is_name("testIssue7") && is_name("custom_test"));
        assert!(!is_name("test Issue7") && !is_name("1test") && !is_name(""));
    }
}
