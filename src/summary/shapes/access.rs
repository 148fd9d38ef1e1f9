//! HTTP access logs: requests in the Common or Combined Log Format that nginx, Apache and most
//! servers write, Python's `http.server` (`HOST - - [DATE] "GET /a HTTP/1.1" 404 -`),
//! Uvicorn's (`INFO:     HOST:PORT - "GET /a HTTP/1.1" 404 Not Found`), Go's chi
//! (`DATE [ID] "GET http://HOST/a HTTP/1.1" from PEER - 404 33B in 98µs`) and gin
//! (`[GIN] DATE | 404 | 98µs | PEER | GET "/a"`), and Node's morgan in its short formats
//! (`GET /a 404 1.234 ms - 33`, `PEER - GET /a HTTP/1.1 404 33 - 1.234 ms`). A
//! server log is no content: its failed requests are what a reader looks for, and they carry no
//! failure word. Counted: requests by status and by method. The first request of each error
//! status (4xx, 5xx) is a failure, and after those the first of each other method and path
//! that failed (`GET /notes/2` after `GET /notes/1`, a query aside), with the server's own
//! message for it when it printed one on the line before (`code 501, message Unsupported
//! method ('POST')`), or the framework's reason for it there (Django's `Forbidden (CSRF cookie
//! not set.): /notes/new/`, `Bad Request: /x`).
//!
//! A server that logs JSON records (pino, which Fastify and pino-http use, and bunyan) logs a
//! request's end as a record with `res.statusCode`, and its method and URL either in the same
//! record (`req`) or in an earlier one of the same request id (Fastify's `incoming request`);
//! what it logged for that request in between (`Route GET:/admin not found`) is its reason.
//!
//! Recognised when at least `MIN_REQUESTS` lines are requests.

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::json;

use super::diagnostics::Tally;
use super::names::{Failure, Failures};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

const MIN_REQUESTS: u64 = 3;
/// How many JSON requests begun and not yet ended are remembered (a log of beginnings whose ends
/// were never logged must not grow without end).
const PENDING_MAX: usize = 1024;
/// How many failed methods and paths are told apart (a scanner's log of a million probed paths
/// must not grow without end): past them a path is no failure of its own, and the list says so.
const PATHS_MAX: usize = 65_536;
/// The list's heading once they were.
const PATHS_UNTOLD: &str =
    "first request of each error status, then of each other path until 65,536 were told apart";

#[derive(Debug, Default)]
pub(crate) struct AccessLog {
    requests: u64,
    statuses: Tally,
    methods: Tally,
    errors: u64,
    /// The error statuses whose first request is kept.
    seen: Vec<u16>,
    failures: Failures,
    /// The status, method and path of each failed request, hashed (at most `PATHS_MAX`).
    paths_seen: HashSet<u64>,
    /// The first request of each of them that is not the first of its status.
    paths: Failures,
    /// Whether the failure pushed last is in `paths`.
    in_paths: bool,
    /// A failed request's path was not told apart: `PATHS_MAX` were already.
    paths_untold: bool,
    /// `code 501, message …` on the line before, waiting for its request.
    message: Option<(u16, String)>,
    /// A line before that ends in `: PATH` (`Not Found: /wp-login.php`): the reason for the
    /// request to PATH that comes next.
    reason: Option<String>,
    /// JSON records: requests begun, by request id: `GET /report`, and what was logged for it
    /// since.
    pending: HashMap<String, (String, Option<String>)>,
    /// How the requests were written (the read-more hint differs).
    form: Form,
    /// A panic a Go server recovered from since the request before (chi's and gin's
    /// recoverers print it before the line of the request it failed): `panic: …`, `runtime
    /// error: …`, and where, when the recoverer marks the frame (chi's `->   path.go:501`).
    panic: Option<(String, Option<String>)>,
}

