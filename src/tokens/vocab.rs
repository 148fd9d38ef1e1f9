//! A vocabulary as BPE uses it: the rank (the token's id, also its merge priority) of each
//! byte, and which token, if any, two adjacent tokens merge into. The merge table is generated
//! by the build script (`build.rs`, layout in `table.rs`) and read in place from the binary;
//! only the ranks of the 65,536 byte pairs are laid out at load, in a quarter of a megabyte.

use super::Encoding;
use super::table;

mod generated {
    /// Aligns the merge table to cache lines, so each group of slots is read from one.
    #[repr(align(64))]
    pub struct Aligned<T>(pub T);

    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}
pub(super) use generated::unicode;

/// No token: what two tokens that do not merge merge into.
pub(super) const NONE: u32 = u32::MAX;

pub(super) struct Vocab {
    bytes: [u32; 256],
    /// The rank of each 2-byte token, at `first << 8 | second`, else [`NONE`].
    pairs: Box<[u32]>,
    /// Little-endian `u64` slots, in groups (see `table.rs`).
    merges: &'static [u8],
    group_bits: u32,
}

impl Vocab {
    pub(super) fn new(encoding: Encoding) -> Vocab {
        let (bytes, pairs, merges, group_bits): (_, _, &[u8], _) = match encoding {
            Encoding::O200kBase => {
                use generated::o200k_base as t;
                (t::BYTES, t::PAIRS, &t::MERGES.0, t::GROUP_BITS)
            }
            Encoding::Cl100kBase => {
                use generated::cl100k_base as t;
                (t::BYTES, t::PAIRS, &t::MERGES.0, t::GROUP_BITS)
            }
        };
        let mut vocab = Vocab {
            bytes: [NONE; 256],
            pairs: vec![NONE; 1 << 16].into_boxed_slice(),
            merges,
            group_bits,
        };
        for (rank, word) in vocab.bytes.iter_mut().zip(bytes.chunks_exact(4)) {
            *rank = read_u32(word);
        }
        for entry in pairs.chunks_exact(8) {
            let (pair, rank) = (read_u32(&entry[..4]), read_u32(&entry[4..]));
            if let Some(slot) = vocab.pairs.get_mut(pair as usize) {
                *slot = rank;
            }
        }
        vocab
    }

    /// The rank of the token that is byte `b` (every byte is one).
    #[inline]
    pub(super) fn byte(&self, b: u8) -> u32 {
        self.bytes[usize::from(b)]
    }

    /// The rank of the token made of bytes `a` and `b`, or [`NONE`].
    #[inline]
    pub(super) fn pair(&self, a: u8, b: u8) -> u32 {
        self.pairs[usize::from(a) << 8 | usize::from(b)]
    }

    /// The rank of the token BPE makes of the tokens `left` and `right` side by side, or
    /// [`NONE`].
    #[inline]
    pub(super) fn merge(&self, left: u32, right: u32) -> u32 {
        let key = table::key(left, right);
        let mask = (1 << self.group_bits) - 1;
        let mut at = table::home(key, self.group_bits);
        loop {
            const BYTES: usize = 8 * table::GROUP;
            let Some(group) = self.merges.get(at * BYTES..(at + 1) * BYTES) else {
                return NONE; // unreachable: `at` is a group of the table
            };
            let mut slots = [0; table::GROUP];
            let mut ends = 0u32;
            for (k, slot) in slots.iter_mut().enumerate() {
                *slot = table::read8(group, 8 * k);
                ends |= u32::from(table::ends_search(*slot, key)) << k;
            }
            if let Some(&slot) = slots.get(ends.trailing_zeros() as usize) {
                return table::found(slot, NONE);
            }
            at = (at + 1) & mask;
        }
    }

    /// Every token's bytes, in rank order, rebuilt from the tables.
    #[cfg(test)]
    pub(super) fn tokens(&self) -> Vec<Vec<u8>> {
        let mut made = Vec::new();
        for at in 0..self.merges.len() / 8 {
            let slot = table::read8(self.merges, at * 8);
            if slot != 0 {
                let key = slot & ((1 << (2 * table::RANK_BITS)) - 1);
                let (left, right) = ((key >> table::RANK_BITS) as u32, key as u32 & 0x3ffff);
                let rank = table::found(slot, NONE);
                made.push((rank, left, right));
            }
        }
        made.sort_unstable();
        let mut tokens = vec![Vec::new(); made.len() + 256];
        for (b, &rank) in self.bytes.iter().enumerate() {
            tokens[rank as usize] = vec![b as u8];
        }
        for (rank, left, right) in made {
            let bytes = [&tokens[left as usize][..], &tokens[right as usize][..]].concat();
            tokens[rank as usize] = bytes;
        }
        tokens
    }
}

#[inline]
fn read_u32(bytes: &[u8]) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(bytes);
    u32::from_le_bytes(word)
}
