//! RuboCop's default report: `Inspecting 8 files`, a mark per file, `Offenses:`, then an
//! offense per line, `lib/a.rb:83:7: W: [Correctable] Lint/UselessAssignment: Useless
//! assignment to variable - dur.` (the source line and a caret under it follow), and its total,
//! `8 files inspected, 623 offenses detected, 525 offenses autocorrectable`.
//!
//! Offenses are counted by severity (fatal, error, warning, convention, refactor, info) and
//! file; the first of each cop is listed, fatal and errors first, then warnings (the `Lint/`
//! cops: what may break at run time), then the rest, the rarest first. The cops RuboCop itself
//! failed in (`An error occurred while Style/X cop was inspecting FILE:146:4.`) are counted.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally, file_of, location};
use super::eslint::is_number;
use super::{Fact, Shape};
use crate::format::{cut, plural};

#[derive(Debug)]
pub(crate) struct Rubocop {
    diagnostics: Diagnostics,
    severities: Tally,
    /// `8 files inspected, 623 offenses detected, …` as printed.
    total: Option<String>,
    /// `Inspecting 8 files` was printed.
    inspecting: bool,
    /// Cops RuboCop failed in, and the first such line.
    crashes: u64,
    first_crash: Option<String>,
}

impl Default for Rubocop {
    fn default() -> Rubocop {
        Rubocop {
            diagnostics: Diagnostics::firsts_of_rules(),
            severities: Tally::default(),
            total: None,
            inspecting: false,
            crashes: 0,
            first_crash: None,
        }
    }
}

/// The severities' letters, their names and the level each is listed at.
const SEVERITIES: [(u8, &str, Level); 6] = [
    (b'F', "fatal", Level::Error),
    (b'E', "error", Level::Error),
    (b'W', "warning", Level::Warning),
    (b'C', "convention", Level::Note),
    (b'R', "refactor", Level::Note),
    (b'I', "info", Level::Note),
];

impl Shape for Rubocop {
    fn line(&mut self, number: u64, text: &str) {
        // Cheap first: RuboCop's own lines start with a capital or a digit.
        match text.as_bytes().first() {
            Some(b'0'..=b'9') if is_total(text) => {
                self.total = Some(text.trim_end().to_owned());
                return;
            }
            Some(b'A'..=b'Z') => {}
            _ => return self.offense(number, text),
        }
        if let Some(n) = text
            .strip_prefix("Inspecting ")
            .and_then(|r| r.strip_suffix(" files").or(r.strip_suffix(" file")))
            && is_number(n)
        {
            self.inspecting = true;
            return;
        }
        if text.starts_with("An error occurred while ") && text.contains(" cop was inspecting ") {
            self.crashes += 1;
            if self.first_crash.is_none() {
                self.first_crash = Some(cut(text.trim_end(), 300));
            }
            return;
        }
        self.offense(number, text);
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        let counted = d.errors + d.warnings + d.notes;
        if counted == 0 || (self.total.is_none() && !self.inspecting) {
            return None;
        }
        let mut line = match &self.total {
            Some(total) => format!(
                "rubocop: {total}; counted: {}",
                plural(counted, "offense", "offenses")
            ),
            None => format!("rubocop: {}", plural(counted, "offense", "offenses")),
        };
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(severities) = self.severities.render() {
            line.push_str(&format!("; severity: {severities}"));
        }
        let mut lines = vec![line];
        if let Some(first) = &self.first_crash {
            lines.push(format!(
                "RuboCop failed inspecting {}; first: {first}",
                plural(self.crashes, "time", "times")
            ));
        }
        let mut json = d.json("rubocop");
        json["severities"] = self.severities.json();
        json["cop_errors"] = json!(self.crashes);
        Some(
            Fact::new("rubocop", lines, json)
                .failures(d.failures(|_| 0))
                .hint("':[0-9]+:[0-9]+: [FEW]: ' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.severities.approx_heap()
            + self.total.as_ref().map_or(0, String::capacity)
            + self.first_crash.as_ref().map_or(0, String::capacity)
    }
}

impl Rubocop {
    /// `lib/a.rb:83:7: W: [Correctable] Lint/UselessAssignment: Useless assignment …`.
    fn offense(&mut self, number: u64, text: &str) {
        // Cheap first: the severity's letter between `: ` and `: `.
        static AFTER_PLACE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b": "));
        let Some(at) = AFTER_PLACE.find(text.as_bytes()) else {
            return;
        };
        let rest = &text[at + 2..];
        let letter = rest.as_bytes().first().copied();
        let Some(&(_, severity, level)) = SEVERITIES.iter().find(|(l, ..)| Some(*l) == letter)
        else {
            return;
        };
        let Some(rest) = rest[1..].strip_prefix(": ") else {
            return;
        };
        // All before it is the place.
        let Some((place, _)) = location(text, |_| true).filter(|(p, _)| p.len() == at) else {
            return;
        };
        let mut message = rest;
        while let Some(tagged) = message.strip_prefix('[')
            && let Some((tag, after)) = tagged.split_once("] ")
            && !tag.contains(' ')
        {
            message = after;
        }
        let Some((cop, _)) = message.split_once(": ") else {
            return;
        };
        if !cop.contains('/') || cop.contains(' ') {
            return;
        }
        self.severities.add(severity);
        self.diagnostics
            .add(number, level, Some(place), text.trim_end(), Some(cop));
        self.diagnostics.files.add(file_of(place));
    }
}

