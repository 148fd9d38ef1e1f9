//! ESLint output, stylish (a file's path, then `  43:3  error  message  rule` lines), compact
//! (`path: line 43, col 3, Error - message (rule)`) or unix (`path:43:3: message
//! [Error/rule]`), with its totals (`✖ 210 problems (35 errors,
//! 175 warnings)`, `210 problems`). Problems are counted per severity and rule; the first error
//! and the first problem of each rule are listed, errors first, fatal ones (a parsing error,
//! of no rule) before the rarest rules.
//! Stylelint's default report is ESLint's stylish with the severity as a mark (`  3:3  ✖
//! Unknown property "x"  property-no-unknown`, `⚠` for a warning) and the same totals;
//! yamllint's is stylish with the rule in brackets (`  17:81  error  line too long (101 > 80
//! characters)  (line-length)`) and no total, so its problems are counted only.

use super::diagnostics::{Diagnostics, Level, file_of, location};
use super::{Fact, Shape};

/// What separates the file from the problem in the compact format (`/a.js: line 3, col 1, …`).
static COMPACT: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b": line "));

#[derive(Debug, Default)]
pub(crate) struct Eslint {
    diagnostics: Diagnostics,
    /// The file whose problems follow (stylish).
    file: String,
    /// `✖ 210 problems (35 errors, 175 warnings)` as printed.
    total: Option<String>,
    /// Severities were marks (`✖`, `⚠`): stylelint's report.
    marks: bool,
    /// Rules were in brackets (`(line-length)`): yamllint's report.
    bracketed: bool,
}

impl Shape for Eslint {
    fn line(&mut self, number: u64, text: &str) {
        if text.is_empty() {
            return;
        }
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix("✖ ").or(Some(t)).filter(|r| is_total(r)) {
            self.total = Some(rest.to_owned());
            return;
        }
        if text.starts_with("  ") {
            if !self.file.is_empty() {
                self.stylish(number, t);
            }
        } else if let Some(at) = COMPACT.find(text.as_bytes()) {
            self.compact(number, &text[..at], &text[at + COMPACT.needle().len()..]);
        } else if text.ends_with(']') && self.unix(number, text) {
            self.file.clear();
        } else if !text.contains(' ') && (text.contains('/') || text.contains('\\')) {
            self.file.clear();
            self.file.push_str(text);
        } else {
            self.file.clear();
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 || (self.total.is_none() && !self.bracketed) {
            return None;
        }
        let (tool, hint) = if self.marks {
            ("stylelint", "'  ✖  ' -B 1")
        } else if self.bracketed {
            ("yamllint", "'  error  '")
        } else {
            ("eslint", "'  error  |, Error - |\\[Error/' -C 1")
        };
        let line = match &self.total {
            Some(total) => format!("{tool}: {total}; counted: {}", d.counted("error rules")),
            None => format!("{tool}: {}", d.counted("error rules")),
        };
        // A problem of no rule is fatal (`Parsing error: …`): its file was not linted at all.
        Some(
            Fact::new(tool, vec![line], d.json(tool))
                .failures(d.failures(|rule| u8::from(!rule.is_empty())))
                .hint(hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.file.capacity()
            + self.total.as_ref().map_or(0, String::capacity)
    }
}

impl Eslint {
    /// `43:3   error    'x' is defined but never used   no-unused-vars` (trimmed).
    fn stylish(&mut self, number: u64, t: &str) {
        let Some((position, rest)) = t.split_once(' ') else {
            return;
        };
        let Some((l, c)) = position.split_once(':') else {
            return;
        };
        if !is_number(l) || !is_number(c) {
            return;
        }
        let rest = rest.trim_start();
        let (level, rest) = if let Some(r) = rest.strip_prefix("error") {
            (Level::Error, r)
        } else if let Some(r) = rest.strip_prefix("warning") {
            (Level::Warning, r)
        } else if let Some(r) = rest.strip_prefix("✖ ") {
            self.marks = true;
            (Level::Error, r)
        } else if let Some(r) = rest.strip_prefix("⚠ ") {
            self.marks = true;
            (Level::Warning, r)
        } else {
            return;
        };
        let rest = rest.trim();
        // The rule is the last word, after a run of spaces (in brackets, yamllint's).
        let mut rule = rest
            .rsplit_once("  ")
            .map(|(_, r)| r)
            .filter(|r| !r.contains(' '));
        if let Some(bare) = rule.and_then(|r| r.strip_prefix('(')?.strip_suffix(')')) {
            self.bracketed = true;
            rule = Some(bare);
        }
        // The file the line is under, joined to the line as printed (`src/a.js:43:3  error
        // …`): where, in the form a reader opens, and then what a reader searches for, its
        // columns two spaces apart (their alignment is room, not words).
        let header = format!("{}:{}", self.file, columns(t));
        let file = self.file.clone();
        // Where, so that another error of a rule shown is kept too (its second
        // `no-unused-vars` is news where a compiler's cascade is not).
        let place = format!("{file}:{l}:{c}");
        self.diagnostics
            .add(number, level, Some(&place), &header, rule);
        self.diagnostics.files.add(&file);
    }

    /// `path: line 43, col 3, Error - message (rule)` (split after the path).
    fn compact(&mut self, number: u64, file: &str, problem: &str) {
        let Some((_, rest)) = problem.split_once(", col ") else {
            return;
        };
        let Some((_, rest)) = rest.split_once(", ") else {
            return;
        };
        let level = if rest.starts_with("Error - ") {
            Level::Error
        } else if rest.starts_with("Warning - ") {
            Level::Warning
        } else {
            return;
        };
        let rule = rest
            .strip_suffix(')')
            .and_then(|r| r.rsplit_once(" ("))
            .map(|(_, rule)| rule);
        let header = format!("{file}: line {problem}");
        let place = header
            .splitn(3, ", ")
            .take(2)
            .collect::<Vec<_>>()
            .join(", ");
        self.diagnostics
            .add(number, level, Some(&place), &header, rule);
        self.diagnostics.files.add(file);
    }

    /// `path:43:3: message [Error/rule]`, or `[Error]` alone for a problem of no rule (a
    /// parsing error): whether `text` is such a problem.
    fn unix(&mut self, number: u64, text: &str) -> bool {
        let Some((head, tail)) = text.rsplit_once(" [") else {
            return false;
        };
        // A problem of no rule (`Parsing error: Unexpected token { [Error]`) names none.
        let tail = tail.strip_suffix(']').unwrap_or_default();
        let (severity, rule) = tail
            .split_once('/')
            .map_or((tail, None), |(s, r)| (s, Some(r)));
        let level = match severity {
            "Error" => Level::Error,
            "Warning" => Level::Warning,
            _ => return false,
        };
        let Some((place, message)) = location(head, |_| true) else {
            return false;
        };
        if !message.starts_with(' ') {
            return false;
        }
        self.diagnostics.add(number, level, Some(place), text, rule);
        self.diagnostics.files.add(file_of(place));
        true
    }
}

/// `text` with each run of spaces longer than two cut to two.
fn columns(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut spaces = 0;
    for c in text.chars() {
        spaces = if c == ' ' { spaces + 1 } else { 0 };
        if spaces <= 2 {
            out.push(c);
        }
    }
    out
}

pub(crate) fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `210 problems (35 errors, 175 warnings)` or `210 problems`.
fn is_total(text: &str) -> bool {
    if !text.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let Some((n, rest)) = text.split_once(' ') else {
        return false;
    };
    is_number(n)
        && (rest == "problems"
            || rest == "problem"
            || rest.starts_with("problems (")
            || rest.starts_with("problem ("))
}
