//! HTTP access logs: requests in the Common or Combined Log Format that nginx, Apache and most
//! servers write, Python's `http.server` (`HOST - - [DATE] "GET /a HTTP/1.1" 404 -`) and
//! Uvicorn's (`INFO:     HOST:PORT - "GET /a HTTP/1.1" 404 Not Found`). A
//! server log is no content: its failed requests are what a reader looks for, and they carry no
//! failure word. Counted: requests by status and by method; the first request of each error
//! status (4xx, 5xx) is a failure, with the server's own message for it when it printed one on
//! the line before (`code 501, message Unsupported method ('POST')`), or the framework's reason
//! for it there (Django's `Forbidden (CSRF cookie not set.): /notes/new/`, `Bad Request: /x`).
//!
//! A server that logs JSON records (pino, which Fastify and pino-http use, and bunyan) logs a
//! request's end as a record with `res.statusCode`, and its method and URL either in the same
//! record (`req`) or in an earlier one of the same request id (Fastify's `incoming request`);
//! what it logged for that request in between (`Route GET:/admin not found`) is its reason.
//!
//! Recognised when at least `MIN_REQUESTS` lines are requests.

use std::collections::HashMap;

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

const MIN_REQUESTS: u64 = 3;
/// How many JSON requests begun and not yet ended are remembered (a log of beginnings whose ends
/// were never logged must not grow without end).
const PENDING_MAX: usize = 1024;

#[derive(Debug, Default)]
pub(crate) struct AccessLog {
    requests: u64,
    statuses: Tally,
    methods: Tally,
    errors: u64,
    /// The error statuses whose first request is kept.
    seen: Vec<u16>,
    failures: Failures,
    /// `code 501, message …` on the line before, waiting for its request.
    message: Option<(u16, String)>,
    /// A line before that ends in `: PATH` (`Not Found: /wp-login.php`): the reason for the
    /// request to PATH that comes next.
    reason: Option<String>,
    /// JSON records: requests begun, by request id: `GET /report`, and what was logged for it
    /// since.
    pending: HashMap<String, (String, Option<String>)>,
    /// Whether the requests were JSON records (the read-more hint differs).
    json: bool,
}

impl Shape for AccessLog {
    fn line(&mut self, number: u64, text: &str) {
        let message = self.message.take();
        let reason = self.reason.take();
        // Cheap first: every access-log line has `] ` after its date.
        static AFTER_DATE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"] "));
        if text.starts_with('{') {
            self.json_record(number, text);
            return;
        }
        let Some(at) = AFTER_DATE.find(text.as_bytes()) else {
            // Uvicorn's has no date: `INFO:     127.0.0.1:38378 - "GET /a HTTP/1.1" 404 Not
            // Found`, its status's reason as the last words.
            static AFTER_PEER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
                std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b" - \""));
            if text.starts_with("INFO:")
                && let Some(at) = AFTER_PEER.find(text.as_bytes())
                && let rest = &text[at + 3..]
                && let Some((method, _, code, _)) = request(rest)
            {
                self.request(number, method, code, || cut(rest.trim_end(), REASON_CHARS));
            } else if reason_path(text).is_some() {
                self.reason = Some(cut(text, REASON_CHARS));
            }
            return;
        };
        let rest = &text[at + 2..];
        if let Some(code) = rest.strip_prefix("code ").and_then(status) {
            self.message = Some((code, rest.to_owned()));
            return;
        }
        let Some((method, request, code, size)) = request(rest) else {
            return;
        };
        // As logged: the request, its status and the size of the answer (`0` or `-`: none).
        let failure = || match size {
            Some(size) => format!("{request} {code} {size}"),
            None => format!("{request} {code}"),
        };
        if !self.request(number, method, code, failure) {
            return;
        }
        if let Some((_, said)) = message.filter(|(said, _)| *said == code)
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(&said);
        }
        let path = request
            .split(' ')
            .nth(1)
            .map(|p| p.split('?').next().unwrap_or(p));
        // A reason cut to its length names no path any more.
        if let Some(said) = reason
            && path.is_some()
            && reason_path(&said) == path
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(&said);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.requests < MIN_REQUESTS {
            return None;
        }
        let mut line = format!(
            "access log: {} requests, {} failed (4xx/5xx)",
            thousands(self.requests),
            thousands(self.errors)
        );
        if let Some(statuses) = self.statuses.render() {
            line.push_str(&format!("; status: {statuses}"));
        }
        if let Some(methods) = self.methods.render() {
            line.push_str(&format!("; methods: {methods}"));
        }
        let hint = if self.json {
            "'\"statusCode\":[45][0-9]{2}'"
        } else {
            "'\" [45][0-9]{2} |\\] code [45][0-9]{2}' -B 1"
        };
        let json = json!({
            "shape": "access log",
            "requests": self.requests,
            "failed": self.errors,
            "statuses": self.statuses.json(),
            "methods": self.methods.json(),
        });
        let failures = self.failures.take_as("first request of each error status");
        Some(
            Fact::new("access log", vec![line], json)
                .failures(failures)
                .hint(hint)
                .log(),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.statuses.approx_heap()
            + self.methods.approx_heap()
            + self.failures.approx_heap()
            + self.seen.capacity() * 2
            + self.message.as_ref().map_or(0, |(_, m)| m.capacity())
            + self.reason.as_ref().map_or(0, String::capacity)
            + self
                .pending
                .iter()
                .map(|(id, (request, said))| {
                    id.capacity() + request.capacity() + said.as_ref().map_or(0, String::capacity)
                })
                .sum::<usize>()
    }
}

