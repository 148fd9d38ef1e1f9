//! A program's log: records with a level near the start of the line, after the date, the
//! process and the like (`[2026-12-02 05:24:15 +0000] [10724] [ERROR] …`, `2026/12/02 05:21:48
//! [error] 6965#6965: …`, `2026-12-02T05:20:08Z WARN app: …`, `level=error msg=…`,
//! `ERROR:root:…`), and Python tracebacks, in a log or anywhere else (a script that crashed).
//! Counted: records by level, tracebacks by exception. Each record at error level or worse is
//! a failure with its message; a traceback right after one is its detail (what was raised and
//! the innermost frame of the program's own code), and a traceback after anything else is a
//! failure of its own.
//!
//! A build, test or lint report read by another shape is no log: its facts come first, and
//! this shape's are stated only when none of those recognised the output (see
//! [`Fact::defers`]).

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::pytrace::Traceback;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// Records needed to call the output a log (a traceback alone is enough).
const MIN_RECORDS: u64 = 3;
/// How far into a line its level may be.
const LEVEL_WITHIN: usize = 80;
/// Distinct spellings of error levels kept for the read-more pattern.
const SPELLINGS_KEPT: usize = 6;

#[derive(Debug, Default)]
pub(crate) struct Log {
    records: u64,
    levels: Tally,
    errors: u64,
    first_error: Option<u64>,
    tracebacks: u64,
    exceptions: Tally,
    failures: Failures,
    trace: Traceback,
    /// The line before was a record at error level or worse, still without its traceback.
    error_before: bool,
    /// The traceback being read belongs to the failure before (its record's, or chained).
    attach: bool,
    /// `During handling of the above exception, another exception occurred:` was the last
    /// line that said something.
    chained: bool,
    /// How the error levels were written (`ERROR`, `[error]`), for the read-more pattern.
    spellings: Vec<String>,
}

