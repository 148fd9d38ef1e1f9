//! ruff (and flake8-style) lint output: the concise `path:line:col: CODE message` lines (and
//! pylama's, `path:line:col CODE message [linter]`, kept as printed), or
//! ruff's full format (`CODE message`, or since ruff 0.17 `rule-name: message`, then
//! `  --> path:line:col` and a code frame), with
//! ruff's totals (`Found 225 errors.`, `[*] 31 fixable with `--fix``). Findings are counted
//! per rule. Findings of rules that find likely bugs (syntax errors, undefined names, bad
//! comparisons: each a bug of its own) are listed each, first; of the other rules, the first
//! finding, the rarest rules first.

use super::diagnostics::{Diagnostics, Level};
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug)]
pub(crate) struct Ruff {
    diagnostics: Diagnostics,
    /// Every finding of a rule that finds likely bugs.
    breaking: Failures,
    /// A full-format header waiting for its `-->` line: line, code, message.
    pending: Option<(u64, String, String)>,
    found: Option<u64>,
    fixable: Option<u64>,
    /// The file of the group read (`--output-format=grouped`: `path:`, then its findings).
    group: Option<String>,
    /// A finding was read in the grouped format.
    grouped: bool,
}

impl Default for Ruff {
    fn default() -> Ruff {
        Ruff {
            // Its likely bugs are listed each; of its style, the first of each rule.
            diagnostics: Diagnostics::firsts_only(),
            breaking: Failures::default(),
            pending: None,
            found: None,
            fixable: None,
            group: None,
            grouped: false,
        }
    }
}

