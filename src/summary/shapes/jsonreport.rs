//! Test and lint reports written as JSON, read from the raw bytes whatever their layout (ESLint
//! and jest write theirs on one line, often far longer than a line is read, mocha pretty-prints
//! its own): ESLint's `-f json` (an array of files, each with its `messages` and its counts),
//! jest's `--json` and vitest's `--reporter=json` (`numTotalTests`… then `testResults`, a file
//! each, holding `assertionResults`), mocha's `--reporter json` (`stats`, then `tests`,
//! `failures`…).
//!
//! A report is a JSON document that starts a line (after what a runner printed before it) and
//! whose first key names it. Its values are read as the document streams by, in constant
//! memory: only the report's counts and the first failures are kept. ESLint's
//! `-f json-with-metadata` is its `-f json` under `results`, its rules' metadata after it.
//! SARIF logs (as SARIF 2.1 lays them out; tried on ruff's): each run's tool and results.
//! pylint's `json` and `json2`: its messages by type, in its text report's form, and its score.
//!
//! Stated: the report's own totals; each failed test by its full name as the report gives it
//! (what `-t` and `--grep` take), with its message's first line, the values it compared and its
//! place, read from its failure message; each ESLint problem of a new rule as the report prints
//! it (`"ruleId":"eqeqeq","severity":2,"message":"…","line":35,"column":14`) under its file.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally};
use super::jest::location;
use super::jsonfindings::Findings;
use super::names::{Failures, js_test_counts, test_counts};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Containers followed this deep; deeper ones are passed over.
const MAX_DEPTH: usize = 16;
/// Bytes of a key kept (longer keys are no key a report is read by).
const KEY_BYTES: usize = 64;
/// Bytes of a string value kept, as written.
const VALUE_BYTES: usize = 4096;
/// Bytes of an ESLint problem's object kept, as written.
const PROBLEM_BYTES: usize = 1024;
/// Lines of a failure message read for its detail.
const MESSAGE_LINES: usize = 60;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Report {
    /// No document yet, or one that is no report.
    #[default]
    Unknown,
    Eslint,
    Jest,
    Mocha,
    Sarif,
    Pylint,
}

