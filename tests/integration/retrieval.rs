//! Reading outputs back: `grep` (differentially against GNU grep on the cleaned corpus),
//! `lines` (round trips and ranges), `list`, references and their errors. Runs the library's
//! entry points with in-memory writers; the binary's wiring has its own tests.

use ctxoff::cmd::{Context, Run, grep, lines, list};
use ctxoff::config::Settings;
use ctxoff::store::{Entry, MANIFEST, Store};
use ctxoff::text::clean_line;
use ctxoff::tokens::{Encoding, Tokenizer};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corpus");
const CAP: u64 = 2_500;

/// A scratch root with one session, `s`, and the outputs put in it.
struct Scratch {
    _dir: tempfile::TempDir,
    store: Store,
}

/// What one run printed.
#[derive(Debug)]
struct Ran {
    code: ExitCode,
    out: Vec<u8>,
    err: String,
}

impl Ran {
    fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.out).into_owned()
    }
}

/// Parses `words` as the arguments of the subcommand `command` defines.
fn parse(command: clap::Command, words: &[&str]) -> Result<clap::ArgMatches, clap::Error> {
    let name = command.get_name().to_string();
    command.try_get_matches_from(std::iter::once(name.as_str()).chain(words.iter().copied()))
}

fn grep_args(words: &[&str]) -> grep::GrepArgs {
    let matches = parse(grep::GrepArgs::command(), words);
    grep::GrepArgs::from_matches(&matches.unwrap_or_else(|e| panic!("{words:?}: {e}")))
}

fn lines_args(words: &[&str]) -> lines::LinesArgs {
    let matches = parse(lines::LinesArgs::command(), words);
    lines::LinesArgs::from_matches(&matches.unwrap_or_else(|e| panic!("{words:?}: {e}")))
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        let store = Store {
            root: dir.path().join("root"),
            session: "s".into(),
            fallback: None,
        };
        std::fs::create_dir_all(store.session_dir()).unwrap();
        Scratch { _dir: dir, store }
    }

    /// Stores `bytes` as output `file` of the session, with a complete manifest entry.
    fn add(&self, file: &str, bytes: &[u8]) -> PathBuf {
        let path = self.store.session_dir().join(file);
        std::fs::write(&path, bytes).unwrap();
        let ctxoff::store::OutputFile { name, n, .. } =
            ctxoff::store::OutputFile::parse(file).unwrap();
        self.manifest(&Entry {
            n,
            file: file.into(),
            name: name.into(),
            argv: vec![name.into(), "--flag".into(), "two words".into()],
            bytes: bytes.len() as u64,
            lines: bytes.iter().filter(|&&b| b == b'\n').count() as u64,
            tokens: Some(1234),
            exit_code: Some(0),
            complete: true,
            ..Entry::default()
        });
        path
    }

    fn manifest(&self, entry: &Entry) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.store.session_dir().join(MANIFEST))
            .unwrap();
        writeln!(f, "{}", entry.to_json()).unwrap();
    }

    /// Runs a subcommand in this scratch space with `cap` as the threshold (the retrieval cap).
    fn run(&self, subcommand: &dyn Run, cap: u64) -> (anyhow::Result<ExitCode>, Vec<u8>, String) {
        let settings = Settings {
            threshold: cap,
            preview: 1_000,
            content_limit: cap,
            encoding: Encoding::O200kBase,
            root: self.store.root.clone(),
            session: Some(self.store.session.clone()),
            notable: Vec::new(),
            keep: Vec::new(),
            wrap: Vec::new(),
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let mut stdin = std::io::empty();
        let mut ctx = Context::with_settings(settings, &mut stdin, &mut out, &mut err);
        let result = subcommand.run(&mut ctx);
        (result, out, String::from_utf8(err).unwrap())
    }

    fn grep(&self, words: &[&str]) -> Ran {
        self.grep_capped(words, CAP)
    }

    fn grep_capped(&self, words: &[&str], cap: u64) -> Ran {
        let (result, out, err) = self.run(&grep_args(words), cap);
        let code = result.unwrap_or_else(|e| panic!("{words:?}: {e:#}"));
        Ran { code, out, err }
    }

    fn grep_err(&self, words: &[&str]) -> String {
        let (result, out, _) = self.run(&grep_args(words), CAP);
        let e = result.expect_err("an error");
        assert!(out.is_empty());
        format!("{e:#}")
    }

    fn lines(&self, words: &[&str]) -> Ran {
        self.lines_capped(words, CAP)
    }

    fn lines_capped(&self, words: &[&str], cap: u64) -> Ran {
        let (result, out, err) = self.run(&lines_args(words), cap);
        let code = result.unwrap_or_else(|e| panic!("{words:?}: {e:#}"));
        Ran { code, out, err }
    }

    fn lines_err(&self, words: &[&str]) -> String {
        let (result, _, _) = self.run(&lines_args(words), CAP);
        let e = result.expect_err("an error");
        format!("{e:#}")
    }

    fn list(&self, words: &[&str]) -> String {
        let args = list::ListArgs::from_matches(&parse(list::ListArgs::command(), words).unwrap());
        let (result, out, _) = self.run(&args, CAP);
        result.unwrap();
        String::from_utf8(out).unwrap()
    }
}

/// The corpus's text outputs (not its binary ones, its manifest or its ground truth).
fn text_corpus() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(CORPUS)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e != "bin" && e != "md"))
        .filter(|p| !p.to_string_lossy().ends_with(".truth.json"))
        .collect();
    files.sort();
    assert!(files.len() > 30);
    files
}

