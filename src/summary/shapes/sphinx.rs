//! Sphinx builds (`sphinx-build`, `make html`): its problems are lines of
//! `PLACE: WARNING: message [category]` (`docs/index.rst:12:`, `pyparsing/core.py:docstring of
//! pyparsing.core.Word:36:`, `<unknown>:1:`, or no place) and `ERROR:`, `CRITICAL:` or
//! `SEVERE:` likewise; it closes with its own count (`build finished with problems, 55
//! warnings (with warnings treated as errors).`, `build succeeded, 3 warnings.`).
//!
//! Counted: warnings and errors, warnings by category (`ref.class`, `toc.not_readable`; none
//! for a warning without one). Failures: every error, then the first warning of each category
//! (a nitpicky build's hundreds of `reference target not found` are one way of failing).
//! Read from Sphinx's own first line on (`Running Sphinx v…`): a `WARNING:` line alone is
//! any program's.

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural};

/// How much of the line a message ending in `:` goes on to is kept.
const GOING_ON_CHARS: usize = 120;
/// How much of a problem's message is kept.
const MESSAGE_CHARS: usize = 300;

#[derive(Debug, Default)]
pub(crate) struct Sphinx {
    /// `Running Sphinx v9.0.4` was seen.
    running: bool,
    /// The closing line, as printed, and the warnings it counted.
    closing: Option<(String, Option<u64>)>,
    warnings: u64,
    errors: u64,
    categories: Tally,
    /// The categories whose first warning is kept (the empty one for none).
    seen: Vec<String>,
    error_list: Failures,
    warning_list: Failures,
    /// A warning that goes on over the next lines.
    open: Option<Open>,
}

