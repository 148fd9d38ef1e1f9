//! Reading an output back, shared by `grep` and `lines`: opening it (text only, refreshing its
//! last use), streaming it in large blocks of whole lines, finding a line's offset (backwards
//! from the end when that is shorter), line ranges, and the token cap on what is printed.

use anyhow::{Result, bail};
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::FileExt;

use crate::format::thousands;
use crate::run::content::Keeps;
use crate::store::mark_used;
use crate::store::reference::Output;
use crate::tokens::{Encoding, Tokenizer};

/// Size of a read: large, so scanning is bound by memory bandwidth rather than system calls.
const BLOCK: usize = 1 << 20;

/// An output opened for reading as text.
pub(crate) struct TextFile {
    pub file: File,
    pub len: u64,
    /// Number of `\n` in the file, from the manifest when it describes this very file (complete
    /// and of the same size); lets `lines` number the last lines without reading the whole file.
    pub newlines_hint: Option<u64>,
}

impl TextFile {
    /// Opens `output` for `grep`/`lines`: refuses binary outputs and refreshes the last-use time.
    pub(super) fn open(output: &Output) -> Result<TextFile> {
        // Opened when the reference was resolved, relative to the session directory checked then.
        let file = output.handle.try_clone()?;
        let len = file.metadata()?.len();
        if output.is_binary() {
            let mut head = [0u8; 512];
            let n = file.read_at(&mut head, 0).unwrap_or(0);
            let kind = crate::run::sniff::binary_type(&head[..n]).unwrap_or("binary data");
            bail!(
                "{} is binary output ({kind}, {} bytes): grep and lines read text only; use a tool for {kind} on {}",
                output.file,
                thousands(len),
                output.path.display()
            );
        }
        // Failing to refresh the last-use time only lets gc remove the file earlier.
        let _ = mark_used(&file);
        let newlines_hint = output
            .entry()
            .filter(|e| e.complete && e.bytes == len)
            .map(|e| e.lines);
        Ok(TextFile {
            file,
            len,
            newlines_hint,
        })
    }

    /// Number of display lines: `\n`s, plus one for a last line without `\n`.
    pub(super) fn line_count(&mut self) -> io::Result<u64> {
        let newlines = match self.newlines_hint {
            Some(n) => n,
            None => {
                let n = count_newlines_from(&self.file, 0)?;
                self.newlines_hint = Some(n);
                n
            }
        };
        Ok(newlines + u64::from(self.ends_unterminated()?))
    }

    fn ends_unterminated(&self) -> io::Result<bool> {
        if self.len == 0 {
            return Ok(false);
        }
        let mut last = [0u8];
        self.file.read_exact_at(&mut last, self.len - 1)?;
        Ok(last[0] != b'\n')
    }

    /// Byte offset where line `line` (1-based) starts, or `Err(line count)` when the file has
    /// fewer lines. Scans backwards from the end when the line is in the file's second half and
    /// the line count is known, so the last lines of a huge file are found without reading it.
    pub(super) fn line_offset(&mut self, line: u64) -> io::Result<Result<u64, u64>> {
        if line <= 1 {
            return Ok(if self.len == 0 { Err(0) } else { Ok(0) });
        }
        // Line `line` starts after the (line-1)th newline.
        let nth = line - 1;
        if self.newlines_hint.is_some_and(|total| nth > total) {
            return Ok(Err(self.line_count()?));
        }
        if let Some(total) = self.newlines_hint
            && nth <= total
            && nth > total / 2
            && let Some(offset) = self.nth_newline_from_end(total - nth + 1)?
        {
            return self.offset_or_count(offset + 1);
        }
        let mut seen = 0u64;
        let mut pos = 0u64;
        let mut buf = vec![0u8; BLOCK];
        loop {
            let n = read_at_full(&self.file, &mut buf, pos)?;
            if n == 0 {
                self.newlines_hint = Some(seen);
                return Ok(Err(seen + u64::from(self.ends_unterminated()?)));
            }
            let block = &buf[..n];
            let here = memchr::memchr_iter(b'\n', block).count() as u64;
            if seen + here >= nth {
                let i = memchr::memchr_iter(b'\n', block)
                    .nth((nth - seen - 1) as usize)
                    .expect("counted");
                return self.offset_or_count(pos + i as u64 + 1);
            }
            seen += here;
            pos += n as u64;
        }
    }