/// The file as `grep` and `lines` display it: each line through `clean_line`.
fn cleaned(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let body = raw.strip_suffix(b"\n").unwrap_or(raw);
    if raw.is_empty() {
        return out;
    }
    for line in body.split(|&b| b == b'\n') {
        out.extend_from_slice(clean_line(line).as_bytes());
        out.push(b'\n');
    }
    out
}

/// GNU grep's output and exit status for the same options on the cleaned file.
fn gnu_grep(cleaned: &Path, options: &[&str], pattern: &str) -> (Vec<u8>, i32) {
    let out = Command::new("grep")
        .env("LC_ALL", "C.UTF-8")
        .args(["-a", "-n", "-E"])
        .args(options)
        .arg("-e")
        .arg(pattern)
        .arg(cleaned)
        .output()
        .expect("GNU grep is installed");
    (out.stdout, out.status.code().unwrap())
}

fn code(c: ExitCode) -> i32 {
    if c == ExitCode::SUCCESS {
        0
    } else if c == ExitCode::from(1) {
        1
    } else {
        2
    }
}

/// Compares ctxoff grep (uncapped) with GNU grep for each option set and pattern.
fn differential(raw: &[u8], label: &str, option_sets: &[&[&str]], patterns: &[&str]) {
    let scratch = Scratch::new();
    scratch.add("out_1.txt", raw);
    let clean = scratch._dir.path().join("cleaned");
    std::fs::write(&clean, cleaned(raw)).unwrap();
    for options in option_sets {
        for pattern in patterns {
            let (expected, expected_code) = gnu_grep(&clean, options, pattern);
            let mut words = vec!["@1", pattern, "--all"];
            words.extend_from_slice(options);
            // GNU grep's default context is 0, ctxoff's 2.
            let given = |flag: &str| options.iter().any(|o| o.starts_with(flag));
            if !given("-C") && !given("-A") {
                words.push("-A0");
            }
            if !given("-C") && !given("-B") {
                words.push("-B0");
            }
            let ran = scratch.grep(&words);
            assert_eq!(
                String::from_utf8_lossy(&ran.out),
                String::from_utf8_lossy(&expected),
                "{label}: grep {options:?} -e {pattern:?}"
            );
            assert_eq!(
                code(ran.code),
                expected_code,
                "{label}: grep {options:?} {pattern:?}"
            );
        }
    }
}

const PATTERNS: &[&str] = &[
    "error",
    "warning",
    "test",
    "fn ",
    "unwrap",
    "^$",
    "^ ",
    " $",
    "[0-9]+ passed",
    "panicked|FAILED",
    r"\.rs:[0-9]+",
    "e",
    "zzz_no_such_text",
    "(ok|Ok)$",
    "^[A-Z]",
    "[[:digit:]]{4}",
    "a.c",
    "-",
    "error.*(found|expected)",
];

#[test]
fn grep_equals_gnu_grep_on_the_corpus() {
    let option_sets: &[&[&str]] = &[
        &["-C2"],
        &["-C0"],
        &["-C1", "-i"],
        &["-A3", "-B1"],
        &["-A0", "-B4"],
        &["-C2", "-w"],
        &["-C1", "-v"],
        &["-C2", "-m3"],
        &["-A4", "-m1"],
        &["-c"],
        &["-c", "-v", "-i"],
        &["-c", "-m5"],
        &["-C1", "-v", "-m4"],
        &["-C3", "-w", "-i", "-m7"],
    ];
    // Every combination on all small files at once (several blocks, files ending mid-block),
    // then a few on each file alone (files' first and last lines).
    let mut all = Vec::new();
    for path in text_corpus() {
        let raw = std::fs::read(&path).unwrap();
        let label = path.file_name().unwrap().to_string_lossy();
        if raw.len() < 1 << 20 {
            all.extend_from_slice(&raw);
        }
        differential(
            &raw,
            &label,
            &[&["-C2"], &["-C1", "-v", "-m4"], &["-c", "-i", "-w"]],
            &PATTERNS[..6],
        );
    }
    differential(&all, "all small corpus files", option_sets, PATTERNS);
}

#[test]
fn grep_fixed_strings_and_words_equal_gnu_grep() {
    let patterns = [
        "error", "a", "ok", "-", "_", "::", "src/", "(", "[E0", ".rs", "e r", "fn",
    ];
    let option_sets: &[&[&str]] = &[
        &["-F", "-C1"],
        &["-F", "-w", "-C1"],
        &["-F", "-w", "-i", "-c"],
        &["-F", "-v", "-w", "-c"],
    ];
    for name in [
        "cargo-build-errors-ansi.txt",
        "rg-fd-unwrap.txt",
        "pytest-failures.txt",
        "tqdm-progress-synthetic.txt",
        "invalid-utf8-synthetic.txt",
        "nul-bytes-synthetic.txt",
        "git-diff-tokio.txt",
    ] {
        let raw = std::fs::read(Path::new(CORPUS).join(name)).unwrap();
        for options in option_sets {
            let scratch = Scratch::new();
            scratch.add("out_1.txt", &raw);
            let clean = scratch._dir.path().join("cleaned");
            std::fs::write(&clean, cleaned(&raw)).unwrap();
            for pattern in patterns {
                let out = Command::new("grep")
                    .env("LC_ALL", "C.UTF-8")
                    .args(["-a", "-n"])
                    .args(*options)
                    .arg("-e")
                    .arg(pattern)
                    .arg(&clean)
                    .output()
                    .unwrap();
                let mut words = vec!["@1", pattern, "--all"];
                words.extend_from_slice(options);
                let ran = scratch.grep(&words);
                assert_eq!(
                    ran.stdout(),
                    String::from_utf8_lossy(&out.stdout),
                    "{name}: {options:?} {pattern:?}"
                );
            }
        }
    }
}

