//! Python tracebacks, read line by line: `Traceback (most recent call last):`, its frames
//! (`  File "app/views.py", line 104, in update` and the source line under each), and the
//! exception line that ends it (`sqlite3.OperationalError: no such column: post_id`). What a
//! reader needs of one is what was raised and the innermost frame of the program's own code
//! (not of the standard library or an installed package), with its source line.
//!
//! The sub-tracebacks of an exception group (`  | Traceback …`, `  +-+---- 1 ----`) are read
//! as tracebacks of their own.

/// A traceback being read.
#[derive(Debug, Default)]
pub(crate) struct Traceback {
    open: bool,
    /// The innermost frame so far and its source line.
    frame: Option<(String, Option<String>)>,
    /// The innermost frame of the program's own code so far, and its source line.
    own: Option<(String, Option<String>)>,
    /// The source line of the frame just read is next.
    source_next: bool,
    /// How far the whole traceback is indented (Tornado's log indents it by 4).
    indent: usize,
}

/// What a traceback said: the exception raised and where, in the program's own code when any
/// frame is there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Raised {
    pub(crate) exception: String,
    /// `File "app/views.py", line 104, in update`.
    pub(crate) frame: Option<String>,
    /// The frame's source line (`db.execute(`).
    pub(crate) source: Option<String>,
    /// The innermost cause of a chain (`Caused by: …`), with where it was raised.
    pub(crate) cause: Option<String>,
    /// `frame` is in the program's own code (not the innermost frame for want of one).
    pub(crate) own: bool,
}

impl Raised {
    /// What was raised and where (a frame of the program's own code), without a source line
    /// or a cause.
    pub(crate) fn at(exception: String, frame: Option<String>) -> Raised {
        Raised {
            own: frame.is_some(),
            exception,
            frame,
            source: None,
            cause: None,
        }
    }

    /// A Python chain as one report: `self`, then `then`, raised while handling it (`During
    /// handling of the above exception…`, `The above exception was the direct cause…`). What
    /// was raised in the end, where in the program's own code (the first report's frame when
    /// it has one of its own: where the fault is; else the handler's), and what it came from:
    /// its type alone when the message is the same (`from sqlite3.OperationalError`).
    pub(crate) fn chained(self, then: Raised) -> Raised {
        let message = then.exception.split_once(": ").map(|(_, m)| m);
        let cause = match self.cause {
            Some(cause) => Some(cause),
            // Raised again as it was: it came from nothing else.
            None if self.exception == then.exception => None,
            None => Some(match self.exception.split_once(": ") {
                Some((kind, m)) if message == Some(m) => {
                    format!("from {kind}")
                }
                _ => format!("from {}", self.exception),
            }),
        };
        let (frame, source, own) = if self.own || !then.own {
            (self.frame, self.source, self.own)
        } else {
            (then.frame, then.source, true)
        };
        Raised {
            exception: then.exception,
            frame,
            source,
            cause,
            own,
        }
    }

    /// The exception, the frame and its source line, the innermost cause, in that order.
    pub(crate) fn detail(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.exception.as_str())
            .chain(self.frame.as_deref())
            .chain(self.source.as_deref())
            .chain(self.cause.as_deref())
    }
}

/// How long a traceback's lines kept may be.
const KEPT_CHARS: usize = 300;

impl Traceback {
    /// Whether a traceback is being read (between its first line and its exception).
    pub(crate) fn is_open(&self) -> bool {
        self.open
    }

