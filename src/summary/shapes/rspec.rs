//! RSpec: the total (`1138 examples, 16 failures, 14 pending`, with `N errors occurred outside
//! of examples`), the `Failures:` section (`  1) Dry::Inflector#ordinalize ordinalizes 2 =>
//! 2nd`, the failing line echoed after `Failure/Error:`, the message — `expected: "2nd"` /
//! `got: "2rd"`, or the exception — and `# ./spec/x_spec.rb:7:in …`), files that failed to
//! load (`An error occurred while loading ./spec/x_spec.rb.`), and `Failed examples:` (`rspec
//! ./spec/x_spec.rb:9 # description`). The `Pending:` section is not read for failures.

use serde_json::json;

use super::names::{Failures, is_test_file, numbered};
use super::{Fact, Shape};
use crate::format::thousands;

/// Lines of a failure's message kept (the location comes after them).
const MESSAGE_LINES: usize = 3;

#[derive(Debug, Default)]
pub(crate) struct Rspec {
    /// examples, failures, pending, errors outside of examples.
    totals: Option<[u64; 4]>,
    failed_examples: u64,
    failures: Failures,
    section: Section,
    /// The failure being read is past its message (its location was taken or it has enough).
    detailed: bool,
    /// Inside the statement echoed under a bare `Failure/Error:` (a heredoc's lines).
    echo: bool,
    /// The place it raised (`./lib/a.rb:30:in `initialize'`) while its backtrace is read.
    raised: Option<String>,
    /// The kept failures' rerun targets (`./spec/change_spec.rb:58`) by their number, from
    /// `Failed examples:`: examples of one description are told apart by them.
    targets: Vec<(u64, String)>,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum Section {
    #[default]
    Other,
    Failures,
    /// `An error occurred while loading …`: its exception follows.
    LoadError,
    FailedExamples,
}

impl Shape for Rspec {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(totals) = totals(text) {
            self.totals = Some(totals);
            self.section = Section::Other;
            return;
        }
        match text {
            "Failures:" => {
                self.section = Section::Failures;
                return;
            }
            "Failed examples:" => {
                self.section = Section::FailedExamples;
                return;
            }
            "Pending: (Failures listed here are expected and do not affect your suite's status)" => {
                self.section = Section::Other;
                return;
            }
            _ => {}
        }
        if text.starts_with("Finished in ") {
            self.section = Section::Other;
            return;
        }
        if let Some(what) = text.strip_prefix("An error occurred ") {
            self.failures
                .push(number, &format!("An error occurred {what}"));
            self.section = Section::LoadError;
            self.detailed = false;
            return;
        }
        match self.section {
            Section::Other => {}
            Section::FailedExamples => {
                if text.starts_with("rspec ./") || text.starts_with("rspec '") {
                    self.failed_examples += 1;
                    self.target(text);
                }
            }
            Section::Failures | Section::LoadError => {
                if self.section == Section::Failures
                    && let Some(name) = numbered(text)
                {
                    self.failures.push_said(number, name, text);
                    // RSpec joins `describe Dry::Inflector` and `describe "#ordinalize"` into
                    // `Dry::Inflector#ordinalize`: the first word is the group.
                    if let Some(failure) = self.failures.current() {
                        failure.group = failure.name.find(' ');
                    }
                    self.detailed = false;
                    self.echo = false;
                    self.raised = None;
                    return;
                }
                self.detail(text);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let [examples, failures, pending, errors] = self.totals?;
        let mut line = format!(
            "tests: {} examples, {} passed, {} failed",
            thousands(examples),
            thousands(examples.saturating_sub(failures + pending)),
            thousands(failures)
        );
        if pending > 0 {
            line.push_str(&format!(", {} pending", thousands(pending)));
        }
        if errors > 0 {
            line.push_str(&format!(
                ", {} outside of examples",
                crate::format::plural(errors, "error", "errors")
            ));
        }
        line.push_str(" (rspec)");
        let json = json!({
            "shape": "rspec",
            "examples": examples,
            "failed": failures,
            "pending": pending,
            "errors_outside_examples": errors,
            "failed_examples_listed": self.failed_examples,
        });
        self.tell_apart();
        let listed = self.failures.take_as("failed examples");
        Some(
            Fact::new("rspec", vec![line], json)
                .failures(listed)
                .hint_if_failed(
                    failures + errors > 0,
                    "'^rspec \\./|^  [0-9]+\\) |^An error occurred' -A 1",
                ),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.raised.as_ref().map_or(0, String::capacity)
            + self
                .targets
                .iter()
                .map(|(_, t)| t.capacity() + 32)
                .sum::<usize>()
    }
}

impl Rspec {
    /// A line under a failure: its message lines, then its location: where it raised and,
    /// when that is outside the specs, the example's own line (the last spec frame).
    fn detail(&mut self, text: &str) {
        let Some(failure) = self.failures.current() else {
            return;
        };
        let t = text.trim();
        // `# ./spec/unit/x_spec.rb:7:in `block (4 levels) in <top (required)>'`
        if let Some(at) = t.strip_prefix("# ./").or_else(|| t.strip_prefix("./")) {
            if let Some(raised) = &self.raised {
                let place = at.split(":in `").next().unwrap_or(at);
                if is_test_file(place)
                    && !is_test_file(raised)
                    && let Some(last) = failure.detail.last_mut()
                {
                    *last = format!("at ./{raised}, from ./{place}");
                }
            } else if !self.detailed && failure.has_detail() {
                // The method it raised in is kept (`:in `initialize'`), not a block's nesting.
                let at = if at.contains(":in `block ") {
                    at.split(":in `").next().unwrap_or(at)
                } else {
                    at
                };
                failure.add_detail(&format!("at ./{at}"));
                self.raised = Some(at.to_owned());
                self.detailed = true;
            }
            return;
        }
        self.raised = None;
        if self.detailed {
            return;
        }
        // A bare `Failure/Error:` echoes a statement of several lines (a heredoc) up to a
        // blank line; the message follows it. `Diff:` of the values said already runs to
        // the backtrace.
        if t == "Failure/Error:" || t == "Diff:" {
            self.echo = true;
            return;
        }
        if self.echo {
            self.echo = !t.is_empty();
            return;
        }
        let skip = t.is_empty()
            || t.starts_with("Failure/Error:")
            || t.starts_with('#')
            || t.starts_with("(compared using")
            || t.starts_with("Got ")
            || t.bytes().all(|b| b == b'^' || b == b' ');
        if skip || failure.detail.len() >= MESSAGE_LINES {
            return;
        }
        // Aggregated failures number theirs: `1.1) Failure/Error: …`, `1) expected: "-2nd"`.
        let t = t
            .split_once(") ")
            .filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            .map_or(t, |(_, rest)| rest);
        if !t.starts_with("Failure/Error:") {
            failure.add_detail(t);
        }
    }

    /// `rspec ./spec/change_spec.rb:58 # Diff::LCS::Change a finished_b`, the `n`th of
    /// `Failed examples:`: its target, kept for the `n)` failure if that is kept.
    fn target(&mut self, text: &str) {
        let n = self.failed_examples;
        let kept = self
            .failures
            .iter()
            .any(|f| f.said.as_deref().and_then(failure_number) == Some(n));
        let target = text["rspec ".len()..]
            .split(" # ")
            .next()
            .unwrap_or_default();
        if kept && !target.is_empty() {
            self.targets.push((n, target.to_owned()));
        }
    }

    /// Failures of one description (`Diff::LCS::Change a finished_b` six times), or of one
    /// line (examples made in a loop, which RSpec reruns by their ids:
    /// `./spec/a_spec.rb[6:10:9]`), named as RSpec's own rerun list names them:
    /// `./spec/change_spec.rb:58 # Diff::LCS::Change …`.
    fn tell_apart(&mut self) {
        let names: Vec<String> = self.failures.iter().map(|f| f.name.clone()).collect();
        for failure in self.failures.iter_mut() {
            let Some(n) = failure.said.as_deref().and_then(failure_number) else {
                continue;
            };
            let Some((_, target)) = self.targets.iter().find(|(k, _)| *k == n) else {
                continue;
            };
            let alike = names.iter().filter(|n| **n == failure.name).count() > 1;
            if alike || target.ends_with(']') {
                failure.name = format!("{target} # {}", failure.name.trim_end());
                // Said by that name: its header (`2) Diff::LCS::Change a finished_b`) says
                // what the others' do.
                failure.said = None;
            }
        }
    }
}

/// `  3) Diff::LCS::Change a finished_b` → 3: a failure's number, as its header says it.
fn failure_number(said: &str) -> Option<u64> {
    said.trim_start().split_once(") ")?.0.parse().ok()
}

/// `1138 examples, 16 failures, 14 pending`, `1 example, 0 failures`, `0 examples, 0 failures,
/// 1 error occurred outside of examples` → [examples, failures, pending, errors].
fn totals(text: &str) -> Option<[u64; 4]> {
    // A number and ` example` first: most lines are not this one.
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || !text[digits..].starts_with(" example") {
        return None;
    }
    let mut out = [0; 4];
    let mut parts = text.split(", ");
    let (n, word) = parts.next()?.split_once(' ')?;
    if !matches!(word, "example" | "examples") {
        return None;
    }
    out[0] = n.parse().ok()?;
    let (n, word) = parts.next()?.split_once(' ')?;
    if !matches!(word, "failure" | "failures") {
        return None;
    }
    out[1] = n.parse().ok()?;
    for part in parts {
        let (n, word) = part.split_once(' ')?;
        let n = n.parse().ok()?;
        if word == "pending" {
            out[2] = n;
        } else if word.starts_with("error") && word.ends_with("outside of examples") {
            out[3] = n;
        } else {
            return None;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_lines() {
        assert_eq!(
            totals("1138 examples, 16 failures, 14 pending"),
            Some([1138, 16, 14, 0])
        );
        assert_eq!(totals("1 example, 0 failures"), Some([1, 0, 0, 0]));
        assert_eq!(
            totals("0 examples, 0 failures, 1 error occurred outside of examples"),
            Some([0, 0, 0, 1])
        );
        assert_eq!(totals("3 examples of bad code, 2 failures"), None);
        assert_eq!(totals("12 failures, 3 examples"), None);
        assert_eq!(numbered("  12) Foo bar"), Some("Foo bar"));
        assert_eq!(numbered("      12.1) Failure/Error: x"), None);
    }
}
