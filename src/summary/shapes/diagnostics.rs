//! Compiler diagnostics counted by the rustc, gcc/clang and tsc summarisers: errors, warnings
//! and notes, the first error and warning with their locations, error locations, codes and
//! files, each list bounded.

use serde_json::json;

use super::names::Names;
use crate::format::{cut, thousands};
use crate::summary::analysis::Fact;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    Error,
    Warning,
    Note,
}

/// Distinct keys counted, at most `TALLY_KEYS`; a key first seen after that is not counted and
/// the tally is then not shown (its counts would be incomplete).
#[derive(Debug, Default)]
pub(crate) struct Tally {
    counts: Vec<(String, u64)>,
    overflow: bool,
}

const TALLY_KEYS: usize = 64;
const TALLY_SHOWN: usize = 5;

impl Tally {
    pub(crate) fn add(&mut self, key: &str) {
        if let Some((_, n)) = self.counts.iter_mut().rev().find(|(k, _)| k == key) {
            *n += 1;
        } else if self.counts.len() < TALLY_KEYS {
            self.counts.push((key.to_owned(), 1));
        } else {
            self.overflow = true;
        }
    }

    /// `a ×3, b ×2 +4 more`, most frequent first (ties: first seen first); `None` when
    /// incomplete or empty.
    pub(crate) fn render(&self) -> Option<String> {
        if self.overflow || self.counts.is_empty() {
            return None;
        }
        let mut sorted: Vec<&(String, u64)> = self.counts.iter().collect();
        sorted.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let out: Vec<String> = sorted
            .iter()
            .take(TALLY_SHOWN)
            .map(|(k, n)| format!("{k} ×{}", thousands(*n)))
            .collect();
        let mut out = out.join(", ");
        if sorted.len() > TALLY_SHOWN {
            out.push_str(&format!(" +{} more", sorted.len() - TALLY_SHOWN));
        }
        Some(out)
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        if self.overflow {
            return serde_json::Value::Null;
        }
        self.counts
            .iter()
            .map(|(k, n)| (k.clone(), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.counts.capacity() * std::mem::size_of::<(String, u64)>()
            + self.counts.iter().map(|(k, _)| k.capacity()).sum::<usize>()
    }
}

const MESSAGE_CHARS: usize = 120;

#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    pub(crate) errors: u64,
    pub(crate) warnings: u64,
    pub(crate) notes: u64,
    first_error: Option<String>,
    first_warning: Option<String>,
    error_locations: Names,
    pub(crate) codes: Tally,
    pub(crate) files: Tally,
}

impl Diagnostics {
    /// One diagnostic; `header` is its message as printed, `location` `file:line:col` if any.
    pub(crate) fn add(&mut self, level: Level, location: Option<&str>, header: &str) {
        let described = || match location {
            Some(loc) => cut(&format!("{loc}: {header}"), MESSAGE_CHARS),
            None => cut(header, MESSAGE_CHARS),
        };
        match level {
            Level::Error => {
                self.errors += 1;
                if self.first_error.is_none() {
                    self.first_error = Some(described());
                }
                if let Some(loc) = location {
                    self.error_locations.push(loc);
                }
            }
            Level::Warning => {
                self.warnings += 1;
                if self.first_warning.is_none() {
                    self.first_warning = Some(described());
                }
            }
            Level::Note => self.notes += 1,
        }
    }

    pub(crate) fn fact(&self, tool: &str, shape: &str, files_label: &str) -> Fact {
        let plural = |n: u64, word: &str| {
            format!("{} {word}{}", thousands(n), if n == 1 { "" } else { "s" })
        };
        let mut counts = vec![
            plural(self.errors, "error"),
            plural(self.warnings, "warning"),
        ];
        if self.notes > 0 {
            counts.push(plural(self.notes, "note"));
        }
        let mut first = format!("{tool}: {}", counts.join(", "));
        if let Some(codes) = self.codes.render() {
            first.push_str(&format!("; codes: {codes}"));
        }
        if let Some(files) = self.files.render() {
            first.push_str(&format!("; {files_label}: {files}"));
        }
        let mut lines = vec![first];
        if let Some(e) = &self.first_error {
            let mut line = format!("first error: {e}");
            if self.error_locations.total > 1 {
                line.push_str(&format!(
                    "; errors at {}",
                    self.error_locations.render(self.error_locations.total)
                ));
            }
            lines.push(line);
        }
        if let Some(w) = &self.first_warning {
            lines.push(format!("first warning: {w}"));
        }
        Fact {
            lines,
            json: json!({
                "shape": shape,
                "errors": self.errors,
                "warnings": self.warnings,
                "notes": self.notes,
                "first_error": self.first_error,
                "first_warning": self.first_warning,
                "error_locations": self.error_locations.kept,
                "codes": self.codes.json(),
                "files": self.files.json(),
            }),
        }
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.first_error.as_ref().map_or(0, String::capacity)
            + self.first_warning.as_ref().map_or(0, String::capacity)
            + self.error_locations.approx_heap()
            + self.codes.approx_heap()
            + self.files.approx_heap()
    }
}
