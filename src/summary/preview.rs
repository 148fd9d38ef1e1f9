//! Head and tail of an offloaded output: whole display-cleaned lines within a token budget; a
//! single line longer than its budget is cut at a token boundary and marked.

use crate::text::clean_line;
use crate::tokens::Tokenizer;

/// The share of the preview budget that goes to the head; the rest goes to the tail.
const HEAD_PERCENT: u64 = 40;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PreviewLine {
    pub number: u64,
    pub text: String,
    /// The line was longer than the budget and only part of it is shown.
    pub cut: bool,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Preview {
    pub head: Vec<PreviewLine>,
    pub tail: Vec<PreviewLine>,
    /// Tokens of the raw text the head and tail stand for, line by line.
    pub shown_tokens: u64,
    /// Tokens of the raw text neither head nor tail shows, counted as that text on its own.
    pub omitted_tokens: u64,
    /// Raw bytes of the whole lines of the head, and from the tail's first line to the end.
    head_bytes: usize,
    tail_bytes: usize,
}

/// What the capture kept of the output's two ends.
pub(crate) struct Ends<'a> {
    /// The first bytes of the output.
    pub start: &'a [u8],
    /// The last bytes of the output.
    pub end: &'a [u8],
    /// Whether `end` begins at the start of a line.
    pub end_at_line_start: bool,
    /// Whether `start` holds the whole output.
    pub whole: bool,
    pub total_lines: u64,
    pub total_bytes: u64,
}

impl Preview {
    pub(crate) fn new(ends: &Ends, tokenizer: &Tokenizer, budget: u64) -> Preview {
        let head_budget = budget * HEAD_PERCENT / 100;
        let mut preview = Preview::default();
        let mut used = 0;
        let mut pieces = ends.start.split_inclusive(|&b| b == b'\n').peekable();
        let mut number = 0;
        while let Some(piece) = pieces.next() {
            number += 1;
            let complete = piece.ends_with(b"\n") || (ends.whole && pieces.peek().is_none());
            let text = clean_line(piece.strip_suffix(b"\n").unwrap_or(piece));
            let tokens = tokenizer.count(&text) + 1;
            if complete && used + tokens <= head_budget {
                used += tokens;
                preview.shown_tokens += tokenizer.count_bytes(piece);
                preview.head_bytes += piece.len();
                preview.head.push(PreviewLine {
                    number,
                    text: text.into_owned(),
                    cut: false,
                });
                continue;
            }
            if preview.head.is_empty() {
                let part = tokenizer.prefix(&text, head_budget.saturating_sub(1).max(1));
                preview.shown_tokens += tokenizer.count(part);
                preview.head.push(PreviewLine {
                    number,
                    text: part.to_string(),
                    cut: true,
                });
            }
            break;
        }
        let head_end = preview.head.last().map_or(0, |l| l.number);
        let head_cut = preview.head.last().is_some_and(|l| l.cut);

        let tail_budget = budget - head_budget;
        let mut used = 0;
        let body = ends.end.strip_suffix(b"\n").unwrap_or(ends.end);
        let mut pieces = body.rsplit(|&b| b == b'\n').peekable();
        let mut number = ends.total_lines + 1;
        while let Some(piece) = pieces.next() {
            number -= 1;
            let complete = pieces.peek().is_some() || ends.end_at_line_start;
            if number < head_end || (number == head_end && !head_cut) || number == 0 {
                break;
            }
            let text = clean_line(piece);
            let tokens = tokenizer.count(&text) + 1;
            if complete && number > head_end && used + tokens <= tail_budget {
                used += tokens;
                preview.shown_tokens += tokenizer.count_bytes(piece) + 1;
                preview.tail_bytes = ends.end.len() - piece_start(ends.end, piece);
                preview.tail.push(PreviewLine {
                    number,
                    text: text.into_owned(),
                    cut: false,
                });
                continue;
            }
            if preview.tail.is_empty() {
                let part = tokenizer.suffix(&text, tail_budget.saturating_sub(1).max(1));
                preview.shown_tokens += tokenizer.count(part);
                preview.tail.push(PreviewLine {
                    number,
                    text: part.to_string(),
                    cut: true,
                });
            }
            break;
        }
        preview.tail.reverse();
        preview
    }

