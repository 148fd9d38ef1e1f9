//! PHPUnit: its totals (`Tests: 1012, Assertions: 1034, Errors: 2, Failures: 4.`, or `OK (12
//! tests, 30 assertions)`) and verdict (`ERRORS!`, `FAILURES!`, `OK`), and each failure or
//! error: numbered under `There were 4 failures:` (`1) Ns\InflectorTest::testCapitalize`,
//! then its message, the `--- Expected`/`+++ Actual` diff and its stack of `file.php:line`), or
//! with `--testdox` a `✘ Capitalize` under its class's heading (`Inflector (Ns\InflectorTest)`)
//! with the same lines behind `│` (and again in its recap, not counted twice). Totals of
//! several runs in one log are summed.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// Counts of the totals line, in this order.
const COUNTS: [&str; 7] = [
    "Tests",
    "Assertions",
    "Errors",
    "Failures",
    "Skipped",
    "Incomplete",
    "Risky",
];

/// How long the diff's lines may grow as one line of detail.
const DIFF_CHARS: usize = 160;

#[derive(Debug, Default)]
pub(crate) struct Phpunit {
    /// Summed totals (see `COUNTS`) and how many totals lines there were.
    totals: [u64; 7],
    runs: u64,
    failures: Failures,
    /// Inside a `There were N errors:` or `… failures:` list.
    listing: bool,
    /// Reading the detail of the failure pushed last.
    reading: bool,
    /// The class of the `--testdox` heading read last (`InflectorTest`).
    class: String,
    /// In `--testdox`'s recap (`Summary of non-successful tests:`), which lists the failures
    /// again.
    recap: bool,
    verdict: Option<String>,
}

