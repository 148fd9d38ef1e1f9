//! vitest output: the `Test Files` and `Tests` summary lines, failing tests and suites from
//! the ` FAIL  file > describe > test` lines of the `Failed Tests` / `Failed Suites` sections,
//! each with its first detail (the error line, `Expected:`/`Received:`, where), and the files
//! they are in. A suite that failed to load (`FAIL  file [ file ]`, `Error: Cannot find
//! package …`) comes first: none of its tests ran.

use serde_json::json;

use super::jest::{JsDetail, SNAPSHOT_COUNTS, parse_counts};
use super::names::{Failure, Failures, Names, js_test_counts};
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug, Default, PartialEq)]
enum Section {
    #[default]
    Other,
    FailedTests,
    FailedSuites,
    /// Between `⎯ Unhandled Errors ⎯` and the totals: errors raised outside any test.
    Unhandled,
}

#[derive(Debug, Default)]
pub(crate) struct Vitest {
    /// failed, passed, skipped, todo, total
    tests: Option<Vec<u64>>,
    /// failed, passed, total
    files: Option<Vec<u64>>,
    /// `Snapshots  12 failed`
    snapshots_failed: Option<u64>,
    /// `Type Errors  5 failed` (`--typecheck`): its type errors, which it also reports as
    /// failed tests.
    type_errors: Option<u64>,
    /// `Errors  2 errors`: errors raised outside tests (`Vitest caught 2 unhandled errors`).
    errors: Option<u64>,
    section: Section,
    failures: Failures,
    failed_suites: Failures,
    /// Each unhandled error under its heading (`⎯ Unhandled Rejection ⎯`).
    unhandled: Failures,
    /// Files with failing tests, in report order.
    failed_files: Names,
    detail: Option<JsDetail>,
    /// The last line was a ` FAIL ` line of a failed test.
    after_fail: bool,
    /// Failed tests listed before the last with no report between: vitest prints one report
    /// under the FAIL lines of the tests that failed alike, which is each one's.
    alike: usize,
}

