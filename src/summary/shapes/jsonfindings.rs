//! Findings in a JSON report of no format known by name: the objects that hold a file, a line
//! and a message (tried on bandit's `-f json` results, mypy's `-O json` lines, pyright's
//! diagnostics and ShellCheck's `-f json`), in an array at any depth or one a line (JSON
//! Lines). Their place may be nested (`"location": {"row": 3}`, `"Pos": {"Line": 3}`, an
//! editor's zero-based `"range": {"start": {"line": 2}}`). Each is counted by its severity and
//! code as the report writes them, and the first of each code is said in the usual
//! `file:line:col: severity code: message` form.
//!
//! Read by [`super::jsonreport::JsonReport`] from the documents it knows no name for: it
//! reports each container opened, each scalar under its key, each container closed.

use serde_json::json;

use super::Fact;
use super::diagnostics::{Diagnostics, Level, Tally};
use crate::format::{cut, plural, thousands};

/// Bytes of a field kept.
const FIELD_BYTES: usize = 400;
/// Objects read with no finding among them before documents of no known report are no longer
/// read for findings (a large document of data is not read to its end in vain; a report's
/// findings come before that many objects of its own).
const OBJECTS_IN_VAIN: u64 = 50_000;

/// What a key names in a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    File,
    Line,
    Column,
    Message,
    Code,
    Severity,
}

fn field(key: &[u8]) -> Option<Field> {
    Some(match key {
        b"filename" | b"file" | b"filePath" | b"file_path" | b"fileName" | b"Filename"
        | b"path" | b"uri" => Field::File,
        b"line" | b"line_number" | b"lineNumber" | b"row" | b"startLine" | b"start_line"
        | b"Line" => Field::Line,
        b"column" | b"col" | b"col_offset" | b"startColumn" | b"character" | b"Column" => {
            Field::Column
        }
        b"message" | b"issue_text" | b"msg" | b"Text" | b"text" | b"description" => Field::Message,
        b"code" | b"test_id" | b"rule" | b"ruleId" | b"rule_id" | b"check_id" | b"symbol"
        | b"FromLinter" | b"cop_name" | b"error_code" => Field::Code,
        b"severity" | b"issue_severity" | b"level" | b"Severity" => Field::Severity,
        _ => return None,
    })
}

/// A code or a severity is a word (bandit's `code` is the source it flags, its `test_id` the
/// code).
fn is_word(value: &str) -> bool {
    !value.is_empty() && value.len() <= 64 && !value.contains(char::is_whitespace)
}

/// Keys of an object that holds a finding's place.
fn is_place(key: &[u8]) -> bool {
    matches!(
        key,
        b"location" | b"start" | b"Pos" | b"position" | b"range" | b"begin" | b"loc" | b"region"
    )
}

/// An object open: the fields read in it so far.
#[derive(Debug, Default)]
struct Candidate {
    /// It holds its parent's place (see [`is_place`]), counted from zero when it is a range.
    place: bool,
    range: bool,
    /// Its output line.
    at: u64,
    fields: [Option<String>; 6],
}

impl Candidate {
    fn get(&self, f: Field) -> Option<&str> {
        self.fields[f as usize].as_deref()
    }

    fn is_finding(&self) -> bool {
        [Field::File, Field::Line, Field::Message]
            .iter()
            .all(|&f| self.get(f).is_some_and(|v| !v.is_empty()))
    }
}

#[derive(Debug)]
pub(crate) struct Findings {
    /// The objects open, innermost last (arrays hold none: `None`).
    open: Vec<Option<Candidate>>,
    diagnostics: Diagnostics,
    severities: Tally,
    codes: Tally,
    count: u64,
    /// Objects closed that were no finding.
    in_vain: u64,
}

impl Default for Findings {
    fn default() -> Findings {
        Findings {
            open: Vec::new(),
            diagnostics: Diagnostics::of_rules(),
            severities: Tally::default(),
            codes: Tally::default(),
            count: 0,
            in_vain: 0,
        }
    }
}

impl Findings {
    /// A container opened at output line `at`, under `under` (its key in its parent, or the
    /// parent array's key).
    pub(crate) fn open(&mut self, object: bool, under: &[u8], at: u64) {
        self.open.push(object.then(|| Candidate {
            place: is_place(under),
            range: under == b"range",
            at,
            ..Candidate::default()
        }));
    }

    /// Whether reading for findings is still worth it: some were found, or not too many
    /// objects were read in vain.
    pub(crate) fn worth_reading(&self) -> bool {
        self.count > 0 || self.in_vain < OBJECTS_IN_VAIN
    }