/// `8 files inspected, 623 offenses detected, 525 offenses autocorrectable`, `1 file
/// inspected, no offenses detected`.
fn is_total(text: &str) -> bool {
    let Some((n, rest)) = text.split_once(' ') else {
        return false;
    };
    is_number(n)
        && (rest.starts_with("files inspected, ") || rest.starts_with("file inspected, "))
        && text.contains(" detected")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offenses_are_counted_by_severity_and_the_first_of_each_cop_listed() {
        let text = "Inspecting 2 files\n\
                    CW\n\
                    \n\
                    Offenses:\n\
                    \n\
                    lib/a.rb:1:1: C: [Correctable] Style/FrozenStringLiteralComment: Missing frozen string literal comment.\n\
                    lib/a.rb:3:5: C: [Correctable] Style/FrozenStringLiteralComment: Missing frozen string literal comment.\n\
                    lib/b.rb:83:7: W: [Correctable] Lint/UselessAssignment: Useless assignment to variable - dur.\n\
                    \x20   dur = 3\n\
                    \x20   ^^^\n\
                    lib/b.rb:90:1: E: Lint/Syntax: unexpected token kEND\n\
                    \n\
                    2 files inspected, 4 offenses detected, 3 offenses autocorrectable\n";
        let mut shape = Box::<Rubocop>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines,
            [
                "rubocop: 2 files inspected, 4 offenses detected, 3 offenses autocorrectable; \
                 counted: 4 offenses in 2 files; severity: convention ×2, warning ×1, error ×1"
            ]
        );
        let shown: Vec<&str> = fact.failures[0]
            .kept
            .iter()
            .map(|f| f.detail[0].as_str())
            .collect();
        assert_eq!(
            shown,
            [
                "lib/b.rb:90:1: E: Lint/Syntax: unexpected token kEND",
                "lib/b.rb:83:7: W: [Correctable] Lint/UselessAssignment: Useless assignment to variable - dur.",
                "lib/a.rb:1:1: C: [Correctable] Style/FrozenStringLiteralComment: Missing frozen string literal comment."
            ]
        );
        // Without RuboCop's banner or total, such lines are no RuboCop report.
        let mut shape = Box::<Rubocop>::default();
        shape.line(1, "lib/b.rb:90:1: E: Lint/Syntax: unexpected token kEND");
        assert!(shape.finish().is_none());
    }
}
