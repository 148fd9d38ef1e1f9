//! `go test` output: package results (`ok`, `FAIL`, `?  … [no test files]`) and test results
//! (`--- FAIL: TestX (0.00s)`, subtests included, as `go test -json` counts them). Passed and
//! skipped tests are only printed with `-v`, so they are only counted then (`=== RUN` seen).

use serde_json::json;

use super::names::Names;
use crate::format::thousands;
use crate::summary::analysis::Fact;

#[derive(Debug, Default)]
pub(crate) struct GoTest {
    verbose: bool,
    passed: u64,
    failed: u64,
    skipped: u64,
    failing: Names,
    packages_ok: u64,
    packages_failed: u64,
    packages_without_tests: u64,
}

impl GoTest {
    pub(crate) fn line(&mut self, text: &str) {
        match text.as_bytes().first() {
            Some(b' ' | b'-') => {
                let Some(rest) = text.trim_start_matches(' ').strip_prefix("--- ") else {
                    return;
                };
                let Some((status, rest)) = rest.split_once(": ") else {
                    return;
                };
                let Some((name, _)) = rest.split_once(" (") else {
                    return;
                };
                match status {
                    "PASS" => self.passed += 1,
                    "FAIL" => {
                        self.failed += 1;
                        self.failing.push(name);
                    }
                    "SKIP" => self.skipped += 1,
                    _ => {}
                }
            }
            Some(b'=') => self.verbose |= text.starts_with("=== RUN "),
            Some(b'o') if text.starts_with("ok  \t") => self.packages_ok += 1,
            Some(b'F') if text.starts_with("FAIL\t") => self.packages_failed += 1,
            Some(b'?') if text.starts_with("?   \t") && text.ends_with("\t[no test files]") => {
                self.packages_without_tests += 1
            }
            _ => {}
        }
    }

    pub(crate) fn finish(self) -> Option<Fact> {
        let packages = self.packages_ok + self.packages_failed + self.packages_without_tests;
        if packages == 0 {
            return None;
        }
        let mut line = if self.verbose {
            format!(
                "tests: {} run, {} passed, {} failed, {} skipped",
                thousands(self.passed + self.failed),
                thousands(self.passed),
                thousands(self.failed),
                thousands(self.skipped)
            )
        } else {
            format!("tests: {} failed", thousands(self.failed))
        };
        line.push_str(&format!(
            " (go test: {} package{} ok, {} failed",
            thousands(self.packages_ok),
            if self.packages_ok == 1 { "" } else { "s" },
            thousands(self.packages_failed)
        ));
        if self.packages_without_tests > 0 {
            line.push_str(&format!(
                ", {} without test files",
                thousands(self.packages_without_tests)
            ));
        }
        line.push(')');
        if self.failed > 0 {
            line.push_str(&format!(": {}", self.failing.render(self.failed)));
        }
        Some(Fact {
            lines: vec![line],
            json: json!({
                "shape": "go test",
                "verbose": self.verbose,
                "passed": self.verbose.then_some(self.passed),
                "failed": self.failed,
                "skipped": self.verbose.then_some(self.skipped),
                "failing": self.failing.kept,
                "packages_ok": self.packages_ok,
                "packages_failed": self.packages_failed,
                "packages_without_tests": self.packages_without_tests,
            }),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.failing.approx_heap()
    }
}
