//! Diagnostics whose place is in parentheses before their level: Nim's (`src/jsony.nim(161, 24)
//! Error: type mismatch: got 'uint32' …`, `all.nim(7, 30) Warning: imported and not used:
//! 'test_sets' [UnusedImport]`, `Hint: … [XCannotRaiseY]`) and Free Pascal's (`hash.pas(12,5)
//! Error: Identifier not found "x"`, `hash.pas(40) Fatal: There were 2 errors compiling
//! module, stopping`). tsc's and MSVC's `file(3,5): error TS2345:` are tsc's shape.
//!
//! An error's context follows it: Nim's `found 'skipValue' [unknown declared in …]`, its
//! spelling suggestions (` (4, 4): 'skipJsonValue' [proc declared in jsony.nim(312, 6)]`), and
//! before it the chain of instantiations that reached it (`test_arrays.nim(12, 12)
//! template/generic instantiation of `fromJson` from here`), of which the first, in the
//! caller's code, is said with it.
//!
//! Stated, once an error or warning is read: the counts by level, the files, and the first
//! error of each kind of message (a warning's or hint's kind is its `[Name]`), the rarest first.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::eslint::is_number;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// How many lines of context after a diagnostic are read.
const CONTEXT_LINES: usize = 2;

#[derive(Debug, Default)]
pub(crate) struct Parenthesized {
    diagnostics: Diagnostics,
    hints: u64,
    /// Free Pascal's own count: `There were 2 errors compiling module`.
    stated: Option<u64>,
    /// The first instantiation of the chain being read, said with the error it reaches.
    reached_from: Option<String>,
    /// Lines of context still to read under the error added last.
    context: usize,
}

