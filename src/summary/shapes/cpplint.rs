//! cpplint, Google's C++ style checker: a line per problem, `src/a.cpp:607:  Never use
//! sprintf. Use snprintf instead.  [runtime/printf] [5]` (its category and its confidence,
//! 1 to 5), `Done processing src/a.cpp` per file and `Total errors found: 109`.
//!
//! Stated: its own total, the problems counted by category and file, and the first of each
//! category as printed, the rarest first (a category seen once is often what changed), then
//! problems of a category seen before that say something of their own.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, location};
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug)]
pub(crate) struct Cpplint {
    diagnostics: Diagnostics,
    /// `Total errors found: N`.
    total: Option<u64>,
    processed: u64,
}

impl Default for Cpplint {
    fn default() -> Cpplint {
        Cpplint {
            diagnostics: Diagnostics::of_rules(),
            total: None,
            processed: 0,
        }
    }
}

impl Shape for Cpplint {
    fn line(&mut self, number: u64, text: &str) {
        // Most lines are none of its: a problem ends in its confidence, `] [5]`.
        if text.ends_with(']') {
            if let Some((place, category)) = problem(text) {
                self.diagnostics.add(
                    number,
                    Level::Error,
                    Some(place),
                    text.trim_end(),
                    Some(category),
                );
                self.diagnostics
                    .files
                    .add(place.split(':').next().unwrap_or(place));
            }
        } else if let Some(n) = text.strip_prefix("Total errors found: ") {
            self.total = n.trim().parse().ok();
        } else if text.starts_with("Done processing ") {
            self.processed += 1;
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        // Its own total, or its lines with its files' ends: another tool's `[x] [1]` is not.
        let total = self
            .total
            .or((self.processed > 0 && d.errors > 0).then_some(d.errors))?;
        let mut line = format!("cpplint: {}", plural(total, "error", "errors"));
        if total != d.errors {
            line.push_str(&format!(" (counted: {})", thousands(d.errors)));
        }
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; categories: {codes}"));
        }
        let json = json!({
            "shape": "cpplint",
            "total": self.total,
            "counted": d.errors,
            "files_processed": self.processed,
            "categories": d.codes.json(),
            "files": d.files.json(),
        });
        Some(
            Fact::new("cpplint", vec![line], json)
                .failures(d.failures(|_| 0))
                .hint_if_failed(total > 0, "'\\[[a-z_]+/[a-z_+]+\\] \\[[1-5]\\]$'"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
    }
}

/// `src/a.cpp:607:  Never use sprintf.  [runtime/printf] [5]` → (`src/a.cpp:607`,
/// `runtime/printf`).
fn problem(text: &str) -> Option<(&str, &str)> {
    let rest = text.trim_end().strip_suffix(']')?;
    let (rest, confidence) = rest.rsplit_once(" [")?;
    if !matches!(confidence, "1" | "2" | "3" | "4" | "5") {
        return None;
    }
    let (_, category) = rest.strip_suffix(']')?.rsplit_once("  [")?;
    let (group, name) = category.split_once('/')?;
    let word = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_' || b == b'+')
    };
    if !word(group) || !word(name) {
        return None;
    }
    let (place, _) = location(text, |p| !p.starts_with('-'))?;
    Some((place, category))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_its_file_and_category() {
        assert_eq!(
            problem(
                "tinyxml2.cpp:607:  Never use sprintf. Use snprintf instead.  [runtime/printf] [5]"
            ),
            Some(("tinyxml2.cpp:607", "runtime/printf"))
        );
        assert_eq!(
            problem(
                "xmltest.cpp:2792:  Add #include <cstdio> for printf  [build/include_what_you_use] [4]"
            ),
            Some(("xmltest.cpp:2792", "build/include_what_you_use"))
        );
        assert_eq!(problem("a.cpp:1:  text  [Not/a] [5]"), None);
        assert_eq!(problem("see [runtime/printf] [5]"), None);
        assert_eq!(problem("a.cpp:1:  text  [runtime/printf] [9]"), None);
    }

    #[test]
    fn its_total_and_the_first_of_each_category() {
        let mut shape = Box::<Cpplint>::default();
        for (i, line) in [
            "a.cpp:3:  Using C-style cast.  Use reinterpret_cast<T*>(...) instead  [readability/casting] [4]",
            "a.cpp:9:  Using C-style cast.  Use static_cast<int>(...) instead  [readability/casting] [4]",
            "Done processing a.cpp",
            "b.cpp:607:  Never use sprintf. Use snprintf instead.  [runtime/printf] [5]",
            "Done processing b.cpp",
            "Total errors found: 3",
        ]
        .iter()
        .enumerate()
        {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("cpplint");
        assert_eq!(
            fact.lines,
            ["cpplint: 3 errors in 2 files; categories: readability/casting ×2, runtime/printf ×1"]
        );
    }
}
