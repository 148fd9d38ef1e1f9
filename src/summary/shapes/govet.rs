//! `go vet` and `go build` problems: a `# package` line, then `file.go:line:col: message` lines.
//! Counted per package; the first problem of each package is listed.

use super::diagnostics::{Diagnostics, Level, location};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug, Default)]
pub(crate) struct GoVet {
    diagnostics: Diagnostics,
    package: Option<String>,
    /// Packages with problems, and whether the current one is counted.
    packages: u64,
    counted: bool,
}

impl Shape for GoVet {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(package) = text.strip_prefix("# ") {
            let valid = !package.is_empty() && !package.contains(' ');
            self.package = valid.then(|| package.to_owned());
            self.counted = false;
            return;
        }
        let Some(package) = &self.package else {
            return;
        };
        let Some(location) = go_location(text) else {
            // A problem's own continuation (`\tfoo`) or the end of the package's problems.
            if !text.starts_with('\t') {
                self.package = None;
            }
            return;
        };
        let message = text[location.len() + 1..].trim_start();
        if !self.counted {
            self.counted = true;
            self.packages += 1;
        }
        let package = package.clone();
        let header = format!("{location}: {message}");
        self.diagnostics
            .add(number, Level::Error, None, &header, Some(&package));
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors == 0 {
            return None;
        }
        let line = format!(
            "go: {} in {}",
            plural(d.errors, "problem", "problems"),
            plural(self.packages, "package", "packages")
        );
        let mut failures = d.failures(|_| 0);
        failures.heading = "first problem of each package";
        Some(
            Fact::new("go vet", vec![line], d.json("go vet"))
                .failures(failures)
                .hint("'^# |\\.go:[0-9]+:[0-9]+: ' -A 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.package.as_ref().map_or(0, String::capacity)
    }
}

/// `cmp/compare.go:214:9: …` → `cmp/compare.go:214:9`.
fn go_location(text: &str) -> Option<&str> {
    location(text, |file| file.ends_with(".go"))
        .filter(|(_, rest)| rest.starts_with(' '))
        .map(|(at, _)| at)
}
