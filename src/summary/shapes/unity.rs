//! Unity, the C unit-test framework: a line per test (`tests/misc.c:805:test_name:PASS`,
//! `…:FAIL: Expected 1 Was 2`, `…:IGNORE`) and each test binary's total
//! (`30 Tests 0 Failures 0 Ignored`, then `OK` or `FAIL`). Totals of several binaries (a
//! CTest run) are summed.

use std::sync::LazyLock;

use memchr::memmem::Finder;
use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug, Default)]
pub(crate) struct Unity {
    /// Test lines read: passed, failed, ignored.
    lines: [u64; 3],
    /// Summed totals: binaries, tests, failures, ignored.
    totals: [u64; 4],
    failures: Failures,
}

impl Shape for Unity {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(totals) = total_line(text) {
            self.totals[0] += 1;
            for (sum, n) in self.totals[1..].iter_mut().zip(totals) {
                *sum = sum.saturating_add(n);
            }
            return;
        }
        let Some((name, result, message)) = test_line(text) else {
            return;
        };
        match result {
            "PASS" => self.lines[0] += 1,
            "FAIL" => {
                self.lines[1] += 1;
                self.failures.push(number, name);
                if let (Some(failure), Some(message)) = (self.failures.current(), message) {
                    failure.add_detail(&format!("{}: {message}", location(text, name)));
                }
            }
            _ => self.lines[2] += 1,
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let [binaries, tests, failures, ignored] = self.totals;
        if binaries == 0 {
            return None;
        }
        let mut line = format!(
            "unity: {}, {} passed, {} failed, {} ignored",
            plural(tests, "test", "tests"),
            thousands(tests.saturating_sub(failures + ignored)),
            thousands(failures),
            thousands(ignored)
        );
        if binaries > 1 {
            line.push_str(&format!(" ({} test binaries)", thousands(binaries)));
        }
        let json = json!({
            "shape": "unity",
            "binaries": binaries,
            "tests": tests,
            "failed": failures,
            "ignored": ignored,
            "lines": {"pass": self.lines[0], "fail": self.lines[1], "ignore": self.lines[2]},
        });
        let failed = self.failures.take_as("failed tests");
        Some(
            Fact::new("unity", vec![line], json)
                .failures(failed)
                .hint_if_failed(failures > 0, "':FAIL|^[0-9]+ Tests '"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
    }
}

/// `30 Tests 0 Failures 0 Ignored ` → [30, 0, 0].
fn total_line(text: &str) -> Option<[u64; 3]> {
    if !text.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let mut words = text.split_ascii_whitespace();
    let mut numbers = [0; 3];
    for (n, word) in numbers.iter_mut().zip(["Tests", "Failures", "Ignored"]) {
        *n = words.next()?.parse().ok()?;
        if words.next()? != word {
            return None;
        }
    }
    words.next().is_none().then_some(numbers)
}

/// `tests/misc.c:805:test_name:FAIL: Expected 1 Was 2` → (`test_name`, `FAIL`,
/// `Expected 1 Was 2`).
fn test_line(text: &str) -> Option<(&str, &str, Option<&str>)> {
    // `:PASS` and `:IGNORE` end the line, `:FAIL` follows the name: most lines have none,
    // which one fast search tells.
    static FAIL: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(":FAIL"));
    let fail = FAIL.find(text.as_bytes());
    let (before, message) = match fail.map(|at| (&text[..at], &text[at + 5..])) {
        Some((before, after)) => (before, Some(after.trim_start_matches(':').trim())),
        None => {
            let before = text
                .strip_suffix(":PASS")
                .or_else(|| text.strip_suffix(":IGNORE"))?;
            (before, None)
        }
    };
    let result = if message.is_some() {
        "FAIL"
    } else if text.ends_with(":PASS") {
        "PASS"
    } else {
        "IGNORE"
    };
    // `file.c:805:test_name`: a file, a line number, a C identifier.
    let (place, name) = before.rsplit_once(':')?;
    let (file, line) = place.rsplit_once(':')?;
    let identifier = !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !name.as_bytes()[0].is_ascii_digit();
    let valid = identifier
        && !file.is_empty()
        && !line.is_empty()
        && line.bytes().all(|b| b.is_ascii_digit());
    valid.then_some((name, result, message.filter(|m| !m.is_empty())))
}

/// `tests/misc.c:805` of a test line.
fn location<'a>(text: &'a str, name: &str) -> &'a str {
    text.split_once(&format!(":{name}:"))
        .map_or(text, |(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_and_total_lines() {
        assert_eq!(
            test_line("/home/dev/cJSON/tests/misc_tests.c:805:cjson_array_foreach:PASS"),
            Some(("cjson_array_foreach", "PASS", None))
        );
        assert_eq!(
            test_line("tests/t.c:12:test_add:FAIL: Expected 3 Was 2"),
            Some(("test_add", "FAIL", Some("Expected 3 Was 2")))
        );
        assert_eq!(
            test_line("tests/t.c:13:test_later:IGNORE"),
            Some(("test_later", "IGNORE", None))
        );
        assert_eq!(test_line("x:PASS"), None);
        assert_eq!(test_line("a:b:c d:PASS"), None);
        assert_eq!(
            total_line("30 Tests 0 Failures 0 Ignored "),
            Some([30, 0, 0])
        );
        assert_eq!(total_line("30 Tests 0 Failures"), None);
        assert_eq!(
            location("tests/t.c:12:test_add:FAIL: Expected 3 Was 2", "test_add"),
            "tests/t.c:12"
        );
    }
}
