//! Oxlint's default report (a graphical report in miette's style): each diagnostic is its
//! level's mark and message, `  ! eslint(no-debugger): `debugger` statement is not allowed`
//! (`×` or `✖` an error, `!` or `⚠` a warning), then where it is, `,-[lib/a.js:39:5]` (or
//! `╭─[lib/a.js:39:5]`), a code frame and help; at the end oxlint's totals, `Found 68 warnings
//! and 0 errors.` Diagnostics are counted by level and rule; the first of each rule is
//! listed, errors first, the rarest rules first. Without the totals line nothing is stated:
//! lines that start with `  ! ` are not oxlint's by themselves.

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};

#[derive(Debug, Default)]
pub(crate) struct Oxlint {
    diagnostics: Diagnostics,
    /// A diagnostic's message line, until the line that says where it is: (line, level, text).
    pending: Option<(u64, Level, String)>,
    /// `Found 68 warnings and 0 errors.` as printed.
    total: Option<String>,
}

impl Shape for Oxlint {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((line, level, message)) = self.pending.take() {
            let t = text.trim_start();
            let at = t
                .strip_prefix(",-[")
                .or_else(|| t.strip_prefix("╭─["))
                .and_then(|r| r.strip_suffix(']'));
            self.add(line, level, &message, at);
        }
        if let Some((level, message)) = diagnostic(text) {
            self.pending = Some((number, level, message.to_owned()));
        } else if text.starts_with("Found ") && is_total(text) {
            self.total = Some(text.to_owned());
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if let Some((line, level, message)) = self.pending.take() {
            self.add(line, level, &message, None);
        }
        let total = self.total.as_ref()?;
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let line = format!(
            "oxlint: {}; counted: {}",
            total.trim_end_matches('.'),
            d.counted("error rules")
        );
        Some(
            Fact::new("oxlint", vec![line], d.json("oxlint"))
                .failures(d.failures(|_| 0))
                .hint("'^  [×✖!⚠] ' -A 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.pending.as_ref().map_or(0, |(_, _, m)| m.capacity())
            + self.total.as_ref().map_or(0, String::capacity)
    }
}

impl Oxlint {
    fn add(&mut self, line: u64, level: Level, message: &str, at: Option<&str>) {
        // `eslint(no-debugger): message` → the rule.
        let unmarked = message.split_once(' ').map_or(message, |(_, m)| m);
        let rule = unmarked
            .split_once("): ")
            .map(|(rule, _)| rule)
            .filter(|r| r.contains('(') && !r.contains(' '))
            .map(|r| format!("{r})"));
        let described = match at {
            Some(at) => format!("{message} [{at}]"),
            None => message.to_owned(),
        };
        self.diagnostics
            .add(line, level, at, &described, rule.as_deref());
        if let Some(file) = at.and_then(|a| a.split(':').next()) {
            self.diagnostics.files.add(file);
        }
    }
}

/// `  ! eslint(no-debugger): message` → (warning, `! eslint(no-debugger): message`): the mark
/// is kept, as oxlint prints it.
fn diagnostic(text: &str) -> Option<(Level, &str)> {
    let marked = text.strip_prefix("  ")?;
    let (mark, message) = marked.split_once(' ')?;
    let level = match mark {
        "×" | "✖" => Level::Error,
        "!" | "⚠" => Level::Warning,
        _ => return None,
    };
    (!message.is_empty() && !message.starts_with(' ')).then_some((level, marked))
}

/// `Found 68 warnings and 0 errors.`
fn is_total(text: &str) -> bool {
    let Some(rest) = text.strip_prefix("Found ") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].starts_with(" warning") && rest.contains(" error")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagnostics_are_read_with_the_place_under_them() {
        let mut shape = Box::<Oxlint>::default();
        let text = "\n  ! eslint(no-debugger): `debugger` statement is not allowed\n    \
                    ,-[lib/core/Axios.js:39:5]\n 38 |   x\n    `----\n\n  \
                    × Unexpected token\n   ╭─[lib/a.js:1:2]\n\nFound 1 warning and 1 error.\n";
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines[0],
            "oxlint: Found 1 warning and 1 error; counted: 1 error, 1 warning in 2 files"
        );
        let listed: Vec<&str> = fact.failures[0]
            .kept
            .iter()
            .map(|f| f.detail[0].as_str())
            .collect();
        assert_eq!(
            listed,
            [
                "× Unexpected token [lib/a.js:1:2]",
                "! eslint(no-debugger): `debugger` statement is not allowed [lib/core/Axios.js:39:5]"
            ]
        );
    }
}
