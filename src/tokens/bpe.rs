//! Byte-pair encoding of text: split into pieces ([`Pattern`]), then each piece merged as
//! tiktoken does: its bytes start as one-byte tokens, and the adjacent pair that makes the
//! lowest-ranked token (the leftmost of equals) is joined until no pair makes a token. Joins
//! are looked up by the ranks of the two tokens ([`Vocab::merge`]). tiktoken looks a whole
//! piece up first; every token merges back to itself (the build checks), so merging it gives
//! the same one token.
//!
//! A piece of up to [`SMALL`] bytes merges in one go, in arrays on the stack. A longer one (a
//! run of one letter or of spaces, a long word, a CJK sentence) merges a window at a time, so
//! that its cost stays linear and its working set small: windows of [`SMALL`] bytes, wider and
//! merged with a heap where the tokens are long. The windows are joined where the result is
//! provably the whole piece's: a sequence of tokens is what BPE makes of its bytes exactly when
//! every adjacent pair of tokens is what BPE makes of that pair's bytes (BPE never joins across
//! a boundary it keeps; the argument is set out in the `bpe` crate's README, github/rust-gems).
//! So when the last token committed and the first token of the next window merge back to
//! themselves, the two encodings concatenate into the encoding of the whole; when they do not,
//! the last committed token is taken back and the window starts earlier.

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::Encoding;
use super::pieces::Pattern;
use super::table;
use super::vocab::{NONE, Vocab};

/// Pieces up to this long merge in one go, on the stack; longer ones a window at a time.
const SMALL: usize = 64;
/// The widest window.
const WINDOW: usize = 1024;
/// Tokens at the end of a window (where the bytes past it could change them) that are not
/// committed; the next window starts before them.
const HELD_BACK: usize = 2;
/// Committed tokens of a long piece kept (not yet handed on) so that windows can start earlier.
const KEEP: usize = 64;

pub(super) struct Bpe {
    vocab: Vocab,
    pattern: Pattern,
    encoding: Encoding,
}

/// Where the tokens of an encoding go: each token's end offset in the text.
trait Sink {
    fn token(&mut self, end: usize);
    /// Takes back the last `tokens` tokens.
    fn undo(&mut self, tokens: usize);
}

struct Count(usize);

impl Sink for Count {
    fn token(&mut self, _end: usize) {
        self.0 += 1;
    }
    fn undo(&mut self, tokens: usize) {
        self.0 -= tokens;
    }
}

impl Sink for Vec<usize> {
    fn token(&mut self, end: usize) {
        self.push(end);
    }
    fn undo(&mut self, tokens: usize) {
        self.truncate(self.len() - tokens);
    }
}

impl Bpe {
    pub(super) fn new(encoding: Encoding) -> Bpe {
        Bpe {
            vocab: Vocab::new(encoding),
            pattern: match encoding {
                Encoding::O200kBase => Pattern::O200k,
                Encoding::Cl100kBase => Pattern::Cl100k,
            },
            encoding,
        }
    }

    /// The number of tokens of `text`, as tiktoken's `encode_ordinary(text).len()`.
    pub(super) fn count(&self, text: &str) -> usize {
        CACHE.with(|cache| match cache.try_borrow_mut() {
            Ok(mut cache) => self.count_cached(text, &mut cache),
            Err(_) => {
                let mut count = Count(0);
                self.encode(text, &mut count);
                count.0
            }
        })
    }

    /// [`count`](Self::count) with the thread's memo of recent pieces: text repeats its pieces
    /// (words, paths, the parts of timestamps), and a repeat then costs one hash and one
    /// compare in a table that stays in the processor's cache.
    fn count_cached(&self, text: &str, cache: &mut PieceCache) -> usize {
        let mut count = Count(0);
        let mut at = 0;
        while at < text.len() {
            let end = self.pattern.piece_end(text, at);
            let piece = &text.as_bytes()[at..end];
            if !(3..=16).contains(&piece.len()) {
                self.piece(piece, at, &mut count);
                at = end;
                continue;
            }
            let key = cache_key(piece);
            let meta = piece.len() as u32 | (self.encoding as u32) << 8;
            let entry = &mut cache.0[table::hash(piece) as usize % CACHED];
            if entry.key == key && entry.meta & 0xffff == meta {
                count.0 += (entry.meta >> 16) as usize;
            } else {
                let before = count.0;
                self.merge(piece, at, &mut count);
                *entry = Entry {
                    key,
                    meta: meta | ((count.0 - before) as u32) << 16,
                };
            }
            at = end;
        }
        count.0
    }

