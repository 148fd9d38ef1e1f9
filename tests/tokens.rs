//! Token counts against the reference, tiktoken-rs's `encode_ordinary` (SPEC §6), on the real
//! outputs in `tests/fixtures/corpus`, fed the ways a capture loop feeds them; and, ignored by
//! default, the throughput benchmark on the big inputs of `gen-big.sh`.

use std::path::Path;
use std::time::Instant;

use ctxoff::tokens::{Counter, Encoding, MAX_CHUNK, Tokenizer};

fn reference(encoding: Encoding) -> tiktoken_rs::CoreBPE {
    match encoding {
        Encoding::O200kBase => tiktoken_rs::o200k_base().unwrap(),
        Encoding::Cl100kBase => tiktoken_rs::cl100k_base().unwrap(),
    }
}

fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/corpus");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).unwrap())
        })
        .collect();
    files.sort();
    assert!(files.len() > 30);
    files
}

/// Piece sizes from a fixed xorshift sequence, 1 byte to 100 KiB.
fn random_sizes() -> Vec<usize> {
    let mut state = 0x9e37_79b9_u32;
    (0..1000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            1 + (state as usize) % (100 << 10)
        })
        .collect()
}

fn count_fed(tokenizer: Tokenizer, bytes: &[u8], sizes: &[usize]) -> u64 {
    let mut counter = Counter::new(tokenizer);
    let mut rest = bytes;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (piece, tail) = rest.split_at(size.min(rest.len()));
        counter.feed(piece);
        rest = tail;
    }
    counter.finish()
}

#[test]
fn corpus_counts_equal_the_reference_however_fed() {
    let files = corpus();
    let random = random_sizes();
    for encoding in Encoding::ALL {
        let tokenizer = Tokenizer::load(encoding);
        let reference = reference(encoding);
        for (name, bytes) in &files {
            let text = String::from_utf8_lossy(bytes);
            let expected = reference.encode_ordinary(&text).len() as u64;
            assert_eq!(tokenizer.count(&text), expected, "{name} {encoding} count");
            assert_eq!(
                tokenizer.count_bytes(bytes),
                expected,
                "{name} {encoding} bytes"
            );
            for (how, sizes) in [
                ("whole", &[usize::MAX][..]),
                ("1-byte", &[1]),
                ("7-byte", &[7]),
                ("64 KiB", &[64 << 10]),
                ("random", &random),
            ] {
                let fed = count_fed(tokenizer, bytes, sizes);
                assert_eq!(fed, expected, "{name} {encoding} fed {how}");
            }
        }
    }
}

#[test]
fn parallel_count_equals_sequential_and_reference() {
    let all: Vec<u8> = corpus().into_iter().flat_map(|(_, bytes)| bytes).collect();
    assert!(all.len() > 4 << 20, "big enough to be split");
    for encoding in Encoding::ALL {
        let tokenizer = Tokenizer::load(encoding);
        let expected = reference(encoding)
            .encode_ordinary(&String::from_utf8_lossy(&all))
            .len() as u64;
        assert_eq!(tokenizer.count_parallel(&all), expected, "{encoding}");
        assert_eq!(tokenizer.count_bytes(&all), expected, "{encoding}");
    }
}

#[test]
fn lines_over_a_chunk_are_exact_where_words_can_be_cut() {
    let json: String = (0..60_000)
        .map(|i| format!("{{\"id\":{i},\"name\":\"item-{i}\",\"tags\":[\"a/b\",\"c's\"]}},"))
        .collect();
    let prose =
        "The quick brown fox, 12.5% faster; jumps over the lazy dog's back. ".repeat(40_000);
    for line in [json, prose] {
        assert!(line.len() > 2 << 20 && !line.contains('\n'));
        for encoding in Encoding::ALL {
            let expected = reference(encoding).encode_ordinary(&line).len() as u64;
            let tokenizer = Tokenizer::load(encoding);
            assert_eq!(tokenizer.count(&line), expected, "{encoding}");
            assert_eq!(
                count_fed(tokenizer, line.as_bytes(), &[4093]),
                expected,
                "{encoding}"
            );
        }
    }
}

