//! Crash reports of programs, read line by line wherever they are printed (a log, a script's
//! output): Python tracebacks (`pytrace`), JVM stack traces (`Exception in thread "main" …`,
//! `\tat …`, `Caused by: …`), JavaScript errors with their stack (`TypeError: …`, `    at …`),
//! Go panics (`panic: …`, `goroutine 1 [running]:` and its frames) and Rust panics (`thread
//! 'main' panicked at src/main.rs:4:5:` and the message under it). Each is reported once,
//! when it is complete, as what was raised, where in the program's own code (not the
//! runtime's, the standard library's or an installed package's), and for a chain of causes,
//! the innermost cause.

use super::gotest::is_own_function;
use super::jest::location as js_place;
use super::pytrace::{Raised, Traceback};
use crate::format::cut;

/// How long a crash report's lines kept may be.
const KEPT_CHARS: usize = 300;

/// Every reader of crash reports, fed the same lines.
#[derive(Debug, Default)]
pub(crate) struct Crashes {
    python: Traceback,
    jvm: Stack,
    js: Stack,
    go: GoPanic,
    rust: RustPanic,
}

impl Crashes {
    /// One line of output: the crash report it completed, if any, and whether the line was
    /// part of a report (and so is no record of its own).
    pub(crate) fn line(&mut self, text: &str) -> (Option<Raised>, bool) {
        let reading = self.python.is_open();
        if let Some(raised) = self.python.line(text) {
            return (Some(raised), true);
        }
        if reading || self.python.is_open() {
            return (None, true);
        }
        for (stack, kind) in [(&mut self.jvm, Kind::Jvm), (&mut self.js, Kind::Js)] {
            match stack.line(text, kind) {
                Step::Outside => {}
                Step::Inside => return (None, true),
                Step::Ended(raised, consumed) => return (Some(raised), consumed),
            }
        }
        match self.go.line(text) {
            Step::Outside => {}
            Step::Inside => return (None, true),
            Step::Ended(raised, consumed) => return (Some(raised), consumed),
        }
        match self.rust.line(text) {
            Step::Outside => (None, false),
            Step::Inside => (None, true),
            Step::Ended(raised, consumed) => (Some(raised), consumed),
        }
    }

    /// Whether a panic (Go's, Rust's) is being read: a program's own report, never a
    /// record's detail.
    pub(crate) fn is_panic_open(&self) -> bool {
        self.go.state != GoState::Outside || self.rust.place.is_some()
    }

    /// Whether a report is being read.
    pub(crate) fn is_open(&self) -> bool {
        self.python.is_open()
            || self.jvm.open
            || self.js.open
            || self.go.state != GoState::Outside
            || self.rust.place.is_some()
    }

    /// The end of the output: a report still open is complete.
    pub(crate) fn finish(&mut self) -> Option<Raised> {
        self.jvm
            .end()
            .or_else(|| self.js.end())
            .or_else(|| self.go.end())
    }
}

enum Step {
    Outside,
    Inside,
    /// A report ended: what it raised, and whether this line was still part of it.
    Ended(Raised, bool),
}

#[derive(Clone, Copy)]
enum Kind {
    Jvm,
    Js,
}

/// A JVM or JavaScript stack trace: its header (the exception), its frames, its causes.
#[derive(Debug, Default)]
struct Stack {
    /// A header seen on the line before, waiting for its first frame.
    candidate: Option<String>,
    open: bool,
    exception: String,
    frame: Option<String>,
    /// The innermost `Caused by:` so far, and its first frame of the program's own code.
    cause: Option<String>,
    cause_frame: Option<String>,
    /// `cause_frame` is the innermost cause's own, not the one before's.
    cause_own_frame: bool,
}