    /// A line starting at `offset` exists unless `offset` is the end of the file.
    fn offset_or_count(&mut self, offset: u64) -> io::Result<Result<u64, u64>> {
        if offset < self.len {
            Ok(Ok(offset))
        } else {
            Ok(Err(self.line_count()?))
        }
    }

    /// Offset of the `k`th newline counted from the end (1 = the last one); `None` when the file
    /// has fewer, which means the manifest's count was wrong.
    fn nth_newline_from_end(&mut self, k: u64) -> io::Result<Option<u64>> {
        let mut left = k;
        let mut end = self.len;
        let mut buf = vec![0u8; BLOCK];
        while end > 0 {
            let start = end.saturating_sub(BLOCK as u64);
            let block = &mut buf[..(end - start) as usize];
            self.file.read_exact_at(block, start)?;
            for i in memchr::memrchr_iter(b'\n', block) {
                left -= 1;
                if left == 0 {
                    return Ok(Some(start + i as u64));
                }
            }
            end = start;
        }
        self.newlines_hint = None;
        Ok(None)
    }

    /// Streams the file from `offset` in blocks of whole lines; a line longer than
    /// [`LONG_LINE`] is handled as `long` says, so memory stays bounded whatever the file.
    pub(super) fn blocks_from(&self, offset: u64, long: LongLines) -> io::Result<Blocks> {
        let mut file = self.file.try_clone()?;
        file.seek(SeekFrom::Start(offset))?;
        Ok(Blocks {
            file,
            buf: vec![0; BLOCK],
            len: 0,
            consumed: 0,
            long,
            skipping: false,
            mid_line: false,
            cut_lines: 0,
            first_cut: None,
            lines_before: 0,
        })
    }
}

fn read_at_full(file: &File, buf: &mut [u8], pos: u64) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read_at(&mut buf[filled..], pos + filled as u64) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

fn count_newlines_from(file: &File, mut pos: u64) -> io::Result<u64> {
    let mut buf = vec![0u8; BLOCK];
    let mut count = 0;
    loop {
        let n = read_at_full(file, &mut buf, pos)?;
        if n == 0 {
            return Ok(count);
        }
        count += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        pos += n as u64;
    }
}

/// The most of one line held in memory (a line can be a whole output of gigabytes).
pub(crate) const LONG_LINE: usize = 4 << 20;

/// What [`Blocks`] does with a line longer than [`LONG_LINE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LongLines {
    /// Hands over its first `LONG_LINE` bytes as the whole line (with a `\n` added) and skips
    /// the rest; [`Blocks::cut_lines`] counts such lines.
    Cut,
    /// Hands it over in pieces of `LONG_LINE` bytes; [`Blocks::mid_line`] tells a piece from a
    /// line's end.
    Pieces,
}

/// A file read in blocks that end at a line end (the last one at the end of the file, with or
/// without `\n`). A line longer than the buffer grows it, up to [`LONG_LINE`].
pub(crate) struct Blocks {
    file: File,
    buf: Vec<u8>,
    len: usize,
    consumed: usize,
    long: LongLines,
    /// Skipping the rest of a line that was cut.
    skipping: bool,
    /// The last block handed over ends inside a line (`LongLines::Pieces`).
    mid_line: bool,
    cut_lines: u64,
    /// The line number (counted from the first block's first line, 0-based) of the first line
    /// cut.
    first_cut: Option<u64>,
    lines_before: u64,
}

impl Blocks {
    /// How many lines were cut to [`LONG_LINE`] bytes so far, and the first of them (counted
    /// from 0 at the first line read).
    pub(super) fn cut_lines(&self) -> (u64, Option<u64>) {
        (self.cut_lines, self.first_cut)
    }

    /// [`Blocks::next_block`], with whether the block ends inside a line that the next block
    /// continues (a piece of a long line, with `LongLines::Pieces`).
    pub(super) fn next_piece(&mut self) -> io::Result<Option<(&[u8], bool)>> {
        self.next_block()?;
        let mid_line = self.mid_line;
        Ok((self.consumed > 0).then(|| (&self.buf[..self.consumed], mid_line)))
    }