impl Shape for Sphinx {
    fn line(&mut self, number: u64, text: &str) {
        // Only a build Sphinx said it runs is read (with `-q` it says nothing of its own).
        if !self.running {
            self.running = text.starts_with("Running Sphinx v");
            return;
        }
        if let Some(rest) = text
            .strip_prefix("build finished with problems, ")
            .or_else(|| text.strip_prefix("build succeeded, "))
        {
            let count = rest
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .filter(|_| rest.contains(" warning"));
            self.closing = Some((cut(text, 160), count));
            return;
        }
        if text == "build succeeded." {
            self.closing = Some((text.to_owned(), Some(0)));
            return;
        }
        let found = problem(text);
        if let Some(open) = &mut self.open {
            // A warning that ended in `:` goes on: to an exception whose last line carries its
            // category (`AttributeError: one_of_many` then ` [autodoc.import_object]`), or to
            // what it was about. The next problem ends it too.
            open.lines += 1;
            if found.is_none()
                && let Some((said, category)) = categorised(text)
            {
                let mut open = self.open.take().unwrap_or_default();
                // The category alone on its line follows the exception's.
                let said = said.trim();
                if said.starts_with('[') {
                    open.detail.extend(open.last.take());
                }
                open.detail.push(cut(said, MESSAGE_CHARS));
                self.problem(open, category);
                return;
            }
            if open.lines < OPEN_LINES && found.is_none() {
                if !text.trim().is_empty() {
                    let line = cut(text.trim(), MESSAGE_CHARS);
                    // What it goes on to say is read in its first words (`intersphinx
                    // inventory '…' not fetchable due to <class …>: …`).
                    open.first.get_or_insert_with(|| cut(&line, GOING_ON_CHARS));
                    open.last = Some(line);
                }
                return;
            }
            let open = self.open.take().unwrap_or_default();
            self.problem(open.going_on(), "");
        }
        let Some((place, level, message)) = found else {
            return;
        };
        let said = cut(&format!("{level}: {message}"), MESSAGE_CHARS);
        let open = Open {
            line: number,
            place: place.to_owned(),
            level,
            detail: vec![said],
            lines: 0,
            first: None,
            last: None,
        };
        match categorised(message) {
            Some((_, category)) => self.problem(open, category),
            None if message.ends_with(':') => self.open = Some(open),
            None => self.problem(open, ""),
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if let Some(open) = self.open.take() {
            self.problem(open.going_on(), "");
        }
        if self.warnings + self.errors == 0 && self.closing.is_none() {
            return None;
        }
        let mut line = format!(
            "sphinx: {}, {}",
            plural(self.warnings, "warning", "warnings"),
            plural(self.errors, "error", "errors")
        );
        if let Some(categories) = self.categories.render()
            && categories != format!("none ×{}", self.warnings)
        {
            line.push_str(&format!("; warnings by category: {categories}"));
        }
        let json = json!({
            "shape": "sphinx",
            "warnings": self.warnings,
            "errors": self.errors,
            "categories": self.categories.json(),
            "closing": self.closing.as_ref().map(|c| c.0.clone()),
            "closing_warnings": self.closing.as_ref().and_then(|c| c.1),
        });
        let failed = self.errors + self.warnings > 0;
        let mut fact = Fact::new("sphinx", vec![line], json)
            .failures(self.error_list.take_as("errors"))
            .failures(self.warning_list.take_as("first warning of each category"))
            .supersedes(&["log"])
            // A build's log: the report of what it ran (`make doctest`'s doctest results) is
            // stated beside it.
            .log();
        if failed {
            fact = fact.hint("': (WARNING|ERROR|CRITICAL|SEVERE): '");
        }
        Some(fact)
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.categories.approx_heap()
            + self.seen.iter().map(String::capacity).sum::<usize>()
            + self.error_list.approx_heap()
            + self.warning_list.approx_heap()
            + self.closing.as_ref().map_or(0, |c| c.0.capacity())
            + self.open.as_ref().map_or(0, |o| {
                o.place.capacity()
                    + o.detail.iter().map(String::capacity).sum::<usize>()
                    + o.first.as_ref().map_or(0, String::capacity)
                    + o.last.as_ref().map_or(0, String::capacity)
            })
    }
}

/// A problem read, and the lines read since when it goes on.
#[derive(Debug, Default)]
struct Open {
    line: u64,
    place: String,
    level: &'static str,
    detail: Vec<String>,
    lines: u64,
    /// The first line of it read (what a message that ends in `:` goes on to say), and the
    /// last (an exception's).
    first: Option<String>,
    last: Option<String>,
}

impl Open {
    /// Ended without a category: what its message went on to say is its detail.
    fn going_on(mut self) -> Open {
        self.detail.extend(self.first.take());
        self
    }
}

/// How many lines a problem that goes on (an exception's traceback) may take.
const OPEN_LINES: u64 = 200;

impl Sphinx {
    /// A problem complete, with its category (empty for none): counted; an error, and a
    /// warning of a category not seen, become failures.
    fn problem(&mut self, problem: Open, category: &str) {
        let list = if problem.level == "WARNING" {
            self.warnings += 1;
            self.categories.add(if category.is_empty() {
                "none"
            } else {
                category
            });
            if self.seen.iter().any(|c| c == category) {
                return;
            }
            self.seen.push(category.to_owned());
            &mut self.warning_list
        } else {
            self.errors += 1;
            &mut self.error_list
        };
        list.push(problem.line, &problem.place);
        if let Some(f) = list.current() {
            for d in &problem.detail {
                f.add_detail(d);
            }
        }
    }
}

/// `message [ref.class]` → (`message [ref.class]`, `ref.class`): a line that ends with a
/// Sphinx category.
fn categorised(text: &str) -> Option<(&str, &str)> {
    let (_, c) = text.rsplit_once(" [")?;
    let category = c.strip_suffix(']')?;
    (!category.is_empty()
        && category
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'.' || b == b'_'))
    .then_some((text, category))
}

/// `docs/index.rst:12: WARNING: toctree contains …` → (`docs/index.rst:12`, `WARNING`,
/// `toctree contains …`); a problem without a place has an empty one.
fn problem(text: &str) -> Option<(&str, &'static str, &str)> {
    const LEVELS: [(&str, &str); 4] = [
        ("WARNING", ": WARNING: "),
        ("ERROR", ": ERROR: "),
        ("CRITICAL", ": CRITICAL: "),
        ("SEVERE", ": SEVERE: "),
    ];
    for (level, marker) in LEVELS {
        if let Some(message) = text.strip_prefix(level).and_then(|r| r.strip_prefix(": ")) {
            return Some(("", level, message));
        }
        if let Some(at) = text.find(marker) {
            let place = &text[..at];
            // A place is a path and a line, no sentence (`Error: WARNING: …` is not one).
            if place.contains(' ') && !place.contains(":docstring of ") {
                continue;
            }
            return Some((place, level, &text[at + marker.len()..]));
        }
    }
    None
}