/// How an access log writes its requests.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub(super) enum Form {
    /// The Common Log Format and its kin: `"GET /a HTTP/1.1" 404 153`.
    #[default]
    Quoted,
    /// chi's: `"GET http://h/a HTTP/1.1" from PEER - 404 33B in 98µs`.
    Chi,
    /// gin's: `| 404 | 98µs | PEER | GET "/a"`.
    Gin,
    /// morgan's short formats: `GET /a 404 1.234 ms - 33`.
    Morgan,
    /// Tornado's: `[W 261206 11:35:53 web:2418] 404 GET /a (127.0.0.1) 6.68ms`.
    Tornado,
    /// A request without quotes after other words of a record: a logger's and a peer's
    /// (`… [pool-2-thread-4] access - 127.0.0.1 GET /a 500`), or a date (Go's `log`).
    Embedded,
    /// JSON records with `res.statusCode`.
    Json,
    /// uWSGI's: `[pid: 1|app: 0|req: 2/3] PEER () {24 vars in 270 bytes} [DATE] GET /a =>
    /// generated 0 bytes in 0 msecs (HTTP/1.1 500) …`.
    Uwsgi,
    /// HAProxy's HTTP log: `fe be/srv 0/0/0/-1/3002 504 198 - - sH-- 1/1/0/0/0 0/0 "GET /a
    /// HTTP/1.1"`.
    HaProxy,
}

impl Form {
    /// The read-more pattern that finds the failed requests of a log of this form.
    fn hint(self) -> &'static str {
        match self {
            Form::Quoted => "'\" [45][0-9]{2} |\\] code [45][0-9]{2}' -B 1",
            Form::Chi => "' - [45][0-9]{2} [0-9]+B in '",
            Form::Gin => "'\\| [45][0-9]{2} \\|'",
            Form::Morgan => "'^(\\S+ - )?[A-Z]+ \\S+ (HTTP/\\S+ )?[45][0-9]{2} '",
            Form::Tornado => "'\\] [45][0-9]{2} [A-Z]+ '",
            Form::Embedded => "' [A-Z]+ (/|https?://)\\S* (HTTP/\\S+ )?[45][0-9]{2}( |,|$)'",
            Form::Json => "'\"statusCode\":[45][0-9]{2}'",
            Form::Uwsgi => "'=> generated .*\\(HTTP/[0-9.]+ [45][0-9]{2}\\)'",
            Form::HaProxy => "'/[-0-9]+ [45][0-9]{2} [0-9]+ '",
        }
    }
}