    /// The next block of whole lines, or `None` at the end of the file.
    pub(super) fn next_block(&mut self) -> io::Result<Option<&[u8]>> {
        self.buf.copy_within(self.consumed..self.len, 0);
        self.len -= self.consumed;
        self.consumed = 0;
        loop {
            if self.len == self.buf.len() {
                if self.len < LONG_LINE {
                    self.buf.resize((self.buf.len() * 2).min(LONG_LINE), 0);
                } else {
                    return Ok(Some(self.long_line()));
                }
            }
            let n = match self.file.read(&mut self.buf[self.len..]) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.mid_line = false;
                if self.len == 0 {
                    return Ok(None);
                }
                self.consumed = self.len;
                return Ok(Some(&self.buf[..self.len]));
            }
            let old = self.len;
            self.len += n;
            if self.skipping {
                // The rest of a cut line: drop it, up to its end.
                match memchr::memchr(b'\n', &self.buf[..self.len]) {
                    Some(i) => {
                        self.skipping = false;
                        self.buf.copy_within(i + 1..self.len, 0);
                        self.len -= i + 1;
                        if let Some(j) = memchr::memrchr(b'\n', &self.buf[..self.len]) {
                            return Ok(Some(self.hand_over(j + 1)));
                        }
                    }
                    None => self.len = 0,
                }
                continue;
            }
            if let Some(i) = memchr::memrchr(b'\n', &self.buf[old..self.len]) {
                return Ok(Some(self.hand_over(old + i + 1)));
            }
        }
    }

    fn hand_over(&mut self, end: usize) -> &[u8] {
        self.consumed = end;
        self.mid_line = false;
        self.lines_before += memchr::memchr_iter(b'\n', &self.buf[..end]).count() as u64;
        &self.buf[..end]
    }

    /// The buffer holds `LONG_LINE` bytes of one line.
    fn long_line(&mut self) -> &[u8] {
        match self.long {
            LongLines::Pieces => {
                self.consumed = self.len;
                self.mid_line = true;
                &self.buf[..self.len]
            }
            LongLines::Cut => {
                self.cut_lines += 1;
                self.first_cut.get_or_insert(self.lines_before);
                self.lines_before += 1;
                self.skipping = true;
                self.buf.truncate(LONG_LINE);
                self.buf.push(b'\n');
                self.consumed = self.buf.len();
                self.len = self.buf.len();
                &self.buf[..]
            }
        }
    }
}

/// A line range as the reader writes it: `N`, `A:B`, `A:`, `:B` (1-based, inclusive) or `-N:`
/// (the last N lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineRange {
    Span { start: u64, end: Option<u64> },
    Last(u64),
}

impl LineRange {
    pub(super) fn parse(text: &str) -> Result<LineRange> {
        // Escaped, so that the error stays one line whatever was typed.
        let shown = text.escape_debug();
        let bad = || {
            anyhow::anyhow!(
                "bad range '{shown}': expected N, A:B, A:, :B or -N: (line numbers start at 1)"
            )
        };
        let number = |s: &str| -> Result<u64> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            match s.parse::<u64>() {
                Ok(0) => bail!("bad range '{shown}': line numbers start at 1"),
                Ok(n) => Ok(n),
                Err(_) => Err(bad()),
            }
        };
        if let Some(last) = text.strip_prefix('-') {
            let n = last.strip_suffix(':').ok_or_else(bad)?;
            return Ok(LineRange::Last(number(n)?));
        }
        let Some((a, b)) = text.split_once(':') else {
            let n = number(text)?;
            return Ok(LineRange::Span {
                start: n,
                end: Some(n),
            });
        };
        if a.is_empty() && b.is_empty() {
            return Err(bad());
        }
        let start = if a.is_empty() { 1 } else { number(a)? };
        let end = if b.is_empty() { None } else { Some(number(b)?) };
        if let Some(end) = end
            && end < start
        {
            bail!("bad range '{shown}': it ends before it starts");
        }
        Ok(LineRange::Span { start, end })
    }

    /// First and last line (`None`: to the end of the file); the line count is asked for only
    /// by `-N:`.
    pub(super) fn bounds(
        self,
        line_count: impl FnOnce() -> io::Result<u64>,
    ) -> io::Result<(u64, Option<u64>)> {
        Ok(match self {
            LineRange::Span { start, end } => (start, end),
            LineRange::Last(n) => (line_count()?.saturating_sub(n) + 1, None),
        })
    }
}

