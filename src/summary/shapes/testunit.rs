//! Ruby's test-unit (`ruby test/run.rb`, `rake test` of a gem that uses it): a block per
//! failure between lines of `=`, headed `Failure: test_x(TestClass)` or `Error:
//! test_x(TestClass):`, and the closing count line, `527 tests, 4026 assertions, 31 failures,
//! 2 errors, 0 pendings, 0 omissions, 0 notifications`.
//!
//! A failure's detail is its message (`<-5> expected but was`, `<"-5">`), said once, and where
//! the assertion is (its first `path:17:in 'x'` line); the source around it (`  => 17: …`) and
//! the diff are left out. An error's is the exception (`  NoMethodError: undefined method …`)
//! and the first frame of the project's own code, with the first frame in a test file when
//! that is another.

use serde_json::json;

use super::names::{Failures, is_rule, is_test_file, test_counts};
use super::{Fact, Shape};
use crate::format::thousands;

/// Message lines of a failure kept (`expected but was` and the value under it).
const MESSAGE_LINES: usize = 2;

/// The words of the closing count line, in its order.
const COUNTS: [&str; 7] = [
    "tests",
    "assertions",
    "failures",
    "errors",
    "pendings",
    "omissions",
    "notifications",
];

#[derive(Debug, Default)]
pub(crate) struct TestUnit {
    counts: Option<[u64; 7]>,
    /// `Failure:` and `Error:` blocks read.
    blocks: [u64; 2],
    failures: Failures,
    after_rule: bool,
    block: Option<Block>,
}

#[derive(Debug, Default)]
struct Block {
    error: bool,
    message: Vec<String>,
    /// The exception of an error.
    exception: Option<String>,
    /// The first place (`test/a.rb:17`), the first of the project's own code and the first in
    /// a test file.
    first: Option<String>,
    own: Option<String>,
    test: Option<String>,
    /// Past `diff:` (or an error's frames): no more message.
    ended: bool,
}

impl Shape for TestUnit {
    fn line(&mut self, number: u64, text: &str) {
        let rule = is_rule(text, b'=', 20);
        if rule {
            self.end_block();
            self.after_rule = true;
            return;
        }
        if std::mem::take(&mut self.after_rule)
            && let Some((error, name)) = heading(text)
        {
            self.blocks[usize::from(error)] += 1;
            self.failures
                .push_said(number, name, text.trim_end_matches(':'));
            self.block = Some(Block {
                error,
                ..Block::default()
            });
            return;
        }
        if let Some(block) = &mut self.block {
            block.read(text);
            return;
        }
        if let Some(counts) = count_line(text) {
            self.counts = Some(counts);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        let [
            tests,
            assertions,
            failures,
            errors,
            pendings,
            omissions,
            notifications,
        ] = self.counts?;
        let passed = tests.saturating_sub(failures + errors + pendings + omissions);
        let line = test_counts(
            tests,
            Some(passed),
            failures,
            Some(errors),
            &[(pendings, "pending"), (omissions, "omitted")],
            &format!("test-unit, {} assertions", thousands(assertions)),
        );
        let json = json!({
            "shape": "test-unit",
            "tests": tests,
            "passed": passed,
            "assertions": assertions,
            "failed": failures,
            "errors": errors,
            "pendings": pendings,
            "omissions": omissions,
            "notifications": notifications,
            "blocks": {"failure": self.blocks[0], "error": self.blocks[1]},
        });
        let listed = self.failures.take_as("failed tests and errors");
        Some(
            Fact::new("test-unit", vec![line], json)
                .failures(listed)
                .hint_if_failed(failures + errors > 0, "'^(Failure|Error): ' -A 15"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.block.as_ref().map_or(0, |b| {
                b.message.iter().map(String::capacity).sum::<usize>()
                    + [&b.exception, &b.first, &b.own, &b.test]
                        .iter()
                        .map(|s| s.as_ref().map_or(0, String::capacity))
                        .sum::<usize>()
            })
    }
}

impl TestUnit {
    fn end_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let Some(failure) = self.failures.current() else {
            return;
        };
        let (at, from) = if block.error {
            let at = block.own.or(block.first);
            let from = block.test.filter(|t| Some(t) != at.as_ref());
            (at, from)
        } else {
            (block.first, None)
        };
        for line in block.exception.iter().chain(&block.message) {
            failure.add_detail(line);
        }
        if let Some(at) = at {
            let mut at = format!("at {at}");
            if let Some(from) = from {
                at.push_str(&format!(", from {from}"));
            }
            failure.add_detail(&at);
        }
    }
}

impl Block {
    fn read(&mut self, text: &str) {
        if let Some(place) = frame(text) {
            self.ended |= self.error;
            if self.first.is_none() {
                self.first = Some(place.to_owned());
            }
            if self.own.is_none() && !is_library(place) {
                self.own = Some(place.to_owned());
            }
            if self.test.is_none() && is_test_file(place) {
                self.test = Some(place.to_owned());
            }
            return;
        }
        if self.ended || is_context(text) {
            return;
        }
        if self.error {
            // The exception, indented by two; the source and carets under it are not read.
            if self.exception.is_none() && !text.trim().is_empty() {
                self.exception = Some(text.trim().to_owned());
            }
            return;
        }
        if text == "diff:" || text.is_empty() {
            self.ended = !self.message.is_empty();
            return;
        }
        if self.message.len() < MESSAGE_LINES {
            self.message.push(text.trim().to_owned());
        }
    }
}

/// `Failure: test_x(TestClass)` or `Error: test_x(TestClass):` → whether an error, the name.
fn heading(text: &str) -> Option<(bool, &str)> {
    let (error, rest) = match text.strip_prefix("Failure: ") {
        Some(rest) => (false, rest),
        None => (true, text.strip_prefix("Error: ")?),
    };
    let name = rest.strip_suffix(':').unwrap_or(rest);
    let (method, class) = name.strip_suffix(')')?.split_once('(')?;
    let word = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_:?!".contains(&b))
    };
    (word(class) && !method.is_empty() && !method.contains(' ')).then_some((error, name))
}

/// `/x/test/a.rb:17:in 'block in test_x'` → `/x/test/a.rb:17`.
fn frame(text: &str) -> Option<&str> {
    let (place, _) = text.split_once(":in ")?;
    let (path, line) = place.rsplit_once(':')?;
    let numbered = !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit());
    (numbered && path.ends_with(".rb") && !path.contains(' ')).then_some(place)
}