impl Shape for AccessLog {
    fn line(&mut self, number: u64, text: &str) {
        let t = text.trim_start_matches([' ', '\t']);
        if matches!(t.as_bytes().first(), Some(b'p' | b'r'))
            && (t.starts_with("panic: ") || t.starts_with("runtime error: "))
        {
            self.panic = Some((cut(t.trim_end(), REASON_CHARS), None));
            return;
        }
        if let Some((_, at @ None)) = &mut self.panic
            && let Some(frame) = t.strip_prefix("->")
            && let frame = frame.trim()
            && frame.contains(".go:")
        {
            *at = Some(format!("at {}", cut(frame, REASON_CHARS)));
            return;
        }
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
                && let Some(r) = request(rest)
            {
                self.form = r.form;
                // Logged from its peer on.
                let logged = &text[peer_before(text, at + 3)..];
                self.request(number, &r, || cut(logged.trim_end(), REASON_CHARS));
            } else if let Some(r) = unquoted(text).or_else(|| embedded(text, false)) {
                self.form = r.form;
                self.request(number, &r, || r.logged.to_owned());
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
        let Some(r) = request(rest)
            .or_else(|| peered(rest))
            .or_else(|| haproxy(rest))
            .or_else(|| uwsgi(text))
            .or_else(|| gin(text, rest))
            .or_else(|| match tornado(rest)? {
                (r, None) => Some(r),
                (r, Some(reason)) => {
                    self.message = Some((r.code, cut(reason, REASON_CHARS)));
                    None
                }
            })
            .or_else(|| embedded(rest, true))
        else {
            return;
        };
        self.form = r.form;
        if !self.request(number, &r, || r.logged.to_owned()) {
            return;
        }
        if let Some((_, said)) = message.filter(|(said, _)| *said == r.code)
            && let Some(failure) = self.current()
        {
            failure.add_detail(&said);
        }
        let path = r.target.split('?').next();
        // A reason cut to its length names no path any more.
        if let Some(said) = reason
            && reason_path(&said) == path
            && let Some(failure) = self.current()
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
        let hint = self.form.hint();
        let json = json!({
            "shape": "access log",
            "requests": self.requests,
            "failed": self.errors,
            "statuses": self.statuses.json(),
            "methods": self.methods.json(),
        });
        let mut failures = self.failures.take_as(if self.paths_untold {
            PATHS_UNTOLD
        } else if self.paths.total == 0 {
            "first request of each error status"
        } else {
            "first request of each error status, then of each other path"
        });
        // The paths after the statuses: a status first seen late is not lost behind a
        // scanner's probes.
        failures.append(std::mem::take(&mut self.paths));
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
            + self.paths_seen.capacity() * 16
            + self.paths.approx_heap()
            + self.message.as_ref().map_or(0, |(_, m)| m.capacity())
            + self.reason.as_ref().map_or(0, String::capacity)
            + self.panic.as_ref().map_or(0, |(p, at)| {
                p.capacity() + at.as_ref().map_or(0, String::capacity)
            })
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
    /// The failure pushed last.
    fn current(&mut self) -> Option<&mut Failure> {
        if self.in_paths {
            self.paths.current()
        } else {
            self.failures.current()
        }
    }

    /// Counts request `r` by its method and status; the first of each error status, and of
    /// each failed method and path, becomes a failure, named `failure`. Whether it did.
    fn request(&mut self, number: u64, r: &Request, failure: impl FnOnce() -> String) -> bool {
        let (method, code) = (r.method, r.code);
        self.requests += 1;
        self.methods.add(method);
        let panic = self.panic.take();
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
        let path = r.target.split('?').next().unwrap_or_default();
        let mut hasher = DefaultHasher::new();
        (code, method, path).hash(&mut hasher);
        let key = hasher.finish();
        let new_path = if self.paths_seen.contains(&key) {
            false
        } else if self.paths_seen.len() < PATHS_MAX {
            self.paths_seen.insert(key)
        } else {
            self.paths_untold = true;
            false
        };
        if !self.seen.contains(&code) {
            self.seen.push(code);
            self.failures.push(number, &failure());
            self.in_paths = false;
        } else if new_path {
            self.paths.push(number, &failure());
            self.in_paths = true;
        } else {
            return false;
        }
        // The panic the server answered it with.
        if code >= 500
            && let Some((panic, at)) = panic
            && let Some(f) = self.current()
        {
            f.add_detail(&panic);
            if let Some(at) = at {
                f.add_detail(&at);
            }
        }
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
        self.form = Form::Json;
        let (method, target) = request.split_once(' ').unwrap_or((request, ""));
        let r = Request {
            method,
            target,
            code,
            form: Form::Json,
            logged: request,
        };
        if self.request(number, &r, || format!("{request} {code}"))
            && let Some(said) = said
            && let Some(failure) = self.current()
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

/// A request as a line of an access log records it.
#[derive(Debug, PartialEq)]
pub(super) struct Request<'a> {
    pub(super) method: &'a str,
    /// The path or URL asked for.
    pub(super) target: &'a str,
    pub(super) code: u16,
    pub(super) form: Form,
    /// As logged: the request, its status and the size of the answer, when the line gives one
    /// (`0` or `-`: none), or the whole line where they are spread over it (gin's).
    pub(super) logged: &'a str,
}

/// The methods of HTTP, which a line without quotes must begin its request with.
const METHODS: [&str; 9] = [
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE",
];

/// A request quoted, then its status: `"GET /a HTTP/1.1" 404 153 …` (the size, when it is
/// a number of bytes or `-`, is logged with it), or chi's `"GET http://h/a HTTP/1.1" from
/// 10.0.0.1:5000 - 404 33B in 98µs`.
pub(super) fn request(text: &str) -> Option<Request<'_>> {
    let inner = text.strip_prefix('"')?;
    let end = inner.find("\" ")?;
    let mut words = inner[..end].split(' ');
    let method = words.next()?;
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let target = words.next().unwrap_or_default();
    let mut after = &inner[end + 2..];
    let mut form = Form::Quoted;
    if let Some(from) = after.strip_prefix("from ") {
        after = &from[from.find(" - ")? + 3..];
        form = Form::Chi;
    }
    let code = status(after)?;
    let size = after[3..]
        .strip_prefix(' ')
        .and_then(|r| r.split(' ').next())
        .filter(|w| w == &"-" || is_size(w));
    let logged_end = text.len() - after.len() + 3 + size.map_or(0, |s| s.len() + 1);
    Some(Request {
        method,
        target,
        code,
        form,
        logged: &text[..logged_end],
    })
}

/// Where the peer a request at `at` in `line` came from begins, when it is logged just before it
/// (Uvicorn's `127.0.0.1:49654 - "GET …`, `[::1]:5000 - "GET …`); else `at`.
pub(super) fn peer_before(line: &str, at: usize) -> usize {
    let Some(before) = line[..at].strip_suffix(" - ") else {
        return at;
    };
    let peer = before.rsplit([' ', '\t']).next().unwrap_or_default();
    let is_peer = peer.contains(['.', ':'])
        && peer
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || matches!(b, b'.' | b':' | b'[' | b']'));
    if is_peer {
        before.len() - peer.len()
    } else {
        at
    }
}

/// A request after its peer: granian's `127.0.0.1 - "GET /a HTTP/1.1" 500 0.842` (after its
/// date), logged from its peer on.
fn peered(rest: &str) -> Option<Request<'_>> {
    let at = rest.find(" - \"")? + 3;
    let from = peer_before(rest, at);
    if from != 0 {
        return None;
    }
    let r = request(&rest[at..])?;
    // Its request as logged begins the text after the peer.
    let logged = &rest[..at + r.logged.len()];
    Some(Request { logged, ..r })
}