/// A fixed xorshift sequence.
fn random(seed: u32) -> impl Iterator<Item = u32> {
    std::iter::successors(Some(seed | 1), |&s| {
        let s = s ^ s << 13;
        let s = s ^ s >> 17;
        Some(s ^ s << 5)
    })
}

/// About `len` bytes of the characters of `alphabet` in a fixed random order.
fn made_of(alphabet: &[char], len: usize, seed: u32) -> Vec<u8> {
    let mut text = String::with_capacity(len + 4);
    for r in random(seed) {
        if text.len() >= len {
            break;
        }
        text.push(alphabet[r as usize % alphabet.len()]);
    }
    text.into_bytes()
}

fn chars(from: char, to: char) -> Vec<char> {
    (from..=to).collect()
}

fn base64(bytes: &[u8]) -> Vec<u8> {
    const DIGITS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(bytes.len() / 3 * 4 + 4);
    for group in bytes.chunks(3) {
        let word =
            group.iter().fold(0u32, |w, &b| w << 8 | u32::from(b)) << (8 * (3 - group.len()));
        for i in 0..=group.len() {
            out.push(DIGITS[(word >> (18 - 6 * i)) as usize & 63]);
        }
        out.resize(out.len() + 3 - group.len(), b'=');
    }
    out
}

/// Minified JSON of about `len` bytes: nested objects and arrays, strings with escapes and
/// non-ASCII, numbers of every form, no white space.
fn minified_json(len: usize, seed: u32) -> Vec<u8> {
    let mut json = String::from("[");
    let mut values = random(seed);
    while json.len() < len {
        let r = values.next().unwrap_or(0);
        json.push_str(&format!(
            "{{\"id\":{},\"name\":\"item_{}\\u00e9\\n\",\"score\":{}.{}e-{},\"ok\":{},\
             \"tags\":[\"a/b\",\"c's\",\"日本\",null],\"nested\":{{\"x\":[{},{}]}}}},",
            r % 100_000,
            r % 977,
            r % 1000,
            r % 97,
            r % 9,
            r.is_multiple_of(2),
            r % 13,
            -((r % 7) as i64),
        ));
    }
    json.push_str("0]");
    json.into_bytes()
}

/// Inputs of about `len` bytes whose pieces are long, or many-byte, or many: the classes a
/// tokenizer slows down on.
fn pathological(len: usize) -> Vec<(&'static str, Vec<u8>)> {
    let lower = chars('a', 'z');
    let letters: Vec<char> = chars('a', 'z').into_iter().chain(chars('A', 'Z')).collect();
    let random_bytes: Vec<u8> = random(11).take(len).map(|r| (r >> 24) as u8).collect();
    vec![
        ("one letter", b"a".repeat(len)),
        ("spaces", b" ".repeat(len)),
        ("tabs", b"\t".repeat(len)),
        ("newlines", b"\n".repeat(len)),
        ("dashes", b"-".repeat(len)),
        ("two letters", b"ab".repeat(len / 2)),
        ("spaces and a word", b"       x".repeat(len / 8)),
        ("long word", made_of(&lower, len, 1)),
        ("long mixed-case word", made_of(&letters, len, 2)),
        ("digits", made_of(&chars('0', '9'), len, 3)),
        ("base64", base64(&random_bytes[..len * 3 / 4])),
        ("minified JSON", minified_json(len, 4)),
        ("random bytes", random_bytes.clone()),
        ("one CJK character", "中".repeat(len / 3).into_bytes()),
        ("CJK", made_of(&chars('\u{4e00}', '\u{9fff}'), len, 5)),
        ("kana", made_of(&chars('\u{3041}', '\u{30ff}'), len, 6)),
        ("emoji", made_of(&chars('\u{1f300}', '\u{1f64f}'), len, 7)),
        ("one emoji", "😀".repeat(len / 4).into_bytes()),
        (
            "replacement characters",
            "\u{fffd}".repeat(len / 3).into_bytes(),
        ),
        (
            "letters and marks",
            made_of(&['a', 'e', 'o', '\u{301}', '\u{308}'], len, 8),
        ),
        ("Cyrillic", made_of(&chars('\u{430}', '\u{44f}'), len, 9)),
    ]
}

