//! Cppcheck's text report: `Checking src/a.c ...` per file (and per configuration), then a
//! finding per line, `src/a.c:47:11: error: Array 'digits[8]' accessed at index 8, which is
//! out of bounds. [arrayIndexOutOfBounds]` (the source line and a caret under it follow, and
//! `note:` lines for the places it reasoned through), at one of six severities: error,
//! warning, style, performance, portability and information.
//!
//! Stated: the findings counted by severity, id and file (gcc's reading would count only the
//! errors and warnings), and the first of each id, errors first, then warnings, performance
//! and portability, then style and information, errors of an id seen before at other places
//! too.

use super::diagnostics::{Diagnostics, Level, Tally, file_of, location};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug)]
pub(crate) struct Cppcheck {
    diagnostics: Diagnostics,
    severities: Tally,
    ids: Tally,
    /// A line only Cppcheck prints was read: `Checking FILE ...`, or a finding at a severity
    /// compilers do not have (`style`).
    own: bool,
}

impl Default for Cppcheck {
    fn default() -> Cppcheck {
        Cppcheck {
            diagnostics: Diagnostics::of_rules(),
            severities: Tally::default(),
            ids: Tally::default(),
            own: false,
        }
    }
}

/// The severities, the level each is listed at, and whether a compiler prints it too.
const SEVERITIES: [(&str, Level, bool); 6] = [
    ("error", Level::Error, true),
    ("warning", Level::Warning, true),
    ("performance", Level::Warning, false),
    ("portability", Level::Warning, false),
    ("style", Level::Note, false),
    ("information", Level::Note, false),
];

impl Shape for Cppcheck {
    fn line(&mut self, number: u64, text: &str) {
        // A finding ends in its id, `…. [uninitvar]`; most lines do not.
        if text.ends_with(']') {
            self.finding(number, text);
        } else if text.starts_with("Checking ") && text.ends_with("...") {
            self.own = true;
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        let counted = d.errors + d.warnings + d.notes;
        if counted == 0 || !self.own {
            return None;
        }
        let mut line = format!("cppcheck: {}", plural(counted, "finding", "findings"));
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(severities) = self.severities.render() {
            line.push_str(&format!("; severity: {severities}"));
        }
        let mut lines = vec![line];
        if let Some(ids) = self.ids.render() {
            lines.push(format!("findings by id: {ids}"));
        }
        let mut json = d.json("cppcheck");
        json["severities"] = self.severities.json();
        json["ids"] = self.ids.json();
        Some(
            Fact::new("cppcheck", lines, json)
                .failures(d.failures(|_| 0))
                .hint("': (error|warning|performance|portability): ' -A 2")
                .supersedes(&["gcc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.severities.approx_heap() + self.ids.approx_heap()
    }
}

impl Cppcheck {
    /// `src/a.c:47:11: error: Array 'digits[8]' accessed at index 8 … [arrayIndexOutOfBounds]`;
    /// `nofile:0:0: information: …` for the run as a whole.
    fn finding(&mut self, number: u64, text: &str) {
        let Some((place, rest)) = location(text, |_| true) else {
            return;
        };
        let Some((severity, message)) = rest.trim_start().split_once(": ") else {
            return;
        };
        let Some(&(severity, level, compilers_too)) =
            SEVERITIES.iter().find(|(s, ..)| *s == severity)
        else {
            return;
        };
        // The id: one word of letters, digits and `_` (gcc's `[-Wunused]` and clang-tidy's
        // `[bugprone-…]` are not Cppcheck's).
        let Some((_, id)) = message.strip_suffix(']').and_then(|m| m.rsplit_once(" [")) else {
            return;
        };
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return;
        }
        self.own |= !compilers_too;
        self.severities.add(severity);
        self.ids.add(id);
        self.diagnostics
            .add(number, level, Some(place), text.trim_end(), Some(id));
        self.diagnostics.files.add(file_of(place));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<Fact> {
        let mut shape = Box::<Cppcheck>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        shape.finish()
    }

    #[test]
    fn findings_are_counted_at_every_severity_and_listed_errors_first() {
        let text = "Checking src/a.c ...\n\
                    src/a.c:3:7: style: The scope of the variable 'i' can be reduced. [variableScope]\n\
                    \x20 int i;\n\
                    \x20     ^\n\
                    src/a.c:9:3: style: The scope of the variable 'n' can be reduced. [variableScope]\n\
                    src/b.c:47:11: error: Array 'digits[8]' accessed at index 8, which is out of bounds. [arrayIndexOutOfBounds]\n\
                    src/b.c:40:5: note: Assuming condition is false\n\
                    nofile:0:0: information: Cppcheck cannot find all the include files [missingInclude]\n";
        let fact = read(text).expect("a fact");
        assert_eq!(
            fact.lines,
            [
                "cppcheck: 4 findings in 3 files; severity: style ×2, error ×1, information ×1",
                "findings by id: variableScope ×2, arrayIndexOutOfBounds ×1, missingInclude ×1"
            ]
        );
        let first = &fact.failures[0].kept[0].detail[0];
        assert!(first.starts_with("src/b.c:47:11: error: Array"), "{first}");
    }

    #[test]
    fn a_compilers_errors_are_not_cppchecks() {
        // gcc's option in brackets is no Cppcheck id, and errors and warnings alone, without
        // `Checking …`, may be anyone's.
        let text = "a.c:3:7: warning: unused variable 'i' [-Wunused-variable]\n\
                    a.c:9:1: error: expected ';' before '}' token [syntax]\n";
        assert!(read(text).is_none());
    }
}
