//! A JUnit XML report, printed or read back (vitest's and jest-junit's `junit` reporters,
//! pytest's `--junitxml`, go-junit-report, gotestsum, Maven's surefire files): `<testsuites>`
//! with its totals, a `<testsuite>` per file or class with its own, and a `<testcase>` per
//! test, holding a `<failure>` or `<error>` (its `message` and `type`, the report in its body)
//! or `<skipped>` when it did not pass. Elements are read wherever they are on a line, so a
//! report written on one line is read too.
//!
//! Stated: the totals (the root's, else the suites' summed, else the test cases counted), the
//! suites that failed, and each failed test as the report names it, `<testcase
//! classname="…" name="…"`, with its exception and its place in the test's own file. The report
//! is quoted as printed, its escapes (`&quot;`) left as they are, so that each line is found
//! again by searching for it.

use serde_json::json;

use super::names::{Failures, Names, is_test_file, test_counts};
use super::xml::{attribute, attribute_at, elements, unescape};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// How many lines of a failure's body are read for its exception and place.
const BODY_LINES: usize = 40;
/// How much of a quoted element or body line is kept.
const QUOTED_CHARS: usize = 300;

/// A report's counts, as its `tests`, `failures`, `errors` and `skipped` attributes say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    tests: u64,
    failures: u64,
    errors: u64,
    skipped: u64,
}

impl Counts {
    fn of(tag: &str) -> Option<Counts> {
        let n = |key| attribute(tag, key).and_then(|v| v.parse::<u64>().ok());
        Some(Counts {
            tests: n("tests")?,
            failures: n("failures").unwrap_or(0),
            errors: n("errors").unwrap_or(0),
            skipped: n("skipped").or(n("disabled")).unwrap_or(0),
        })
    }

    fn add(&mut self, other: Counts) {
        self.tests += other.tests;
        self.failures += other.failures;
        self.errors += other.errors;
        self.skipped += other.skipped;
    }
}

#[derive(Debug, Default)]
pub(crate) struct JunitXml {
    /// `<testsuites …>`'s counts, when it states them.
    root: Option<Counts>,
    /// The top-level suites' counts, summed.
    suites: Counts,
    /// How deep in `<testsuite>` elements the reading is.
    depth: u32,
    /// `</testsuites>` was read.
    root_closed: bool,
    /// The suites with a failure or error, as their element, shortened.
    failed_suites: Names,
    /// Test cases read, and those failed (a failure or an error), errored and skipped.
    cases: Counts,
    failures: Failures,
    /// The test case open: its line and its element up to its names.
    case: Option<(u64, String, String)>,
    /// The failure or error open, whose body is read: its `type`, its `message`, and the body's
    /// lines read so far.
    body: Option<Body>,
}

#[derive(Debug, Default)]
struct Body {
    kind: String,
    message: String,
    lines: usize,
    exception: Option<String>,
    first: Option<String>,
    place: Option<String>,
}

