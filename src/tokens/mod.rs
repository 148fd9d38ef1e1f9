//! Token counting behind one small interface (SPEC §6): exact counts for `o200k_base` and
//! `cl100k_base`, streaming in bounded memory, linear time on any input, and head/tail cuts at
//! token boundaries. The backend is the `tiktoken` crate; nothing outside this file names it.
//! Decoding bytes (lossily, as `String::from_utf8_lossy`) is done here too; what the text *is*
//! (binary detection, display cleaning) is not this module's business.
//!
//! # Chunking
//!
//! Text is counted in chunks of at most [`MAX_CHUNK`] bytes, so no piece handed to the BPE is
//! longer than that however the input looks. A chunk ends at an *exact cut*: a position where
//! counting the two sides separately gives the same total as counting the whole. Both
//! encodings split text with a regex before BPE; a cut is exact when no regex piece spans it.
//! Two kinds are used, both checked exhaustively against tiktoken-rs for both encodings
//! (`cut_rules_are_exact` and the property tests below; the corpus in `tests/tokens.rs`):
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

mod bpe;
mod pieces;
mod table;
mod vocab;

use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::thread;

use memchr::memrchr_iter;

use bpe::Bpe;

/// Longest chunk handed to the BPE; a stretch this long without an exact cut gets a forced one.
pub const MAX_CHUNK: usize = 1 << 20;
/// Chunk sizes: `max` is [`MAX_CHUNK`]; the streaming counter counts once `target` bytes are
/// pending (and they hold an exact cut). Tests shrink them to exercise cuts on small inputs.
#[derive(Clone, Copy, Debug)]
struct Limits {
    target: usize,
    max: usize,
}

const LIMITS: Limits = Limits {
    target: 64 << 10,
    max: MAX_CHUNK,
};
/// Indentation after `\n` a line cut looks through before deciding.
const INDENT_MAX: usize = 256;
/// Bytes after a line-cut candidate needed to decide it (indentation plus one character).
const LOOKAHEAD: usize = INDENT_MAX + 4;
/// Raw input is decoded this much at a time, so the pending text stays near [`MAX_CHUNK`].
const DECODE_BLOCK: usize = 64 << 10;
/// The longest token of either vocabulary, in bytes (128 spaces; checked by a test).
pub const MAX_TOKEN_BYTES: usize = 128;
/// How far past the bytes `prefix`/`suffix` strictly need they look for an exact cut.
const WINDOW_SLACK: usize = 64 << 10;
/// Inputs smaller than this are not worth splitting across threads.
const PARALLEL_MIN: usize = 4 * MAX_CHUNK;

/// A tokenizer encoding ctxoff can count in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    #[default]
    O200kBase,
    Cl100kBase,
}

impl Encoding {
    pub const ALL: [Encoding; 2] = [Encoding::O200kBase, Encoding::Cl100kBase];

    pub fn name(self) -> &'static str {
        match self {
            Encoding::O200kBase => "o200k_base",
            Encoding::Cl100kBase => "cl100k_base",
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Encoding {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown encoding '{s}' (expected o200k_base or cl100k_base)"))
    }
}

/// A loaded tokenizer. Its tables are compiled in and read in place, so loading costs well
/// under a millisecond, once per process and encoding.
#[derive(Clone, Copy)]
pub struct Tokenizer {
    bpe: &'static Bpe,
    encoding: Encoding,
}

impl Tokenizer {
    pub fn load(encoding: Encoding) -> Tokenizer {
        static O200K: OnceLock<Bpe> = OnceLock::new();
        static CL100K: OnceLock<Bpe> = OnceLock::new();
        let bpe = match encoding {
            Encoding::O200kBase => O200K.get_or_init(|| Bpe::new(encoding)),
            Encoding::Cl100kBase => CL100K.get_or_init(|| Bpe::new(encoding)),
        };
        Tokenizer { bpe, encoding }
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Token count of `text` (as `encode_ordinary`: special tokens are plain text), exact
    /// except for forced cuts in stretches of over [`MAX_CHUNK`] bytes without an exact cut.
    pub fn count(&self, text: &str) -> u64 {
        chunks(text, LIMITS)
            .map(|chunk| self.bpe.count(chunk) as u64)
            .sum()
    }

    /// Token count of raw bytes, decoded lossily (as `String::from_utf8_lossy`).
    pub fn count_bytes(&self, bytes: &[u8]) -> u64 {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return self.count(text);
        }
        let mut counter = Counter::new(*self);
        counter.feed(bytes);
        counter.finish()
    }