#[test]
fn pathological_inputs_equal_the_reference() {
    for (name, bytes) in pathological(150_000) {
        let text = String::from_utf8_lossy(&bytes);
        for encoding in Encoding::ALL {
            let expected = reference(encoding).encode_ordinary(&text).len() as u64;
            let tokenizer = Tokenizer::load(encoding);
            assert_eq!(tokenizer.count_bytes(&bytes), expected, "{name} {encoding}");
            let fed = count_fed(tokenizer, &bytes, &[4093, 1, 65536]);
            assert_eq!(fed, expected, "{name} {encoding} fed");
        }
    }
}

/// Above the sizes tiktoken-rs can count at once (SPEC §6): an input with exact cuts counts
/// as the reference counts it whole; a stretch without one (a run, one long word) is cut every
/// `MAX_CHUNK` bytes, and counts as the reference counts those chunks.
#[test]
#[ignore = "slow: megabytes through the reference"]
fn inputs_over_a_chunk_equal_the_reference_chunk_by_chunk() {
    let with_cuts = [
        "spaces and a word",
        "base64",
        "minified JSON",
        "random bytes",
    ];
    let mut inputs = pathological(2 * MAX_CHUNK + 12_345);
    inputs.push(("one letter, 20 MiB", b"a".repeat(20 << 20)));
    for (name, bytes) in inputs {
        let text = String::from_utf8_lossy(&bytes);
        let chunks = match with_cuts.contains(&name) {
            true => vec![&*text],
            false => forced_chunks(&text),
        };
        for encoding in Encoding::ALL {
            let reference = reference(encoding);
            // Equal chunks are counted once: the reference takes seconds a megabyte.
            let mut counted: Vec<(&str, u64)> = Vec::new();
            for &chunk in &chunks {
                if !counted.iter().any(|&(c, _)| c == chunk) {
                    // Its regex gives up on a megabyte of white space.
                    let Ok(tokens) = std::panic::catch_unwind(|| reference.encode_ordinary(chunk))
                    else {
                        println!("{name} {encoding}: the reference cannot count a chunk");
                        break;
                    };
                    counted.push((chunk, tokens.len() as u64));
                }
            }
            if counted.len()
                < chunks
                    .iter()
                    .collect::<std::collections::HashSet<_>>()
                    .len()
            {
                continue;
            }
            let expected: u64 = chunks
                .iter()
                .map(|&chunk| {
                    counted
                        .iter()
                        .find(|&&(c, _)| c == chunk)
                        .map_or(0, |&(_, n)| n)
                })
                .sum();
            let tokenizer = Tokenizer::load(encoding);
            assert_eq!(tokenizer.count_bytes(&bytes), expected, "{name} {encoding}");
            let parallel = tokenizer.count_parallel(&bytes);
            assert_eq!(parallel, expected, "{name} {encoding} parallel");
            let fed = count_fed(tokenizer, &bytes, &[65536]);
            assert_eq!(fed, expected, "{name} {encoding} fed");
        }
    }
}

/// `text` cut every `MAX_CHUNK` bytes (rounded down to a character boundary), as a stretch
/// without an exact cut is.
fn forced_chunks(text: &str) -> Vec<&str> {
    let mut chunks = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (chunk, tail) = rest.split_at(rest.floor_char_boundary(MAX_CHUNK));
        chunks.push(chunk);
        rest = tail;
    }
    chunks
}

