//! Telling binary output from text, and naming common binary types by their magic bytes.

/// How much of the start of an output decides whether it is binary.
pub(crate) const SNIFF_LEN: usize = 8 * 1024;

/// Binary: a NUL byte, or mostly invalid UTF-8, in the first `SNIFF_LEN` bytes. Text with a few
/// invalid sequences stays text (shown lossily).
pub(crate) fn is_binary(start: &[u8]) -> bool {
    let start = &start[..start.len().min(SNIFF_LEN)];
    if memchr::memchr(0, start).is_some() {
        return true;
    }
    let mut invalid = 0;
    let mut rest = start;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(_) => break,
            Err(e) => {
                let skip = e.error_len();
                let Some(bad) = skip else { break }; // cut at the end: not invalid
                invalid += bad;
                rest = &rest[e.valid_up_to() + bad..];
            }
        }
    }
    invalid * 10 > start.len() * 3
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
            "{}/tests/fixtures/corpus/{name}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("fixture")
    }

    #[test]
    fn corpus_binaries_are_binary_and_named() {
        let png = fixture("png-fd-logo.bin");
        assert!(is_binary(&png));
        assert_eq!(binary_type(&png), Some("PNG image"));
        let gz = fixture("gzip-changelog.bin");
        assert!(is_binary(&gz));
        assert_eq!(binary_type(&gz), Some("gzip data"));
    }

    #[test]
    fn text_with_a_few_bad_bytes_stays_text() {
        assert!(!is_binary(&fixture("invalid-utf8-synthetic.txt")));
        // NULs only after the first 8 KiB: the start decides.
        assert!(!is_binary(&fixture("nul-bytes-synthetic.txt")));
        assert!(!is_binary(&fixture("cargo-build-errors-ansi.txt")));
        assert!(!is_binary("é".repeat(5000).as_bytes().split_at(8191).0));
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