    /// [`count_bytes`](Self::count_bytes) on all available cores: the input is split at exact
    /// cuts, so the result is the same as counting sequentially.
    pub fn count_parallel(&self, bytes: &[u8]) -> u64 {
        let threads = thread::available_parallelism().map_or(1, |n| n.get());
        if threads < 2 || bytes.len() < PARALLEL_MIN {
            return self.count_bytes(bytes);
        }
        let parts = split_at_exact_cuts(bytes, threads, MAX_CHUNK);
        let (first, rest) = parts.split_at(1);
        thread::scope(|scope| {
            let workers: Vec<_> = rest
                .iter()
                .map(|part| scope.spawn(move || self.count_bytes(part)))
                .collect();
            let mut total: u64 = first.iter().map(|part| self.count_bytes(part)).sum();
            for worker in workers {
                total += worker
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            }
            total
        })
    }

    /// The longest prefix of `text` made of its first tokens, at most `max` of them, cut at a
    /// token boundary (rounded down to a character boundary); counting the prefix on its own
    /// gives at most `max`. Looks only at about `max` × [`MAX_TOKEN_BYTES`] bytes of `text`.
    pub fn prefix<'a>(&self, text: &'a str, max: u64) -> &'a str {
        let max = usize::try_from(max).unwrap_or(usize::MAX);
        let need = max.saturating_mul(MAX_TOKEN_BYTES);
        // The first `max` tokens lie within `need` bytes; tokenizing up to an exact cut past
        // that gives them as the whole text would.
        let window = if text.len() <= need {
            text
        } else {
            let limit = need.saturating_add(WINDOW_SLACK).min(text.len());
            let end = exact_cut_in(text.as_bytes(), need, limit)
                .unwrap_or_else(|| text.floor_char_boundary(limit));
            &text[..end]
        };
        let mut done = 0; // bytes of whole chunks taken
        let mut left = max;
        for chunk in chunks(window, LIMITS) {
            let ends = self.bpe.token_ends(chunk);
            if ends.len() <= left {
                left -= ends.len();
                done += chunk.len();
                continue;
            }
            // Cutting inside a piece may retokenize the cut piece; back off until it fits.
            for take in (left.saturating_sub(8)..=left).rev() {
                let bytes = take.checked_sub(1).map_or(0, |last| ends[last]);
                let end = text.floor_char_boundary(done + bytes);
                let head = &text[..end];
                if self.count(&head[done..]) as usize <= left {
                    return head;
                }
            }
            break;
        }
        &text[..done]
    }

    /// The longest suffix of `text` made of its last tokens, at most `max` of them, cut at a
    /// token boundary (rounded up to a character boundary); counting the suffix on its own
    /// gives at most `max`. Looks only at about `max` × [`MAX_TOKEN_BYTES`] bytes of `text`.
    pub fn suffix<'a>(&self, text: &'a str, max: u64) -> &'a str {
        let max = usize::try_from(max).unwrap_or(usize::MAX);
        let need = max.saturating_mul(MAX_TOKEN_BYTES);
        let start = if text.len() <= need {
            0
        } else {
            let from = text.len() - need;
            let limit = from.saturating_sub(WINDOW_SLACK);
            exact_cut_in(text.as_bytes(), limit, from)
                .unwrap_or_else(|| text.ceil_char_boundary(limit))
        };
        let window = &text[start..];
        let counts: Vec<(usize, usize)> = chunks(window, LIMITS)
            .map(|chunk| (chunk.len(), self.bpe.count(chunk)))
            .collect();
        let total: usize = counts.iter().map(|&(_, n)| n).sum();
        let mut skip = total.saturating_sub(max); // tokens to leave out at the front
        let mut offset = start;
        for (len, n) in counts {
            if skip >= n {
                skip -= n;
                offset += len;
                continue;
            }
            if skip == 0 {
                break;
            }
            let chunk = &text[offset..offset + len];
            let ends = self.bpe.token_ends(chunk);
            let rest_of_window = self.count(&text[offset + len..]) as usize;
            for drop in skip..ends.len().min(skip + 9) {
                let bytes = drop.checked_sub(1).map_or(0, |last| ends[last]);
                let from = text.ceil_char_boundary(offset + bytes);
                if self.count(&text[from..offset + len]) as usize + rest_of_window <= max {
                    return &text[from..];
                }
            }
            offset += len;
            break;
        }
        &text[offset..]
    }
}