/// A size of an answer in bytes: `153`, or chi's `33B`.
fn is_size(word: &str) -> bool {
    let digits = word.strip_suffix('B').unwrap_or(word);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// HAProxy's HTTP log after its date: its frontend, backend and server (`be/<NOSRV>` when
/// none was up), its timers, the status, the bytes, two cookies, the termination state (`sH--`:
/// the server's timeout), the connection counts, the queues, then the request quoted; logged
/// whole, since the server and the termination state say why it failed.
fn haproxy(rest: &str) -> Option<Request<'_>> {
    let mut words = rest.splitn(4, ' ');
    let (_frontend, server, timers, after) =
        (words.next()?, words.next()?, words.next()?, words.next()?);
    let timer = |t: &str| {
        t.trim_start_matches(['+', '-'])
            .bytes()
            .all(|b| b.is_ascii_digit())
    };
    if !server.contains('/') || timers.split('/').count() != 5 || !timers.split('/').all(timer) {
        return None;
    }
    let code = status(after)?;
    let quoted = &rest[rest.find(" \"")? + 1..];
    let inner = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut request = inner.split(' ');
    let (method, target) = (request.next()?, request.next()?);
    METHODS.contains(&method).then_some(Request {
        method,
        target,
        code,
        form: Form::HaProxy,
        logged: rest.trim_end(),
    })
}

/// uWSGI's request line, logged from its request to its status: `GET /stock/sku-200 =>
/// generated 0 bytes in 0 msecs (HTTP/1.1 500)`.
fn uwsgi(line: &str) -> Option<Request<'_>> {
    if !line.starts_with("[pid: ") {
        return None;
    }
    let arrow = line.find(" => generated ")?;
    let start = line[..arrow].rfind("] ")? + 2;
    let (method, target) = line[start..arrow].split_once(' ')?;
    let http = arrow + line[arrow..].find(" (HTTP/")? + 2;
    let (_, after) = line[http..].split_once(' ')?;
    let code: u16 = after.get(..3)?.parse().ok()?;
    let end = line.len() - after.len() + 3;
    let closed = line[end..].starts_with(')') && (100..600).contains(&code);
    (METHODS.contains(&method) && closed).then_some(Request {
        method,
        target,
        code,
        form: Form::Uwsgi,
        logged: &line[start..=end],
    })
}

