//! JSHint's default reporter: a line per problem, `q.js: line 350, col 20, Expected '==='
//! and instead saw '=='.` (with `--verbose`, its code after it: ` (W116)`), and the count
//! that ends it, `518 errors`. Problems are counted per file; the first of each kind of
//! message is listed (its code's, or its words' without the names and values in them), the
//! rarest first.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug)]
pub(crate) struct Jshint {
    diagnostics: Diagnostics,
    /// The closing `518 errors`.
    stated: Option<u64>,
}

impl Default for Jshint {
    fn default() -> Jshint {
        Jshint {
            diagnostics: Diagnostics::firsts_only(),
            stated: None,
        }
    }
}

impl Shape for Jshint {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((file, message)) = problem(text) {
            let code = message
                .strip_suffix(')')
                .and_then(|m| m.rsplit_once(" ("))
                .map(|(_, c)| c)
                .filter(|c| c.len() == 4 && c[1..].bytes().all(|b| b.is_ascii_digit()));
            self.diagnostics.add(number, Level::Error, None, text, code);
            self.diagnostics.files.add(file);
        } else if let Some(n) = text
            .strip_suffix(" errors")
            .or(text.strip_suffix(" error"))
            .and_then(|n| n.parse().ok())
        {
            self.stated = Some(n);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors == 0 {
            return None;
        }
        let mut line = format!("jshint: {}", plural(d.errors, "problem", "problems"));
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(stated) = self.stated.filter(|s| *s != d.errors) {
            line.push_str(&format!(" (it says {} errors)", thousands(stated)));
        }
        if let Some(files) = d.files.render() {
            line.push_str(&format!("; files: {files}"));
        }
        Some(
            Fact::new(
                "jshint",
                vec![line],
                json!({"shape": "jshint", "problems": d.errors,
                "stated": self.stated, "files": d.files.json()}),
            )
            .failures(d.failures(|_| 0))
            .hint("': line [0-9]+, col [0-9]+, '"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
    }
}

/// `q.js: line 350, col 20, Expected '===' …` → the file and the message.
fn problem(text: &str) -> Option<(&str, &str)> {
    // The first `:` ends the file's name (found fast: most lines are no problem).
    let colon = memchr::memchr(b':', text.as_bytes())?;
    let (file, rest) = (&text[..colon], text[colon..].strip_prefix(": line ")?);
    if file.is_empty() || file.contains(' ') {
        return None;
    }
    let (line, rest) = rest.split_once(", col ")?;
    let (col, message) = rest.split_once(", ")?;
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (number(line) && number(col) && !message.is_empty()).then_some((file, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_read_with_their_place() {
        assert_eq!(
            problem("q.js: line 350, col 20, Expected '===' and instead saw '=='."),
            Some(("q.js", "Expected '===' and instead saw '=='."))
        );
        assert_eq!(problem("error: line 3, col x, y"), None);
    }
}