/// Counts the tokens of a byte stream fed in arbitrary pieces, in bounded memory (about
/// [`MAX_CHUNK`] plus a little). Bytes are decoded as `String::from_utf8_lossy` would decode
/// the whole stream, even when a character is split between two `feed` calls.
///
/// `committed()` is a running lower bound of the final count (what has been counted so far);
/// `finish()` gives the total.
pub struct Counter {
    tokenizer: Tokenizer,
    limits: Limits,
    /// Decoded text not yet counted; it starts at a cut.
    pending: String,
    /// An incomplete UTF-8 sequence at the end of the input so far.
    partial: [u8; 4],
    partial_len: usize,
    /// Line-cut candidates in `pending` up to here are known not to be exact.
    searched: usize,
    committed: u64,
}

impl Counter {
    pub fn new(tokenizer: Tokenizer) -> Counter {
        Counter::with_limits(tokenizer, LIMITS)
    }

    fn with_limits(tokenizer: Tokenizer, limits: Limits) -> Counter {
        Counter {
            tokenizer,
            limits,
            pending: String::new(),
            partial: [0; 4],
            partial_len: 0,
            searched: 0,
            committed: 0,
        }
    }

    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            if self.partial_len > 0 {
                bytes = self.finish_partial(bytes);
                continue;
            }
            let (block, rest) = bytes.split_at(bytes.len().min(DECODE_BLOCK));
            self.decode(block);
            bytes = rest;
            self.count_ready(false);
        }
    }

    pub fn committed(&self) -> u64 {
        self.committed
    }

    pub fn finish(mut self) -> u64 {
        if self.partial_len > 0 {
            self.pending.push(char::REPLACEMENT_CHARACTER);
            self.partial_len = 0;
        }
        self.count_ready(true);
        self.committed
    }

    /// Decodes `block` onto `pending`, keeping a trailing incomplete sequence in `partial`.
    fn decode(&mut self, block: &[u8]) {
        // Valid UTF-8 is the common case, and `from_utf8` checks it several times faster than
        // `utf8_chunks` walks it.
        if let Ok(text) = std::str::from_utf8(block) {
            self.pending.push_str(text);
            return;
        }
        let mut end = 0;
        for chunk in block.utf8_chunks() {
            self.pending.push_str(chunk.valid());
            let invalid = chunk.invalid();
            end += chunk.valid().len() + invalid.len();
            if invalid.is_empty() {
                continue;
            }
            if end == block.len() && is_incomplete(invalid) {
                self.partial[..invalid.len()].copy_from_slice(invalid);
                self.partial_len = invalid.len();
            } else {
                self.pending.push(char::REPLACEMENT_CHARACTER);
            }
        }
    }

    /// Resolves the incomplete sequence in `partial` with the first bytes of `bytes`; returns
    /// the bytes not consumed.
    fn finish_partial<'b>(&mut self, bytes: &'b [u8]) -> &'b [u8] {
        let have = self.partial_len;
        let take = bytes.len().min(4 - have);
        let mut joined = [0u8; 4];
        joined[..have].copy_from_slice(&self.partial[..have]);
        joined[have..have + take].copy_from_slice(&bytes[..take]);
        let joined = &joined[..have + take];
        let Some(first) = joined.utf8_chunks().next() else {
            return bytes; // unreachable: `joined` holds at least the partial bytes
        };
        if let Some(c) = first.valid().chars().next() {
            self.pending.push(c);
            self.partial_len = 0;
            return &bytes[c.len_utf8().saturating_sub(have)..];
        }
        let invalid = first.invalid();
        if invalid.len() == joined.len() && is_incomplete(invalid) {
            // Still incomplete: all of `bytes` (fewer than the character needs) is taken.
            self.partial[..joined.len()].copy_from_slice(joined);
            self.partial_len = joined.len();
            return &bytes[take..];
        }
        self.pending.push(char::REPLACEMENT_CHARACTER);
        self.partial_len = 0;
        &bytes[invalid.len().saturating_sub(have)..]
    }

    /// Counts and drops pending text up to exact cuts (or forced ones); at the end, all of it.
    fn count_ready(&mut self, at_end: bool) {
        while !self.pending.is_empty() {
            match next_cut(&self.pending, at_end, self.searched, self.limits) {
                Cut::At(cut) | Cut::Forced(cut) => {
                    self.committed += self.tokenizer.bpe.count(&self.pending[..cut]) as u64;
                    self.pending.drain(..cut);
                    self.searched = 0;
                }
                Cut::Wait { searched } => {
                    self.searched = searched;
                    return;
                }
            }
        }
    }
}

/// Whether `bytes` (an invalid piece from `utf8_chunks`) is the start of a character cut off
/// by the end of the input, rather than an invalid sequence.
fn is_incomplete(bytes: &[u8]) -> bool {
    matches!(std::str::from_utf8(bytes), Err(e) if e.error_len().is_none())
}

