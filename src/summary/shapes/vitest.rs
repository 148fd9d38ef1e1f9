//! vitest output: the `Test Files` and `Tests` summary lines, and failing tests and suites
//! from the ` FAIL  file > describe > test` lines of the `Failed Tests` / `Failed Suites`
//! sections.

use serde_json::json;

use super::jest::parse_counts;
use super::names::{Names, js_test_counts};
use crate::format::thousands;
use crate::summary::analysis::Fact;

#[derive(Debug, Default, PartialEq)]
enum Section {
    #[default]
    Other,
    FailedTests,
    FailedSuites,
}

#[derive(Debug, Default)]
pub(crate) struct Vitest {
    /// failed, passed, skipped, todo, total
    tests: Option<Vec<u64>>,
    /// failed, passed, total
    files: Option<Vec<u64>>,
    section: Section,
    failing: Names,
    failed_suites: Names,
}

impl Vitest {
    pub(crate) fn line(&mut self, text: &str) {
        let trimmed = text.trim_start_matches(' ');
        match trimmed.as_bytes().first() {
            Some(0xe2) if trimmed.starts_with('⎯') => {
                if trimmed.contains(" Failed Tests ") {
                    self.section = Section::FailedTests;
                } else if trimmed.contains(" Failed Suites ") {
                    self.section = Section::FailedSuites;
                }
            }
            Some(b'F') => {
                if let Some(name) = trimmed.strip_prefix("FAIL  ") {
                    match self.section {
                        Section::FailedTests => self.failing.push(name),
                        Section::FailedSuites => self.failed_suites.push(name),
                        Section::Other => {}
                    }
                }
            }
            Some(b'T') => {
                if let Some(rest) = trimmed.strip_prefix("Test Files  ") {
                    self.files = counts_with_total(rest, &["failed", "passed"]);
                    self.section = Section::Other;
                } else if let Some(rest) = trimmed.strip_prefix("Tests  ") {
                    self.tests = counts_with_total(rest, &["failed", "passed", "skipped", "todo"]);
                    self.section = Section::Other;
                }
            }
            _ => {}
        }
    }

    pub(crate) fn finish(self) -> Option<Fact> {
        let tests = self.tests?;
        let (failed, passed, skipped, todo, total) =
            (tests[0], tests[1], tests[2], tests[3], tests[4]);
        let mut line = js_test_counts(passed, failed, skipped, todo, total);
        line.push_str(" (vitest");
        if let Some(files) = &self.files {
            line.push_str(&format!(
                ", test files: {} failed of {}",
                thousands(files[0]),
                thousands(files[2])
            ));
        }
        line.push(')');
        if failed > 0 && !self.failing.kept.is_empty() {
            line.push_str(&format!(": {}", self.failing.render(failed)));
        }
        if self.failed_suites.total > 0 {
            line.push_str(&format!(
                "; failed suites: {}",
                self.failed_suites.render(self.failed_suites.total)
            ));
        }
        Some(Fact {
            lines: vec![line],
            json: json!({
                "shape": "vitest",
                "run": passed + failed,
                "passed": passed,
                "failed": failed,
                "skipped": skipped,
                "todo": todo,
                "total": total,
                "files_failed": self.files.as_ref().map(|f| f[0]),
                "files_total": self.files.as_ref().map(|f| f[2]),
                "failing": self.failing.kept,
                "failed_suites": self.failed_suites.kept,
            }),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.failing.approx_heap() + self.failed_suites.approx_heap() + 2 * 5 * 8
    }
}

/// `4 failed | 35 passed | 1 skipped (41)` → counts of `words`, then the total.
fn counts_with_total(text: &str, words: &[&str]) -> Option<Vec<u64>> {
    let (counts, total) = text.trim_end().rsplit_once(" (")?;
    let total: u64 = total.strip_suffix(')')?.parse().ok()?;
    let mut counts = parse_counts(counts, words)?;
    counts.push(total);
    Some(counts)
}