impl Stack {
    fn line(&mut self, text: &str, kind: Kind) -> Step {
        let frame = match kind {
            Kind::Jvm => text
                .strip_prefix('\t')
                .or_else(|| text.strip_prefix("    "))
                .and_then(|t| t.strip_prefix("at ")),
            Kind::Js => text
                .trim_start()
                .strip_prefix("at ")
                .filter(|_| text.starts_with("    ")),
        };
        if let Some(frame) = frame {
            if let Some(header) = self.candidate.take() {
                *self = Stack {
                    open: true,
                    exception: header,
                    ..Stack::default()
                };
            }
            if self.open {
                let own = match kind {
                    Kind::Jvm => is_own_jvm_frame(frame).then(|| frame.to_owned()),
                    Kind::Js => js_place(&format!("at {frame}")).map(str::to_owned),
                };
                if let Some(own) = own {
                    let at = || Some(format!("at {}", cut(&own, KEPT_CHARS)));
                    if self.cause.is_none() {
                        if self.frame.is_none() {
                            self.frame = at();
                        }
                    } else if !self.cause_own_frame {
                        self.cause_frame = at();
                        self.cause_own_frame = true;
                    }
                }
                return Step::Inside;
            }
            return Step::Outside;
        }
        if self.open {
            let t = text.trim_start();
            if let Some(cause) = text.strip_prefix("Caused by: ") {
                // Its frame is the one before's until it shows one of its own: a cause whose
                // frames are all the enclosing one's (`... 6 more`) was thrown there.
                self.cause = Some(cut(&format!("Caused by: {cause}"), KEPT_CHARS));
                self.cause_own_frame = false;
                return Step::Inside;
            }
            if matches!(kind, Kind::Jvm) && (t.starts_with("... ") || t.starts_with("Suppressed: "))
            {
                return Step::Inside;
            }
            let raised = self.end();
            self.candidate = header(text, kind);
            return match raised {
                Some(raised) => Step::Ended(raised, false),
                None => Step::Outside,
            };
        }
        self.candidate = header(text, kind);
        Step::Outside
    }

    /// The trace is complete: what it raised.
    fn end(&mut self) -> Option<Raised> {
        if !self.open {
            return None;
        }
        let s = std::mem::take(self);
        Some(Raised {
            cause: s.cause.map(|c| match s.cause_frame {
                Some(f) => format!("{c} {f}"),
                None => c,
            }),
            ..Raised::at(s.exception, s.frame)
        })
    }
}

/// A line that may head a stack trace: `Exception in thread "main" java.lang.X: …`,
/// `java.lang.NullPointerException: …`, `com.example.LedgerException`, `TypeError: …`.
fn header(text: &str, kind: Kind) -> Option<String> {
    names_exception(text, kind).then(|| cut(text.trim_end(), KEPT_CHARS))
}

/// Whether `text` opens with an exception's or error's name, as a JavaScript or Python runtime
/// prints one (`TypeError: …`, `AssertionError [ERR_ASSERTION]: …`, `Exception: …`).
pub(crate) fn is_exception_line(text: &str) -> bool {
    names_exception(text, Kind::Js)
}

/// [`header`]'s test, without keeping the line.
fn names_exception(text: &str, kind: Kind) -> bool {
    // A class's name starts with a letter (and so do `Uncaught ` and `Exception in thread`).
    if !text.bytes().next().is_some_and(|b| b.is_ascii_alphabetic()) {
        return false;
    }
    let t = text.strip_prefix("Uncaught ").unwrap_or(text);
    let class = t
        .strip_prefix("Exception in thread \"")
        .and_then(|r| r.split_once("\" "))
        .map_or(t, |(_, r)| r);
    let name = &class[..memchr::memchr2(b':', b' ', class.as_bytes()).unwrap_or(class.len())];
    let named =
        name.ends_with("Exception") || name.ends_with("Error") || name.ends_with("Throwable");
    if !named {
        return false;
    }
    let shaped = match kind {
        // A class's full name: `java.lang.IllegalStateException`.
        Kind::Jvm => name.contains('.') && name.split('.').all(|p| !p.is_empty()),
        Kind::Js => name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.'),
    };
    shaped && !name.is_empty()
}

/// A JVM frame of the program's own code, not the JDK's or the language runtime's
/// (`java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)`).
fn is_own_jvm_frame(frame: &str) -> bool {
    let frame = frame
        .split_once('/')
        .filter(|(m, _)| !m.contains('('))
        .map_or(frame, |(_, f)| f);
    ![
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "kotlinx.", "scala.", "jakarta.",
    ]
    .iter()
    .any(|p| frame.starts_with(p))
}

