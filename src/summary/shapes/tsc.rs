//! TypeScript compiler errors: `file(line,col): error TS2322: …` (plain), `file:line:col -
//! error TS2322: …` (`--pretty`) and location-less `error TS5023: …`, with codes and files.

use std::sync::LazyLock;

use memchr::memmem::Finder;

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug, Default)]
pub(crate) struct Tsc {
    diagnostics: Diagnostics,
}

impl Shape for Tsc {
    fn line(&mut self, number: u64, text: &str) {
        let Some((position, code, message)) = parse(text) else {
            return;
        };
        // The place as tsc prints it (`src/a.ts(30,43)`): what a reader searches for.
        let location = position.map(|(printed, _)| printed);
        self.diagnostics
            .add(number, Level::Error, location, message, Some(code));
        if let Some((_, file)) = position {
            self.diagnostics.files.add(file);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors == 0 {
            return None;
        }
        let mut summary = d.summary("tsc", "errors by file");
        if let Some(files) = d.files.distinct() {
            summary.push_str(&format!("; {}", plural(files as u64, "file", "files")));
        }
        Some(
            Fact::new("tsc", vec![summary], d.json("tsc"))
                .failures(d.failures(|_| 0))
                .hint("'error TS[0-9]+' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
    }
}

/// The place as printed (`src/a.ts(30,43)`, `src/a.ts:30:43`) and its file.
type Position<'a> = (&'a str, &'a str);

/// → ((place, file) if located, code, message from `error TS…` on).
fn parse(text: &str) -> Option<(Option<Position<'_>>, &str, &str)> {
    static FINDER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(b"error TS"));
    let at = FINDER.find(text.as_bytes())?;
    let (head, message) = text.split_at(at);
    let (code, _) = message["error ".len()..].split_once(": ")?;
    if code.len() < 3 || !code[2..].bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if head.is_empty() {
        return Some((None, code, message));
    }
    let (place, file, line, col) = if let Some(place) = head.strip_suffix(" - ") {
        // `src/a.ts:30:43`
        let (rest, col) = place.rsplit_once(':')?;
        let (file, line) = rest.rsplit_once(':')?;
        (place, file, line, col)
    } else if let Some(place) = head.strip_suffix(": ") {
        // `src/a.ts(30,43)`
        let (file, position) = place.strip_suffix(')')?.rsplit_once('(')?;
        let (line, col) = position.split_once(',')?;
        (place, file, line, col)
    } else {
        return None;
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if file.is_empty() || file.starts_with(' ') || !number(line) || !number(col) {
        return None;
    }
    Some((Some((place, file)), code, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_styles() {
        assert_eq!(
            parse("src/a.ts(30,43): error TS2366: x"),
            Some((
                Some(("src/a.ts(30,43)", "src/a.ts")),
                "TS2366",
                "error TS2366: x"
            ))
        );
        assert_eq!(
            parse("src/a.ts:30:43 - error TS2366: x"),
            Some((
                Some(("src/a.ts:30:43", "src/a.ts")),
                "TS2366",
                "error TS2366: x"
            ))
        );
        assert_eq!(
            parse("error TS5023: Unknown compiler option"),
            Some((None, "TS5023", "error TS5023: Unknown compiler option"))
        );
        assert_eq!(parse("log: error TSX: y"), None);
    }
}
