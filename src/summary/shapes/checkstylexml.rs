//! A Checkstyle XML report, the format many linters can write (ESLint's and JSHint's
//! `checkstyle` formatters, phpcs `--report=checkstyle`, ktlint, detekt, Checkstyle itself),
//! printed or read back, often as one long line: `<file name="…">` holding an `<error
//! line="…" column="…" severity="error" message="…" source="…"/>` per problem. Problems are
//! counted by severity, rule and file; the first of each rule is listed at its place, as
//! `file:line:col severity message (rule)` with the report's escapes left as they are.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally};
use super::xml::{attribute, elements};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

#[derive(Debug)]
pub(crate) struct CheckstyleXml {
    /// Inside `<checkstyle …>`.
    open: bool,
    /// `</checkstyle>` was read: the counts are the report's whole.
    closed: bool,
    /// The file whose problems follow.
    file: Option<String>,
    diagnostics: Diagnostics,
    /// Problems by severity as the report names them (`error`, `warning`, ShellCheck's `info`
    /// and `style`), in the order first seen.
    severities: Tally,
    files_read: u64,
}

impl Default for CheckstyleXml {
    fn default() -> CheckstyleXml {
        CheckstyleXml {
            open: false,
            closed: false,
            file: None,
            // The first of each rule: a linter's report repeats its rules at many places.
            diagnostics: Diagnostics::firsts_of_rules(),
            severities: Tally::default(),
            files_read: 0,
        }
    }
}

