//! mocha (spec, dot, list and min reporters): the totals (`1190 passing (2s)`, `4 pending`,
//! `66 failing`), then each failure as a numbered title over several indented lines
//! (`  1) express.static()` … `should skip POST requests:`), its error (`Error: expected 'Not
//! Found' response body, got '404'`, or an `AssertionError` with the values compared) and its
//! stack, whose frame in the test (`at Context.<anonymous>`), or else its first frame outside
//! `node_modules` and Node's internals, is the test's line. A
//! failure is named by its full title, its parts joined by a space (its describe blocks, then the
//! test), as mocha names it itself (`--grep` takes it, its JSON and TAP reporters print it).
//! The totals of several runs in one log are summed.

use serde_json::json;

use super::change::Change;
use super::jest::location;
use super::names::{Failures, numbered};
use super::{Fact, Shape};
use crate::format::thousands;

/// Lines of an error's message kept: the message and, after a `:`, the two values compared.
const MESSAGE_LINES: usize = 3;
/// Lines of a message's values read at most.
const VALUE_LINES: usize = 64;
/// The legend of chai's diff of the values compared, printed under the message.
const DIFF_LEGEND: &str = "+ expected - actual";
/// Lines of a title kept at most (a title deeper than this is cut; its failure is still counted).
const TITLE_PARTS: usize = 12;

/// Runs that failed stated with their own totals (of a log of several).
const FAILED_RUNS_SHOWN: usize = 6;

#[derive(Debug, Default)]
pub(crate) struct Mocha {
    /// Summed over runs (a log of several): passing, pending, failing; and the runs.
    totals: [u64; 3],
    runs: u64,
    /// The last run's `passing` total.
    last_passing: u64,
    /// The runs that failed (of a log of several): which, passing, failing.
    failed_runs: Vec<(u64, u64, u64)>,
    failed_runs_total: u64,
    failures: Failures,
    /// Reading the failures' list (after the `failing` total).
    in_failures: bool,
    reading: Reading,
    /// Right after a title's part that ends with `:`: how far a further part would be indented
    /// (mocha indents part k by 5 + 2k). A describe block's own name may end with `:`
    /// (`Win-1251:`), and then the title goes on.
    title_next: Option<usize>,
    /// The lines of the failure's message after its first (the values it compares).
    values: Vec<String>,
}

/// Where in a failure's block the lines are.
#[derive(Debug, Default)]
enum Reading {
    #[default]
    Nothing,
    /// The title, until its part that ends with `:`: the line it began on, its parts.
    Title(u64, Vec<String>),
    /// The error's message (its first line, and the values of an assertion after a `:`).
    Message,
    /// The diff of the values compared (`+ expected - actual`), until the stack.
    Diff(Change),
    /// The stack, until the test's own frame, with the first frame in the tests' own code
    /// before it (a helper's that the test called), said if the test's never comes.
    Stack(Option<String>),
}

