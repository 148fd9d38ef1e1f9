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

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;
use serde_json::json;

use super::crash::Crashes;
use super::diagnostics::Tally;
use super::diagnostics::without_numbers;
use super::names::Failures;
use super::pytrace::Raised;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};
use crate::summary::notable::says_it_failed;

/// Records needed to call the output a log (a traceback alone is enough).
const MIN_RECORDS: u64 = 3;
/// How far into a line its level may be.
const LEVEL_WITHIN: usize = 80;
/// How much of the line before a crash report is kept, to name the report.
const BEFORE_KEPT: usize = 1024;
/// How many lines before its report node's `file:line` of a throw may be (the source line,
/// the caret under it, a blank line).
const THROW_SITE_WITHIN: u64 = 5;
/// Distinct spellings of error levels kept for the read-more pattern.
const SPELLINGS_KEPT: usize = 6;
/// How many different warnings a log may have for them to be listed: more are a report's
/// findings (prettier's `[warn] src/a.ts` per file), which head, tail and the counts show.
const WARNINGS_TOLD: usize = 8;
/// The line a Python traceback starts with.
const TRACEBACK: &str = "Traceback (most recent call last):";
/// Lines longer than this are not read for the server's start and stop (they are data).
const LIFECYCLE_WITHIN: usize = 400;
/// How much of a start or stop line is quoted.
const LIFECYCLE_CHARS: usize = 200;

/// A server saying it is up: `ready to accept connections` (PostgreSQL, Redis), `celery@vm
/// ready.`, `Listening at: http://…` (gunicorn), `Running on http://…` (Flask, Uvicorn),
/// `resuming normal operations` (Apache), `Starting development server at …` (Django),
/// `Serving on http://…` (CherryPy, waitress).
const STARTED: &str = r"[Rr]eady to accept|\bready\.?$|\b[Ll]istening (?:at|on)\b|[Rr]unning (?:on|at) https?://|[Ss]erving on https?://|resuming normal operations|[Ss]tarting development server|[Ss]erver started\b|\bStarted \S+ in [0-9.]+ ?s";

/// Why a server stopped: a signal (`caught SIGTERM, shutting down`, `signal 3 (SIGQUIT)
/// received`, honcho's `sending SIGTERM to worker.1`, gunicorn's `Handling signal: term`), a
/// shutdown request (PostgreSQL's `received fast shutdown request`), an interrupt.
const STOP_CAUSE: &str = r"\bSIG(?:TERM|INT|QUIT|KILL|ABRT)\b|[Hh]andling signal|[Rr]eceived signal|[Cc]aught signal|shutdown request|KeyboardInterrupt|Ctrl[-+]C";

/// A server saying it stops, without why (`Shutting down`, celery's `Warm shutdown`).
const STOPPING: &str = r"[Ss]hutting down|\b(?:[Ww]arm|[Cc]old|[Gg]raceful) shutdown\b";

/// The three, in that order (one regex of all three searches a line more slowly than they
/// do).
static LIFECYCLE: LazyLock<[Regex; 3]> =
    LazyLock::new(|| [STARTED, STOP_CAUSE, STOPPING].map(|r| Regex::new(r).expect("valid regex")));

#[derive(Debug, Default)]
pub(crate) struct Log {
    records: u64,
    levels: Tally,
    errors: u64,
    first_error: Option<u64>,
    /// Crash reports read (tracebacks, stack traces, panics).
    crashes_read: u64,
    exceptions: Tally,
    failures: Failures,
    /// Warnings, each message once, and each message without its numbers: listed after the
    /// errors, as the budget allows, when at most `WARNINGS_TOLD` were told apart.
    warnings: Failures,
    warnings_told: Vec<String>,
    crashes: Crashes,
    /// The line of the last record at error level or worse, while it may get a crash report.
    error_line: Option<u64>,
    /// The last warning, which a crash report right under it makes a failure.
    warning: Option<(u64, String)>,
    /// Whose the crash report being read is.
    attach: Attach,
    /// Where it started.
    report_start: u64,
    /// The line before, which may introduce a crash report.
    before: String,
    /// The line before that one was, while `before` holds this line's text (two buffers
    /// swapped, so that keeping the line before costs no copy).
    prior: String,
    /// `During handling of the above exception, another exception occurred:` was the last
    /// line that said something.
    chained: bool,
    /// The last crash report, and how many lines of detail its failure had before it: a
    /// report chained to it takes its place.
    last_report: Option<(Raised, usize)>,
    /// Inside the `Call stack:` of Python's `--- Logging error ---` (a log call that failed):
    /// the innermost frame of the program's own code so far, which made the call.
    call_stack: Option<Option<String>>,
    /// Where node says an uncaught error was thrown, on the lines before its report
    /// (`/app/node_modules/validator/lib/normalizeEmail.js:71`), and the source line under it.
    throw_site: Option<(u64, String, Option<String>)>,
    /// How the error levels were written (`ERROR`, `[error]`), for the read-more pattern.
    spellings: Vec<String>,
    /// A traceback drawn in a box being read (see [`Boxed`]).
    boxed: Option<Boxed>,
    /// The first line that says the server is up.
    started: Option<(u64, String)>,
    /// The last line that says why it stopped, else the last that says it stops (and whether
    /// it said why).
    stopped: Option<(u64, String, bool)>,
}