/// Matches and context that straddle the 1 MiB blocks the file is read in.
#[test]
fn grep_context_across_block_boundaries_equals_gnu_grep() {
    let mut raw = Vec::new();
    for i in 0..60_000u32 {
        raw.extend_from_slice(
            format!("line {i:06} {}\n", "x".repeat((i % 97) as usize)).as_bytes(),
        );
    }
    let option_sets: &[&[&str]] = &[
        &["-C3"],
        &["-B7", "-A2"],
        &["-C2", "-v"],
        &["-A5", "-m40"],
        &["-c"],
    ];
    let patterns = [
        "0$",
        "[13579]7[0-9] x{9}",
        "x{96}$",
        "line 0(1|2)[0-9]{4} x{5}$",
        "1234",
    ];
    differential(&raw, "synthetic", option_sets, &patterns);
    // A last line without a newline, and a file of one line.
    let mut unterminated = raw.clone();
    unterminated.extend_from_slice(b"last line 0");
    differential(
        &unterminated,
        "unterminated",
        &[&["-C2"], &["-v", "-C1", "-m2"], &["-c"]],
        &["0$", "last"],
    );
    differential(
        b"only",
        "one line",
        &[&["-C2"], &["-v"]],
        &["only", "x", "^"],
    );
}

#[test]
fn grep_sees_the_display_not_the_raw_bytes() {
    let scratch = Scratch::new();
    scratch.add(
        "out_1.txt",
        b"\x1b[31mer\x1b[0mror: red\n 10%\r 50%\r100% done\nplain\r\n",
    );
    let ran = scratch.grep(&["@1", "error: red|^100% done$|^plain$", "-C0"]);
    assert_eq!(ran.stdout(), "1:error: red\n2:100% done\n3:plain\n");
    assert_eq!(code(scratch.grep(&["@1", "50%"]).code), 1);
}

#[test]
fn grep_without_a_match_exits_1_with_a_note() {
    let scratch = Scratch::new();
    scratch.add("cargo_1.txt", b"a\nb\nc\n");
    let ran = scratch.grep(&["cargo_1", "zzz"]);
    assert_eq!(code(ran.code), 1);
    assert!(ran.out.is_empty());
    assert_eq!(
        ran.err,
        "ctxoff: no match for 'zzz' in cargo_1 (3 lines searched)\n"
    );
    let ran = scratch.grep(&["cargo_1", "zzz", "-c"]);
    assert_eq!((code(ran.code), ran.stdout()), (1, "0\n".into()));
    let ran = scratch.grep(&["cargo_1", "b", "-m", "0"]);
    assert_eq!(code(ran.code), 1);
    let ran = scratch.grep(&["cargo_1", "b", "--range", "3:"]);
    assert_eq!(
        ran.err,
        "ctxoff: no match for 'b' in cargo_1 (1 lines searched)\n"
    );
    scratch.add("empty_2.txt", b"");
    let ran = scratch.grep(&["@2", "x"]);
    assert_eq!(code(ran.code), 1);
}

#[test]
fn grep_range_limits_the_search_and_its_context() {
    let scratch = Scratch::new();
    let raw: String = (1..=100).map(|i| format!("row {i}\n")).collect();
    scratch.add("seq_1.txt", raw.as_bytes());
    let ran = scratch.grep(&["@1", "^row [0-9]*5$", "--range", "40:60"]);
    assert_eq!(
        ran.stdout(),
        "43-row 43\n44-row 44\n45:row 45\n46-row 46\n47-row 47\n--\n53-row 53\n54-row 54\n55:row 55\n56-row 56\n57-row 57\n"
    );
    let ran = scratch.grep(&["@1", "row", "--range", "41:42", "-C5"]);
    assert_eq!(ran.stdout(), "41:row 41\n42:row 42\n");
    let ran = scratch.grep(&["@1", "row", "--range", "-2:", "-C5"]);
    assert_eq!(ran.stdout(), "99:row 99\n100:row 100\n");
    let err = scratch.grep_err(&["@1", "row", "--range", "200:"]);
    assert_eq!(err, "--range 200: starts past the end: seq_1 has 100 lines");
    let err = scratch.grep_err(&["@1", "row", "--range", "5:3"]);
    assert_eq!(err, "bad range '5:3': it ends before it starts");
}

