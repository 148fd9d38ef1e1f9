//! svelte-check's human output: each problem is its place alone on a line
//! (`/app/src/lib/List.svelte:9:5`), then `Error: message (js)` or `Warn: …` (the part in
//! brackets says which checker: `js`, `svelte`, `css`), then the code around it; it closes
//! with `svelte-check found 56 errors and 1 warning in 23 files`. Problems are counted by
//! level and checker; the first error and more at other places are listed, then the first
//! warning.

use super::diagnostics::{Diagnostics, Level};
use super::eslint::is_number;
use super::{Fact, Shape};

#[derive(Debug, Default)]
pub(crate) struct SvelteCheck {
    diagnostics: Diagnostics,
    /// The place read on the line before.
    place: Option<String>,
    /// `svelte-check found 56 errors and 1 warning in 23 files`, as printed.
    total: Option<String>,
}

impl Shape for SvelteCheck {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(place) = self.place.take() {
            let (level, message) = if let Some(m) = text.strip_prefix("Error: ") {
                (Level::Error, m)
            } else if let Some(m) = text.strip_prefix("Warn: ") {
                (Level::Warning, m)
            } else {
                return self.line(number, text);
            };
            // `(js)`: which of svelte-check's checkers found it.
            let checker = message
                .trim_end()
                .strip_suffix(')')
                .and_then(|m| m.rsplit_once(" ("))
                .map(|(_, c)| c)
                .filter(|c| !c.is_empty() && c.bytes().all(|b| b.is_ascii_lowercase()));
            let file = place.rsplitn(3, ':').nth(2).unwrap_or(&place);
            self.diagnostics.files.add(file);
            let header = format!("{place} {}", text.trim_end());
            self.diagnostics
                .add(number, level, Some(&place), &header, checker);
            return;
        }
        if text.starts_with("svelte-check found ") {
            self.total = Some(text.trim_end().to_owned());
            return;
        }
        if is_place(text) {
            self.place = Some(text.to_owned());
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        let total = self.total.as_ref()?;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let line = format!("{total}; counted: {}", d.counted("checkers"));
        Some(
            Fact::new("svelte-check", vec![line], d.json("svelte-check"))
                .supersedes(&["tsc"])
                .failures(d.failures(|_| 0))
                .hint("'^(Error|Warn): ' -B 1 -A 3"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.place.as_ref().map_or(0, String::capacity)
            + self.total.as_ref().map_or(0, String::capacity)
    }
}

/// `/app/src/lib/List.svelte:9:5`: a path with a line and a column, alone on its line.
fn is_place(text: &str) -> bool {
    if text.contains(' ') || text.len() > 4096 {
        return false;
    }
    let mut parts = text.rsplitn(3, ':');
    let (Some(column), Some(line), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    is_number(column) && is_number(line) && path.contains('.') && !path.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_a_path_with_a_line_and_a_column_alone() {
        assert!(is_place("/home/dev/app/src/lib/List.svelte:9:5"));
        assert!(is_place("src/routes/+page.server.js:34:10"));
        assert!(!is_place("Error: x at a.js:1:2"));
        assert!(!is_place("12:30:45"));
        assert!(!is_place("a.js:1"));
    }
}