/// gin's line, after `[GIN] `: `2026/12/06 - 08:36:32 | 404 |  98µs |  127.0.0.1 | GET
/// "/a"`, logged whole.
fn gin<'a>(line: &'a str, rest: &'a str) -> Option<Request<'a>> {
    if !line.starts_with("[GIN] ") {
        return None;
    }
    let mut fields = rest.split(" | ");
    let code = status(fields.nth(1)?.trim())?;
    let (method, target) = fields.nth(2)?.trim().split_once(' ')?;
    let target = target.trim_start().trim_matches('"');
    METHODS.contains(&method).then_some(Request {
        method,
        target,
        code,
        form: Form::Gin,
        logged: line.trim_end(),
    })
}

/// Tornado's request after its header: `404 GET /a (127.0.0.1) 6.68ms`, logged without its
/// time; or, with a colon after the peer, the reason Tornado gave for it, which comes first
/// (`403 POST /a (127.0.0.1): '_xsrf' argument missing from POST`), as the second value.
pub(super) fn tornado(rest: &str) -> Option<(Request<'_>, Option<&str>)> {
    let code = status(rest)?;
    let mut words = rest.get(4..)?.splitn(3, ' ');
    let (method, target, after) = (words.next()?, words.next()?, words.next()?);
    if !METHODS.contains(&method) || !after.starts_with('(') {
        return None;
    }
    let close = after.find(')')? + 1;
    let said = &after[close..];
    let reason = match said.strip_prefix(": ") {
        Some(reason) => Some(reason.trim_end()),
        None if said.ends_with("ms") => None,
        None => return None,
    };
    let request = Request {
        method,
        target,
        code,
        form: Form::Tornado,
        logged: &rest[..rest.len() - said.len()],
    };
    Some((request, reason))
}

/// morgan's request without quotes, the method first (`dev` and `tiny`: `GET /a 404 1.234
/// ms - 33`) or after the peer (`short`: `::1 - GET /a HTTP/1.1 404 33 - 1.234 ms`), logged
/// up to its status.
fn unquoted(line: &str) -> Option<Request<'_>> {
    // Cheap first: a method's capital, or an address's digit, colon or hex letter.
    if !matches!(
        line.as_bytes().first(),
        Some(b'A'..=b'Z' | b'0'..=b'9' | b':' | b'a'..=b'f')
    ) {
        return None;
    }
    let first = &line[..line.find(' ')?];
    let start = if METHODS.contains(&first) {
        0
    } else if first
        .bytes()
        .all(|b| b.is_ascii_hexdigit() || b == b'.' || b == b':')
        && line[first.len()..].starts_with(" - ")
    {
        first.len() + 3
    } else {
        return None;
    };
    let mut words = line[start..].split(' ');
    let method = words.next()?;
    let target = words.next()?;
    if !METHODS.contains(&method) || !(target.starts_with('/') || target.starts_with("http")) {
        return None;
    }
    let mut at = start + method.len() + 1 + target.len() + 1;
    let mut next = words.next()?;
    if next.starts_with("HTTP/") {
        at += next.len() + 1;
        next = words.next()?;
    }
    let code = status(next)?;
    Some(Request {
        method,
        target,
        code,
        form: Form::Morgan,
        logged: &line[..at + 3],
    })
}