    /// The end offset of each token of `text`.
    pub(super) fn token_ends(&self, text: &str) -> Vec<usize> {
        let mut ends = Vec::new();
        self.encode(text, &mut ends);
        ends
    }

    #[cfg(test)]
    pub(super) fn vocab(&self) -> &Vocab {
        &self.vocab
    }

    fn encode<S: Sink>(&self, text: &str, sink: &mut S) {
        let mut at = 0;
        while at < text.len() {
            let end = self.pattern.piece_end(text, at);
            self.piece(&text.as_bytes()[at..end], at, sink);
            at = end;
        }
    }

    /// Encodes `piece`, which starts at `base` in the text.
    #[inline]
    fn piece<S: Sink>(&self, piece: &[u8], base: usize, sink: &mut S) {
        match *piece {
            [] => {}
            [_] => sink.token(base + 1),
            [a, b] => {
                if self.vocab.pair(a, b) == NONE {
                    sink.token(base + 1);
                }
                sink.token(base + 2);
            }
            _ => self.merge(piece, base, sink),
        }
    }

    /// Merges `piece` (3 bytes or more), which starts at `base` in the text.
    fn merge<S: Sink>(&self, piece: &[u8], base: usize, sink: &mut S) {
        if piece.len() > SMALL {
            return self.merge_long(piece, base, sink);
        }
        let mut bounds = [0; SMALL + 1];
        let parts = merge_small(&self.vocab, piece, &mut bounds);
        for &end in &bounds[1..=parts] {
            sink.token(base + end as usize);
        }
    }

    /// Merges a piece longer than [`SMALL`], a window at a time (see the module doc). Windows
    /// start [`SMALL`] bytes wide and widen, up to [`WINDOW`], while they hold too few tokens
    /// to commit any (runs of spaces or dashes make tokens of up to 128 bytes).
    fn merge_long<S: Sink>(&self, piece: &[u8], base: usize, sink: &mut S) {
        self.merge_windows(piece, base, sink, KEEP);
    }

    /// [`merge_long`](Self::merge_long), handing tokens on once `2 * keep` are committed.
    fn merge_windows<S: Sink>(&self, piece: &[u8], base: usize, sink: &mut S, keep: usize) {
        let n = piece.len();
        let mut memo = Memo::default();
        let (mut window, mut pair) = (Vec::new(), Vec::new());
        // Ends of the tokens committed and not yet handed on; they encode `piece[..at]`.
        let mut done: Vec<usize> = Vec::new();
        let (mut handed, mut handed_end) = (0, 0);
        // Where the token after the last one committed ended in the window that committed it:
        // the two were side by side in an encoding, so a window starting with that same token
        // joins without a check.
        let mut next_end = None;
        let (mut at, mut width, mut work) = (0, SMALL, 0);
        while at < n {
            let end = (at + width).min(n);
            memo.merge(&self.vocab, piece, at..end, &mut window);
            work += end - at;
            let take = match end == n {
                true => window.len(),
                false => window.len().saturating_sub(HELD_BACK),
            };
            if take == 0 && width < WINDOW {
                width *= 2;
                continue;
            }
            let first_end = at + window[0] as usize;
            if at > 0 && next_end != Some(first_end) {
                let last_start = match done.len() {
                    0 => None,
                    1 => Some(handed_end),
                    k => Some(done[k - 2]),
                };
                let apart = last_start.map(|start| {
                    memo.merge(&self.vocab, piece, start..first_end, &mut pair);
                    pair.len() == 2 && start + pair[0] as usize == at
                });
                if apart != Some(true) {
                    // Start the window at the last committed token instead; if it is handed
                    // on already (or this keeps happening), merge the whole piece at once.
                    match last_start {
                        Some(start) if work <= 4 * n => {
                            done.pop();
                            at = start;
                            next_end = None;
                            continue;
                        }
                        _ => {
                            sink.undo(handed);
                            let mut merger = Merger::default();
                            merger.merge(&self.vocab, piece);
                            for &end in &merger.ends {
                                sink.token(base + end as usize);
                            }
                            return;
                        }
                    }
                }
            }
            let take = take.max(1);
            done.extend(window[..take].iter().map(|&e| at + e as usize));
            next_end = window.get(take).map(|&e| at + e as usize);
            at = done.last().copied().unwrap_or(n);
            if done.len() >= 2 * keep {
                let hand = done.len() - keep;
                for &end in &done[..hand] {
                    sink.token(base + end);
                }
                handed += hand;
                handed_end = done[hand - 1];
                done.drain(..hand);
            }
        }
        for &end in &done {
            sink.token(base + end);
        }
    }
}