impl AccessLog {
    /// Counts a request by `method` and status `code`; the first of each error status becomes a
    /// failure, named `failure`. Whether it did.
    fn request(
        &mut self,
        number: u64,
        method: &str,
        code: u16,
        failure: impl FnOnce() -> String,
    ) -> bool {
        self.requests += 1;
        self.methods.add(method);
        let digits = [
            b'0' + (code / 100) as u8,
            b'0' + (code / 10 % 10) as u8,
            b'0' + (code % 10) as u8,
        ];
        self.statuses
            .add(std::str::from_utf8(&digits).unwrap_or("???"));
        if code < 400 {
            return false;
        }
        self.errors += 1;
        if self.seen.contains(&code) {
            return false;
        }
        self.seen.push(code);
        self.failures.push(number, &failure());
        true
    }

    /// A JSON record: a request's beginning (`req` alone), its end (`res.statusCode`, once per
    /// request id), or a message logged for a request begun.
    fn json_record(&mut self, number: u64, text: &str) {
        // Read by its members' text, not parsed: a JSON log is mostly such records, and a
        // request's headers need not be built to find its method (pino writes one record per
        // line, each member once, a string's quotes escaped). Every member wanted begins with
        // `"re`: the request (`"req":{`), its id (`"reqId":`, `"req_id":`, `"requestId":`)
        // and its response (`"res":{`); one search finds them all.
        static RE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"re"));
        let (mut req, mut id, mut res) = (None, None, None);
        for at in RE.find_iter(text.as_bytes()) {
            let rest = &text[at + 3..];
            if let Some(object) = rest.strip_prefix("q\":{") {
                req = req.or(Some(object));
            } else if let Some(object) = rest.strip_prefix("s\":{") {
                res = res.or(Some(object));
            } else if let Some(after) = ["qId\":", "q_id\":", "questId\":"]
                .iter()
                .find_map(|k| rest.strip_prefix(k))
            {
                id = id.or(value(after));
            }
        }
        if req.is_none() && id.is_none() {
            return;
        }
        let code = res.and_then(json_status);
        let id = id
            .or_else(|| req.and_then(|q| member(q, "id")))
            .and_then(|raw| string(raw).or_else(|| whole(raw).map(str::to_owned)));
        let Some(id) = id else {
            // A request logged whole without an id still counts.
            if let (Some(req), Some(code)) = (req, code) {
                self.json_ended(number, &begun(req), code, None);
            }
            return;
        };
        let Some(code) = code else {
            // What was logged for a request begun, or a warning that begins one (pino-http's
            // `req.log.warn(…)` carries the request); a beginning says no more than that.
            let said = || {
                member(text, "msg")
                    .or_else(|| member(text, "message"))
                    .and_then(string)
                    .filter(|m| !m.is_empty())
                    .map(|m| cut(&m, REASON_CHARS))
            };
            if let Some(waiting) = self.pending.get_mut(&id) {
                if let Some(said) = said() {
                    waiting.1 = Some(said);
                }
            } else if let Some(req) = req
                && self.pending.len() < PENDING_MAX
            {
                // pino's levels are numbers (40 is warn), bunyan's too; others name them.
                let warns = member(text, "level").is_some_and(|l| {
                    l.parse::<u64>().is_ok_and(|n| n >= 40)
                        || string(l).is_some_and(|l| is_warning(&l))
                });
                let said = if warns { said() } else { None };
                self.pending.insert(id, (begun(req), said));
            }
            return;
        };
        // The end of a request begun, or a request logged whole in one record.
        match (self.pending.remove(&id), req) {
            (Some((request, said)), _) => self.json_ended(number, &request, code, said),
            (None, Some(req)) => self.json_ended(number, &begun(req), code, None),
            (None, None) => {}
        }
    }

    /// A JSON request ended with status `code`: counted, and, when it is the first of its
    /// error status, a failure with what was logged for it.
    fn json_ended(&mut self, number: u64, request: &str, code: u16, said: Option<String>) {
        self.json = true;
        let method = request.split(' ').next().unwrap_or_default();
        if self.request(number, method, code, || format!("{request} {code}"))
            && let Some(said) = said
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(&said);
        }
    }
}

