//! luacheck, Lua's linter, in its default format: `Checking moses.lua  170 warnings` before
//! each file's findings, each indented (`    moses.lua:898:5: setting non-standard global
//! variable randPos`, with `(W111) ` before its message under `--codes`, `(E011) ` for a
//! syntax error, the one finding of a file whose `Checking` line counts `1 error`), then
//! `Total: 1343 warnings / 0 errors in 9 files`. Its messages name the
//! variable they are about: a finding's kind is its message without the names and numbers
//! (`setting non-standard global variable X`), or its code when printed. Findings are counted
//! by kind and file; the first of each kind is listed, globals first (an undefined variable
//! is a typo or a missing `local`), then the rarest, whitespace last.

use super::diagnostics::{Diagnostics, Level, is_place_word};
use super::{Fact, Shape};

/// How long a finding's kind may be.
const KIND_CHARS: usize = 120;

#[derive(Debug, Default)]
pub(crate) struct Luacheck {
    diagnostics: Diagnostics,
    /// A `Checking` line was read: indented findings are luacheck's; errors when it counted
    /// errors.
    checking: bool,
    errors_here: bool,
    /// `Total: 1343 warnings / 0 errors in 9 files`, as printed.
    total: Option<String>,
}

impl Shape for Luacheck {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("Checking ") {
            self.checking = !rest.is_empty();
            // A file that does not parse has its one syntax error: `Checking a.lua  1 error`.
            self.errors_here = rest.ends_with(" error") || rest.ends_with(" errors");
            return;
        }
        if text.starts_with("Total: ") && text.contains(" warnings / ") {
            self.total = Some(text.trim_end().to_owned());
            self.checking = false;
            return;
        }
        if !self.checking {
            return;
        }
        let Some(finding) = text.strip_prefix("    ") else {
            return;
        };
        let Some((at, message)) = finding.split_once(": ") else {
            return;
        };
        if !is_place_word(at) || !at.contains(':') {
            return;
        }
        let (level, kind) = match code(message) {
            Some(code) if code.starts_with('E') => (Level::Error, code.to_owned()),
            Some(code) => (Level::Warning, code.to_owned()),
            None if self.errors_here => (Level::Error, kind_of(message)),
            None => (Level::Warning, kind_of(message)),
        };
        let file = at.split(':').next().unwrap_or(at);
        self.diagnostics.files.add(file);
        self.diagnostics
            .add(number, level, Some(at), finding.trim_end(), Some(&kind));
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        // Its own total says it ran; findings alone may be another tool's.
        let total = self.total.as_ref()?;
        let line = format!("luacheck: {total}; counted: {}", d.counted("kinds"));
        Some(
            Fact::new("luacheck", vec![line], d.json("luacheck"))
                .failures(d.failures_warnings_ranked(rank))
                .hint_if_failed(
                    d.errors + d.warnings > 0,
                    "'^    [^ ]+:[0-9]+:[0-9]+: ' --max-count 200",
                ),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.total.as_ref().map_or(0, String::capacity)
    }
}

/// `(W113) accessing …` → `W113`.
fn code(message: &str) -> Option<&str> {
    let code = message.strip_prefix('(')?.split_once(") ")?.0;
    let b = code.as_bytes();
    (b.len() == 4 && matches!(b[0], b'W' | b'E') && b[1..].iter().all(u8::is_ascii_digit))
        .then_some(code)
}

/// A message without what it names: the word after `variable`, `argument`, `field`,
/// `function`, `upvalue`, `label` or `value` is `X`, numbers are `N` (`unused loop variable
/// X`, `line is too long (N > N)`).
fn kind_of(message: &str) -> String {
    const NAMED_AFTER: [&str; 7] = [
        "variable", "argument", "field", "function", "upvalue", "label", "value",
    ];
    let mut kind = String::new();
    let mut named = false;
    for word in message.split(' ') {
        if !kind.is_empty() {
            kind.push(' ');
        }
        if named && !NAMED_AFTER.contains(&word) {
            kind.push('X');
        } else {
            // Each run of digits as one `N`.
            let mut digits = false;
            for c in word.chars() {
                if !c.is_ascii_digit() {
                    kind.push(c);
                } else if !digits {
                    kind.push('N');
                }
                digits = c.is_ascii_digit();
            }
        }
        named = NAMED_AFTER.contains(&word);
        if kind.len() > KIND_CHARS {
            break;
        }
    }
    kind
}

/// Globals first (codes W1xx), then the rest, whitespace and line length (W6xx) last.
fn rank(kind: &str) -> u8 {
    if kind.starts_with("W1") || kind.contains("global") || kind.contains("undefined") {
        0
    } else if kind.starts_with("W6") || kind.contains("whitespace") || kind.contains("too long") {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_findings_kind_is_its_message_without_its_names() {
        assert_eq!(
            kind_of("accessing undefined variable setp"),
            "accessing undefined variable X"
        );
        assert_eq!(
            kind_of("shadowing definition of variable x on line 1333"),
            "shadowing definition of variable X on line N"
        );
        assert_eq!(
            kind_of("line is too long (134 > 120)"),
            "line is too long (N > N)"
        );
        assert_eq!(kind_of("unused loop variable i"), "unused loop variable X");
        assert_eq!(code("(W113) accessing undefined variable x"), Some("W113"));
        assert_eq!(code("(x) y"), None);
        assert!(rank("setting non-standard global variable X") < rank("unused variable X"));
        assert!(rank("unused variable X") < rank("line contains trailing whitespace"));
    }
}