/// The last few merges of stretches of a long piece, by their bytes: a run of one character
/// (spaces, a letter, `=`) merges the same window and the same pair of tokens over and over.
#[derive(Default)]
struct Memo {
    entries: [MemoEntry; 8],
    merger: Merger,
}

#[derive(Default)]
struct MemoEntry {
    hash: u64,
    /// Where in the piece the stretch was, and its token ends, relative to its start.
    at: std::ops::Range<usize>,
    ends: Vec<u32>,
}

impl Memo {
    /// Sets `ends` to the token ends of `piece[range]`, relative to its start.
    fn merge(
        &mut self,
        vocab: &Vocab,
        piece: &[u8],
        range: std::ops::Range<usize>,
        ends: &mut Vec<u32>,
    ) {
        let bytes = &piece[range.clone()];
        let hash = table::hash(bytes);
        let entry = &mut self.entries[hash as usize % 8];
        ends.clear();
        if entry.hash == hash && entry.at.len() == bytes.len() && piece[entry.at.clone()] == *bytes
        {
            ends.extend_from_slice(&entry.ends);
            return;
        }
        if bytes.len() <= SMALL {
            let mut bounds = [0; SMALL + 1];
            let parts = merge_small(vocab, bytes, &mut bounds);
            ends.extend_from_slice(&bounds[1..=parts]);
        } else {
            self.merger.merge(vocab, bytes);
            ends.extend_from_slice(&self.merger.ends);
        }
        entry.hash = hash;
        entry.at = range;
        entry.ends.clear();
        entry.ends.extend_from_slice(ends);
    }
}

/// Pieces remembered per thread.
const CACHED: usize = 4096;

/// A piece (3 to 16 bytes, zero-padded) and, in `meta`, its length, its encoding and how many
/// tokens it is (`len | encoding << 8 | tokens << 16`; 0 when empty).
#[derive(Clone, Copy, Default)]
struct Entry {
    key: [u64; 2],
    meta: u32,
}

struct PieceCache(Box<[Entry]>);

thread_local! {
    static CACHE: RefCell<PieceCache> =
        RefCell::new(PieceCache(vec![Entry::default(); CACHED].into_boxed_slice()));
}

/// `piece` (3 to 16 bytes) as two zero-padded words.
#[inline]
fn cache_key(piece: &[u8]) -> [u64; 2] {
    let n = piece.len();
    match n {
        0..=3 => [piece.iter().rev().fold(0, |k, &b| k << 8 | u64::from(b)), 0],
        // The two loads overlap on equal bytes, so or-ing them is exact.
        4..=7 => [
            table::read4(piece, 0) | table::read4(piece, n - 4) << ((n - 4) * 8),
            0,
        ],
        8 => [table::read8(piece, 0), 0],
        _ => [
            table::read8(piece, 0),
            table::read8(piece, n - 8) >> ((16 - n) * 8),
        ],
    }
}

/// Merges `piece` (up to [`SMALL`] bytes) by finding the lowest-ranked join each time, in
/// fixed-size arrays indexed by where each part starts, so a join moves nothing. A join's key
/// is its rank and then its start, so the smallest key is the join to make (the leftmost of the
/// lowest rank); the keys are kept in blocks with their minimums, and a join changes at most
/// three keys, so finding the next is a scan of the block minimums and of the changed blocks,
/// without a data-dependent branch. Fills `bounds[..=parts]` with the token boundaries and
/// returns `parts`, the token count.
fn merge_small(vocab: &Vocab, piece: &[u8], bounds: &mut [u32; SMALL + 1]) -> usize {
    // Arrays no larger than the piece needs: most pieces are a few bytes.
    match piece.len() {
        0..=8 => merge_in::<8>(vocab, piece, bounds),
        9..=16 => merge_in::<16>(vocab, piece, bounds),
        17..=32 => merge_in::<32>(vocab, piece, bounds),
        _ => merge_in::<SMALL>(vocab, piece, bounds),
    }
}