#[test]
fn grep_caps_printed_tokens_and_says_what_is_left() {
    let scratch = Scratch::new();
    let raw: String = (1..=5000)
        .map(|i| format!("entry {i}: error in module number {i}\n"))
        .collect();
    scratch.add("log_1.txt", raw.as_bytes());
    let ran = scratch.grep_capped(&["@1", "error", "-C0"], 300);
    let out = ran.stdout();
    let (body, note) = out.trim_end().rsplit_once('\n').unwrap();
    let tokenizer = Tokenizer::load(Encoding::O200kBase);
    let used: u64 = body
        .lines()
        .map(|l| tokenizer.count(&format!("{l}\n")))
        .sum();
    assert!(used <= 300, "{used}");
    let shown = body.lines().count();
    assert!(shown > 10, "{shown}");
    assert_eq!(
        note,
        format!(
            "[ctxoff] output capped at 300 tokens: {} of 5,000 selected lines not shown (from line {}); continue with `ctxoff grep log_1 error --range {}:`, or narrow with -m N, a tighter pattern, or --all",
            crate::support::thousands(5000 - shown as u64),
            shown + 1,
            shown + 1
        )
    );
    assert_eq!(code(ran.code), 0);
    // --all lifts the cap.
    assert_eq!(
        scratch
            .grep_capped(&["@1", "error", "-C0", "--all"], 300)
            .stdout()
            .lines()
            .count(),
        5000
    );
    // -m stops counting too.
    let ran = scratch.grep_capped(&["@1", "error", "-C0", "-m", "100"], 300);
    assert!(
        ran.stdout()
            .contains(&format!("{} of 100 selected lines not shown", 100 - shown))
    );
}

#[test]
fn a_line_longer_than_the_cap_is_cut() {
    let scratch = Scratch::new();
    let long = "word ".repeat(20_000);
    scratch.add("json_1.json", format!("{long}\nsecond\n").as_bytes());
    let ran = scratch.lines_capped(&["@1", "1:"], 100);
    let out = ran.stdout();
    let mut rows = out.lines();
    let first = rows.next().unwrap();
    assert!(
        first.starts_with("1:word word") && first.len() < 1000,
        "{first}"
    );
    assert_eq!(
        rows.next().unwrap(),
        "[ctxoff] output capped at 100 tokens: line 1 is longer than that and was cut (--all shows it whole): lines 2–2 not shown (1 lines); continue with `ctxoff lines json_1 2:2`, narrow the range, or use --all"
    );
    let ran = scratch.grep_capped(&["@1", "word"], 100);
    assert!(ran.stdout().starts_with("1:word word"));
    assert!(ran.stdout().contains("line 1 cut"));
}

#[test]
fn invalid_regex_is_a_clear_error() {
    let scratch = Scratch::new();
    scratch.add("cargo_1.txt", b"a\n");
    assert_eq!(
        scratch.grep_err(&["@1", "error[E0"]),
        "invalid regex 'error[E0': unclosed character class (use -F to search for it as a fixed string)"
    );
    assert_eq!(
        scratch.grep(&["@1", "a(", "-F"]).err,
        "ctxoff: no match for 'a(' in cargo_1 (1 lines searched)\n"
    );
}

#[test]
fn binary_outputs_are_refused_naming_their_type() {
    let scratch = Scratch::new();
    let png = std::fs::read(Path::new(CORPUS).join("png-fd-logo.bin")).unwrap();
    scratch.add("curl_1.bin", &png);
    scratch.add("cat_2.bin", b"\x00\x01\x02\x03");
    let err = scratch.grep_err(&["@1", "x"]);
    assert!(
        err.starts_with("curl_1.bin is binary output (PNG image, 10,183 bytes)"),
        "{err}"
    );
    let err = scratch.lines_err(&["@2", "1:"]);
    assert!(
        err.starts_with("cat_2.bin is binary output (binary data, 4 bytes)"),
        "{err}"
    );
}

#[test]
fn lines_plain_reproduces_every_corpus_file() {
    let scratch = Scratch::new();
    let mut files: Vec<(PathBuf, Vec<u8>)> = text_corpus()
        .into_iter()
        .map(|p| {
            let raw = std::fs::read(&p).unwrap();
            (p, raw)
        })
        .collect();
    files.push(("no final newline".into(), b"a\nb\xff\x00\nlast".to_vec()));
    files.push(("empty lines".into(), b"\n\n\n".to_vec()));
    files.push(("one byte".into(), b"x".to_vec()));
    for (i, (path, raw)) in files.iter().enumerate() {
        scratch.add(&format!("f_{}.txt", i + 1), raw);
        let reference = format!("@{}", i + 1);
        let ran = scratch.lines(&[&reference, "1:", "--plain", "--all"]);
        assert!(ran.out == *raw, "{}", path.display());
        assert_eq!(code(ran.code), 0);
        // Numbered and cleaned, as grep -n '' shows the cleaned file.
        let ran = scratch.lines(&[&reference, "1:", "--all"]);
        let numbered: String = String::from_utf8(cleaned(raw))
            .unwrap()
            .lines()
            .enumerate()
            .map(|(n, l)| format!("{}:{l}\n", n + 1))
            .collect();
        assert!(ran.stdout() == numbered, "{}", path.display());
    }
}

