//! Splitting text into pieces before BPE, as the encodings' regular expressions do (tiktoken's
//! `pat_str`, the reference's fancy-regex semantics: leftmost-first alternation, greedy
//! quantifiers that backtrack), written out by hand: no regex to compile at start-up, and linear
//! time on any input. Every position starts a match of some alternative, so the pieces tile
//! the text; [`Pattern::piece_end`] gives where the piece starting at a position ends.
//!
//! o200k_base:
//! ```text
//! [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//! |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//! |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//! ```
//! cl100k_base:
//! ```text
//! '(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+
//! |\s++$|\s*[\r\n]|\s+(?!\S)|\s
//! ```
//! The character classes come from the tables `build.rs` generates from `regex-syntax`.

use super::vocab::unicode;

/// What the patterns tell apart about a character (the values `build.rs` writes).
type Class = u8;
const OTHER: Class = 0;
/// `Lu` or `Lt`.
const UPPER: Class = 1;
/// `Ll`.
const LOWER: Class = 2;
/// `Lm` or `Lo`: both "upper" and "lower" to o200k.
const LETTER: Class = 3;
/// `M`: not a letter, but o200k's letter classes include it.
const MARK: Class = 4;
const NUMBER: Class = 5;
/// White space other than `\r` and `\n`.
const SPACE: Class = 6;
const NEWLINE: Class = 7;