/// [`merge_small`] in arrays of `N` (a multiple of 8, at most [`SMALL`]).
fn merge_in<const N: usize>(vocab: &Vocab, piece: &[u8], bounds: &mut [u32; SMALL + 1]) -> usize {
    const BLOCK: usize = 8;
    // A pair that makes no token has a key of NONE's rank, above every real one.
    const NO_JOIN: u64 = (NONE as u64) << 8;
    let n = piece.len().min(N);
    let join = |rank: u32, start: usize| u64::from(rank) << 8 | start as u64;
    // For each part's start: its token, the key of its join with the next part (NO_JOIN also
    // for a position no part starts at), the next part's start and the previous part's start.
    let mut token = [NONE; N];
    let mut keys = [NO_JOIN; N];
    let mut next = [0u8; N];
    let mut prev = [0u8; N];
    for i in 0..n {
        token[i] = vocab.byte(piece[i]);
        next[i] = i as u8 + 1;
        prev[i] = (i as u8).saturating_sub(1);
    }
    for i in 1..n {
        keys[i - 1] = join(vocab.pair(piece[i - 1], piece[i]), i - 1);
    }
    // Blocks of 8 keys and their minimums; a piece of up to 8 bytes is one block, scanned whole.
    let mut mins = [NO_JOIN; SMALL / BLOCK];
    for (block, min) in mins.iter_mut().enumerate().take(n.div_ceil(BLOCK)) {
        *min = least(&keys[block * BLOCK..]);
    }
    let mut parts = n;
    loop {
        let best = if N == BLOCK {
            least(&keys)
        } else {
            least(&mins)
        };
        if best >= NO_JOIN {
            break;
        }
        let (rank, at) = ((best >> 8) as u32, best as usize & 0xff);
        let right = usize::from(next[at]);
        let after = usize::from(next[right]);
        next[at] = after as u8;
        token[at] = rank;
        keys[right] = NO_JOIN;
        keys[at] = NO_JOIN;
        if after < n {
            prev[after] = at as u8;
            keys[at] = join(vocab.merge(rank, token[after]), at);
        }
        let mut before = at;
        if at > 0 {
            before = usize::from(prev[at]);
            keys[before] = join(vocab.merge(token[before], rank), before);
        }
        if N > BLOCK {
            for block in [before / BLOCK, at / BLOCK, right / BLOCK] {
                mins[block] = least(&keys[block * BLOCK..]);
            }
        }
        parts -= 1;
    }
    let mut at = 0;
    for bound in &mut bounds[1..=parts] {
        at = usize::from(next[at]);
        *bound = at as u32;
    }
    parts
}

/// The least of the first eight keys (fewer: the rest count as `u64::MAX`), in a tree of
/// selects the compiler leaves without branches (which of two keys is less is as good as
/// random).
#[inline]
fn least(keys: &[u64]) -> u64 {
    let min = |a: u64, b: u64| std::hint::select_unpredictable(a < b, a, b);
    let k: [u64; 8] = std::array::from_fn(|i| keys.get(i).copied().unwrap_or(u64::MAX));
    min(
        min(min(k[0], k[1]), min(k[2], k[3])),
        min(min(k[4], k[5]), min(k[6], k[7])),
    )
}

/// Merges with a heap of candidate joins: `O(n log n)` for a piece of `n` bytes.
#[derive(Default)]
struct Merger {
    /// For each part's start, the next part's start.
    next: Vec<u32>,
    /// For each part's start, the previous part's start.
    prev: Vec<u32>,
    /// For each part's start, its token.
    token: Vec<u32>,
    /// For each part's start, the token it makes with the next part, or [`NONE`] (also for a
    /// position that is no longer a part's start).
    rank: Vec<u32>,
    /// `(rank, start)` of candidate joins; stale ones are skipped when popped.
    heap: BinaryHeap<Reverse<u64>>,
    /// The result: the end of each token.
    ends: Vec<u32>,
}