    /// One line of output; the exception that ends a traceback, when this is it.
    pub(crate) fn line(&mut self, text: &str) -> Option<Raised> {
        let t = without_group_prefix(text);
        let first = t.trim_start_matches(' ');
        if first == "Traceback (most recent call last):"
            || first == "Exception Group Traceback (most recent call last):"
        {
            *self = Traceback {
                open: true,
                indent: t.len() - first.len(),
                ..Traceback::default()
            };
            return None;
        }
        if !self.open {
            return None;
        }
        // Read as if not indented; a line indented less ends the traceback as its exception.
        let t = match t.get(..self.indent) {
            Some(lead) if lead.bytes().all(|b| b == b' ') => &t[self.indent..],
            _ => t.trim_start_matches(' '),
        };
        // loguru's `backtrace=True` marks the frame the exception was caught in: `> File "…`.
        let loguru_caught = t.strip_prefix("> File \"");
        if let Some(frame) = t.strip_prefix("  File \"").or(loguru_caught) {
            let path = frame.split('"').next().unwrap_or("");
            let frame = (
                crate::format::cut(&format!("File \"{}", frame.trim_end()), KEPT_CHARS),
                None,
            );
            if is_own(path) {
                self.own = Some(frame.clone());
            }
            self.frame = Some(frame);
            self.source_next = true;
            return None;
        }
        if t.starts_with(' ') || t.is_empty() {
            // The source line of the frame above, the carets under it (`~~~^^^`), or a
            // `[Previous line repeated 996 more times]`.
            let source = t.trim();
            // A blank line is none of these (supervisord ends each chunk it logs with one).
            if source.is_empty() {
                return None;
            }
            if std::mem::take(&mut self.source_next)
                && !source.starts_with('[')
                && !source.chars().all(|c| matches!(c, '^' | '~'))
            {
                let source = Some(crate::format::cut(source, KEPT_CHARS));
                if let Some(f) = &mut self.frame {
                    f.1.clone_from(&source);
                }
                if let Some(own) = &mut self.own
                    && self.frame.as_ref().is_some_and(|f| f.0 == own.0)
                {
                    own.1 = source;
                }
            }
            return None;
        }
        // A record of another program between its lines (supervisord's, as the traceback's
        // next chunk came: `2026-12-07 16:29:03,213 DEBG 'worker' stderr output:`) is not its
        // exception, whose name starts with a letter.
        if t.starts_with(|c: char| c.is_ascii_digit()) {
            return None;
        }
        // The exception line: the first line that is neither a frame nor indented.
        self.open = false;
        let own = self.own.is_some();
        let (frame, source) = self
            .own
            .take()
            .or_else(|| self.frame.take())
            .map_or((None, None), |(f, s)| (Some(f), s));
        Some(Raised {
            exception: crate::format::cut(t.trim(), KEPT_CHARS),
            frame,
            source,
            cause: None,
            own,
        })
    }
}

/// A failing test's traceback as a test runner prints it under the test's name (zope's
/// `Failure in test …`, green's `Error in …`, stestr's `Captured traceback:`), chains included:
/// what was raised in the end, where in the program's own code, and the first frame in a test
/// file when that is elsewhere (where the test reached what raised).
#[derive(Debug, Default)]
pub(crate) struct TestTraceback {
    trace: Traceback,
    raised: Option<Raised>,
    /// The first frame in a test file: its place (`tests/test_a.py:42`) and as printed.
    test_frame: Option<(String, String)>,
}

impl TestTraceback {
    /// A traceback whose frames may come without a `Traceback (most recent call last):` line
    /// (green prints none).
    pub(crate) fn open() -> TestTraceback {
        let mut t = TestTraceback::default();
        t.trace.line("Traceback (most recent call last):");
        t
    }

    pub(crate) fn line(&mut self, text: &str) {
        if text.starts_with("During handling of the above exception")
            || text.starts_with("The above exception was the direct cause")
        {
            self.trace.line("Traceback (most recent call last):");
            return;
        }
        // Twisted's failure without a stack: `Traceback (failure with no frames): <class
        // 'KeyError'>: 'a'`.
        if let Some(exception) = text.strip_prefix("Traceback (failure with no frames): ") {
            self.raised = Some(Raised::at(exception.to_owned(), None));
            return;
        }
        if self.test_frame.is_none()
            && self.trace.is_open()
            && let Some(place) = frame_place(text.trim_start())
            && super::names::is_test_file(&place)
        {
            self.test_frame = Some((place, text.trim().to_owned()));
        }
        if let Some(raised) = self.trace.line(text) {
            self.raised = Some(match self.raised.take() {
                Some(first) => first.chained(raised),
                None => raised,
            });
        }
    }