/// `\p{L}`
fn is_letter(c: Class) -> bool {
    matches!(c, UPPER | LOWER | LETTER)
}
/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]`
fn is_upperish(c: Class) -> bool {
    matches!(c, UPPER | LETTER | MARK)
}
/// `[\p{Ll}\p{Lm}\p{Lo}\p{M}]`
fn is_lowerish(c: Class) -> bool {
    matches!(c, LOWER | LETTER | MARK)
}
/// `[^\r\n\p{L}\p{N}]`
fn is_prefix(c: Class) -> bool {
    matches!(c, OTHER | MARK | SPACE)
}
/// `[^\s\p{L}\p{N}]`
fn is_symbol(c: Class) -> bool {
    matches!(c, OTHER | MARK)
}
/// `\s`
fn is_space(c: Class) -> bool {
    matches!(c, SPACE | NEWLINE)
}

/// The classes of the ASCII characters.
const ASCII: [Class; 128] = {
    let mut table = [OTHER; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = match c {
            b'\r' | b'\n' => NEWLINE,
            b'\t' | 0x0b | 0x0c | b' ' => SPACE,
            b'A'..=b'Z' => UPPER,
            b'a'..=b'z' => LOWER,
            b'0'..=b'9' => NUMBER,
            _ => OTHER,
        };
        b += 1;
    }
    table
};

/// The class and length of the character at `at` (a character boundary before the end).
#[inline(always)]
fn class_at(text: &[u8], at: usize) -> (Class, usize) {
    let b = text[at];
    if b < 0x80 {
        return (ASCII[usize::from(b)], 1);
    }
    let (c, len) = decode(text, at);
    (class_of(c), len)
}

/// The code point at `at` and its length. `text` is valid UTF-8 (it comes from a `&str`), so
/// the missing-byte fallbacks below never change a result; they only keep this panic-free.
fn decode(text: &[u8], at: usize) -> (u32, usize) {
    let b = text[at];
    let len = match b {
        0xf0.. => 4,
        0xe0.. => 3,
        _ => 2,
    };
    let mut c = u32::from(b) & (0x7f >> len);
    for k in 1..len {
        c = c << 6 | u32::from(text.get(at + k).copied().unwrap_or(0x80) & 0x3f);
    }
    (c, len)
}

fn class_of(c: u32) -> Class {
    let block = c as usize / unicode::BLOCK;
    let Some(index) = unicode::INDEX.get(2 * block..2 * block + 2) else {
        return OTHER;
    };
    let number = usize::from(u16::from_le_bytes([index[0], index[1]]));
    let at = number * unicode::BLOCK + c as usize % unicode::BLOCK;
    let packed = unicode::BLOCKS.get(at / 2).copied().unwrap_or(0);
    if at.is_multiple_of(2) {
        packed & 0xf
    } else {
        packed >> 4
    }
}

/// An encoding's split pattern.
#[derive(Clone, Copy, Debug)]
pub(super) enum Pattern {
    O200k,
    Cl100k,
}

impl Pattern {
    /// The end of the piece that starts at `at`, a character boundary before the end of `text`.
    #[inline]
    pub(super) fn piece_end(self, text: &str, at: usize) -> usize {
        let text = text.as_bytes();
        match self {
            Pattern::O200k => o200k(text, at),
            Pattern::Cl100k => cl100k(text, at),
        }
    }
}

fn o200k(text: &[u8], at: usize) -> usize {
    let (class, len) = class_at(text, at);
    match class {
        UPPER | LOWER | LETTER => {
            if let Some(end) = words(text, at) {
                return end;
            }
        }
        MARK => {
            // A mark is both a possible prefix and a letter-ish character: the alternatives
            // in their order, prefix taken first.
            let attempts = [
                upper_then_lower(text, at + len),
                upper_then_lower(text, at),
                upper_run(text, at + len),
                upper_run(text, at),
            ];
            if let Some(end) = attempts.into_iter().flatten().next() {
                return end;
            }
        }
        // The prefix is taken; without it nothing letter-like starts here.
        OTHER | SPACE => {
            if let Some(end) = words(text, at + len) {
                return end;
            }
        }
        NUMBER => return numbers(text, at),
        _ => {}
    }
    if let Some(end) = symbols(text, at, class, b"\r\n/") {
        return end;
    }
    let run = spaces(text, at);
    if let Some(end) = run.after_newline {
        return end; // \s*[\r\n]+
    }
    if run.end == text.len() {
        return run.end; // \s+(?!\S) at the end of the text
    }
    if run.last > at {
        return run.last; // \s+(?!\S): all but the last, which may start the next piece
    }
    run.end // \s+
}

/// o200k's two letter alternatives from `at` when the character before is not a mark (so
/// trying the second alternative before the first without that prefix changes nothing):
/// `[upper]*[lower]+` with the first run giving back characters until the second can start,
/// else `[upper]+[lower]*`, either with a contraction.
#[inline]
fn words(text: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    let mut last_lowerish = None;
    while end < text.len() {
        let (class, len) = class_at(text, end);
        if !is_upperish(class) {
            if is_lowerish(class) {
                return Some(contraction(text, lowerish_run(text, end + len)));
            }
            break;
        }
        if is_lowerish(class) {
            last_lowerish = Some(end + len);
        }
        end += len;
    }
    match last_lowerish {
        Some(lower_end) => Some(contraction(text, lower_end)),
        None => (end > at).then(|| contraction(text, end)),
    }
}

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+` and a contraction, from `at`.
/// The greedy first run gives back characters until the second run can start: it starts at
/// the first character after the run if that is lower-ish, else at the last lower-ish
/// character inside the run (and then ends right after it).
fn upper_then_lower(text: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    let mut last_lowerish = None;
    while end < text.len() {
        let (class, len) = class_at(text, end);
        if !is_upperish(class) {
            break;
        }
        if is_lowerish(class) {
            last_lowerish = Some(end + len);
        }
        end += len;
    }
    let lower_end = if end < text.len() && is_lowerish(class_at(text, end).0) {
        lowerish_run(text, end)
    } else {
        last_lowerish?
    };
    Some(contraction(text, lower_end))
}

/// `[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*` and a contraction, from `at`.
fn upper_run(text: &[u8], at: usize) -> Option<usize> {
    let mut end = at;
    while end < text.len() {
        let (class, len) = class_at(text, end);
        if !is_upperish(class) {
            break;
        }
        end += len;
    }
    (end > at).then(|| contraction(text, lowerish_run(text, end)))
}

#[inline]
fn lowerish_run(text: &[u8], end: usize) -> usize {
    run(text, end, is_lowerish)
}

/// The end of the run of characters from `end` whose class `accepts`.
#[inline(always)]
fn run(text: &[u8], mut end: usize, accepts: fn(Class) -> bool) -> usize {
    while let Some(&b) = text.get(end) {
        let (class, len) = match b {
            0..0x80 => (ASCII[usize::from(b)], 1),
            _ => {
                let (c, len) = decode(text, end);
                (class_of(c), len)
            }
        };
        if !accepts(class) {
            break;
        }
        end += len;
    }
    end
}

