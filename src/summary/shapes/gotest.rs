//! `go test` output: package results (`ok`, `FAIL`, `?  … [no test files]`) and test results
//! (`--- FAIL: TestX (0.00s)`, subtests included, as `go test -json` counts them). Passed and
//! skipped tests are only printed with `-v`, so they are only counted then (`=== RUN` seen).
//!
//! A failing test's first detail is its first log line (`    x_test.go:47: got 1, want 2`),
//! printed before its `--- FAIL` line with `-v` (under the `=== RUN`/`=== CONT` line of the test
//! that ran) and after it without; a panic (`panic: runtime error: …`) is the detail of the test
//! that was failing when it happened, located at the frame that panicked (the one after the
//! last `panic(…)` frame of the trace).

use serde_json::json;

use super::names::{Failures, Names};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Tests whose first log line is remembered until they pass or fail (with `-v`).
const PENDING: usize = 256;

#[derive(Debug, Default)]
pub(crate) struct GoTest {
    verbose: bool,
    passed: u64,
    failed: u64,
    skipped: u64,
    failures: Failures,
    /// Top-level failing tests, and how many of their subtests failed.
    top: Vec<(String, u64)>,
    top_total: u64,
    packages_ok: u64,
    packages_failed: Names,
    packages_without_tests: u64,
    /// The test whose output follows (`=== RUN`, `=== CONT`, `=== NAME`).
    running: String,
    /// First log line of tests still running: (test, line number, text).
    pending: Vec<(String, u64, String)>,
    /// Indentation of the last `--- FAIL` line, while its log lines may follow.
    after_fail: Option<usize>,
    /// Where a panic's trace is: 1 after a `panic(` frame, 2 after its file line, 3 after the
    /// next function (whose file line is where it panicked).
    trace: u8,
}

impl Shape for GoTest {
    fn line(&mut self, number: u64, text: &str) {
        let bytes = text.as_bytes();
        if self.trace == 2 && !bytes.starts_with(b"\t") && !text.starts_with("panic(") {
            self.trace = 3;
        }
        match bytes.first() {
            Some(b' ' | b'-') => {
                let indent = text.len() - text.trim_start_matches(' ').len();
                let t = &text[indent..];
                if let Some(rest) = t.strip_prefix("--- ") {
                    self.result(number, indent, rest);
                } else if let Some(log) = log_line(t) {
                    self.log(number, indent, log);
                }
            }
            Some(b'=') => {
                if let Some(rest) = ["=== RUN ", "=== CONT ", "=== NAME "]
                    .iter()
                    .find_map(|p| text.strip_prefix(p))
                {
                    self.verbose |= text.starts_with("=== RUN ");
                    self.after_fail = None;
                    self.running.clear();
                    self.running.push_str(rest.trim());
                }
            }
            Some(b'o') if text.starts_with("ok  \t") => self.packages_ok += 1,
            Some(b'F') if text.starts_with("FAIL\t") => {
                let package = text[5..].split('\t').next().unwrap_or("");
                self.packages_failed.push(package);
            }
            Some(b'?') if text.starts_with("?   \t") && text.ends_with("\t[no test files]") => {
                self.packages_without_tests += 1
            }
            Some(b'p') => {
                if text.starts_with("panic: ") {
                    self.panic(number, text);
                } else if text.starts_with("panic(") {
                    self.trace = 1;
                }
            }
            Some(b'\t') => self.frame_file(text),
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let packages = self.packages_ok + self.packages_failed.total + self.packages_without_tests;
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
            " (go test: {} ok, {} failed",
            plural(self.packages_ok, "package", "packages"),
            thousands(self.packages_failed.total)
        ));
        if self.packages_without_tests > 0 {
            line.push_str(&format!(
                ", {} without test files",
                thousands(self.packages_without_tests)
            ));
        }
        line.push(')');
        let mut lines = vec![line];
        if !self.top.is_empty() {
            let shown: Vec<String> = self
                .top
                .iter()
                .map(|(name, subtests)| match subtests {
                    0 => name.clone(),
                    &n => format!("{name} ({})", plural(n, "subtest", "subtests")),
                })
                .collect();
            let mut top = format!("failed top-level tests: {}", shown.join(", "));
            let more = self.top_total - self.top.len() as u64;
            if more > 0 {
                top.push_str(&format!(" +{} more", thousands(more)));
            }
            lines.push(top);
        }
        if self.packages_failed.total > 0 {
            let shown = self.packages_failed.render(self.packages_failed.total);
            lines.push(format!("FAIL {}", shown.replace(", ", " · FAIL ")));
        }
        let json = json!({
            "shape": "go test",
            "verbose": self.verbose,
            "passed": self.verbose.then_some(self.passed),
            "failed": self.failed,
            "skipped": self.verbose.then_some(self.skipped),
            "failing": self.failures.names(super::names::NAMES_KEPT),
            "packages_ok": self.packages_ok,
            "packages_failed": self.packages_failed.total,
            "failed_packages": self.packages_failed.json(),
            "packages_without_tests": self.packages_without_tests,
        });
        let failing =
            self.failed > 0 || self.packages_failed.total > 0 || !self.failures.is_empty();
        let failures = self.failures.take_as("failed (sub)tests");
        Some(
            Fact::new("go test", lines, json)
                .failures(failures)
                .hint_if_failed(failing, "'^\\s*--- FAIL|^panic:|_test\\.go:\\d+:' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.packages_failed.approx_heap()
            + self
                .top
                .iter()
                .map(|(n, _)| n.capacity() + 32)
                .sum::<usize>()
            + self.running.capacity()
            + self
                .pending
                .iter()
                .map(|(n, _, d)| n.capacity() + d.capacity() + 56)
                .sum::<usize>()
    }
}

/// Top-level failing tests listed by name.
const TOP_SHOWN: usize = 8;

impl GoTest {
    /// `--- PASS: TestX (0.00s)`, `--- FAIL: …`, `--- SKIP: …` (after the `--- `).
    fn result(&mut self, number: u64, indent: usize, rest: &str) {
        let Some((status, rest)) = rest.split_once(": ") else {
            return;
        };
        let Some((name, _)) = rest.split_once(" (") else {
            return;
        };
        let pending = self.pending.iter().position(|(n, _, _)| n == name);
        let detail = pending.map(|i| self.pending.swap_remove(i));
        match status {
            "PASS" => self.passed += 1,
            "SKIP" => self.skipped += 1,
            "FAIL" => {
                self.failed += 1;
                self.after_fail = Some(indent);
                let top = name.split('/').next().unwrap_or(name);
                match self.top.iter_mut().find(|(n, _)| n == top) {
                    Some((_, subtests)) => *subtests += u64::from(name != top),
                    None => {
                        self.top_total += 1;
                        if self.top.len() < TOP_SHOWN {
                            self.top.push((top.to_owned(), u64::from(name != top)));
                        }
                    }
                }
                // A parent's `--- FAIL` comes before its subtests': the first failing subtest
                // takes the parent's place, unless the parent said something itself.
                if name != top
                    && let Some(parent) = self.failures.current()
                    && parent.name == top
                    && !parent.has_detail()
                {
                    parent.name = name.to_owned();
                    parent.line = number;
                    if let Some((_, line, text)) = detail {
                        parent.line = line;
                        parent.add_detail(&text);
                    }
                    return;
                }
                if let Some((_, line, text)) = detail {
                    self.failures.push(line, name);
                    if let Some(f) = self.failures.current() {
                        f.add_detail(&text);
                    }
                } else {
                    self.failures.push(number, name);
                }
            }
            _ => {}
        }
    }