/// Installed gems and Ruby's own library: `…/gems/test-unit-3.6.1/lib/…`, `<internal:…>`.
fn is_library(place: &str) -> bool {
    place.contains("/gems/") || place.contains("/lib/ruby/") || place.starts_with('<')
}

/// The source shown around a failing line: `     14:   def x`, `  => 17:   assert_equal(…)`.
fn is_context(text: &str) -> bool {
    let t = text.trim_start();
    let t = t.strip_prefix("=>").map_or(t, str::trim_start);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with(':') && text.starts_with(' ')
}

/// `527 tests, 4026 assertions, 31 failures, 2 errors, 0 pendings, 0 omissions,
/// 0 notifications`.
fn count_line(text: &str) -> Option<[u64; 7]> {
    // Most lines are passed over on their first byte and their end.
    let ends = text.ends_with(" notifications") || text.ends_with(" notification");
    if !text.starts_with(|c: char| c.is_ascii_digit()) || !ends {
        return None;
    }
    let mut counts = [0; 7];
    let parts: Vec<&str> = text.split(", ").collect();
    if parts.len() != COUNTS.len() {
        return None;
    }
    for ((part, word), n) in parts.iter().zip(COUNTS).zip(&mut counts) {
        let (count, w) = part.split_once(' ')?;
        if w.trim_end_matches('s') != word.trim_end_matches('s') {
            return None;
        }
        *n = count.parse().ok()?;
    }
    Some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_frames_and_counts() {
        assert_eq!(
            heading("Error: test_to_h(TestCSVRow):"),
            Some((true, "test_to_h(TestCSVRow)"))
        );
        assert_eq!(
            heading("Failure: test_x(Test::Nested)"),
            Some((false, "test_x(Test::Nested)"))
        );
        assert_eq!(heading("Error: could not connect (localhost)"), None);
        assert_eq!(
            frame("/x/test/a.rb:17:in `block in test_x'"),
            Some("/x/test/a.rb:17")
        );
        assert!(is_context("  => 17:       assert_equal(n, x)"));
        assert!(is_context("     14:   def test_x"));
        assert!(!is_context("<-5> expected but was"));
        assert_eq!(
            count_line(
                "527 tests, 4026 assertions, 31 failures, 2 errors, 0 pendings, 0 omissions, 0 notifications"
            ),
            Some([527, 4026, 31, 2, 0, 0, 0])
        );
        assert_eq!(
            count_line(
                "1 test, 1 assertion, 0 failures, 0 errors, 0 pendings, 0 omissions, 0 notifications"
            ),
            Some([1, 1, 0, 0, 0, 0, 0])
        );
    }
}
