//! tap-spec, the reporter tape's users pipe its TAP through (`tape test/*.js | tap-spec`): each
//! test's name at two spaces, its assertions under it (`✔ returns instance of Sade`, `✖ exits
//! with error code`), a failed assertion's diagnostics after a rule of dashes (`operator: equal`,
//! `expected: 1`, `actual:   0`, a value over lines after `|-`, `at: Test.<anonymous>
//! (/a/test/usage.js:21:4)`), then `Failed Tests: There were 34 failures` listing them again,
//! and the closing `total:`, `passing:` and `failing:` counts of assertions. A failure is named
//! `test › assertion`; its detail is the values compared and where.

use serde_json::json;

use super::names::{Failures, where_they_differ};
use super::tap::frame_place;
use super::{Fact, Shape};
use crate::format::thousands;

/// How much of a test's name is kept (its start, where it is cut on a character's boundary).
const TEST_BYTES: usize = 160;
/// How much of a value compared is shown, around where the two differ.
const VALUE_CHARS: usize = 60;

#[derive(Debug, Default)]
pub(crate) struct TapSpec {
    failures: Failures,
    /// The test whose assertions are being read.
    test: String,
    /// The diagnostics of the failed assertion read last, while they go on.
    diagnostics: Option<Diagnostics>,
    /// Past `Failed Tests:`, which lists the failures again.
    listed: bool,
    /// Assertions marked passed or failed.
    marks: u64,
    /// `total:`, `passing:`, `failing:`.
    counts: [Option<u64>; 3],
}

#[derive(Debug, Default)]
struct Diagnostics {
    /// After the rule that opens them.
    open: bool,
    expected: Option<String>,
    actual: Option<String>,
    at: Option<String>,
    /// A value over the lines after `key: |-`, indented deeper than the key.
    block: Option<(Value, usize)>,
    /// Inside the stack, indented deeper than this.
    stack: Option<usize>,
}

#[derive(Clone, Copy, Debug)]
enum Value {
    Expected,
    Actual,
}

const COUNTS: [&str; 3] = ["total:", "passing:", "failing:"];