/// A request without quotes after other words (`access - 127.0.0.1 GET /a 500`, Go's
/// `2026/12/06 20:58:04 GET /a 404 1.2ms`): a method, then a path, its protocol maybe, then
/// its status. Logged up to its status, with the words before it when `keep_before` (a
/// record's logger and peer, after its date), else from its method.
fn embedded(line: &str, keep_before: bool) -> Option<Request<'_>> {
    // Cheap first: a path starts after a space, and so does a whole URL (Sanic's `INFO:
    // 127.0.0.1:40574 GET http://127.0.0.1:8097/books 500 136 120.2ms`).
    static PATH: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b" /"));
    static URL: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b" http"));
    let bytes = line.as_bytes();
    let at_target = |at: usize| {
        let start = line[..at].rfind(' ').map_or(0, |space| space + 1);
        if start == 0 || !METHODS.contains(&&line[start..at]) {
            return None;
        }
        let mut r = unquoted(&line[start..])?;
        r.form = Form::Embedded;
        if keep_before {
            r.logged = &line[..start + r.logged.len()];
        }
        Some(r)
    };
    PATH.find_iter(bytes).find_map(at_target).or_else(|| {
        // Searched once before it is iterated: most lines have none.
        URL.find(bytes)?;
        URL.find_iter(bytes).find_map(at_target)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_heading_past_the_paths_told_apart_says_how_many() {
        let told = format!("until {} were told apart", thousands(PATHS_MAX as u64));
        assert!(PATHS_UNTOLD.ends_with(&told), "{PATHS_UNTOLD}");
    }

    #[test]
    fn a_request_after_its_peer_is_logged_from_the_peer_on() {
        let granian = "127.0.0.1 - \"GET /bookmarks/2/stats HTTP/1.1\" 500 0.842";
        let r = peered(granian).unwrap();
        assert_eq!(
            (r.method, r.target, r.code),
            ("GET", "/bookmarks/2/stats", 500)
        );
        assert_eq!(
            r.logged,
            "127.0.0.1 - \"GET /bookmarks/2/stats HTTP/1.1\" 500"
        );
        assert!(peered("worker one - \"GET /a HTTP/1.1\" 500 1").is_none());
    }

    fn haproxy_line(line: &str) -> Request<'_> {
        haproxy(&line[line.find("] ").unwrap() + 2..]).unwrap()
    }

    /// Each form's request read as logged, and its read-more pattern finding the failed
    /// requests only (lines from real logs: chi's, morgan's `short`, nginx's, HAProxy's,
    /// uWSGI's).
    #[test]
    fn each_form_is_read_and_found_again_by_its_pattern() {
        let chi = "2026/12/06 08:36:32 [vm/IT0ADL7gDE-000004] \"GET http://127.0.0.1:3333/articles HTTP/1.1\" from 127.0.0.1:45398 - 500 0B in 1.1ms";
        let short = "127.0.0.1 - GET /notes/7 HTTP/1.1 404 21 - 0.516 ms";
        let tiny = "GET /notes 200 50 - 0.406 ms";
        let clf = "10.0.0.2 - bob [10/Oct/2000:13:55:37 -0700] \"PUT /b HTTP/2.0\" 503 12 \"-\" \"curl/8\"";
        let r = request(&chi[chi.find("] ").unwrap() + 2..]).unwrap();
        assert_eq!(
            (r.method, r.target, r.code, r.form),
            ("GET", "http://127.0.0.1:3333/articles", 500, Form::Chi)
        );
        assert_eq!(
            r.logged,
            "\"GET http://127.0.0.1:3333/articles HTTP/1.1\" from 127.0.0.1:45398 - 500 0B"
        );
        let r = unquoted(short).unwrap();
        assert_eq!(
            (r.method, r.target, r.code, r.logged),
            (
                "GET",
                "/notes/7",
                404,
                "127.0.0.1 - GET /notes/7 HTTP/1.1 404"
            )
        );
        let r = unquoted(tiny).unwrap();
        assert_eq!((r.code, r.logged), (200, "GET /notes 200"));
        let r = request(&clf[clf.find("] ").unwrap() + 2..]).unwrap();
        assert_eq!(
            (r.code, r.logged, r.form),
            (503, "\"PUT /b HTTP/2.0\" 503 12", Form::Quoted)
        );
        let finds = |form: Form, line: &str| {
            regex::Regex::new(form.hint().split('\'').nth(1).unwrap())
                .unwrap()
                .is_match(line)
        };
        let haproxy = "127.0.0.1:39848 [07/Dec/2026:16:28:16.755] fe_web be_catalog/cat1 0/0/0/-1/3002 504 198 - - sH-- 1/1/0/0/0 0/0 \"GET /slow HTTP/1.1\"";
        let r = haproxy_line(haproxy);
        assert_eq!(
            (r.method, r.target, r.code, r.form),
            ("GET", "/slow", 504, Form::HaProxy)
        );
        assert!(
            r.logged.starts_with("fe_web be_catalog/cat1 ")
                && r.logged
                    .ends_with("sH-- 1/1/0/0/0 0/0 \"GET /slow HTTP/1.1\"")
        );
        assert!(finds(Form::HaProxy, haproxy));
        let uwsgi_line = "[pid: 28102|app: 0|req: 20/39] 127.0.0.1 () {24 vars in 270 bytes} [Mon Dec  7 16:29:45 2026] GET /stock/sku-200 => generated 0 bytes in 0 msecs (HTTP/1.1 500) 0 headers in 0 bytes (0 switches on core 0)";
        let r = uwsgi(uwsgi_line).unwrap();
        assert_eq!(
            (r.method, r.target, r.code, r.logged),
            (
                "GET",
                "/stock/sku-200",
                500,
                "GET /stock/sku-200 => generated 0 bytes in 0 msecs (HTTP/1.1 500)"
            )
        );
        assert!(finds(Form::Uwsgi, uwsgi_line));
        assert!(!finds(Form::Uwsgi, &uwsgi_line.replace(" 500)", " 200)")));
        assert!(!finds(Form::HaProxy, &haproxy.replace(" 504 ", " 200 ")));
        assert!(finds(Form::Chi, chi));
        assert!(!finds(Form::Chi, &chi.replace(" 500 ", " 200 ")));
        assert!(finds(Form::Morgan, short));
        assert!(!finds(Form::Morgan, tiny));
        assert!(finds(Form::Morgan, &tiny.replace(" 200 ", " 404 ")));
        assert!(finds(Form::Quoted, clf));
        let tornado_line = "[W 261206 11:35:53 web:2418] 404 GET /favicon.ico (127.0.0.1) 6.68ms";
        let (r, reason) = tornado(&tornado_line[29..]).unwrap();
        assert_eq!(
            (r.code, r.logged, reason),
            (404, "404 GET /favicon.ico (127.0.0.1)", None)
        );
        assert!(finds(Form::Tornado, tornado_line));
        assert!(!finds(Form::Tornado, &tornado_line.replace("404", "200")));
        let (r, reason) =
            tornado("403 POST /a/new (127.0.0.1): '_xsrf' argument missing from POST").unwrap();
        assert_eq!(
            (r.code, reason),
            (403, Some("'_xsrf' argument missing from POST"))
        );
        assert!(tornado("200 GET / (127.0.0.1) took a while").is_none());
        // A status that ends the text (`ERROR: 500` is a log record's message too).
        for bare in ["500", "404,", "200 GET"] {
            assert!(tornado(bare).is_none(), "{bare}");
        }
        // After a record's logger and peer (Log4j's), or after Go's `log` date.
        let log4j =
            "2026-12-06 20:58:04.499 INFO  [pool-2-thread-4] access - 127.0.0.1 GET /report 500";
        let r = embedded(&log4j[log4j.find("] ").unwrap() + 2..], true).unwrap();
        assert_eq!(
            (r.method, r.target, r.code, r.logged, r.form),
            (
                "GET",
                "/report",
                500,
                "access - 127.0.0.1 GET /report 500",
                Form::Embedded
            )
        );
        let go = "2026/12/06 20:58:04 POST /notes HTTP/1.1 404 12 1.2ms";
        let r = embedded(go, false).unwrap();
        assert_eq!((r.code, r.logged), (404, "POST /notes HTTP/1.1 404"));
        // Sanic's, after its process and date, names the whole URL.
        let sanic = "Srv 0|2026-12-07 10:02:27 +0000 INFO: 127.0.0.1:40574 GET \
                     http://127.0.0.1:8097/books 500 136  120.2ms";
        let r = embedded(sanic, false).unwrap();
        assert_eq!(
            (r.code, r.logged),
            (500, "GET http://127.0.0.1:8097/books 500")
        );
        assert!(finds(Form::Embedded, log4j));
        assert!(finds(Form::Embedded, go));
        assert!(finds(Form::Embedded, sanic));
        assert!(!finds(Form::Embedded, &log4j.replace("500", "200")));
        // A path in a sentence, a method with no status after its path.
        assert_eq!(embedded("copied /a/b to /c", false), None);
        assert_eq!(
            embedded("ERROR OrdersServer - GET /orders/1 failed", true),
            None
        );
        // Not requests: a sentence that starts with a method, a route table.
        assert_eq!(unquoted("GET requests are cached for 300 seconds"), None);
        assert_eq!(
            unquoted("[GIN-debug] GET    /notes    --> main.main.func2 (3 handlers)"),
            None
        );
    }
}
