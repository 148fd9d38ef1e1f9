//! Telling binary output from text, and naming common binary types by their magic bytes.
//!
//! # The rule
//!
//! The first `SNIFF_LEN` bytes decide. A byte is *suspicious* when it is an invalid UTF-8 byte,
//! a control byte other than the ones text uses (tab, newline, vertical tab, form feed,
//! carriage return, backspace, escape), or a NUL that does not end a record. A NUL ends a record
//! when at least two text bytes come right before it and no NUL right after: `find -print0`,
//! `git … -z` and test names with a NUL in them stay text; NUL padding, UTF-16 and the NULs of
//! object files, images and archives do not. The output is binary when at least 10% of the
//! sample is suspicious, or when it starts with a known binary type's magic bytes and at least
//! 1% is.
//!
//! Measured on the first 8 KiB (the share of suspicious bytes): ELF executables and objects,
//! `ar` archives, gettext `.mo`, SQLite, ICO, PNG, JPEG, PDF, gzip, bzip2, xz, zstd, zip,
//! woff2, wasm, `.pyc` and random bytes 46–100%; tar 10%; UTF-16 text 50%; text with
//! NUL-separated records (`find -print0`, `git ls-files -z`, `git log -z`), a build log with
//! colours, text with stray invalid UTF-8: 0–0.1%.

/// How much of the start of an output decides whether it is binary.
pub(crate) const SNIFF_LEN: usize = 8 * 1024;

/// Binary output, by the rule of the module documentation.
pub(crate) fn is_binary(start: &[u8]) -> bool {
    let sample = &start[..start.len().min(SNIFF_LEN)];
    if sample.is_empty() {
        return false;
    }
    let suspicious = suspicious_bytes(sample);
    suspicious * 10 >= sample.len()
        || (binary_type(sample).is_some() && suspicious * 100 >= sample.len())
}

/// The number of suspicious bytes in `sample` (see the module documentation).
fn suspicious_bytes(sample: &[u8]) -> usize {
    let mut suspicious = 0;
    // Text bytes right before the current position, since the last NUL or suspicious byte.
    let mut run = 0usize;
    for (i, &b) in sample.iter().enumerate() {
        match b {
            0 => {
                let next_is_nul = sample.get(i + 1) == Some(&0);
                if run < 2 || next_is_nul {
                    suspicious += 1;
                }
                run = 0;
            }
            b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x08 | 0x1b => run += 1,
            0x01..=0x1f | 0x7f => {
                suspicious += 1;
                run = 0;
            }
            _ => run += 1,
        }
    }
    suspicious + invalid_utf8_bytes(sample)
}

/// Bytes of `sample` that are not valid UTF-8 (a sequence cut at the end is not counted).
fn invalid_utf8_bytes(sample: &[u8]) -> usize {
    let mut invalid = 0;
    let mut rest = sample;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(_) => break,
            Err(e) => {
                let Some(bad) = e.error_len() else { break };
                invalid += bad;
                rest = &rest[e.valid_up_to() + bad..];
            }
        }
    }
    invalid
}

/// The type of a binary output recognised by its first bytes.
pub(crate) fn binary_type(start: &[u8]) -> Option<&'static str> {
    const MAGIC: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "PNG image"),
        (b"\xff\xd8\xff", "JPEG image"),
        (b"GIF87a", "GIF image"),
        (b"GIF89a", "GIF image"),
        (b"%PDF-", "PDF document"),
        (b"\x1f\x8b", "gzip data"),
        (b"PK\x03\x04", "zip archive"),
        (b"PK\x05\x06", "zip archive"),
        (b"\x7fELF", "ELF executable"),
        (b"BZh", "bzip2 data"),
        (b"\xfd7zXZ\x00", "xz data"),
        (b"\x28\xb5\x2f\xfd", "zstd data"),
        (b"7z\xbc\xaf\x27\x1c", "7-zip archive"),
        (b"\x00asm", "WebAssembly module"),
        (b"SQLite format 3\x00", "SQLite database"),
        (b"RIFF", "RIFF data"),
        (b"!<arch>\n", "ar archive"),
        (b"wOF2", "WOFF2 font"),
        (b"\xca\xfe\xba\xbe", "Java class or Mach-O universal binary"),
    ];
    if let Some((_, name)) = MAGIC.iter().find(|(magic, _)| start.starts_with(magic)) {
        return Some(name);
    }
    (start.get(257..262) == Some(b"ustar")).then_some("tar archive")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!(
            "{}/tests/fixtures/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("fixture")
    }

    #[test]
    fn corpus_binaries_are_binary_and_named() {
        let png = fixture("corpus/png-fd-logo.bin");
        assert!(is_binary(&png));
        assert_eq!(binary_type(&png), Some("PNG image"));
        let gz = fixture("corpus/gzip-changelog.bin");
        assert!(is_binary(&gz));
        assert_eq!(binary_type(&gz), Some("gzip data"));
    }

    #[test]
    fn text_with_a_few_bad_bytes_stays_text() {
        assert!(!is_binary(&fixture("corpus/invalid-utf8-synthetic.txt")));
        assert!(!is_binary(&fixture("corpus/nul-bytes-synthetic.txt")));
        assert!(!is_binary(&fixture("corpus/cargo-build-errors-ansi.txt")));
        assert!(!is_binary("é".repeat(5000).as_bytes().split_at(8191).0));
    }

    #[test]
    fn nul_separated_records_are_text() {
        for name in [
            "corpus2/find-print0-date-fns.txt",
            "corpus2/git-ls-files-z-date-fns.txt",
            "corpus2/git-log-z-date-fns.txt",
        ] {
            assert!(!is_binary(&fixture(name)), "{name}");
        }
        // A test runner printing a NUL inside a test name, early in its output.
        let mut out = b" \xe2\x9c\x93 parses a\x00b name\n".to_vec();
        out.extend(b"test passed\n".repeat(500));
        assert!(!is_binary(&out));
    }

    #[test]
    fn nul_padding_utf16_and_control_bytes_are_binary() {
        let utf16: Vec<u8> = "plain text, but UTF-16\n"
            .repeat(200)
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        assert!(is_binary(&utf16));
        let mut padded = b"header\n".to_vec();
        padded.extend([0u8; 2048]);
        padded.extend(b"text\n".repeat(500));
        assert!(is_binary(&padded));
        let mut elf = b"\x7fELF\x02\x01\x01".to_vec();
        elf.extend(b"mostly text after the magic\n".repeat(40));
        elf.extend([0u8; 20]);
        assert!(is_binary(&elf));
        assert!(!is_binary(b"RIFF is a word that starts this text\n"));
    }

    #[test]
    fn random_bytes_are_binary() {
        let bytes: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8 | 0x80)
            .collect();
        assert!(is_binary(&bytes));
        assert_eq!(binary_type(&bytes), None);
    }
}
