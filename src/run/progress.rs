//! The progress spinner (SPEC §8): on stderr only when it is a terminal and the command has run
//! for about a second; elapsed time, lines, bytes and the latest line; cleared at the end. It
//! never reaches captured output, and `-q` turns it off.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

use crate::text::clean_line;

/// How long a command runs before the spinner appears.
const DELAY: Duration = Duration::from_secs(1);
/// Characters of the latest line shown.
const LATEST_WIDTH: usize = 60;

pub(crate) struct Progress {
    started: Instant,
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
        (!quiet && std::io::stderr().is_terminal()).then(|| Progress {
            started: Instant::now(),
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
        if self.bar.is_none() && self.started.elapsed() >= DELAY {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
                .with_elapsed(self.started.elapsed());
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
