//! strace: one system call per line, `openat(AT_FDCWD, "a.toml", O_RDONLY) = -1 ENOENT (No
//! such file or directory)`, with `[pid N] ` before it when children are followed (`-f`), a
//! signal as `--- SIGCHLD {…} ---` and each process's end as `+++ exited with 1 +++` or
//! `+++ killed by SIGSEGV +++`. The traced program's own standard error is interleaved with
//! the calls (both go to the terminal), often in the middle of the `write(2, …)` that wrote it.
//!
//! Stated: the calls and how many failed, by error; each process's end; what the program
//! raised (a Python traceback among the calls, its frames read past the calls between them);
//! what the processes wrote to standard error; the program's last lines; and the calls that
//! failed on the program's own files and sockets: not a lookup that fails by design (a library
//! or locale searched along a path, a stat to see whether a file exists, a terminal check on a
//! pipe).

use std::collections::VecDeque;

use serde_json::json;

use super::names::Counts;
use super::pytrace::{self, Raised};
use super::{Fact, Failures, Shape};
use crate::format::{cut, thousands};

/// Errors kept by name; more are counted as `other`.
const ERRORS_KEPT: usize = 16;
/// Process ends kept, and process ids remembered.
const ENDS_KEPT: usize = 16;
const PIDS_KEPT: usize = 256;
/// The last calls that failed on the program's own files kept.
const OWN_KEPT: usize = 12;
/// The program's last lines kept.
const PRINTED_KEPT: usize = 4;

#[derive(Debug)]
pub(crate) struct Strace {
    lines: u64,
    calls: u64,
    failed: u64,
    errors: Counts,
    /// Process ids seen in `[pid N]`, and whether a line had none (the first process).
    pids: Vec<u64>,
    more_pids: u64,
    unprefixed: bool,
    /// `+++ exited with 1 +++` lines, with their line numbers, and how many there were.
    ends: Vec<(u64, String)>,
    end_count: u64,
    signals: Counts,
    /// The last calls that failed on the program's own files, with their line numbers, and
    /// how many there were.
    own: VecDeque<(u64, String)>,
    own_count: u64,
    messages: Failures,
    /// What the program raised (a Python traceback among the calls), the one being read, and
    /// the one a chained traceback (`During handling of the above exception…`) continues.
    raised: Failures,
    traceback: pytrace::Traceback,
    pending: Option<(u64, Raised)>,
    chained: bool,
    /// The last lines the program printed that are not a traceback's, and how many there were.
    printed: VecDeque<(u64, String)>,
    printed_count: u64,
}

impl Default for Strace {
    fn default() -> Strace {
        Strace {
            lines: 0,
            calls: 0,
            failed: 0,
            errors: Counts::default(),
            pids: Vec::new(),
            more_pids: 0,
            unprefixed: false,
            ends: Vec::new(),
            end_count: 0,
            signals: Counts::default(),
            own: VecDeque::new(),
            own_count: 0,
            messages: Failures::new("written to standard error"),
            raised: Failures::new("raised by the program"),
            traceback: pytrace::Traceback::default(),
            pending: None,
            chained: false,
            printed: VecDeque::new(),
            printed_count: 0,
        }
    }
}

