//! Cython's compiler (`cythonize`, `setup.py build_ext`): each error is a block, `Error
//! compiling Cython file:`, the source it points at between dashed rules, then
//! `cytoolz/dicttoolz.pyx:42:10: undeclared name not builtin: PtrIter_Nxt` (a place and a
//! message, no level word); a warning is one line, `warning: msgpack/_unpacker.pyx:365:43: …`.
//! `[1/5] Cythonizing cytoolz/dicttoolz.pyx` says which module it was compiling.
//!
//! Stated: errors and warnings counted, with their files, the module it stopped at, and the
//! first of each message, errors first.

use super::diagnostics::{Diagnostics, Level, file_of, location};
use super::{Fact, Shape};

const BLOCK: &str = "Error compiling Cython file:";

#[derive(Debug, Default)]
pub(crate) struct Cython {
    diagnostics: Diagnostics,
    /// Inside an error's block, until its message.
    in_block: bool,
    /// `Error compiling Cython file:` blocks: the errors, whether their message was read.
    blocks: u64,
    /// The last `[1/5] Cythonizing a.pyx` line.
    stage: Option<String>,
}

impl Shape for Cython {
    fn line(&mut self, number: u64, text: &str) {
        if text.starts_with(BLOCK) {
            self.in_block = true;
            self.blocks += 1;
            return;
        }
        if let Some(message) = text.strip_prefix("warning: ") {
            if let Some(place) = place(message) {
                self.add(number, Level::Warning, place, text);
            }
        } else if self.in_block {
            if let Some(place) = place(text) {
                self.in_block = false;
                self.add(number, Level::Error, place, text);
            }
        } else if text.starts_with('[')
            && let Some((_, module)) = text.split_once("] Cythonizing ")
            && is_cython_path(module.trim_end())
        {
            self.stage = Some(text.trim_end().to_owned());
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        // Its blocks, or warnings while it compiled modules: `warning: a.pyx:3:1:` alone may
        // be another tool quoting it.
        if self.blocks == 0 && (d.warnings == 0 || self.stage.is_none()) {
            return None;
        }
        let mut line = format!("cython: {}", d.counted("kinds"));
        if let Some(stage) = &self.stage
            && self.blocks > 0
        {
            line.push_str(&format!("; stopped at {stage}"));
        }
        Some(
            Fact::new("cython", vec![line], d.json("cython"))
                .failures(d.failures(|_| 0))
                .hint(r"'^(warning: )?[^ ]+\.(pyx|pxd|pxi|py):[0-9]+:[0-9]+: ' -B 3"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.stage.as_ref().map_or(0, String::capacity)
    }
}

impl Cython {
    fn add(&mut self, number: u64, level: Level, place: &str, text: &str) {
        self.diagnostics
            .add(number, level, Some(place), text.trim_end(), None);
        self.diagnostics.files.add(file_of(place));
    }
}

/// `a.pyx:42:10` of `a.pyx:42:10: message`, for a Cython source (`.pyx`, `.pxd`, `.pxi`, and
/// `.py` compiled by it).
fn place(text: &str) -> Option<&str> {
    let (place, rest) = location(text, is_cython_path)?;
    (rest.starts_with(' ') && place.matches(':').count() == 2).then_some(place)
}

fn is_cython_path(path: &str) -> bool {
    [".pyx", ".pxd", ".pxi", ".py"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_has_a_line_and_a_column() {
        assert_eq!(
            place("cytoolz/dicttoolz.pyx:42:10: undeclared name not builtin: PtrIter_Nxt"),
            Some("cytoolz/dicttoolz.pyx:42:10")
        );
        assert_eq!(place("a.pyx:42: no column"), None);
        assert_eq!(place("a.c:42:10: error: not cython"), None);
    }
}