impl Merger {
    fn merge(&mut self, vocab: &Vocab, piece: &[u8]) {
        let n = piece.len();
        self.next.clear();
        self.next.extend(1..=n as u32);
        self.prev.clear();
        self.prev.extend((0..n as u32).map(|i| i.saturating_sub(1)));
        self.token.clear();
        self.token.extend(piece.iter().map(|&b| vocab.byte(b)));
        self.rank.clear();
        self.rank
            .extend(piece.windows(2).map(|pair| vocab.pair(pair[0], pair[1])));
        self.rank.push(NONE);
        self.heap.clear();
        for start in 0..n {
            self.push(start);
        }
        while let Some(Reverse(key)) = self.heap.pop() {
            let (rank, start) = ((key >> 32) as u32, key as u32 as usize);
            if self.rank[start] != rank {
                continue;
            }
            let right = self.next[start] as usize;
            let after = self.next[right] as usize;
            self.next[start] = after as u32;
            self.token[start] = rank;
            self.rank[right] = NONE;
            self.rank[start] = NONE;
            if after < n {
                self.prev[after] = start as u32;
                self.rank[start] = vocab.merge(rank, self.token[after]);
            }
            self.push(start);
            if start > 0 {
                let before = self.prev[start] as usize;
                self.rank[before] = vocab.merge(self.token[before], rank);
                self.push(before);
            }
        }
        self.ends.clear();
        let mut at = 0;
        while at < n {
            at = self.next[at] as usize;
            self.ends.push(at as u32);
        }
    }

    fn push(&mut self, start: usize) {
        let rank = self.rank[start];
        if rank != NONE {
            self.heap
                .push(Reverse(u64::from(rank) << 32 | start as u64));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed xorshift sequence.
    fn random(seed: u32) -> impl Iterator<Item = u32> {
        std::iter::successors(Some(seed | 1), |&s| {
            let s = s ^ s << 13;
            let s = s ^ s >> 17;
            Some(s ^ s << 5)
        })
    }

    /// `len` bytes of the units of `alphabet` in a fixed random order.
    fn made_of(alphabet: &[&str], len: usize, seed: u32) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(len + 8);
        for r in random(seed) {
            if bytes.len() >= len {
                break;
            }
            bytes.extend_from_slice(alphabet[r as usize % alphabet.len()].as_bytes());
        }
        bytes
    }

    /// Merging a window at a time, joined where the join provably holds, gives what merging
    /// the whole piece at once with a heap gives, on long pieces of the sort that make windows
    /// disagree at their ends: runs, small alphabets, tokens of many lengths.
    #[test]
    fn windows_join_into_the_whole_piece_s_merge() {
        let alphabets: [&[&str]; 10] = [
            &["a"],
            &["a", "b"],
            &["a", "aa", "aaa", "b"],
            &[" "],
            &[" ", "  ", "        "],
            &["-", "=", "-", "--"],
            &["e", "t", "a", "o", "i", "n", "s", "h", "r"],
            &["中", "文", "字", "的"],
            &["\u{fffd}", "€", "a"],
            &["0", "1", "x", "y"],
        ];
        for encoding in Encoding::ALL {
            let bpe = Bpe::new(encoding);
            for (seed, alphabet) in alphabets.iter().enumerate() {
                for len in [SMALL + 1, 200, 3000, 40_000] {
                    let piece = made_of(alphabet, len, seed as u32 + 7);
                    let mut whole = Merger::default();
                    whole.merge(&bpe.vocab, &piece);
                    let whole: Vec<usize> = whole.ends.iter().map(|&e| e as usize).collect();
                    // Keeping one token, a window that must start two tokens back cannot:
                    // the whole piece is merged at once instead.
                    for keep in [KEEP, 1] {
                        let mut windows = Vec::new();
                        bpe.merge_windows(&piece, 0, &mut windows, keep);
                        assert_eq!(windows, whole, "{encoding} {alphabet:?} {len} {keep}");
                    }
                }
            }
        }
    }

    /// The stack merge and the heap merge agree on every piece they both take.
    #[test]
    fn small_pieces_merge_as_with_a_heap() {
        for encoding in Encoding::ALL {
            let bpe = Bpe::new(encoding);
            let alphabet = [
                "a", "b", "e", "r", "s", "t", " ", ".", "é", "中", "1", "\u{fffd}",
            ];
            for (i, seed) in random(3).take(3000).enumerate() {
                let piece = made_of(&alphabet, 1 + i % SMALL, seed);
                let piece = &piece[..piece.len().min(SMALL)];
                let mut bounds = [0; SMALL + 1];
                let parts = merge_small(&bpe.vocab, piece, &mut bounds);
                let mut heap = Merger::default();
                heap.merge(&bpe.vocab, piece);
                assert_eq!(&bounds[1..=parts], &heap.ends[..], "{encoding} {piece:?}");
            }
        }
    }
}