impl Shape for Strace {
    fn line(&mut self, number: u64, text: &str) {
        self.lines += 1;
        let first = text.as_bytes().first().copied().unwrap_or(0);
        if !(first.is_ascii_lowercase() || b"[<+-".contains(&first)) {
            return self.program_line(number, text);
        }
        let (pid, rest) = split_pid(text);
        if let Some(end) = rest
            .strip_prefix("+++ ")
            .and_then(|r| r.strip_suffix(" +++"))
        {
            if end.starts_with("exited with ") || end.starts_with("killed by ") {
                self.process(pid);
                self.end_count += 1;
                if self.ends.len() < ENDS_KEPT {
                    self.ends.push((number, cut(text, 120)));
                }
            }
            return;
        }
        if let Some(signal) = rest.strip_prefix("--- SIG") {
            if rest.ends_with(" ---") {
                let name = signal.split([' ', '{']).next().unwrap_or("");
                self.signals.add(&format!("SIG{name}"), ERRORS_KEPT);
            }
            return;
        }
        let Some(call) = call_name(rest) else {
            return self.program_line(number, text);
        };
        self.calls += 1;
        self.process(pid);
        if call == "write" {
            self.written(number, rest);
        }
        if let Some(error) = failure(rest) {
            self.failed += 1;
            self.errors.add(error, ERRORS_KEPT);
            if is_own_failure(call, error, rest) {
                self.own_failure(number, text);
            }
        } else if call == "getsockopt"
            && let Some(error) = socket_error(rest)
        {
            self.errors.add(error, ERRORS_KEPT);
            self.own_failure(number, text);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.raise_pending();
        // Most lines are calls (the program's own output is interleaved), and they are many.
        if self.calls < 20 || self.calls.saturating_mul(2) < self.lines {
            return None;
        }
        // The first process's lines lose their prefix only while it runs alone.
        let processes = (self.pids.len() as u64).max(u64::from(self.unprefixed)) + self.more_pids;
        let mut line = format!(
            "strace: {} calls in {} process{}, {} failed",
            thousands(self.calls),
            thousands(processes.max(1)),
            if processes > 1 { "es" } else { "" },
            thousands(self.failed)
        );
        let errors = self.errors.render(|_| true);
        if !errors.is_empty() {
            line.push_str(&format!(" ({})", errors.join(", ")));
        }
        let mut lines = vec![line];
        if !self.ends.is_empty() {
            let ends: Vec<String> = self
                .ends
                .iter()
                .map(|(n, t)| format!("L{} {t}", thousands(*n)))
                .collect();
            let more = self.end_count - self.ends.len() as u64;
            let more = if more > 0 {
                format!(" · … {} more", thousands(more))
            } else {
                String::new()
            };
            lines.push(format!("ends: {}{more}", ends.join(" · ")));
        }
        let signals = self.signals.render(|_| true);
        if !signals.is_empty() {
            lines.push(format!("signals: {}", signals.join(", ")));
        }
        let json = json!({
            "shape": "strace",
            "calls": self.calls,
            "failed": self.failed,
            "errors": self.errors.json("error"),
            "processes": processes,
            "ends": self.ends.iter().map(|(n, t)| json!({"line": n, "text": t})).collect::<Vec<_>>(),
            "signals": self.signals.json("signal"),
            "own_failures": {"total": self.own_count,
                "last": self.own.iter().map(|(n, t)| json!({"line": n, "text": t})).collect::<Vec<_>>()},
            "stderr": self.messages.json(),
        });
        let mut fact = Fact::new("strace", lines, json)
            .hint(r"'= -1 E|^\+\+\+|write\(2,' -B 2")
            .supersedes(&["log"]);
        // What the program said, then the calls that failed, the last first: the one nearest
        // a process's end is the likeliest cause of it (a program looks for optional files
        // first, and fails on the one it needs).
        if !self.raised.is_empty() {
            fact = fact.failures(self.raised);
        }
        if !self.messages.is_empty() {
            fact = fact.failures(self.messages);
        }
        if self.printed_count > 0 {
            let mut printed = Failures::new("the program's last lines");
            for (number, text) in &self.printed {
                printed.push(*number, text);
            }
            printed.total = self.printed_count;
            fact = fact.failures(printed);
        }
        if self.own_count > 0 {
            let mut own = Failures::new(
                "calls that failed on the program's own files and sockets, the last first",
            );
            for (number, text) in self.own.iter().rev() {
                own.push(*number, text);
            }
            own.total = self.own_count;
            fact = fact.failures(own);
        }
        Some(fact)
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.errors.approx_heap()
            + self.signals.approx_heap()
            + self.pids.capacity() * 8
            + self
                .ends
                .iter()
                .map(|(_, t)| t.capacity() + 32)
                .sum::<usize>()
            + self
                .own
                .iter()
                .map(|(_, t)| t.capacity() + 32)
                .sum::<usize>()
            + self.messages.approx_heap()
            + self.raised.approx_heap()
            + self
                .printed
                .iter()
                .map(|(_, t)| t.capacity() + 32)
                .sum::<usize>()
            + 1024
    }
}

impl Strace {
    fn own_failure(&mut self, number: u64, text: &str) {
        self.own_count = self.own_count.saturating_add(1);
        if self.own.len() == OWN_KEPT {
            self.own.pop_front();
        }
        self.own.push_back((number, cut(text, 200)));
    }

    /// A line that is not strace's: the traced program's own output, a Python traceback's or
    /// a line it printed.
    fn program_line(&mut self, number: u64, text: &str) {
        // Only while the output reads as strace's (a traced program starts with its
        // `execve`, and calls are most lines): other outputs cost nothing here.
        if self.calls == 0 || self.calls.saturating_mul(2) < self.lines {
            return;
        }
        let t = text.trim_end();
        if t.is_empty() || t.starts_with("strace: ") {
            return;
        }
        if t.starts_with("During handling of the above exception")
            || t.starts_with("The above exception was the direct cause")
        {
            self.chained = self.pending.is_some();
            return;
        }
        if let Some(raised) = self.traceback.line(t) {
            let raised = match self.pending.take() {
                Some((_, first)) if std::mem::take(&mut self.chained) => first.chained(raised),
                before => {
                    self.pending = before;
                    self.raise_pending();
                    raised
                }
            };
            self.pending = Some((number, raised));
            return;
        }
        if self.traceback.is_open() {
            return;
        }
        if !self.chained {
            self.raise_pending();
        }
        self.printed_count = self.printed_count.saturating_add(1);
        if self.printed.len() == PRINTED_KEPT {
            self.printed.pop_front();
        }
        self.printed.push_back((number, cut(t, 200)));
    }