/// `at` plus the length of a contraction starting there, `(?i:'s|'t|'re|'ve|'m|'ll|'d)`.
#[inline]
fn contraction(text: &[u8], at: usize) -> usize {
    if text.get(at) != Some(&b'\'') {
        return at;
    }
    let Some((first, len)) = folded(text, at + 1) else {
        return at;
    };
    let next = at + 1 + len;
    match first {
        b's' | b't' | b'm' | b'd' => next,
        b'r' | b'v' | b'l' => {
            let want = if first == b'l' { b'l' } else { b'e' };
            match folded(text, next) {
                Some((second, len)) if second == want => next + len,
                _ => at,
            }
        }
        _ => at,
    }
}

/// The character at `at` as a lower-case ASCII letter when a case-insensitive match of that
/// letter accepts it (`ſ` is an `s`), and its length.
fn folded(text: &[u8], at: usize) -> Option<(u8, usize)> {
    let &b = text.get(at)?;
    if b < 0x80 {
        return b
            .is_ascii_alphabetic()
            .then_some((b.to_ascii_lowercase(), 1));
    }
    let (c, len) = decode(text, at);
    unicode::CONTRACTION_FOLDS
        .iter()
        .find(|&&(folded, _)| folded as u32 == c)
        .map(|&(_, letter)| (letter, len))
}

/// `\p{N}{1,3}` from `at`, which holds a number.
fn numbers(text: &[u8], at: usize) -> usize {
    let mut end = at;
    for _ in 0..3 {
        if end == text.len() {
            break;
        }
        let (class, len) = class_at(text, end);
        if class != NUMBER {
            break;
        }
        end += len;
    }
    end
}

/// ` ?[^\s\p{L}\p{N}]+[TAIL]*` from `at`, whose character has class `class`.
fn symbols(text: &[u8], at: usize, class: Class, tail: &[u8]) -> Option<usize> {
    let start = if text[at] == b' ' && at + 1 < text.len() && is_symbol(class_at(text, at + 1).0) {
        at + 1
    } else if is_symbol(class) {
        at
    } else {
        return None;
    };
    let mut end = run(text, start, is_symbol);
    while end < text.len() && tail.contains(&text[end]) {
        end += 1;
    }
    Some(end)
}

/// A run of white space.
struct Spaces {
    end: usize,
    /// The start of its last character.
    last: usize,
    /// Just after its last `\r` or `\n`, if any.
    after_newline: Option<usize>,
}

fn spaces(text: &[u8], at: usize) -> Spaces {
    let mut run = Spaces {
        end: at,
        last: at,
        after_newline: None,
    };
    while run.end < text.len() {
        let (class, len) = class_at(text, run.end);
        if !is_space(class) {
            break;
        }
        run.last = run.end;
        run.end += len;
        if class == NEWLINE {
            run.after_newline = Some(run.end);
        }
    }
    run
}

fn cl100k(text: &[u8], at: usize) -> usize {
    let (class, len) = class_at(text, at);
    if text[at] == b'\'' {
        let end = contraction(text, at);
        // cl100k's contractions are `'` and `[sdmt]|ll|ve|re`, the same set as o200k's.
        if end > at {
            return end;
        }
    }
    if is_letter(class) {
        return letters(text, at);
    }
    if is_prefix(class) && at + len < text.len() && is_letter(class_at(text, at + len).0) {
        return letters(text, at + len);
    }
    if class == NUMBER {
        return numbers(text, at);
    }
    if let Some(end) = symbols(text, at, class, b"\r\n") {
        return end;
    }
    let run = spaces(text, at);
    if run.end == text.len() {
        return run.end; // \s++$
    }
    if let Some(end) = run.after_newline {
        return end; // \s*[\r\n]
    }
    if run.last > at {
        return run.last; // \s+(?!\S)
    }
    run.end // \s
}

