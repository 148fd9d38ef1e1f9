//! `cargo test` / libtest output: totals summed over every test binary's `test result:` line,
//! failing test names from `test NAME ... FAILED` (or `-q`'s `NAME --- FAILED`) lines, and test
//! binaries that stopped before their result line (a crash or abort), which get no invented
//! totals.

use serde_json::json;

use super::names::Names;
use crate::format::thousands;
use crate::summary::analysis::Fact;

#[derive(Debug, Default)]
pub(crate) struct Libtest {
    suites: u64,
    results: u64,
    passed: u64,
    failed: u64,
    ignored: u64,
    measured: u64,
    failing: Names,
    /// The binary currently running: tests it announced and `... ok` lines it printed.
    open: Option<(u64, u64)>,
    stopped: u64,
    first_stopped: Option<(u64, u64)>,
    overflowed: Option<String>,
}

impl Libtest {
    pub(crate) fn line(&mut self, text: &str) {
        if let Some(name) = text.strip_suffix(" --- FAILED")
            && !name.is_empty()
            && !name.contains(' ')
        {
            self.failing.push(name);
            return;
        }
        if !matches!(text.as_bytes().first(), Some(b'r' | b't')) {
            return;
        }
        if let Some(rest) = text.strip_prefix("running ") {
            if let Some(n) = rest
                .strip_suffix(" tests")
                .or_else(|| rest.strip_suffix(" test"))
                && let Ok(n) = n.parse::<u64>()
            {
                self.close_open();
                self.suites += 1;
                self.open = Some((n, 0));
            }
        } else if let Some(rest) = text.strip_prefix("test result: ") {
            self.result(rest);
        } else if let Some(rest) = text.strip_prefix("test ") {
            if let Some((name, outcome)) = rest.split_once(" ... ") {
                if outcome == "FAILED" {
                    self.failing.push(name);
                } else if outcome == "ok"
                    && let Some((_, ok)) = &mut self.open
                {
                    *ok += 1;
                }
            }
        } else if let Some(rest) = text.strip_prefix("thread '")
            && let Some((name, tail)) = rest.split_once('\'')
            && tail.ends_with(" has overflowed its stack")
            && self.overflowed.is_none()
        {
            self.overflowed = Some(name.to_owned());
        }
    }

    fn close_open(&mut self) {
        if let Some(open) = self.open.take() {
            self.stopped += 1;
            self.first_stopped.get_or_insert(open);
        }
    }

    /// `ok. 204 passed; 0 failed; 2 ignored; 0 measured; 0 filtered out; finished in 0.01s`
    fn result(&mut self, rest: &str) {
        let Some((_, counts)) = rest.split_once(". ") else {
            return;
        };
        let mut parsed = [None; 4];
        for part in counts.split("; ") {
            let Some((n, word)) = part.split_once(' ') else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            let slot = match word {
                "passed" => 0,
                "failed" => 1,
                "ignored" => 2,
                "measured" => 3,
                _ => continue,
            };
            parsed[slot] = Some(n);
        }
        let [Some(passed), Some(failed), ignored, measured] = parsed else {
            return;
        };
        self.passed += passed;
        self.failed += failed;
        self.ignored += ignored.unwrap_or(0);
        self.measured += measured.unwrap_or(0);
        self.results += 1;
        self.open = None;
    }

    pub(crate) fn finish(mut self) -> Option<Fact> {
        self.close_open();
        if self.suites == 0 && self.results == 0 {
            return None;
        }
        let mut lines = Vec::new();
        if self.results > 0 {
            let mut line = format!(
                "tests: {} run, {} passed, {} failed",
                thousands(self.passed + self.failed),
                thousands(self.passed),
                thousands(self.failed)
            );
            if self.ignored > 0 {
                line.push_str(&format!(", {} ignored", thousands(self.ignored)));
            }
            if self.measured > 0 {
                line.push_str(&format!(", {} measured", thousands(self.measured)));
            }
            let binaries = if self.results == 1 {
                "binary"
            } else {
                "binaries"
            };
            line.push_str(&format!(" ({} cargo test {binaries})", self.results));
            if self.failed > 0 && !self.failing.kept.is_empty() {
                line.push_str(&format!(": {}", self.failing.render(self.failed)));
            }
            lines.push(line);
        }
        if let Some((announced, ok)) = self.first_stopped {
            let mut line = if self.stopped == 1 {
                format!(
                    "tests: a test binary stopped before its result line (running {} tests",
                    thousands(announced)
                )
            } else {
                format!(
                    "tests: {} test binaries stopped before their result line (the first: running {} tests",
                    self.stopped,
                    thousands(announced)
                )
            };
            if ok > 0 {
                line.push_str(&format!(", {} reported ok", thousands(ok)));
            }
            line.push(')');
            if let Some(name) = &self.overflowed {
                line.push_str(&format!("; thread '{name}' overflowed its stack"));
            }
            lines.push(line);
        }
        Some(Fact {
            lines,
            json: json!({
                "shape": "cargo test",
                "binaries": self.results,
                "run": self.passed + self.failed,
                "passed": self.passed,
                "failed": self.failed,
                "ignored": self.ignored,
                "measured": self.measured,
                "failing": self.failing.kept,
                "stopped_binaries": self.stopped,
                "overflowed": self.overflowed,
            }),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.failing.approx_heap() + self.overflowed.as_ref().map_or(0, String::capacity)
    }
}
