//! Sanitizer reports in a program's output, outside a CTest run (whose shape reads them per
//! test): UndefinedBehaviorSanitizer's one line per place (`src/a.c:796:1: runtime error:
//! shift exponent 97 is too large for 32-bit type 'int'`), and the reports of AddressSanitizer,
//! LeakSanitizer, ThreadSanitizer and MemorySanitizer (`==12==ERROR: AddressSanitizer:
//! heap-buffer-overflow on address …`, `WARNING: ThreadSanitizer: data race (pid=9)`) with
//! their first frame outside the sanitizer's and the C library's (`#1 0x… in f src/a.c:12`).
//! Go's race detector (`WARNING: DATA RACE`) is ThreadSanitizer too, with its own report: each
//! of the two accesses (`Read at 0x… by goroutine 14:`, `Previous write at 0x… by goroutine
//! 13:`) over its stack, innermost frame first. Each report is a failure; they are counted by
//! kind.

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural};

#[derive(Debug, Default)]
pub(crate) struct Sanitizer {
    reports: u64,
    kinds: Tally,
    failures: Failures,
    /// A report whose stack is being read for its first frame in the program.
    in_stack: bool,
    /// A memory report open, whose access (`WRITE of size 8 at 0x… thread T0`) and region
    /// (`0x… is located 0 bytes to the right of 128-byte region […)`) are still to be read.
    awaits: [bool; 2],
    /// A Go race report being read.
    race: Option<Race>,
    /// LeakSanitizer's records (`Direct leak of 256 byte(s) in 4 object(s) allocated from:`):
    /// direct and indirect ones, the bytes and objects they leaked, and where each was
    /// allocated (its stack's first frame in the program).
    leaks: [u64; 2],
    leaked: [u64; 2],
    leak_sites: Tally,
    /// A record's stack is being read for its first frame in the program.
    leak_site: bool,
}

/// A Go race report being read: the access whose innermost frame is awaited (`Read by
/// goroutine 14`), that frame's function once read, and the accesses described so far (a
/// report cut before its first is described by its header when it ends).
#[derive(Debug, Default)]
struct Race {
    access: Option<String>,
    function: Option<String>,
    described: u8,
}

/// Go's report of a data race, and the line that ends it.
const GO_RACE: &str = "WARNING: DATA RACE";
const GO_RACE_END: &str = "==================";