impl Shape for Parenthesized {
    fn line(&mut self, number: u64, text: &str) {
        let Some((place, file, level, message)) = diagnostic(text) else {
            if self.context > 0 {
                let t = text.trim();
                if t.is_empty() || t.bytes().all(|b| b == b'.') {
                    self.context = 0;
                } else {
                    self.context -= 1;
                    self.diagnostics.add_detail(&cut(t, 200));
                }
            }
            return;
        };
        self.context = 0;
        match level {
            Said::Instantiation => {
                if self.reached_from.is_none() {
                    self.reached_from = Some(cut(text.trim(), 200));
                }
                return;
            }
            Said::Hint => {
                self.hints += 1;
                self.reached_from = None;
                return;
            }
            Said::Error | Said::Fatal => {
                if let Some(n) = stated_errors(message) {
                    self.stated = Some(n);
                    return;
                }
            }
            Said::Warning | Said::Note => {}
        }
        let (level, code) = match level {
            Said::Warning => (Level::Warning, bracketed(message)),
            Said::Note => (Level::Note, bracketed(message)),
            _ => (Level::Error, None),
        };
        let header = format!("{place} {message}");
        self.diagnostics
            .add(number, level, Some(place), &header, code);
        self.diagnostics.files.add(file);
        if let Some(from) = self.reached_from.take() {
            self.diagnostics.add_detail(&format!("reached from {from}"));
        }
        self.context = if level == Level::Error {
            CONTEXT_LINES
        } else {
            0
        };
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let mut line = d.summary("compiler", "files");
        if self.hints > 0 {
            line.push_str(&format!(" ({} too)", plural(self.hints, "hint", "hints")));
        }
        if let Some(stated) = self.stated.filter(|s| *s != d.errors) {
            line.push_str(&format!(" (it says {} errors)", thousands(stated)));
        }
        let mut json = d.json("parenthesized");
        json["hints"] = json!(self.hints);
        json["stated"] = json!(self.stated);
        Some(
            Fact::new("parenthesized", vec![line], json)
                .failures(d.failures(|_| 0))
                .hint("'\\([0-9]+(, ?[0-9]+)?\\) (Error|Fatal):' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.reached_from.as_ref().map_or(0, String::capacity)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Said {
    Error,
    Fatal,
    Warning,
    Note,
    Hint,
    /// Nim's `template/generic instantiation of `x` from here`: where an error was reached.
    Instantiation,
}

/// `src/a.nim(161, 24) Error: type mismatch` → (`src/a.nim(161, 24)`, `src/a.nim`, its level,
/// `type mismatch`).
fn diagnostic(text: &str) -> Option<(&str, &str, Said, &str)> {
    // The `(` after the file's name (found fast: most lines have none).
    let open = memchr::memchr(b'(', text.as_bytes())?;
    let file = &text[..open];
    if file.is_empty() || file.contains(' ') || !file.contains('.') {
        return None;
    }
    let after = &text[open + 1..];
    let close = memchr::memchr(b')', after.as_bytes())?;
    let (numbers, rest) = (&after[..close], after[close + 1..].strip_prefix(' ')?);
    let mut parts = numbers.split(',').map(str::trim);
    let line_ok = parts.next().is_some_and(is_number);
    if !line_ok || !parts.all(is_number) {
        return None;
    }
    let place = &text[..open + numbers.len() + 2];
    if rest.starts_with("template/generic instantiation of ") {
        return Some((place, file, Said::Instantiation, rest));
    }
    let (word, message) = rest.split_once(": ")?;
    let said = match word {
        "Error" => Said::Error,
        "Fatal" => Said::Fatal,
        "Warning" => Said::Warning,
        "Note" => Said::Note,
        "Hint" => Said::Hint,
        _ => return None,
    };
    Some((place, file, said, message))
}

/// A Nim warning's kind, the last word in brackets: `… [UnusedImport]` → `UnusedImport`.
fn bracketed(message: &str) -> Option<&str> {
    let (_, name) = message.strip_suffix(']')?.rsplit_once(" [")?;
    (!name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(name)
}

/// Free Pascal's `There were 2 errors compiling module, stopping` → 2.
fn stated_errors(message: &str) -> Option<u64> {
    let rest = message
        .strip_prefix("There were ")
        .or_else(|| message.strip_prefix("There was "))?;
    let (n, rest) = rest.split_once(' ')?;
    rest.starts_with("error").then(|| n.parse().ok())?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_errors_are_read_with_their_context_and_where_they_were_reached_from() {
        let text = "Hint: used config file '/etc/nim/nim.cfg' [Conf]\n\
                    .........\n\
                    t/test_arrays.nim(12, 12) template/generic instantiation of `fromJson` from here\n\
                    src/jsony.nim(590, 4) template/generic instantiation of `parseHook` from here\n\
                    src/jsony.nim(141, 8) Error: undeclared field: 'toFloat32' for type system.float\n\
                    src/jsony.nim(321, 7) Error: undeclared identifier: 'skipValue'\n\
                    candidates (edit distance, scope distance); see '--spellSuggest': \n\
                    \x20(4, 4): 'skipJsonValue' [proc declared in src/jsony.nim(312, 6)]\n\
                    \x20(4, 6): 'SkipTable' [type declared in strutils.nim(1802, 3)]\n\
                    t/all.nim(7, 30) Warning: imported and not used: 'test_sets' [UnusedImport]\n\
                    t/all.nim(7, 41) Hint: 'parse' cannot raise 'Defect' [XCannotRaiseY]\n";
        let fact = super::super::read_lines::<Parenthesized>(text).expect("Nim's diagnostics");
        assert_eq!(
            fact.lines[0],
            "compiler: 2 errors, 1 warning; files: src/jsony.nim ×2, t/all.nim ×1 (1 hint too)"
        );
        // A diagnostic is listed as its first line of detail, its context after it.
        let listed: Vec<_> = fact.failures[0].iter().map(|f| &f.detail).collect();
        assert_eq!(
            listed[0],
            &[
                "src/jsony.nim(141, 8) undeclared field: 'toFloat32' for type system.float",
                "reached from t/test_arrays.nim(12, 12) template/generic instantiation of \
                 `fromJson` from here"
            ]
        );
        assert_eq!(
            listed[1][1..],
            [
                "candidates (edit distance, scope distance); see '--spellSuggest':",
                "(4, 4): 'skipJsonValue' [proc declared in src/jsony.nim(312, 6)]"
            ]
        );
    }

    #[test]
    fn free_pascal_errors_and_its_own_count() {
        let text = "hash.pas(12,5) Error: Identifier not found \"x\"\n\
                    hash.pas(40) Fatal: There were 1 errors compiling module, stopping\n";
        let fact = super::super::read_lines::<Parenthesized>(text).expect("fpc's diagnostics");
        assert!(fact.lines[0].starts_with("compiler: 1 error, 0 warnings"));
        assert_eq!(
            stated_errors("There were 3 errors compiling module, stopping"),
            Some(3)
        );
        assert!(diagnostic("f(x) Error: y").is_none());
        assert!(diagnostic("print(1, 2) Error: y").is_none());
        assert!(diagnostic("a.ts(3,5): error TS2345: x").is_none());
    }
}
