//! The progress spinner (SPEC §8): on stderr only when it is a terminal and the command has run
//! for about a second; elapsed time, lines, bytes and the latest line; cleared at the end. It
//! never reaches captured output, and `-q` turns it off.
//!
//! Redrawing a line erases it, and other processes write to the same terminal: a command asking
//! for a password on /dev/tty, a background job. So the spinner watches the terminal (inotify on
//! its device and on /dev/tty: every write to either is an event) and stops for good, leaving
//! the screen as it is, as soon as anything but itself has written there. It draws nothing when
//! it cannot watch. What it cannot see: a write landing in the microseconds between one of its
//! own draws and its check that followed, which the kernel merges with its own event.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::fs::File;
use std::io::{IsTerminal, Read, Write};
use std::os::fd::FromRawFd;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::text::clean_line;

/// How long a command runs before the spinner appears.
const DELAY: Duration = Duration::from_secs(1);
/// Characters of the latest line shown.
const LATEST_WIDTH: usize = 60;

pub(crate) struct Progress {
    started: Instant,
    /// The terminal, until the spinner is first drawn.
    terminal: Option<Guarded>,
    bar: Option<ProgressBar>,
    lines: u64,
    bytes: u64,
    latest: String,
    /// The unfinished last line of the latest chunk (cut to a screen's width).
    partial: Vec<u8>,
}

impl Progress {
    /// A spinner for the current run, or `None` when stderr is not a terminal or `quiet`.
    pub(crate) fn for_terminal(quiet: bool) -> Option<Progress> {
        if quiet || !std::io::stderr().is_terminal() {
            return None;
        }
        // Watched from now on, before the command runs: what it writes before the spinner first
        // appears counts too.
        let terminal = Guarded::watch()?;
        Some(Progress {
            started: Instant::now(),
            terminal: Some(terminal),
            bar: None,
            lines: 0,
            bytes: 0,
            latest: String::new(),
            partial: Vec::new(),
        })
    }

    pub(crate) fn observe(&mut self, data: &[u8]) {
        self.bytes += data.len() as u64;
        self.lines += memchr::memchr_iter(b'\n', data).count() as u64;
        match memchr::memrchr(b'\n', data) {
            Some(end) => {
                // The last complete line: the kept start of it, then what this chunk adds.
                match memchr::memrchr(b'\n', &data[..end]) {
                    Some(i) => self.keep(&data[i + 1..end], true),
                    None => self.keep(&data[..end], false),
                }
                let text = clean_line(&self.partial);
                let text = text.trim();
                if !text.is_empty() {
                    self.latest = text.chars().take(LATEST_WIDTH).collect();
                }
                self.keep(&data[end + 1..], true);
            }
            None => self.keep(data, false),
        }
        self.tick();
    }

    /// Keeps up to a screen's width of the current line.
    fn keep(&mut self, piece: &[u8], fresh: bool) {
        if fresh {
            self.partial.clear();
        }
        let room = 256usize.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&piece[..piece.len().min(room)]);
    }

    pub(crate) fn tick(&mut self) {
        if self.bar.is_none()
            && self.started.elapsed() >= DELAY
            && let Some(terminal) = self.terminal.take()
        {
            let target = ProgressDrawTarget::term_like(Box::new(terminal));
            let bar =
                ProgressBar::with_draw_target(None, target).with_elapsed(self.started.elapsed());
            let style = ProgressStyle::with_template("{spinner} ctxoff {elapsed} · {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(120));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_message(format!(
                "{} · {} · {}",
                crate::format::plural(self.lines, "line", "lines"),
                crate::format::human_bytes(self.bytes),
                self.latest
            ));
        }
    }

    pub(crate) fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Standard error as the spinner draws on it: each frame is written at once, and only while
/// nothing else has written to the terminal since the spinner's last frame.
#[derive(Debug)]
struct Guarded {
    state: Mutex<Frame>,
}

#[derive(Debug)]
struct Frame {
    /// inotify, watching the terminal's device and /dev/tty for writes.
    watch: File,
    /// What the current frame draws, written at `flush`.
    pending: String,
    /// Something else wrote to the terminal: the spinner draws (and erases) nothing more.
    stopped: bool,
}

impl Guarded {
    /// Watches the terminal of standard error; `None` when it cannot be watched.
    fn watch() -> Option<Guarded> {
        let device = std::fs::read_link("/proc/self/fd/2").ok()?;
        // SAFETY: inotify_init1 returns a new descriptor or -1.
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        if fd < 0 {
            return None;
        }
        // SAFETY: a descriptor we just made and own.
        let watch = unsafe { File::from_raw_fd(fd) };
        let add = |path: &std::path::Path| {
            let path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).ok()?;
            // SAFETY: a valid inotify descriptor and NUL-terminated path.
            let wd = unsafe { libc::inotify_add_watch(fd, path.as_ptr(), libc::IN_MODIFY) };
            (wd >= 0).then_some(())
        };
        add(&device)?;
        // Writes through /dev/tty reach the same terminal by another inode.
        let _ = add(std::path::Path::new("/dev/tty"));
        Some(Guarded {
            state: Mutex::new(Frame {
                watch,
                pending: String::new(),
                stopped: false,
            }),
        })
    }

    fn add(&self, text: &str) -> std::io::Result<()> {
        if let Ok(mut frame) = self.state.lock() {
            frame.pending.push_str(text);
        }
        Ok(())
    }
}

impl Frame {
    /// Whether anything wrote to the terminal since the last call, emptying the queue.
    fn written(&mut self) -> bool {
        let mut buf = [0u8; 4096];
        let mut any = false;
        while matches!(self.watch.read(&mut buf), Ok(n) if n > 0) {
            any = true;
        }
        any
    }
}

impl TermLike for Guarded {
    fn width(&self) -> u16 {
        // SAFETY: TIOCGWINSZ fills a winsize for a terminal descriptor.
        let mut size: libc::winsize = unsafe { std::mem::zeroed() };
        let ok = unsafe { libc::ioctl(2, libc::TIOCGWINSZ, &mut size) } == 0;
        if ok && size.ws_col > 0 {
            size.ws_col
        } else {
            80
        }
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.add(&format!("\x1b[{n}A"))?;
        }
        Ok(())
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.add(&format!("\x1b[{n}B"))?;
        }
        Ok(())
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.add(&format!("\x1b[{n}C"))?;
        }
        Ok(())
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        if n > 0 {
            self.add(&format!("\x1b[{n}D"))?;
        }
        Ok(())
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.add(s)?;
        self.add("\n")
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.add(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.add("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        let Ok(mut frame) = self.state.lock() else {
            return Ok(());
        };
        let pending = std::mem::take(&mut frame.pending);
        if frame.stopped || pending.is_empty() {
            return Ok(());
        }
        // Events since our last frame are someone else's: leave their text alone for good.
        if frame.written() {
            frame.stopped = true;
            return Ok(());
        }
        let mut err = std::io::stderr().lock();
        let drawn = err.write_all(pending.as_bytes()).and_then(|()| err.flush());
        drop(err);
        // Our own write's event.
        frame.written();
        drawn
    }
}
