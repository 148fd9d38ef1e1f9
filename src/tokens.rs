//! Token counting behind one small interface (SPEC §6): exact counts for `o200k_base` and
//! `cl100k_base`, streaming in bounded memory. The backend is the `tiktoken` crate; nothing
//! outside this file names it.

use std::fmt;
use std::str::FromStr;

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

/// A loaded tokenizer. Loading costs tens of milliseconds: do it only when output is larger
/// than the threshold in bytes (tokens never exceed bytes).
#[derive(Clone, Copy)]
pub struct Tokenizer {
    bpe: &'static tiktoken::CoreBpe,
    encoding: Encoding,
}

impl Tokenizer {
    pub fn load(encoding: Encoding) -> Tokenizer {
        let bpe = tiktoken::get_encoding(encoding.name()).expect("encoding compiled in");
        Tokenizer { bpe, encoding }
    }

    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// Exact token count of `text` (as `encode_ordinary`: special tokens are plain text).
    pub fn count(&self, text: &str) -> u64 {
        self.bpe.count(text) as u64
    }

    /// Token count of raw bytes, decoded lossily (each invalid sequence is one U+FFFD).
    pub fn count_bytes(&self, bytes: &[u8]) -> u64 {
        let mut counter = Counter::new(*self);
        counter.feed(bytes);
        counter.finish()
    }

    /// The longest prefix of `text` that holds at most `max` tokens, cut at a token boundary.
    pub fn prefix<'a>(&self, text: &'a str, max: u64) -> &'a str {
        let tokens = self.bpe.encode(text);
        if tokens.len() as u64 <= max {
            return text;
        }
        let bytes = self.bpe.decode(&tokens[..max as usize]);
        let mut end = bytes.len().min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    }

    /// The longest suffix of `text` that holds at most `max` tokens, cut at a token boundary.
    pub fn suffix<'a>(&self, text: &'a str, max: u64) -> &'a str {
        let tokens = self.bpe.encode(text);
        if tokens.len() as u64 <= max {
            return text;
        }
        let skip = tokens.len() - max as usize;
        let bytes = self.bpe.decode(&tokens[..skip]);
        let mut start = bytes.len().min(text.len());
        while !text.is_char_boundary(start) {
            start += 1;
        }
        &text[start..]
    }
}

/// Counts the tokens of a byte stream fed in arbitrary pieces, in bounded memory.
///
/// `committed()` is a running lower bound of the final count (what has been counted so far);
/// `finish()` gives the total.
pub struct Counter {
    tokenizer: Tokenizer,
    pending: Vec<u8>,
    committed: u64,
}

impl Counter {
    pub fn new(tokenizer: Tokenizer) -> Counter {
        Counter {
            tokenizer,
            pending: Vec::new(),
            committed: 0,
        }
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
    }

    pub fn committed(&self) -> u64 {
        self.committed
    }

    pub fn finish(self) -> u64 {
        self.committed
            + self
                .tokenizer
                .count(&String::from_utf8_lossy(&self.pending))
    }
}