impl Shape for Log {
    fn line(&mut self, number: u64, text: &str) {
        // A record whose message is a traceback formatted into it (Falcon's `[FALCON] [ERROR]
        // POST /things => Traceback (most recent call last):`, `log.error("failed: %s",
        // traceback.format_exc())`): the record, then its traceback, as if on lines of their
        // own.
        if text.ends_with(TRACEBACK)
            && !self.crashes.is_open()
            && let record = text[..text.len() - TRACEBACK.len()].trim_end()
            && let record = record.trim_end_matches(['=', '>', ':', '-', ' '])
            && !record.trim_start().is_empty()
        {
            self.line(number, record);
            self.line(number, TRACEBACK);
            return;
        }
        if let Some(boxed) = &mut self.boxed {
            if let Some(inner) = text.strip_prefix('│') {
                boxed.line(inner);
                return;
            }
            let boxed = self.boxed.take().unwrap_or_default();
            if let Some(exception) = text.strip_prefix('╰') {
                self.report_start = boxed.start;
                self.attach = if boxed.error {
                    Attach::Failure
                } else {
                    Attach::No
                };
                let mut raised = Raised::at(cut(exception.trim(), 300), boxed.frame);
                raised.source = boxed.source;
                self.raised(number, raised);
                return;
            }
        }
        if let Some(record) = text.strip_prefix("╭ ") {
            self.line(number, record);
            self.boxed = Some(Boxed {
                start: number,
                error: self.error_line == Some(number),
                ..Boxed::default()
            });
            return;
        }
        self.lifecycle(number, text);
        let reading = self.crashes.is_open();
        let (raised, consumed) = self.crashes.line(text);
        if let Some(raised) = raised {
            self.raised(number, raised);
        }
        if self.crashes.is_open() && !reading {
            // A report right under a record (`ERROR …`, then `Traceback …`) is that record's;
            // one chained to the report before (`During handling of the above exception…`)
            // is that one's.
            self.report_start = number;
            let near = |line: Option<u64>| line.is_some_and(|l| l + 2 >= number);
            self.attach = if self.crashes.is_panic_open() {
                Attach::No
            } else if std::mem::take(&mut self.chained) && self.last_report.is_some() {
                Attach::Chained
            } else if near(self.error_line) {
                Attach::Failure
            } else if near(self.warning.as_ref().map(|(l, _)| *l)) {
                Attach::Warning
            } else if introduces_a_report(&self.before) {
                let said = cut(self.before.trim_end(), 300);
                self.before.clear();
                // `Internal Server Error: /notes/41/`, then its traceback.
                Attach::Said(said)
            } else {
                // It names this report or none: not the next one.
                self.before.clear();
                Attach::No
            };
        }
        if consumed {
            return;
        }
        if self.logging_error(text) {
            return;
        }
        if let Some((line, _, source @ None)) = &mut self.throw_site
            && *line + 1 == number
        {
            *source = Some(cut(text.trim(), 200));
        } else if is_throw_site(text) {
            self.throw_site = Some((number, cut(text, 300), None));
        }
        // Kept whole, in one buffer (most lines introduce nothing; it is read when a report
        // opens), and the line before it in the other.
        std::mem::swap(&mut self.before, &mut self.prior);
        self.before.clear();
        self.before
            .push_str(&text[..text.floor_char_boundary(BEFORE_KEPT)]);
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
        if text.starts_with('{') {
            self.json_record(number, text);
            return;
        }
        // Ruby's backtrace under an error (WEBrick's, Rails'): its first frame is where it
        // was raised.
        if self.error_line.is_some_and(|l| l + 1 == number)
            && text.starts_with([' ', '\t'])
            && is_ruby_frame(t)
        {
            if let Some(f) = self.failures.current() {
                f.add_detail(&format!("at {}", cut(t, 200)));
            }
            self.error_line = None;
            return;
        }
        let Some(r) = record(text) else {
            return;
        };
        if r.level == "detail" {
            // `DETAIL:  Key (email)=(a@b) already exists.` goes with the error before.
            if self.error_line.is_some_and(|l| l + 1 == number)
                && let Some(f) = self.failures.current()
            {
                f.add_detail(r.message);
                self.error_line = Some(number);
            }
            return;
        }
        self.warning = (r.level == "warning").then(|| (number, cut(&r.shown(), 300)));
        // A warning is listed when it says it warns or failed: a level written as a sign
        // (Redis's `#`) marks its notices too (`# Server initialized`).
        if r.level == "warning"
            // An XML report's `severity="warning"` is a finding's, not a record's.
            && !r.spelling.contains('"')
            && (r.spelling.contains(char::is_alphabetic)
                || r.message.to_ascii_lowercase().contains("warn")
                || says_it_failed(r.message))
        {
            self.warned(number, &r);
        }
        self.records += 1;
        self.levels.add(r.level);
        if is_error(r.level) {
            self.errors += 1;
            self.first_error.get_or_insert(number);
            if self.spellings.len() < SPELLINGS_KEPT
                && !self.spellings.iter().any(|s| s == r.spelling)
            {
                self.spellings.push(r.spelling.to_owned());
            }
            // Tornado logs a request it answered 5xx at error level, after the traceback
            // that is the failure: the access log counts the request, and the failure logged
            // for it (`Uncaught exception POST /a (127.0.0.1)`) is said to have been answered so
            // (`answered 500`; its time left out, so that failures alike read alike).
            if let Some((request, None)) = super::access::tornado(r.message) {
                let uncaught =
                    format!("Uncaught exception {} {} (", request.method, request.target);
                if let Some(f) = self.failures.current()
                    && (f.name.contains(&uncaught)
                        || f.detail.first().is_some_and(|d| d.contains(&uncaught)))
                {
                    f.add_detail(&format!("answered {}", request.code));
                }
                return;
            }
            self.failures.push(number, "");
            if let Some(f) = self.failures.current() {
                // As the log wrote it, so the line reads (and greps) the same.
                f.add_detail(&r.shown());
                // Uvicorn logs a request that failed, then the error it failed with, which
                // does not say which request that was. (Other servers log the request after
                // the error and its traceback: the request before is another error's.)
                if r.message == "Exception in ASGI application"
                    && let Some(request) = server_error(&self.prior)
                {
                    f.add_detail(request);
                }
            }
            self.error_line = Some(number);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if let Some(raised) = self.crashes.finish() {
            self.raised(u64::MAX, raised);
        }
        if self.records < MIN_RECORDS && self.crashes_read == 0 {
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
        if self.crashes_read > 0 {
            let mut crashes = plural(self.crashes_read, "exception", "exceptions");
            if let Some(kinds) = self.exceptions.render() {
                crashes.push_str(&format!(" ({kinds})"));
            }
            parts.push(crashes);
        }
        // A server's start and stop, when the output is a log of records or of tracebacks
        // (CherryPy's records name no level: `[07/Dec/2026:03:46:28] ENGINE Bus STARTED`).
        let (started, stopped) = if self.records >= MIN_RECORDS || self.crashes_read > 0 {
            (
                self.started.take(),
                self.stopped.take().map(|(l, t, _)| (l, t)),
            )
        } else {
            (None, None)
        };
        let said: Vec<String> = [("started", &started), ("stopping", &stopped)]
            .iter()
            .filter_map(|(what, at)| {
                at.as_ref()
                    .map(|(l, _)| format!("{what} L{}", thousands(*l)))
            })
            .collect();
        if !said.is_empty() {
            parts.push(said.join(", "));
        }
        let place = |at: &Option<(u64, String)>| {
            at.as_ref().map_or(
                serde_json::Value::Null,
                |(l, t)| json!({"line": l, "text": t}),
            )
        };
        let line = format!("log: {}", parts.join("; "));
        let json = json!({
            "shape": "log",
            "records": self.records,
            "levels": self.levels.json(),
            "errors": self.errors,
            "exceptions_raised": self.crashes_read,
            "exceptions": self.exceptions.json(),
            "started": place(&started),
            "stopping": place(&stopped),
        });
        // A spelling that starts with `^` is its pattern already (see [`lettered`]).
        let mut pattern: Vec<String> = self
            .spellings
            .iter()
            .map(|s| {
                if s.starts_with('^') {
                    s.clone()
                } else {
                    regex::escape(s)
                }
            })
            .collect();
        if self.crashes_read > 0 {
            pattern.push("^Traceback|Exception|Error:|^panic|panicked at".to_owned());
        }
        let failed = !self.failures.is_empty();
        let hint = format!("'{}' -A 3", pattern.join("|").replace('\'', "."));
        let failures = self.failures.take_as("errors logged and exceptions raised");
        let warnings = if self.warnings_told.len() <= WARNINGS_TOLD {
            let mut warnings = self.warnings.take_as("warnings logged, each message once");
            // Shown in the room the errors leave.
            warnings.spare = true;
            warnings
        } else {
            Failures::default()
        };
        Some(
            Fact::new("log", vec![line], json)
                .quoting(started.into_iter().chain(stopped).map(|(_, t)| t).collect())
                .failures(failures)
                .failures(warnings)
                .hint_if_failed(failed && !pattern.is_empty(), &hint)
                .defers(),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.levels.approx_heap()
            + self.exceptions.approx_heap()
            + self.failures.approx_heap()
            + self.warnings.approx_heap()
            + self
                .warnings_told
                .iter()
                .map(|w| w.capacity() + 24)
                .sum::<usize>()
            + self
                .spellings
                .iter()
                .map(|s| s.capacity() + 24)
                .sum::<usize>()
            + self.started.as_ref().map_or(0, |s| s.1.capacity())
            + self.stopped.as_ref().map_or(0, |s| s.1.capacity())
            + self.boxed.as_ref().map_or(0, Boxed::approx_heap)
    }
}

/// A Python traceback drawn in a box under the record that logged it, as Sanic prints it
/// (tracerite): `╭ <record>`, then `│ server.py:38 book_view:` for each frame, the innermost's
/// source under it with a `💣` at the line that raised, and `╰ KeyError: 4`.
#[derive(Debug, Default)]
struct Boxed {
    start: u64,
    /// The record was at error level or worse.
    error: bool,
    /// The innermost frame so far (`server.py:38 book_view`), and the line that raised.
    frame: Option<String>,
    source: Option<String>,
    /// The source line being read, joined again where the box wrapped it.
    statement: String,
}

/// How much of a source line drawn in a box is joined again.
const STATEMENT_CHARS: usize = 400;

impl Boxed {
    /// A line inside the box, after its `│`. Lines are wrapped at the box's width: a line that
    /// is neither a frame nor indented source goes on the one before.
    fn line(&mut self, inner: &str) {
        // The box's gutter.
        let inner = inner.strip_prefix(' ').unwrap_or(inner);
        let (said, bomb) = match inner.trim_end().strip_suffix('💣') {
            Some(said) => (said.trim_end(), true),
            None => (inner, false),
        };
        let mut words = said.splitn(3, ' ');
        if let (Some(place), Some(function)) = (words.next(), words.next())
            && let Some((_, line)) = place.rsplit_once(':')
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
            && let Some(function) = function.strip_suffix(':')
        {
            self.frame = Some(cut(&format!("{place} {function}"), 200));
            self.source = None;
            self.statement.clear();
            self.statement
                .push_str(words.next().unwrap_or("").trim_start());
        } else if said.starts_with("  ") {
            self.statement.clear();
            self.statement.push_str(said.trim_start());
        } else if self.statement.len() < STATEMENT_CHARS {
            self.statement.push_str(said);
        }
        if bomb && !self.statement.trim().is_empty() {
            self.source = Some(cut(self.statement.trim(), 200));
        }
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        [&self.frame, &self.source]
            .iter()
            .map(|s| s.as_ref().map_or(0, String::capacity))
            .sum::<usize>()
            + self.statement.capacity()
    }
}

/// Whose a crash report is.
#[derive(Debug, Default, PartialEq, Eq)]
enum Attach {
    #[default]
    No,
    /// The failure before: the error record's.
    Failure,
    /// The report before, which it was raised while handling.
    Chained,
    /// The warning before, which it makes a failure.
    Warning,
    /// The line before, which introduced it.
    Said(String),
}

impl Log {
    /// A warning record: listed when its message, its numbers aside, is new.
    fn warned(&mut self, number: u64, r: &Record) {
        if self.warnings_told.len() > WARNINGS_TOLD {
            return;
        }
        let told = without_numbers(r.message);
        if !self.warnings_told.contains(&told) {
            self.warnings_told.push(told);
            self.warnings.push(number, "");
            if let Some(f) = self.warnings.current() {
                f.add_detail(&r.shown());
            }
        }
    }

    /// Notes the server's start (the first line saying it is up) and stop (the last line
    /// saying why it stopped, else the last saying it stops).
    fn lifecycle(&mut self, number: u64, text: &str) {
        if text.len() > LIFECYCLE_WITHIN {
            return;
        }
        let [started, cause, stopping] = &*LIFECYCLE;
        // A record from its level on, as printed (`LOG:  received fast shutdown request`): its
        // time and process say nothing here, and a line of head or tail that ends so is it.
        let quote = || {
            let from = record(text)
                .and_then(|r| text.find(r.spelling))
                .unwrap_or(0);
            cut(text[from..].trim_end(), LIFECYCLE_CHARS)
        };
        if self.started.is_none() && started.is_match(text) {
            self.started = Some((number, quote()));
            return;
        }
        let cause = cause.is_match(text);
        let why_said = self.stopped.as_ref().is_some_and(|s| s.2);
        if cause || (!why_said && stopping.is_match(text)) {
            self.stopped = Some((number, quote(), cause));
        }
    }

    /// Python's report of a log call that failed (`--- Logging error ---`, the traceback of
    /// the formatting error, then `Call stack:`, `Message: …` and `Arguments: …`): the call
    /// that failed is the frame of the program's own code that made it, and what it passed.
    /// Whether the line was part of it.
    fn logging_error(&mut self, text: &str) -> bool {
        let Some(own) = &mut self.call_stack else {
            if text == "Call stack:"
                && let Some(f) = self.failures.current()
                && f.name == "--- Logging error ---"
            {
                self.call_stack = Some(None);
                return true;
            }
            return false;
        };
        if let Some(frame) = text.strip_prefix("  File \"") {
            if super::pytrace::is_own(frame.split('"').next().unwrap_or("")) {
                *own = Some(cut(text.trim(), 300));
            }
            return true;
        }
        if text.starts_with("    ") {
            return true;
        }
        if text.starts_with("Message: ") {
            let own = own.take();
            if let Some(f) = self.failures.current() {
                // The formatting error's frames are the logging module's: the call is the news.
                f.detail.truncate(1);
                f.detail.extend(own);
                f.add_detail(text);
            }
            return true;
        }
        self.call_stack = None;
        if text.starts_with("Arguments: ") {
            if let Some(f) = self.failures.current() {
                f.add_detail(text);
            }
            return true;
        }
        false
    }

    /// A record written as JSON (pino, bunyan, zap, structlog, logrus's JSON formatter):
    /// `{"level":50,"msg":"…","err":{"type":"TypeError","message":"…","stack":"…"}}`.
    fn json_record(&mut self, number: u64, text: &str) {
        // The level is read from the text; only a record at error level or worse is parsed.
        let Some(level) = ["\"level\":", "\"severity\":", "\"lvl\":"]
            .iter()
            .find_map(|k| text.find(k).map(|at| &text[at + k.len()..]))
            .and_then(scanned_level)
        else {
            return;
        };
        self.records += 1;
        self.levels.add(level);
        if !is_error(level) {
            return;
        }
        let Ok(serde_json::Value::Object(r)) = serde_json::from_str::<serde_json::Value>(text)
        else {
            return;
        };
        self.errors += 1;
        self.first_error.get_or_insert(number);
        let msg = text_of(r.get("msg").or_else(|| r.get("message")));
        let err = r
            .get("err")
            .or_else(|| r.get("error"))
            .filter(|e| e.is_object());
        let raised = err.map(|e| {
            let (kind, message) = (text_of(e.get("type")), text_of(e.get("message")));
            (format!("{kind}: {message}"), message == msg)
        });
        // The message, or the error's type and message when it is the error's message.
        let mut said = match &raised {
            Some((raised, true)) => raised.clone(),
            _ => msg.to_owned(),
        };
        if let Some(req) = r.get("req") {
            let (method, url) = (text_of(req.get("method")), text_of(req.get("url")));
            if !url.is_empty() {
                said = format!("{method} {url}: {said}");
            }
        }
        self.failures.push(number, "");
        let Some(f) = self.failures.current() else {
            return;
        };
        f.add_detail(&cut(&said, 300));
        if let Some((raised, said_already)) = raised {
            if !said_already {
                f.add_detail(&cut(&raised, 300));
            }
            let own = text_of(err.and_then(|e| e.get("stack")))
                .lines()
                .find_map(|frame| super::jest::location(frame.trim()));
            if let Some(own) = own {
                f.add_detail(&format!("at {own}"));
            }
        }
    }

    /// A crash report, complete: a failure of its own, or the detail of the one before.
    fn raised(&mut self, number: u64, mut raised: Raised) {
        self.crashes_read += 1;
        self.exceptions.add(kind_of(&raised.exception));
        // The record that logged the exception names it (`Internal Server Error: /notes/41/`);
        // the exception, how it failed, is its detail.
        match std::mem::take(&mut self.attach) {
            Attach::Chained => {
                if let Some((first, before)) = self.last_report.take()
                    && let Some(f) = self.failures.current()
                {
                    f.detail.truncate(before);
                    f.message_form = None;
                    raised = first.chained(raised);
                }
            }
            Attach::Failure if !self.failures.is_empty() => {
                if let Some(f) = self.failures.current()
                    && f.name.is_empty()
                    && !f.detail.is_empty()
                {
                    f.name = f.detail.remove(0);
                    f.message_form = None;
                }
            }
            Attach::Warning if let Some((line, warning)) = self.warning.take() => {
                self.failures.push(line, &warning);
            }
            // A JavaScript error's header is the line before its frames: no name of its own.
            Attach::Said(said) if said != raised.exception => {
                self.failures
                    .push(self.report_start.saturating_sub(1), &said);
            }
            _ => self.failures.push(self.report_start.min(number), ""),
        }
        let thrown = self
            .throw_site
            .take()
            .filter(|(line, _, _)| line + THROW_SITE_WITHIN >= self.report_start)
            .and_then(|(_, place, source)| Some(format!("thrown at {place}: {}", source?)));
        if let Some(f) = self.failures.current() {
            let before = f.detail.len();
            for d in raised.detail() {
                f.add_detail(d);
            }
            if let Some(thrown) = &thrown {
                f.add_detail(thrown);
            }
            self.last_report = Some((raised, before));
        }
    }
}

/// The levels a record may have, as their names are written in capitals, and the name each is
/// counted under.
const LEVELS: [(&str, &str); 24] = [
    ("TRACE", "trace"),
    ("DEBUG", "debug"),
    ("INFO", "info"),
    // PostgreSQL's level for what an administrator would want to know (`LOG:  checkpoint …`).
    ("LOG", "log"),
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
    ("DETAIL", "detail"),
    ("HINT", "detail"),
    ("STATEMENT", "detail"),
    ("CONTEXT", "detail"),
    ("QUERY", "detail"),
    ("LOCATION", "detail"),
];

/// The request a line of an access log records, as logged, when the server failed it (status
/// 5xx): `"GET /report HTTP/1.1" 500 Internal Server Error`, from its peer on when it is logged
/// just before (Uvicorn's `127.0.0.1:49654 - "GET …`).
fn server_error(line: &str) -> Option<&str> {
    let at = memchr::memmem::find(line.as_bytes(), b" \"")? + 1;
    let request = super::access::request(&line[at..])?;
    (request.code >= 500).then(|| line[super::access::peer_before(line, at)..].trim_end())
}

/// A frame of Ruby's backtrace: `server.rb:52:in `block in <main>'` (`'block …'` since 3.4).
fn is_ruby_frame(t: &str) -> bool {
    let Some(at) = t.find(":in `").or_else(|| t.find(":in '")) else {
        return false;
    };
    t[..at].rsplit_once(':').is_some_and(|(path, line)| {
        !path.is_empty()
            && !path.contains(' ')
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
    })
}

/// node's line naming where an uncaught error was thrown: `path:line`, alone on its line.
fn is_throw_site(text: &str) -> bool {
    text.as_bytes().last().is_some_and(u8::is_ascii_digit)
        && !text.contains(' ')
        && text.rsplit_once(':').is_some_and(|(path, line)| {
            !path.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
        })
}

/// A line that says a crash report follows (`Internal Server Error: /notes/41/`, `--- Logging
/// error ---`): a record without a level.
fn introduces_a_report(line: &str) -> bool {
    !line.starts_with([' ', '\t'])
        && [
            "Error",
            "error",
            "Exception",
            "exception",
            "failed",
            "Failed",
        ]
        .iter()
        .any(|w| line.contains(w))
}

/// What kind of exception a crash report raised, for the tally: its class
/// (`sqlite3.OperationalError`, `java.lang.NullPointerException` of `Exception in thread
/// "main" java.lang…`), `panic` for a Go panic, else the message up to its first colon
/// (a Rust panic's `index out of bounds`).
fn kind_of(exception: &str) -> &str {
    if exception.contains("panic: ")
        || exception.contains(": panic serving ")
        || exception.contains(" panicked at ")
    {
        return "panic";
    }
    let e = exception
        .strip_prefix("Exception in thread \"")
        .and_then(|r| r.split_once("\" "))
        .map_or(exception, |(_, r)| r);
    let e = e.strip_prefix("Uncaught ").unwrap_or(e);
    let head = e.split(':').next().unwrap_or(e);
    if head.chars().count() > 60 {
        return &head[..head.char_indices().nth(60).map_or(head.len(), |(i, _)| i)];
    }
    head
}

/// A JSON value's text, empty when it is none.
fn text_of(v: Option<&serde_json::Value>) -> &str {
    v.and_then(|v| v.as_str()).unwrap_or("")
}

/// The level of a JSON record from the text after its key (`50,"time"…`, ` "error",…`):
/// a name in any case, or pino's and bunyan's numbers (10 trace, 20 debug, 30 info, 40 warn,
/// 50 error, 60 fatal).
fn scanned_level(after: &str) -> Option<&'static str> {
    let v = after.trim_start();
    if let Some(quoted) = v.strip_prefix('"') {
        let name = quoted.split('"').next()?;
        return LEVELS
            .iter()
            .find(|(written, _)| written.eq_ignore_ascii_case(name))
            .map(|(_, counted)| *counted);
    }
    let end = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    Some(match v[..end].parse::<u64>().ok()? {
        0..=14 => "trace",
        15..=24 => "debug",
        25..=34 => "info",
        35..=44 => "warning",
        45..=54 => "error",
        _ => "fatal",
    })
}

/// Error level or worse: a failure.
fn is_error(level: &str) -> bool {
    matches!(
        level,
        "error" | "critical" | "alert" | "emergency" | "fatal"
    )
}

/// A log record, as [`record`] reads it.
#[derive(Debug, PartialEq, Eq)]
struct Record<'a> {
    /// As counted (`error`, `warning`), or `detail` for a line that details the record before
    /// (PostgreSQL's `DETAIL:`, `HINT:`, `STATEMENT:`).
    level: &'static str,
    /// As written (`[error]`, `ERROR`).
    spelling: &'a str,
    /// What follows the level, without the fields that say nothing (`6965#6965: *2`).
    message: &'a str,
    /// The record from its level on.
    whole: &'a str,
    /// The length of the level's word.
    word_len: usize,
}

impl Record<'_> {
    /// The record from its level on, as written when no field was left out (made only for
    /// the records shown: most are not).
    fn shown(&self) -> Cow<'_, str> {
        let whole = self.whole;
        if whole.ends_with(self.message) && whole.len() - self.message.len() <= self.word_len + 3 {
            Cow::Borrowed(whole)
        } else {
            Cow::Owned(format!("{} {}", self.spelling, self.message))
        }
    }
}