fn letters(text: &[u8], end: usize) -> usize {
    run(text, end, is_letter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The reference's split patterns (tiktoken-rs's, run by fancy-regex as it runs them).
    fn reference(pattern: Pattern) -> &'static fancy_regex::Regex {
        use std::sync::OnceLock;
        static O200K: OnceLock<fancy_regex::Regex> = OnceLock::new();
        static CL100K: OnceLock<fancy_regex::Regex> = OnceLock::new();
        match pattern {
            Pattern::O200k => O200K
                .get_or_init(|| fancy_regex::Regex::new(tiktoken_rs::O200K_BASE_PAT_STR).unwrap()),
            Pattern::Cl100k => CL100K.get_or_init(|| {
                fancy_regex::Regex::new(concat!(
                    r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+",
                    r"| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s",
                ))
                .unwrap()
            }),
        }
    }

    fn piece_ends(pattern: Pattern, text: &str) -> Vec<usize> {
        let mut ends = Vec::new();
        let mut at = 0;
        while at < text.len() {
            at = pattern.piece_end(text, at);
            ends.push(at);
        }
        ends
    }

    fn reference_ends(pattern: Pattern, text: &str) -> Vec<usize> {
        reference(pattern)
            .find_iter(text)
            .map(|m| m.unwrap().end())
            .collect()
    }

    #[test]
    fn character_classes_are_the_regex_engine_s() {
        let classes = [
            (r"\p{Lu}|\p{Lt}", UPPER),
            (r"\p{Ll}", LOWER),
            (r"\p{Lm}|\p{Lo}", LETTER),
            (r"\p{M}", MARK),
            (r"\p{N}", NUMBER),
            (r"[\r\n]", NEWLINE),
            (r"\s", SPACE),
        ]
        .map(|(class, value)| (regex::Regex::new(&format!("^(?:{class})$")).unwrap(), value));
        let mut buf = [0; 4];
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let text = c.encode_utf8(&mut buf);
            let expected = classes
                .iter()
                .find(|(regex, _)| regex.is_match(text))
                .map_or(OTHER, |&(_, value)| value);
            assert_eq!(
                class_at(text.as_bytes(), 0),
                (expected, text.len()),
                "{c:?}"
            );
        }
    }

    #[test]
    fn contractions_fold_case_as_the_regex_engine_does() {
        let regex = regex::Regex::new(r"^(?i:'s|'t|'re|'ve|'m|'ll|'d)").unwrap();
        let mut buf = [0; 4];
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            for rest in ["", "e", "l", "E", "L"] {
                let text = format!("'{}{rest}", c.encode_utf8(&mut buf));
                let end = regex.find(&text).map_or(0, |m| m.end());
                assert_eq!(contraction(text.as_bytes(), 0), end, "{text:?}");
            }
        }
    }

    /// Text made of what the patterns tell apart: letters of each case class, marks,
    /// numbers of each kind, every sort of white space, apostrophes and the letters of
    /// contractions, `/`, punctuation, symbols, controls; and any character at all.
    fn text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a", "b", "z", "A", "Z", "é", "É", "ß", "σ", "Σ", "ǅ", "ʰ", "ー", "中", "文", "あ",
            "ا", "한", "\u{301}", "\u{903}", "\u{20dd}", "0", "7", "٣", "Ⅻ", "½", "²", " ", "  ",
            "\t", "\n", "\r", "\r\n", "\u{b}", "\u{c}", "\u{85}", "\u{a0}", "\u{2028}", "\u{3000}",
            "'", "s", "S", "t", "re", "ve", "m", "ll", "LL", "d", "ſ", "\u{212a}", ".", ",", "!",
            "/", "-", "_", "(", "\"", "€", "→", "😀", "\u{fffd}", "\u{0}", "\u{1b}", "\u{200d}",
            "\u{feff}", "word", "Word", "WORD", "123456",
        ])
        .prop_map(String::from);
        let piece = prop_oneof![4 => pieces, 1 => any::<char>().prop_map(String::from)];
        prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn pieces_are_the_reference_regex_s(text in text()) {
            for pattern in [Pattern::O200k, Pattern::Cl100k] {
                prop_assert_eq!(
                    piece_ends(pattern, &text),
                    reference_ends(pattern, &text),
                    "{:?} {:?}", pattern, text
                );
            }
        }
    }

    #[test]
    fn pieces_of_long_runs_are_the_reference_regex_s() {
        for unit in [
            "a", "A", "aB", " ", "\t", " \n", "\n", "-", "1", "中", "😀", "é", "\u{301}",
        ] {
            for tail in ["", "x", " ", "\n", "1"] {
                let text = format!("{}{tail}", unit.repeat(3000));
                for pattern in [Pattern::O200k, Pattern::Cl100k] {
                    assert_eq!(
                        piece_ends(pattern, &text),
                        reference_ends(pattern, &text),
                        "{pattern:?} {unit:?} {tail:?}"
                    );
                }
            }
        }
    }
}
