//! The line worker: numbers lines, keeps both ends of the output for the preview, and feeds the
//! analysis, in bounded memory.

use std::collections::VecDeque;

use crate::summary::preview::{Ends, Preview};
use crate::summary::{self, Analysis, Report};
use crate::text::clean_line;
use crate::tokens::Tokenizer;

/// How much of each end of the output is kept for the preview.
const KEEP: usize = 256 * 1024;
/// Lines longer than this reach the analysis cut to this length.
const LINE_CAP: usize = 64 * 1024;
/// The most the line scan takes at once.
const SCAN_PIECE: usize = 256 * 1024;
/// The line worker: numbers lines, keeps both ends of the output, feeds the analysis.
pub(super) struct LineScan {
    pub(super) analysis: Analysis,
    pub(super) total: u64,
    bytes: u64,
    /// The current line, cut to `LINE_CAP`.
    partial: Vec<u8>,
    partial_len: usize,
    start: Vec<u8>,
    end: VecDeque<u8>,
    /// The byte just before `end`, once the output is longer than the window.
    before_end: Option<u8>,
}

/// What the line worker hands back.
pub(super) struct LineReport {
    pub(super) analysis: Analysis,
    pub(super) total: u64,
    bytes: u64,
    start: Vec<u8>,
    end: Vec<u8>,
    before_end: Option<u8>,
}

impl LineReport {
    /// Head, tail and report (see [`summary::summarise`]).
    pub(super) fn summarise(
        self,
        tokenizer: &Tokenizer,
        budget: u64,
        tokens: Option<u64>,
    ) -> (Preview, Report) {
        let ends = Ends {
            start: &self.start,
            end: &self.end,
            end_at_line_start: self.before_end.is_none_or(|b| b == b'\n'),
            whole: self.bytes as usize == self.start.len(),
            total_lines: self.total,
            total_bytes: self.bytes,
        };
        summary::summarise(self.analysis, &ends, tokenizer, budget, tokens)
    }
}

impl LineScan {
    pub(super) fn new(analysis: Analysis) -> LineScan {
        LineScan {
            analysis,
            total: 0,
            bytes: 0,
            partial: Vec::new(),
            partial_len: 0,
            start: Vec::new(),
            end: VecDeque::new(),
            before_end: None,
        }
    }

    pub(super) fn feed(&mut self, chunk: &[u8]) {
        // The buffered output arrives as one chunk of up to 8 MiB: scratch copies of it (the
        // lower-cased text) would cost as much again.
        if chunk.len() > SCAN_PIECE {
            for piece in chunk.chunks(SCAN_PIECE) {
                self.feed(piece);
            }
            return;
        }
        self.analysis.raw(chunk);
        self.bytes += chunk.len() as u64;
        if self.start.len() < KEEP {
            let take = (KEEP - self.start.len()).min(chunk.len());
            self.start.extend_from_slice(&chunk[..take]);
        }
        let keep = &chunk[chunk.len().saturating_sub(KEEP)..];
        let overflow = (self.end.len() + keep.len()).saturating_sub(KEEP);
        if overflow > 0 {
            self.before_end = self.end.get(overflow - 1).copied();
            self.end.drain(..overflow);
        }
        if keep.len() < chunk.len() {
            self.before_end = Some(chunk[chunk.len() - keep.len() - 1]);
        }
        self.end.extend(keep);

        let mut rest = chunk;
        if self.partial_len > 0
            && let Some(i) = memchr::memchr(b'\n', rest)
        {
            self.append_partial(&rest[..i]);
            rest = &rest[i + 1..];
            self.total += 1;
            let text = clean_line(&self.partial).into_owned();
            self.analysis.line(self.total, &text);
            self.partial.clear();
            self.partial_len = 0;
        }
        if self.partial_len == 0 {
            let complete = memchr::memrchr(b'\n', rest).map_or(0, |i| i + 1);
            self.lines(&rest[..complete]);
            rest = &rest[complete..];
        }
        if !rest.is_empty() {
            self.append_partial(rest);
        }
    }