#[test]
fn lines_ranges() {
    let scratch = Scratch::new();
    let raw: String = (1..=50).map(|i| format!("l{i}\n")).collect();
    scratch.add("seq_1.txt", raw.as_bytes());
    let out = |words: &[&str]| scratch.lines(words).stdout();
    assert_eq!(out(&["@1", "7"]), "7:l7\n");
    assert_eq!(out(&["@1", "3:5"]), "3:l3\n4:l4\n5:l5\n");
    assert_eq!(out(&["@1", ":2"]), "1:l1\n2:l2\n");
    assert_eq!(out(&["@1", "49:"]), "49:l49\n50:l50\n");
    assert_eq!(out(&["@1", "-3:"]), "48:l48\n49:l49\n50:l50\n");
    assert_eq!(out(&["@1", "-3:", "--plain"]), "l48\nl49\nl50\n");
    assert_eq!(out(&["@1", "-500:"]).lines().count(), 50);
    assert_eq!(
        out(&["@1", "1:2", "3", "10:11", "-1:"]),
        "1:l1\n2:l2\n3:l3\n--\n10:l10\n11:l11\n--\n50:l50\n"
    );
    assert_eq!(out(&["@1", "1:2", "10", "--plain"]), "l1\nl2\nl10\n");
    // Flags after ranges are flags, not ranges.
    assert_eq!(out(&["@1", "-2:", "--plain", "--all"]), "l49\nl50\n");
    let ran = scratch.lines(&["@1", "48:60"]);
    assert_eq!(ran.stdout(), "48:l48\n49:l49\n50:l50\n");
    assert_eq!(
        ran.err,
        "ctxoff: seq_1 has 50 lines: showing 48:50 of 48:60\n"
    );
    assert_eq!(
        scratch.lines_err(&["@1", "51"]),
        "range 51 starts past the end: seq_1 has 50 lines"
    );
    assert_eq!(
        scratch.lines_err(&["@1", "51:"]),
        "range 51: starts past the end: seq_1 has 50 lines"
    );
    assert_eq!(
        scratch.lines_err(&["@1", "0"]),
        "bad range '0': line numbers start at 1"
    );
    assert_eq!(
        scratch.lines_err(&["@1", "5:3"]),
        "bad range '5:3': it ends before it starts"
    );
    assert_eq!(
        scratch.lines_err(&["@1", "abc"]),
        "bad range 'abc': expected N, A:B, A:, :B or -N: (line numbers start at 1)"
    );
    scratch.add("empty_2.txt", b"");
    assert_eq!(
        scratch.lines_err(&["@2", "1"]),
        "range 1 starts past the end: empty_2 has 0 lines"
    );
    assert_eq!(
        scratch.lines_err(&["@2", "-5:"]),
        "range -5: starts past the end: empty_2 has 0 lines"
    );
}

/// The last lines are numbered right whether the line count comes from the manifest (read
/// backwards) or from reading the file (no manifest entry).
#[test]
fn lines_from_the_end_with_and_without_the_manifest() {
    let raw = std::fs::read(Path::new(CORPUS).join("git-log-stat-tokio.txt")).unwrap();
    let clean = String::from_utf8(cleaned(&raw)).unwrap();
    let all: Vec<&str> = clean.lines().collect();
    let expect = |from: usize, to: usize| -> String {
        (from..=to)
            .map(|n| format!("{n}:{}\n", all[n - 1]))
            .collect()
    };
    let total = all.len();
    let with_manifest = Scratch::new();
    with_manifest.add("git_1.txt", &raw);
    let without = Scratch::new();
    std::fs::write(without.store.session_dir().join("git_1.txt"), &raw).unwrap();
    for scratch in [&with_manifest, &without] {
        assert_eq!(
            scratch.lines(&["@1", "-20:"]).stdout(),
            expect(total - 19, total)
        );
        assert_eq!(scratch.lines(&["@1", "-1:"]).stdout(), expect(total, total));
        assert_eq!(
            scratch.lines(&["@1", "69000:69010"]).stdout(),
            expect(69000, 69010)
        );
        assert_eq!(
            scratch.lines(&["@1", &total.to_string()]).stdout(),
            expect(total, total)
        );
        let past = (total + 1).to_string();
        assert!(
            scratch
                .lines_err(&["@1", &past])
                .ends_with("has 70,219 lines")
        );
    }
    // A manifest whose count disagrees with the file is not trusted for reading backwards.
    let lying = Scratch::new();
    lying.add("git_1.txt", &raw);
    let mut entry = ctxoff::store::read_manifest(&lying.store.session_dir()).remove(0);
    entry.lines = 80_000_000;
    lying.manifest(&entry);
    assert!(
        lying
            .lines(&["@1", "69000:69001"])
            .stdout()
            .starts_with("69000:")
    );
}

#[test]
fn lines_cap_says_how_to_continue() {
    let scratch = Scratch::new();
    let raw: String = (1..=3000)
        .map(|i| format!("line number {i} of the log\n"))
        .collect();
    scratch.add("make_1.txt", raw.as_bytes());
    let out = scratch.lines_capped(&["@1", "1:", "2990:"], 200).stdout();
    let note = out.lines().last().unwrap();
    let shown = out.lines().count() - 1;
    assert_eq!(
        note,
        format!(
            "[ctxoff] output capped at 200 tokens: lines {}–3,000 not shown ({} lines), nor ranges 2990:; continue with `ctxoff lines make_1 {}:3000`, narrow the range, or use --all",
            shown + 1,
            crate::support::thousands(3000 - shown as u64),
            shown + 1
        )
    );
    // In --plain mode the note starts on its own line even after a last line without newline.
    scratch.add("tail_2.txt", "x ".repeat(100).as_bytes());
    let out = scratch
        .lines_capped(&["@2", "1:", "--plain"], 2000)
        .stdout();
    assert_eq!(out, "x ".repeat(100));
    let out = scratch
        .lines_capped(&["@2", "1", "1", "--plain"], 150)
        .stdout();
    assert_eq!(
        out,
        format!(
            "{}\n[ctxoff] output capped at 150 tokens: lines 1–1 not shown (1 lines); continue with `ctxoff lines tail_2 1:1 --plain`, narrow the range, or use --all\n",
            "x ".repeat(100)
        )
    );
}