impl Shape for Phpunit {
    fn line(&mut self, number: u64, text: &str) {
        // A detail line may start with anything (`'kalendere' should be singularized…`, a
        // message of the test's own); no other line of PHPUnit's does.
        let first = text.as_bytes().first().copied().unwrap_or(b' ');
        let lead = first.is_ascii_alphanumeric() || matches!(first, b' ' | b'-' | b'+' | b'/');
        if !(self.reading || lead) {
            return;
        }
        if let Some(counts) = totals(text) {
            self.runs += 1;
            for (sum, n) in self.totals.iter_mut().zip(counts) {
                *sum = sum.saturating_add(n);
            }
            self.listing = false;
            self.reading = false;
            self.recap = false;
            return;
        }
        if matches!(text, "FAILURES!" | "ERRORS!" | "WARNINGS!") || text.starts_with("OK") {
            self.verdict = Some(text.split(" (").next().unwrap_or(text).to_owned());
            return;
        }
        if text == "Summary of non-successful tests:" {
            self.recap = true;
            self.reading = false;
        }
        if self.recap {
            return;
        }
        if let Some(list) = text.strip_prefix("There w") {
            // `There were 4 failures:`, `There was 1 error:`, `… 2 risky tests:`
            self.listing = list.ends_with(" errors:")
                || list.ends_with(" error:")
                || list.ends_with(" failures:")
                || list.ends_with(" failure:");
            self.reading = false;
            return;
        }
        let t = text.trim_start();
        if let Some(name) = t.strip_prefix("✘ ") {
            let name = if self.class.is_empty() {
                name.to_owned()
            } else {
                format!("{} > {name}", self.class)
            };
            self.push(number, &name, self.class.len());
            return;
        }
        if let Some(detail) = t.strip_prefix('│') {
            if self.reading {
                self.detail(detail.trim());
            }
            return;
        }
        if let Some(class) = testdox_class(text) {
            self.class = class.to_owned();
            self.reading = false;
            return;
        }
        if self.listing
            && let Some(name) = numbered(text)
        {
            let name = short_class(name);
            let group = name.find("::").unwrap_or(0);
            self.push(number, &name, group);
            return;
        }
        if self.reading {
            self.detail(text.trim());
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.runs == 0 {
            return None;
        }
        let [
            tests,
            assertions,
            errors,
            failed,
            skipped,
            incomplete,
            risky,
        ] = self.totals;
        let passed = tests.saturating_sub(errors + failed + skipped + incomplete + risky);
        let mut line = format!(
            "tests: {} run, {} passed, {} failed, {}, {} skipped",
            thousands(tests),
            thousands(passed),
            thousands(failed),
            plural(errors, "error", "errors"),
            thousands(skipped),
        );
        if incomplete > 0 {
            line.push_str(&format!(", {} incomplete", thousands(incomplete)));
        }
        if risky > 0 {
            line.push_str(&format!(", {} risky", thousands(risky)));
        }
        line.push_str(&format!(
            " (phpunit; {})",
            plural(assertions, "assertion", "assertions")
        ));
        if let Some(verdict) = &self.verdict {
            line.push_str(&format!("; {verdict}"));
        }
        let json = json!({
            "shape": "phpunit",
            "runs": self.runs,
            "tests": tests,
            "assertions": assertions,
            "errors": errors,
            "failed": failed,
            "skipped": skipped,
            "incomplete": incomplete,
            "risky": risky,
            "verdict": self.verdict,
        });
        let listed = self.failures.take_as("failed tests and errors");
        Some(
            Fact::new("phpunit", vec![line], json)
                .failures(listed)
                .hint_if_failed(errors + failed > 0, "'^[0-9]+\\) |✘ ' -A 6"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.class.capacity()
    }
}

impl Phpunit {
    fn push(&mut self, number: u64, name: &str, group: usize) {
        self.failures.push(number, name);
        if let Some(failure) = self.failures.current()
            && group > 0
        {
            failure.group = Some(group);
        }
        self.reading = true;
    }

    /// A line of the failure's detail: its message and the values of the diff; the first
    /// `file.php:line` of its stack ends it.
    fn detail(&mut self, line: &str) {
        let Some(failure) = self.failures.current() else {
            return;
        };
        if line.is_empty() || matches!(line, "--- Expected" | "+++ Actual" | "@@ @@") {
            return;
        }
        if is_place(line) {
            failure.add_detail(&format!("at {line}"));
            self.reading = false;
            return;
        }
        // The diff's lines make one line of detail (`-'kalender' +'kalende'`), which leaves
        // room for a message of the test's own above PHPUnit's.
        let diff = |d: &str| d.starts_with(['-', '+']);
        if diff(line)
            && let Some(last) = failure.detail.last_mut()
            && diff(last)
        {
            if last.len() + line.len() < DIFF_CHARS {
                last.push(' ');
                last.push_str(line);
            }
        } else if failure.detail.len() < 3 {
            failure.add_detail(line);
        }
    }
}

/// `Tests: 1012, Assertions: 1034, Errors: 2, Failures: 4.` or `OK (12 tests, 30 assertions)`:
/// the counts in `COUNTS` order.
fn totals(text: &str) -> Option<[u64; 7]> {
    let mut counts = [0; 7];
    if let Some(ok) = text.strip_prefix("OK (") {
        let (tests, assertions) = ok.strip_suffix(')')?.split_once(", ")?;
        counts[0] = tests
            .strip_suffix(" tests")
            .or(tests.strip_suffix(" test"))?
            .parse()
            .ok()?;
        counts[1] = assertions
            .strip_suffix(" assertions")
            .or(assertions.strip_suffix(" assertion"))?
            .parse()
            .ok()?;
        return Some(counts);
    }
    let rest = text.strip_prefix("Tests: ")?.strip_suffix('.')?;
    for (i, part) in rest.split(", ").enumerate() {
        let (label, n) = if i == 0 {
            ("Tests", part)
        } else {
            part.split_once(": ")?
        };
        let n: u64 = n.parse().ok()?;
        // Other counts (`Warnings`, `Deprecations`, `Notices`) are not tests' outcomes.
        if let Some(slot) = COUNTS.iter().position(|c| *c == label) {
            counts[slot] = n;
        }
    }
    Some(counts)
}

/// `1) Ns\InflectorTest::testCapitalize` → `Ns\InflectorTest::testCapitalize`.
fn numbered(text: &str) -> Option<&str> {
    let (n, name) = text.split_once(") ")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && name.contains("::")).then_some(name)
}

/// `Ns\Sub\InflectorTest::testX with data set #3 (…)` → `InflectorTest::testX with data set
/// #3 (…)`; a data set with a name is named by it without its values (`with data set
/// "stmt/if.test#0" ('If/Elseif/Else (…)', '<?php\n\nif…', …)` → `with data set
/// "stmt/if.test#0"`).
fn short_class(name: &str) -> String {
    let (class, method) = name.split_once("::").unwrap_or((name, ""));
    let class = class.rsplit('\\').next().unwrap_or(class);
    let method = match method.split_once(" with data set \"") {
        Some((test, set)) => match set.split_once("\" (") {
            Some((set, _)) => &method[..test.len() + " with data set \"".len() + set.len() + 1],
            None => method,
        },
        None => method,
    };
    format!("{class}::{method}")
}

/// A `--testdox` heading: `Inflector Factory (Doctrine\Tests\Inflector\InflectorFactory)` →
/// `InflectorFactory`.
fn testdox_class(text: &str) -> Option<&str> {
    if text.starts_with(' ') {
        return None;
    }
    let (_, class) = text.strip_suffix(')')?.rsplit_once(" (")?;
    let short = class.rsplit('\\').next()?;
    (class.contains('\\') && !short.is_empty() && !short.contains(' ')).then_some(short)
}

/// `/home/dev/x/tests/InflectorTest.php:46`: a place in a PHP file.
fn is_place(line: &str) -> bool {
    line.rsplit_once(':').is_some_and(|(file, n)| {
        file.ends_with(".php") && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_data_set_is_named_without_its_values() {
        assert_eq!(
            short_class(
                "PhpParser\\CodeParsingTest::testParse with data set \"parser/stmt/if.test#0\" \
                 ('If/Elseif/Else (/home/dev....test)', '<?php\\n\\nif', null)"
            ),
            "CodeParsingTest::testParse with data set \"parser/stmt/if.test#0\""
        );
        assert_eq!(
            short_class("A\\StringTest::testParseEscape with data set #3 ('\\v', '\\f')"),
            "StringTest::testParseEscape with data set #3 ('\\v', '\\f')"
        );
    }

    #[test]
    fn phpunit_lines() {
        assert_eq!(
            totals("Tests: 1012, Assertions: 1034, Errors: 2, Failures: 4."),
            Some([1012, 1034, 2, 4, 0, 0, 0])
        );
        assert_eq!(
            totals("Tests: 9, Assertions: 9, Warnings: 1, Skipped: 2."),
            Some([9, 9, 0, 0, 2, 0, 0])
        );
        assert_eq!(
            totals("OK (12 tests, 30 assertions)"),
            Some([12, 30, 0, 0, 0, 0, 0])
        );
        assert_eq!(
            totals("OK (1 test, 1 assertion)"),
            Some([1, 1, 0, 0, 0, 0, 0])
        );
        assert_eq!(totals("Tests: many."), None);
        assert_eq!(
            numbered("1) Doctrine\\Tests\\InflectorTest::testCapitalize").map(short_class),
            Some("InflectorTest::testCapitalize".to_owned())
        );
        assert_eq!(numbered("1) see above"), None);
        assert_eq!(
            testdox_class("Inflector Factory (Doctrine\\Tests\\Inflector\\InflectorFactory)"),
            Some("InflectorFactory")
        );
        assert_eq!(testdox_class("Time: 00:00.234, Memory: 10.00 MB (x)"), None);
        assert!(is_place("/home/dev/x/InflectorTest.php:46"));
        assert!(!is_place("Failed asserting that 3 is 4: 5"));
    }
}