    /// Sets `omitted_tokens`: the tokens of the omitted text on its own, given the `total` of the
    /// whole output. Only the two ends are in memory: the total is split at line starts where
    /// no token can span the cut (see [`is_clean_cut`]), near the head's end and the tail's
    /// start, and the few lines between each clean cut and the preview are counted apart.
    /// Where no clean cut is found (a single huge line), the omitted count is the total less
    /// what head and tail show, counted line by line.
    pub(crate) fn count_omitted(&mut self, ends: &Ends, tokenizer: &Tokenizer, total: u64) {
        let fallback = total.saturating_sub(self.shown_tokens);
        let cut = self.head.iter().chain(&self.tail).any(|l| l.cut);
        let length = ends.total_bytes as usize;
        let (h, t) = (self.head_bytes, length.saturating_sub(self.tail_bytes));
        self.omitted_tokens = if h >= t {
            0
        } else if cut {
            fallback
        } else if t <= ends.start.len() {
            tokenizer.count_bytes(&ends.start[h..t])
        } else if let Some(end_at) = length.checked_sub(ends.end.len())
            && h >= end_at
        {
            tokenizer.count_bytes(&ends.end[h - end_at..t - end_at])
        } else if let Some(t_in_end) = t.checked_sub(length - ends.end.len()) {
            let end_at = length - ends.end.len();
            let s2 = (h..ends.start.len()).find(|&c| is_clean_cut(ends.start, c));
            let s3 = (1..=t_in_end).rev().find(|&c| is_clean_cut(ends.end, c));
            match (s2, s3) {
                (Some(s2), Some(s3)) if s2 <= s3 + end_at => {
                    let before = tokenizer.count_bytes(&ends.start[..s2]);
                    let after = tokenizer.count_bytes(&ends.end[s3..]);
                    (total + tokenizer.count_bytes(&ends.start[h..s2]))
                        .saturating_sub(before + after)
                        + tokenizer.count_bytes(&ends.end[s3..t_in_end])
                }
                _ => fallback,
            }
        } else {
            fallback
        };
    }

    /// The lines neither head nor tail shows in full or in part.
    pub(crate) fn omitted_lines(&self, total_lines: u64) -> Option<std::ops::RangeInclusive<u64>> {
        let first = self.head.last().map_or(1, |l| l.number + 1);
        let last = self.tail.first().map_or(total_lines, |l| l.number - 1);
        (first <= last).then_some(first..=last)
    }
}

/// Where `piece` (a subslice of `text`) starts in it.
fn piece_start(text: &[u8], piece: &[u8]) -> usize {
    piece.as_ptr() as usize - text.as_ptr() as usize
}

/// Whether no token of o200k_base or cl100k_base spans a cut of `text` before byte `at`: `at`
/// starts a line (a `\n` before it) whose first character after spaces and tabs is neither
/// whitespace nor a line end, and which does not start with `/`. The pieces the tokenizers'
/// patterns split text into end at such a point: runs of whitespace with a line end in them
/// end at their last line end, punctuation runs swallow only `\r`, `\n` and `/` after them, and
/// letters and digits never a line end.
pub(crate) fn is_clean_cut(text: &[u8], at: usize) -> bool {
    if at == 0 || at >= text.len() || text[at - 1] != b'\n' || text[at] == b'/' {
        return false;
    }
    let rest = &text[at..];
    let indent = rest
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    match rest.get(indent) {
        Some(&b) if b.is_ascii_graphic() => true,
        Some(&b) if b >= 0x80 => {
            let tail = &rest[indent..rest.len().min(indent + 4)];
            let decoded = String::from_utf8_lossy(tail);
            decoded.chars().next().is_some_and(|c| !c.is_whitespace())
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Encoding;

    fn numbered(n: u64) -> String {
        (1..=n).map(|i| format!("{i}\n")).collect()
    }

    #[test]
    fn head_and_tail_are_whole_lines_within_budget() {
        let tok = Tokenizer::load(Encoding::O200kBase);
        let text = numbered(200_000);
        let ends = Ends {
            start: &text.as_bytes()[..4096],
            end: &text.as_bytes()[text.len() - 4096..],
            end_at_line_start: true,
            whole: false,
            total_lines: 200_000,
            total_bytes: text.len() as u64,
        };
        let p = Preview::new(&ends, &tok, 1000);
        assert_eq!(p.head.first().map(|l| l.text.as_str()), Some("1"));
        assert_eq!(p.tail.last().map(|l| l.text.as_str()), Some("200000"));
        assert!(p.head.iter().chain(&p.tail).all(|l| !l.cut));
        let head: u64 = p.head.iter().map(|l| tok.count(&l.text) + 1).sum();
        let tail: u64 = p.tail.iter().map(|l| tok.count(&l.text) + 1).sum();
        assert!(head <= 400 && head > 380, "{head}");
        assert!(tail <= 600 && tail > 580, "{tail}");
        let omitted = p.omitted_lines(200_000).unwrap();
        assert_eq!(*omitted.start(), p.head.len() as u64 + 1);
        assert_eq!(*omitted.end(), 200_000 - p.tail.len() as u64);
    }

    #[test]
    fn a_single_long_line_is_cut_at_both_ends() {
        let tok = Tokenizer::load(Encoding::O200kBase);
        let text = "word ".repeat(100_000);
        let ends = Ends {
            start: &text.as_bytes()[..8192],
            end: &text.as_bytes()[text.len() - 8192..],
            end_at_line_start: false,
            whole: false,
            total_lines: 1,
            total_bytes: text.len() as u64,
        };
        let p = Preview::new(&ends, &tok, 100);
        assert_eq!(p.head.len(), 1);
        assert!(p.head[0].cut && p.head[0].number == 1);
        assert!(tok.count(&p.head[0].text) <= 39);
        assert_eq!(p.tail.len(), 1);
        assert!(p.tail[0].cut && p.tail[0].number == 1);
        assert!(p.omitted_lines(1).is_none());
    }
}