#[test]
fn references_and_their_errors() {
    let scratch = Scratch::new();
    let path = scratch.add("cargo_1.txt", b"hello\n");
    scratch.add("seq_2.txt", b"1\n2\n");
    std::fs::create_dir(scratch.store.root.join("other")).unwrap();
    std::fs::write(scratch.store.root.join("other/make_3.txt"), "made\n").unwrap();
    for reference in [
        "@1",
        "cargo_1",
        "cargo_1.txt",
        "s/cargo_1",
        path.to_str().unwrap(),
    ] {
        assert_eq!(
            scratch.lines(&[reference, "1"]).stdout(),
            "1:hello\n",
            "{reference}"
        );
    }
    assert_eq!(scratch.lines(&["@last", "2"]).stdout(), "2:2\n");
    assert_eq!(scratch.lines(&["other/make_3", "1"]).stdout(), "1:made\n");
    assert_eq!(
        scratch.lines_err(&["cargo_9", "1"]),
        "no output 'cargo_9' in session s; it has: cargo_1, seq_2 (try ctxoff list)"
    );
    let outside = tempfile::NamedTempFile::new().unwrap();
    let err = scratch.grep_err(&[outside.path().to_str().unwrap(), "x"]);
    assert!(err.contains("outside the scratch root"), "{err}");
    let dotted = format!(
        "{}/s/../../../../../../../../../../etc/passwd",
        scratch.store.root.display()
    );
    assert!(
        scratch
            .lines_err(&[&dotted, "1"])
            .contains("outside the scratch root")
    );
    std::os::unix::fs::symlink(
        outside.path(),
        scratch.store.session_dir().join("evil_4.txt"),
    )
    .unwrap();
    let err = scratch.lines_err(&["evil_4", "1"]);
    assert!(
        err.contains("is a symbolic link to") && err.contains("outside the scratch root"),
        "{err}"
    );
    let err = scratch.grep_err(&["@last", "x"]);
    assert!(err.contains("is a symbolic link to"), "{err}");
}

#[test]
fn is_reference_decides_the_grep_dispatch() {
    use ctxoff::store::reference::is_reference;
    let scratch = Scratch::new();
    let path = scratch.add("cargo_1.txt", b"x\n");
    for word in [
        "@last",
        "@1",
        "@7",
        "cargo_1",
        "s/cargo_1",
        path.to_str().unwrap(),
    ] {
        assert!(is_reference(word, &scratch.store), "{word}");
    }
    for word in [
        "-rn",
        "foo",
        "-e",
        "cargo_2",
        "src/",
        "TODO",
        "s/cargo_2",
        "/etc/hosts",
        ".",
    ] {
        assert!(!is_reference(word, &scratch.store), "{word}");
    }
}

#[test]
fn retrieval_refreshes_last_use() {
    let scratch = Scratch::new();
    let path = scratch.add("cargo_1.txt", b"a\n");
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000);
    let set_old = || {
        std::fs::File::open(&path)
            .unwrap()
            .set_times(std::fs::FileTimes::new().set_accessed(old))
            .unwrap()
    };
    let accessed = || std::fs::metadata(&path).unwrap().accessed().unwrap();
    set_old();
    scratch.lines(&["@1", "1"]);
    assert!(accessed() > old);
    set_old();
    scratch.grep(&["@1", "a"]);
    assert!(accessed() > old);
}

#[test]
fn list_shows_present_outputs_newest_last() {
    let scratch = Scratch::new();
    scratch.add("cargo_1.txt", b"a\nb\n");
    scratch.add("seq_2.txt", b"1\n");
    let gone = scratch.add("gone_3.txt", b"x\n");
    std::fs::remove_file(gone).unwrap();
    scratch.add("pytest_4.txt", b"partial\n");
    scratch.manifest(&Entry {
        n: 4,
        file: "pytest_4.txt".into(),
        name: "pytest".into(),
        argv: vec!["pytest".into()],
        complete: false,
        ..Entry::default()
    });
    std::fs::write(scratch.store.session_dir().join("orphan_5.txt"), "o\n").unwrap();
    let out = scratch.list(&[]);
    let rows: Vec<&str> = out.lines().collect();
    assert_eq!(
        rows[0],
        format!("session s ({})", scratch.store.session_dir().display())
    );
    assert_eq!(rows.len(), 5, "{out}");
    assert!(
        rows[1].starts_with("  @1  cargo_1.txt   ")
            && rows[1].contains("2 lines")
            && rows[1].contains("1,234 tokens"),
        "{out}"
    );
    assert!(
        rows[1].ends_with("exit 0  cargo --flag 'two words'"),
        "{out}"
    );
    assert!(rows[2].contains("@2  seq_2.txt"), "{out}");
    assert!(
        rows[3].contains("@4  pytest_4.txt") && rows[3].ends_with("pytest [incomplete]"),
        "{out}"
    );
    assert!(
        rows[4].contains("@5  orphan_5.txt") && rows[4].ends_with("(not in the manifest)"),
        "{out}"
    );
    assert!(!out.contains("gone_3"));
    assert!(rows[1].contains("s ago"), "{out}");

    let json: serde_json::Value = serde_json::from_str(&scratch.list(&["--json"])).unwrap();
    let outputs = json.as_array().unwrap();
    assert_eq!(outputs.len(), 4);
    assert_eq!(outputs[0]["file"], "cargo_1.txt");
    assert_eq!(outputs[0]["session"], "s");
    assert_eq!(outputs[0]["lines"], 2);
    assert_eq!(outputs[2]["complete"], false);
    assert_eq!(outputs[3]["in_manifest"], false);

    std::fs::create_dir(scratch.store.root.join("zz")).unwrap();
    std::fs::create_dir(scratch.store.root.join("other")).unwrap();
    std::fs::write(scratch.store.root.join("other/make_1.txt"), "m\n").unwrap();
    let all = scratch.list(&["--all"]);
    assert!(
        all.contains("session other") && all.contains("session s ("),
        "{all}"
    );
    assert!(!all.contains("session zz"), "{all}");
}

