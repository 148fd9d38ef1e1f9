//! Biome's diagnostics (`biome lint`, `biome check`, `biome format`): a heading per diagnostic,
//! `path:line:col category ━━━━` (`lib/a.js:86:5 lint/suspicious/noDebugger  FIXABLE  ━━━━`),
//! then its message behind its level's mark (`× …` or `✖ …` an error, `! …` or `⚠ …` a
//! warning, `i …` or `ℹ …` information), a code frame and advice; at the end Biome's totals
//! (`Checked 7 files in 92ms. No fixes applied.`, `Found 75 errors.`, `Found 3 warnings.`).
//! Diagnostics are counted by level and category; the first of each category is listed, errors
//! first, the rarest categories first.

use super::diagnostics::{Diagnostics, Level, is_place_word};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug, Default)]
pub(crate) struct Biome {
    diagnostics: Diagnostics,
    /// The heading read last, until its message: (line, `path:line:col`, category).
    heading: Option<(u64, String, String)>,
    /// Biome's own closing lines, as printed.
    totals: Vec<String>,
    infos: u64,
}

/// Closing lines kept, at most (a run prints two or three).
const TOTALS_KEPT: usize = 4;

impl Shape for Biome {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((at, category)) = heading(text) {
            self.heading = Some((number, at.to_owned(), category.to_owned()));
            return;
        }
        if (text.starts_with("Found ") || text.starts_with("Checked ")) && is_total(text) {
            if self.totals.len() < TOTALS_KEPT {
                self.totals.push(text.to_owned());
            }
            return;
        }
        let t = text.trim_start();
        if t.is_empty() {
            return;
        }
        let Some((line, at, category)) = self.heading.take() else {
            return;
        };
        let Some((mark, message)) = t.split_once(' ') else {
            return;
        };
        let level = match mark {
            "×" | "✖" => Level::Error,
            "!" | "⚠" => Level::Warning,
            "i" | "ℹ" => {
                self.infos += 1;
                return;
            }
            _ => return,
        };
        let file = at.split(':').next().unwrap_or(&at).to_owned();
        let described = format!("{at} {category} {mark} {}", message.trim());
        self.diagnostics
            .add(line, level, Some(&at), &described, Some(&category));
        self.diagnostics.files.add(&file);
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors + d.warnings == 0 {
            return None;
        }
        let mut line = String::from("biome: ");
        if !self.totals.is_empty() {
            line.push_str(self.totals.join(" ").trim_end_matches('.'));
            line.push_str("; counted: ");
        }
        line.push_str(&d.counted("error categories"));
        if self.infos > 0 {
            line.push_str(&format!("; {}", plural(self.infos, "info", "infos")));
        }
        Some(
            Fact::new("biome", vec![line], d.json("biome"))
                .failures(d.failures(|_| 0))
                .hint("'^[^ ]+:[0-9]+:[0-9]+ [a-zA-Z]+[/ ]' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self
                .heading
                .as_ref()
                .map_or(0, |(_, a, c)| a.capacity() + c.capacity())
            + self.totals.iter().map(String::capacity).sum::<usize>()
    }
}

/// `lib/a.js:86:5 lint/suspicious/noDebugger  FIXABLE  ━━━━` → (`lib/a.js:86:5`,
/// `lint/suspicious/noDebugger`): a place with its line and column, a category, perhaps tags,
/// and the rule of heavy dashes.
fn heading(text: &str) -> Option<(&str, &str)> {
    let before = text.strip_suffix('━')?.trim_end_matches('━').trim_end();
    let mut words = before.split_whitespace();
    let at = words.next()?;
    let category = words.next()?;
    if !words.all(|w| w.bytes().all(|b| b.is_ascii_uppercase())) {
        return None;
    }
    // A formatter's diagnostic is about a whole file (`src/x.ts format ━━━━`).
    let placed = (is_place_word(at) && at.matches(':').count() == 2)
        || (!at.contains(':') && at.contains('.'));
    let known = category.contains('/') || WHOLE_CATEGORIES.contains(&category);
    (placed && known && category.bytes().all(|b| b.is_ascii_graphic())).then_some((at, category))
}

/// Categories of Biome's diagnostics that are not a rule's (`lint/style/noVar`).
const WHOLE_CATEGORIES: [&str; 4] = ["format", "parse", "organizeImports", "check"];

/// `Found 75 errors.`, `Found 3 warnings.`, `Checked 7 files in 92ms. No fixes applied.`
fn is_total(text: &str) -> bool {
    let rest = text
        .strip_prefix("Found ")
        .or_else(|| text.strip_prefix("Checked "));
    rest.is_some_and(|r| {
        let digits = r.bytes().take_while(u8::is_ascii_digit).count();
        digits > 0
            && [" error", " warning", " info", " file"]
                .iter()
                .any(|w| r[digits..].starts_with(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_are_places_with_a_category() {
        assert_eq!(
            heading("lib/a.js:86:5 lint/suspicious/noDebugger  FIXABLE  ━━━━━━━━"),
            Some(("lib/a.js:86:5", "lint/suspicious/noDebugger"))
        );
        assert_eq!(
            heading("src/x.ts:1:1 parse ━━━━"),
            Some(("src/x.ts:1:1", "parse"))
        );
        assert_eq!(heading("lint ━━━━━━━━━━━━"), None);
        assert_eq!(
            heading("src/x.ts format ━━━━"),
            Some(("src/x.ts", "format"))
        );
        assert_eq!(heading("notes.txt word ━━━━"), None);
        assert_eq!(heading("a.js:1:2 says something here ━━"), None);
    }
}
