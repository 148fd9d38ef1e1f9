//! The layout of the merge table, which the build script writes and the tokenizer reads in place,
//! so both include this one file.
//!
//! BPE joins two adjacent parts, each a token, into the token their bytes make, and every token
//! is only ever made from one pair: the last join when BPE merges the token's own bytes (its
//! *canonical split*; a token made in a longer text is made the way it is made on its own, since
//! nothing outside it takes part). The build checks that every token merges back to itself. So
//! the merges can be looked up by the ranks of the two parts instead of by their bytes.
//!
//! The table is a perfect hash (hash and displace, as PTHash): a pair's hash picks a bucket of
//! about [`BUCKET_KEYS`] pairs, and the bucket's *pilot*, chosen by the build so that no two
//! pairs share a slot, picks the pair's slot. A lookup reads one pilot (the pilots are small
//! and stay in the processor's cache) and one slot, and compares once: no probing, no branch.
//! A slot is a `u64`: `left << 18 | right` in the low 36 bits, the token's rank above.

pub(crate) const RANK_BITS: u32 = 18;
const KEY_BITS: u32 = 2 * RANK_BITS;
/// Pairs per bucket, on average.
#[allow(dead_code)] // the build script's choice; the tokenizer counts the pilots
pub(crate) const BUCKET_KEYS: usize = 4;
/// What an unused slot holds: the key of no pair (its left rank is above every vocabulary's).
pub(crate) const UNUSED: u64 = (1 << KEY_BITS) - 1;

/// The key of the pair of tokens `left`, `right`.
#[inline]
pub(crate) fn key(left: u32, right: u32) -> u64 {
    u64::from(left) << RANK_BITS | u64::from(right)
}

/// The slot of the merge of `key` into `rank`.
#[allow(dead_code)] // the build script packs; the tokenizer unpacks
pub(crate) fn slot(key: u64, rank: u32) -> u64 {
    debug_assert!(key < UNUSED && rank < 1 << RANK_BITS);
    u64::from(rank) << KEY_BITS | key
}

/// The rank in `slot` if it holds `key`, else `u32::MAX` (without a branch: whether a pair
/// merges is as good as random while merging).
#[inline]
pub(crate) fn rank(slot: u64, key: u64) -> u32 {
    std::hint::select_unpredictable(slot & UNUSED == key, (slot >> KEY_BITS) as u32, u32::MAX)
}

/// The key a slot holds.
#[allow(dead_code)]
pub(crate) fn slot_key(slot: u64) -> u64 {
    slot & UNUSED
}

#[inline]
pub(crate) fn hash_key(key: u64) -> u64 {
    fold(key ^ K1, K2)
}

/// The bucket of a key with this hash, of `buckets`.
#[inline]
pub(crate) fn bucket(hash: u64, buckets: usize) -> usize {
    reduce(hash, buckets)
}

/// The slot of a key with this hash whose bucket has this pilot, of `slots`.
#[inline]
pub(crate) fn position(hash: u64, pilot: u16, slots: usize) -> usize {
    reduce(fold(hash ^ K0, K1 ^ u64::from(pilot)), slots)
}

/// `hash` mapped onto `0..n`, by its high bits.
#[inline]
fn reduce(hash: u64, n: usize) -> usize {
    ((u128::from(hash) * n as u128) >> 64) as usize
}

const K0: u64 = 0x9E37_79B9_7F4A_7C15;
const K1: u64 = 0xA076_1D64_78BD_642F;
const K2: u64 = 0xE703_7ED1_A0B4_28DB;

/// 64 well-mixed bits of `bytes` (1 to 16 bytes mix in one step, longer ones 16 at a time).
#[inline]
pub(crate) fn hash(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    let seed = K0 ^ (n as u64).wrapping_mul(K1);
    let (a, b) = match n {
        0 => (0, 0),
        1..=3 => (
            u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16,
            0,
        ),
        4..=7 => (read4(bytes, 0), read4(bytes, n - 4)),
        8..=16 => (read8(bytes, 0), read8(bytes, n - 8)),
        _ => {
            let mut h = seed;
            let mut i = 0;
            while i + 16 < n {
                h = fold(read8(bytes, i) ^ K1, read8(bytes, i + 8) ^ h);
                i += 16;
            }
            return fold(fold(read8(bytes, n - 16) ^ K1, read8(bytes, n - 8) ^ h), K2);
        }
    };
    fold(fold(a ^ K1, b ^ seed), K2)
}

/// The 128-bit product of `a` and `b` folded to 64 bits: every input bit reaches most output bits.
#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

#[inline]
pub(crate) fn read8(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

#[inline]
pub(crate) fn read4(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u64::from(u32::from_le_bytes(word))
}