impl Shape for Sanitizer {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((place, message)) = ubsan(text) {
            let detail = format!("{place}: runtime error: {message}");
            self.start_report(number, "runtime error", Some(&detail));
            return;
        }
        if text == GO_RACE {
            self.start_report(number, "Go race detector: data race", None);
            self.race = Some(Race::default());
            return;
        }
        if self.race.is_some() {
            self.race_line(text);
            return;
        }
        if let Some(Header { said, tool, what }) = report_header(text) {
            let kind = what.split([' ', '(']).next().unwrap_or(what);
            // Its registers (`at pc 0x… bp 0x… sp 0x…`) differ from run to run.
            let said = said.split(" at pc 0x").next().unwrap_or(said);
            let detail = cut(said, 200);
            self.start_report(number, &format!("{tool}: {kind}"), Some(&detail));
            self.in_stack = true;
            self.awaits = [true; 2];
            return;
        }
        if self.awaits.iter().any(|a| *a)
            && let Some(said) = self.memory_line(text)
        {
            if let Some(f) = self.failures.current() {
                f.add_detail(&cut(&said, 200));
            }
            return;
        }
        if matches!(text.as_bytes().first(), Some(b'D' | b'I'))
            && let Some((direct, bytes, objects)) = leak_record(text)
        {
            let first = self.leaks == [0, 0];
            self.leaks[usize::from(!direct)] += 1;
            self.leaked[0] = self.leaked[0].saturating_add(bytes);
            self.leaked[1] = self.leaked[1].saturating_add(objects);
            self.leak_site = true;
            if first && let Some(f) = self.failures.current() {
                f.add_detail(text.trim_end_matches(" allocated from:"));
            }
            return;
        }
        if self.leak_site {
            if let Some(frame) = own_frame(text) {
                self.leak_site = false;
                self.leak_sites.add(frame);
            } else if text.trim().is_empty() {
                self.leak_site = false;
            }
        }
        if self.in_stack
            && let Some(frame) = own_frame(text)
        {
            self.in_stack = false;
            if let Some(f) = self.failures.current() {
                f.add_detail(&format!("in {frame}"));
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.reports == 0 {
            return None;
        }
        let mut line = format!("sanitizers: {}", plural(self.reports, "report", "reports"));
        if let Some(kinds) = self.kinds.render() {
            line.push_str(&format!(" ({kinds})"));
        }
        let mut lines = vec![line];
        if self.leaks != [0, 0] {
            let [direct, indirect] = self.leaks;
            let mut leaks = format!(
                "leaks: {} ({direct} direct, {indirect} indirect), {} leaked in {}",
                plural(direct + indirect, "record", "records"),
                plural(self.leaked[0], "byte", "bytes"),
                plural(self.leaked[1], "object", "objects"),
            );
            if let Some(sites) = self.leak_sites.render() {
                leaks.push_str(&format!("; allocated in {sites}"));
            }
            lines.push(leaks);
        }
        let json = json!({
            "shape": "sanitizer",
            "reports": self.reports,
            "kinds": self.kinds.json(),
            "leaks": {
                "direct": self.leaks[0],
                "indirect": self.leaks[1],
                "bytes": self.leaked[0],
                "objects": self.leaked[1],
                "allocated_in": self.leak_sites.json(),
            },
        });
        Some(
            Fact::new("sanitizer", lines, json)
                .failures(self.failures.take_as("sanitizer reports"))
                .hint("'runtime error: |Sanitizer: |DATA RACE' -A 4")
                .supersedes(&["gcc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.kinds.approx_heap() + self.failures.approx_heap() + self.leak_sites.approx_heap()
    }
}

impl Sanitizer {
    /// A report of `kind` begins at line `number`, said by `detail` when its first line says it.
    fn start_report(&mut self, number: u64, kind: &str, detail: Option<&str>) {
        self.reports += 1;
        self.kinds.add(kind);
        self.failures.push(number, "");
        if let (Some(detail), Some(f)) = (detail, self.failures.current()) {
            f.add_detail(detail);
        }
        self.in_stack = false;
        self.awaits = [false; 2];
        self.race = None;
    }

    /// What an AddressSanitizer report says of the access and the memory: `WRITE of size 8
    /// at 0x… thread T0`, `is located 0 bytes to the right of 128-byte region` (its addresses
    /// left out: they differ from run to run).
    fn memory_line(&mut self, text: &str) -> Option<String> {
        if self.awaits[0]
            && (text.starts_with("READ of size ") || text.starts_with("WRITE of size "))
        {
            self.awaits[0] = false;
            return Some(text.split(" at 0x").next().unwrap_or(text).to_owned());
        }
        if self.awaits[1]
            && text.starts_with("0x")
            && let Some(at) = text.find(" is located ")
        {
            self.awaits[1] = false;
            let said = &text[at + 1..];
            return Some(said.split(" [0x").next().unwrap_or(said).to_owned());
        }
        if text.starts_with("SUMMARY: ") || text.starts_with("Shadow bytes") {
            self.awaits = [false; 2];
        }
        None
    }

    /// A line of a Go race report: each of the two accesses is described by its innermost
    /// frame (`Read by goroutine 14: pkg.(*Entry).write() /src/pkg/entry.go:289`).
    fn race_line(&mut self, text: &str) {
        let Some(race) = &mut self.race else {
            return;
        };
        if text.starts_with(GO_RACE_END) {
            if race.described == 0
                && let Some(f) = self.failures.current()
            {
                f.add_detail(GO_RACE);
            }
            self.race = None;
            return;
        }
        if race.described >= 2 {
            return;
        }
        if let Some(access) = race_access(text) {
            race.access = Some(access);
            race.function = None;
            return;
        }
        let Some(access) = &race.access else {
            return;
        };
        match &race.function {
            // The access is the code's, not the atomic or runtime function it called.
            None if text.starts_with("  ") && !text.starts_with("   ") => {
                let function = text.trim();
                let runtime = ["runtime.", "sync/atomic.", "internal/"];
                if !runtime.iter().any(|r| function.starts_with(r)) {
                    race.function = Some(function.to_owned());
                }
            }
            Some(function) if text.starts_with("      ") => {
                // `      /src/pkg/entry.go:289 +0x115`
                let place = text.trim();
                let place = place.rsplit_once(" +0x").map_or(place, |(p, _)| p);
                // The first access says what the report is.
                let detail = if race.described == 0 {
                    format!("{GO_RACE}: {access}: {function} {place}")
                } else {
                    format!("{access}: {function} {place}")
                };
                if let Some(f) = self.failures.current() {
                    f.add_detail(&detail);
                }
                race.access = None;
                race.described += 1;
            }
            _ => {}
        }
    }
}

/// `Previous write at 0x00c0000cbb98 by goroutine 13:` → `Previous write by goroutine 13`
/// (the address says nothing to a reader).
fn race_access(text: &str) -> Option<String> {
    let (access, rest) = text.split_once(" at 0x")?;
    let (_, by) = rest.split_once(" by ")?;
    let by = by.strip_suffix(':')?;
    let words = access.bytes().all(|b| b.is_ascii_alphabetic() || b == b' ');
    (words && access.starts_with(|c: char| c.is_ascii_uppercase()))
        .then(|| format!("{access} by {by}"))
}

/// `src/a.c:796:1: runtime error: message` → (`src/a.c:796:1`, `message`).
fn ubsan(text: &str) -> Option<(&str, &str)> {
    // Read from the start, so that most lines fail at once: a path, `:line`, maybe `:col`.
    let (file, rest) = text.split_once(':')?;
    if file.is_empty() || file.contains(' ') {
        return None;
    }
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let line = digits(rest);
    if line == 0 {
        return None;
    }
    let mut rest = &rest[line..];
    if let Some(col) = rest.strip_prefix(':').filter(|r| digits(r) > 0) {
        rest = &col[digits(col)..];
    }
    let message = rest.strip_prefix(": runtime error: ")?;
    Some((&text[..text.len() - rest.len()], message))
}

/// A sanitizer report's first line, read.
#[derive(Debug, PartialEq)]
struct Header<'a> {
    /// As printed, without the process id: `ERROR: AddressSanitizer: heap-buffer-overflow …`.
    said: &'a str,
    /// `AddressSanitizer`.
    tool: &'a str,
    /// `heap-buffer-overflow …`.
    what: &'a str,
}

/// `==12==ERROR: AddressSanitizer: heap-buffer-overflow …` or `WARNING: ThreadSanitizer: data
/// race (pid=9)`.
fn report_header(text: &str) -> Option<Header<'_>> {
    // `==12==ERROR: …`: the process id between `==`s.
    let t = match text.strip_prefix("==") {
        Some(rest) => {
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            rest[digits..].strip_prefix("==")?
        }
        None => text,
    };
    let rest = t
        .strip_prefix("ERROR: ")
        .or_else(|| t.strip_prefix("WARNING: "))?;
    let (tool, what) = rest.split_once(": ")?;
    tool.ends_with("Sanitizer").then_some(Header {
        said: t,
        tool,
        what,
    })
}

/// `Direct leak of 256 byte(s) in 4 object(s) allocated from:` → (direct, 256, 4).
fn leak_record(text: &str) -> Option<(bool, u64, u64)> {
    let (direct, rest) = match text.strip_prefix("Direct leak of ") {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix("Indirect leak of ")?),
    };
    let (bytes, rest) = rest.split_once(" byte(s) in ")?;
    let (objects, _) = rest.split_once(" object(s)")?;
    Some((direct, bytes.parse().ok()?, objects.parse().ok()?))
}

/// `    #1 0x55d0 in parse src/a.c:12:3` → `parse src/a.c:12:3`, for a frame of the program (not
/// of the sanitizer's runtime or the C library). A program built without debug information
/// names its module instead of a place (`in parse (/src/app/test-bin+0x20af7)`): that frame
/// is the program's all the same, where the C library's start-up frames, which do name a
/// place (`in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58`), are not.
fn own_frame(text: &str) -> Option<&str> {
    let t = text.trim_start().strip_prefix('#')?;
    let (_, rest) = t.split_once(" in ")?;
    let runtime = [
        "libsanitizer",
        "compiler-rt",
        "/usr/lib",
        "/lib/x86_64",
        "libc.so",
        "libasan",
        "libtsan",
        "libubsan",
        "(/usr/",
        "(/lib",
        "../sysdeps/",
        "../csu/",
    ];
    let startup = rest.starts_with("__libc_start") || rest.starts_with("_start ");
    let placed = rest.contains(':') || rest.ends_with(')');
    (placed && !startup && !runtime.iter().any(|r| rest.contains(r))).then_some(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leak_records() {
        assert_eq!(
            leak_record("Direct leak of 256 byte(s) in 4 object(s) allocated from:"),
            Some((true, 256, 4))
        );
        assert_eq!(
            leak_record("Indirect leak of 8 byte(s) in 1 object(s) allocated from:"),
            Some((false, 8, 1))
        );
        assert_eq!(
            leak_record("Direct leak of many byte(s) in 1 object(s)"),
            None
        );
        assert_eq!(leak_record("Direct leak of 8 byte(s)"), None);
    }

    #[test]
    fn report_lines() {
        assert_eq!(
            ubsan("src/p.c:796:1: runtime error: shift exponent 97 is too large"),
            Some(("src/p.c:796:1", "shift exponent 97 is too large"))
        );
        assert_eq!(
            report_header("==4242==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6"),
            Some(Header {
                said: "ERROR: AddressSanitizer: heap-buffer-overflow on address 0x6",
                tool: "AddressSanitizer",
                what: "heap-buffer-overflow on address 0x6"
            })
        );
        assert_eq!(
            report_header("WARNING: ThreadSanitizer: data race (pid=9)"),
            Some(Header {
                said: "WARNING: ThreadSanitizer: data race (pid=9)",
                tool: "ThreadSanitizer",
                what: "data race (pid=9)"
            })
        );
        assert_eq!(report_header("WARNING: deprecated: x"), None);
        assert_eq!(
            race_access("Previous write at 0x00c0000cbb98 by goroutine 13:").as_deref(),
            Some("Previous write by goroutine 13")
        );
        assert_eq!(
            race_access("Read at 0x00c000066570 by main goroutine:").as_deref(),
            Some("Read by main goroutine")
        );
        assert_eq!(race_access("Goroutine 14 (running) created at:"), None);
        assert_eq!(
            own_frame("    #1 0x55d0 in parse src/a.c:12:3"),
            Some("parse src/a.c:12:3")
        );
        assert_eq!(
            own_frame(
                "    #0 0x7f in __interceptor_memcpy ../../../../src/libsanitizer/asan/x.cpp:8"
            ),
            None
        );
        assert_eq!(
            own_frame("    #1 0x5621 in phr_decode_chunked (/src/pico/test-bin+0x20af7)"),
            Some("phr_decode_chunked (/src/pico/test-bin+0x20af7)")
        );
        for system in [
            "    #6 0x7f26 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58",
            "    #7 0x7f26 in __libc_start_main_impl ../csu/libc-start.c:360",
            "    #8 0x5621 in _start (/src/pico/test-bin+0x19320)",
            "    #2 0x7f26 in PyObject_Call (/usr/bin/python3.11+0x1b2f3)",
        ] {
            assert_eq!(own_frame(system), None, "{system}");
        }
    }
}