impl Shape for Vitest {
    fn line(&mut self, number: u64, text: &str) {
        let after_fail = std::mem::take(&mut self.after_fail);
        if let Some(reader) = &mut self.detail {
            let list = match self.section {
                Section::FailedSuites => &mut self.failed_suites,
                Section::Unhandled => &mut self.unhandled,
                _ => &mut self.failures,
            };
            if let Some(failure) = list.current()
                && reader.line(failure, number, text)
            {
                return;
            }
            self.detail = None;
        }
        let trimmed = text.trim_start_matches(' ');
        match trimmed.as_bytes().first() {
            Some(0xe2) if trimmed.starts_with('⎯') => {
                self.share_detail();
                if trimmed.contains(" Failed Tests ") {
                    self.section = Section::FailedTests;
                } else if trimmed.contains(" Failed Suites ") {
                    self.section = Section::FailedSuites;
                } else if trimmed.contains(" Unhandled Errors ") {
                    self.section = Section::Unhandled;
                } else if self.section == Section::Unhandled
                    && let Some(heading) =
                        trimmed.trim_matches('⎯').trim().strip_prefix("Unhandled ")
                {
                    // `⎯⎯ Unhandled Rejection ⎯⎯`, then the error and its stack.
                    self.unhandled.push(number, &format!("Unhandled {heading}"));
                    self.detail = Some(JsDetail::default());
                }
            }
            Some(b'F') => {
                if let Some(name) = trimmed.strip_prefix("FAIL  ").map(without_project) {
                    match self.section {
                        Section::FailedTests => {
                            self.after_fail = true;
                            let bare = self.failures.current().is_some_and(|f| !f.has_detail());
                            if after_fail && bare {
                                self.alike += 1;
                            } else {
                                self.share_detail();
                            }
                            let file = name.split(" > ").next().unwrap_or(name);
                            if !self.failed_files.contains(file) {
                                self.failed_files.push(file);
                            }
                            // Named as its line says it, `src/a.test.ts > describe > test`:
                            // what `-t` and a search of the output take.
                            self.failures.push(number, name);
                            self.detail = Some(JsDetail::default());
                        }
                        Section::FailedSuites => {
                            // `src/a/test.ts [ src/a/test.ts ]`
                            let suite = name.split(" [ ").next().unwrap_or(name);
                            self.failed_suites.push(number, suite);
                            self.detail = Some(JsDetail::default());
                        }
                        Section::Other | Section::Unhandled => {}
                    }
                }
            }
            Some(b'S') => {
                if let Some(rest) = trimmed.strip_prefix("Snapshots  ") {
                    self.snapshots_failed = parse_counts(rest, &SNAPSHOT_COUNTS).map(|c| c[0]);
                }
            }
            Some(b'T') => {
                if let Some(rest) = trimmed.strip_prefix("Test Files  ") {
                    self.files = counts_with_total(rest, &["failed", "passed"]);
                    self.section = Section::Other;
                } else if let Some(rest) = trimmed.strip_prefix("Tests  ") {
                    self.tests = counts_with_total(rest, &["failed", "passed", "skipped", "todo"]);
                    self.section = Section::Other;
                } else if let Some(rest) = trimmed.strip_prefix("Type Errors  ") {
                    self.type_errors = rest
                        .trim()
                        .strip_suffix(" failed")
                        .and_then(|n| n.parse().ok());
                }
            }
            Some(b'E') => {
                if let Some(rest) = trimmed.strip_prefix("Errors  ") {
                    self.errors = rest
                        .trim()
                        .strip_suffix(" errors")
                        .or_else(|| rest.trim().strip_suffix(" error"))
                        .and_then(|n| n.parse().ok());
                    self.section = Section::Other;
                }
            }
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.share_detail();
        let tests = self.tests.take()?;
        let (failed, passed, skipped, todo, total) =
            (tests[0], tests[1], tests[2], tests[3], tests[4]);
        let mut line = js_test_counts(passed, failed, skipped, todo, total);
        line.push_str(" (vitest");
        if let Some(files) = &self.files {
            line.push_str(&format!(
                // In vitest's own words (`Test Files  3 failed (3)`).
                ", Test Files {} failed of {}",
                thousands(files[0]),
                thousands(files[2])
            ));
        }
        if let Some(failed) = self.snapshots_failed.filter(|&n| n > 0) {
            line.push_str(&format!(", Snapshots {} failed", thousands(failed)));
        }
        if let Some(failed) = self.type_errors {
            line.push_str(&format!(", Type Errors {} failed", thousands(failed)));
        }
        if let Some(errors) = self.errors.filter(|&n| n > 0) {
            line.push_str(&format!(
                ", {}",
                plural(errors, "unhandled error", "unhandled errors")
            ));
        }
        line.push(')');
        let mut lines = vec![line];
        if self.failed_files.total > 0 {
            let mut files = format!(
                "files with failed tests ({}): {}",
                thousands(self.failed_files.total),
                self.failed_files.render(self.failed_files.total)
            );
            if self.failed_suites.total > 0 {
                files.push_str(&format!(
                    "; failed to load ({}): {}",
                    thousands(self.failed_suites.total),
                    self.failed_suites
                        .iter()
                        .map(|f| f.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            lines.push(files);
        }
        let json = json!({
            "shape": "vitest",
            "run": passed + failed,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
            "todo": todo,
            "total": total,
            "files_failed": self.files.as_ref().map(|f| f[0]),
            "files_total": self.files.as_ref().map(|f| f[2]),
            "snapshots_failed": self.snapshots_failed,
            "type_errors": self.type_errors,
            "unhandled_errors": self.errors,
            "failed_files": self.failed_files.json(),
            "failing": self.failures.names(super::names::NAMES_KEPT),
            "failed_suites": self.failed_suites.names(usize::MAX),
        });
        let failing = failed > 0 || !self.failed_suites.is_empty() || !self.failures.is_empty();
        let suites = self.failed_suites.take_as("suites that failed to load");
        let failures = self.failures.take_as("failed tests");
        let unhandled = self.unhandled.take_as("unhandled errors");
        Some(
            Fact::new("vitest", lines, json)
                .failures(suites)
                .failures(failures)
                .failures(unhandled)
                .hint_if_failed(failing, "'^ FAIL |Error|Expected|Received' -A 2")
                // Its own terminal report reads better than its `--reporter=json` one.
                .supersedes(&["jest json"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.failed_suites.approx_heap()
            + self.unhandled.approx_heap()
            + self.failed_files.approx_heap()
            + 2 * 5 * 8
    }
}

impl Vitest {
    /// The report under a run of FAIL lines is each one's: the tests listed before the last
    /// take its detail.
    fn share_detail(&mut self) {
        let alike = std::mem::take(&mut self.alike);
        if alike == 0 {
            return;
        }
        let Some(detail) = self.failures.current().map(|f| f.detail.clone()) else {
            return;
        };
        let mut kept: Vec<&mut Failure> = self.failures.iter_mut().collect();
        let last = kept.len().saturating_sub(1);
        for f in &mut kept[last.saturating_sub(alike)..last] {
            if !f.has_detail() {
                f.detail.clone_from(&detail);
            }
        }
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

/// A `FAIL` line's name without the workspace project it is of: ` es-toolkit  src/a.test.ts`
/// (the project's badge, its colours gone) or `|es-toolkit| src/a.test.ts`.
fn without_project(name: &str) -> &str {
    if let Some(rest) = name.strip_prefix('|')
        && let Some((_, after)) = rest.split_once("| ")
    {
        return after.trim_start();
    }
    match name.strip_prefix(' ').and_then(|r| r.split_once("  ")) {
        Some((project, after)) if !project.is_empty() && !project.contains(' ') => {
            after.trim_start()
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fail_line_s_project_is_left_out() {
        assert_eq!(
            without_project(" es-toolkit  src/a.spec.ts > a > b"),
            "src/a.spec.ts > a > b"
        );
        assert_eq!(
            without_project("|web| src/a.spec.ts > b"),
            "src/a.spec.ts > b"
        );
        assert_eq!(without_project("src/a.spec.ts > b"), "src/a.spec.ts > b");
        // A leading space with no project after it is not one.
        assert_eq!(without_project(" src/a.spec.ts > b"), " src/a.spec.ts > b");
    }
}
