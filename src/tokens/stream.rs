//! Counting a byte stream fed in pieces: decoded lossily as it comes, counted a chunk at a
//! time in bounded memory, on one thread ([`Counter`]) or on all cores ([`ParallelCounter`]).

use std::sync::{Arc, Mutex, mpsc};
use std::thread;

use super::cut::{Cut, LIMITS, Limits, exact_cut_in, next_cut};
use super::{MAX_CHUNK, Tokenizer};

/// Raw input is decoded this much at a time, so the pending text stays near [`MAX_CHUNK`].
const DECODE_BLOCK: usize = 64 << 10;

/// Counts the tokens of a byte stream fed in arbitrary pieces, in bounded memory (about
/// [`MAX_CHUNK`] plus a little). Bytes are decoded as `String::from_utf8_lossy` would decode
/// the whole stream, even when a character is split between two `feed` calls.
///
/// `committed()` is a running lower bound of the final count (what has been counted so far);
/// `finish()` gives the total.
pub struct Counter {
    pub(super) tokenizer: Tokenizer,
    limits: Limits,
    /// Decoded text not yet counted; it starts at a cut.
    pub(super) pending: String,
    /// An incomplete UTF-8 sequence at the end of the input so far.
    partial: [u8; 4],
    pub(super) partial_len: usize,
    /// Line-cut candidates in `pending` up to here are known not to be exact.
    searched: usize,
    committed: u64,
}

impl Counter {
    pub fn new(tokenizer: Tokenizer) -> Counter {
        Counter::with_limits(tokenizer, LIMITS)
    }

    pub(super) fn with_limits(tokenizer: Tokenizer, limits: Limits) -> Counter {
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

/// Most counting threads: each holds a segment and a piece cache (about 1.1 MB together), so
/// memory stays bounded on machines with many cores.
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

    pub(super) fn continuing_with_block(counter: Counter, block_size: usize) -> ParallelCounter {
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