impl Shape for Ruff {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((at, code, message)) = self.pending.take()
            && let Some(location) = text.trim_start().strip_prefix("--> ")
        {
            self.add(at, location, &code, &message);
            return;
        }
        match text.as_bytes().first() {
            Some(b'A'..=b'Z') => {
                if let Some(rest) = text.strip_prefix("Found ") {
                    self.found = rest
                        .strip_suffix(" errors.")
                        .or_else(|| rest.strip_suffix(" error."))
                        .and_then(|n| n.parse().ok());
                } else if let Some((code, message)) = rule_then_message(text) {
                    self.pending = Some((number, code.to_owned(), message.to_owned()));
                } else {
                    self.concise(number, text);
                }
            }
            // ruff 0.17 names its rules: `undefined-name: Undefined name `x``.
            Some(b'a'..=b'z') => match named_rule_then_message(text) {
                Some((rule, message)) => {
                    self.pending = Some((number, rule.to_owned(), message.to_owned()));
                }
                None => self.concise(number, text),
            },
            Some(b'[') => {
                if let Some(rest) = text.strip_prefix("[*] ") {
                    self.fixable = rest.split(' ').next().and_then(|n| n.parse().ok());
                }
            }
            Some(b' ') => {
                if !self.grouped(number, text) {
                    self.concise(number, text);
                }
            }
            Some(_) => self.concise(number, text),
            None => self.group = None,
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors == 0 {
            return None;
        }
        let tool = if self.found.is_some() { "ruff" } else { "lint" };
        let mut line = format!("{tool}: {}", plural(d.errors, "finding", "findings"));
        if let Some(found) = self.found {
            line.push_str(&format!(" (Found {} errors", thousands(found)));
            if let Some(fixable) = self.fixable {
                line.push_str(&format!(", {} fixable", thousands(fixable)));
            }
            line.push(')');
        }
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; rules: {codes}"));
        }
        Some(
            Fact::new(
                if tool == "ruff" { "ruff" } else { "lint" },
                vec![line],
                d.json("ruff"),
            )
            .failures(
                self.breaking
                    .take_as("likely bugs (syntax errors, undefined names, bad comparisons)"),
            )
            .failures(d.failures_of(|_| 0, |code| !breaks(code)))
            .hint(if self.grouped {
                // The grouped format: a file's line, then its findings.
                "'^[^ ].*:$|^ +[0-9]+:[0-9]+ +[A-Z]+[0-9]+ '"
            } else {
                "':[0-9]+(:[0-9]+)?:? \\[?[A-Z]+[0-9]+\\]? |^  --> ' -B 1"
            })
            .supersedes(&["gcc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.breaking.approx_heap()
            + self
                .pending
                .as_ref()
                .map_or(0, |(_, c, m)| c.capacity() + m.capacity())
    }
}

impl Ruff {
    /// A finding of the grouped format, `  2101:12 F821 Undefined name `html`` under its file's
    /// `src/a.py:` line; whether it was one.
    fn grouped(&mut self, number: u64, text: &str) -> bool {
        let Some(file) = &self.group else {
            return false;
        };
        let t = text.trim_start();
        let Some((place, rest)) = t.split_once(' ') else {
            return false;
        };
        let is_place = place
            .split_once(':')
            .is_some_and(|(l, c)| is_number(l) && is_number(c));
        let Some((code, message)) = rule_then_message(rest.trim_start()).filter(|_| is_place)
        else {
            return false;
        };
        let location = format!("{file}:{place}");
        self.add(number, &location, code, message);
        self.grouped = true;
        true
    }

    /// `src/a.py:69:37: PLR2004 Magic value …`; or a grouped format's file, `src/a.py:`.
    fn concise(&mut self, number: u64, text: &str) {
        if let Some(file) = text.strip_suffix(':')
            && !file.is_empty()
            && !file.contains([' ', ':'])
            && file.contains('.')
        {
            self.group = Some(crate::format::cut(file, 300));
            return;
        }
        let Some((location, rest)) = located(text) else {
            return;
        };
        // flake8's pylint format puts the code in brackets (`./a.py:12: [F811] redefinition …`).
        let bracketed = rest
            .strip_prefix('[')
            .and_then(|r| r.split_once("] "))
            .map(|(code, message)| format!("{code} {message}"));
        let Some((code, message)) = rule_then_message(bracketed.as_deref().unwrap_or(rest)) else {
            return;
        };
        // pylama's lines (`a.py:3:1 E0602 undefined name 'x' [pyflakes]`, no `:` after the
        // place) and flake8's pylint format are kept as printed.
        let printed = !text[location.len()..].starts_with(':') || bracketed.is_some();
        self.add_as(number, location, code, message, printed.then_some(text));
    }

    fn add(&mut self, at: u64, location: &str, code: &str, message: &str) {
        self.add_as(at, location, code, message, None);
    }

    /// A finding, described as `location: CODE message`, or as `printed` when given.
    fn add_as(
        &mut self,
        at: u64,
        location: &str,
        code: &str,
        message: &str,
        printed: Option<&str>,
    ) {
        let file = location.split(':').next().unwrap_or(location);
        let header = printed.map_or_else(|| format!("{code} {message}"), str::to_owned);
        self.diagnostics
            .add(at, Level::Error, Some(location), &header, Some(code));
        self.diagnostics.files.add(file);
        if breaks(code) {
            self.breaking.push(at, "");
            if let Some(f) = self.breaking.current() {
                match printed {
                    Some(line) => f.add_detail(line),
                    None => f.add_detail(&format!("{location}: {header}")),
                };
            }
        }
    }
}

/// A rule whose findings are likely bugs: syntax errors (`E9…`), pyflakes' undefined names
/// (`F821`–`F823`), bad comparisons, repeated keys and misplaced statements (`F6…`, `F7…`),
/// pylint's errors (`PLE…`, and `E0602` as pylama names pyflakes' and pylint's errors: `E` and
/// four digits, where pycodestyle's have three).
fn breaks(code: &str) -> bool {
    let pylint_error =
        code.len() == 5 && code.starts_with('E') && code[1..].bytes().all(|b| b.is_ascii_digit());
    pylint_error
        || ["E9", "F6", "F7", "F821", "F822", "F823", "PLE"]
            .iter()
            .any(|p| code.starts_with(p))
        || BREAKING_NAMES.contains(&code)
}

/// The names ruff 0.17 gives the rules of likely bugs (by code in [`breaks`]).
const BREAKING_NAMES: &[&str] = &[
    "syntax-error",
    "invalid-syntax",
    "io-error",
    "undefined-name",
    "undefined-export",
    "undefined-local",
    "is-literal",
    "multi-value-repeated-key-literal",
    "multi-value-repeated-key-variable",
    "break-outside-loop",
    "continue-outside-loop",
    "yield-outside-function",
    "return-outside-function",
    "default-except-not-last",
];

/// `undefined-name: Undefined name `x`` or `unused-import: [*] `os` imported but unused` →
/// (rule, message): a rule named in lower-case words joined by `-` (one word is a compiler's
/// `warning:` or a note's `help:`, which a `-->` line may follow too).
fn named_rule_then_message(text: &str) -> Option<(&str, &str)> {
    let (rule, message) = text.split_once(": ")?;
    let named = rule.contains('-')
        && rule
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    let message = message.strip_prefix("[*] ").unwrap_or(message);
    (named && !message.is_empty()).then_some((rule, message))
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `path:12:5: rest` → (`path:12:5`, `rest`); without the column too (doc8's
/// `docs/a.rst:4: D001 Line too long`).
fn located(text: &str) -> Option<(&str, &str)> {
    let (path, rest) = text.split_once(':')?;
    if path.is_empty() || path.contains(' ') {
        return None;
    }
    let mut end = path.len();
    let mut rest = rest;
    for k in 0..2 {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if k == 1 && digits > 0 && rest[digits..].starts_with(' ') {
            // pylama's column, then a space.
            end += 1 + digits;
            rest = &rest[digits..];
            break;
        }
        if digits == 0 || !rest[digits..].starts_with(':') {
            if k == 1 {
                break;
            }
            return None;
        }
        end += 1 + digits;
        rest = &rest[digits + 1..];
    }
    Some((&text[..end], rest.strip_prefix(' ')?))
}

/// `PLR2004 Magic value…` or `F401 [*] `os` imported but unused` → (code, message).
fn rule_then_message(text: &str) -> Option<(&str, &str)> {
    let (code, message) = text.split_once(' ')?;
    let letters = code.bytes().take_while(u8::is_ascii_uppercase).count();
    let digits = code[letters..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    let valid = (1..=4).contains(&letters) && digits >= 1 && letters + digits == code.len();
    let message = message.strip_prefix("[*] ").unwrap_or(message);
    (valid && !message.is_empty()).then_some((code, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ruff_lines() {
        assert_eq!(
            located("src/a.py:69:37: PLR2004 Magic"),
            Some(("src/a.py:69:37", "PLR2004 Magic"))
        );
        assert_eq!(
            located("docs/a.rst:4: D001 Line too long"),
            Some(("docs/a.rst:4", "D001 Line too long"))
        );
        assert_eq!(located("docs/a.rst:x: D001 Line"), None);
        // pylama: no `:` after the column.
        assert_eq!(
            located("src/a.py:31:23 E0602 undefined name 'x' [pyflakes]"),
            Some(("src/a.py:31:23", "E0602 undefined name 'x' [pyflakes]"))
        );
        assert!(breaks("E0602") && !breaks("E501") && !breaks("W0611") && !breaks("EM102"));
        assert_eq!(
            rule_then_message("F821 Undefined name"),
            Some(("F821", "Undefined name"))
        );
        assert_eq!(rule_then_message("Found 225 errors."), None);
        assert_eq!(
            rule_then_message("E501 [*] Line too long"),
            Some(("E501", "Line too long"))
        );
        assert_eq!(
            named_rule_then_message("unused-import: [*] `os` imported but unused"),
            Some(("unused-import", "`os` imported but unused"))
        );
        assert_eq!(named_rule_then_message("src/a.py:3:1: F401 x"), None);
        assert_eq!(
            named_rule_then_message("warning: unused variable: `x`"),
            None
        );
        assert!(breaks("undefined-name") && !breaks("none-comparison"));
    }

    /// ruff 0.17's full format names its rules (filelock, corpus 16): findings are counted by
    /// rule name, the undefined names listed each.
    #[test]
    fn rules_named_in_the_full_format() {
        let mut ruff = Ruff::default();
        for (n, line) in [
            "undefined-name: Undefined name `time`",
            "   --> src/filelock/_api.py:326:22",
            "    |",
            "help: Use `ruff: ignore` instead",
            "   --> src/filelock/_api.py:1:1",
            "warning: unused variable: `x`",
            "  --> src/lib.rs:3:9",
            "none-comparison: [*] Comparison to `None` should be `cond is None`",
            "   --> src/filelock/_api.py:313:24",
            "Found 2 errors.",
        ]
        .iter()
        .enumerate()
        {
            ruff.line(n as u64 + 1, line);
        }
        let fact = Box::new(ruff).finish().expect("a fact");
        let said = fact.lines.join("\n");
        assert!(
            said.starts_with("ruff: 2 findings (Found 2 errors) in 1 file; rules: "),
            "{said}"
        );
        assert!(
            said.contains("undefined-name ×1") && said.contains("none-comparison ×1"),
            "{said}"
        );
        let listed = format!("{:?}", fact.failures);
        assert!(
            listed.contains("src/filelock/_api.py:326:22: undefined-name Undefined name `time`"),
            "{listed}"
        );
    }
}
