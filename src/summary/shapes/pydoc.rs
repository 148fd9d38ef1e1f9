//! Python docstring linters, which head a file's (or a definition's) violations with a line of
//! their own and indent each violation under it:
//!
//! - pydoclint: the file's path alone on its line, then `    53: DOC101: Function `print`: …`;
//! - pydocstyle: `bottle.py:107 in public function `getargspec`:`, then
//!   `        D103: Missing docstring in public function`.
//!
//! Stated: the violations counted by code and file, and the first of each code at its place
//! (`rich/cells.py:98: DOC103: …`), the first of all first, then the rarest codes.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug)]
pub(crate) struct PyDoc {
    diagnostics: Diagnostics,
    codes: Tally,
    /// The file (pydoclint) or the place (pydocstyle) the lines under it are about.
    heading: String,
    /// Violations of pydoclint's codes (`DOC…`), and of pydocstyle's (`D…`).
    pydoclint: u64,
    pydocstyle: u64,
}

impl Default for PyDoc {
    fn default() -> PyDoc {
        PyDoc {
            diagnostics: Diagnostics::firsts_of_rules(),
            codes: Tally::default(),
            heading: String::new(),
            pydoclint: 0,
            pydocstyle: 0,
        }
    }
}

impl Shape for PyDoc {
    fn line(&mut self, number: u64, text: &str) {
        match text.as_bytes().first() {
            Some(b' ') if !self.heading.is_empty() => self.violation(number, text.trim()),
            Some(b' ') => {}
            Some(_) => {
                self.heading.clear();
                if let Some(heading) = heading(text) {
                    self.heading.push_str(heading);
                }
            }
            None => {}
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let total = self.pydoclint + self.pydocstyle;
        if total == 0 {
            return None;
        }
        let tool = if self.pydoclint >= self.pydocstyle {
            "pydoclint"
        } else {
            "pydocstyle"
        };
        let d = &self.diagnostics;
        let mut line = format!("{tool}: {}", plural(total, "violation", "violations"));
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(codes) = self.codes.render() {
            line.push_str(&format!("; codes: {codes}"));
        }
        let json = json!({
            "shape": tool,
            "violations": total,
            "codes": self.codes.json(),
            "files": d.files.json(),
        });
        Some(
            Fact::new("pydoc", vec![line], json)
                .failures(d.failures(|_| 0))
                .hint(if tool == "pydoclint" {
                    "'^[^ ].*\\.pyi?$|: DOC[0-9]+: '"
                } else {
                    "'^ +D[0-9]+: ' -B 1"
                }),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.codes.approx_heap() + self.heading.capacity()
    }
}

impl PyDoc {
    /// `53: DOC101: Function `print`: …` under pydoclint's file, `D103: Missing …` under
    /// pydocstyle's place.
    fn violation(&mut self, number: u64, t: &str) {
        let (line, rest) = match t.split_once(": ") {
            Some((n, rest)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                (Some(n), rest)
            }
            _ => (None, t),
        };
        let Some((code, message)) = rest.split_once(": ") else {
            return;
        };
        let docstring_code = |prefix: &str| {
            code.strip_prefix(prefix)
                .is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()))
        };
        let place = match line {
            // pydoclint: a number under a file.
            Some(n) if docstring_code("DOC") && !self.heading.contains(':') => {
                self.pydoclint += 1;
                format!("{}:{n}", self.heading)
            }
            // pydocstyle: under `file:line in …:`, its place.
            None if docstring_code("D") && self.heading.contains(':') => {
                self.pydocstyle += 1;
                self.heading.clone()
            }
            _ => return,
        };
        let file = place.rsplit_once(':').map_or(place.as_str(), |(f, _)| f);
        self.diagnostics.files.add(file);
        self.codes.add(code);
        let header = format!("{place}: {code}: {message}");
        self.diagnostics
            .add(number, Level::Error, Some(&place), &header, Some(code));
    }
}

/// A line that heads violations: pydoclint's path alone (`rich/cells.py`), pydocstyle's
/// `bottle.py:107 in public function `getargspec`:` (its place), or `bottle.py:1 at module
/// level:`.
fn heading(text: &str) -> Option<&str> {
    let t = text.trim_end();
    let is_py = |p: &str| (p.ends_with(".py") || p.ends_with(".pyi")) && !p.contains(' ');
    if is_py(t) {
        return Some(t);
    }
    let (place, _) = t
        .strip_suffix(':')?
        .split_once(" in ")
        .or_else(|| t.split_once(" at module level"))?;
    let (file, line) = place.rsplit_once(':')?;
    (is_py(file) && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())).then_some(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(lines: &[&str]) -> Option<Fact> {
        let mut shape = Box::<PyDoc>::default();
        for (i, line) in lines.iter().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        shape.finish()
    }

    #[test]
    fn pydoclint_s_violations_are_placed_under_their_file() {
        let fact = read(&[
            "Skipping files that match this pattern: \\.git|\\.tox",
            "rich/__init__.py",
            "rich/cells.py",
            "    98: DOC103: Function `cell_len`: Docstring arguments are different.",
            "    98: DOC203: Function `cell_len` return type(s) in docstring not consistent.",
            "    120: DOC103: Function `set_cell_size`: Docstring arguments are different.",
            "",
        ])
        .expect("a fact");
        assert_eq!(
            fact.lines,
            ["pydoclint: 3 violations in 1 file; codes: DOC103 ×2, DOC203 ×1"]
        );
        let listed: Vec<String> = fact.failures[0]
            .iter()
            .flat_map(|f| f.detail.first().cloned())
            .collect();
        assert_eq!(
            listed,
            [
                "rich/cells.py:98: DOC103: Function `cell_len`: Docstring arguments are different.",
                "rich/cells.py:98: DOC203: Function `cell_len` return type(s) in docstring not \
                 consistent."
            ]
        );
    }

    #[test]
    fn pydocstyle_s_violations_are_placed_by_their_heading() {
        let fact = read(&[
            "bottle.py:1 at module level:",
            "        D100: Missing docstring in public module",
            "bottle.py:149 in public function `tob`:",
            "        D419: Docstring is empty",
        ])
        .expect("a fact");
        assert_eq!(
            fact.lines,
            ["pydocstyle: 2 violations in 1 file; codes: D100 ×1, D419 ×1"]
        );
        assert!(fact.failures[0].iter().any(|f| {
            f.detail
                .first()
                .is_some_and(|d| d == "bottle.py:149: D419: Docstring is empty")
        }));
    }

    #[test]
    fn indented_lines_under_other_headings_are_not_violations() {
        let fact = read(&[
            "Traceback (most recent call last):",
            "    12: E501: long",
            "a b.py",
            "    1: DOC1: x",
        ]);
        assert!(fact.is_none());
    }
}