    /// Analyses whole lines (`text` ends with `\n`). Text that needs no cleaning (valid UTF-8
    /// without escapes or carriage returns: most output) is validated and searched for the
    /// notable stems once, not line by line.
    fn lines(&mut self, text: &[u8]) {
        let plain = memchr::memchr3(0x1b, b'\r', 0, text).is_none();
        let Some(text) = plain.then(|| std::str::from_utf8(text).ok()).flatten() else {
            for line in text.split_inclusive(|&b| b == b'\n') {
                let line = &line[..line.len() - 1];
                self.total += 1;
                self.analysis
                    .line(self.total, &clean_line(&line[..line.len().min(LINE_CAP)]));
            }
            return;
        };
        self.total += self.analysis.plain_lines(self.total + 1, text, LINE_CAP);
    }

    fn append_partial(&mut self, piece: &[u8]) {
        let room = LINE_CAP.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&piece[..piece.len().min(room)]);
        self.partial_len += piece.len();
    }

    pub(super) fn finish(mut self) -> LineReport {
        if self.partial_len > 0 {
            self.total += 1;
            let text = clean_line(&self.partial).into_owned();
            self.analysis.line(self.total, &text);
        }
        LineReport {
            analysis: self.analysis,
            total: self.total,
            bytes: self.bytes,
            start: self.start,
            end: self.end.into(),
            before_end: self.before_end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::{NotablePatterns, Report};

    /// What analysing `bytes` one cleaned line at a time reports, for comparison.
    fn line_by_line(bytes: &[u8], notable: &NotablePatterns) -> Report {
        let mut analysis = Analysis::new(notable, 40);
        analysis.raw(bytes);
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        for (i, line) in body.split(|&b| b == b'\n').enumerate() {
            let line = &line[..line.len().min(LINE_CAP)];
            analysis.line(i as u64 + 1, &clean_line(line));
        }
        let lines = body.split(|&b| b == b'\n').count() as u64;
        analysis.finish(Some(3..=lines.saturating_sub(2)))
    }

    #[test]
    fn the_line_scan_reports_what_line_by_line_analysis_does() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corpus");
        let mut inputs: Vec<Vec<u8>> = [
            "cargo-build-errors-ansi.txt",
            "cargo-test-failures.txt",
            "pytest-failures.txt",
            "gcc-errors.txt",
            "grep-rn-context.txt",
            "invalid-utf8-synthetic.txt",
            "tqdm-progress-synthetic.txt",
            "vitest-failures.txt",
        ]
        .iter()
        .map(|n| std::fs::read(format!("{dir}/{n}")).unwrap())
        .collect();
        // A line longer than the cap with a notable word on both sides of it, and no final
        // newline.
        let mut long = b"error: first\n".to_vec();
        long.extend(std::iter::repeat_n(b'x', LINE_CAP + 10));
        long.extend_from_slice(b" panicked\nWARNING: last");
        inputs.push(long);
        // More than the scan takes at once, as the buffered output arrives.
        inputs.push(inputs[0].repeat(SCAN_PIECE / inputs[0].len() * 3));
        let plain = NotablePatterns::default();
        let configured = NotablePatterns::new(&["TODO".to_owned(), r"E\d{4}".to_owned()]).unwrap();
        for notable in [&plain, &configured] {
            for bytes in &inputs {
                let expected = line_by_line(bytes, notable);
                let sizes = if bytes.len() > SCAN_PIECE {
                    vec![4096, bytes.len()]
                } else {
                    vec![1, 7, 4096, bytes.len().max(1)]
                };
                for size in sizes {
                    let mut scan = LineScan::new(Analysis::new(notable, 40));
                    for chunk in bytes.chunks(size) {
                        scan.feed(chunk);
                    }
                    let report = scan.finish();
                    let lines = report.total;
                    let got = report.analysis.finish(Some(3..=lines.saturating_sub(2)));
                    assert_eq!(got.render(), expected.render(), "chunks of {size}");
                    assert_eq!(got.notable_json(), expected.notable_json());
                    assert_eq!(got.facts_json(), expected.facts_json());
                }
            }
        }
    }
}