impl Shape for CheckstyleXml {
    fn line(&mut self, number: u64, text: &str) {
        // Most lines of most outputs hold no element: passed over on one search.
        let Some(first) = memchr::memchr(b'<', text.as_bytes()) else {
            return;
        };
        if !self.open && !text[first..].contains("<checkstyle") {
            return;
        }
        for (tag, _) in elements(&text[first..]) {
            self.element(number, tag);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        // Every severity below an error is listed with the warnings (see `element`).
        let problems = d.errors + d.warnings;
        if problems == 0 {
            return None;
        }
        // A report on one line longer than a line is read (64 KiB), or cut short: what was
        // read is counted, and said to be part.
        let part = if self.closed { "" } else { "at least " };
        let mut line = format!(
            "checkstyle XML: {part}{}",
            plural(problems, "problem", "problems")
        );
        line.push_str(&format!(" ({})", severities(&self.severities)));
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(
                " in {} of {} read",
                plural(files as u64, "file", "files"),
                self.files_read
            ));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; error rules: {codes}"));
        }
        if !self.closed {
            line.push_str(" (the report's end, </checkstyle>, was not read)");
        }
        let json = json!({
            "shape": "checkstyle xml",
            "errors": d.errors,
            "severities": self.severities.json(),
            "files_read": self.files_read,
            "complete": self.closed,
            "rules": d.codes.json(),
            "files": d.files.json(),
        });
        Some(
            Fact::new("checkstyle xml", vec![line], json)
                .failures(d.failures(|_| 0))
                .hint("'<error [^>]*severity=.error.'"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.file.as_ref().map_or(0, String::capacity)
    }
}

impl CheckstyleXml {
    /// One element's tag, from its `<` to its `>` (or the line's end).
    fn element(&mut self, number: u64, tag: &str) {
        if tag.starts_with("<checkstyle") {
            self.open = true;
            return;
        }
        if !self.open {
            return;
        }
        if tag.starts_with("<file ") {
            self.files_read += 1;
            self.file = attribute(tag, "name").map(|n| cut(n, 300));
        } else if tag.starts_with("</checkstyle") {
            self.closed = true;
            self.open = false;
        } else if tag.starts_with("</file") {
            self.file = None;
        } else if tag.starts_with("<error ")
            // Not one cut short by the end of what was read of its line.
            && tag.ends_with('>')
            && let Some(file) = &self.file
        {
            let at = |key| attribute(tag, key).unwrap_or_default();
            let severity = at("severity");
            // Below a warning (`info`, `style`, `ignore`) a problem is listed with the warnings,
            // after them when rarer; it is counted under its own severity.
            let level = match severity {
                "error" => Level::Error,
                _ => Level::Warning,
            };
            self.severities.add(severity);
            let place = match at("column") {
                "" => format!("{file}:{}", at("line")),
                column => format!("{file}:{}:{column}", at("line")),
            };
            let source = at("source");
            let message = at("message");
            // ESLint's message names its rule already (`… (no-unused-vars)`).
            let short = source.rsplit('.').next().unwrap_or(source);
            let header = if source.is_empty() || message.ends_with(&format!("({short})")) {
                format!("{place} {severity} {message}")
            } else {
                format!("{place} {severity} {message} ({source})")
            };
            let code = (!source.is_empty()).then_some(source);
            self.diagnostics
                .add(number, level, Some(&place), &header, code);
            self.diagnostics.files.add(file);
        }
    }
}

/// `2 errors, 12 warnings, 55 info`: the problems by severity, the gravest first (as ESLint,
/// Checkstyle and ShellCheck name them), then any other in the order first seen.
fn severities(tally: &Tally) -> String {
    const ORDER: [&str; 5] = ["error", "warning", "info", "style", "ignore"];
    let rank = |s: &str| ORDER.iter().position(|o| *o == s).unwrap_or(ORDER.len());
    let mut all: Vec<(&str, u64)> = tally.iter().collect();
    all.sort_by_key(|(s, _)| rank(s));
    let said: Vec<String> = all
        .into_iter()
        .map(|(severity, n)| match severity {
            "error" | "warning" => plural(n, severity, &format!("{severity}s")),
            "" => format!("{} without a severity", thousands(n)),
            _ => format!("{} {severity}", thousands(n)),
        })
        .collect();
    said.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_read_from_one_line() {
        let mut c = CheckstyleXml::default();
        c.line(
            1,
            "<?xml version=\"1.0\"?><checkstyle version=\"4.3\"><file name=\"a.js\"></file>\
             <file name=\"b.js\"><error line=\"3\" column=\"7\" severity=\"error\" \
             message=\"&apos;x&apos; is unused. (no-unused-vars)\" \
             source=\"eslint.rules.no-unused-vars\" /><error line=\"9\" column=\"1\" \
             severity=\"warning\" message=\"Missing semicolon.\" source=\"eslint.rules.semi\" \
             /></file></checkstyle>",
        );
        let fact = Box::new(c).finish().expect("a report");
        // Read to its end: the counts are the whole report's.
        assert_eq!(fact.json["complete"], true);
        assert_eq!(
            fact.lines[0],
            "checkstyle XML: 2 problems (1 error, 1 warning) in 1 file of 2 read; error \
             rules: eslint.rules.no-unused-vars ×1"
        );
        let first = fact.failures[0].iter().next().unwrap();
        assert_eq!(
            first.detail[0],
            "b.js:3:7 error &apos;x&apos; is unused. (no-unused-vars)"
        );
    }

    /// ShellCheck's report: attributes in single quotes, severities below a warning (`info`,
    /// `style`) counted as such and their rules listed, one of each rule whatever its message.
    #[test]
    fn every_severity_is_counted_and_each_rule_listed_once() {
        let mut c = CheckstyleXml::default();
        let lines = [
            "<?xml version='1.0' encoding='UTF-8'?>",
            "<checkstyle version='4.3'>",
            "<file name='dehydrated' >",
            "<error line='58' column='7' severity='info' message='Useless echo&#63;' \
             source='ShellCheck.SC2005' />",
            "<error line='197' column='54' severity='warning' message='print appears unused.' \
             source='ShellCheck.SC2034' />",
            "<error line='206' column='10' severity='warning' message='isleaf appears unused.' \
             source='ShellCheck.SC2034' />",
            "<error line='1086' column='36' severity='error' message='Double quote array \
             expansions.' source='ShellCheck.SC2068' />",
            "<error line='1090' column='3' severity='style' message='Use $(...).' \
             source='ShellCheck.SC2006' />",
            "</file>",
            "</checkstyle>",
        ];
        for (i, line) in lines.iter().enumerate() {
            c.line(i as u64 + 1, line);
        }
        let fact = Box::new(c).finish().expect("a report");
        assert_eq!(
            fact.lines[0],
            "checkstyle XML: 5 problems (1 error, 2 warnings, 1 info, 1 style) in 1 file of 1 \
             read; error rules: ShellCheck.SC2068 ×1"
        );
        let listed: Vec<&str> = fact.failures[0]
            .iter()
            .map(|f| f.detail[0].as_str())
            .collect();
        assert_eq!(listed.len(), 4, "{listed:?}");
        assert_eq!(
            listed[0],
            "dehydrated:1086:36 error Double quote array expansions. (ShellCheck.SC2068)"
        );
        assert!(
            listed.contains(&"dehydrated:197:54 warning print appears unused. (ShellCheck.SC2034)")
        );
    }
}