#[test]
fn list_shows_an_interrupted_capture_at_its_size_on_disk() {
    // A capture killed mid-way leaves its first manifest line (0 bytes, 0 lines) and a file of
    // what it wrote: list showed "0 lines 0 bytes".
    let scratch = Scratch::new();
    let path = scratch.store.session_dir().join("make_1.txt");
    std::fs::write(&path, "built\n".repeat(4_000)).unwrap();
    scratch.manifest(&Entry {
        n: 1,
        file: "make_1.txt".into(),
        name: "make".into(),
        argv: vec!["make".into()],
        complete: false,
        ..Entry::default()
    });
    let out = scratch.list(&[]);
    let row = out.lines().nth(1).unwrap();
    assert!(row.contains("? lines  24,000 bytes"), "{out}");
    assert!(row.ends_with("make [incomplete]"), "{out}");
    let json: serde_json::Value = serde_json::from_str(&scratch.list(&["--json"])).unwrap();
    assert_eq!(json[0]["bytes"], 24_000);
    assert_eq!(json[0]["complete"], false);
}

#[test]
fn list_of_an_empty_session_says_so() {
    let scratch = Scratch::new();
    assert_eq!(
        scratch.list(&[]),
        format!(
            "no outputs in session s under {}\n",
            scratch.store.root.display()
        )
    );
    assert_eq!(scratch.list(&["--json"]), "[]\n");
}

/// Times grep and lines on the 1 GiB log next to rg, GNU grep, sed and tail, printing ratios.
/// Not a test: run with
/// `bash tests/fixtures/corpus/gen-big.sh /tmp/big && cargo test --release --test integration bench_big -- --ignored --nocapture`
/// (`CTXOFF_BIG` overrides the file).
#[test]
#[ignore]
fn bench_big() {
    use std::time::Instant;
    let big = std::env::var("CTXOFF_BIG").unwrap_or("/tmp/big/log-1g.txt".into());
    let scratch = Scratch::new();
    let path = scratch.store.session_dir().join("log_1.txt");
    std::fs::hard_link(&big, &path).expect("the big file and the temp dir on one file system");
    let size = std::fs::metadata(&path).unwrap().len();
    let newlines = ctxoff_count_newlines(&path);
    scratch.manifest(&Entry {
        n: 1,
        file: "log_1.txt".into(),
        name: "log".into(),
        bytes: size,
        lines: newlines,
        complete: true,
        ..Entry::default()
    });
    // The same file without a manifest entry: lines must count to number the last lines.
    let path2 = scratch.store.session_dir().join("log_2.txt");
    std::fs::hard_link(&big, &path2).unwrap();
    let sink = scratch._dir.path().join("sink");
    let shell = |cmd: &str| {
        let t = Instant::now();
        let status = Command::new("sh")
            .arg("-c")
            .arg(format!("{cmd} > {}", sink.display()))
            .status()
            .unwrap();
        assert!(status.code().unwrap() <= 1, "{cmd}");
        t.elapsed().as_secs_f64()
    };
    let best = |f: &mut dyn FnMut() -> f64| (0..3).map(|_| f()).fold(f64::MAX, f64::min);
    let file = path.display().to_string();
    println!("{size} bytes, {newlines} lines; best of 3, seconds");
    let cases: &[(&[&str], &str, &str)] = &[
        (&["panicked"], "rg -n panicked", "grep -n panicked"),
        (
            &[r"error\[E[0-9]+\]", "-C2"],
            r"rg -n -C2 'error\[E[0-9]+\]'",
            r"grep -n -E -C2 'error\[E[0-9]+\]'",
        ),
        (
            &["-i", "warning: unused"],
            "rg -n -i 'warning: unused'",
            "grep -n -i 'warning: unused'",
        ),
        (&["-w", "ok", "-c"], "rg -c -w ok", "grep -c -w ok"),
        (&["-v", "INFO", "-c"], "rg -c -v INFO", "grep -c -v INFO"),
    ];
    for (args, rg, gnu) in cases {
        let mut words = vec!["@1"];
        words.extend_from_slice(args);
        words.push("--all");
        let ours = best(&mut || {
            let t = Instant::now();
            scratch.grep(&words);
            t.elapsed().as_secs_f64()
        });
        let rg_t = best(&mut || shell(&format!("{rg} {file}")));
        let gnu_t = best(&mut || shell(&format!("LC_ALL=C.UTF-8 {gnu} {file}")));
        println!(
            "grep {:<32} ctxoff {ours:6.3}  rg {rg_t:6.3}  grep {gnu_t:6.3}  ctxoff/rg {:4.2}",
            args.join(" "),
            ours / rg_t
        );
    }
    let last = newlines;
    let near_end = format!("{}:{}", last - 100, last - 80);
    let middle = format!("{}:{}", last / 2, last / 2 + 20);
    let line_cases: Vec<(String, Vec<String>, String)> = vec![
        (
            "lines @1 -20:".into(),
            vec!["@1".into(), "-20:".into()],
            "tail -n 20".into(),
        ),
        (
            "lines @2 -20: (no manifest)".into(),
            vec!["@2".into(), "-20:".into()],
            "tail -n 20".into(),
        ),
        (
            format!("lines @1 {near_end}"),
            vec!["@1".into(), near_end.clone()],
            format!("sed -n '{}p;{}q'", near_end.replace(':', ","), last - 80),
        ),
        (
            format!("lines @1 {middle}"),
            vec!["@1".into(), middle.clone()],
            format!("sed -n '{}p;{}q'", middle.replace(':', ","), last / 2 + 20),
        ),
    ];
    for (label, words, other) in &line_cases {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let ours = best(&mut || {
            let t = Instant::now();
            scratch.lines(&words);
            t.elapsed().as_secs_f64()
        });
        let other_t = best(&mut || shell(&format!("{other} {file}")));
        println!("{label:<38} ctxoff {ours:6.3}  {other:<28} {other_t:6.3}");
    }
}