impl Shape for JunitXml {
    fn line(&mut self, number: u64, text: &str) {
        // Most lines of most outputs hold no element: passed over on one search.
        let Some(first) = memchr::memchr(b'<', text.as_bytes()) else {
            self.body_line(text);
            return;
        };
        if self.body.is_some() {
            // Text before the element that may end the body is the body's.
            self.body_line(&text[..first]);
        }
        for (tag, after) in elements(&text[first..]) {
            self.element(number, tag);
            if self.body.is_some() {
                self.body_line(after);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_body();
        if self.cases.tests == 0 && self.root.is_none() && self.suites.tests == 0 {
            return None;
        }
        let stated = self
            .root
            .or((self.suites.tests > 0).then_some(self.suites))
            .unwrap_or(self.cases);
        let failed = stated.failures;
        let passed = stated
            .tests
            .saturating_sub(stated.failures + stated.errors + stated.skipped);
        let mut lines = vec![test_counts(
            stated.tests,
            Some(passed),
            failed,
            Some(stated.errors),
            &[(stated.skipped, "skipped")],
            "JUnit XML",
        )];
        // A report on one line longer than a line is read (64 KiB), or cut short: its cases
        // are those read, and said to be part. It was read whole when its root was closed, or,
        // without a root, its last suite.
        let closed = match self.root {
            Some(_) => self.root_closed,
            None => self.depth == 0,
        };
        if self.cases != stated || !closed {
            let (which, end) = if closed {
                ("in the report", "")
            } else {
                ("read", " (the report's end was not read)")
            };
            lines.push(format!(
                "test cases {which}: {} ({} failed, {} errors, {} skipped){end}",
                thousands(self.cases.tests),
                thousands(self.cases.failures),
                thousands(self.cases.errors),
                thousands(self.cases.skipped)
            ));
        }
        // The failed suites' elements as printed while they are few; past that, their names.
        let quoted = self.failed_suites.said_lines().unwrap_or_default().to_vec();
        let suites = self.failed_suites.total;
        if quoted.is_empty() && suites > 0 {
            lines.push(format!(
                "suites failed ({}): {}",
                thousands(suites),
                self.failed_suites.render_joined(suites, " · ")
            ));
        } else if suites > 0 {
            lines.push(format!("suites failed ({}):", thousands(suites)));
        }
        let json = json!({
            "shape": "junit xml",
            "tests": stated.tests,
            "passed": passed,
            "failed": failed,
            "errors": stated.errors,
            "skipped": stated.skipped,
            "cases": {"tests": self.cases.tests, "failed": self.cases.failures,
                "errors": self.cases.errors, "skipped": self.cases.skipped},
            "complete": closed,
            "failed_suites": self.failed_suites.json(),
        });
        let listed = self.failures.take_as("failed tests");
        Some(
            Fact::new("junit xml", lines, json)
                .quoting(quoted)
                .failures(listed)
                .hint_if_failed(failed + stated.errors > 0, "'<failure|<error' -B 1 -A 8"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failed_suites.approx_heap()
            + self.failures.approx_heap()
            + self
                .case
                .as_ref()
                .map_or(0, |(_, n, s)| n.capacity() + s.capacity())
            + self.body.as_ref().map_or(0, |b| {
                b.kind.capacity()
                    + b.message.capacity()
                    + [&b.exception, &b.first, &b.place]
                        .iter()
                        .map(|s| s.as_ref().map_or(0, String::capacity))
                        .sum::<usize>()
            })
    }
}

impl JunitXml {
    /// One element's tag, from its `<` to its `>` (or the line's end).
    fn element(&mut self, number: u64, tag: &str) {
        // A closing element's `/` is part of its name (`/testsuite`).
        let name_end = tag
            .get(2..)
            .and_then(|t| t.find([' ', '>', '/', '\t']))
            .map_or(tag.len(), |e| e + 2);
        let name = &tag[1..name_end];
        let closes_itself = tag.ends_with("/>");
        match name {
            "testsuites" => {
                self.root = Counts::of(tag);
                self.root_closed = closes_itself;
            }
            "/testsuites" => self.root_closed = true,
            "testsuite" => {
                if self.depth == 0
                    && let Some(counts) = Counts::of(tag)
                {
                    self.suites.add(counts);
                    if counts.failures + counts.errors > 0 {
                        let suite = attribute(tag, "name").unwrap_or_default();
                        self.failed_suites.push_said(suite, &shortened(tag));
                    }
                }
                if !closes_itself {
                    self.depth += 1;
                }
            }
            "/testsuite" => self.depth = self.depth.saturating_sub(1),
            "testcase" => {
                self.end_body();
                self.cases.tests += 1;
                let class = unescape(attribute(tag, "classname").unwrap_or_default());
                let test = unescape(attribute(tag, "name").unwrap_or_default());
                // A class that is a title (mocha's describe, `picomatch .scan`) and its test's
                // are one full title, as mocha's `--grep` takes it; a class that is a path or
                // a module (`test/a.test.ts`, `tests.test_x`) holds the test.
                let full = match (class.is_empty(), test.is_empty()) {
                    (false, false) if class.contains(' ') => format!("{class} {test}"),
                    (false, false) => format!("{class} > {test}"),
                    (true, _) => test.into_owned(),
                    (_, true) => class.into_owned(),
                };
                self.case = (!closes_itself).then(|| (number, full, named_part(tag)));
            }
            "/testcase" => {
                self.end_body();
                self.case = None;
            }
            "failure" | "error" => {
                self.end_body();
                if name == "failure" {
                    self.cases.failures += 1;
                } else {
                    self.cases.errors += 1;
                }
                let Some((line, full, said)) = &self.case else {
                    return;
                };
                self.failures.push_said(*line, full, said);
                self.body = Some(Body {
                    kind: attribute(tag, "type").unwrap_or_default().to_owned(),
                    message: attribute(tag, "message").unwrap_or_default().to_owned(),
                    ..Body::default()
                });
                if closes_itself {
                    self.end_body();
                }
            }
            "/failure" | "/error" => self.end_body(),
            "skipped" => self.cases.skipped += 1,
            _ => {}
        }
    }

    /// Text of a failure's body: its exception, its first line and its place.
    fn body_line(&mut self, text: &str) {
        let Some(body) = &mut self.body else {
            return;
        };
        let t = text.trim().trim_start_matches("<![CDATA[").trim();
        if t.is_empty() || body.lines >= BODY_LINES {
            return;
        }
        body.lines += 1;
        if body.first.is_none() {
            body.first = Some(cut(t, QUOTED_CHARS));
        }
        if body.exception.is_none()
            && !body.kind.is_empty()
            && t.strip_prefix(body.kind.as_str())
                .is_some_and(|r| r.starts_with(':'))
        {
            body.exception = Some(cut(t, QUOTED_CHARS));
        }
        if body.place.is_none() {
            body.place = place(t).map(str::to_owned);
        }
    }

    /// The failure open is read: its exception (the body's line that names its type, else its
    /// message, else the body's first line) and its place are its detail.
    fn end_body(&mut self) {
        let Some(body) = self.body.take() else {
            return;
        };
        let said = |m: &str| !m.is_empty() && !m.eq_ignore_ascii_case("failed");
        let exception = body
            .exception
            .or_else(|| {
                said(&body.message).then(|| match body.kind.as_str() {
                    "" => cut(&body.message, QUOTED_CHARS),
                    kind if body.message.starts_with(kind) => cut(&body.message, QUOTED_CHARS),
                    kind => cut(&format!("{kind}: {}", body.message), QUOTED_CHARS),
                })
            })
            .or(body.first);
        let mut detail: Vec<String> = exception.into_iter().collect();
        // Go's report names its place on its message's line already.
        if let Some(place) = body.place.filter(|p| !detail.iter().any(|d| d.contains(p))) {
            detail.push(format!("at {place}"));
        }
        self.failures.add_details(&detail);
    }
}

/// A test case's element up to its names (`<testcase classname="a" name="b"`), as printed:
/// what follows (its time) says nothing of the failure.
fn named_part(tag: &str) -> String {
    let end = ["classname", "name"]
        .iter()
        .filter_map(|key| {
            let (start, value) = attribute_at(tag, key)?;
            Some(start + value.len() + 1)
        })
        .max()
        .unwrap_or(tag.len());
    cut(&tag[..end], QUOTED_CHARS)
}

/// A suite's element with only its name and counts, in their order, errors and skips left
/// out when there were none (`<testsuite name="a" tests="3" failures="1">`): its time, host
/// and date say nothing of what failed.
fn shortened(tag: &str) -> String {
    let mut out = String::from("<testsuite");
    let mut keys: Vec<(usize, &str, &str)> = ["name", "tests", "failures", "errors", "skipped"]
        .iter()
        .filter_map(|key| {
            let (start, value) = attribute_at(tag, key)?;
            Some((start, *key, value))
        })
        .collect();
    keys.sort();
    for (_, key, value) in keys {
        if value == "0" && matches!(key, "errors" | "skipped") {
            continue;
        }
        out.push_str(&format!(" {key}=\"{value}\""));
    }
    out.push('>');
    cut(&out, QUOTED_CHARS)
}

/// A place in a file named on a line of a failure's report: a JavaScript frame's (`❯
/// test/a.test.ts:36:41`, `at f (test/a.js:3:9)`), else the first `file.ext:N` in a test's
/// file (`tests/test_a.py:3: AssertionError`, `a_test.go:12: got 1`), else the first of any
/// file.
fn place(text: &str) -> Option<&str> {
    if let Some(frame) = super::jest::location(text).filter(|f| !f.contains('(')) {
        return Some(frame);
    }
    let mut any = None;
    for word in text.split([' ', '(', ')', '\t']) {
        let word = word.trim_end_matches([':', ',']);
        let Some((path, line)) = word.split_once(':') else {
            continue;
        };
        let line = line.split(':').next().unwrap_or(line);
        let file = path.rsplit('/').next().unwrap_or(path);
        let is_place = !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
            && file.contains('.')
            && !file.starts_with('.');
        if !is_place {
            continue;
        }
        if is_test_file(word) {
            return Some(word);
        }
        any = any.or(Some(word));
    }
    any
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attributes_are_read_whole_and_by_their_own_name() {
        let tag = r#"<testcase classname="t/a.test.ts" name="f &gt; &quot;x&quot;" time="0.1">"#;
        assert_eq!(attribute(tag, "name"), Some("f &gt; &quot;x&quot;"));
        assert_eq!(attribute(tag, "classname"), Some("t/a.test.ts"));
        assert_eq!(attribute(tag, "time"), Some("0.1"));
        assert_eq!(
            named_part(tag),
            r#"<testcase classname="t/a.test.ts" name="f &gt; &quot;x&quot;""#
        );
        let suite = r#"<testsuite name="t/a.test.ts" timestamp="2026" hostname="vm" tests="32" failures="3" errors="0" skipped="0" time="0.01">"#;
        assert_eq!(
            shortened(suite),
            r#"<testsuite name="t/a.test.ts" tests="32" failures="3">"#
        );
    }

    #[test]
    fn a_failure_s_place_is_in_the_test_s_file() {
        assert_eq!(
            place("❯ test/base.test.ts:36:41"),
            Some("test/base.test.ts:36:41")
        );
        assert_eq!(
            place("tests/test_a.py:3: AssertionError"),
            Some("tests/test_a.py:3")
        );
        assert_eq!(
            place("at org.x.FooTest.bar(FooTest.java:42)"),
            Some("FooTest.java:42")
        );
        assert_eq!(
            place("    a_test.go:12: got 1, want 2"),
            Some("a_test.go:12")
        );
        assert_eq!(place("expected 1 to be 2"), None);
    }
}