    /// The traceback read last, complete: what the program raised.
    fn raise_pending(&mut self) {
        self.chained = false;
        if let Some((number, raised)) = self.pending.take() {
            let mut detail = raised.detail();
            let exception = detail.next().unwrap_or_default().to_owned();
            let detail: Vec<String> = detail.map(str::to_owned).collect();
            self.raised.push(number, &exception);
            self.raised.add_details(&detail);
        }
    }

    fn process(&mut self, pid: Option<u64>) {
        match pid {
            None => self.unprefixed = true,
            Some(pid) if self.pids.contains(&pid) => {}
            Some(pid) if self.pids.len() < PIDS_KEPT => self.pids.push(pid),
            Some(_) => self.more_pids = self.more_pids.saturating_add(1),
        }
    }

    /// A `write(2, "…", n)`: what it wrote, as the program printed it when it is interleaved
    /// after a cut string (`"ERROR: git log fai"..., 84ERROR: git log failed in …`).
    fn written(&mut self, number: u64, call: &str) {
        let Some(args) = call.strip_prefix("write(2, \"") else {
            return;
        };
        let (quoted, after) = quoted(args);
        let message = match after.strip_prefix("..., ") {
            // Cut by strace: the program's own text follows the byte count, when interleaved.
            Some(rest) => {
                let printed = rest.trim_start_matches(|c: char| c.is_ascii_digit());
                let printed = printed
                    .rsplit_once(") ")
                    .filter(|(_, result)| result.trim_start().starts_with("= "))
                    .map_or(printed, |(text, _)| text);
                if printed.trim().len() > quoted.trim().len() {
                    printed.to_owned()
                } else {
                    format!("{}…", unescape(quoted))
                }
            }
            None => unescape(quoted),
        };
        let message = message.trim();
        if message.len() >= 8 && message.chars().any(char::is_alphabetic) {
            self.messages.push(number, message);
        }
    }
}

/// `[pid 26476] rest` → the pid and the rest; a line without it is the first process's.
fn split_pid(text: &str) -> (Option<u64>, &str) {
    let Some(rest) = text.strip_prefix("[pid ") else {
        return (None, text);
    };
    let rest = rest.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    match (
        rest[..digits].parse().ok(),
        rest[digits..].strip_prefix("] "),
    ) {
        (Some(pid), Some(call)) => (Some(pid), call),
        _ => (None, text),
    }
}

/// The call's name: `openat` of `openat(AT_FDCWD, …`, and a resumed call's (`<... read
/// resumed>…`).
fn call_name(rest: &str) -> Option<&str> {
    if let Some(resumed) = rest.strip_prefix("<... ") {
        return resumed.split_once(" resumed>").map(|(name, _)| name);
    }
    let name = rest
        .bytes()
        .take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_')
        .count();
    (name > 0 && rest.as_bytes().get(name) == Some(&b'(')).then(|| &rest[..name])
}

/// The error of a failed call: `ENOENT` of `… = -1 ENOENT (No such file or directory)`.
fn failure(call: &str) -> Option<&str> {
    let (_, result) = call.rsplit_once(" = -1 ")?;
    let name = result
        .bytes()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        .count();
    (name > 1 && result.starts_with('E')).then(|| &result[..name])
}

/// The error a non-blocking connect ended in: `getsockopt(3, SOL_SOCKET, SO_ERROR,
/// [ECONNREFUSED], [4]) = 0`.
fn socket_error(call: &str) -> Option<&str> {
    let at = call.find("SO_ERROR, [E")? + "SO_ERROR, [".len();
    let rest = &call[at..];
    let name = rest
        .bytes()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        .count();
    (rest.as_bytes().get(name) == Some(&b']')).then(|| &rest[..name])
}

/// Whether a failed call is the program's own failure, not a lookup that fails by design.
fn is_own_failure(call: &str, error: &str, text: &str) -> bool {
    // A terminal check on a pipe, a seek on one, a call that would block or was interrupted.
    const BY_DESIGN: [&str; 9] = [
        "ENOTTY",
        "ESPIPE",
        "EAGAIN",
        "EINPROGRESS",
        "EINTR",
        "ERESTARTSYS",
        "ECHILD",
        "ENOSYS",
        "ENODATA",
    ];
    // Calls that look without acting: whether a file exists, what a link points to.
    const LOOKS: [&str; 12] = [
        "stat",
        "lstat",
        "fstat",
        "newfstatat",
        "fstatat64",
        "statx",
        "access",
        "faccessat",
        "faccessat2",
        "readlink",
        "readlinkat",
        "getxattr",
    ];
    if BY_DESIGN.contains(&error) || LOOKS.contains(&call) {
        return false;
    }
    match first_path(text) {
        Some(path) => !is_system_path(path),
        None => true,
    }
}

/// The first quoted argument of a call, when it is a path.
fn first_path(call: &str) -> Option<&str> {
    let (_, args) = call.split_once('(')?;
    let (before, quoted_start) = args.split_once('"')?;
    // Only when it is among the first two arguments (`openat(AT_FDCWD, "a"`, `open("a"`).
    if before.matches(',').count() > 1 {
        return None;
    }
    Some(quoted(quoted_start).0)
}

/// Places the system and language runtimes search by design: the system's directories,
/// Python's standard library and installed packages (see [`pytrace::is_own`]), Node's
/// packages, locales and shared libraries.
fn is_system_path(path: &str) -> bool {
    const ROOTS: [&str; 12] = [
        "/usr/",
        "/lib",
        "/etc/",
        "/proc/",
        "/sys/",
        "/dev/",
        "/bin/",
        "/sbin/",
        "/run/",
        "/var/lib/",
        "/var/cache/",
        "/nix/",
    ];
    const WITHIN: [&str; 4] = ["/node_modules/", "/__pycache__/", "/locale/", "/.pyenv/"];
    ROOTS.iter().any(|r| path.starts_with(r))
        || WITHIN.iter().any(|w| path.contains(w))
        || !pytrace::is_own(path)
        || path.ends_with(".so")
        || path.contains(".so.")
}

/// A string as strace quotes it (`\"` escaped): its text, and what follows the closing quote.
fn quoted(s: &str) -> (&str, &str) {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return (&s[..i], &s[i + 1..]),
            _ => i += 1,
        }
    }
    (s, "")
}

