//! rustc / cargo / clippy diagnostics: `error[E0308]: …` and `warning: …` headers, located by
//! the ` --> file:line:col` line that follows; Astral's ty prints its diagnostics so, with
//! rules named in words (`error[missing-attribute]: …`). Recognised only when at least one
//! header has such a location. Cargo's own summary lines (`warning: `x` (lib) generated 4
//! warnings`, `error: could not compile …`, `error: test failed, to rerun pass …`) and rustc's
//! `aborting due to …` / `N warnings emitted` are not diagnostics and are not counted.
//!
//! `cargo … --message-format=json` prints the same diagnostics as JSON Lines: each
//! `compiler-message` record is counted like its text form, located by its primary span. A
//! record that does not parse (a line cut by the capture) makes the counts unsure: no fact then.

use serde_json::Value;

use super::diagnostics::{Diagnostics, Level, Tally};
use super::names::{Failures, Names};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug, Default)]
pub(crate) struct Rustc {
    diagnostics: Diagnostics,
    located: bool,
    /// The diagnostic being read, added when its block ends.
    pending: Option<Pending>,
    header: String,
    /// The clippy lints of the warnings, by the docs link each one's block ends with.
    lints: Tally,
    unsure: bool,
    /// Records of `--message-format=json` were read: the read-more hint searches JSON.
    json: bool,
    /// The targets cargo could not compile, with their error counts (`` `itertools` (test
    /// "quick"): 18 ``) and cargo's line for each (`error: could not compile …`).
    failed_targets: Names,
    /// Cargo's warning total of each target, its name (`` `byteorder` (lib) ``) and line
    /// (`` warning: `byteorder` (lib) generated 9 warnings ``), the first `WARNED_KEPT`.
    warned_targets: Vec<(String, String)>,
    /// More targets' warning totals than were kept.
    warned_more: bool,
    /// Build scripts that failed, with what their output says.
    build_scripts: Failures,
    /// Reading the indented report under a build script's failure: the panic's message lines
    /// still to read.
    in_build_script: Option<u8>,
    /// Rules named in words (`error[missing-attribute]`): Astral's ty, whose warnings carry
    /// their rule too.
    named_rules: bool,
}

/// A diagnostic whose block is being read: its header's line, level and error code (`E0308`),
/// its location (on the line after the header) and the clippy lint its docs link names. It is
/// added when the block ends: at a blank line, the next header or the end.
#[derive(Debug)]
struct Pending {
    line: u64,
    level: Level,
    code: Option<String>,
    location: Option<String>,
    /// The header was the line before: the location may follow.
    fresh: bool,
    lint: Option<String>,
}

/// The docs link clippy prints under each of its lints (`…/index.html#redundant_static_lifetimes`).
const CLIPPY_DOCS: &str = "for further information visit https://rust-lang.github.io/rust-clippy/";

/// Cargo's warning totals quoted as its lines (more are counted).
const WARNED_QUOTED: usize = 4;
/// Cargo's warning totals kept while reading.
const WARNED_KEPT: usize = 64;

/// Lines of a build script's panic message read.
const PANIC_LINES: u8 = 2;