    /// Whether an exception ended it and no chained traceback follows yet.
    pub(crate) fn is_done(&self) -> bool {
        self.raised.is_some() && !self.trace.is_open()
    }

    /// The exception, the frame of the project's own code where it was raised and the first
    /// frame in a test file when that is another, as Python prints them (`File "pkg/a.py",
    /// line 12, in f`), and what it came from; none when nothing was raised.
    pub(crate) fn details(self) -> Vec<String> {
        let Some(raised) = self.raised else {
            return Vec::new();
        };
        let from = self
            .test_frame
            .filter(|t| raised.frame.as_deref().and_then(frame_place).as_ref() != Some(&t.0));
        let mut details = vec![raised.exception];
        details.extend(raised.frame);
        details.extend(from.map(|t| t.1));
        details.extend(raised.cause);
        details
    }
}

/// `File "pkg/a.py", line 12, in f` → `pkg/a.py:12`.
pub(crate) fn frame_place(frame: &str) -> Option<String> {
    let rest = frame.strip_prefix("File \"")?;
    let (path, rest) = rest.split_once("\", line ")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| format!("{path}:{}", &rest[..digits]))
}

/// `  | Traceback …` → `Traceback …` (the sub-tracebacks of an exception group, at any depth).
fn without_group_prefix(text: &str) -> &str {
    let trimmed = text.trim_start();
    for prefix in ["| ", "+ "] {
        if let Some(rest) = trimmed.strip_prefix(prefix) {
            return rest;
        }
    }
    text
}

/// A file of the program's own code: not the standard library, an installed package or code
/// made on the fly (`<frozen importlib._bootstrap>`, `<doctest x[1]>`, `<string>`).
pub(crate) fn is_own(path: &str) -> bool {
    !(path.starts_with('<')
        || path.contains("/site-packages/")
        || path.contains("/dist-packages/")
        || is_standard_library(path))
}

