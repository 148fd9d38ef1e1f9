//! shellcheck's default (tty) output: for each place, `In path line N:`, the source line, then a
//! line per finding under it, `^-- SC2086 (info): Double quote to prevent globbing …`, and at
//! the end `For more information:` with a wiki link per code. Findings are counted by level
//! (error, warning, info, style) and by code; the errors are listed each (a parse error or an
//! array expanded unquoted is a bug of its own), then the first finding of each other code,
//! warnings before info and style, the rarest first.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// shellcheck's levels, most severe first.
const LEVELS: [&str; 4] = ["error", "warning", "info", "style"];

#[derive(Debug)]
pub(crate) struct Shellcheck {
    /// The place the findings below are at: `path:line`.
    place: Option<String>,
    /// Findings by level.
    levels: [u64; 4],
    errors: Failures,
    /// The findings that are not errors (the first of each code is kept).
    others: Diagnostics,
    files: Vec<String>,
    files_overflow: bool,
    /// The level of each code seen (its first finding's), to list warnings first.
    code_levels: Vec<(String, u8)>,
}

impl Default for Shellcheck {
    fn default() -> Shellcheck {
        Shellcheck {
            place: None,
            levels: [0; 4],
            errors: Failures::default(),
            others: Diagnostics::firsts_only(),
            files: Vec::new(),
            files_overflow: false,
            code_levels: Vec::new(),
        }
    }
}

/// Files counted by name at most; past this the count of files is not stated.
const FILES_COUNTED: usize = 4096;

impl Shape for Shellcheck {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(place) = place(text) {
            self.place = Some(place);
            return;
        }
        let Some(place) = &self.place else {
            return;
        };
        let Some((code, level, message)) = finding(text) else {
            return;
        };
        self.levels[level] += 1;
        let file = place.rsplit_once(':').map_or(place.as_str(), |(f, _)| f);
        if !self.files.iter().any(|f| f == file) {
            if self.files.len() < FILES_COUNTED {
                self.files.push(file.to_owned());
            } else {
                self.files_overflow = true;
            }
        }
        let described = format!("{place}: {code} ({}): {message}", LEVELS[level]);
        if level == 0 {
            self.errors.push(number, "");
            if let Some(f) = self.errors.current() {
                f.add_detail(&described);
            }
        } else {
            if self.code_levels.len() < FILES_COUNTED
                && !self.code_levels.iter().any(|(c, _)| c == code)
            {
                self.code_levels.push((code.to_owned(), level as u8));
            }
            let place = place.clone();
            self.others
                .add(number, Level::Error, Some(&place), &described, Some(code));
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let total: u64 = self.levels.iter().sum();
        if total == 0 {
            return None;
        }
        let counts: Vec<String> = LEVELS
            .iter()
            .zip(self.levels)
            .filter(|&(_, n)| n > 0)
            .map(|(name, n)| format!("{name} ×{}", thousands(n)))
            .collect();
        let mut line = format!(
            "shellcheck: {} ({})",
            plural(total, "finding", "findings"),
            counts.join(", ")
        );
        if !self.files_overflow {
            line.push_str(&format!(
                " in {}",
                plural(self.files.len() as u64, "file", "files")
            ));
        }
        if let Some(codes) = self.others.codes.render() {
            line.push_str(&format!("; other codes: {codes}"));
        }
        let mut json = self.others.json("shellcheck");
        json["levels"] = LEVELS
            .iter()
            .zip(self.levels)
            .map(|(name, n)| ((*name).to_owned(), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into();
        json["errors"] = json!(self.levels[0]);
        let failing = self.levels[0] > 0;
        Some(
            Fact::new("shellcheck", vec![line], json)
                .failures(self.errors.take_as("errors"))
                .failures({
                    let levels = &self.code_levels;
                    let rank = |code: &str| {
                        levels
                            .iter()
                            .find(|(c, _)| c == code)
                            .map_or(u8::MAX, |(_, l)| *l)
                    };
                    self.others
                        .failures(rank)
                        .take_as("first of each other code")
                })
                .hint_if_failed(failing, "' SC[0-9]{4} \\(error\\)' -B 3")
                .supersedes(&["gcc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.place.as_ref().map_or(0, String::capacity)
            + self.errors.approx_heap()
            + self.others.approx_heap()
            + self.files.iter().map(String::capacity).sum::<usize>()
            + self
                .code_levels
                .iter()
                .map(|(c, _)| c.capacity() + 8)
                .sum::<usize>()
    }
}

/// `In scripts/a.sh line 95:` → `scripts/a.sh:95`.
fn place(text: &str) -> Option<String> {
    let rest = text.strip_prefix("In ")?.strip_suffix(':')?;
    let (path, line) = rest.rsplit_once(" line ")?;
    (!path.is_empty() && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{path}:{line}"))
}

/// `   ^--^ SC2086 (info): Double quote …` → (`SC2086`, level, `Double quote …`).
fn finding(text: &str) -> Option<(&str, usize, &str)> {
    let t = text.trim_start();
    if !t.starts_with('^') {
        return None;
    }
    let at = t.find(" SC")?;
    let rest = &t[at + 1..];
    let (code, rest) = rest.split_once(" (")?;
    let (level, message) = rest.split_once("): ")?;
    let level = LEVELS.iter().position(|l| *l == level)?;
    (code.len() == 6 && code[2..].bytes().all(|b| b.is_ascii_digit()))
        .then_some((code, level, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_findings() {
        assert_eq!(
            place("In scripts/a b.sh line 95:").as_deref(),
            Some("scripts/a b.sh:95")
        );
        assert_eq!(place("In a sentence line of text:"), None);
        assert_eq!(
            finding("         ^--^ SC2086 (info): Double quote to prevent globbing."),
            Some(("SC2086", 2, "Double quote to prevent globbing."))
        );
        assert_eq!(finding("^-- SC2086 (note): x"), None);
        assert_eq!(finding("echo SC2086 (info): x"), None);
    }
}