impl Shape for Rustc {
    fn line(&mut self, number: u64, text: &str) {
        if self.in_build_script.is_some() {
            // Cargo's own `note: …` and `Caused by:` come before the script's report.
            if text.starts_with(' ')
                || text.is_empty()
                || text.starts_with("note: ")
                || text == "Caused by:"
            {
                self.build_script_line(text.trim());
                return;
            }
            self.in_build_script = None;
        }
        if let Some(pending) = &mut self.pending {
            let fresh = std::mem::take(&mut pending.fresh);
            if let Some(location) = text.trim_start_matches(' ').strip_prefix("--> ")
                && fresh
            {
                pending.location = Some(location.to_owned());
                return;
            }
            if let Some((_, lint)) = text
                .split_once(CLIPPY_DOCS)
                .and_then(|(_, link)| link.rsplit_once('#'))
            {
                pending.lint = Some(format!("clippy::{}", lint.trim_end()));
                return;
            }
            if text.is_empty() || text.starts_with("error") || text.starts_with("warning") {
                self.add_pending();
            }
        }
        if text.starts_with(r#"{"reason":"compiler-message""#) {
            self.json_message(number, text);
            return;
        }
        let bytes = text.as_bytes();
        if !matches!(bytes.first(), Some(b'e' | b'w')) {
            return;
        }
        let (level, rest) = if let Some(rest) = text.strip_prefix("error") {
            (Level::Error, rest)
        } else if let Some(rest) = text.strip_prefix("warning") {
            (Level::Warning, rest)
        } else {
            return;
        };
        let (code, message) = if let Some(rest) = rest.strip_prefix('[') {
            let Some((code, message)) = rest.split_once("]: ") else {
                return;
            };
            (Some(code), message)
        } else if let Some(message) = rest.strip_prefix(": ") {
            (None, message)
        } else {
            return;
        };
        if level == Level::Error
            && let Some(script) = message.strip_prefix("failed to run custom build command for ")
        {
            self.build_scripts
                .push_said(number, script.trim_matches('`'), text.trim_end());
            self.in_build_script = Some(0);
            return;
        }
        if is_summary(level, message) {
            if let Some(target) = failed_target(message) {
                self.failed_targets.push_said(&target, text.trim_end());
            } else if let Some(target) = warned_target(message) {
                if self.warned_targets.len() < WARNED_KEPT {
                    let said = crate::format::cut(text.trim_end(), 300);
                    self.warned_targets.push((target.to_owned(), said));
                } else {
                    self.warned_more = true;
                }
            }
            return;
        }
        self.header.clear();
        self.header.push_str(text);
        // Only error codes are tallied (rustc's warnings carry lint names in their notes
        // instead); ty's rules, named in words, are tallied at every level.
        let named = code.is_some_and(|c| c.contains('-'));
        self.named_rules |= named;
        let code = code
            .filter(|_| level == Level::Error || named)
            .map(str::to_owned);
        self.pending = Some(Pending {
            line: number,
            level,
            code,
            location: None,
            fresh: true,
            lint: None,
        });
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.add_pending();
        let scripts = self.build_scripts.take_as("build scripts that failed");
        if !self.located && !scripts.is_empty() && !self.unsure {
            let line = format!(
                "cargo: {} failed",
                plural(scripts.total, "build script", "build scripts")
            );
            let json = serde_json::json!({"shape": "rustc", "build_scripts_failed": scripts.total});
            return Some(
                Fact::new("rustc", vec![line], json)
                    .failures(scripts)
                    .hint("'failed to run custom build command|panicked at|error:' -A 2"),
            );
        }
        if !self.located || self.unsure {
            return None;
        }
        let d = &self.diagnostics;
        // A JSON record is one long line: the error records themselves, not lines around them.
        let hint = if self.json {
            "'\"level\":\"error\"'"
        } else if self.named_rules {
            "'^(error|warning)\\[[a-z0-9-]+\\]:' -A 6"
        } else {
            "'^(error|warning)(\\[E[0-9]+\\])?:' -A 6"
        };
        let tool = if self.named_rules { "ty" } else { "rustc" };
        let mut lines = vec![d.summary(tool, "files")];
        if let Some(lints) = self.lints.render() {
            lines.push(format!("warnings by clippy lint: {lints}"));
        }
        // Of a build of several targets, which failed (of one, the counts say it).
        // Cargo's lines quoted while they are few, as a reader searches for them.
        let failed = &self.failed_targets;
        let mut json = d.json("rustc");
        json["clippy_warnings"] = self.lints.json();
        let mut quoted = Vec::new();
        if failed.total > 1 {
            match failed.said_lines() {
                Some(said) => quoted = said.to_vec(),
                None => lines.push(format!(
                    "could not compile ({}): {}",
                    failed.total,
                    failed.render(failed.total)
                )),
            }
        }
        // Cargo's warning totals by target, which the counts above (of the diagnostics
        // printed, each once) do not repeat, quoted while few; a target that failed says its
        // count in its `could not compile` line.
        let warned: Vec<&String> = self
            .warned_targets
            .iter()
            .filter(|(target, _)| {
                !failed.kept.iter().any(|f| {
                    f.strip_prefix(target.as_str())
                        .is_some_and(|r| r.starts_with(':'))
                })
            })
            .map(|(_, said)| said)
            .collect();
        if warned.len() <= WARNED_QUOTED && !self.warned_more {
            quoted.extend(warned.into_iter().cloned());
        } else {
            lines.push(format!(
                "cargo's `generated N warnings` lines: {}{}",
                if self.warned_more { "over " } else { "" },
                plural(warned.len() as u64, "target", "targets")
            ));
        }
        Some(
            Fact::new("rustc", lines, json)
                .quoting(quoted)
                .failures(scripts)
                .failures(d.failures(|_| 0))
                .hint(hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.header.capacity()
            + self.failed_targets.approx_heap()
            + self
                .warned_targets
                .iter()
                .map(|(t, s)| t.capacity() + s.capacity())
                .sum::<usize>()
            + self.build_scripts.approx_heap()
            + self.lints.approx_heap()
            + 64
    }
}

impl Rustc {
    /// Adds the diagnostic being read, keyed by its error code or else its clippy lint (the
    /// first of each lint is worth reading; their counts are the run's to-do list).
    fn add_pending(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        self.located |= p.location.is_some();
        self.count_lint(p.level, p.lint.as_deref());
        let code = p.code.or(p.lint);
        self.diagnostics.add(
            p.line,
            p.level,
            p.location.as_deref(),
            &self.header,
            code.as_deref(),
        );
    }

    /// Counts a warning by its clippy lint (`clippy::eq_op`), when it has one.
    fn count_lint(&mut self, level: Level, lint: Option<&str>) {
        if level == Level::Warning
            && let Some(lint) = lint
        {
            self.lints.add(lint.trim_start_matches("clippy::"));
        }
    }

    /// A line of the report under a build script's failure (trimmed): its exit status, where
    /// it panicked and the message's first lines, and the errors it printed.
    fn build_script_line(&mut self, t: &str) {
        let Some(failure) = self.build_scripts.current() else {
            return;
        };
        let panic_lines = self.in_build_script.get_or_insert(0);
        if let Some(status) = t
            .strip_prefix("process didn't exit successfully: ")
            .and_then(|r| r.rsplit_once(" ("))
            .map(|(_, status)| status.trim_end_matches(')'))
        {
            failure.add_detail(status);
        } else if t.starts_with("thread '") && t.contains(" panicked at ") {
            failure.add_detail(t);
            *panic_lines = PANIC_LINES;
        } else if t.starts_with("error: ")
            || t.starts_with("error[")
            || t.starts_with("error occurred in cc-rs: ")
        {
            *panic_lines = 0;
            failure.add_essential_detail(t);
        } else if let Some(warning) = t.strip_prefix("cargo:warning=")
            && (warning.contains("error:") || warning.contains("Error:"))
        {
            // What the tools it ran said (a compiler's, an assembler's errors).
            failure.add_detail(warning);
        } else if *panic_lines > 0 {
            if t.is_empty() || t.starts_with("note: ") || t.starts_with("stack backtrace:") {
                *panic_lines = 0;
            } else {
                *panic_lines -= 1;
                failure.add_detail(t);
            }
        }
    }

    /// One `compiler-message` record of cargo's JSON output.
    fn json_message(&mut self, number: u64, text: &str) {
        self.add_pending();
        self.json = true;
        let Ok(record) = serde_json::from_str::<Value>(text) else {
            self.unsure = true;
            return;
        };
        let diagnostic = &record["message"];
        let level = match diagnostic["level"].as_str() {
            Some("error") => Level::Error,
            Some("warning") => Level::Warning,
            _ => return,
        };
        let Some(message) = diagnostic["message"].as_str() else {
            self.unsure = true;
            return;
        };
        if is_summary(level, message) {
            return;
        }
        // The header as rustc prints it: error codes in brackets, lint names not shown.
        let code = diagnostic["code"]["code"].as_str();
        let lint = code.filter(|c| c.starts_with("clippy::"));
        self.count_lint(level, lint);
        // Error codes (`E0308`) are printed in brackets; lints, rustc's own included, are not.
        let code = code.filter(|c| level == Level::Error && is_error_code(c));
        let header = match (level, code) {
            (Level::Error, Some(code)) => format!("error[{code}]: {message}"),
            (Level::Error, None) => format!("error: {message}"),
            _ => format!("warning: {message}"),
        };
        let location = diagnostic["spans"]
            .as_array()
            .and_then(|spans| spans.iter().find(|s| s["is_primary"] == true))
            .and_then(|span| {
                Some(format!(
                    "{}:{}:{}",
                    span["file_name"].as_str()?,
                    span["line_start"].as_u64()?,
                    span["column_start"].as_u64()?
                ))
            });
        self.located |= location.is_some();
        self.diagnostics
            .add(number, level, location.as_deref(), &header, code.or(lint));
    }
}

/// `could not compile `itertools` (test "quick") due to 18 previous errors; 2 warnings
/// emitted` → `` `itertools` (test "quick"): 18 errors ``.
fn failed_target(message: &str) -> Option<String> {
    let rest = message.strip_prefix("could not compile ")?;
    let (target, count) = rest.split_once(" due to ")?;
    let n = count
        .split(' ')
        .next()
        .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))?;
    let errors = if n == "1" { "error" } else { "errors" };
    Some(format!("{target}: {n} {errors}"))
}

/// `` `byteorder` (lib test) generated 77 warnings (51 duplicates) `` → `` `byteorder` (lib
/// test) ``.
fn warned_target(message: &str) -> Option<&str> {
    let (target, rest) = message.split_once(" generated ")?;
    let (n, words) = rest.split_once(' ')?;
    let counted = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    (target.starts_with('`') && counted && words.starts_with("warning")).then_some(target)
}

/// `E0308`: rustc's error codes, as opposed to the names of lints (`unused_variables`).
fn is_error_code(code: &str) -> bool {
    code.strip_prefix('E')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Cargo's and rustc's summary lines, which repeat counts rather than report a diagnostic.
fn is_summary(level: Level, message: &str) -> bool {
    match level {
        Level::Error => {
            message.starts_with("could not compile")
                || message.starts_with("Could not compile")
                || message.starts_with("aborting due to")
                || message.starts_with("test failed, to rerun pass")
                || message == "test run failed"
                || message.ends_with(" targets failed:")
                || message.ends_with(" target failed:")
        }
        _ => {
            message.starts_with("build failed, waiting for other jobs")
                || (message.starts_with('`') && message.contains(") generated "))
                || message.ends_with(" warnings emitted")
                || message.ends_with(" warning emitted")
        }
    }
}