/// A log record: its level (as counted), the level as written, and the message after it.
/// The level is one of the first words, within `LEVEL_WITHIN` bytes, after nothing but what
/// starts a record (a date, a time, a process id, bracketed fields, at most one other word
/// such as a host or a logger's name): in capitals (`ERROR`, `[ERROR]`, `ERROR:root:…`), or in
/// any case when bracketed (`[error]`, `[core:error]`) or named (`level=error`).
fn record(text: &str) -> Option<Record<'_>> {
    if let Some(r) = lettered(text)
        .or_else(|| redis(text))
        .or_else(|| uwsgi(text))
    {
        return Some(r);
    }
    let head = &text.as_bytes()[..text.len().min(LEVEL_WITHIN)];
    // Cheap first: most lines have no capital letter or `=`/`[` there.
    if !head
        .iter()
        .any(|b| b.is_ascii_uppercase() || matches!(b, b'[' | b'='))
    {
        return None;
    }
    let mut others = 0;
    let mut tagged = false;
    for (start, word) in words(text) {
        let at = start + word.len() + 1;
        if start >= LEVEL_WITHIN {
            return None;
        }
        if word.is_empty() {
            continue;
        }
        let after_tag = std::mem::replace(&mut tagged, is_tag(word));
        if let Some(level) = level_of(word).or_else(|| after_tag.then(|| tagged_level(word))?) {
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
                word.split([':', '/'])
                    .next()
                    .unwrap_or(word)
                    .trim_end_matches([',', '|'])
            };
            let trimmed = trim_message(message);
            return Some(Record {
                level,
                spelling,
                message: trimmed,
                whole: text[start..].trim_end(),
                word_len: word.len(),
            });
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

/// A record whose level is a letter that starts its header, closed by `] `: Tornado's
/// (Python's logging with `[%(levelname)1.1s %(asctime)s %(module)s:%(lineno)d]`: `[E 261206
/// 11:35:52 web:1947] Uncaught exception GET /`) and glog's, which klog and Kubernetes keep
/// (`E1206 11:35:52.123456    1234 server.go:42] dial tcp: refused`). The level's spelling is
/// the pattern that finds its records (`^\[E ` or `^E[0-9]{4} `), so it starts with `^`.
fn lettered(text: &str) -> Option<Record<'_>> {
    let b = text.as_bytes();
    let digits = |range: std::ops::Range<usize>| {
        b.get(range)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    let (letter, spelling) = match b {
        // `[E 261206 11:…`: the date as six digits.
        [b'[', l @ (b'D' | b'I' | b'W' | b'E' | b'C'), b' ', ..]
            if digits(3..9) && b.get(9) == Some(&b' ') =>
        {
            (*l, "^\\[[EC] ")
        }
        // `E1206 11:…`: month and day, then the hour.
        [l @ (b'I' | b'W' | b'E' | b'F'), ..]
            if digits(1..5)
                && b.get(5) == Some(&b' ')
                && digits(6..8)
                && b.get(8) == Some(&b':') =>
        {
            (*l, "^[EF][0-9]{4} ")
        }
        _ => return None,
    };
    let end = memchr::memmem::find(&b[..b.len().min(LEVEL_WITHIN)], b"] ")? + 2;
    let level = match letter {
        b'D' => "debug",
        b'I' => "info",
        b'W' => "warning",
        b'E' => "error",
        b'C' => "critical",
        _ => "fatal",
    };
    Some(Record {
        level,
        spelling,
        message: text[end..].trim_end(),
        whole: text.trim_end(),
        word_len: end,
    })
}

/// A Redis server's record: `30306:M 07 Dec 2026 13:15:21.363 # Background saving error`, its
/// process and role, date, and level as a sign (`.` debug, `-` verbose, `*` notice, `#`
/// warning). Redis has no level above warning: a warning that says in failure words that
/// something failed (`Can't open …: Permission denied`, `Error condition on socket for SYNC`)
/// is its error, unless it says it is a warning (`WARNING Memory overcommit must be enabled!
/// … may fail …`).
fn redis(text: &str) -> Option<Record<'_>> {
    let b = text.as_bytes();
    let pid = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if pid == 0
        || b.get(pid) != Some(&b':')
        || !matches!(b.get(pid + 1), Some(b'X' | b'C' | b'S' | b'M'))
    {
        return None;
    }
    // ` 07 Dec 2026 13:15:21.363 # `: the date, then the sign between spaces.
    let date = text.get(pid + 2..pid + 28)?;
    let sign = *b.get(pid + 28)?;
    if !date.starts_with(' ')
        || !date.ends_with(' ')
        || date.as_bytes()[15] != b':'
        || b.get(pid + 29) != Some(&b' ')
    {
        return None;
    }
    let message = text[pid + 30..].trim_end();
    let level = match sign {
        b'.' => "debug",
        b'-' | b'*' => "info",
        b'#' if !message.starts_with("WARNING") && says_it_failed(message) => "error",
        b'#' => "warning",
        _ => return None,
    };
    Some(Record {
        level,
        spelling: " # ",
        message,
        whole: text[pid + 28..].trim_end(),
        word_len: 1,
    })
}