fn ctxoff_count_newlines(path: &Path) -> u64 {
    use std::io::Read;
    let mut f = std::fs::File::open(path).unwrap();
    let mut buf = vec![0u8; 1 << 20];
    let mut n = 0;
    loop {
        let k = f.read(&mut buf).unwrap();
        if k == 0 {
            return n;
        }
        n += buf[..k].iter().filter(|&&b| b == b'\n').count() as u64;
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 200, ..Default::default() })]

    /// On arbitrary bytes (escape sequences, carriage returns, invalid UTF-8, NUL, missing final
    /// newline) grep prints what GNU grep prints for the cleaned file, and lines --plain
    /// reproduces the bytes; nothing panics.
    #[test]
    fn grep_and_lines_agree_with_gnu_grep_on_any_bytes(
        raw in proptest::collection::vec(proptest::sample::select(b"ab  \n\n\n\r\x1b[m\xff\x00_-".to_vec()), 0..300),
        pattern in proptest::sample::select(vec!["a", "b", "ab", "^a", "b$", "^$", "a b", "[^a]", "a|b", "_", "-", "\u{fffd}"]),
        before in 0u64..4,
        after in 0u64..4,
        max in proptest::option::of(0u64..5),
        invert: bool,
        word: bool,
    ) {
        let scratch = Scratch::new();
        scratch.add("p_1.txt", &raw);
        let clean = scratch._dir.path().join("cleaned");
        std::fs::write(&clean, cleaned(&raw)).unwrap();
        let (b, a) = (format!("-B{before}"), format!("-A{after}"));
        let m = max.map(|m| format!("-m{m}"));
        let mut options = vec![b.as_str(), a.as_str()];
        options.extend(m.as_deref());
        if invert { options.push("-v"); }
        if word { options.push("-w"); }
        let (expected, expected_code) = gnu_grep(&clean, &options, pattern);
        let mut words = vec!["@1", pattern, "--all"];
        words.extend_from_slice(&options);
        let ran = scratch.grep(&words);
        proptest::prop_assert_eq!(String::from_utf8_lossy(&ran.out), String::from_utf8_lossy(&expected), "{:?}", options);
        proptest::prop_assert_eq!(code(ran.code), expected_code);
        if !raw.is_empty() {
            proptest::prop_assert_eq!(scratch.lines(&["@1", "1:", "--plain", "--all"]).out, raw);
        }
    }
}

/// The pathological inputs of gen-big.sh (one 100 MiB line, 1 MiB of spaces, 4 MiB of one
/// letter, 50 MiB of minified JSON): output stays capped (in tokens: 2,500 tokens of spaces are
/// some 300 KB) and quick. Run with
/// `cargo test --release --test integration big_inputs -- --ignored --nocapture`.
#[test]
#[ignore]
fn big_inputs_stay_capped() {
    use std::time::Instant;
    let scratch = Scratch::new();
    let files = [
        "one-line-100m.txt",
        "spaces-1m.txt",
        "letter-4m.txt",
        "minified-50m.json",
    ];
    for (i, name) in files.iter().enumerate() {
        let ext = if name.ends_with(".json") {
            "json"
        } else {
            "txt"
        };
        let file = format!("big_{}.{ext}", i + 1);
        std::fs::hard_link(
            Path::new("/tmp/big").join(name),
            scratch.store.session_dir().join(&file),
        )
        .unwrap();
        let reference = format!("@{}", i + 1);
        for words in [
            vec![reference.as_str(), "1"],
            vec![reference.as_str(), "-1:", "--plain"],
        ] {
            let t = Instant::now();
            let ran = scratch.lines(&words);
            println!(
                "lines {words:?} on {name}: {} bytes out in {:.3}s",
                ran.out.len(),
                t.elapsed().as_secs_f64()
            );
            assert!(ran.out.len() < 1_000_000);
        }
        let t = Instant::now();
        let ran = scratch.grep(&[&reference, "a"]);
        println!(
            "grep a on {name}: {} bytes out in {:.3}s",
            ran.out.len(),
            t.elapsed().as_secs_f64()
        );
        assert!(ran.out.len() < 1_000_000);
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    println!(
        "{}",
        status.lines().find(|l| l.starts_with("VmHWM")).unwrap()
    );
}