/// Where the chunk at the start of `text` should end.
#[derive(Debug)]
enum Cut {
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
fn next_cut(text: &str, at_end: bool, searched: usize, limits: Limits) -> Cut {
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
fn chunks(text: &str, limits: Limits) -> impl Iterator<Item = &str> {
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

/// Counts a byte stream on all cores in bounded memory. The stream is cut into segments of
/// about [`PARALLEL_BLOCK`] bytes at exact cuts, and the segments go through one short queue to
/// long-lived worker threads (the tokenizer's piece cache is per thread, so threads are kept,
/// not spawned per segment). A stretch with no exact cut in a whole segment (a megabyte without
/// a line or word break) is counted sequentially up to the next exact cut, and so is the
/// beginning of a stream taken over from a sequential [`Counter`]. Either way the total equals
/// a sequential count, and at most `workers + 3` segments are in memory whatever the machine.
pub struct ParallelCounter {
    tokenizer: Tokenizer,
    block: Vec<u8>,
    block_size: usize,
    /// The workers' queue, from the first segment on: a short count starts no thread.
    queue: Option<mpsc::SyncSender<Vec<u8>>>,
    workers: Vec<thread::JoinHandle<u64>>,
    /// Segments the workers are done with, to be filled again: a long count allocates no more
    /// buffers than are ever in flight (fresh ones fragment the heap across threads).
    spent: (mpsc::Sender<Vec<u8>>, mpsc::Receiver<Vec<u8>>),
    /// The stretch being counted sequentially, if any; it ends at the next exact cut.
    stretch: Option<Counter>,
    /// What finished stretches (and segments no worker took) counted.
    counted: u64,
}

/// Bytes gathered before a segment goes to a worker.
const PARALLEL_BLOCK: usize = MAX_CHUNK;

/// Most counting threads: each holds a segment and a piece cache (about 1 MB), so memory stays
/// bounded on machines with many cores.
const MAX_WORKERS: usize = 4;

impl ParallelCounter {
    pub fn new(tokenizer: Tokenizer) -> ParallelCounter {
        ParallelCounter::with_block(tokenizer, PARALLEL_BLOCK)
    }

    /// A counter with another segment size (tests use small ones to cross many cuts).
    pub fn with_block(tokenizer: Tokenizer, block_size: usize) -> ParallelCounter {
        ParallelCounter {
            tokenizer,
            block: Vec::new(),
            block_size: block_size.max(1),
            queue: None,
            workers: Vec::new(),
            spent: mpsc::channel(),
            stretch: None,
            counted: 0,
        }
    }

    /// Starts the workers; returns their queue.
    fn start_workers(&mut self) -> mpsc::SyncSender<Vec<u8>> {
        let threads = thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, MAX_WORKERS);
        // One segment waits while the workers count theirs: they never starve, and the feeder
        // blocks instead of buffering.
        let (queue, segments) = mpsc::sync_channel::<Vec<u8>>(1);
        let segments = Arc::new(Mutex::new(segments));
        let tokenizer = self.tokenizer;
        self.workers = (0..threads)
            .map(|_| {
                let (segments, spent) = (Arc::clone(&segments), self.spent.0.clone());
                thread::spawn(move || {
                    let mut total = 0;
                    while let Some(mut segment) = next_segment(&segments) {
                        total += tokenizer.count_bytes(&segment);
                        segment.clear();
                        // The counter may be finishing and gone: then the buffer is just freed.
                        let _ = spent.send(segment);
                    }
                    total
                })
            })
            .collect();
        queue
    }

    /// Goes on from a sequential counter that has seen the stream so far: it counts on up to
    /// the first exact cut past a segment's length, and the rest is counted in parallel (so
    /// a short rest is counted on the caller's thread).
    pub fn continuing(counter: Counter) -> ParallelCounter {
        ParallelCounter::continuing_with_block(counter, PARALLEL_BLOCK)
    }

    fn continuing_with_block(counter: Counter, block_size: usize) -> ParallelCounter {
        let mut parallel = ParallelCounter::with_block(counter.tokenizer, block_size);
        parallel.stretch = Some(counter);
        parallel
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        // A block at a time, so a large `bytes` is never copied whole.
        for piece in bytes.chunks(self.block_size) {
            self.block.extend_from_slice(piece);
            self.send_ready();
        }
    }

    /// Sends the segments `block` holds, or counts a stretch without a cut.
    fn send_ready(&mut self) {
        while self.block.len() >= self.block_size {
            // The cut rules look only inside `block`, so a cut found there is exact in the
            // whole stream even when `block` does not start at one (in a stretch).
            let Some(cut) = exact_cut_in(&self.block, 0, self.block_size) else {
                let tokenizer = self.tokenizer;
                let stretch = self.stretch.get_or_insert_with(|| Counter::new(tokenizer));
                stretch.feed(&self.block);
                self.block.clear();
                return;
            };
            let mut rest = self.spent.1.try_recv().unwrap_or_default();
            rest.extend_from_slice(&self.block[cut..]);
            self.block.truncate(cut);
            let segment = std::mem::replace(&mut self.block, rest);
            match self.stretch.take() {
                Some(mut stretch) => {
                    stretch.feed(&segment);
                    self.counted += stretch.finish();
                }
                None => self.send(segment),
            }
        }
    }

    fn send(&mut self, segment: Vec<u8>) {
        let queue = match self.queue.take() {
            Some(queue) => queue,
            None => self.start_workers(),
        };
        if let Err(mpsc::SendError(segment)) = queue.send(segment) {
            // No worker left (it cannot happen short of a bug): the count must not lose it.
            self.counted += self.tokenizer.count_bytes(&segment);
        }
        self.queue = Some(queue);
    }

    pub fn finish(mut self) -> u64 {
        let block = std::mem::take(&mut self.block);
        let tail = match self.stretch.take() {
            Some(mut stretch) => {
                stretch.feed(&block);
                stretch.finish()
            }
            None => self.tokenizer.count_bytes(&block),
        };
        drop(self.queue.take());
        let counted: u64 = std::mem::take(&mut self.workers)
            .into_iter()
            .map(|handle| handle.join().unwrap_or(0))
            .sum();
        self.counted + counted + tail
    }
}

/// The next segment from the shared queue; `None` once the counter has finished.
fn next_segment(segments: &Mutex<mpsc::Receiver<Vec<u8>>>) -> Option<Vec<u8>> {
    segments.lock().ok()?.recv().ok()
}

/// `bytes` in up to `parts` pieces split at exact cuts, each cut the last one at most `search`
/// bytes before an even share (a share with no cut there joins the next piece).
fn split_at_exact_cuts(bytes: &[u8], parts: usize, search: usize) -> Vec<&[u8]> {
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
fn exact_cut_in(bytes: &[u8], lo: usize, hi: usize) -> Option<usize> {
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
fn is_line_cut(bytes: &[u8], cut: usize) -> bool {
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
fn is_word_cut(before: u8, next: u8) -> bool {
    match next {
        b' ' | b'\t' => before.is_ascii_graphic(),
        b'\'' => false,
        _ => next.is_ascii_punctuation() && before.is_ascii_alphanumeric(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    /// The reference: tiktoken-rs's `encode_ordinary`.
    fn reference(encoding: Encoding) -> &'static tiktoken_rs::CoreBPE {
        static O200K: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
        static CL100K: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
        match encoding {
            Encoding::O200kBase => O200K.get_or_init(|| tiktoken_rs::o200k_base().unwrap()),
            Encoding::Cl100kBase => CL100K.get_or_init(|| tiktoken_rs::cl100k_base().unwrap()),
        }
    }

    fn ref_count(encoding: Encoding, text: &str) -> u64 {
        reference(encoding).encode_ordinary(text).len() as u64
    }

    /// Every position the cut rules accept in `text`.
    fn accepted_cuts(text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        (1..bytes.len())
            .filter(|&p| {
                (bytes[p - 1] == b'\n' && is_line_cut(bytes, p))
                    || is_word_cut(bytes[p - 1], bytes[p])
            })
            .collect()
    }

    fn assert_cuts_exact(text: &str) {
        for encoding in Encoding::ALL {
            let whole = ref_count(encoding, text);
            for p in accepted_cuts(text) {
                let (a, b) = text.split_at(p);
                assert_eq!(
                    ref_count(encoding, a) + ref_count(encoding, b),
                    whole,
                    "{encoding}: cut {a:?} | {b:?}"
                );
            }
        }
    }

    #[test]
    fn cut_rules_are_exact() {
        // Every context pair the rules could plausibly get wrong, both encodings: what comes
        // before the `\n` (or the space), what starts the next line, and what follows.
        let mut before: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        before.extend(
            [
                "", "ab", "123", ".\r", "a\r", "é", "\u{3000}", "\u{FFFD}", "中", "a.", "x/", "…",
            ]
            .map(String::from),
        );
        let mut starts: Vec<String> = (0u8..0x80).map(|b| char::from(b).to_string()).collect();
        starts.extend(
            [
                " a", "  a", "\t a", " \n", "  \n", " /", " .", "  1", " \t", "é", "\u{3000}",
                "\u{a0}", "\u{85}", "\u{2028}", "\u{FFFD}", "中", "├", "\u{301}", "É",
            ]
            .map(String::from),
        );
        let after = [
            "", "a", "b c", "/", "\n", " ", "1", ".", "'s", "A", "x\n", " 's",
        ];
        let mut cuts = 0;
        for b in &before {
            for s in &starts {
                for a in after {
                    let text = format!("{b}\n{s}{a}");
                    cuts += accepted_cuts(&text).len();
                    assert_cuts_exact(&text);
                    let text = format!("{b}{s}{a}");
                    cuts += accepted_cuts(&text).len();
                    assert_cuts_exact(&text);
                }
            }
        }
        assert!(cuts > 10_000, "the rules accept few cuts: {cuts}");
    }

    #[test]
    fn cut_rules_reject_what_glues() {
        let line_cut = |text: &str| {
            let p = text.find('\n').unwrap() + 1;
            is_line_cut(text.as_bytes(), p)
        };
        // Each of these changes the count when cut after the first `\n` (o200k or cl100k).
        for glued in [
            "a\n\nb", "a\n\r\nb", "a\n \nb", "a\n\t\nb", "a.\n/b", "a)\n/b", "a\n",
        ] {
            assert!(!line_cut(glued), "{glued:?}");
        }
        for fine in [
            "a\nb",
            "a\n  b",
            "a\n\t}",
            "a\n/b",
            "1\n/b",
            "a.\n  /b",
            "a\n\x1b[0m",
        ] {
            assert!(line_cut(fine), "{fine:?}");
        }
    }

    #[test]
    fn vocabularies_are_the_reference_s_and_max_token_bytes_holds() {
        for encoding in Encoding::ALL {
            let tokens = Tokenizer::load(encoding).bpe.vocab().tokens();
            let reference = reference(encoding);
            for (rank, bytes) in tokens.iter().enumerate() {
                let theirs = reference.decode_bytes(&[rank as u32]).unwrap();
                assert_eq!(bytes, &theirs, "{encoding} rank {rank}");
            }
            let longest = tokens.iter().map(|t| t.len()).max();
            assert_eq!(longest, Some(MAX_TOKEN_BYTES), "{encoding}");
        }
    }

    #[test]
    fn encoding_names_round_trip() {
        for encoding in Encoding::ALL {
            assert_eq!(encoding.to_string().parse::<Encoding>(), Ok(encoding));
        }
        assert!("p50k_base".parse::<Encoding>().is_err());
    }

    const TINY: Limits = Limits {
        target: 40,
        max: 120,
    };

    /// Feeds `bytes` in pieces of the given sizes (cycled), then finishes.
    fn count_streaming(tokenizer: Tokenizer, bytes: &[u8], sizes: &[usize], limits: Limits) -> u64 {
        let mut counter = Counter::with_limits(tokenizer, limits);
        let mut rest = bytes;
        let mut committed = 0;
        for &size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, tail) = rest.split_at(size.clamp(1, rest.len()));
            counter.feed(piece);
            assert!(counter.committed() >= committed);
            committed = counter.committed();
            rest = tail;
        }
        let total = counter.finish();
        assert!(total >= committed);
        total
    }

    /// Whole-text count with `limits`, and whether a cut was forced.
    fn count_chunked(tokenizer: Tokenizer, text: &str, limits: Limits) -> (u64, bool) {
        let mut rest = text;
        let (mut total, mut forced) = (0, false);
        while !rest.is_empty() {
            let end = match next_cut(rest, true, 0, limits) {
                Cut::At(cut) => cut,
                Cut::Forced(cut) => {
                    forced = true;
                    cut
                }
                Cut::Wait { .. } => panic!("at the end nothing waits"),
            };
            total += tokenizer.bpe.count(&rest[..end]) as u64;
            rest = &rest[end..];
        }
        (total, forced)
    }

    fn decoded_streaming(bytes: &[u8], sizes: &[usize]) -> String {
        let tokenizer = Tokenizer::load(Encoding::Cl100kBase);
        let mut counter = Counter::with_limits(
            tokenizer,
            Limits {
                target: usize::MAX,
                max: usize::MAX,
            },
        );
        let mut rest = bytes;
        for &size in sizes.iter().cycle() {
            if rest.is_empty() {
                break;
            }
            let (piece, tail) = rest.split_at(size.clamp(1, rest.len()));
            counter.feed(piece);
            rest = tail;
        }
        if counter.partial_len > 0 {
            counter.pending.push(char::REPLACEMENT_CHARACTER);
        }
        counter.pending
    }

    /// Bytes rich in what matters to cuts and decoding: newlines, `/`, spaces, digits,
    /// punctuation, non-ASCII, invalid and split UTF-8.
    fn tricky_bytes() -> impl Strategy<Value = Vec<u8>> {
        let fragment = prop_oneof![
            Just(b"\n".to_vec()),
            Just(b"\n\n".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"/".to_vec()),
            Just(b" ".to_vec()),
            Just(b"   ".to_vec()),
            Just(b"\t".to_vec()),
            Just(b".".to_vec()),
            Just(b"'s".to_vec()),
            Just(b"{\"k\":".to_vec()),
            Just("é".as_bytes().to_vec()),
            Just("中文".as_bytes().to_vec()),
            Just("\u{3000}".as_bytes().to_vec()),
            Just("\u{a0}".as_bytes().to_vec()),
            Just(vec![0xff]),
            Just(vec![0xe2, 0x80]),
            Just(vec![0xf0, 0x9f, 0x98]),
            Just(vec![0xed, 0xa0, 0x80]),
            "[a-zA-Z]{1,12}".prop_map(String::into_bytes),
            "[0-9]{1,7}".prop_map(String::into_bytes),
            "[!-/:-@\\[-`{-~]{1,4}".prop_map(String::into_bytes),
            "[ -~]{1,20}".prop_map(String::into_bytes),
        ];
        prop::collection::vec(fragment, 0..120).prop_map(|fs: Vec<Vec<u8>>| fs.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]

        #[test]
        fn decoding_matches_from_utf8_lossy(
            bytes in prop::collection::vec(prop_oneof![any::<u8>(), 0x80u8..0xc0, Just(b'a')], 0..200),
            sizes in prop::collection::vec(1usize..6, 1..8),
        ) {
            prop_assert_eq!(decoded_streaming(&bytes, &sizes), String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn accepted_cuts_are_exact(bytes in tricky_bytes()) {
            assert_cuts_exact(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn streaming_split_and_whole_agree(
            bytes in tricky_bytes(),
            sizes in prop::collection::vec(1usize..90, 1..8),
            parts in 2usize..5,
        ) {
            let text = String::from_utf8_lossy(&bytes);
            for encoding in Encoding::ALL {
                let tokenizer = Tokenizer::load(encoding);
                let (whole, forced) = count_chunked(tokenizer, &text, TINY);
                if !forced {
                    prop_assert_eq!(whole, ref_count(encoding, &text));
                }
                prop_assert_eq!(count_streaming(tokenizer, &bytes, &sizes, TINY), whole);
                let split: u64 = split_at_exact_cuts(&bytes, parts, TINY.max)
                    .into_iter()
                    .map(|part| count_streaming(tokenizer, part, &[usize::MAX], TINY))
                    .sum();
                prop_assert_eq!(split, whole);
                // With the real limits nothing here is long enough to force a cut.
                prop_assert_eq!(tokenizer.count_bytes(&bytes), ref_count(encoding, &text));
            }
        }

        #[test]
        fn prefix_and_suffix_hold_their_budget(bytes in tricky_bytes(), max in 0u64..40) {
            let text = String::from_utf8_lossy(&bytes);
            for encoding in Encoding::ALL {
                let tokenizer = Tokenizer::load(encoding);
                let head = tokenizer.prefix(&text, max);
                let tail = tokenizer.suffix(&text, max);
                prop_assert!(text.starts_with(head) && text.ends_with(tail));
                prop_assert!(tokenizer.count(head) <= max);
                prop_assert!(tokenizer.count(tail) <= max);
                if tokenizer.count(&text) <= max {
                    prop_assert_eq!(head, &*text);
                    prop_assert_eq!(tail, &*text);
                }
            }
        }
    }

    #[test]
    fn prefix_and_suffix_are_the_first_and_last_tokens() {
        let text = "error[E0308]: mismatched types\n  --> src/lib.rs:10:5\n   |\n10 |     let x: u32 = \"héllo wörld\";\n".repeat(200);
        for encoding in Encoding::ALL {
            let tokenizer = Tokenizer::load(encoding);
            let reference = reference(encoding);
            let tokens = reference.encode_ordinary(&text);
            for max in [1, 7, 100, 400] {
                let head = reference.decode_bytes(&tokens[..max]).unwrap().len();
                assert_eq!(
                    tokenizer.prefix(&text, max as u64),
                    &text[..text.floor_char_boundary(head)]
                );
                let skip = reference
                    .decode_bytes(&tokens[..tokens.len() - max])
                    .unwrap()
                    .len();
                assert_eq!(
                    tokenizer.suffix(&text, max as u64),
                    &text[text.ceil_char_boundary(skip)..]
                );
            }
        }
    }

    #[test]
    fn parallel_counter_equals_the_sequential_count() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corpus");
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        names.sort();
        for encoding in Encoding::ALL {
            let tokenizer = Tokenizer::load(encoding);
            for path in &names {
                let bytes = std::fs::read(path).unwrap();
                let expected = tokenizer.count_bytes(&bytes);
                for (block, piece) in [(4096, 1000), (65_536, 7), (1 << 20, 65_536)] {
                    let mut counter = ParallelCounter::with_block(tokenizer, block);
                    for chunk in bytes.chunks(piece) {
                        counter.feed(chunk);
                    }
                    assert_eq!(
                        counter.finish(),
                        expected,
                        "{} {encoding} {block}",
                        path.display()
                    );
                }
            }
            // No cut anywhere: the sequential fallback.
            let letters = vec![b'a'; 300_000];
            let mut counter = ParallelCounter::with_block(tokenizer, 4096);
            counter.feed(&letters);
            assert_eq!(counter.finish(), tokenizer.count_bytes(&letters));
        }
    }

    #[test]
    fn parallel_counter_continues_a_sequential_one_exactly() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corpus");
        let names = [
            "cargo-build-errors-ansi.txt",
            "git-diff-tokio.txt",
            "invalid-utf8-synthetic.txt",
            "nul-bytes-synthetic.txt",
            "npm-ls-all.json",
        ];
        let mut inputs: Vec<Vec<u8>> = names
            .iter()
            .map(|n| std::fs::read(format!("{dir}/{n}")).unwrap())
            .collect();
        // Multi-byte characters everywhere, so splits fall inside them; and no cut at all.
        inputs.push("héllo wörld — ünïcödé\n".repeat(3000).into_bytes());
        inputs.push(vec![b'a'; 50_000]);
        // A stretch with no cut in the middle: counted sequentially, then parallel again.
        let mut stretch = inputs[0].clone();
        stretch.extend(std::iter::repeat_n(b'a', 20_000));
        stretch.extend_from_slice(&inputs[0]);
        inputs.push(stretch);
        for encoding in Encoding::ALL {
            let tokenizer = Tokenizer::load(encoding);
            for bytes in &inputs {
                let expected = tokenizer.count_bytes(bytes);
                for split in [0, 1, 4095, 4097, bytes.len() / 3 + 1, bytes.len()] {
                    let split = split.min(bytes.len());
                    let mut sequential = Counter::new(tokenizer);
                    for piece in bytes[..split].chunks(777) {
                        sequential.feed(piece);
                    }
                    let mut counter = ParallelCounter::continuing_with_block(sequential, 4096);
                    for piece in bytes[split..].chunks(1000) {
                        counter.feed(piece);
                    }
                    assert_eq!(counter.finish(), expected, "{encoding} split at {split}");
                }
            }
        }
    }

    #[test]
    fn pathological_inputs_are_counted_linearly_and_consistently() {
        let random: Vec<u8> = (0u32..1 << 18)
            .scan(0x2545_f491_u32, |s, _| {
                *s ^= *s << 13;
                *s ^= *s >> 17;
                *s ^= *s << 5;
                Some((*s >> 24) as u8)
            })
            .collect();
        let inputs: [(&str, Vec<u8>); 5] = [
            ("spaces", vec![b' '; 3 << 19]),
            ("letters", vec![b'a'; 3 << 19]),
            ("3-byte chars", "€".repeat(1 << 19).into_bytes()),
            ("random bytes", random),
            ("newlines", b"\n \n\t\r\n".repeat(1 << 18)),
        ];
        for (name, bytes) in &inputs {
            for encoding in Encoding::ALL {
                let tokenizer = Tokenizer::load(encoding);
                let whole = tokenizer.count_bytes(bytes);
                let streamed = count_streaming(tokenizer, bytes, &[65536, 1, 7, 300_000], LIMITS);
                assert_eq!(streamed, whole, "{name} {encoding}");
                let chars = String::from_utf8_lossy(bytes).chars().count() as u64;
                assert!(whole <= chars && whole * MAX_TOKEN_BYTES as u64 >= bytes.len() as u64);
                let text = String::from_utf8_lossy(bytes);
                assert!(
                    tokenizer.count(tokenizer.prefix(&text, 300)) <= 300,
                    "{name}"
                );
                assert!(
                    tokenizer.count(tokenizer.suffix(&text, 300)) <= 300,
                    "{name}"
                );
            }
        }
    }
}
