//! mypy output: `path:line[:col]: error|note: message  [code]` lines, with `--pretty`'s messages
//! wrapped over the next lines (up to the `[code]`) and followed by the source line it points
//! at. Recognised by mypy's last line (`Found 163 errors in 15 files (checked 19 source
//! files)`, `Success: no issues found …`); its `error:` lines look like gcc's, whose facts it
//! then replaces.

use super::diagnostics::{Diagnostics, Level, location};
use super::{Fact, Shape};
use crate::format::plural;

/// Codes of errors that raise when the line runs (`NameError`, `AttributeError`, `TypeError`
/// for a wrong call or operand): listed first after the first error.
const RAISING: &[&str] = &[
    "name-defined",
    "used-before-def",
    "attr-defined",
    "union-attr",
    "call-arg",
    "operator",
    "index",
    "abstract",
];

/// Codes of mypy's optional checks (`--strict` and the `warn_*`/`disallow_*` options, as its
/// documentation lists them) and of missing packages or stubs: listed after the errors mypy
/// reports by default.
const OPTIONAL_CHECKS: &[&str] = &[
    "unused-ignore",
    "redundant-cast",
    "redundant-self",
    "redundant-expr",
    "comparison-overlap",
    "no-untyped-def",
    "no-untyped-call",
    "no-any-return",
    "no-any-unimported",
    "type-arg",
    "unreachable",
    "possibly-undefined",
    "truthy-bool",
    "truthy-iterable",
    "ignore-without-code",
    "unused-awaitable",
    "explicit-override",
    "mutable-override",
    "deprecated",
    "untyped-decorator",
    "import-not-found",
    "import-untyped",
];

/// Where errors of `code` come in the list: those that raise at run time first, optional
/// checks and missing stubs last.
fn rank(code: &str) -> u8 {
    if RAISING.contains(&code) {
        0
    } else if OPTIONAL_CHECKS.contains(&code) {
        2
    } else {
        1
    }
}

#[derive(Debug, Default)]
pub(crate) struct Mypy {
    diagnostics: Diagnostics,
    /// A diagnostic whose message may go on (`--pretty`): line, level, location, message.
    pending: Option<(u64, Level, String, String)>,
    /// mypy's own last line.
    verdict: Option<String>,
    /// The last error's `path:line`, while its notes (at the same line) are still to say.
    noted_at: Option<String>,
}

impl Shape for Mypy {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((at, level, location, mut message)) = self.pending.take() {
            let continues = !text.starts_with(' ') && !text.is_empty() && parse(text).is_none();
            if continues && !is_verdict(text) {
                message.push(' ');
                message.push_str(text.trim());
                if code_of(&message).is_some() {
                    self.add(at, level, &location, &message);
                } else {
                    self.pending = Some((at, level, location, message));
                }
                return;
            }
            self.add(at, level, &location, &message);
        }
        if is_verdict(text) {
            self.verdict = Some(text.trim().to_owned());
            return;
        }
        let Some((location, level, message)) = parse(text) else {
            return;
        };
        if level == Level::Note || code_of(message).is_some() {
            self.add(number, level, location, message);
        } else {
            self.pending = Some((number, level, location.to_owned(), message.to_owned()));
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if let Some((at, level, location, message)) = self.pending.take() {
            self.add(at, level, &location, &message);
        }
        let verdict = self.verdict.as_ref()?;
        let d = &self.diagnostics;
        let mut line = format!("mypy: {verdict}");
        if d.notes > 0 {
            line.push_str(&format!("; {}", plural(d.notes, "note", "notes")));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; codes: {codes}"));
        }
        Some(
            Fact::new("mypy", vec![line], d.json("mypy"))
                .failures(d.failures(rank))
                .hint("': error: ' -A 1")
                .supersedes(&["gcc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self
                .pending
                .as_ref()
                .map_or(0, |(_, _, l, m)| l.capacity() + m.capacity())
            + self.verdict.as_ref().map_or(0, String::capacity)
            + self.noted_at.as_ref().map_or(0, String::capacity)
    }
}

impl Mypy {
    fn add(&mut self, at: u64, level: Level, location: &str, message: &str) {
        let code = code_of(message);
        let file = location.split(':').next().unwrap_or(location);
        // As mypy words it (`a.py:3: error: …`), so it reads and greps the same.
        let word = match level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Note => "note",
        };
        self.diagnostics.add(
            at,
            level,
            Some(location),
            &format!("{word}: {message}"),
            code,
        );
        // An error's first note (`Left operand is of type "str | Any"`) says what it is
        // about, with the next one when it is a heading (`Possible overload variants:`).
        // `a.py:12` of `a.py:12:5`.
        let line = location
            .match_indices(':')
            .nth(1)
            .map_or(location, |(i, _)| &location[..i]);
        let same_line = self.noted_at.as_deref() == Some(line);
        match level {
            Level::Error => {
                self.diagnostics.files.add(file);
                self.noted_at = Some(line.to_owned());
            }
            Level::Note if same_line => {
                self.diagnostics
                    .add_detail(&format!("note: {}", message.trim()));
                if !message.trim_end().ends_with(':') {
                    self.noted_at = None;
                }
            }
            _ => self.noted_at = None,
        }
    }
}

/// `Found 3 errors in 2 files (checked 9 source files)`, `Success: no issues found in 9 source
/// files`.
fn is_verdict(text: &str) -> bool {
    (text.starts_with("Found ") && text.contains(" error") && text.contains(" source file"))
        || (text.starts_with("Success: no issues found"))
}

/// `a.py:12: error: Message  [code]` → (`a.py:12`, error, `Message  [code]`); a column
/// (`a.py:12:5:`) is part of the location.
fn parse(text: &str) -> Option<(&str, Level, &str)> {
    let (at, rest) = location(text, |path| path.ends_with(".py") || path.ends_with(".pyi"))?;
    let rest = rest.strip_prefix(' ')?;
    let (level, message) = if let Some(m) = rest.strip_prefix("error:") {
        (Level::Error, m)
    } else if let Some(m) = rest.strip_prefix("note:") {
        (Level::Note, m)
    } else if let Some(m) = rest.strip_prefix("warning:") {
        (Level::Warning, m)
    } else {
        return None;
    };
    Some((at, level, message.trim_start()))
}

/// The `[code]` that ends a mypy message.
fn code_of(message: &str) -> Option<&str> {
    let inner = message.trim_end().strip_suffix(']')?;
    let (before, code) = inner.rsplit_once('[')?;
    let valid = !code.is_empty()
        && code
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit());
    (valid && before.ends_with("  ")).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_mypy_lines() {
        assert_eq!(
            parse("src/a.py:15: error: Cannot find  [import-not-found]"),
            Some((
                "src/a.py:15",
                Level::Error,
                "Cannot find  [import-not-found]"
            ))
        );
        assert_eq!(
            parse("src/a.py:77: error:"),
            Some(("src/a.py:77", Level::Error, ""))
        );
        assert_eq!(
            parse("a.py:3:5: note: See x"),
            Some(("a.py:3:5", Level::Note, "See x"))
        );
        assert_eq!(parse("src/a.c:3: error: x"), None);
        assert_eq!(
            code_of("Name \"x\" is not defined  [name-defined]"),
            Some("name-defined")
        );
        assert_eq!(code_of("list[int]"), None);
    }
}