/// uWSGI's lines about its workers, which name no level: a worker's death (`DAMN ! worker 1
/// (pid: 27876) died, killed by signal 6 :( trying respawn ...`) and its killing for taking
/// too long (`Mon Dec  7 16:29:44 2026 - *** HARAKIRI ON WORKER 1 (pid: 27934, try: 1) ***`),
/// both errors.
fn uwsgi(text: &str) -> Option<Record<'_>> {
    const HARAKIRI: &str = "*** HARAKIRI ON WORKER ";
    if !text.as_bytes().first().is_some_and(u8::is_ascii_uppercase) {
        return None;
    }
    let (spelling, at) = if text.starts_with("DAMN ! ") {
        ("^DAMN ! ", "DAMN ! ".len())
    } else {
        // After its date: `Mon Dec  7 16:29:44 2026 - `.
        let head = &text[..text.floor_char_boundary(64)];
        let start = head.find(HARAKIRI)?;
        ("HARAKIRI ON WORKER", start + "*** ".len())
    };
    let message = text[at..].trim_end();
    Some(Record {
        level: "error",
        spelling,
        message,
        // `DAMN !` is shown with the message it starts.
        whole: if spelling.starts_with('^') {
            text.trim_end()
        } else {
            message
        },
        word_len: 4,
    })
}

