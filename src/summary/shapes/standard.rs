//! JavaScript Standard Style and the linters built on its engine (semistandard, ts-standard,
//! standardx): their banner (`standard: Use JavaScript Standard Style (https://standardjs.com)`)
//! and a line per problem, `  /home/dev/qs/lib/parse.js:23:32: 'option' is not defined.
//! (no-undef)`, a warning marked ` (warning)` at its end. They print no total: problems are
//! counted per severity, rule and file, and the first of each rule listed, errors first, the
//! rarest rules first (the one `no-undef` among two thousand `semi` is what broke).

use super::diagnostics::{Diagnostics, Level};
use super::eslint::is_number;
use super::{Fact, Shape};

#[derive(Debug, Default)]
pub(crate) struct Standard {
    diagnostics: Diagnostics,
    /// The program's name, from its banner.
    program: Option<String>,
}

impl Shape for Standard {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(problem) = text.strip_prefix("  ") {
            if self.program.is_some() {
                self.problem(number, problem);
            }
        } else if self.program.is_none()
            && let Some(program) = banner(text)
        {
            self.program = Some(program.to_owned());
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        let program = self.program.as_deref()?;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let line = format!("{program}: {}", d.counted("error rules"));
        Some(
            Fact::new("standard", vec![line], d.json("standard"))
                .failures(d.failures(|_| 0))
                .hint("':[0-9]+:[0-9]+: ' -C 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.program.as_ref().map_or(0, String::capacity)
    }
}

impl Standard {
    /// `/home/dev/qs/lib/parse.js:23:32: 'option' is not defined. (no-undef)`.
    fn problem(&mut self, number: u64, problem: &str) {
        let Some((place, message)) = problem.split_once(": ") else {
            return;
        };
        let mut parts = place.rsplitn(3, ':');
        let (Some(column), Some(line), Some(file)) = (parts.next(), parts.next(), parts.next())
        else {
            return;
        };
        if !is_number(line) || !is_number(column) || file.is_empty() {
            return;
        }
        let (level, message) = match message.strip_suffix(" (warning)") {
            Some(m) => (Level::Warning, m),
            None => (Level::Error, message),
        };
        let rule = message
            .strip_suffix(')')
            .and_then(|m| m.rsplit_once(" ("))
            .map(|(_, rule)| rule)
            .filter(|rule| !rule.contains(' '));
        let header = format!("{place}: {message}");
        self.diagnostics
            .add(number, level, Some(place), &header, rule);
        self.diagnostics.files.add(file);
    }
}

/// The program of `standard: Use JavaScript Standard Style (https://standardjs.com)` (any of the
/// engine's linters: a name, then its tagline and home page in brackets).
fn banner(text: &str) -> Option<&str> {
    // Read from the name only: most lines are no banner.
    let at = text
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || *b == b'-')
        .count();
    let rest = text[at..].strip_prefix(": ")?;
    let program = &text[..at];
    let named = !program.is_empty();
    let home = rest
        .rsplit_once(" (http")
        .is_some_and(|(tagline, url)| !tagline.is_empty() && url.ends_with(')'));
    (named && home && program.contains("standard")).then_some(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn banners_and_problems() {
        assert_eq!(
            banner("standard: Use JavaScript Standard Style (https://standardjs.com)"),
            Some("standard")
        );
        assert_eq!(
            banner(
                "ts-standard: Typescript Standard Style (https://github.com/standard/ts-standard)"
            ),
            Some("ts-standard")
        );
        assert_eq!(banner("note: see (http://example.com)"), None);
        let text = "standard: Use JavaScript Standard Style (https://standardjs.com)\n\
                    \x20 /q/lib/a.js:1:13: Extra semicolon. (semi)\n\
                    \x20 /q/lib/a.js:3:1: Unexpected var, use let or const instead. (no-var) (warning)\n\
                    \x20 /q/lib/b.js:4:2: Extra semicolon. (semi)\n\
                    \x20 /q/lib/b.js:23:32: 'option' is not defined. (no-undef)\n";
        let mut shape = Box::<Standard>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines,
            ["standard: 3 errors, 1 warning in 2 files; error rules: semi ×2, no-undef ×1"]
        );
        let shown: Vec<&str> = fact.failures[0]
            .kept
            .iter()
            .map(|f| f.detail[0].as_str())
            .collect();
        assert_eq!(
            shown,
            [
                "/q/lib/a.js:1:13: Extra semicolon. (semi)",
                "/q/lib/b.js:23:32: 'option' is not defined. (no-undef)",
                "/q/lib/b.js:4:2: Extra semicolon. (semi)",
                "/q/lib/a.js:3:1: Unexpected var, use let or const instead. (no-var)"
            ]
        );
    }
}