/// `GET /items/3`: a JSON request's method and URL, from the text after `"req":{`.
fn begun(req: &str) -> String {
    let text = |key| member(req, key).and_then(string).unwrap_or_default();
    format!("{} {}", text("method"), text("url"))
}

/// The status a JSON record's response ended with, from the text after `"res":{`
/// (`"statusCode":404}`).
fn json_status(res: &str) -> Option<u16> {
    let code: u16 = whole(member(res, "statusCode")?)?.parse().ok()?;
    (100..600).contains(&code).then_some(code)
}

/// The raw text of the value of the first member `key` in a JSON record's text.
fn member<'a>(text: &'a str, key: &str) -> Option<&'a str> {
    let needle = format!("\"{key}\":");
    let at = memchr::memmem::find(text.as_bytes(), needle.as_bytes())? + needle.len();
    value(&text[at..])
}

/// The raw text of the JSON value `text` starts with: a string with its quotes, or a number
/// or word up to the next `,` or `}`.
fn value(text: &str) -> Option<&str> {
    let value = text.trim_start();
    if let Some(inner) = value.strip_prefix('"') {
        // Up to the first quote not escaped.
        let bytes = inner.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\\' => i += 2,
                b'"' => return Some(&value[..i + 2]),
                _ => i += 1,
            }
        }
        return None;
    }
    let end = value.find([',', '}']).unwrap_or(value.len());
    Some(value[..end].trim_end())
}

/// A member's string value, its escapes read.
fn string(raw: &str) -> Option<String> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('\\') {
        serde_json::from_str(raw).ok()
    } else {
        Some(inner.to_owned())
    }
}

/// A member's value when it is a whole number.
fn whole(raw: &str) -> Option<&str> {
    (!raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit())).then_some(raw)
}

/// Whether a level's name is a warning's or worse.
fn is_warning(level: &str) -> bool {
    ["warn", "warning", "error", "fatal", "critical"]
        .iter()
        .any(|w| level.eq_ignore_ascii_case(w))
}

/// How long a reason line kept may be.
const REASON_CHARS: usize = 300;

/// The path a line ends with after `: ` (`Not Found: /wp-login.php` → `/wp-login.php`).
fn reason_path(text: &str) -> Option<&str> {
    let (_, path) = text.rsplit_once(": ")?;
    (path.starts_with('/') && !path.contains(' ')).then_some(path)
}

/// The three-digit status that starts `text`, followed by a space, comma or the end.
fn status(text: &str) -> Option<u16> {
    let digits = text.get(..3)?;
    let code: u16 = digits.parse().ok()?;
    let after = text[3..].chars().next();
    ((100..600).contains(&code) && matches!(after, None | Some(' ' | ','))).then_some(code)
}

/// `"GET /a HTTP/1.1" 404 153 …` → (`GET`, `"GET /a HTTP/1.1"`, 404, `153`): the size, when
/// it is a number of bytes or `-`.
pub(super) fn request(text: &str) -> Option<(&str, &str, u16, Option<&str>)> {
    let inner = text.strip_prefix('"')?;
    let end = inner.find("\" ")?;
    let request = &text[..end + 2];
    let method = inner[..end].split(' ').next()?;
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let after = &inner[end + 2..];
    let code = status(after)?;
    let size = after[3..]
        .strip_prefix(' ')
        .and_then(|r| r.split(' ').next())
        .filter(|w| w == &"-" || (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit())));
    Some((method, request, code, size))
}