/// The words of `text` between single spaces, each with where it starts (a fast search per
/// word: `str::split` costs more to start than the few short words read here take).
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = Some(0);
    std::iter::from_fn(move || {
        let from = start?;
        let end = memchr::memchr(b' ', &text.as_bytes()[from..]).map(|i| from + i);
        start = end.map(|e| e + 1);
        // A space is one byte of its own: the cuts are at characters.
        Some((from, &text[from..end.unwrap_or(text.len())]))
    })
}

/// The level a word names: `ERROR`, `ERROR:`, `[ERROR]`, `[error]`, `[core:error]`,
/// `level=error`, `<error>`.
fn level_of(word: &str) -> Option<&'static str> {
    // Most words are no level: one without a capital, a bracket or an `=` is none.
    let first = word.bytes().next()?;
    if !(first.is_ascii_uppercase() || matches!(first, b'[' | b'<') || word.contains('=')) {
        return None;
    }
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
    // `ERROR:root:…`, celery's `ERROR/ForkPoolWorker-2]`.
    let capitals = word.trim_end_matches([':', ',', '|']);
    let capitals = capitals
        .bytes()
        .position(|b| b == b':' || b == b'/')
        .map_or(capitals, |end| &capitals[..end]);
    LEVELS.iter().find_map(|&(name, counted)| match any_case {
        Some(w) => w.eq_ignore_ascii_case(name).then_some(counted),
        None => (capitals == name).then_some(counted),
    })
}

