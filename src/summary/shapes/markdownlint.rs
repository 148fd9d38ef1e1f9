//! markdownlint's problems (markdownlint-cli and markdownlint-cli2): one per line,
//! `path:line[:col] [error|warning] MD012/no-multiple-blanks message [detail]`, and cli2's
//! `Summary: 146 error(s)`. Problems are counted by level and rule; the first of each rule is
//! listed, the rarest rules first.

use super::diagnostics::{Diagnostics, Level, is_place_word};
use super::{Fact, Shape};

#[derive(Debug, Default)]
pub(crate) struct Markdownlint {
    diagnostics: Diagnostics,
    /// cli2's `Summary: 146 error(s)`, as printed.
    total: Option<String>,
}

impl Shape for Markdownlint {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(count) = text.strip_prefix("Summary: ")
            && count.ends_with(" error(s)")
        {
            self.total = Some(text.to_owned());
            return;
        }
        let Some((at, level, rule)) = problem(text) else {
            return;
        };
        let file = at.split(':').next().unwrap_or(at);
        self.diagnostics.files.add(file);
        self.diagnostics
            .add(number, level, Some(at), text, Some(rule));
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let mut line = String::from("markdownlint: ");
        if let Some(total) = &self.total {
            line.push_str(&format!("{total}; counted: "));
        }
        line.push_str(&d.counted("rules"));
        Some(
            Fact::new("markdownlint", vec![line], d.json("markdownlint"))
                .failures(d.failures(|_| 0))
                .hint("' MD[0-9]{3}/'"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.total.as_ref().map_or(0, String::capacity)
    }
}

/// `Readme.md:404 error MD012/no-multiple-blanks Multiple …` → (`Readme.md:404`, error,
/// `MD012`).
fn problem(text: &str) -> Option<(&str, Level, &str)> {
    // Most lines are not problems: a place's `:` and line number first, before any search.
    let bytes = text.as_bytes();
    let colon = memchr::memchr(b':', bytes)?;
    if !bytes.get(colon + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let space = colon + memchr::memchr(b' ', &bytes[colon..])?;
    let (at, rest) = (&text[..space], &text[space + 1..]);
    if !is_place_word(at) {
        return None;
    }
    let (level, rest) = if let Some(r) = rest.strip_prefix("error ") {
        (Level::Error, r)
    } else if let Some(r) = rest.strip_prefix("warning ") {
        (Level::Warning, r)
    } else {
        (Level::Error, rest)
    };
    let code = rest.get(..5)?;
    let is_rule = code.starts_with("MD")
        && code[2..].bytes().all(|b| b.is_ascii_digit())
        && rest[5..].starts_with(['/', ' ']);
    is_rule.then_some((at, level, code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_name_their_rule() {
        assert_eq!(
            problem(
                "Readme.md:404 error MD012/no-multiple-blanks Multiple consecutive blank lines"
            ),
            Some(("Readme.md:404", Level::Error, "MD012"))
        );
        assert_eq!(
            problem("docs/a.md:7:3 MD010/no-hard-tabs Hard tabs [Column: 3]"),
            Some(("docs/a.md:7:3", Level::Error, "MD010"))
        );
        assert_eq!(problem("a.md:1 error MDX12/x y"), None);
        assert_eq!(problem("src/a.rs:1: error MD012/x"), None);
    }
}