impl Shape for TapSpec {
    fn line(&mut self, number: u64, text: &str) {
        let indent = text.bytes().take_while(|&b| b == b' ').count();
        let rest = &text[indent..];
        // Cheap first: a line deeper than a test's name is a mark (`✔`, `✖`) or a failure's
        // diagnostics, or nothing of tap-spec's.
        if indent > 2
            && self.diagnostics.is_none()
            && !rest.starts_with('\u{2714}')
            && !rest.starts_with('\u{2716}')
        {
            return;
        }
        let t = rest.trim_end();
        if self.marks > 0
            && indent == 2
            && let Some(i) = COUNTS.iter().position(|c| t.starts_with(c))
            && let Ok(n) = t[COUNTS[i].len()..].trim().parse()
        {
            self.end_diagnostics();
            self.counts[i] = Some(n);
            return;
        }
        if self.listed {
            return;
        }
        if self.marks > 0 && t.starts_with("Failed Tests: There w") {
            self.end_diagnostics();
            self.listed = true;
            return;
        }
        if t.starts_with("✔ ") {
            self.end_diagnostics();
            self.marks += 1;
            return;
        }
        if let Some(name) = t.strip_prefix("✖ ") {
            self.end_diagnostics();
            self.marks += 1;
            let name = if self.test.is_empty() {
                name.to_owned()
            } else {
                format!("{} › {name}", self.test)
            };
            self.failures.push(number, &name);
            self.diagnostics = Some(Diagnostics::default());
            return;
        }
        if t.is_empty() {
            return;
        }
        if indent <= 2 {
            self.end_diagnostics();
            if indent == 2 {
                // Most lines at two spaces are other tools': the name's room is reused.
                self.test.clear();
                self.test.push_str(&t[..t.floor_char_boundary(TEST_BYTES)]);
            }
            return;
        }
        if let Some(d) = &mut self.diagnostics {
            d.line(indent, t);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_diagnostics();
        let [Some(total), Some(passing), failing] = self.counts else {
            return None;
        };
        let failing = failing.unwrap_or(self.failures.total);
        let line = format!(
            "tests: {} assertions, {} passing, {} failing (tap-spec)",
            thousands(total),
            thousands(passing),
            thousands(failing)
        );
        let json = json!({
            "shape": "tap-spec",
            "total": total,
            "passing": passing,
            "failing": failing,
        });
        Some(
            Fact::new("tap-spec", vec![line], json)
                .failures(self.failures.take_as("failed assertions"))
                .hint_if_failed(failing > 0, "'✖' -A 8"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.test.capacity()
            + self.diagnostics.as_ref().map_or(0, |d| {
                [&d.expected, &d.actual, &d.at]
                    .iter()
                    .map(|v| v.as_ref().map_or(0, String::capacity))
                    .sum()
            })
    }
}

impl TapSpec {
    /// The failed assertion's diagnostics are over: its values and where, as its detail.
    fn end_diagnostics(&mut self) {
        let Some(d) = self.diagnostics.take() else {
            return;
        };
        let Some(f) = self.failures.current() else {
            return;
        };
        match (d.expected, d.actual) {
            (Some(expected), Some(actual)) => {
                let (expected, actual) = where_they_differ(
                    &format!("expected: {expected}"),
                    &format!("actual: {actual}"),
                    VALUE_CHARS,
                );
                f.add_detail(&expected);
                f.add_detail(&actual);
            }
            (Some(value), None) => {
                f.add_detail(&format!("expected: {value}"));
            }
            (None, Some(value)) => {
                f.add_detail(&format!("actual: {value}"));
            }
            (None, None) => {}
        }
        if let Some(at) = d.at {
            f.add_detail(&at);
        }
    }
}

impl Diagnostics {
    fn line(&mut self, indent: usize, t: &str) {
        if !self.open {
            self.open = t.len() >= 3 && t.bytes().all(|b| b == b'-');
            return;
        }
        if let Some((which, deeper)) = self.block {
            if indent > deeper {
                let value = match which {
                    Value::Expected => &mut self.expected,
                    Value::Actual => &mut self.actual,
                };
                // A value over several lines is read as one, up to what is shown of it.
                match value {
                    Some(v) if v.chars().count() < VALUE_CHARS * 4 => {
                        v.push_str("\\n");
                        v.push_str(t);
                    }
                    Some(_) => {}
                    None => *value = Some(t.to_owned()),
                }
                return;
            }
            self.block = None;
        }
        if let Some(deeper) = self.stack {
            if indent > deeper {
                return;
            }
            self.stack = None;
        }
        let Some((key, value)) = t
            .split_once(':')
            .map(|(k, v)| (k, v.trim()))
            .filter(|(k, _)| !k.contains(' '))
        else {
            return;
        };
        let which = match key {
            "expected" => Value::Expected,
            "actual" => Value::Actual,
            "at" => {
                self.at = frame_place(value).map(|place| format!("at {place}"));
                return;
            }
            "stack" => {
                self.stack = Some(indent);
                return;
            }
            _ => return,
        };
        if value.starts_with(['|', '>']) {
            self.block = Some((which, indent));
        } else {
            match which {
                Value::Expected => self.expected = Some(value.to_owned()),
                Value::Actual => self.actual = Some(value.to_owned()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Box<TapSpec> {
        let mut shape = Box::<TapSpec>::default();
        for (n, line) in lines.iter().enumerate() {
            shape.line(n as u64 + 1, line);
        }
        shape
    }

    /// A failed assertion's values over lines are shown where they differ, then where.
    #[test]
    fn a_failed_assertion_is_named_by_its_test_and_told_by_its_values() {
        let mut shape = read(&[
            "  utils.help",
            "",
            "    ✔ is a function",
            "",
            "    ✖ should be equal",
            "    ------------------",
            "      operator: equal",
            "      expected: |-",
            "        '\\n  Usage\\n    $ foo fizz <buzz> [options]\\n\\n  Options\\n    -h, --help    Displays this message\\n'",
            "      actual: |-",
            "        '\\n  Usage\\n    $ foo fizz <buzz> [options]\\n\\n  Options\\n    -h, --help   Displays this message\\n'",
            "      at: Test.<anonymous> (/home/dev/sade/test/utils.js:50:4)",
            "      stack: |-",
            "",
            "  total:     2",
            "  passing:   1",
            "  failing:   1",
        ]);
        let f = shape.failures.current().expect("a failure").clone();
        assert_eq!(f.name, "utils.help › should be equal");
        assert_eq!(f.detail.len(), 3, "{:?}", f.detail);
        assert!(f.detail[0].starts_with("expected: …"), "{:?}", f.detail);
        assert!(f.detail[0].contains("-h, --help    Displays"));
        assert!(f.detail[1].contains("-h, --help   Displays"));
        assert_eq!(f.detail[2], "at /home/dev/sade/test/utils.js:50:4");
        let fact = shape.finish().expect("tap-spec's counts");
        assert_eq!(
            fact.lines,
            ["tests: 2 assertions, 1 passing, 1 failing (tap-spec)"]
        );
    }

    /// Counts without a mark before them are some other tool's.
    #[test]
    fn counts_alone_are_not_tap_spec_s() {
        let shape = read(&["  total:     2", "  passing:   2"]);
        assert!(shape.finish().is_none());
    }
}