/// strace's escapes read back: `\n`, `\t`, `\"`, `\\`; others are kept as written.
fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some(c @ ('"' | '\\')) => out.push(c),
            Some(c) => {
                out.push('\\');
                out.push(c);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_calls_parts_are_read() {
        assert_eq!(
            split_pid("[pid 26476] exit_group(128) = ?"),
            (Some(26476), "exit_group(128) = ?")
        );
        assert_eq!(call_name("openat(AT_FDCWD, \"a\")"), Some("openat"));
        assert_eq!(call_name("<... read resumed>\"x\", 3) = 1"), Some("read"));
        assert_eq!(call_name("Traceback (most recent call last):"), None);
        assert_eq!(
            failure("openat(AT_FDCWD, \"a\", O_RDONLY) = -1 ENOENT (No such file or directory)"),
            Some("ENOENT")
        );
        assert_eq!(failure("read(3, \"= -1 E\", 6) = 6"), None);
        assert_eq!(
            socket_error("getsockopt(3, SOL_SOCKET, SO_ERROR, [ECONNREFUSED], [4]) = 0"),
            Some("ECONNREFUSED")
        );
        assert_eq!(
            socket_error("getsockopt(3, SOL_SOCKET, SO_ERROR, [0], [4]) = 0"),
            None
        );
        assert_eq!(quoted(r#"a\"b" rest"#), (r#"a\"b"#, " rest"));
        assert_eq!(unescape(r#"fatal: x\n\"y\""#), "fatal: x\n\"y\"");
    }

    #[test]
    fn lookups_by_design_are_not_the_programs_failures() {
        let own = |call: &str, error: &str, text: &str| is_own_failure(call, error, text);
        assert!(own(
            "openat",
            "ENOENT",
            "openat(AT_FDCWD, \"app.toml\", O_RDONLY) = -1 ENOENT"
        ));
        assert!(own(
            "connect",
            "ECONNREFUSED",
            "connect(3, {sa_family=AF_INET}, 16) = -1 ECONNREFUSED"
        ));
        assert!(!own(
            "openat",
            "ENOENT",
            "openat(AT_FDCWD, \"/usr/lib/x.so.6\", O_RDONLY) = -1 ENOENT"
        ));
        assert!(!own(
            "newfstatat",
            "ENOENT",
            "newfstatat(AT_FDCWD, \"app.toml\", 0x7f, 0) = -1 ENOENT"
        ));
        assert!(!own(
            "ioctl",
            "ENOTTY",
            "ioctl(1, TCGETS, 0x7f) = -1 ENOTTY"
        ));
    }
}
