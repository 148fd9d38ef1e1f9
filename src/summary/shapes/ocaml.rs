//! The OCaml compiler's diagnostics, as `ocamlc`, `ocamlopt` and dune print them: a place
//! (`File "src/a.ml", line 53, characters 8-37:`, or `lines 3-5`), the code it points at (`53 |
//! …` and a line of `^^^`), then the diagnostic, `Error: Unbound value x`, `Warning 32
//! [unused-value-declaration]: unused value y.`, a warning made an error (`Error (warning 32
//! [unused-value-declaration]): …`) or an alert (`Error (alert deprecated): Fmt.strf`, `Alert
//! deprecated: …`), and its message's further lines (`This expression has type int but an
//! expression was expected of type string`). Counted by level, warnings and alerts by kind;
//! each first error and first warning of a kind is listed with its place and message.

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};

/// Lines between a place and its diagnostic at most (the code shown under a place spanning
/// lines).
const FRAME_LINES: u32 = 12;
/// Lines of a message read past its first.
const MESSAGE_LINES: u32 = 2;

#[derive(Debug, Default)]
pub(crate) struct Ocaml {
    diagnostics: Diagnostics,
    /// The place read last (`src/a.ml:53`), and the lines since.
    place: Option<(String, u32)>,
    /// The diagnostic read last, while its message may go on: its further lines read.
    message: Option<u32>,
}

impl Shape for Ocaml {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(place) = place(text) {
            self.message = None;
            self.place = Some((place, 0));
            return;
        }
        if let Some((place, since)) = &mut self.place {
            if let Some((level, code, message)) = diagnostic(text) {
                let place = std::mem::take(place);
                self.place = None;
                self.diagnostics
                    .add(number, level, Some(&place), message, code.as_deref());
                self.message = Some(0);
                return;
            }
            // Only the code it points at comes between a place and its diagnostic.
            *since += 1;
            if *since > FRAME_LINES || !is_frame(text) {
                self.place = None;
            }
            return;
        }
        if let Some(read) = &mut self.message {
            *read += 1;
            let t = text.trim();
            if *read > MESSAGE_LINES || t.is_empty() || is_frame(text) {
                self.message = None;
            } else {
                self.diagnostics.add_detail(t);
            }
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let json = d.json("ocaml");
        Some(
            Fact::new("ocaml", vec![d.summary("ocaml", "errors by file")], json)
                .failures(d.failures(|code| u8::from(!code.is_empty())))
                .hint("'^(Error|Warning|Alert)' -B 4 -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.place.as_ref().map_or(0, |(p, _)| p.capacity())
    }
}

/// `src/a.ml:53` of `File "src/a.ml", line 53, characters 8-37:` (`lines 3-5`: `src/a.ml:3`).
fn place(text: &str) -> Option<String> {
    let rest = text.strip_prefix("File \"")?.strip_suffix(':')?;
    let (file, rest) = rest.split_once("\", line")?;
    let rest = rest.strip_prefix("s").unwrap_or(rest).strip_prefix(' ')?;
    let line: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = &rest[line.len()..];
    let shaped = after.is_empty() || after.starts_with(", characters ") || after.starts_with('-');
    (!file.is_empty() && !line.is_empty() && shaped).then(|| format!("{file}:{line}"))
}

/// The code under a place: `53 |   let x = …`, or the `^^^` under it.
fn is_frame(text: &str) -> bool {
    let t = text.trim_start();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && t[digits..].starts_with(" |")) || (!t.is_empty() && t.bytes().all(|b| b == b'^'))
}

/// The level, kind and message of `Error: …`, `Error (warning 32 [unused-value-declaration]):
/// …`, `Error (alert deprecated): …`, `Warning 8 [partial-match]: …` (before OCaml 4.12,
/// `Warning 8: …`) or `Alert deprecated: …`. OUnit's `Error: name (in the log).` under its own
/// place lines is no diagnostic.
fn diagnostic(text: &str) -> Option<(Level, Option<String>, &str)> {
    if text.ends_with(" (in the log).") || text.ends_with(" (in the code).") {
        return None;
    }
    if let Some(message) = text.strip_prefix("Error: ") {
        return Some((Level::Error, None, message));
    }
    if let Some(rest) = text.strip_prefix("Error (") {
        let (kind, message) = rest.split_once("): ")?;
        let kind = kind.split(" [").next().unwrap_or(kind);
        return Some((Level::Error, Some(kind.to_owned()), message));
    }
    if let Some(rest) = text.strip_prefix("Warning ") {
        let (kind, message) = rest.split_once(": ")?;
        let number = kind.split(' ').next().unwrap_or(kind);
        if !number.bytes().all(|b| b.is_ascii_digit()) || number.is_empty() {
            return None;
        }
        return Some((Level::Warning, Some(format!("warning {number}")), message));
    }
    let rest = text.strip_prefix("Alert ")?;
    let (kind, message) = rest.split_once(": ")?;
    (!kind.contains(' ')).then(|| (Level::Warning, Some(format!("alert {kind}")), message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_diagnostics() {
        assert_eq!(
            place("File \"src/a.ml\", line 53, characters 8-37:").as_deref(),
            Some("src/a.ml:53")
        );
        assert_eq!(
            place("File \"src/a.ml\", lines 3-5, characters 2-10:").as_deref(),
            Some("src/a.ml:3")
        );
        assert_eq!(place("  File \"a.py\", line 3, in f"), None);
        assert_eq!(place("File \"a.py\", line 3, in f:"), None);
        assert!(matches!(
            diagnostic("Error (warning 32 [unused-value-declaration]): unused value x."),
            Some((Level::Error, Some(k), "unused value x.")) if k == "warning 32"
        ));
        assert!(matches!(
            diagnostic("Warning 8 [partial-match]: this pattern-matching is not exhaustive."),
            Some((Level::Warning, Some(k), _)) if k == "warning 8"
        ));
        assert!(diagnostic("Error: t:0:x (in the log).").is_none());
        assert!(diagnostic("Warning everyone: this is prose").is_none());
    }

    #[test]
    fn errors_with_their_place_and_message() {
        let text = "File \"test/test.ml\", line 272, characters 26-34:\n\
                    272 |       Alcotest.test_case (Fmt.strf \"x\" i) `Quick\n\
                    \x20                               ^^^^^^^^\n\
                    Error (alert deprecated): Fmt.strf\nuse Fmt.str instead.\n\
                    File \"src/b.ml\", line 9, characters 2-3:\n9 |   x + \"a\"\n      ^\n\
                    Error: This expression has type string but an expression was expected of type\n\
                    \x20        int\n";
        let mut shape = Box::<Ocaml>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert!(
            fact.lines[0].starts_with("ocaml: 2 errors, 0 warnings"),
            "{:?}",
            fact.lines
        );
        let kept = &fact.failures[0].kept;
        assert_eq!(
            kept[0].detail,
            ["test/test.ml:272: Fmt.strf", "use Fmt.str instead."]
        );
        assert_eq!(
            kept[1].detail,
            [
                "src/b.ml:9: This expression has type string but an expression was expected of type",
                "int"
            ]
        );
    }
}