/// A container open: an object (its current key) or an array (its current index).
#[derive(Debug, Default)]
struct Frame {
    object: bool,
    key: Vec<u8>,
    /// In an object: the next string is a key.
    expects_key: bool,
    index: u64,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum Lex {
    /// Between documents: at a line's start (or in its leading blanks) a document may begin.
    #[default]
    LineStart,
    /// Between documents, past a line's start: nothing until the next line.
    RestOfLine,
    /// In a document, between tokens.
    Between,
    Str,
    Escape,
    /// A number, `true`, `false` or `null`.
    Scalar,
}

#[derive(Debug, Default)]
pub(crate) struct JsonReport {
    lex: Lex,
    line: u64,
    stack: Vec<Frame>,
    /// Frames closed, for the next ones.
    spare: Vec<Frame>,
    /// Containers open past `MAX_DEPTH`.
    deep: usize,
    value: Vec<u8>,
    report: Report,
    /// A report was read to its end.
    ended: bool,
    /// The raw bytes of the container recorded (an ESLint problem), from this depth.
    record: Option<(usize, Vec<u8>)>,
    eslint: Eslint,
    tests: Tests,
    sarif: Sarif,
    pylint: Pylint,
    /// The document is of no report known by name: read for findings only.
    unnamed: bool,
    findings: Findings,
}

/// pylint's JSON: `--output-format=json` (an array of messages) or `json2` (`{"messages": […],
/// "statistics": {"messageTypeCount": {…}, "score": 8.25}}`). Each message has its `type`
/// (error, warning, refactor, convention…), `symbol`, `message`, message id, `path`, `line`,
/// `column`.
#[derive(Debug)]
struct Pylint {
    diagnostics: Diagnostics,
    /// Messages by type, counted, and as the report's statistics state them.
    types: Tally,
    stated: Vec<(String, u64)>,
    score: Option<String>,
    /// 1 for `json2`, whose messages are under `messages`.
    base: usize,
    /// The message open: type, symbol, message, id, path, line, column, its line in the output.
    kind: String,
    symbol: String,
    message: String,
    id: String,
    path: String,
    at: (String, String),
    message_at: u64,
}

impl Default for Pylint {
    fn default() -> Pylint {
        Pylint {
            diagnostics: Diagnostics::of_rules(),
            types: Tally::default(),
            stated: Vec::new(),
            score: None,
            base: 0,
            kind: String::new(),
            symbol: String::new(),
            message: String::new(),
            id: String::new(),
            path: String::new(),
            at: (String::new(), String::new()),
            message_at: 0,
        }
    }
}

/// A SARIF log (`{"$schema": "…sarif…", "runs": [{"tool": …, "results": […]}]}`), as
/// SARIF 2.1 lays it out (tried on ruff's). Each result is a diagnostic of its `level`,
/// `ruleId`, `message.text` and its first location's `uri`, `startLine`, `startColumn`.
#[derive(Debug)]
struct Sarif {
    diagnostics: Diagnostics,
    /// The tools that ran, `ruff 0.17.6`.
    tools: Vec<String>,
    results: u64,
    /// The result open: level, rule, message, uri, line, column.
    level: String,
    rule: String,
    message: String,
    uri: String,
    at: (u64, u64),
    /// Its line in the output.
    result_at: u64,
}

impl Default for Sarif {
    fn default() -> Sarif {
        Sarif {
            diagnostics: Diagnostics::of_rules(),
            tools: Vec::new(),
            results: 0,
            level: String::new(),
            rule: String::new(),
            message: String::new(),
            uri: String::new(),
            at: (0, 0),
            result_at: 0,
        }
    }
}

#[derive(Debug)]
struct Eslint {
    diagnostics: Diagnostics,
    file: String,
    /// The file's own counts: `errorCount`, `fatalErrorCount`, `warningCount`.
    counts: [u64; 3],
    files: u64,
    /// The line the file's path is on.
    file_at: u64,
    files_with_problems: Failures,
    /// The problem open.
    problem: Problem,
    /// How deep its array of files is: 0 for `-f json`'s `[ … ]`, 1 for
    /// `-f json-with-metadata`'s `{"results": [ … ], "metadata": …}`.
    base: usize,
}

/// An ESLint problem being read: the output line it starts on, its severity, rule and message,
/// and its place in its file (`line`, `column`).
#[derive(Debug, Default)]
struct Problem {
    at: u64,
    severity: u64,
    rule: String,
    message: String,
    line: u64,
    column: u64,
}

impl Default for Eslint {
    fn default() -> Eslint {
        Eslint {
            diagnostics: Diagnostics::of_rules(),
            file: String::new(),
            counts: [0; 3],
            files: 0,
            file_at: 0,
            files_with_problems: Failures::default(),
            problem: Problem::default(),
            base: 0,
        }
    }
}

#[derive(Debug, Default)]
struct Tests {
    /// jest: numTotalTests, numPassedTests, numFailedTests, numPendingTests, numTodoTests,
    /// numTotalTestSuites, numFailedTestSuites; mocha: tests, passes, failures, pending.
    counts: [Option<u64>; 7],
    failures: Failures,
    suites: Failures,
    /// The test open (its keys come in any order): its name, status, line, and detail.
    name: String,
    status: String,
    at: u64,
    detail: Vec<String>,
    /// The file open (jest): its name, status, message's detail, and its tests read.
    file: String,
    file_status: String,
    file_detail: Vec<String>,
    file_at: u64,
    file_tests: u64,
}

/// jest's totals, in [`Tests::counts`]'s order.
const JEST_COUNTS: [&str; 7] = [
    "numTotalTests",
    "numPassedTests",
    "numFailedTests",
    "numPendingTests",
    "numTodoTests",
    "numTotalTestSuites",
    "numFailedTestSuites",
];
/// mocha's, under `stats`.
const MOCHA_COUNTS: [&str; 4] = ["tests", "passes", "failures", "pending"];

impl Shape for JsonReport {
    fn line(&mut self, _number: u64, _text: &str) {}

    fn raw(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            // Between documents, most lines are passed over on their first byte.
            if self.lex == Lex::LineStart {
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r') {
                    i += 1;
                }
                match bytes.get(i) {
                    None => return,
                    Some(b'\n') => {
                        i += 1;
                        self.line += 1;
                        continue;
                    }
                    Some(&b @ (b'{' | b'[')) if !self.ended => {
                        i += 1;
                        self.lex = Lex::Between;
                        self.open(b == b'{');
                        continue;
                    }
                    Some(_) => self.lex = Lex::RestOfLine,
                }
            }
            if self.lex == Lex::RestOfLine {
                match memchr::memchr(b'\n', &bytes[i..]) {
                    Some(n) => {
                        i += n + 1;
                        self.line += 1;
                        self.lex = Lex::LineStart;
                    }
                    None => return,
                }
                continue;
            }
            if self.lex == Lex::Str {
                // Most of a report is its strings: taken in runs up to a quote or a backslash.
                let start = i;
                while i < bytes.len() && !matches!(bytes[i], b'"' | b'\\' | b'\n') {
                    i += 1;
                }
                self.take(&bytes[start..i]);
                self.recorded(&bytes[start..i]);
                if i == bytes.len() {
                    return;
                }
            }
            let b = bytes[i];
            i += 1;
            self.recorded(&[b]);
            self.byte(b);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        match self.report {
            Report::Eslint => self.eslint_fact(),
            Report::Jest | Report::Mocha => self.tests_fact(),
            Report::Sarif => self.sarif_fact(),
            Report::Pylint => self.pylint_fact(),
            Report::Unknown => self.findings.fact(),
        }
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.stack
            .iter()
            .map(|f| f.key.capacity() + 48)
            .sum::<usize>()
            + self.value.capacity()
            + self.record.as_ref().map_or(0, |(_, r)| r.capacity())
            + self.eslint.diagnostics.approx_heap()
            + self.eslint.files_with_problems.approx_heap()
            + self.tests.failures.approx_heap()
            + self.tests.suites.approx_heap()
            + self.tests.name.capacity()
            + self.tests.file.capacity()
            + self.sarif.diagnostics.approx_heap()
            + self.sarif.message.capacity()
            + self.sarif.uri.capacity()
            + self.pylint.diagnostics.approx_heap()
            + self
                .spare
                .iter()
                .map(|f| f.key.capacity() + 48)
                .sum::<usize>()
            + self.findings.approx_heap()
    }
}