/// How much of a line the token cap lets through.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Fit {
    Whole,
    /// Only this many bytes of it: the first line printed is longer than the whole cap.
    Prefix(usize),
    Nothing,
}

/// The token cap on what `grep` and `lines` print. Text is counted line by line as printed;
/// while fewer bytes than the cap have been printed, no tokenizer is loaded (tokens never exceed
/// bytes), so small retrievals do not pay for loading one.
pub(crate) struct Budget {
    cap: Option<u64>,
    encoding: Encoding,
    tokenizer: Option<Tokenizer>,
    /// What was printed before the tokenizer was loaded, counted when it is.
    early: String,
    used: u64,
    pub lines: u64,
    /// The agent's own limit on one output, for content read back whole (see
    /// `run::content`): printing stops before it.
    keeps: Option<Keeps>,
    bytes: u64,
}

impl Budget {
    /// `cap` of `None` is `--all`: no limit.
    pub(super) fn new(cap: Option<u64>, encoding: Encoding) -> Budget {
        Budget {
            cap,
            encoding,
            tokenizer: None,
            early: String::new(),
            used: 0,
            lines: 0,
            keeps: None,
            bytes: 0,
        }
    }

    /// Also stops before the agent's own limit `keeps` (characters are counted as bytes, which
    /// are never fewer).
    pub(super) fn keeping(mut self, keeps: Option<Keeps>) -> Budget {
        self.keeps = keeps;
        self
    }

    /// Whether `text` would go past the agent's own limit.
    fn past_keeps(&self, text: &str) -> bool {
        let Some(k) = self.keeps else {
            return false;
        };
        let bytes = self.bytes + text.len() as u64;
        k.bytes.is_some_and(|max| bytes > max)
            || k.chars.is_some_and(|max| bytes > max)
            || k.lines.is_some_and(|max| self.lines + 1 > max)
    }

    /// The cap, for notes.
    pub(super) fn cap(&self) -> u64 {
        self.cap.unwrap_or(u64::MAX)
    }

    /// Admits `text` (one printed line with its newline) if it fits in what is left.
    pub(super) fn fit(&mut self, text: &str) -> Fit {
        let Some(cap) = self.cap else {
            self.lines += 1;
            return Fit::Whole;
        };
        if self.past_keeps(text) {
            return Fit::Nothing;
        }
        self.bytes += text.len() as u64;
        let tokenizer = match self.tokenizer {
            Some(t) => t,
            None if self.used + text.len() as u64 <= cap => {
                self.used += text.len() as u64;
                self.early.push_str(text);
                self.lines += 1;
                return Fit::Whole;
            }
            None => {
                let t = Tokenizer::load(self.encoding);
                self.used = t.count(&std::mem::take(&mut self.early));
                self.tokenizer = Some(t);
                t
            }
        };
        let left = cap.saturating_sub(self.used);
        // Count no more than could possibly fit: a very long line is cut long before its end.
        let probe = floor_char_boundary(text, (left as usize).saturating_mul(256).max(1024));
        let tokens = tokenizer.count(&text[..probe]);
        if probe == text.len() && tokens <= left {
            self.used += tokens;
            self.lines += 1;
            return Fit::Whole;
        }
        if self.lines > 0 || left == 0 {
            return Fit::Nothing;
        }
        let prefix = tokenizer.prefix(&text[..probe], left);
        self.used = cap;
        self.lines += 1;
        Fit::Prefix(prefix.len())
    }
}