/// Seconds of CPU time this thread has used: on a machine shared with other builds, wall time
/// says more about the neighbours than about the code.
fn thread_cpu_seconds() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9
}

/// Runs `f`, returning its result and its rate in MB/s over `bytes`, by wall and CPU time.
fn rate<T>(bytes: usize, f: impl FnOnce() -> T) -> (T, f64, f64) {
    let (wall, cpu) = (Instant::now(), thread_cpu_seconds());
    let out = f();
    let mb = bytes as f64 / 1e6;
    let (wall, cpu) = (wall.elapsed().as_secs_f64(), thread_cpu_seconds() - cpu);
    (out, mb / wall, mb / cpu.max(1e-9))
}

/// Throughput on `gen-big.sh` inputs, side by side with tiktoken-rs, in one run:
/// `bash tests/fixtures/corpus/gen-big.sh /tmp/big` (or set `CTXOFF_BIG`), then
/// `cargo test --release --test tokens -- --ignored --nocapture`.
/// Sequential rates are by CPU time (wall in parentheses); the parallel rate is wall time.
#[test]
#[ignore = "benchmark: needs gen-big.sh inputs and a release build"]
fn throughput() {
    let dir = std::env::var("CTXOFF_BIG").unwrap_or_else(|_| "/tmp/big".into());
    let inputs = [
        // (file, bytes used, whether tiktoken-rs survives it)
        ("log-100m.txt", 100 << 20, true),
        ("minified-50m.json", 50 << 20, true),
        ("one-line-100m.txt", 100 << 20, true),
        ("letter-4m.txt", 4 << 20, true),
        ("spaces-1m.txt", 1 << 20, false), // regex stack overflow in tiktoken-rs
        ("random-10m.bin", 10 << 20, true),
    ];
    for encoding in Encoding::ALL {
        let (tokenizer, _, _) = rate(0, || Tokenizer::load(encoding));
        let reference = reference(encoding);
        println!(
            "{encoding}\n  {:<18} {:>10} {:>16} {:>9} {:>16} {:>12} {:>6}",
            "input",
            "tokens",
            "seq MB/s (wall)",
            "par wall",
            "feed MB/s (wall)",
            "tiktoken-rs",
            "ratio"
        );
        for (file, len, reference_ok) in inputs {
            let Ok(bytes) = std::fs::read(Path::new(&dir).join(file)) else {
                println!("  {file}: missing, skipped");
                continue;
            };
            let bytes = &bytes[..len.min(bytes.len())];
            let (tokens, seq_wall, seq) = rate(bytes.len(), || tokenizer.count_bytes(bytes));
            let (par_tokens, par, _) = rate(bytes.len(), || tokenizer.count_parallel(bytes));
            assert_eq!(par_tokens, tokens);
            let (fed_tokens, fed_wall, fed) =
                rate(bytes.len(), || count_fed(tokenizer, bytes, &[64 << 10]));
            assert_eq!(fed_tokens, tokens);
            let (theirs, ratio) = if reference_ok {
                // tiktoken-rs on at most 10 MB: it is slow, and only its rate matters here.
                let sample = &bytes[..bytes.len().min(10 << 20)];
                let text = String::from_utf8_lossy(sample);
                let (_, _, theirs) = rate(sample.len(), || reference.encode_ordinary(&text).len());
                (format!("{theirs:.1}"), format!("{:.1}x", seq / theirs))
            } else {
                ("crashes".into(), "-".into())
            };
            println!(
                "  {file:<18} {tokens:>10} {:>16} {par:>9.1} {:>16} {theirs:>12} {ratio:>6}",
                format!("{seq:.1} ({seq_wall:.1})"),
                format!("{fed:.1} ({fed_wall:.1})"),
            );
        }
    }
}
