//! rustfmt's check (`cargo fmt --check`, `rustfmt --check`): for each place that is not
//! formatted, `Diff in /path/src/a.rs:3:` (older rustfmt: `Diff in /path/src/a.rs at line 3:`)
//! and the lines as they are (`-`) and as rustfmt would write them (`+`). The places are
//! counted per file; each file is listed with its count and the first change rustfmt wants.
//! The diff is source code: its words are not failures (the fact is content). A test that
//! runs rustfmt prints the same lines; there the test runner's facts stand and these give way.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug, Default)]
pub(crate) struct Rustfmt {
    /// The file of the place read last, and how many places it has so far.
    file: Option<String>,
    places_in_file: u64,
    places: u64,
    files: u64,
    /// Whether the lines read are the first place of their file (its changes are its detail).
    first_place: bool,
    failures: Failures,
}

impl Shape for Rustfmt {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(file) = place(text) {
            self.places += 1;
            if self.file.as_deref() == Some(file) {
                self.places_in_file += 1;
                self.first_place = false;
            } else {
                self.files += 1;
                self.file = Some(file.to_owned());
                self.places_in_file = 1;
                self.first_place = true;
                self.failures.push(number, file);
            }
            let (file, count) = (self.file.as_deref().unwrap_or(""), self.places_in_file);
            if let Some(failure) = self.failures.current() {
                failure.name = format!("{file}: {}", plural(count, "place", "places"));
            }
            return;
        }
        if self.first_place
            && (text.starts_with('-') || text.starts_with('+'))
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(text);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.places == 0 {
            return None;
        }
        let line = format!(
            "rustfmt: {} in {} not formatted",
            plural(self.places, "place", "places"),
            plural(self.files, "file", "files")
        );
        let json = json!({"shape": "rustfmt", "places": self.places, "files": self.files});
        let failures = self
            .failures
            .take_as("files to format, with the first change");
        Some(
            Fact::new("rustfmt", vec![line], json)
                .failures(failures)
                .content()
                .yields()
                .hint("'^Diff in ' -A 8"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.file.as_ref().map_or(0, String::capacity) + self.failures.approx_heap()
    }
}

/// Longer paths are not rustfmt's.
const PATH_BYTES: usize = 1024;

/// `Diff in /p/src/a.rs:3:` or `Diff in /p/src/a.rs at line 3:` → `/p/src/a.rs`.
fn place(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("Diff in ")?.strip_suffix(':')?;
    let (file, line) = rest
        .rsplit_once(" at line ")
        .or_else(|| rest.rsplit_once(':'))?;
    let numbered = !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit());
    (numbered && file.ends_with(".rs") && file.len() <= PATH_BYTES).then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_counted_per_file_with_the_first_change() {
        let text = "Diff in /p/src/a.rs:3:\n impl X {\n-    let a=1;\n+    let a = 1;\n\
                    Diff in /p/src/a.rs:14:\n-  b();\n+    b();\n\
                    Diff in /p/src/b.rs at line 7:\n-fn f(){}\n+fn f() {}\n";
        let mut shape = Box::<Rustfmt>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(fact.lines, ["rustfmt: 3 places in 2 files not formatted"]);
        let kept = &fact.failures[0].kept;
        assert_eq!(kept[0].name, "/p/src/a.rs: 2 places");
        assert_eq!(kept[0].detail, ["-    let a=1;", "+    let a = 1;"]);
        assert_eq!(kept[1].name, "/p/src/b.rs: 1 place");
        assert!(fact.content);
    }
}
