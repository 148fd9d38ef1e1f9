//! Where text can be cut into chunks that are counted apart, with the same total as counting
//! it whole.
//!
//! Text is counted in chunks of at most [`MAX_CHUNK`] bytes, so no piece handed to the BPE is
//! longer than that however the input looks. A chunk ends at an *exact cut*: a position where
//! counting the two sides separately gives the same total as counting the whole. Both
//! encodings split text with a regex before BPE; a cut is exact when no regex piece spans it.
//! Two kinds are used, both checked exhaustively against tiktoken-rs for both encodings
//! (`cut_rules_are_exact` and the property tests in `mod.rs`; the corpus in `tests/tokens.rs`):
//!
//! - **line cut**, right after `\n`, when what follows is optional ASCII spaces/tabs (at most
//!   [`INDENT_MAX`]) and then a character that is not whitespace. Whitespace there is unsafe
//!   (`\s*[\r\n]+` glues `\n  \n` and `\n\r\n` into one piece; a space right after `\n`
//!   is safe only when the run ends in a non-space). `/` right after the `\n` is unsafe in
//!   o200k when a punctuation run precedes the `\n` (its pattern's `[\r\n/]*` tail makes
//!   `.\n/` one piece), so `/` is accepted only when an ASCII letter or digit precedes the `\n`.
//! - **word cut**, right before an ASCII space or tab that follows a printable ASCII
//!   character (no piece continues from a non-space into whitespace), or right before ASCII
//!   punctuation other than `'` that follows an ASCII letter or digit (letter and number
//!   pieces end there; `'` may continue one as a contraction). Used when a line has no line
//!   cut within [`MAX_CHUNK`] (long lines, minified JSON).
//!
//! Only when a stretch longer than [`MAX_CHUNK`] has neither (a megabyte of one letter, of
//! spaces, of random bytes) is a cut forced at a character boundary; SPEC §6 allows a couple
//! of tokens of difference per forced cut. Where forced cuts fall depends only on the text
//! since the last exact cut, so sequential, streaming and parallel counts agree to the token.

use memchr::memrchr_iter;

use super::MAX_CHUNK;

/// Chunk sizes: `max` is [`MAX_CHUNK`]; the streaming counter counts once `target` bytes are
/// pending (and they hold an exact cut). Tests shrink them to exercise cuts on small inputs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Limits {
    pub(super) target: usize,
    pub(super) max: usize,
}

pub(super) const LIMITS: Limits = Limits {
    target: 64 << 10,
    max: MAX_CHUNK,
};
/// Indentation after `\n` a line cut looks through before deciding.
const INDENT_MAX: usize = 256;
/// Bytes after a line-cut candidate needed to decide it (indentation plus one character).
const LOOKAHEAD: usize = INDENT_MAX + 4;

/// Where the chunk at the start of `text` should end.
#[derive(Debug)]
pub(super) enum Cut {
    /// At an exact cut (or the end of the text).
    At(usize),
    /// At a character boundary, possibly inside a regex piece.
    Forced(usize),
    /// Not enough text yet; line-cut candidates up to `searched` are known not to be exact.
    Wait { searched: usize },
}

/// The end of the chunk that starts `text`: the last exact cut within [`MAX_CHUNK`], else a
/// forced one at a character boundary. Unless `at_end`, waits for a full target chunk and,
/// before forcing, for enough text to know no exact cut exists. Line-cut candidates up to
/// `searched` are skipped (known not to be exact).
pub(super) fn next_cut(text: &str, at_end: bool, searched: usize, limits: Limits) -> Cut {
    let bytes = text.as_bytes();
    let n = bytes.len();
    if at_end && n <= limits.max {
        return Cut::At(n);
    }
    if !at_end && n < limits.target {
        return Cut::Wait { searched };
    }
    let hi = n.min(limits.max);
    if let Some(cut) = last_line_cut(bytes, searched, hi) {
        return Cut::At(cut);
    }
    if !at_end && n < limits.max + LOOKAHEAD {
        return Cut::Wait {
            searched: searched.max(hi.saturating_sub(LOOKAHEAD)),
        };
    }
    match last_word_cut(bytes, 0, limits.max) {
        Some(cut) => Cut::At(cut),
        None => Cut::Forced(text.floor_char_boundary(limits.max)),
    }
}

/// The chunks [`next_cut`] divides a whole text into.
pub(super) fn chunks(text: &str, limits: Limits) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = match next_cut(rest, true, 0, limits) {
            Cut::At(cut) | Cut::Forced(cut) => cut,
            Cut::Wait { .. } => rest.len(),
        };
        let (chunk, tail) = rest.split_at(end);
        rest = tail;
        Some(chunk)
    })
}

/// `bytes` in up to `parts` pieces split at exact cuts, each cut the last one at most `search`
/// bytes before an even share (a share with no cut there joins the next piece).
pub(super) fn split_at_exact_cuts(bytes: &[u8], parts: usize, search: usize) -> Vec<&[u8]> {
    let mut pieces = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 1..parts {
        let goal = bytes.len() / parts * k;
        if let Some(cut) = exact_cut_in(bytes, goal.saturating_sub(search).max(start), goal) {
            pieces.push(&bytes[start..cut]);
            start = cut;
        }
    }
    pieces.push(&bytes[start..]);
    pieces
}

/// The last exact cut in `lo+1..=hi`, preferring line cuts.
pub(super) fn exact_cut_in(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
    last_line_cut(bytes, lo, hi).or_else(|| last_word_cut(bytes, lo, hi))
}

/// The last line cut in `lo+1..=hi` (see the module doc).
fn last_line_cut(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
    if lo >= hi {
        return None;
    }
    memrchr_iter(b'\n', &bytes[lo..hi])
        .map(|i| lo + i + 1)
        .find(|&cut| is_line_cut(bytes, cut))
}

/// Whether cutting right after the `\n` at `cut - 1` is exact. Text past the end of `bytes`
/// is unknown, so a candidate that would need it is not a cut.
pub(super) fn is_line_cut(bytes: &[u8], cut: usize) -> bool {
    let indent_end = (cut + INDENT_MAX).min(bytes.len());
    let indent = bytes[cut..indent_end]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let at = cut + indent;
    match bytes.get(at) {
        None | Some(b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r' | b' ') => false,
        Some(b'/') => indent > 0 || (cut >= 2 && bytes[cut - 2].is_ascii_alphanumeric()),
        Some(&b) if b.is_ascii() => true,
        Some(_) => !first_char(&bytes[at..]).is_whitespace(),
    }
}

/// The first character of `bytes` as a lossy decoding would see it.
fn first_char(bytes: &[u8]) -> char {
    bytes[..bytes.len().min(4)]
        .utf8_chunks()
        .next()
        .and_then(|chunk| chunk.valid().chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// The last word cut in `lo+1..=hi` (see the module doc).
fn last_word_cut(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
    let to = (hi + 1).min(bytes.len());
    (lo + 1..to)
        .rev()
        .find(|&cut| is_word_cut(bytes[cut - 1], bytes[cut]))
}

/// Whether cutting between `before` and `next` is exact (no piece continues from one into
/// the other): before a space or tab that follows printable ASCII, or before ASCII
/// punctuation other than `'` (which may start a contraction) that follows a letter or digit.
pub(super) fn is_word_cut(before: u8, next: u8) -> bool {
    match next {
        b' ' | b'\t' => before.is_ascii_graphic(),
        b'\'' => false,
        _ => next.is_ascii_punctuation() && before.is_ascii_alphanumeric(),
    }
}