impl Shape for Mocha {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((n, word)) = total(text) {
            self.end_stack();
            self.end_message();
            match word {
                "passing" => {
                    // A run's totals: what follows is its failure list, not an earlier one's.
                    self.totals[0] = self.totals[0].saturating_add(n);
                    self.runs += 1;
                    self.last_passing = n;
                    self.in_failures = false;
                    self.reading = Reading::Nothing;
                }
                "pending" => self.totals[1] += n,
                _ => {
                    self.totals[2] = self.totals[2].saturating_add(n);
                    self.in_failures = true;
                    self.failed_runs_total += 1;
                    if self.failed_runs.len() < FAILED_RUNS_SHOWN {
                        self.failed_runs.push((self.runs, self.last_passing, n));
                    }
                }
            }
            return;
        }
        if !self.in_failures {
            return;
        }
        if let Some(rest) = numbered(text) {
            self.end_stack();
            self.end_message();
            self.reading = Reading::Title(number, Vec::new());
            self.title_part(rest);
            return;
        }
        let trimmed = text.trim();
        let indent = text.len() - text.trim_start().len();
        match &mut self.reading {
            Reading::Nothing => {}
            Reading::Title(..) => {
                if !trimmed.is_empty() {
                    self.title_part(trimmed);
                }
            }
            Reading::Message => {
                let Some(failure) = self.failures.current() else {
                    return;
                };
                if self.title_next.take() == Some(indent) && failure.detail.is_empty() {
                    let part = trimmed.strip_suffix(':').unwrap_or(trimmed);
                    failure.name = crate::format::cut(&format!("{}: {part}", failure.name), 160);
                    self.title_next = Some(indent + 2);
                    return;
                }
                if trimmed.is_empty() || trimmed == "+ actual - expected" {
                    return;
                }
                if trimmed == DIFF_LEGEND {
                    self.end_message();
                    self.reading = Reading::Diff(Change::at(indent));
                    return;
                }
                // Past the message and the values it compares: the caret under them, the
                // stack.
                if trimmed.starts_with("at ") || trimmed == "^" {
                    self.end_message();
                    self.reading = Reading::Stack(None);
                    if trimmed.starts_with("at ") {
                        self.line(number, text);
                    }
                    return;
                }
                if failure.detail.is_empty() {
                    failure.add_detail(trimmed);
                    // `Expected values to be strictly equal:` is followed by the values.
                    if !trimmed.ends_with(':') {
                        self.reading = Reading::Stack(None);
                    }
                } else if self.values.len() < VALUE_LINES {
                    self.values.push(crate::format::cut(trimmed, 200));
                }
            }
            Reading::Diff(change) => {
                if !trimmed.starts_with("at ") {
                    change.line(indent, trimmed);
                    return;
                }
                // Where the values differ, when the message did not show them (`expected [ [
                // 1, 2.2, 1000 ], …(3) ] to deeply equal …`): the diff's first change, after
                // its legend (which of `-` and `+` is expected is chai's choice).
                let details: Vec<String> = change.details().collect();
                if let Some(failure) = self.failures.current()
                    && failure.detail.len() == 1
                    && !details.is_empty()
                {
                    failure.add_detail(&format!("{DIFF_LEGEND}: {}", details.join(" · ")));
                }
                self.reading = Reading::Stack(None);
                self.line(number, text);
            }
            Reading::Stack(_) if trimmed == DIFF_LEGEND => {
                self.reading = Reading::Diff(Change::at(indent));
            }
            Reading::Stack(helper) => {
                if !trimmed.starts_with("at ") {
                    // Past the frames (a message's values come before them).
                    if helper.is_some() {
                        self.end_stack();
                    }
                    return;
                }
                let Some(place) = location(trimmed) else {
                    return;
                };
                // The test's own frame: mocha calls it on its `Context`. A helper in another
                // file that it called (`at equal (tests/util.js:61:20)`) is where every test
                // using it fails; a function of the test's own file, closer to what failed.
                let own = trimmed.strip_prefix("at ").is_some_and(|f| {
                    f.strip_prefix("async ")
                        .unwrap_or(f)
                        .starts_with("Context.")
                });
                match helper {
                    None => *helper = Some(place.to_owned()),
                    Some(h) if own && !same_file(h, place) => *h = place.to_owned(),
                    Some(_) => {}
                }
                if own {
                    self.end_stack();
                }
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_stack();
        self.end_message();
        if self.runs == 0 {
            return None;
        }
        let [passing, pending, failing] = self.totals;
        let mut line = format!(
            "tests: {} run, {} passed, {} failed",
            thousands(passing + failing),
            thousands(passing),
            thousands(failing)
        );
        if pending > 0 {
            line.push_str(&format!(", {} pending", thousands(pending)));
        }
        if self.runs > 1 {
            line.push_str(&format!(" (mocha, {} runs", thousands(self.runs)));
            // Which of them failed, with their own totals.
            if failing > 0 {
                let runs: Vec<String> = self
                    .failed_runs
                    .iter()
                    .map(|(run, p, f)| {
                        format!(
                            "run {run}: {} passed, {} failed",
                            thousands(*p),
                            thousands(*f)
                        )
                    })
                    .collect();
                line.push_str(&format!("; {}", runs.join("; ")));
                let more = self.failed_runs_total - self.failed_runs.len() as u64;
                if more > 0 {
                    line.push_str(&format!("; {} more failed", thousands(more)));
                }
            }
            line.push(')');
        } else {
            line.push_str(" (mocha)");
        }
        let json = json!({
            "shape": "mocha",
            "runs": self.runs,
            "passing": passing,
            "pending": pending,
            "failing": failing,
        });
        let failures = self.failures.take_as("failed tests");
        Some(
            Fact::new("mocha", vec![line], json)
                .failures(failures)
                .hint_if_failed(failing > 0, "'^  [0-9]+\\) ' -A 8"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        let title = match &self.reading {
            Reading::Title(_, parts) => parts.iter().map(|p| p.capacity() + 24).sum(),
            _ => 0,
        };
        self.failures.approx_heap()
            + title
            + self.failed_runs.capacity() * 24
            + self.values.iter().map(|v| v.capacity() + 24).sum::<usize>()
    }
}

/// Whether two frames' places (`test/a.js:41:11`, `/home/dev/p/test/a.js:42:26`) are in one
/// file, named from the directory it ran in or in full.
fn same_file(a: &str, b: &str) -> bool {
    fn path(place: &str) -> &str {
        place
            .strip_prefix("file://")
            .unwrap_or(place)
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == ':')
    }
    let (a, b) = (path(a), path(b));
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.strip_suffix(short)
        .is_some_and(|before| before.is_empty() || before.ends_with('/'))
}

impl Mocha {
    /// The message's lines after its first are over. Node's assertion says both values around
    /// `should loosely deep-equal`, each over lines (`[`, `'c',`, `]`): one line of detail, as
    /// it reads (`[] should loosely deep-equal [ 'c', 'c.md' ]`). Other lines are said each
    /// (`+ 'Рсйгжу!'`, `- 'Привет!'`), the first few.
    /// The stack is over: the place read in it is the failure's.
    fn end_stack(&mut self) {
        if let Reading::Stack(place) = std::mem::replace(&mut self.reading, Reading::Nothing)
            && let Some(place) = place
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(&format!("at {place}"));
        }
    }

    fn end_message(&mut self) {
        let values = std::mem::take(&mut self.values);
        let Some(failure) = self.failures.current() else {
            return;
        };
        if values.iter().any(|v| v.starts_with("should ")) {
            failure.add_detail(&values.join(" "));
            return;
        }
        for value in values {
            if failure.detail.len() >= MESSAGE_LINES {
                break;
            }
            failure.add_detail(&value);
        }
    }

    /// A part of the title being read; the one ending with `:` completes it.
    fn title_part(&mut self, part: &str) {
        let Reading::Title(at, parts) = &mut self.reading else {
            return;
        };
        let (part, last) = match part.strip_suffix(':') {
            Some(part) => (part, true),
            None => (part, false),
        };
        if parts.len() < TITLE_PARTS {
            // The name is cut to 160 characters anyway.
            parts.push(crate::format::cut(part, 160));
        }
        if last {
            // Its group is its outermost describe block.
            let group = (parts.len() > 1).then(|| parts[0].len());
            let (at, name) = (*at, parts.join(" "));
            self.failures.push(at, &name);
            if let Some(failure) = self.failures.current() {
                failure.group = group;
            }
            let next = 5 + 2 * parts.len();
            self.reading = Reading::Message;
            self.title_next = Some(next);
        }
    }
}

/// `  1190 passing (2s)` → (1190, `passing`); `  4 pending`; `  66 failing`.
fn total(text: &str) -> Option<(u64, &str)> {
    let t = text.strip_prefix("  ")?;
    let (n, rest) = t.split_once(' ')?;
    let n = n.parse().ok()?;
    let word = match rest {
        "pending" | "failing" => rest,
        _ if rest == "passing" || (rest.starts_with("passing (") && rest.ends_with(')')) => {
            "passing"
        }
        _ => return None,
    };
    Some((n, word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_and_failure_starts() {
        assert_eq!(total("  1190 passing (2s)"), Some((1190, "passing")));
        assert_eq!(total("  4 pending"), Some((4, "pending")));
        assert_eq!(total("  66 failing"), Some((66, "failing")));
        assert_eq!(total("  3 passing tests"), None);
        assert_eq!(total("66 failing"), None);
        assert_eq!(numbered("  12) express.static()"), Some("express.static()"));
        assert_eq!(numbered("    1) should work"), None);
        assert_eq!(numbered("  x) y"), None);
    }

    #[test]
    fn a_file_named_from_the_root_or_in_full_is_one_file() {
        assert!(same_file(
            "test/option-maxAge.test.js:41:11",
            "/home/dev/node-jsonwebtoken/test/option-maxAge.test.js:42:26"
        ));
        assert!(same_file("file:///p/test/a.js:3:1", "test/a.js:9:2"));
        assert!(!same_file(
            "tests/util.js:61:20",
            "tests/compiler.js:1857:7"
        ));
        assert!(!same_file("a.js:1:1", "/p/data.js:2:2"));
    }
}