impl Shape for Log {
    fn line(&mut self, number: u64, text: &str) {
        let after_error = std::mem::take(&mut self.error_before);
        let reading = self.trace.is_open();
        if let Some(raised) = self.trace.line(text) {
            self.tracebacks += 1;
            self.exceptions
                .add(raised.exception.split(':').next().unwrap_or(""));
            if !std::mem::take(&mut self.attach) {
                self.failures.push(number, "");
            }
            if let Some(f) = self.failures.current() {
                for d in raised.detail() {
                    f.add_detail(d);
                }
            }
            return;
        }
        if self.trace.is_open() {
            if !reading {
                // Right under an error record, or chained to the traceback before: theirs.
                self.attach = after_error || std::mem::take(&mut self.chained);
            }
            return;
        }
        let t = text.trim();
        if t == "During handling of the above exception, another exception occurred:"
            || t == "The above exception was the direct cause of the following exception:"
        {
            self.chained = true;
            return;
        }
        if !t.is_empty() {
            self.chained = false;
        }
        let Some((level, spelling, message)) = record(text) else {
            return;
        };
        self.records += 1;
        self.levels.add(level);
        if is_error(level) {
            self.errors += 1;
            self.first_error.get_or_insert(number);
            if self.spellings.len() < SPELLINGS_KEPT
                && !self.spellings.iter().any(|s| s == spelling)
            {
                self.spellings.push(spelling.to_owned());
            }
            self.failures.push(number, "");
            if let Some(f) = self.failures.current() {
                // The level as written, so the line reads (and greps) as the log's.
                f.add_detail(&format!("{spelling} {message}"));
            }
            self.error_before = true;
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.records < MIN_RECORDS && self.tracebacks == 0 {
            return None;
        }
        let mut parts = Vec::new();
        if self.records >= MIN_RECORDS {
            let mut records = plural(self.records, "record", "records");
            if let Some(levels) = self.levels.render() {
                records.push_str(&format!(" ({levels})"));
            }
            if let Some(first) = self.first_error {
                records.push_str(&format!(", first error L{}", thousands(first)));
            }
            parts.push(records);
        }
        if self.tracebacks > 0 {
            let mut tracebacks = plural(self.tracebacks, "traceback", "tracebacks");
            if let Some(kinds) = self.exceptions.render() {
                tracebacks.push_str(&format!(" ({kinds})"));
            }
            parts.push(tracebacks);
        }
        let line = format!("log: {}", parts.join("; "));
        let json = json!({
            "shape": "log",
            "records": self.records,
            "levels": self.levels.json(),
            "errors": self.errors,
            "tracebacks": self.tracebacks,
            "exceptions": self.exceptions.json(),
        });
        let mut pattern: Vec<String> = self.spellings.iter().map(|s| regex::escape(s)).collect();
        if self.tracebacks > 0 {
            pattern.push("^Traceback".to_owned());
        }
        let failed = !self.failures.is_empty();
        let hint = format!("'{}' -A 3", pattern.join("|").replace('\'', "."));
        let failures = self.failures.take_as("errors logged and exceptions raised");
        Some(
            Fact::new("log", vec![line], json)
                .failures(failures)
                .hint_if_failed(failed && !pattern.is_empty(), &hint)
                .defers(),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.levels.approx_heap()
            + self.exceptions.approx_heap()
            + self.failures.approx_heap()
            + self
                .spellings
                .iter()
                .map(|s| s.capacity() + 24)
                .sum::<usize>()
    }
}

/// The levels a record may have, as their names are written in capitals, and the name each is
/// counted under.
const LEVELS: [(&str, &str); 17] = [
    ("TRACE", "trace"),
    ("DEBUG", "debug"),
    ("INFO", "info"),
    ("NOTICE", "notice"),
    ("WARN", "warning"),
    ("WARNING", "warning"),
    ("ERROR", "error"),
    ("ERR", "error"),
    ("SEVERE", "error"),
    ("CRITICAL", "critical"),
    ("CRIT", "critical"),
    ("ALERT", "alert"),
    ("EMERG", "emergency"),
    ("EMERGENCY", "emergency"),
    ("FATAL", "fatal"),
    ("PANIC", "fatal"),
    ("DPANIC", "fatal"),
];

/// Error level or worse: a failure.
fn is_error(level: &str) -> bool {
    matches!(
        level,
        "error" | "critical" | "alert" | "emergency" | "fatal"
    )
}

/// A log record: its level (as counted), the level as written, and the message after it.
/// The level is one of the first words, within `LEVEL_WITHIN` bytes, after nothing but what
/// starts a record (a date, a time, a process id, bracketed fields, at most one other word
/// such as a host or a logger's name): in capitals (`ERROR`, `[ERROR]`, `ERROR:root:…`), or in
/// any case when bracketed (`[error]`, `[core:error]`) or named (`level=error`).
fn record(text: &str) -> Option<(&'static str, &str, &str)> {
    let head = &text.as_bytes()[..text.len().min(LEVEL_WITHIN)];
    // Cheap first: most lines have no capital letter or `=`/`[` there.
    if !head
        .iter()
        .any(|b| b.is_ascii_uppercase() || matches!(b, b'[' | b'='))
    {
        return None;
    }
    let mut others = 0;
    let mut at = 0;
    for word in text.split(' ') {
        let start = at;
        at += word.len() + 1;
        if start >= LEVEL_WITHIN {
            return None;
        }
        if word.is_empty() {
            continue;
        }
        if let Some(level) = level_of(word) {
            let message = text.get(at.min(text.len())..).unwrap_or("");
            let message = match word.split_once(':') {
                // `ERROR:root:message`
                Some((_, rest)) if !word.starts_with('[') && !rest.is_empty() => {
                    &text[start + word.find(':').unwrap_or(0) + 1..]
                }
                _ => message,
            };
            // As written, for the read-more pattern: `[error]`, `level=error`, `ERROR`.
            let spelling = if word.starts_with(['[', '<']) || word.contains('=') {
                word.trim_end_matches(':')
            } else {
                word.split(':')
                    .next()
                    .unwrap_or(word)
                    .trim_end_matches([',', '|'])
            };
            return Some((level, spelling, trim_message(message)));
        }
        if !starts_a_record(word) {
            others += 1;
            if others > 1 {
                return None;
            }
        }
    }
    None
}

/// The level a word names: `ERROR`, `ERROR:`, `[ERROR]`, `[error]`, `[core:error]`,
/// `level=error`, `<error>`.
fn level_of(word: &str) -> Option<&'static str> {
    let named = ["level=", "lvl=", "severity="]
        .iter()
        .find_map(|k| word.strip_prefix(k))
        .map(|v| v.trim_matches('"'));
    let bracketed = word
        .strip_prefix('[')
        .and_then(|w| w.strip_suffix(']').or_else(|| w.strip_suffix("]:")))
        .or_else(|| word.strip_prefix('<').and_then(|w| w.strip_suffix('>')))
        .map(|w| w.rsplit(':').next().unwrap_or(w));
    let any_case = named.or(bracketed);
    let capitals = word
        .trim_end_matches([':', ',', '|'])
        .split(':')
        .next()
        .unwrap_or("");
    LEVELS.iter().find_map(|&(name, counted)| match any_case {
        Some(w) => w.eq_ignore_ascii_case(name).then_some(counted),
        None => (capitals == name).then_some(counted),
    })
}

/// A word that starts a log record: it holds a digit (a date, a time, a process id), is
/// bracketed or a separator, or names a month or a day.
fn starts_a_record(word: &str) -> bool {
    const NAMES: [&str; 19] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "Mon",
        "Tue", "Wed", "Thu", "Fri", "Sat", "Sun",
    ];
    word.bytes().any(|b| b.is_ascii_digit())
        || word.starts_with(['[', '(', '<'])
        || word.ends_with([']', ')', '>'])
        || word.bytes().all(|b| b.is_ascii_punctuation())
        || NAMES.contains(&word.trim_end_matches(','))
        || word.starts_with("time=")
        || word.starts_with("ts=")
}

