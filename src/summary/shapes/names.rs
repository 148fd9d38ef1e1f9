//! Helpers shared by the summarisers: bounded lists of names, failures with their first detail,
//! the test counts JS runners report.

use serde_json::json;

use crate::format::{cut, thousands};

/// `tests: 39 run, 35 passed, 4 failed, 1 skipped, 1 todo of 41`: the counts JS runners report
/// (`run` is passed + failed; zero skipped/todo are left out).
pub(crate) fn js_test_counts(
    passed: u64,
    failed: u64,
    skipped: u64,
    todo: u64,
    total: u64,
) -> String {
    let mut line = format!(
        "tests: {} run, {} passed, {} failed",
        thousands(passed + failed),
        thousands(passed),
        thousands(failed)
    );
    if skipped > 0 {
        line.push_str(&format!(", {} skipped", thousands(skipped)));
    }
    if todo > 0 {
        line.push_str(&format!(", {} todo", thousands(todo)));
    }
    line.push_str(&format!(" of {}", thousands(total)));
    line
}

/// Names kept for display: the first `NAMES_KEPT` and the last, each cut short, and how many
/// there were.
#[derive(Debug, Default)]
pub(crate) struct Names {
    pub(crate) kept: Vec<String>,
    last: Option<String>,
    pub(crate) total: u64,
}

/// How many names (failing tests, files, packages…) are shown whole; more are shown as the
/// first `NAMES_FIRST`, a count, and the last.
pub(crate) const NAMES_KEPT: usize = 12;
const NAMES_FIRST: usize = 5;
const NAME_CHARS: usize = 160;

impl Names {
    pub(crate) fn push(&mut self, name: &str) {
        self.total += 1;
        if self.kept.len() < NAMES_KEPT {
            self.kept.push(cut(name, NAME_CHARS));
        } else {
            self.last = Some(cut(name, NAME_CHARS));
        }
    }

    /// Whether `name` is among the names kept (the first ones and the last).
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.kept.iter().chain(&self.last).any(|n| n == name)
    }

    /// All the names when there are at most `NAMES_KEPT`, else `a, b, c, d, e, … 12 more …, z`.
    /// `total` is the count stated elsewhere, which may exceed the names seen (then the last
    /// seen is not shown as the last).
    pub(crate) fn render(&self, total: u64) -> String {
        self.render_joined(total, ", ")
    }

    /// [`Names::render`] with `separator` between names.
    pub(crate) fn render_joined(&self, total: u64, separator: &str) -> String {
        let seen_all = total <= self.total;
        if seen_all && self.total <= NAMES_KEPT as u64 {
            return self.kept.join(separator);
        }
        let first = &self.kept[..self.kept.len().min(NAMES_FIRST)];
        let mut out = first.join(separator);
        let last = self.last.as_ref().or(self.kept.last()).filter(|_| seen_all);
        let more = total.saturating_sub(first.len() as u64 + u64::from(last.is_some()));
        if more > 0 {
            out.push_str(&format!("{separator}… {} more", thousands(more)));
        }
        if let Some(last) = last {
            out.push_str(&format!(" …{separator}{last}"));
        }
        out
    }

    /// The names kept, the last one included.
    pub(crate) fn json(&self) -> serde_json::Value {
        json!(self.kept.iter().chain(&self.last).collect::<Vec<_>>())
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.kept.capacity() * std::mem::size_of::<String>()
            + self
                .kept
                .iter()
                .chain(&self.last)
                .map(String::capacity)
                .sum::<usize>()
    }
}

/// One failure: where it was reported, its name, and its first detail (a few lines).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) line: u64,
    pub(crate) name: String,
    pub(crate) detail: Vec<String>,
}

/// Detail lines kept per failure, and their length.
const DETAIL_LINES: usize = 4;
const DETAIL_CHARS: usize = 160;
/// Failures kept whole (the first ones), besides the last.
const FAILURES_KEPT: usize = 40;

/// Failures in the order a reader needs them, bounded: the first `FAILURES_KEPT` and the last,
/// with how many there were.
#[derive(Clone, Debug, Default)]
pub(crate) struct Failures {
    /// What the list is, for its heading (`failed tests`, `first error of each code`).
    pub(crate) heading: &'static str,
    pub(crate) kept: Vec<Failure>,
    pub(crate) last: Option<Failure>,
    pub(crate) total: u64,
}

impl Failures {
    pub(crate) fn new(heading: &'static str) -> Failures {
        Failures {
            heading,
            ..Failures::default()
        }
    }

    /// A new failure, reported at `line`.
    pub(crate) fn push(&mut self, line: u64, name: &str) {
        self.push_failure(Failure {
            line,
            name: cut(name, NAME_CHARS),
            detail: Vec::new(),
        });
    }

    /// A failure made elsewhere.
    pub(crate) fn push_failure(&mut self, failure: Failure) {
        self.total += 1;
        if self.kept.len() < FAILURES_KEPT {
            self.kept.push(failure);
        } else {
            self.last = Some(failure);
        }
    }

    /// The failure pushed last, if it is kept.
    pub(crate) fn current(&mut self) -> Option<&mut Failure> {
        match &mut self.last {
            Some(last) => Some(last),
            None => self.kept.last_mut(),
        }
    }

    /// The kept failure named `name`, the latest first.
    pub(crate) fn named(&mut self, name: &str) -> Option<&mut Failure> {
        if self.last.as_ref().is_some_and(|l| l.name == name) {
            return self.last.as_mut();
        }
        self.kept.iter_mut().rev().find(|f| f.name == name)
    }

    /// The list, taken out to be stated under `heading`; an empty one is left.
    pub(crate) fn take_as(&mut self, heading: &'static str) -> Failures {
        Failures {
            heading,
            ..std::mem::take(self)
        }
    }

    /// The names of the first `most` kept failures.
    pub(crate) fn names(&self, most: usize) -> Vec<String> {
        self.iter().take(most).map(|f| f.name.clone()).collect()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Every kept failure, the last included.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Failure> {
        self.kept.iter().chain(&self.last)
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        json!({
            "heading": self.heading,
            "total": self.total,
            "kept": self
                .iter()
                .map(|f| json!({"line": f.line, "name": f.name, "detail": f.detail}))
                .collect::<Vec<_>>(),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.iter()
            .map(|f| {
                std::mem::size_of::<Failure>()
                    + f.name.capacity()
                    + f.detail.iter().map(|d| d.capacity() + 24).sum::<usize>()
            })
            .sum()
    }
}

impl Failure {
    /// Adds a line of detail, unless it has enough. Returns whether it was added.
    pub(crate) fn add_detail(&mut self, text: &str) -> bool {
        let text = text.trim();
        if self.detail.len() >= DETAIL_LINES || text.is_empty() {
            return false;
        }
        self.detail.push(cut(text, DETAIL_CHARS));
        true
    }

    pub(crate) fn has_detail(&self) -> bool {
        !self.detail.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_show_all_when_few_else_first_and_last() {
        let mut few = Names::default();
        for n in ["a", "b", "c"] {
            few.push(n);
        }
        assert_eq!(few.render(3), "a, b, c");
        assert_eq!(few.render(5), "a, b, c, … 2 more");
        let mut many = Names::default();
        for i in 1..=12 {
            many.push(&format!("t{i}"));
        }
        assert_eq!(
            many.render(12),
            "t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12"
        );
        many.push("t13");
        assert_eq!(many.render(13), "t1, t2, t3, t4, t5, … 7 more …, t13");
        assert!(many.contains("t13") && many.contains("t12") && !many.contains("t14"));
    }
}