    /// A scalar under `key` in the innermost container, decoded by `value` only when its key
    /// is one a finding has (most are not).
    pub(crate) fn value(&mut self, key: &[u8], value: impl FnOnce() -> String) {
        let (Some(Some(c)), Some(f)) = (self.open.last_mut(), field(key)) else {
            return;
        };
        if c.fields[f as usize].is_some() {
            return;
        }
        let value = value();
        if !matches!(f, Field::Code | Field::Severity) || is_word(&value) {
            c.fields[f as usize] = Some(cut(&value, FIELD_BYTES));
        }
    }

    /// The innermost container closed: a finding, or a place that goes to the object above,
    /// when the document is `read` for findings (else it is only left).
    pub(crate) fn close(&mut self, read: bool) {
        let Some(Some(c)) = self.open.pop().filter(|_| read) else {
            return;
        };
        if c.is_finding() {
            self.found(&c);
            return;
        }
        self.in_vain += 1;
        if !c.place {
            return;
        }
        let Some(Some(parent)) = self.open.last_mut() else {
            return;
        };
        for f in [Field::File, Field::Line, Field::Column] {
            let slot = &mut parent.fields[f as usize];
            if slot.is_none()
                && let Some(v) = c.get(f)
            {
                // An editor's range counts lines and columns from zero (its `start` holds them).
                *slot = Some(match v.parse::<u64>() {
                    Ok(n) if c.range && f != Field::File => (n + 1).to_string(),
                    _ => v.to_owned(),
                });
            }
        }
    }

    /// The document is over (or was no JSON after all).
    pub(crate) fn reset(&mut self) {
        self.open.clear();
    }

    fn found(&mut self, c: &Candidate) {
        self.count += 1;
        let file = c.get(Field::File).unwrap_or_default();
        let file = file.strip_prefix("file://").unwrap_or(file);
        let line = c.get(Field::Line).unwrap_or_default();
        let place = match c.get(Field::Column) {
            Some(col) => format!("{file}:{line}:{col}"),
            None => format!("{file}:{line}"),
        };
        let severity = c.get(Field::Severity);
        let code = c.get(Field::Code).filter(|c| !c.is_empty());
        let message = c.get(Field::Message).unwrap_or_default();
        let first_line = message.lines().next().unwrap_or_default();
        if let Some(severity) = severity {
            self.severities.add(severity);
        }
        if let Some(code) = code {
            self.codes.add(code);
        }
        self.diagnostics.files.add(file);
        let mut header = place.clone();
        header.push(':');
        for said in [severity, code].into_iter().flatten() {
            header.push(' ');
            header.push_str(said);
        }
        header.push_str(": ");
        header.push_str(first_line);
        self.diagnostics.add_placed(
            c.at,
            level(severity),
            &place,
            &header,
            first_line,
            Some(code.unwrap_or("")),
        );
    }

    pub(crate) fn fact(&self) -> Option<Fact> {
        if self.count == 0 {
            return None;
        }
        let mut line = format!("findings (JSON report): {}", thousands(self.count));
        if let Some(files) = self.diagnostics.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(by) = by_count(&self.severities) {
            line.push_str(&format!("; by severity: {by}"));
        }
        if let Some(codes) = self.codes.render() {
            line.push_str(&format!("; by code: {codes}"));
        }
        let json = json!({
            "shape": "json findings",
            "findings": self.count,
            "severities": self.severities.json(),
            "codes": self.codes.json(),
            "files": self.diagnostics.files.json(),
        });
        Some(
            Fact::new("json findings", vec![line], json).failures(self.diagnostics.failures(|_| 0)),
        )
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.open
            .iter()
            .flatten()
            .map(|c| {
                c.fields
                    .iter()
                    .flatten()
                    .map(String::capacity)
                    .sum::<usize>()
                    + 200
            })
            .sum::<usize>()
            + self.diagnostics.approx_heap()
            + self.severities.approx_heap()
            + self.codes.approx_heap()
    }
}

/// `28 LOW, 5 MEDIUM`: each severity with its count, the most frequent first.
fn by_count(tally: &Tally) -> Option<String> {
    tally.distinct().filter(|&n| n > 0)?;
    let mut all: Vec<(&str, u64)> = tally.iter().collect();
    all.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    Some(
        all.iter()
            .map(|(k, n)| format!("{} {k}", thousands(*n)))
            .collect::<Vec<_>>()
            .join(", "),
    )
}

/// A finding's level from its severity as the report writes it.
fn level(severity: Option<&str>) -> Level {
    let Some(s) = severity else {
        return Level::Error;
    };
    match s.to_ascii_lowercase().as_str() {
        "error" | "fatal" | "critical" | "high" | "blocker" | "severe" | "e" | "f" => Level::Error,
        "warning" | "warn" | "medium" | "major" | "moderate" | "w" => Level::Warning,
        _ => Level::Note,
    }
}