/// A record's message without the fields that lead it and say nothing of what happened: the
/// separators and words without a letter (`- `, `6965#6965:`, `*2`).
fn trim_message(message: &str) -> &str {
    let mut rest = message.trim_start_matches([' ', ':', '-', '|', ']']);
    while let Some((word, after)) = rest.split_once(' ') {
        if word.is_empty() || word.bytes().any(|b| b.is_ascii_alphabetic()) {
            break;
        }
        rest = after.trim_start();
    }
    rest.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_many_servers_and_loggers() {
        let cases = [
            (
                "2026/12/02 05:21:48 [error] 6965#6965: *2 open() \"/a\" failed (2: No such file)",
                Some(("error", "[error]", "open() \"/a\" failed (2: No such file)")),
            ),
            (
                "[2026-12-02 05:24:15 +0000] [10724] [ERROR] Error handling request GET /1",
                Some(("error", "[ERROR]", "Error handling request GET /1")),
            ),
            (
                "[2026-12-02 05:20:08,690] ERROR in app: Exception on /1/update [POST]",
                Some(("error", "ERROR", "in app: Exception on /1/update [POST]")),
            ),
            (
                "[2026-12-02 05:24:25 +0000] [10724] [CRITICAL] WORKER TIMEOUT (pid:10795)",
                Some(("critical", "[CRITICAL]", "WORKER TIMEOUT (pid:10795)")),
            ),
            (
                "2026-12-02T05:20:08.123456Z  WARN hyper::proto: connection reset",
                Some(("warning", "WARN", "hyper::proto: connection reset")),
            ),
            (
                "time=\"2026-12-02T05:20:08Z\" level=error msg=\"dial tcp: refused\"",
                Some(("error", "level=error", "msg=\"dial tcp: refused\"")),
            ),
            (
                "ERROR:root:could not open config",
                Some(("error", "ERROR", "root:could not open config")),
            ),
            (
                "2026-12-02 05:20:08.690 ERROR 1234 --- [main] c.e.App : boom",
                Some(("error", "ERROR", "[main] c.e.App : boom")),
            ),
            (
                "[Wed Dec 02 05:20:08.123 2026] [core:error] [pid 12] AH00037: x",
                Some(("error", "[core:error]", "[pid 12] AH00037: x")),
            ),
            (
                "WARNING: This is a development server.",
                Some(("warning", "WARNING", "This is a development server.")),
            ),
        ];
        for (line, want) in cases {
            assert_eq!(record(line), want, "{line}");
        }
        for line in [
            "error[E0308]: mismatched types",
            "src/a.c:3:1: error: expected ';'",
            "test result: FAILED. 1 passed; 2 failed",
            "For more INFO see the manual",
            "npm ERR! code E404",
            "make: *** [Makefile:9: all] Error 1",
            "  at Object.<anonymous> (ERROR.js:1:1)",
        ] {
            assert_eq!(record(line), None, "{line}");
        }
    }
}
