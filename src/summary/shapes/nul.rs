//! NUL-separated records (`find -print0`, `git ls-files -z`, `git log -z`), read from the raw
//! bytes: how many, the first and the last. Output made of such records (more NULs than
//! newlines) is content; a stray NUL in a log (a test name with a NUL in it) is neither a
//! record list nor a reason to call the output binary.

use serde_json::json;

use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Bytes of a record kept to show it.
const RECORD_BYTES: usize = 240;
/// Lines with stray NULs shown.
const NUL_LINES_SHOWN: usize = 3;

#[derive(Debug, Default)]
pub(crate) struct NulRecords {
    nuls: u64,
    newlines: u64,
    /// Lines with a NUL in them, and the first few: number and text (display-cleaned).
    nul_lines: u64,
    nul_on_this_line: bool,
    first_nul_lines: Vec<(u64, Option<String>)>,
    first: Vec<u8>,
    first_done: bool,
    /// The record being read (its first bytes), and whether any byte followed the last NUL.
    current: Vec<u8>,
    open: bool,
    last: Vec<u8>,
    /// From the first NUL on: bytes read, and control bytes text does not have (binary data
    /// that slipped past the binary rule is not records).
    counted: u64,
    controls: u64,
}

impl Shape for NulRecords {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((_, kept)) = self.first_nul_lines.iter_mut().find(|(n, _)| *n == number) {
            kept.get_or_insert_with(|| cut(text, 120));
        }
    }

    fn raw(&mut self, bytes: &[u8]) {
        let mut rest = bytes;
        if self.nuls > 0 || memchr::memchr(0, bytes).is_some() {
            self.counted += bytes.len() as u64;
            self.controls += bytes.iter().filter(|&&b| is_binary_control(b)).count() as u64;
        }
        if memchr::memchr(0, bytes).is_none() {
            let newlines = memchr::memchr_iter(b'\n', bytes).count() as u64;
            if newlines > 0 {
                self.nul_on_this_line = false;
            }
            self.newlines += newlines;
        } else {
            for &b in bytes {
                if b == b'\n' {
                    self.newlines += 1;
                    self.nul_on_this_line = false;
                } else if b == 0 && !self.nul_on_this_line {
                    self.nul_on_this_line = true;
                    self.nul_lines += 1;
                    if self.first_nul_lines.len() < NUL_LINES_SHOWN {
                        self.first_nul_lines.push((self.newlines + 1, None));
                    }
                }
            }
        }
        while !rest.is_empty() {
            let (piece, ends) = match memchr::memchr(0, rest) {
                Some(i) => (&rest[..i], Some(i)),
                None => (rest, None),
            };
            if !piece.is_empty() {
                self.open = true;
                let room = RECORD_BYTES.saturating_sub(self.current.len());
                self.current
                    .extend_from_slice(&piece[..piece.len().min(room)]);
            }
            let Some(i) = ends else { break };
            self.nuls += 1;
            self.end_record();
            rest = &rest[i + 1..];
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let trailing = self.open;
        if trailing {
            self.end_record();
        }
        if self.nuls == 0 || self.controls * 100 > self.counted {
            return None;
        }
        if self.nuls < 2 || self.nuls < self.newlines {
            // Stray NULs in text: where they are, since a reader would not guess.
            let mut line = format!(
                "NUL bytes: {} on {} (shown as \\0)",
                thousands(self.nuls),
                plural(self.nul_lines, "line", "lines")
            );
            for (at, text) in &self.first_nul_lines {
                if let Some(text) = text {
                    line.push_str(&format!("; L{}: {text}", thousands(*at)));
                }
            }
            let first = self.first_nul_lines.first().map(|(n, _)| *n);
            let json = json!({"shape": "nul bytes", "nuls": self.nuls, "lines": self.nul_lines, "first_line": first});
            return Some(Fact::new("nul bytes", vec![line], json).hint("'\\\\0' -m 20"));
        }
        let records = self.nuls + u64::from(trailing);
        let show = |r: &[u8]| cut(&String::from_utf8_lossy(r).replace('\n', "\\n"), 160);
        let line = format!(
            "NUL-separated records: {}; first: {}; last: {}",
            thousands(records),
            show(&self.first),
            show(&self.last)
        );
        let json = json!({
            "shape": "nul records",
            "records": records,
            "first": String::from_utf8_lossy(&self.first),
            "last": String::from_utf8_lossy(&self.last),
        });
        Some(Fact::new("nul records", vec![line], json).content())
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.first.capacity()
            + self.current.capacity()
            + self.last.capacity()
            + self
                .first_nul_lines
                .iter()
                .map(|(_, t)| t.as_ref().map_or(0, String::capacity) + 32)
                .sum::<usize>()
    }
}

impl NulRecords {
    fn end_record(&mut self) {
        if !self.first_done {
            self.first = self.current.clone();
            self.first_done = true;
        }
        std::mem::swap(&mut self.last, &mut self.current);
        self.current.clear();
        self.open = false;
    }
}

/// A control byte that text (even with NULs, escapes, backspaces and form feeds) does not have.
fn is_binary_control(b: u8) -> bool {
    (b < 0x20 && !matches!(b, 0 | 8 | b'\t' | b'\n' | 0x0c | b'\r' | 0x1b)) || b == 0x7f
}