impl JsonReport {
    /// Bytes of the container being recorded, if one is.
    fn recorded(&mut self, bytes: &[u8]) {
        if let Some((_, recorded)) = &mut self.record {
            let room = PROBLEM_BYTES.saturating_sub(recorded.len());
            recorded.extend_from_slice(&bytes[..bytes.len().min(room)]);
        }
    }

    fn byte(&mut self, b: u8) {
        if b == b'\n' {
            self.line += 1;
        }
        match self.lex {
            // Between documents, lines are read in `raw`, a line at a time.
            Lex::LineStart | Lex::RestOfLine => {}
            Lex::Str => match b {
                b'"' => {
                    self.lex = Lex::Between;
                    self.string_done();
                }
                b'\\' => {
                    self.take(b"\\");
                    self.lex = Lex::Escape;
                }
                // A raw newline in a string: no JSON. The next line may start a report.
                _ => {
                    self.abandon();
                    self.lex = Lex::LineStart;
                }
            },
            Lex::Escape => {
                self.take(&[b]);
                self.lex = Lex::Str;
            }
            Lex::Scalar => match b {
                b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n' => {
                    self.lex = Lex::Between;
                    self.value_done();
                    self.structural(b);
                }
                _ => self.take(&[b]),
            },
            Lex::Between => self.structural(b),
        }
    }

    fn structural(&mut self, b: u8) {
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | b':' => {}
            b'{' | b'[' => self.open(b == b'{'),
            b'}' | b']' => self.close(),
            b',' => {
                if let Some(frame) = self.stack.last_mut().filter(|_| self.deep == 0) {
                    frame.index += 1;
                    frame.expects_key = frame.object;
                }
            }
            b'"' => {
                self.value.clear();
                self.lex = Lex::Str;
            }
            _ => {
                self.value.clear();
                self.take(&[b]);
                self.lex = Lex::Scalar;
            }
        }
    }

    /// Bytes of the string or scalar being read.
    fn take(&mut self, bytes: &[u8]) {
        let room = VALUE_BYTES.saturating_sub(self.value.len());
        self.value
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    /// The document read is no report (or no JSON): read on from the next line.
    fn abandon(&mut self) {
        if self.report == Report::Unknown {
            self.eslint.base = 0;
            self.pylint.base = 0;
        }
        self.spare.append(&mut self.stack);
        self.deep = 0;
        self.record = None;
        self.lex = Lex::RestOfLine;
        self.unnamed = false;
        self.findings.reset();
    }

    fn open(&mut self, object: bool) {
        if self.stack.len() >= MAX_DEPTH || self.deep > 0 {
            self.deep += 1;
            return;
        }
        // Its name in the document: its key, or its array's.
        let under = match self.stack.as_slice() {
            [.., named, array] if !array.object => named.key.as_slice(),
            [.., parent] => parent.key.as_slice(),
            [] => b"",
        };
        self.findings.open(object, under, self.line + 1);
        // A frame closed before is reused, its key's buffer with it.
        let mut frame = self.spare.pop().unwrap_or_default();
        frame.key.clear();
        frame.object = object;
        frame.expects_key = object;
        frame.index = 0;
        self.stack.push(frame);
        if self.report == Report::Eslint && self.in_eslint_problem() {
            // `[ {file…, "messages": [ {problem} ] } ]`: its bytes are quoted.
            let mut recorded = Vec::with_capacity(256);
            recorded.push(b'{');
            self.record = Some((self.stack.len(), recorded));
            self.eslint.problem = Problem {
                at: self.line + 1,
                ..Problem::default()
            };
        }
        // Where a SARIF result or a pylint message starts (a pylint report is known only by
        // its first message's first key).
        let depth = self.stack.len();
        match self.report {
            Report::Sarif if depth == 5 && self.in_sarif_results() => {
                self.sarif.result_at = self.line + 1;
            }
            Report::Pylint | Report::Unknown
                if depth == 2 + self.pylint.base && self.in_pylint_messages() =>
            {
                self.pylint.message_at = self.line + 1;
            }
            _ => {}
        }
    }

    fn close(&mut self) {
        if self.deep > 0 {
            self.deep -= 1;
            return;
        }
        let depth = self.stack.len();
        if let Some((at, _)) = &self.record
            && *at == depth
            && let Some((_, recorded)) = self.record.take()
        {
            self.eslint_problem(&recorded);
        }
        self.container_done(depth);
        // Only documents of no known report are read for findings (and read in vain).
        self.findings.close(self.unnamed);
        if self.unnamed && !self.findings.worth_reading() {
            // A document of data, read in vain so far: the rest is passed over.
            self.abandon();
            return;
        }
        if let Some(frame) = self.stack.pop() {
            self.spare.push(frame);
        }
        if self.stack.is_empty() {
            if self.report != Report::Unknown {
                self.ended = true;
            }
            self.unnamed = false;
            self.lex = Lex::RestOfLine;
        }
    }

    fn string_done(&mut self) {
        let Some(frame) = self.stack.last_mut() else {
            return;
        };
        if self.deep == 0 && frame.object && frame.expects_key {
            frame.key.clear();
            let n = self.value.len().min(KEY_BYTES);
            frame.key.extend_from_slice(&self.value[..n]);
            frame.expects_key = false;
            if self.stack.len() <= 3 && self.report == Report::Unknown && !self.unnamed {
                self.recognise();
            }
            return;
        }
        self.value_done();
    }

    /// The report a document is, by its first key (or its first element's).
    fn recognise(&mut self) {
        let first = |s: &Self| s.stack.iter().all(|f| f.index == 0);
        let key = self
            .stack
            .last()
            .map(|f| f.key.as_slice())
            .unwrap_or_default();
        let top_object = self.stack.len() == 1 && self.stack[0].object;
        let base = self.eslint.base;
        let in_array = self.stack.len() == 2 + base && !self.stack[base].object;
        self.report = match key {
            // `-f json-with-metadata`: its files are under `results`.
            b"results" if top_object && first(self) => {
                self.eslint.base = 1;
                return;
            }
            // pylint's `json2`: its messages are under `messages`.
            b"messages" if top_object && first(self) => {
                self.pylint.base = 1;
                return;
            }
            b"type"
                if first(self)
                    && self.stack.len() == 2 + self.pylint.base
                    && !self.stack[self.pylint.base].object =>
            {
                Report::Pylint
            }
            b"filePath" if in_array && first(self) => Report::Eslint,
            b"stats" if top_object => Report::Mocha,
            b"$schema" | b"runs" if top_object => Report::Sarif,
            k if top_object
                && k.starts_with(b"num")
                && JEST_COUNTS.iter().any(|c| c.as_bytes() == k) =>
            {
                Report::Jest
            }
            _ if self.findings.worth_reading() => {
                // Of no report known by name: its findings may be read still.
                self.unnamed = true;
                self.eslint.base = 0;
                self.pylint.base = 0;
                Report::Unknown
            }
            _ => {
                self.abandon();
                Report::Unknown
            }
        };
    }

    /// A string or scalar value, under the innermost frame's key.
    fn value_done(&mut self) {
        if self.deep > 0 || self.stack.is_empty() {
            return;
        }
        let value = std::mem::take(&mut self.value);
        match self.report {
            Report::Eslint => self.eslint_value(&value),
            Report::Jest => self.jest_value(&value),
            Report::Mocha => self.mocha_value(&value),
            Report::Sarif => self.sarif_value(&value),
            Report::Pylint => self.pylint_value(&value),
            Report::Unknown => {
                if let Some(frame) = self.stack.last() {
                    self.findings.value(&frame.key, || decoded(&value));
                }
            }
        }
        self.value = value;
    }

    fn key(&self) -> &[u8] {
        self.stack
            .last()
            .map(|f| f.key.as_slice())
            .unwrap_or_default()
    }

    /// In ESLint's array of files (under `results` with its metadata), not in its metadata.
    fn in_eslint_files(&self) -> bool {
        self.eslint.base == 0 || self.stack[0].key == b"results"
    }

    /// Directly in a problem's object: `[ {file…, "messages": [ {problem} ] } ]`.
    fn in_eslint_problem(&self) -> bool {
        let base = self.eslint.base;
        self.stack.len() == 4 + base
            && self.stack[1 + base].key == b"messages"
            && self.in_eslint_files()
    }

    fn eslint_value(&mut self, value: &[u8]) {
        if !self.in_eslint_files() {
            return;
        }
        let n = self.stack.len() - self.eslint.base;
        let number = || text(value).parse::<u64>().ok();
        if n == 2 {
            match self.key() {
                b"filePath" => {
                    self.eslint.file = text(value);
                    self.eslint.file_at = self.line + 1;
                    self.eslint.counts = [0; 3];
                    self.eslint.files += 1;
                }
                b"errorCount" => self.eslint.counts[0] = number().unwrap_or(0),
                b"fatalErrorCount" => self.eslint.counts[1] = number().unwrap_or(0),
                b"warningCount" => self.eslint.counts[2] = number().unwrap_or(0),
                _ => {}
            }
        } else if self.in_eslint_problem() {
            match self.key() {
                b"severity" => self.eslint.problem.severity = number().unwrap_or(0),
                b"ruleId" => self.eslint.problem.rule = text(value),
                b"message" => self.eslint.problem.message = text(value),
                b"line" => self.eslint.problem.line = number().unwrap_or(0),
                b"column" => self.eslint.problem.column = number().unwrap_or(0),
                _ => {}
            }
        }
    }

    /// An ESLint problem's object, read whole: counted, and quoted (up to its place) when its
    /// rule is new.
    fn eslint_problem(&mut self, recorded: &[u8]) {
        let problem = std::mem::take(&mut self.eslint.problem);
        let raw = String::from_utf8_lossy(recorded);
        // Up to its `"column":N`: what follows (`nodeType`, `endLine`, a fix) says no more.
        let whole = raw.trim_start_matches('{').trim_end_matches('}');
        let quoted = match whole.find("\"column\":") {
            Some(at) => {
                let digits = whole[at + 9..]
                    .bytes()
                    .take_while(u8::is_ascii_digit)
                    .count();
                &whole[..at + 9 + digits]
            }
            None => whole,
        };
        let level = if problem.severity >= 2 {
            Level::Error
        } else {
            Level::Warning
        };
        let rule = if problem.rule.is_empty() || problem.rule == "null" {
            "(no rule: a parsing error)"
        } else {
            &problem.rule
        };
        let header = format!("{}: {}", self.eslint.file, cut(quoted, 400));
        let place = format!("{}:{}:{}", self.eslint.file, problem.line, problem.column);
        self.eslint.diagnostics.add_placed(
            problem.at,
            level,
            &place,
            &header,
            &problem.message,
            Some(rule),
        );
    }

    /// A container closed at `depth`: a file of ESLint's, a test or file of jest's, a
    /// failure of mocha's.
    fn container_done(&mut self, depth: usize) {
        let eslint_file = depth == 2 + self.eslint.base && self.in_eslint_files();
        if self.report == Report::Sarif && depth == 5 && self.in_sarif_results() {
            self.sarif_result();
            return;
        }
        if self.report == Report::Pylint
            && depth == 2 + self.pylint.base
            && self.in_pylint_messages()
        {
            self.pylint_message();
            return;
        }
        let t = &mut self.tests;
        match (self.report, depth) {
            (Report::Eslint, _) if eslint_file => {
                let [errors, fatal, warnings] = self.eslint.counts;
                if errors + warnings > 0 {
                    // Its path and counts as the report writes them.
                    let said = format!(
                        "\"filePath\":\"{}\" · \"errorCount\":{errors},\"fatalErrorCount\":{fatal},\
                         \"warningCount\":{warnings}",
                        self.eslint.file,
                    );
                    self.eslint
                        .files_with_problems
                        .push(self.eslint.file_at, &said);
                }
            }
            (Report::Jest, 5) if self.stack[2].key == b"assertionResults" => {
                t.file_tests += 1;
                if t.status == "failed" {
                    t.failures.push(t.at, &t.name);
                    t.failures.add_details(&t.detail);
                }
                t.name.clear();
                t.status.clear();
                t.detail.clear();
            }
            (Report::Jest, 3) if self.stack[0].key == b"testResults" => {
                // A file that failed with no test failed: it did not run.
                if t.file_status == "failed" && t.file_tests == 0 {
                    t.suites.push(t.file_at, &format!("FAIL {}", t.file));
                    t.suites.add_details(&t.file_detail);
                }
                t.file.clear();
                t.file_status.clear();
                t.file_detail.clear();
                t.file_tests = 0;
            }
            (Report::Mocha, 3) if self.stack[0].key == b"failures" => {
                t.failures.push(t.at, &t.name);
                t.failures.add_details(&t.detail);
                t.name.clear();
                t.detail.clear();
            }
            _ => {}
        }
    }

    fn jest_value(&mut self, value: &[u8]) {
        let n = self.stack.len();
        let line = self.line + 1;
        if n == 1 {
            if let Some(i) = JEST_COUNTS.iter().position(|c| c.as_bytes() == self.key()) {
                self.tests.counts[i] = text(value).parse().ok();
            }
            return;
        }
        if self.stack[0].key != b"testResults" {
            return;
        }
        let key = self.stack[n - 1].key.as_slice();
        let t = &mut self.tests;
        match n {
            3 => match key {
                b"name" => {
                    t.file = text(value);
                    t.file_at = line;
                }
                b"status" => t.file_status = text(value),
                b"message" => t.file_detail = message_detail(&decoded(value)),
                _ => {}
            },
            5 if self.stack[2].key == b"assertionResults" => match key {
                b"fullName" => {
                    t.name = cut(&decoded(value), 300);
                    t.at = line;
                }
                b"status" => t.status = text(value),
                _ => {}
            },
            // Its first failure message.
            6 if self.stack[4].key == b"failureMessages" && self.stack[5].index == 0 => {
                t.detail = message_detail(&decoded(value));
            }
            _ => {}
        }
    }

    fn mocha_value(&mut self, value: &[u8]) {
        let n = self.stack.len();
        if n == 2 && self.stack[0].key == b"stats" {
            if let Some(i) = MOCHA_COUNTS.iter().position(|c| c.as_bytes() == self.key()) {
                self.tests.counts[i] = text(value).parse().ok();
            }
            return;
        }
        if self.stack[0].key != b"failures" {
            return;
        }
        let line = self.line + 1;
        let key = self.stack[n - 1].key.as_slice();
        let t = &mut self.tests;
        if n == 3 && key == b"fullTitle" {
            t.name = cut(&decoded(value), 300);
            t.at = line;
        } else if n == 4 && self.stack[2].key == b"err" {
            // Its message first, then its place (mocha writes its stack first).
            match key {
                b"message" => {
                    let message = decoded(value);
                    if let Some(first) = message.lines().find(|l| !l.trim().is_empty()) {
                        t.detail.insert(0, cut(first.trim(), 300));
                    }
                }
                b"stack" => {
                    let stack = decoded(value);
                    if let Some(place) = stack.lines().find_map(|l| location(l.trim())) {
                        t.detail.push(format!("at {place}"));
                    }
                }
                _ => {}
            }
        }
    }

    /// In pylint's messages, not its statistics.
    fn in_pylint_messages(&self) -> bool {
        self.pylint.base == 0 || self.stack[0].key == b"messages"
    }

    fn pylint_value(&mut self, value: &[u8]) {
        let n = self.stack.len();
        let key = self.key().to_vec();
        let p = &mut self.pylint;
        if p.base == 1 && self.stack[0].key == b"statistics" {
            match (n, key.as_slice()) {
                (3, k) if self.stack[1].key == b"messageTypeCount" => {
                    if let Ok(count) = text(value).parse::<u64>() {
                        p.stated
                            .push((String::from_utf8_lossy(k).into_owned(), count));
                    }
                }
                (2, b"score") => p.score = Some(text(value)),
                _ => {}
            }
            return;
        }
        if n != 2 + p.base || !(p.base == 0 || self.stack[0].key == b"messages") {
            return;
        }
        match key.as_slice() {
            b"type" => p.kind = text(value),
            b"symbol" => p.symbol = text(value),
            b"message" => p.message = decoded(value),
            b"messageId" | b"message-id" => p.id = text(value),
            b"path" => p.path = text(value),
            b"line" => p.at.0 = text(value),
            b"column" => p.at.1 = text(value),
            _ => {}
        }
    }

    /// A message read whole: a diagnostic as pylint's text report prints it,
    /// `path:3697:24: E1101: Instance of 'engine' has no 'millfn' member (no-member)`.
    fn pylint_message(&mut self) {
        let p = &mut self.pylint;
        // Another array of objects with a `type` first (events, tokens…) is no pylint report.
        if p.symbol.is_empty() {
            return;
        }
        let place = format!("{}:{}:{}", p.path, p.at.0, p.at.1);
        let message = cut(p.message.lines().next().unwrap_or("").trim(), 300);
        let header = format!("{place}: {}: {message} ({})", p.id, p.symbol);
        let level = match p.kind.as_str() {
            "error" | "fatal" => Level::Error,
            "warning" => Level::Warning,
            _ => Level::Note,
        };
        p.types.add(&p.kind);
        let line = std::mem::take(&mut p.message_at).max(1);
        if !p.path.is_empty() {
            p.diagnostics.files.add(&p.path);
        }
        let code = (!p.id.is_empty()).then(|| p.id.clone());
        p.diagnostics
            .add(line, level, Some(&place), &header, code.as_deref());
        for field in [
            &mut p.kind,
            &mut p.symbol,
            &mut p.message,
            &mut p.id,
            &mut p.path,
        ] {
            field.clear();
        }
        p.at = (String::new(), String::new());
    }

    fn pylint_fact(self) -> Option<Fact> {
        let p = self.pylint;
        let d = &p.diagnostics;
        let counted: u64 = p.types.iter().map(|(_, n)| n).sum();
        if counted == 0 && p.stated.is_empty() {
            return None;
        }
        // By type in pylint's words, `1 error, 15 warnings, 34 refactor`: its statistics when
        // it states them, else those counted.
        let by_type: Vec<(String, u64)> = if p.stated.is_empty() {
            p.types.iter().map(|(k, n)| (k.to_owned(), n)).collect()
        } else {
            p.stated.clone()
        };
        let words: Vec<String> = by_type
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(kind, n)| match kind.as_str() {
                "error" => plural(*n, "error", "errors"),
                "warning" => plural(*n, "warning", "warnings"),
                other => format!("{} {other}", thousands(*n)),
            })
            .collect();
        let part = if self.ended { "" } else { "at least " };
        let mut line = format!(
            "pylint JSON: {part}{}",
            plural(counted, "message", "messages")
        );
        if !words.is_empty() {
            line.push_str(&format!(" ({})", words.join(", ")));
        }
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(score) = &p.score
            && let Ok(score) = score.parse::<f64>()
        {
            line.push_str(&format!("; rated at {score:.2}/10"));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; error codes: {codes}"));
        }
        if !self.ended {
            line.push_str(" (the report's end was not read)");
        }
        let json = json!({
            "shape": "pylint json",
            "messages": counted,
            "by_type": by_type.iter().map(|(k, n)| (k.clone(), json!(n))).collect::<serde_json::Map<_, _>>(),
            "score": p.score,
            "complete": self.ended,
        });
        Some(
            Fact::new("pylint json", vec![line], json)
                .failures(d.failures(|_| 0))
                .supersedes(&["json", "grep"]),
        )
    }

    /// In a run's `results`: `{"runs": [ {"results": [ {result} ] } ] }`.
    fn in_sarif_results(&self) -> bool {
        self.stack.len() >= 5 && self.stack[0].key == b"runs" && self.stack[2].key == b"results"
    }

    fn sarif_value(&mut self, value: &[u8]) {
        let n = self.stack.len();
        if n == 1 && self.key() == b"$schema" && !text(value).to_ascii_lowercase().contains("sarif")
        {
            // A schema of another kind: no SARIF log.
            self.report = Report::Unknown;
            self.abandon();
            return;
        }
        if n == 5
            && self.stack[0].key == b"runs"
            && self.stack[2].key == b"tool"
            && self.stack[3].key == b"driver"
        {
            match self.key() {
                b"name" => self.sarif.tools.push(text(value)),
                b"version" => {
                    if let Some(tool) = self.sarif.tools.last_mut() {
                        tool.push(' ');
                        tool.push_str(&text(value));
                    }
                }
                _ => {}
            }
            return;
        }
        if !self.in_sarif_results() {
            return;
        }
        let key = self.key().to_vec();
        let key = key.as_slice();
        let in_message = n == 6 && self.stack[4].key == b"message";
        // `locations[0]…`, however the report nests its values (`"locations": 5` is no
        // location).
        let first_location =
            n == 9 && self.stack[4].key == b"locations" && self.stack[5].index == 0;
        let under = self.stack.get(7).map(|f| f.key.clone()).unwrap_or_default();
        let s = &mut self.sarif;
        match n {
            5 => match key {
                b"level" => s.level = text(value),
                b"ruleId" => s.rule = text(value),
                _ => {}
            },
            6 if in_message && key == b"text" => {
                s.message = decoded(value);
            }
            // `locations[0].physicalLocation.artifactLocation.uri` and `….region.startLine`.
            9 if first_location => {
                let number = || text(value).parse::<u64>().unwrap_or(0);
                match (under.as_slice(), key) {
                    (b"artifactLocation", b"uri") => s.uri = text(value),
                    (b"region", b"startLine") => s.at.0 = number(),
                    (b"region", b"startColumn") => s.at.1 = number(),
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// A result read whole: a diagnostic at its place, `path:line:col: level rule message`.
    fn sarif_result(&mut self) {
        let s = &mut self.sarif;
        s.results += 1;
        let path = s.uri.strip_prefix("file://").unwrap_or(&s.uri).to_owned();
        let place = match s.at {
            (0, _) => path,
            (line, 0) => format!("{path}:{line}"),
            (line, column) => format!("{path}:{line}:{column}"),
        };
        // SARIF's default level is `warning`; `note` and `none` are no problem of a build's.
        let level = match s.level.as_str() {
            "error" => Level::Error,
            "note" | "none" => Level::Note,
            _ => Level::Warning,
        };
        let rule = std::mem::take(&mut s.rule);
        let message = std::mem::take(&mut s.message);
        let message = cut(message.lines().next().unwrap_or("").trim(), 300);
        let header = format!(
            "{place}: {} {rule} {message}",
            if s.level.is_empty() {
                "warning"
            } else {
                &s.level
            }
        );
        let line = std::mem::take(&mut s.result_at);
        let code = (!rule.is_empty()).then_some(rule.as_str());
        if !s.uri.is_empty() {
            s.diagnostics.files.add(&s.uri);
        }
        s.diagnostics
            .add(line.max(1), level, Some(&place), &header, code);
        s.level.clear();
        s.uri.clear();
        s.at = (0, 0);
    }

    fn sarif_fact(self) -> Option<Fact> {
        let s = self.sarif;
        let d = &s.diagnostics;
        if s.tools.is_empty() && s.results == 0 {
            return None;
        }
        let part = if self.ended { "" } else { "at least " };
        let mut line = format!(
            "SARIF{}: {part}{} ({}, {}",
            if s.tools.is_empty() {
                String::new()
            } else {
                format!(" ({})", s.tools.join(", "))
            },
            plural(s.results, "result", "results"),
            plural(d.errors, "error", "errors"),
            plural(d.warnings, "warning", "warnings"),
        );
        if d.notes > 0 {
            line.push_str(&format!(", {}", plural(d.notes, "note", "notes")));
        }
        line.push(')');
        if let Some(files) = d.files.distinct().filter(|&f| f > 0) {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; error rules: {codes}"));
        }
        if !self.ended {
            line.push_str(" (the report's end was not read)");
        }
        let json = json!({
            "shape": "sarif",
            "tools": s.tools,
            "results": s.results,
            "errors": d.errors,
            "warnings": d.warnings,
            "notes": d.notes,
            "complete": self.ended,
            "rules": d.codes.json(),
        });
        Some(
            Fact::new("sarif", vec![line], json)
                .failures(d.failures(|_| 0))
                .supersedes(&["json", "grep"]),
        )
    }

    fn eslint_fact(self) -> Option<Fact> {
        let e = self.eslint;
        let d = &e.diagnostics;
        if e.files == 0 {
            return None;
        }
        let part = if self.ended { "" } else { "at least " };
        let mut line = format!(
            "ESLint JSON: {part}{} ({}, {}) in {} of {} read",
            plural(d.errors + d.warnings, "problem", "problems"),
            plural(d.errors, "error", "errors"),
            plural(d.warnings, "warning", "warnings"),
            plural(e.files_with_problems.total, "file", "files"),
            thousands(e.files)
        );
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; error rules: {codes}"));
        }
        if !self.ended {
            line.push_str(" (the report's end was not read)");
        }
        let json = json!({
            "shape": "eslint json",
            "errors": d.errors,
            "warnings": d.warnings,
            "files": e.files,
            "complete": self.ended,
            "rules": d.codes.json(),
        });
        let mut files = e.files_with_problems;
        Some(
            Fact::new("eslint json", vec![line], json)
                .failures(d.failures(|_| 0))
                .failures(files.take_as("files with problems"))
                .supersedes(&["json", "grep"]),
        )
    }

    fn tests_fact(self) -> Option<Fact> {
        let mut t = self.tests;
        let c = t.counts;
        let (line, shape) = if self.report == Report::Jest {
            let [total, passed, failed, pending, todo, suites, failed_suites] =
                c.map(|n| n.unwrap_or(0));
            let mut line = js_test_counts(passed, failed, pending, todo, total);
            line.push_str(" (jest JSON");
            if failed_suites > 0 {
                line.push_str(&format!(
                    ", test files {} failed of {}",
                    thousands(failed_suites),
                    thousands(suites)
                ));
            }
            line.push(')');
            (line, "jest json")
        } else {
            let [tests, passes, failures, pending, ..] = c.map(|n| n.unwrap_or(0));
            let line = test_counts(
                tests.saturating_sub(pending),
                Some(passes),
                failures,
                None,
                &[(pending, "pending")],
                "mocha JSON",
            );
            (line, "mocha json")
        };
        if c.iter().all(Option::is_none) {
            return None;
        }
        let json = json!({
            "shape": shape,
            "counts": c.to_vec(),
            "complete": self.ended,
        });
        let failed = t.failures.total + t.suites.total > 0;
        // jest writes its report on one line, which a search does not narrow; mocha's, a key
        // to a line: the failed tests' names and messages.
        let hint =
            (self.report == Report::Mocha).then_some("'\"fullTitle\": |\"message\": ' -m 100");
        let mut fact = Fact::new(shape, vec![line], json)
            .failures(t.suites.take_as("test files that failed to run"))
            .failures(t.failures.take_as("failed tests"))
            .supersedes(&["json", "grep"]);
        if let Some(hint) = hint {
            fact = fact.hint_if_failed(failed, hint);
        }
        Some(fact)
    }
}

/// A value as written (its escapes left), lossy.
fn text(value: &[u8]) -> String {
    String::from_utf8_lossy(value).into_owned()
}

/// A string value with its escapes decoded and any colours taken out.
fn decoded(value: &[u8]) -> String {
    let raw = String::from_utf8_lossy(value);
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let c = u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{fffd}');
                out.push(c);
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    String::from_utf8_lossy(&crate::text::strip_ansi(out.as_bytes())).into_owned()
}

/// A failure message's detail: its first line, the values it compared (`Expected: 2`,
/// `Received: 3`), and its first place in the project's code.
fn message_detail(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut place = None;
    for line in message.lines().take(MESSAGE_LINES) {
        let t = line.trim();
        // (`● Test suite failed to run` heads a file's own failure: its error follows.)
        if t.is_empty() || t.ends_with("Test suite failed to run") {
            continue;
        }
        if t.starts_with("at ") {
            if place.is_none() {
                place = location(t).map(|p| format!("at {p}"));
            }
            continue;
        }
        let compared = t.starts_with("Expected") || t.starts_with("Received");
        if (out.is_empty() || compared) && out.len() < 3 {
            out.push(cut(t, 300));
        }
    }
    out.extend(place);
    out
}
