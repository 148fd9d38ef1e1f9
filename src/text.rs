//! Display hygiene: how a raw output line is shown to a reader (summary, `grep`, `lines`).
//!
//! The stored file stays raw; only what is displayed is cleaned. Cleaning is per line, so line
//! numbers of the display and of the stored file are the same.

use std::borrow::Cow;

const ZERO_WIDTH_SPACE: char = '\u{200B}';

/// Cleans one line (without its `\n`) for display: strips ANSI escape sequences and renders
/// carriage-return progress as a terminal would, keeping the text after the last `\r`
/// (a trailing `\r`, as in CRLF, ends the line instead). Invalid UTF-8 is shown lossily, and a
/// NUL byte as `\0` (records of `find -print0`, test names with a NUL in them). Zero-width
/// spaces among escape sequences are dropped.
pub fn clean_line(raw: &[u8]) -> Cow<'_, str> {
    let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
    let raw = match memchr::memrchr(b'\r', raw) {
        Some(i) => &raw[i + 1..],
        None => raw,
    };
    if memchr::memchr2(0x1b, 0, raw).is_none() {
        // `from_utf8` checks valid text several times faster than `from_utf8_lossy` walks it.
        return match std::str::from_utf8(raw) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(raw),
        };
    }
    let mut text = String::from_utf8_lossy(&strip_ansi(raw)).into_owned();
    if text.contains('\0') {
        text = text.replace('\0', "\\0");
    }
    // A zero-width space between styles (ink's renderer keeps its colours apart with them)
    // shows nothing either.
    if text.contains(ZERO_WIDTH_SPACE) {
        text.retain(|c| c != ZERO_WIDTH_SPACE);
    }
    Cow::Owned(text)
}

/// Removes ANSI escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`),
/// other string sequences (DCS, SOS, PM, APC, ended by `ESC \`) and the short escapes
/// (`ESC =`, `ESC ( B`).
pub(crate) fn strip_ansi(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let Some(esc) = memchr::memchr(0x1b, &raw[i..]) else {
            out.extend_from_slice(&raw[i..]);
            break;
        };
        out.extend_from_slice(&raw[i..i + esc]);
        i += esc + 1;
        match raw.get(i) {
            None => break,
            Some(b'[') => {
                i += 1;
                // Parameter and intermediate bytes, then one final byte in 0x40..=0x7e.
                while i < raw.len() && !(0x40..=0x7e).contains(&raw[i]) {
                    i += 1;
                }
                i += 1;
            }
            Some(b']' | b'P' | b'X' | b'^' | b'_') => {
                i += 1;
                while i < raw.len() {
                    if raw[i] == 0x07 {
                        i += 1;
                        break;
                    }
                    if raw[i] == 0x1b && raw.get(i + 1) == Some(&b'\\') {
                        i += 2;
                        break;
                    }
                    i += 1;
                }
            }
            Some(_) => {
                // `ESC`, intermediate bytes (0x20..=0x2f, as in `ESC ( B`), one final byte.
                while i < raw.len() && (0x20..=0x2f).contains(&raw[i]) {
                    i += 1;
                }
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_unchanged() {
        assert!(matches!(clean_line(b"hello"), Cow::Borrowed("hello")));
    }

    #[test]
    fn strips_colour_and_osc_sequences() {
        assert_eq!(clean_line(b"\x1b[1;31merror\x1b[0m: x"), "error: x");
        assert_eq!(
            clean_line(b"\x1b]8;;http://x\x07link\x1b]8;;\x1b\\ end"),
            "link end"
        );
        assert_eq!(clean_line(b"a\x1b(Bb\x1b=c"), "abc");
    }

    #[test]
    fn renders_carriage_return_progress() {
        assert_eq!(clean_line(b" 10%\r 50%\r100% done"), "100% done");
        assert_eq!(clean_line(b"crlf line\r"), "crlf line");
        assert_eq!(clean_line(b"a\rb\r"), "b");
    }

    #[test]
    fn invalid_utf8_is_lossy() {
        assert_eq!(clean_line(b"a\xffb"), "a\u{fffd}b");
    }

    #[test]
    fn nul_bytes_are_shown_escaped() {
        assert_eq!(
            clean_line(b"src/a.ts\0src/b.ts\0"),
            "src/a.ts\\0src/b.ts\\0"
        );
        assert_eq!(clean_line(b"\x1b[32mok\x1b[0m a\0b"), "ok a\\0b");
    }

    /// Bytes that make display cleaning interesting: escapes and their parts, carriage
    /// returns, invalid UTF-8, multi-byte characters, plain text.
    fn raw_line() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        let byte = prop_oneof![
            4 => prop::sample::select(b"\x1b\r[];()0123456789mHK\x07\\PX^_ a".to_vec()),
            1 => prop::sample::select(vec![0x00, 0x7f, 0x80, 0x9b, 0xc2, 0xe2, 0xff]),
            1 => any::<u8>(),
        ];
        prop_oneof![
            4 => prop::collection::vec(byte, 0..64),
            1 => prop::collection::vec(any::<u8>(), 0..256),
        ]
    }

    proptest::proptest! {
        // Runs PROPTEST_CASES cases (default 256); e.g. PROPTEST_CASES=100000 for a long run.
        #[test]
        fn cleaning_leaves_no_escape_or_carriage_return_and_is_idempotent(raw in raw_line()) {
            let once = clean_line(&raw);
            proptest::prop_assert!(!once.contains(['\x1b', '\r']), "{:?} -> {:?}", raw, once);
            let twice = clean_line(once.as_bytes());
            proptest::prop_assert_eq!(&twice, &once);
            proptest::prop_assert!(matches!(twice, Cow::Borrowed(_)), "clean text is not copied");
        }

        #[test]
        fn text_without_escape_or_carriage_return_is_unchanged(raw in raw_line()) {
            let plain: Vec<u8> = raw.into_iter().filter(|&b| b != 0x1b && b != b'\r' && b != 0).collect();
            proptest::prop_assert_eq!(clean_line(&plain), String::from_utf8_lossy(&plain));
        }
    }

    #[test]
    fn truncated_escape_at_end_is_dropped() {
        assert_eq!(clean_line(b"abc\x1b"), "abc");
        assert_eq!(clean_line(b"abc\x1b[31"), "abc");
    }
}
