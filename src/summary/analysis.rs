//! The streaming analysis behind the summary: one pass over the raw bytes (JSON shapes) and the
//! display-cleaned lines (everything else), in bounded memory, ending in a [`Report`] of notable
//! lines and counted facts. It neither captures nor stores output, nor picks the head and tail.
//!
//! Every fact summariser states only what it counted, exactly, and nothing when the output's
//! shape was not recognised.

use std::ops::RangeInclusive;

use serde_json::Value;

use super::notable::{
    NotableCounter, NotablePatterns, NotableReport, default_kinds, notable_stems,
};
use super::shapes::{Gcc, GoTest, Grep, Jest, JsonScan, Libtest, Pytest, Rustc, Tsc, Vitest};
use crate::text::clean_line;

/// One recognised shape's counted facts: summary lines (without the `[ctxoff] ` prefix) and
/// the same facts as JSON.
#[derive(Clone, Debug)]
pub(crate) struct Fact {
    pub(crate) lines: Vec<String>,
    pub(crate) json: Value,
}

/// The analysis of one output while it streams. `Send`, so it can run on its own thread; its
/// memory is bounded whatever the output's size.
pub(crate) struct Analysis {
    notable: NotableCounter,
    libtest: Libtest,
    pytest: Pytest,
    gotest: GoTest,
    jest: Jest,
    vitest: Vitest,
    rustc: Rustc,
    gcc: Gcc,
    tsc: Tsc,
    grep: Grep,
    json: JsonScan,
    /// Scratch space of [`Analysis::plain_lines`]: the lower-cased text.
    lower: Vec<u8>,
}

impl Analysis {
    /// `max_tail_lines`: the most lines the tail of the preview can have; hits in the tail are
    /// taken out of the notable counts at [`Analysis::finish`].
    pub(crate) fn new(notable: &NotablePatterns, max_tail_lines: u64) -> Analysis {
        Analysis {
            notable: NotableCounter::new(notable, max_tail_lines),
            libtest: Libtest::default(),
            pytest: Pytest::default(),
            gotest: GoTest::default(),
            jest: Jest::default(),
            vitest: Vitest::default(),
            rustc: Rustc::default(),
            gcc: Gcc::default(),
            tsc: Tsc::default(),
            grep: Grep::default(),
            json: JsonScan::default(),
            lower: Vec::new(),
        }
    }

    /// Every raw output byte, in order, in chunks of any size.
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        self.json.feed(bytes);
    }

    /// Every display-cleaned line, numbered from 1, without its newline.
    pub(crate) fn line(&mut self, number: u64, text: &str) {
        self.notable.line(number, text);
        self.shapes(text);
    }

    /// [`Analysis::line`] for every line of `text`, numbered from `first`: whole lines, each
    /// ending in `\n`, of text that needs no display cleaning (no escapes, no carriage returns).
    /// A line over `line_cap` bytes is analysed cut to that length. Returns the number of lines.
    ///
    /// Most output is such text, and searching it for the notable stems once rather than line
    /// by line is much faster (no stem spans a line, so each line gets the hits of its own).
    pub(crate) fn plain_lines(&mut self, first: u64, text: &str, line_cap: usize) -> u64 {
        let mut lower = std::mem::take(&mut self.lower);
        let mut stems = notable_stems(text.as_bytes(), &mut lower).peekable();
        let mut hits = Vec::new();
        let (mut number, mut start) = (first, 0);
        for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
            let line = &text[start..end];
            hits.clear();
            while let Some(hit) = stems.next_if(|hit| hit.start < end) {
                hits.push(hit.relative_to(start));
            }
            if line.len() > line_cap {
                // Cut in bytes and decoded lossily, as everywhere else.
                self.line(number, &clean_line(&line.as_bytes()[..line_cap]));
            } else {
                let kinds = default_kinds(line, hits.iter().copied());
                self.notable.line_with(number, line, Some(kinds));
                self.shapes(line);
            }
            number += 1;
            start = end + 1;
        }
        drop(stems);
        self.lower = lower;
        number - first
    }

    fn shapes(&mut self, text: &str) {
        self.libtest.line(text);
        self.pytest.line(text);
        self.gotest.line(text);
        self.jest.line(text);
        self.vitest.line(text);
        self.rustc.line(text);
        self.gcc.line(text);
        self.tsc.line(text);
        self.grep.line(text);
    }

    /// Ends the analysis. `omitted` is the range of lines the preview left out (none when the
    /// output is shown whole); notable lines are counted over it.
    pub(crate) fn finish(self, omitted: Option<RangeInclusive<u64>>) -> Report {
        let (json_fact, is_json_document) = self.json.finish();
        let facts = [
            self.libtest.finish(),
            self.pytest.finish(),
            self.gotest.finish(),
            self.jest.finish(),
            self.vitest.finish(),
            self.rustc.finish(),
            self.gcc.finish(),
            self.tsc.finish(),
            self.grep.finish(),
            json_fact,
        ]
        .into_iter()
        .flatten()
        .collect();
        Report {
            notable: self.notable.finish(omitted),
            facts,
            is_json_document,
        }
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.notable.approx_heap()
            + self.libtest.approx_heap()
            + self.pytest.approx_heap()
            + self.gotest.approx_heap()
            + self.jest.approx_heap()
            + self.vitest.approx_heap()
            + self.rustc.approx_heap()
            + self.gcc.approx_heap()
            + self.tsc.approx_heap()
            + self.grep.approx_heap()
            + self.json.approx_heap()
    }
}

/// What the analysis found: notable lines in the omitted range and facts about the output.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    notable: Option<NotableReport>,
    facts: Vec<Fact>,
    is_json_document: bool,
}

impl Report {
    /// Summary lines: `[ctxoff] …` lines and, after the notable counts, `  L12: …` examples.
    pub(crate) fn render(&self) -> Vec<String> {
        let mut lines = self
            .notable
            .as_ref()
            .map(NotableReport::render)
            .unwrap_or_default();
        for fact in &self.facts {
            lines.extend(fact.lines.iter().map(|l| format!("[ctxoff] {l}")));
        }
        lines
    }

    /// `{"from", "to", "kinds": [{"kind", "count", "first"}], "examples": [{"line", "text"}]}`,
    /// or `null` when nothing notable was omitted.
    pub(crate) fn notable_json(&self) -> Value {
        self.notable
            .as_ref()
            .map_or(Value::Null, NotableReport::json)
    }

    /// An array with one object per recognised shape, each with a `"shape"` key.
    pub(crate) fn facts_json(&self) -> Value {
        Value::Array(self.facts.iter().map(|f| f.json.clone()).collect())
    }

    /// The whole output is one valid JSON value (whitespace around it allowed).
    pub(crate) fn is_json_document(&self) -> bool {
        self.is_json_document
    }
}