    /// `x_test.go:47: got 1, want 2` (after the indentation): a test's log line.
    fn log(&mut self, number: u64, indent: usize, log: &str) {
        if let Some(fail_indent) = self.after_fail
            && indent > fail_indent
        {
            if let Some(f) = self.failures.current()
                && !f.has_detail()
            {
                f.line = number;
                f.add_detail(log);
            }
            return;
        }
        if self.running.is_empty()
            || self.pending.len() >= PENDING
            || self.pending.iter().any(|(n, _, _)| *n == self.running)
        {
            return;
        }
        self.pending
            .push((self.running.clone(), number, cut(log.trim(), 200)));
    }

    /// `panic: runtime error: …`: the detail of the test failing when it happened.
    fn panic(&mut self, number: u64, text: &str) {
        self.after_fail = None;
        if let Some(f) = self.failures.current() {
            let replace = !f.detail.iter().any(|d| d.starts_with("panic: "));
            if replace {
                f.detail.clear();
                f.line = number;
                f.add_detail(text);
            }
        }
    }

    /// A trace's file line (`\t/path/x.go:27 +0xc5`); the one after the last `panic(` frame's
    /// function is where the panic happened.
    fn frame_file(&mut self, text: &str) {
        match self.trace {
            1 => self.trace = 2,
            3 => {
                self.trace = 0;
                let at = text.trim().split(" +0x").next().unwrap_or("");
                if let Some(f) = self.failures.current()
                    && f.detail.first().is_some_and(|d| d.starts_with("panic: "))
                {
                    f.detail.truncate(1);
                    f.add_detail(&format!("at {at}"));
                }
            }
            _ => {}
        }
    }
}

/// `x_test.go:47: message` → the whole line, when it is a Go log line.
fn log_line(t: &str) -> Option<&str> {
    let (file, rest) = t.split_once(':')?;
    if !file.ends_with(".go") || file.contains(' ') {
        return None;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && rest[digits..].starts_with(": ")).then_some(t)
}