fn floor_char_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ranges() {
        use LineRange::*;
        let span = |start, end| Span { start, end };
        assert_eq!(LineRange::parse("5").unwrap(), span(5, Some(5)));
        assert_eq!(LineRange::parse("3:9").unwrap(), span(3, Some(9)));
        assert_eq!(LineRange::parse("3:3").unwrap(), span(3, Some(3)));
        assert_eq!(LineRange::parse("3:").unwrap(), span(3, None));
        assert_eq!(LineRange::parse(":9").unwrap(), span(1, Some(9)));
        assert_eq!(LineRange::parse("-20:").unwrap(), Last(20));
        for bad in [
            "0",
            "0:5",
            "5:0",
            "-0:",
            "abc",
            "",
            ":",
            "1:2:3",
            "-5",
            "5:3",
            "+3",
            " 3",
            "1e3",
            "99999999999999999999999",
        ] {
            let err = LineRange::parse(bad).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("bad range '{bad}'")),
                "{bad}: {err}"
            );
        }
        assert!(
            LineRange::parse("5:3")
                .unwrap_err()
                .to_string()
                .contains("ends before it starts")
        );
        assert!(
            LineRange::parse("0")
                .unwrap_err()
                .to_string()
                .contains("start at 1")
        );
    }

    /// What `parse` should make of `text`, from the documented forms alone: `N`, `A:B`
    /// (A ≤ B), `A:`, `:B` and `-N:`, every number 1 to `u64::MAX`, nothing else.
    fn documented(text: &str) -> Option<LineRange> {
        let number = |s: &str| -> Option<u64> {
            let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            digits.then(|| s.parse().ok()).flatten().filter(|&n| n >= 1)
        };
        if let Some(n) = text.strip_prefix('-').and_then(|t| t.strip_suffix(':')) {
            return number(n).map(LineRange::Last);
        }
        match text.split_once(':') {
            None => number(text).map(|n| LineRange::Span {
                start: n,
                end: Some(n),
            }),
            Some(("", "")) => None,
            Some((a, b)) => {
                let start = if a.is_empty() { 1 } else { number(a)? };
                let end = if b.is_empty() { None } else { Some(number(b)?) };
                (end.is_none_or(|e| e >= start)).then_some(LineRange::Span { start, end })
            }
        }
    }

    /// Range-shaped text: digits (sometimes huge or zero), colons, minus signs, and a few
    /// characters a reader might type by mistake.
    fn range_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let piece = prop_oneof![
            4 => "[0-9]{1,3}",
            1 => "0+",
            1 => "[0-9]{19,22}",
            3 => Just(":".to_string()),
            2 => Just("-".to_string()),
            1 => prop::sample::select(vec!["+", " ", "\n", "a", "e", "１", "٣", ",", "."])
                .prop_map(str::to_string),
        ];
        prop_oneof![
            9 => prop::collection::vec(piece, 0..5).prop_map(|p| p.concat()),
            1 => any::<String>(),
        ]
    }

    proptest::proptest! {
        // Runs PROPTEST_CASES cases (default 256); e.g. PROPTEST_CASES=100000 for a long run.
        #[test]
        fn range_parser_accepts_exactly_the_documented_forms(text in range_text()) {
            match (LineRange::parse(&text), documented(&text)) {
                (Ok(got), Some(want)) => proptest::prop_assert_eq!(got, want),
                (Err(e), None) => {
                    let e = e.to_string();
                    let prefix = format!("bad range '{}'", text.escape_debug());
                    proptest::prop_assert!(e.starts_with(&prefix), "{}", e);
                    proptest::prop_assert_eq!(e.lines().count(), 1);
                }
                (got, want) => proptest::prop_assert!(false, "{:?}: parsed {:?}, documented {:?}", text, got.ok(), want),
            }
        }

        #[test]
        fn every_documented_range_round_trips(start in 1u64.., len in proptest::option::of(0u64..1000), last: bool) {
            let (text, want) = match (last, len) {
                (true, _) => (format!("-{start}:"), LineRange::Last(start)),
                (false, None) => (format!("{start}:"), LineRange::Span { start, end: None }),
                (false, Some(len)) => {
                    let end = start.saturating_add(len);
                    (format!("{start}:{end}"), LineRange::Span { start, end: Some(end) })
                }
            };
            proptest::prop_assert_eq!(LineRange::parse(&text).unwrap(), want);
        }
    }

    #[test]
    fn budget_loads_no_tokenizer_while_bytes_fit() {
        let mut b = Budget::new(Some(10), Encoding::O200kBase);
        assert_eq!(b.fit("1:abc\n"), Fit::Whole);
        assert!(b.tokenizer.is_none());
        assert_eq!(b.fit("2:hello world again and again\n"), Fit::Nothing);
        let mut first = Budget::new(Some(3), Encoding::O200kBase);
        assert!(matches!(first.fit(&"word ".repeat(100)), Fit::Prefix(n) if n > 0 && n < 30));
        let mut all = Budget::new(None, Encoding::O200kBase);
        assert_eq!(all.fit(&"x".repeat(100_000)), Fit::Whole);
    }
}
