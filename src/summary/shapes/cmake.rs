//! CMake's configure and generate steps: `CMake Error at CMakeLists.txt:667 (file):` (or
//! `CMake Error: …` with no place, `CMake Warning at …`, `CMake Warning (dev) at …`, `CMake
//! Deprecation Warning at …`), its message indented under it, and CMake's verdict (`--
//! Configuring incomplete, errors occurred!`, `CMake Generate step failed.  Build files cannot
//! be regenerated correctly.`, `-- Configuring done`, `-- Generating done`). Errors and
//! warnings are counted; each error is listed with its place, its command and its message.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural};

/// Lines of a message kept, and how long each may be.
const MESSAGE_LINES: usize = 3;
const KEPT_CHARS: usize = 200;

#[derive(Debug, Default)]
pub(crate) struct Cmake {
    errors: u64,
    warnings: u64,
    failures: Failures,
    /// Reading the message under an error: its lines kept so far.
    in_error: Option<usize>,
    /// CMake's last verdict, as printed.
    verdict: Option<String>,
}

impl Shape for Cmake {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("CMake ") {
            self.in_error = None;
            if let Some(place) = rest.strip_prefix("Error at ") {
                self.errors += 1;
                self.failures.push(number, place.trim_end_matches(':'));
                self.in_error = Some(0);
            } else if let Some(message) = rest.strip_prefix("Error: ") {
                self.errors += 1;
                self.failures.push(number, "CMake Error");
                if let Some(f) = self.failures.current() {
                    f.add_detail(&cut(message, KEPT_CHARS));
                }
            } else if rest.starts_with("Warning")
                || rest.starts_with("Deprecation Warning")
                || rest.starts_with("Warning (dev)")
            {
                self.warnings += 1;
            } else if rest.starts_with("Generate step failed.") {
                self.verdict = Some(text.trim_end().to_owned());
            }
            return;
        }
        if let Some(verdict) = text.strip_prefix("-- ") {
            if matches!(
                verdict.trim_end(),
                "Configuring incomplete, errors occurred!" | "Configuring done" | "Generating done"
            ) || verdict.starts_with("Configuring done (")
                || verdict.starts_with("Generating done (")
            {
                self.verdict = Some(text.trim_end().to_owned());
            }
            self.in_error = None;
            return;
        }
        if let Some(kept) = &mut self.in_error {
            let t = text.trim();
            if t.is_empty() {
                return;
            }
            if !text.starts_with(' ') {
                self.in_error = None;
                return;
            }
            if *kept < MESSAGE_LINES
                && let Some(f) = self.failures.current()
            {
                f.add_detail(&cut(t, KEPT_CHARS));
                *kept += 1;
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.errors + self.warnings == 0 {
            return None;
        }
        let mut line = format!(
            "cmake: {}, {}",
            plural(self.errors, "error", "errors"),
            plural(self.warnings, "warning", "warnings")
        );
        if let Some(verdict) = &self.verdict {
            line.push_str(&format!("; {verdict}"));
        }
        let json = json!({
            "shape": "cmake",
            "errors": self.errors,
            "warnings": self.warnings,
            "verdict": self.verdict,
        });
        Some(
            Fact::new("cmake", vec![line], json)
                .failures(self.failures.take_as("CMake errors"))
                .hint_if_failed(self.errors > 0, "'^CMake Error' -A 4"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.verdict.as_ref().map_or(0, String::capacity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_with_their_place_and_message() {
        let text = "-- The C compiler identification is GNU 12.2.0\n\
                    CMake Warning (dev) at CMakeLists.txt:3 (project):\n  Policy CMP0048 is not set.\n\n\
                    CMake Error at CMakeLists.txt:391 (add_library):\n  Cannot find source file:\n\n\
                    \x20   src/unix/procfs-exe-path.c\n\n  Tried extensions .c .C\n  .hh .h++\n\n\n\
                    CMake Error: File /x/libuv.pc.in does not exist.\n\
                    -- Configuring incomplete, errors occurred!\n";
        let mut shape = Box::<Cmake>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines,
            ["cmake: 2 errors, 1 warning; -- Configuring incomplete, errors occurred!"]
        );
        let kept = &fact.failures[0].kept;
        assert_eq!(kept[0].name, "CMakeLists.txt:391 (add_library)");
        assert_eq!(
            kept[0].detail,
            [
                "Cannot find source file:",
                "src/unix/procfs-exe-path.c",
                "Tried extensions .c .C"
            ]
        );
        assert_eq!(kept[1].name, "CMake Error");
        assert_eq!(kept[1].detail, ["File /x/libuv.pc.in does not exist."]);
    }
}