/// A program's tag with its process: `unbound[27553:0]`, `sshd[812]:`.
fn is_tag(word: &str) -> bool {
    let word = word.strip_suffix(':').unwrap_or(word);
    word.ends_with(']') && word.find('[').is_some_and(|open| open > 0)
}

/// The level of a word in lower case after a program's tag (`unbound[27553:0] error: …`),
/// which says it with its colon.
fn tagged_level(word: &str) -> Option<&'static str> {
    let name = word.strip_suffix(':')?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    LEVELS
        .iter()
        .find_map(|&(level, counted)| name.eq_ignore_ascii_case(level).then_some(counted))
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
/// separators, words without a letter (`- `, `6965#6965:`, `*2`) and bracketed fields that name
/// a process or a peer by number (Apache's `[pid 8571:tid 8578] [client 127.0.0.1:57004]`).
fn trim_message(message: &str) -> &str {
    let mut rest = message.trim_start_matches([' ', ':', '-', '|', ']']);
    loop {
        if let Some(field) = rest.strip_prefix('[')
            && let Some((inside, after)) = field.split_once(']')
            && let Some((name, value)) = inside.split_once(' ')
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphabetic())
            && value.bytes().any(|b| b.is_ascii_digit())
        {
            rest = after.trim_start();
            continue;
        }
        match rest.split_once(' ') {
            Some((word, after))
                if !word.is_empty() && !word.bytes().any(|b| b.is_ascii_alphabetic()) =>
            {
                rest = after.trim_start();
            }
            _ => break,
        }
    }
    rest.trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_is_the_first_sign_of_life_and_a_stop_its_cause() {
        let lines = [
            "2026-12-02 07:02:42.508 UTC [15141] LOG:  starting PostgreSQL 15.18",
            "1648:M 03 Dec 2026 13:42:19.636 * Ready to accept connections",
            " * Running on http://127.0.0.1:5000",
            "[2026-12-03 13:42:20] INFO:huey.consumer:MainThread:Received SIGTERM",
            "[2026-12-03 13:42:20] INFO:huey.consumer:MainThread:Shutting down",
            "1648:M 03 Dec 2026 13:43:11.063 # Redis is now ready to exit, bye bye...",
            "2026/12/02 05:21:51 [notice] 6964#6964: signal 17 (SIGCHLD) received from 30",
        ];
        let mut log = Log::default();
        for (k, line) in lines.iter().enumerate() {
            log.lifecycle(k as u64 + 1, line);
        }
        assert_eq!(log.started.map(|s| s.0), Some(2));
        // Why it stopped, not the steps of stopping after it.
        assert_eq!(log.stopped.map(|s| s.0), Some(4));
        let mut plain = Log::default();
        plain.lifecycle(1, "INFO: order 12 is ready for pickup");
        plain.lifecycle(2, "[INFO] Shutting down: Master");
        assert_eq!(plain.started, None);
        assert_eq!(plain.stopped.map(|s| s.0), Some(2));
    }

    #[test]
    fn records_of_many_servers_and_loggers() {
        let cases = [
            (
                "DAMN ! worker 1 (pid: 27876) died, killed by signal 6 :( trying respawn ...",
                Some((
                    "error",
                    "^DAMN ! ",
                    "worker 1 (pid: 27876) died, killed by signal 6 :( trying respawn ...",
                )),
            ),
            (
                "Mon Dec  7 16:29:44 2026 - *** HARAKIRI ON WORKER 1 (pid: 27934, try: 1) ***",
                Some((
                    "error",
                    "HARAKIRI ON WORKER",
                    "HARAKIRI ON WORKER 1 (pid: 27934, try: 1) ***",
                )),
            ),
            (
                "2026/12/02 05:21:48 [error] 6965#6965: *2 open() \"/a\" failed (2: No such file)",
                Some(("error", "[error]", "open() \"/a\" failed (2: No such file)")),
            ),
            (
                "Dec 07 23:07:11 unbound[27553:0] error: SERVFAIL <sentry.io. A IN>: failed",
                Some(("error", "error", "SERVFAIL <sentry.io. A IN>: failed")),
            ),
            ("unbound[27553:0] failure: x", None),
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
                "30306:M 07 Dec 2026 13:15:23.425 # Can't open or create append-only dir \
                 appendonlydir: Permission denied",
                Some((
                    "error",
                    " # ",
                    "Can't open or create append-only dir appendonlydir: Permission denied",
                )),
            ),
            (
                "30306:M 07 Dec 2026 13:15:18.686 # Server initialized",
                Some(("warning", " # ", "Server initialized")),
            ),
            (
                "30306:S 07 Dec 2026 13:15:26.249 * Connecting to MASTER 127.0.0.1:6399",
                Some(("info", " # ", "Connecting to MASTER 127.0.0.1:6399")),
            ),
            (
                "2026-12-02 05:20:08.690 ERROR 1234 --- [main] c.e.App : boom",
                Some(("error", "ERROR", "[main] c.e.App : boom")),
            ),
            (
                "[Wed Dec 02 05:20:08.123 2026] [core:error] [pid 12] AH00037: x",
                Some(("error", "[core:error]", "AH00037: x")),
            ),
            (
                "[Thu Dec 03 08:17:01.5 2026] [proxy:error] [pid 8515:tid 8540] [client \
                 127.0.0.1:57366] (111)Connection refused: AH00957: http: attempt failed",
                Some((
                    "error",
                    "[proxy:error]",
                    "(111)Connection refused: AH00957: http: attempt failed",
                )),
            ),
            (
                "[E 261206 11:35:52 web:1947] Uncaught exception GET / (127.0.0.1)",
                Some(("error", "^\\[[EC] ", "Uncaught exception GET / (127.0.0.1)")),
            ),
            (
                "[W 261206 11:35:53 web:2418] 404 GET /favicon.ico (127.0.0.1) 6.68ms",
                Some((
                    "warning",
                    "^\\[[EC] ",
                    "404 GET /favicon.ico (127.0.0.1) 6.68ms",
                )),
            ),
            (
                "E1206 11:35:52.123456    1234 server.go:42] dial tcp: connection refused",
                Some(("error", "^[EF][0-9]{4} ", "dial tcp: connection refused")),
            ),
            (
                "WARNING: This is a development server.",
                Some(("warning", "WARNING", "This is a development server.")),
            ),
        ];
        for (line, want) in cases {
            let got = record(line).map(|r| (r.level, r.spelling, r.message));
            assert_eq!(got, want, "{line}");
        }
        for line in [
            "error[E0308]: mismatched types",
            "src/a.c:3:1: error: expected ';'",
            "test result: FAILED. 1 passed; 2 failed",
            "For more INFO see the manual",
            "npm ERR! code E404",
            "make: *** [Makefile:9: all] Error 1",
            "  at Object.<anonymous> (ERROR.js:1:1)",
            "[E 1] no date",
            "E1206 no time]",
            "[E 26120 11:35:52 web:1] five digits",
            "EXIT 0",
        ] {
            assert!(record(line).is_none(), "{line}");
        }
    }
}
