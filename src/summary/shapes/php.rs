//! PHP's own errors, as the interpreter prints them (`php -l FILE`, a script run from the
//! command line): `PHP Parse error:  syntax error, unexpected token "public" in src/Logger.php
//! on line 205`, without `PHP ` on standard output, and `PHP Warning:`, `Notice:`,
//! `Deprecated:` and `Fatal error:` alike (an uncaught exception's place is `in FILE:LINE`).
//! `php -l` adds `Errors parsing FILE` and, for each good file, `No syntax errors detected in
//! FILE`. Errors and warnings are counted by kind, the files linted by outcome; the first of
//! each kind is listed, errors first.

use super::diagnostics::{Diagnostics, Level};
use super::names::Names;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug, Default)]
pub(crate) struct Php {
    diagnostics: Diagnostics,
    /// `No syntax errors detected in FILE` lines: files `php -l` found good.
    clean: u64,
    /// `Errors parsing FILE` lines: files `php -l` found bad, quoted while they are few.
    bad: Names,
}

/// PHP's kinds of message, and how each counts.
const KINDS: [(&str, Level); 6] = [
    ("Parse error", Level::Error),
    ("Fatal error", Level::Error),
    ("Recoverable fatal error", Level::Error),
    ("Warning", Level::Warning),
    ("Deprecated", Level::Warning),
    ("Notice", Level::Warning),
];

impl Shape for Php {
    fn line(&mut self, number: u64, text: &str) {
        if text.starts_with("No syntax errors detected in ") {
            self.clean += 1;
            return;
        }
        if let Some(file) = text.strip_prefix("Errors parsing ") {
            self.bad.push_said(file, text.trim_end());
            return;
        }
        let Some((kind, level, place)) = message(text) else {
            return;
        };
        let file = place.rsplit_once(':').map_or(place.as_str(), |(f, _)| f);
        self.diagnostics.files.add(file);
        self.diagnostics
            .add(number, level, Some(&place), text.trim_end(), Some(kind));
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let mut line = format!("php: {}", d.counted("kinds"));
        let bad = self.bad.total;
        if self.clean + bad > 0 {
            line.push_str(&format!(
                "; php -l: {} with errors, {} without",
                plural(bad, "file", "files"),
                thousands(self.clean)
            ));
        }
        let mut json = d.json("php");
        if let serde_json::Value::Object(map) = &mut json {
            map.insert("files_linted_clean".into(), self.clean.into());
            map.insert("files_linted_bad".into(), bad.into());
        }
        // The files `php -l` failed, as it said so, while they are few.
        let quoted = self.bad.said_lines().unwrap_or_default().to_vec();
        Some(
            Fact::new("php", vec![line], json)
                .quoting(quoted)
                .failures(d.failures(|_| 0))
                .hint("'^(PHP )?(Parse|Fatal) error: '"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.bad.approx_heap()
    }
}

/// `PHP Parse error:  msg in src/a.php on line 59` → (`Parse error`, its level,
/// `src/a.php:59`); an uncaught exception's `… in /app/a.php:12` gives `/app/a.php:12`.
fn message(text: &str) -> Option<(&'static str, Level, String)> {
    let t = text.strip_prefix("PHP ").unwrap_or(text);
    let (kind, level, rest) = KINDS.iter().find_map(|&(kind, level)| {
        let rest = t.strip_prefix(kind)?.strip_prefix(':')?;
        Some((kind, level, rest.trim_start()))
    })?;
    if let Some((_, tail)) = rest.rsplit_once(" in ") {
        if let Some((file, line)) = tail.rsplit_once(" on line ")
            && !file.is_empty()
            && line.trim_end().bytes().all(|b| b.is_ascii_digit())
            && !line.trim_end().is_empty()
        {
            return Some((kind, level, format!("{file}:{}", line.trim_end())));
        }
        let place = tail.trim_end();
        if let Some((file, line)) = place.rsplit_once(':')
            && !file.is_empty()
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
        {
            return Some((kind, level, place.to_owned()));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_gives_its_kind_and_place() {
        let (kind, level, place) = message(
            "PHP Parse error:  Unclosed '{' on line 26 does not match ')' in \
             src/Monolog/Formatter/JsonFormatter.php on line 59",
        )
        .expect("a parse error");
        assert_eq!(kind, "Parse error");
        assert_eq!(level, Level::Error);
        assert_eq!(place, "src/Monolog/Formatter/JsonFormatter.php:59");
        let (kind, _, place) =
            message("Warning: Undefined variable $x in /srv/app/index.php on line 3")
                .expect("a warning");
        assert_eq!((kind, place.as_str()), ("Warning", "/srv/app/index.php:3"));
        let (kind, _, place) =
            message("PHP Fatal error:  Uncaught Exception: boom in /srv/app/a.php:12")
                .expect("an uncaught exception");
        assert_eq!((kind, place.as_str()), ("Fatal error", "/srv/app/a.php:12"));
        assert!(message("Parse error handling is tested in tests/ParseTest.php").is_none());
        assert!(message("Warning: something happened").is_none());
    }
}
