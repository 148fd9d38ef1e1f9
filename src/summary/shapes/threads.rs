//! pytest-timeout's report of a test that ran out of time: `+++ Timeout +++`, then each
//! thread's stack under `~~~ Stack of Thread-70 (run) (1405…) ~~~`, outermost frame first, in
//! Python's traceback form, and the banner again. With its thread method the process is
//! killed there, so pytest prints no summary: the dump is all there is to say why the run
//! stopped.
//!
//! Counted: the threads dumped, by where each waits (its innermost frame in the project's own
//! code, not the standard library's or an installed package's). The first thread waiting in
//! each place is a failure, named by its header as printed, its detail that frame and its
//! source line; the main thread's place is where the test itself waits.

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::pytrace::{frame_place, is_own};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// How long a frame or source line kept may be.
const KEPT_CHARS: usize = 300;

#[derive(Debug, Default)]
pub(crate) struct ThreadDump {
    /// Timeouts reported (an opening banner each).
    timeouts: u64,
    /// Between a banner and the next.
    in_dump: bool,
    threads: u64,
    /// Threads by the place they wait in (`lock.py:191 in _acquire_write_lock`): a place
    /// first counted is a failure.
    places: Tally,
    /// Threads whose stack has no frame of the project's own.
    elsewhere: u64,
    /// The thread being read.
    thread: Option<Thread>,
    failures: Failures,
}

#[derive(Debug, Default)]
struct Thread {
    line: u64,
    /// `~~~ Stack of Thread-70 (run) (140512698803904) ~~~`.
    header: String,
    /// The innermost frame of the project's own code so far, and its source line.
    frame: Option<(String, Option<String>)>,
    /// The frame just read is that one: its source line is next.
    source_next: bool,
}

impl Shape for ThreadDump {
    fn line(&mut self, number: u64, text: &str) {
        // Cheap first: a banner ends with `+`, a header starts with `~`.
        let banner = text.ends_with('+') && text.contains("+ Timeout +");
        if banner {
            self.end_thread();
            self.in_dump = !self.in_dump;
            self.timeouts += u64::from(self.in_dump);
            return;
        }
        if !self.in_dump {
            return;
        }
        if text.starts_with("~~") {
            let name = text.trim_matches(['~', ' ']);
            if name.starts_with("Stack of ") {
                self.end_thread();
                self.threads += 1;
                self.thread = Some(Thread {
                    line: number,
                    header: cut(&format!("~~~ {name} ~~~"), KEPT_CHARS),
                    ..Thread::default()
                });
            }
            return;
        }
        let Some(thread) = &mut self.thread else {
            return;
        };
        let t = text.trim();
        if let Some(frame) = t.strip_prefix("File \"") {
            thread.source_next = is_own(frame.split('"').next().unwrap_or(""));
            if thread.source_next {
                thread.frame = Some((cut(t, KEPT_CHARS), None));
            }
        } else if std::mem::take(&mut thread.source_next)
            && !t.is_empty()
            && let Some((_, source)) = &mut thread.frame
        {
            *source = Some(cut(t, KEPT_CHARS));
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_thread();
        if self.timeouts == 0 || self.threads == 0 {
            return None;
        }
        let times = match self.timeouts {
            1 => String::new(),
            n => format!(" ×{}", thousands(n)),
        };
        let mut line = format!(
            "timeout: +++ Timeout +++{times} (pytest-timeout): {} dumped",
            plural(self.threads, "thread's stack", "threads' stacks")
        );
        if let Some(places) = self.places.render() {
            line.push_str(&format!("; waiting in {places}"));
        }
        if self.elsewhere > 0 {
            line.push_str(&format!(
                "; {} in no frame of the project's",
                plural(self.elsewhere, "thread", "threads")
            ));
        }
        let json = json!({
            "shape": "timeout",
            "timeouts": self.timeouts,
            "threads": self.threads,
            "places": self.places.json(),
            "elsewhere": self.elsewhere,
        });
        let failures = self
            .failures
            .take_as("threads, the first waiting in each place");
        Some(
            Fact::new("timeout", vec![line], json)
                .failures(failures)
                .hint("'^~+ Stack of |\\+ Timeout \\+' -A 12"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.places.approx_heap()
            + self.failures.approx_heap()
            + self.thread.as_ref().map_or(0, |t| {
                t.header.capacity()
                    + t.frame.as_ref().map_or(0, |(f, s)| {
                        f.capacity() + s.as_ref().map_or(0, String::capacity)
                    })
            })
    }
}

impl ThreadDump {
    /// The thread read is complete: counted by where it waits, and a failure when it is the
    /// first to wait there.
    fn end_thread(&mut self) {
        let Some(thread) = self.thread.take() else {
            return;
        };
        let Some((frame, source)) = thread.frame else {
            self.elsewhere += 1;
            return;
        };
        let place = place(&frame);
        let first = self.places.iter().all(|(seen, _)| seen != place);
        self.places.add(&place);
        // Past the places a tally keeps, none is known to be first.
        if !first || self.places.distinct().is_none() {
            return;
        }
        self.failures.push(thread.line, &thread.header);
        if let Some(f) = self.failures.current() {
            f.add_detail(&frame);
            if let Some(source) = source {
                f.add_detail(&source);
            }
        }
    }
}

/// `File "/src/fasteners/lock.py", line 191, in _acquire_write_lock` → `fasteners/lock.py:191
/// in _acquire_write_lock` (the file by its directory and name).
fn place(frame: &str) -> String {
    let Some(at) = frame_place(frame) else {
        return frame.to_owned();
    };
    let short = at
        .rmatch_indices('/')
        .nth(1)
        .map_or(&at[..], |(i, _)| &at[i + 1..]);
    match frame.rsplit_once(", in ") {
        Some((_, function)) => format!("{short} in {function}"),
        None => short.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_is_its_file_by_directory_line_and_function() {
        assert_eq!(
            place(
                "File \"/home/dev/fasteners-0.20/fasteners/lock.py\", line 191, in _acquire_write_lock"
            ),
            "fasteners/lock.py:191 in _acquire_write_lock"
        );
        assert_eq!(place("File \"a.py\", line 3"), "a.py:3");
        assert_eq!(place("File \"x"), "File \"x");
    }
}
