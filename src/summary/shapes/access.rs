//! HTTP access logs: requests in the Common or Combined Log Format that nginx, Apache and most
//! servers write, and Python's `http.server` (`HOST - - [DATE] "GET /a HTTP/1.1" 404 -`). A
//! server log is no content: its failed requests are what a reader looks for, and they carry no
//! failure word. Counted: requests by status and by method; the first request of each error
//! status (4xx, 5xx) is a failure, with the server's own message for it when it printed one on
//! the line before (`code 501, message Unsupported method ('POST')`), or the framework's reason
//! for it there (Django's `Forbidden (CSRF cookie not set.): /notes/new/`, `Bad Request: /x`).
//!
//! Recognised when at least `MIN_REQUESTS` lines are requests.

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

const MIN_REQUESTS: u64 = 3;

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
}

impl Shape for AccessLog {
    fn line(&mut self, number: u64, text: &str) {
        let message = self.message.take();
        let reason = self.reason.take();
        // Cheap first: every access-log line has `] ` after its date.
        static AFTER_DATE: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
            std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"] "));
        let Some(at) = AFTER_DATE.find(text.as_bytes()) else {
            if reason_path(text).is_some() {
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
            return;
        }
        self.errors += 1;
        if self.seen.contains(&code) {
            return;
        }
        self.seen.push(code);
        // As logged: the request, its status and the size of the answer (`0` or `-`: none).
        let failure = match size {
            Some(size) => format!("{request} {code} {size}"),
            None => format!("{request} {code}"),
        };
        self.failures.push(number, &failure);
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
                .hint("'\" [45][0-9]{2} |\\] code [45][0-9]{2}' -B 1")
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
    }
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
fn request(text: &str) -> Option<(&str, &str, u16, Option<&str>)> {
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
