//! A vocabulary as BPE uses it: the rank (the token's id, also its merge priority) of each
//! byte, and which token, if any, two adjacent tokens merge into. The merge table is generated
//! by the build script (`build.rs`, layout in `table.rs`) and read in place from the binary;
//! only the ranks of the 65,536 byte pairs are laid out at load, in a quarter of a megabyte.

use super::Encoding;
use super::table;

mod generated {
    /// Aligns the merge table to its slots.
    #[repr(align(8))]
    pub(crate) struct Aligned<T>(pub(crate) T);

    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}
pub(super) use generated::unicode;

/// No token: what two tokens that do not merge merge into.
pub(super) const NONE: u32 = u32::MAX;

pub(super) struct Vocab {
    bytes: [u32; 256],
    /// The rank of each 2-byte token, at `first << 8 | second`, else [`NONE`].
    pairs: Box<[u32]>,
    /// The merge table's little-endian `u16` pilots and `u64` slots (see `table.rs`).
    pilots: &'static [u8],
    merges: &'static [u8],
}

impl Vocab {
    pub(super) fn new(encoding: Encoding) -> Vocab {
        let (bytes, pairs, pilots, merges): (_, _, _, &[u8]) = match encoding {
            Encoding::O200kBase => {
                use generated::o200k_base as t;
                (t::BYTES, t::PAIRS, t::PILOTS, &t::MERGES.0)
            }
            Encoding::Cl100kBase => {
                use generated::cl100k_base as t;
                (t::BYTES, t::PAIRS, t::PILOTS, &t::MERGES.0)
            }
        };
        let mut vocab = Vocab {
            bytes: [NONE; 256],
            pairs: vec![NONE; 1 << 16].into_boxed_slice(),
            pilots,
            merges,
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
        let hash = table::hash_key(key);
        let bucket = table::bucket(hash, self.pilots.len() / 2);
        let pilot = match self.pilots.get(2 * bucket..2 * bucket + 2) {
            Some(&[a, b]) => u16::from_le_bytes([a, b]),
            _ => 0, // unreachable: `bucket` is one of the pilots'
        };
        let at = table::position(hash, pilot, self.merges.len() / 8);
        match self.merges.get(8 * at..8 * at + 8) {
            Some(slot) => table::rank(table::read8(slot, 0), key),
            None => NONE, // unreachable: `at` is one of the slots
        }
    }

    /// Every token's bytes, in rank order, rebuilt from the tables.
    #[cfg(test)]
    pub(super) fn tokens(&self) -> Vec<Vec<u8>> {
        let mut made = Vec::new();
        for at in 0..self.merges.len() / 8 {
            let slot = table::read8(self.merges, at * 8);
            let key = table::slot_key(slot);
            if key != table::UNUSED {
                let (left, right) = ((key >> table::RANK_BITS) as u32, key as u32 & 0x3ffff);
                made.push((table::rank(slot, key), left, right));
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