/// net/http's report of a handler's panic: `http: panic serving 127.0.0.1:5000: …`.
static PANIC_SERVING: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
    std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b": panic serving "));

#[derive(Debug, Default, PartialEq, Eq)]
enum GoState {
    #[default]
    Outside,
    /// After the `panic:` line, before its `goroutine N [running]:`.
    Panicked,
    /// In the goroutines' frames.
    Frames,
}

/// A Go panic: `panic: …` (or net/http's `http: panic serving …`), then its goroutines.
#[derive(Debug, Default)]
struct GoPanic {
    state: GoState,
    exception: String,
    /// Lines since the `panic:` line, waiting for the goroutine header.
    waited: u8,
    /// The last function line, when it was the program's own (without its arguments).
    own_function: Option<String>,
    frame: Option<String>,
}

impl GoPanic {
    fn line(&mut self, text: &str) -> Step {
        match self.state {
            GoState::Outside => {
                if text.starts_with("panic: ") || PANIC_SERVING.find(text.as_bytes()).is_some() {
                    *self = GoPanic {
                        state: GoState::Panicked,
                        exception: cut(text.trim_end(), KEPT_CHARS),
                        ..GoPanic::default()
                    };
                }
                Step::Outside
            }
            GoState::Panicked => {
                if text.starts_with("goroutine ") && text.ends_with(':') {
                    self.state = GoState::Frames;
                    return Step::Inside;
                }
                // `panic: x [recovered]` is followed by `\tpanic: x` and a blank line.
                self.waited += 1;
                if self.waited > 3 {
                    self.state = GoState::Outside;
                    return Step::Outside;
                }
                Step::Inside
            }
            GoState::Frames => {
                if let Some(file) = text.strip_prefix('\t') {
                    if let Some(function) = self.own_function.take()
                        && self.frame.is_none()
                    {
                        let at = file.split(" +0x").next().unwrap_or(file);
                        self.frame = Some(cut(&format!("at {function} ({at})"), KEPT_CHARS));
                    }
                    return Step::Inside;
                }
                let t = text.trim_end();
                if t.is_empty() || (t.starts_with("goroutine ") && t.ends_with(':')) {
                    return Step::Inside;
                }
                if t.ends_with(')') || t.starts_with("created by ") {
                    self.own_function = is_own_function(t)
                        .then(|| t.rsplit_once('(').map_or(t, |(f, _)| f).to_owned());
                    return Step::Inside;
                }
                match self.end() {
                    Some(raised) => Step::Ended(raised, false),
                    None => Step::Outside,
                }
            }
        }
    }

    fn end(&mut self) -> Option<Raised> {
        if self.state != GoState::Frames {
            self.state = GoState::Outside;
            return None;
        }
        let s = std::mem::take(self);
        Some(Raised::at(s.exception, s.frame))
    }
}

/// A Rust panic: `thread 'main' panicked at src/main.rs:4:5:` and its message on the next
/// line (Rust 1.73 and later; a thread id may follow the name: `thread 'main' (17220) …`).
#[derive(Debug, Default)]
struct RustPanic {
    /// The panic's line, until its message.
    place: Option<String>,
}