/// `/usr/lib/python3.11/json/decoder.py`, `…/versions/3.11.7/lib/python3.11/socket.py`.
fn is_standard_library(path: &str) -> bool {
    path.split('/')
        .collect::<Vec<_>>()
        .windows(2)
        .any(|w| w[0] == "lib" && w[1].starts_with("python"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<Raised> {
        let mut t = Traceback::default();
        text.lines().filter_map(|l| t.line(l)).collect()
    }

    /// A supervisor's record between two chunks of a program's traceback is not its
    /// exception.
    #[test]
    fn a_record_between_its_lines_is_not_the_exception() {
        let raised = read(
            "Traceback (most recent call last):\n  File \"/a/worker.py\", line 4, in <module>\n\n\
             2026-12-07 16:29:03,213 DEBG 'worker' stderr output:\n    cfg = load()\n\
             FileNotFoundError: [Errno 2] No such file\n",
        );
        assert_eq!(raised.len(), 1);
        assert_eq!(
            raised[0].exception,
            "FileNotFoundError: [Errno 2] No such file"
        );
        assert_eq!(raised[0].source.as_deref(), Some("cfg = load()"));
    }

    /// A chain as one report: the last exception; the first report's own frame when it has
    /// one, else the handler's; where it came from, its type alone when the message is the
    /// same, nothing when it was raised again as it was.
    #[test]
    fn a_chain_is_its_last_exception_at_the_first_own_frame() {
        let library = |e: &str| Raised {
            source: Some("return lib()".into()),
            own: false,
            ..Raised::at(
                e.into(),
                Some("File \"/v/site-packages/lib.py\", line 9".into()),
            )
        };
        let own = |e: &str, line: u32| Raised {
            source: Some("call()".into()),
            ..Raised::at(
                e.into(),
                Some(format!("File \"app/views.py\", line {line}")),
            )
        };
        let handled = library("sqlite3.OperationalError: no table")
            .chained(own("django.db.utils.OperationalError: no table", 38));
        assert_eq!(
            handled.detail().collect::<Vec<_>>(),
            [
                "django.db.utils.OperationalError: no table",
                "File \"app/views.py\", line 38",
                "call()",
                "from sqlite3.OperationalError"
            ]
        );
        let at_fault = own("KeyError: 'x'", 4).chained(own("RuntimeError: bad config", 6));
        assert_eq!(
            at_fault.detail().collect::<Vec<_>>(),
            [
                "RuntimeError: bad config",
                "File \"app/views.py\", line 4",
                "call()",
                "from KeyError: 'x'"
            ]
        );
        let again = own("ValueError: v", 4).chained(own("ValueError: v", 6));
        assert_eq!(again.cause, None);
    }

    /// A test's traceback: the chain's last exception at the project's frame, from the test's
    /// line; green's frames without a `Traceback` line; trial's failure without frames.
    #[test]
    fn a_tests_traceback_says_what_was_raised_where_and_from_which_test_line() {
        let mut t = TestTraceback::open();
        for line in [
            "  File \"/p/tests/test_a.py\", line 40, in test_x",
            "    f()",
            "  File \"/p/pkg/a.py\", line 12, in f",
            "    raise KeyError('k')",
            "KeyError: 'k'",
            "",
            "During handling of the above exception, another exception occurred:",
            "",
            "  File \"/p/pkg/a.py\", line 14, in f",
            "    raise ValueError(msg)",
            "ValueError: bad k",
        ] {
            t.line(line);
        }
        assert!(t.is_done());
        assert_eq!(
            t.details(),
            [
                "ValueError: bad k",
                "File \"/p/pkg/a.py\", line 12, in f",
                "File \"/p/tests/test_a.py\", line 40, in test_x",
                "from KeyError: 'k'"
            ]
        );
        let mut t = TestTraceback::default();
        t.line("Traceback (failure with no frames): <class 'KeyError'>: 'a'");
        assert!(t.is_done());
        assert_eq!(t.details(), ["<class 'KeyError'>: 'a'"]);
    }

    #[test]
    fn the_exception_and_the_innermost_frame_of_the_programs_own_code() {
        let raised = read(
            "[2026-12-02 05:20:08,690] ERROR in app: Exception on /1/update [POST]
Traceback (most recent call last):
  File \"/home/dev/.pyenv/versions/3.11.7/lib/python3.11/site-packages/flask/app.py\", line 1511, in wsgi_app
    response = self.full_dispatch_request()
               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File \"/home/dev/app/flaskr/blog.py\", line 104, in update
    db.execute(
  File \"/usr/lib/python3.11/sqlite3/dbapi2.py\", line 9, in execute
    raise
sqlite3.OperationalError: no such column: post_id
127.0.0.1 - - [02/Dec/2026 05:20:08] \"POST /1/update HTTP/1.1\" 500 -",
        );
        assert_eq!(
            raised,
            [Raised {
                exception: "sqlite3.OperationalError: no such column: post_id".into(),
                frame: Some("File \"/home/dev/app/flaskr/blog.py\", line 104, in update".into()),
                source: Some("db.execute(".into()),
                cause: None,
                own: true,
            }]
        );
    }

    #[test]
    fn without_a_frame_of_its_own_the_innermost_one_and_groups_read_apart() {
        let raised = read(
            "  + Exception Group Traceback (most recent call last):
  |   File \"<frozen runpy>\", line 1, in <module>
  | ExceptionGroup: two (2 sub-exceptions)
  +-+---------------- 1 ----------------
    | Traceback (most recent call last):
    |   File \"t.py\", line 3, in f
    |     raise ValueError(1)
    | ValueError: 1
    +------------------------------------",
        );
        assert_eq!(raised.len(), 2);
        assert_eq!(
            raised[0].exception,
            "ExceptionGroup: two (2 sub-exceptions)"
        );
        assert_eq!(
            raised[0].frame.as_deref(),
            Some("File \"<frozen runpy>\", line 1, in <module>")
        );
        assert_eq!(raised[1].exception, "ValueError: 1");
        assert_eq!(raised[1].source.as_deref(), Some("raise ValueError(1)"));
    }
}
