//! pylint's text output: `path:line:col: CODE: message (symbol)` lines (or, parseable,
//! `path:line: [CODE(symbol), obj] message`) under `*************
//! Module name` headers, and its score (`Your code has been rated at 8.99/10`). Messages are
//! counted by category (the code's letter: fatal, error, warning, refactor, convention, info)
//! and by code; the errors come first, each at its place in a list of their own, then the first
//! of each other code, the rarest first.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// The categories, by the letter their codes start with, in pylint's order of severity.
const CATEGORIES: [(u8, &str); 6] = [
    (b'F', "fatal"),
    (b'E', "error"),
    (b'W', "warning"),
    (b'R', "refactor"),
    (b'C', "convention"),
    (b'I', "info"),
];

#[derive(Debug, Default)]
pub(crate) struct Pylint {
    diagnostics: Diagnostics,
    /// Every fatal or error message.
    errors: Failures,
    categories: [u64; 6],
    modules: u64,
    /// `8.99/10 (previous run: 8.99/10, +0.00)`
    rating: Option<String>,
}

impl Shape for Pylint {
    fn line(&mut self, number: u64, text: &str) {
        match text.as_bytes().first() {
            Some(b'*') if text.starts_with("************* Module ") => self.modules += 1,
            // Not every line starting with `Y` (a message in `YAML/loader.py`).
            Some(b'Y') if text.starts_with("Your code has been rated at ") => {
                let rating = &text["Your code has been rated at ".len()..];
                self.rating = Some(crate::format::cut(rating, 80));
            }
            Some(_) => self.message(number, text),
            None => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let total: u64 = self.categories.iter().sum();
        if total == 0 || (self.modules == 0 && self.rating.is_none()) {
            return None;
        }
        let counts: Vec<String> = CATEGORIES
            .iter()
            .zip(self.categories)
            .filter(|&(_, n)| n > 0)
            // `5 errors, 28 refactor`: pylint's categories, its own words.
            .map(|((_, name), n)| match *name {
                "fatal" | "error" | "warning" => plural(n, name, &format!("{name}s")),
                _ => format!("{} {name}", thousands(n)),
            })
            .collect();
        let mut line = format!(
            "pylint: {} ({})",
            plural(total, "message", "messages"),
            counts.join(", ")
        );
        if let Some(codes) = self.diagnostics.codes.render() {
            line.push_str(&format!("; codes: {codes}"));
        }
        if let Some(rating) = &self.rating {
            line.push_str(&format!("; rated at {rating}"));
        }
        let mut json = self.diagnostics.json("pylint");
        json["categories"] = CATEGORIES
            .iter()
            .zip(self.categories)
            .map(|((_, name), n)| ((*name).to_owned(), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into();
        json["rating"] = json!(self.rating);
        let failing = self.categories[0] + self.categories[1] > 0;
        Some(
            Fact::new("pylint", vec![line], json)
                .failures(self.errors.take_as("errors"))
                .failures(
                    self.diagnostics
                        .failures_of(|_| 0, |code| !is_error(code))
                        .take_as("first of each other kind"),
                )
                .hint_if_failed(failing, "': \\[?[EF][0-9]{4}[:(]'")
                .supersedes(&["gcc", "lint"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.errors.approx_heap()
            + self.rating.as_ref().map_or(0, String::capacity)
    }
}

/// A fatal or error message (`F0001`, `E0602`): each a bug of its own, listed before the
/// first of each other kind, which are style.
fn is_error(code: &str) -> bool {
    code.starts_with(['E', 'F'])
}

impl Pylint {
    /// `tabulate/__init__.py:946:25: E0602: Undefined variable 'math' (undefined-variable)`.
    fn message(&mut self, number: u64, text: &str) {
        let Some((location, rest)) = super::diagnostics::location(text, |p| p.ends_with(".py"))
        else {
            return;
        };
        let rest = rest.trim_start();
        // `CODE: message (symbol)`, or `--output-format=parseable`'s `[CODE(symbol), obj]
        // message`.
        let code = match rest.strip_prefix('[') {
            Some(bracketed) => bracketed.split_once('(').map(|(code, _)| code),
            None => rest.split_once(": ").map(|(code, _)| code),
        };
        let Some(code) = code else {
            return;
        };
        let letter = code.as_bytes().first().copied().unwrap_or(0);
        let Some(category) = CATEGORIES.iter().position(|&(l, _)| l == letter) else {
            return;
        };
        if code.len() != 5 || !code[1..].bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        self.categories[category] += 1;
        let level = if category <= 1 {
            Level::Error
        } else {
            Level::Warning
        };
        let header = rest;
        self.diagnostics
            .add(number, level, Some(location), header, Some(code));
        if is_error(code) {
            self.errors.push(number, "");
            if let Some(f) = self.errors.current() {
                f.add_detail(&format!("{location}: {header}"));
            }
        }
        let file = location.split(':').next().unwrap_or(location);
        self.diagnostics.files.add(file);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_by_category_and_the_errors_first() {
        let mut p = Box::<Pylint>::default();
        for (i, line) in [
            "************* Module tabulate",
            "tabulate/__init__.py:1331:0: C0301: Line too long (197/100) (line-too-long)",
            "tabulate/__init__.py:185:54: W0613: Unused argument 'colwidths' (unused-argument)",
            "tabulate/__init__.py:946:25: E0602: Undefined variable 'math' (undefined-variable)",
            "src/a.c:3:1: error: expected ';'",
            "glom/grouping.py:33: [E0602(undefined-variable), target_iter] Undefined variable 'T'",
            "Yaml/loader.py:3:0: C0114: Missing module docstring (missing-module-docstring)",
            "Your code has been rated at 8.99/10 (previous run: 8.99/10, +0.00)",
        ]
        .iter()
        .enumerate()
        {
            p.line(i as u64 + 1, line);
        }
        let fact = p.finish().unwrap();
        assert_eq!(
            fact.lines[0],
            "pylint: 5 messages (2 errors, 1 warning, 2 convention); codes: E0602 ×2; rated at \
             8.99/10 (previous run: 8.99/10, +0.00)"
        );
        let first = fact.failures[0].iter().next().unwrap();
        assert_eq!(
            first.detail[0],
            "tabulate/__init__.py:946:25: E0602: Undefined variable 'math' (undefined-variable)"
        );
        let parseable = fact.failures[0].iter().nth(1).unwrap();
        assert_eq!(
            parseable.detail[0],
            "glom/grouping.py:33: [E0602(undefined-variable), target_iter] Undefined variable 'T'"
        );
    }
}