impl RustPanic {
    fn line(&mut self, text: &str) -> Step {
        if let Some(header) = self.place.take() {
            // In the panic's own words: `thread 'main' panicked at src/main.rs:4:5: …`.
            let exception = cut(&format!("{header} {}", text.trim()), KEPT_CHARS);
            return Step::Ended(Raised::at(exception, None), true);
        }
        if let Some(rest) = text.strip_prefix("thread '")
            && let Some((_, after)) = rest.split_once(" panicked at ")
            && let Some(place) = after.strip_suffix(':')
            && !place.contains(' ')
        {
            self.place = Some(cut(text.trim_end(), KEPT_CHARS));
            return Step::Inside;
        }
        Step::Outside
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Raised> {
        let mut c = Crashes::default();
        let mut out: Vec<Raised> = text.lines().filter_map(|l| c.line(l).0).collect();
        out.extend(c.finish());
        out
    }

    #[test]
    fn a_jvm_trace_with_its_own_frame_and_innermost_cause() {
        let raised = read(
            "SEVERE: 2026-01.csv:30: cannot convert row
java.lang.NullPointerException: Cannot read field \"scale\"
\tat java.base/java.math.BigDecimal.multiply(BigDecimal.java:1572)
\tat com.example.ledger.Rates.toEur(Rates.java:37)
\tat com.example.ledger.Importer.parseRow(Importer.java:101)

Exception in thread \"main\" java.lang.IllegalStateException: aborted
\tat com.example.ledger.Main.main(Main.java:40)
Caused by: com.example.LedgerException: checksum mismatch
\tat com.example.ledger.Importer.check(Importer.java:86)
\t... 3 more
Dec 02, 2026 6:54:19 AM com.example.ledger.Importer call",
        );
        assert_eq!(raised.len(), 2, "{raised:?}");
        assert_eq!(
            raised[0].detail().collect::<Vec<_>>(),
            [
                "java.lang.NullPointerException: Cannot read field \"scale\"",
                "at com.example.ledger.Rates.toEur(Rates.java:37)"
            ]
        );
        assert_eq!(
            raised[1].cause.as_deref(),
            Some(
                "Caused by: com.example.LedgerException: checksum mismatch at \
                 com.example.ledger.Importer.check(Importer.java:86)"
            )
        );
    }

    /// The innermost cause shows no frame of its own (`... 6 more`: all are the enclosing
    /// cause's): it was thrown at the enclosing cause's own frame, not at none.
    #[test]
    fn an_innermost_cause_without_frames_of_its_own_takes_the_enclosing_one_s() {
        let raised = read(
            "Exception in thread \"main\" java.lang.IllegalStateException: aborted
\tat com.example.ledger.Main.main(Main.java:40)
Caused by: java.util.concurrent.ExecutionException: checksum mismatch
\tat java.base/java.util.concurrent.FutureTask.report(FutureTask.java:122)
\tat com.example.ledger.Main.main(Main.java:36)
Caused by: com.example.LedgerException: checksum mismatch
\tat com.example.ledger.Importer.call(Importer.java:86)
\tat com.example.ledger.Importer.call(Importer.java:17)
Caused by: java.lang.IllegalArgumentException: row count 46 does not match the trailer
\t... 6 more
INFO: next",
        );
        assert_eq!(
            raised[0].cause.as_deref(),
            Some(
                "Caused by: java.lang.IllegalArgumentException: row count 46 does not match the \
                 trailer at com.example.ledger.Importer.call(Importer.java:86)"
            )
        );
    }

    #[test]
    fn javascript_go_and_rust_crashes() {
        let raised = read(
            "TypeError: Cannot read properties of undefined (reading 'toUpperCase')
    at Object.handler (/home/dev/app/app.js:26:42)
    at node:internal/process/task_queues:95:5
next line
panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.compact(...)
\t/home/dev/kv/store.go:83 +0x1d
main.main()
\t/home/dev/kv/main.go:12 +0x25
exit status 2
thread 'main' (17220) panicked at src/main.rs:143:57:
called `Result::unwrap()` on an `Err` value: NotFound
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        );
        let said: Vec<(String, Option<String>)> = raised
            .iter()
            .map(|r| (r.exception.clone(), r.frame.clone()))
            .collect();
        assert_eq!(
            said,
            [
                (
                    "TypeError: Cannot read properties of undefined (reading 'toUpperCase')".into(),
                    Some("at /home/dev/app/app.js:26:42".into())
                ),
                (
                    "panic: runtime error: index out of range [3] with length 3".into(),
                    Some("at main.compact (/home/dev/kv/store.go:83)".into())
                ),
                (
                    "thread 'main' (17220) panicked at src/main.rs:143:57: called \
                     `Result::unwrap()` on an `Err` value: NotFound"
                        .into(),
                    None
                ),
            ]
        );
    }
}
