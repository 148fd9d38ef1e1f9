//! jest output: the `Tests:` and `Test Suites:` summary lines, failing tests (`FAIL file` then
//! `  ● describe › test`, named `file › describe › test`) and suites that failed to run.

use serde_json::json;

use super::names::{Names, js_test_counts};
use crate::format::thousands;
use crate::summary::analysis::Fact;

#[derive(Debug, Default)]
pub(crate) struct Jest {
    /// passed, failed, skipped, todo, total
    tests: Option<[u64; 5]>,
    /// passed, failed, total
    suites: Option<[u64; 3]>,
    current_file: Option<String>,
    /// Jest repeats the failures after `Summary of all failing tests`: names are taken before.
    repeated: bool,
    failing: Names,
    not_run: Names,
}

impl Jest {
    pub(crate) fn line(&mut self, text: &str) {
        match text.as_bytes().first() {
            Some(b'F') => {
                if let Some(file) = text.strip_prefix("FAIL ") {
                    let file = file.split(" (").next().unwrap_or(file).trim();
                    self.current_file = Some(file.to_owned());
                }
            }
            Some(b'P') if text.starts_with("PASS ") => self.current_file = None,
            Some(b' ') => {
                if let Some(name) = text.strip_prefix("  ● ")
                    && !self.repeated
                    && let Some(file) = &self.current_file
                {
                    if name == "Test suite failed to run" {
                        self.not_run.push(file);
                    } else {
                        self.failing.push(&format!("{file} › {name}"));
                    }
                }
            }
            Some(b'T') => {
                if let Some(rest) = text.strip_prefix("Tests:") {
                    self.tests =
                        parse_counts(rest, &["passed", "failed", "skipped", "todo", "total"]).map(
                            |c| {
                                let mut out = [0; 5];
                                out.copy_from_slice(&c);
                                out
                            },
                        );
                    self.current_file = None;
                } else if let Some(rest) = text.strip_prefix("Test Suites:") {
                    self.suites = parse_counts(rest, &["passed", "failed", "total"])
                        .map(|c| [c[0], c[1], c[2]]);
                }
            }
            Some(b'S') if text.starts_with("Summary of all failing tests") => self.repeated = true,
            _ => {}
        }
    }

    pub(crate) fn finish(self) -> Option<Fact> {
        let [passed, failed, skipped, todo, total] = self.tests?;
        let mut line = js_test_counts(passed, failed, skipped, todo, total);
        line.push_str(" (jest");
        if let Some([_, suites_failed, suites_total]) = self.suites {
            line.push_str(&format!(
                ", suites: {} failed of {}",
                thousands(suites_failed),
                thousands(suites_total)
            ));
        }
        line.push(')');
        if failed > 0 && !self.failing.kept.is_empty() {
            line.push_str(&format!(": {}", self.failing.render(failed)));
        }
        if self.not_run.total > 0 {
            let s = if self.not_run.total == 1 { "" } else { "s" };
            line.push_str(&format!(
                "; {} suite{s} failed to run: {}",
                thousands(self.not_run.total),
                self.not_run.render(self.not_run.total)
            ));
        }
        Some(Fact {
            lines: vec![line],
            json: json!({
                "shape": "jest",
                "run": passed + failed,
                "passed": passed,
                "failed": failed,
                "skipped": skipped,
                "todo": todo,
                "total": total,
                "suites_failed": self.suites.map(|s| s[1]),
                "suites_total": self.suites.map(|s| s[2]),
                "failing": self.failing.kept,
                "suites_not_run": self.not_run.kept,
            }),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.failing.approx_heap()
            + self.not_run.approx_heap()
            + self.current_file.as_ref().map_or(0, String::capacity)
    }
}

/// `3 failed, 1 skipped, 35 passed, 39 total` (jest) or `4 failed | 35 passed (41)` (vitest,
/// with the total in parentheses): the counts of `words`, 0 for those absent; `None` unless
/// every part is a known count.
pub(crate) fn parse_counts(text: &str, words: &[&str]) -> Option<Vec<u64>> {
    let mut counts = vec![0; words.len()];
    let mut any = false;
    for part in text.split([',', '|']) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let (n, word) = part.split_once(' ')?;
        let slot = words.iter().position(|w| *w == word)?;
        counts[slot] = n.parse().ok()?;
        any = true;
    }
    any.then_some(counts)
}
