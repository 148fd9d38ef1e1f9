//! Notable lines: lines of the omitted part that contain a failure word, counted exactly per
//! kind, with the first line of each kind and a few short examples. It does not decide what is
//! omitted (the preview does) nor recognise output shapes (the fact summarisers do).
//!
//! # Word rules (the default kinds)
//!
//! | kind      | words (any case)                                          |
//! |-----------|-----------------------------------------------------------|
//! | `error`   | error, errors                                             |
//! | `warning` | warn, warns, warned, warning, warnings                    |
//! | `fail`    | fail, fails, failed, failing, failure, failures           |
//! | `panic`   | panic, panics, panicked, panicking                        |
//! | `fatal`   | fatal                                                     |
//! | `exception` | exception, exceptions                                   |
//! | `traceback` | traceback, tracebacks                                   |
//! | `assert`  | assert, asserts, asserted, assertion, assertions          |
//! | `segfault`| segmentation fault, segfault, segfaults, segfaulted       |
//! | `denied`  | denied                                                    |
//!
//! A word counts when it stands on its own: not glued to a letter, digit or `_` on either side
//! (`stderr`, `on_error`, `errorCount`, `terror` and `Errorf` do not count), except at a
//! CamelCase hump: `TypeError`, `IOError`, `AssertionError`, `PermissionDenied`,
//! `ErrorKind` count (a capitalised word glued to a letter before it, or followed by
//! another capitalised word). A count of zero is not a failure: a word right after
//! `0 ` or `no ` (`0 failed`, `0 errors`, `no warnings`) does not count, so a passing
//! `test result: ok. 5 passed; 0 failed` is not reported as a failure. Nor does a word called
//! in code: `assert!(…)`, `panic!{…}`, `assert(x)`, `t.error(…)` (but `error(s)` counts).
//! A line counts once per kind however often the word appears in it.
//!
//! Some lines hold failure words that are no failure, and do not count: a test runner's passing
//! and progress lines (`=== RUN   TestOptionPanic`, `--- PASS: …`, `test x ... ok`, `✓ throws
//! error`, `PASSED`, TAP's `ok 3 - …`, automake's `PASS: …`) and source code echoed in a
//! report (pytest's `>       assert …`, the numbered code frames of compilers, linters and test
//! runners: ` 12 |   {f_error, "error", 2}`, `   |`). See [`is_incidental`].
//!
//! Examples are chosen for the reader: lines of the omitted range shaped like a diagnostic
//! (the word opens the line, or follows a `file:line:` location or a test runner's marker) before
//! lines where it is incidental, the most telling kinds first.
//!
//! Configured patterns (Rust regex syntax) add one kind each, labelled by the pattern itself.

use std::collections::VecDeque;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use anyhow::{Context, bail};
use regex::{Regex, RegexSet};
use serde_json::json;

use crate::format::{cut, thousands};

struct Family {
    label: &'static str,
    stems: &'static [&'static str],
    suffixes: &'static [&'static str],
}

/// The default kinds, in the order the summary lists them.
const FAMILIES: &[Family] = &[
    Family {
        label: "error",
        stems: &["error"],
        suffixes: &["s"],
    },
    Family {
        label: "warning",
        stems: &["warn"],
        suffixes: &["ings", "ing", "ed", "s"],
    },
    Family {
        label: "fail",
        stems: &["fail"],
        suffixes: &["ures", "ure", "ing", "ed", "s"],
    },
    Family {
        label: "panic",
        stems: &["panic"],
        suffixes: &["king", "ked", "s"],
    },
    Family {
        label: "fatal",
        stems: &["fatal"],
        suffixes: &[],
    },
    Family {
        label: "exception",
        stems: &["exception"],
        suffixes: &["s"],
    },
    Family {
        label: "traceback",
        stems: &["traceback"],
        suffixes: &["s"],
    },
    Family {
        label: "assert",
        stems: &["assert"],
        suffixes: &["ions", "ion", "ed", "s"],
    },
    Family {
        label: "segfault",
        stems: &["segmentation fault", "segfault"],
        suffixes: &["ed", "s"],
    },
    Family {
        label: "denied",
        stems: &["denied"],
        suffixes: &[],
    },
];

/// Which kinds an example is picked for first: the most telling failures.
const EXAMPLE_PRIORITY: &[&str] = &[
    "panic",
    "error",
    "fatal",
    "fail",
    "segfault",
    "exception",
    "traceback",
    "assert",
    "denied",
    "warning",
];

/// At most this many kinds (the bits of a `u64` mask).
const MAX_KINDS: usize = 64;

/// The patterns that make a line notable: the default failure words plus configured regexes.
#[derive(Clone, Debug)]
pub(crate) struct NotablePatterns {
    extra: Option<RegexSet>,
    /// The configured patterns one by one, to find where an example's match is.
    extra_each: Vec<Regex>,
    labels: Vec<String>,
}

/// Finds the default stems in ASCII-lower-cased text: case-sensitive literals get the SIMD
/// (Teddy) search, which a case-insensitive search cannot use. The word rules are then checked
/// by hand. Built on first use: output that passes through never pays for it.
struct Stems {
    finder: AhoCorasick,
    /// The kind of each pattern.
    kinds: Vec<usize>,
}

impl Stems {
    fn hits<'h>(&'static self, lower: &'h [u8]) -> impl Iterator<Item = StemHit> + 'h {
        self.finder.find_iter(lower).map(|m| StemHit {
            start: m.start(),
            end: m.end(),
            kind: self.kinds[m.pattern().as_usize()],
        })
    }
}

fn stems() -> &'static Stems {
    static STEMS: LazyLock<Stems> = LazyLock::new(|| {
        let (patterns, kinds): (Vec<&str>, Vec<usize>) = FAMILIES
            .iter()
            .enumerate()
            .flat_map(|(kind, f)| f.stems.iter().map(move |&s| (s, kind)))
            .unzip();
        let finder = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostFirst)
            .build(patterns)
            .expect("the default stems build a searcher");
        Stems { finder, kinds }
    });
    &STEMS
}

/// A default stem found in a text: its byte range and its kind.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StemHit {
    pub start: usize,
    pub end: usize,
    kind: usize,
}

impl StemHit {
    /// The same hit, counted from byte `offset` of the text (the start of its line).
    pub(crate) fn relative_to(self, offset: usize) -> StemHit {
        StemHit {
            start: self.start - offset,
            end: self.end - offset,
            kind: self.kind,
        }
    }
}

/// The default stems in `text` (any case), in order. Searching a whole text at once is much
/// faster than line by line, and since no stem spans a line, a line's hits are the ones a
/// search of the line alone finds (see [`default_kinds`]). `lower` is scratch space.
pub(crate) fn notable_stems<'a>(
    text: &[u8],
    lower: &'a mut Vec<u8>,
) -> impl Iterator<Item = StemHit> + 'a {
    lower.clear();
    lower.extend_from_slice(text);
    lower.make_ascii_lowercase();
    stems().hits(lower)
}

/// The default kinds in `line`, as a bit mask, given the stems found in it (ranges relative to
/// the line): those that stand as words.
pub(crate) fn default_kinds(line: &str, hits: impl IntoIterator<Item = StemHit>) -> u64 {
    hits.into_iter().fold(0, |mask, hit| {
        if mask & (1 << hit.kind) == 0
            && counts_as_word(line, hit.start, hit.end, FAMILIES[hit.kind].suffixes)
        {
            mask | 1 << hit.kind
        } else {
            mask
        }
    })
}

/// Whether `line` says that something failed, in the default failure words standing as words
/// (`error`, `failed`, `fatal`, `panicked`, `segfault`, `denied`), not the milder `warning`,
/// `exception` or `assert`: for a log whose levels do not say it (Redis's warnings).
pub(crate) fn says_it_failed(line: &str) -> bool {
    const FAILED: [&str; 6] = ["error", "fail", "fatal", "panic", "segfault", "denied"];
    let mask = default_kinds(line, notable_stems(line.as_bytes(), &mut Vec::new()));
    FAMILIES
        .iter()
        .enumerate()
        .any(|(i, f)| mask & (1 << i) != 0 && FAILED.contains(&f.label))
}

impl Default for NotablePatterns {
    fn default() -> NotablePatterns {
        NotablePatterns {
            extra: None,
            extra_each: Vec::new(),
            labels: FAMILIES.iter().map(|f| f.label.to_owned()).collect(),
        }
    }
}

impl NotablePatterns {
    /// The default set plus one kind per configured regex. A bad regex is an error naming it.
    pub(crate) fn new(extra: &[String]) -> anyhow::Result<NotablePatterns> {
        let mut patterns = NotablePatterns::default();
        if extra.is_empty() {
            return Ok(patterns);
        }
        if FAMILIES.len() + extra.len() > MAX_KINDS {
            bail!(
                "too many notable patterns: {} (at most {})",
                extra.len(),
                MAX_KINDS - FAMILIES.len()
            );
        }
        for pattern in extra {
            let regex = Regex::new(pattern)
                .with_context(|| format!("invalid notable pattern `{pattern}`"))?;
            patterns.extra_each.push(regex);
        }
        patterns.extra = Some(RegexSet::new(extra).context("invalid notable patterns")?);
        patterns.labels.extend(extra.iter().cloned());
        Ok(patterns)
    }

    #[cfg(test)]
    pub(crate) fn labels(&self) -> &[String] {
        &self.labels
    }

    fn kinds(&self) -> usize {
        self.labels.len()
    }

    #[cfg(test)]
    pub(crate) fn classify(&self, line: &str) -> u64 {
        self.classify_with(line, &mut Vec::new())
    }

    /// The kinds present in `line`, as a bit mask (bit `i` = `labels[i]`). `lower` is scratch
    /// space, reused so that no line allocates.
    pub(crate) fn classify_with(&self, line: &str, lower: &mut Vec<u8>) -> u64 {
        default_kinds(line, notable_stems(line.as_bytes(), lower)) | self.extra_kinds(line)
    }

    /// The configured patterns' kinds in `line`, as a bit mask.
    fn extra_kinds(&self, line: &str) -> u64 {
        let mut mask = 0u64;
        if let Some(extra) = &self.extra {
            for i in extra.matches(line).iter() {
                mask |= 1 << (FAMILIES.len() + i);
            }
        }
        mask
    }

    /// Where in `line` the first hit of `kind` starts (a byte offset). `lower` is scratch
    /// space. (Only examples need it: a few lines per kind.)
    fn hit_at(&self, line: &str, lower: &mut Vec<u8>, kind: usize) -> Option<usize> {
        match FAMILIES.get(kind) {
            // The most diagnostic-looking hit (the first of those).
            Some(family) => notable_stems(line.as_bytes(), lower)
                .filter(|hit| hit.kind == kind)
                .filter(|hit| counts_as_word(line, hit.start, hit.end, family.suffixes))
                .map(|hit| hit.start)
                .fold(None, |best: Option<(usize, u8)>, at| {
                    let score = example_score(line, at);
                    match best {
                        Some((_, s)) if s >= score => best,
                        _ => Some((at, score)),
                    }
                })
                .map(|(at, _)| at),
            None => self.extra_each[kind - FAMILIES.len()]
                .find(line)
                .map(|m| m.start()),
        }
    }
}

/// An example line within `EXAMPLE_CHARS_SHOWN` characters that shows the hit at byte `at`:
/// the line's start when the hit is near it, else a window from a little before the hit.
fn example_text(line: &str, at: usize) -> String {
    let before = line[..at].chars().count();
    if before + EXAMPLE_LEAD_CHARS <= EXAMPLE_CHARS_SHOWN {
        return cut(line, EXAMPLE_CHARS_SHOWN);
    }
    let start = line[..at]
        .char_indices()
        .nth(before - EXAMPLE_LEAD_CHARS)
        .map_or(0, |(i, _)| i);
    format!("…{}", cut(&line[start..], EXAMPLE_CHARS_SHOWN - 1))
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The word rules of the module documentation, for a stem found at `start..end` of `line`.
fn counts_as_word(line: &str, start: usize, end: usize, suffixes: &[&str]) -> bool {
    let bytes = line.as_bytes();
    let stem = &bytes[start..end];
    if start > 0 {
        let prev = bytes[start - 1];
        let camel_hump = prev.is_ascii_alphabetic()
            && stem[0].is_ascii_uppercase()
            && stem.get(1).is_some_and(|b| b.is_ascii_lowercase());
        if is_word_byte(prev) && !camel_hump {
            return false;
        }
        if after_zero_or_no(&bytes[..start]) {
            return false;
        }
    }
    let rest = &bytes[end..];
    let last_of_stem = stem[stem.len() - 1];
    std::iter::once("")
        .chain(suffixes.iter().copied())
        .any(|suffix| {
            let Some(word_rest) = rest.get(..suffix.len()) else {
                return false;
            };
            if !word_rest.eq_ignore_ascii_case(suffix.as_bytes()) {
                return false;
            }
            let last = word_rest.last().copied().unwrap_or(last_of_stem);
            if is_call(&rest[suffix.len()..], stem[0]) {
                return false;
            }
            match rest.get(suffix.len()) {
                None => true,
                Some(&next) => {
                    let pascal_hump = next.is_ascii_uppercase()
                        && last.is_ascii_lowercase()
                        && stem[0].is_ascii_uppercase();
                    !is_word_byte(next) || pascal_hump
                }
            }
        })
}

/// What follows a word makes it a call in code, not a report: a Rust macro's `!(` (`assert!(`,
/// `panic!{`), or a lower-case word's `(` (`assert(x)`, `t.error(`, `panic(err)`); not the
/// plural `(s)` of `error(s)`.
fn is_call(after: &[u8], first: u8) -> bool {
    match after {
        [b'!', b'(' | b'{' | b'[', ..] => true,
        [b'(', rest @ ..] => first.is_ascii_lowercase() && !rest.starts_with(b"s)"),
        _ => false,
    }
}

/// `…0 ` or `…no ` (a whole word) right before a failure word, or before one lower-case word
/// before it (`No syntax errors detected`, `0 type errors`): a count of zero.
fn after_zero_or_no(before: &[u8]) -> bool {
    let Some(before) = before.strip_suffix(b" ") else {
        return false;
    };
    if zero_or_no(before) {
        return true;
    }
    let word = before
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_lowercase())
        .count();
    word > 0
        && before[..before.len() - word]
            .strip_suffix(b" ")
            .is_some_and(zero_or_no)
}

/// Whether `before` ends in the whole word `0` or `no`.
fn zero_or_no(before: &[u8]) -> bool {
    // `0` as a whole number: `0 failed`, `(0 errors)`, but not `1.0 failed` nor `worker-0 error`.
    let word_start = |prefix: &[u8]| {
        prefix
            .last()
            .is_none_or(|&b| b.is_ascii_whitespace() || b == b'(' || b == b'[')
    };
    if let Some(prefix) = before.strip_suffix(b"0") {
        return word_start(prefix);
    }
    if before.len() >= 2 && before[before.len() - 2..].eq_ignore_ascii_case(b"no") {
        return word_start(&before[..before.len() - 2]);
    }
    false
}

/// The first hits kept with their line numbers, to take the head's hits out at the end. The
/// head is a few hundred tokens, so it holds far fewer hit lines than this.
const FIRST_HITS_KEPT: usize = 4096;
/// Example candidates kept per kind, in each part of the output (see [`Examples`]).
const EXAMPLES_PER_KIND: usize = 6;
/// How long an example may be: a small token budget (at most 4 × 30 tokens).
const EXAMPLE_CHARS_SHOWN: usize = 90;
/// Characters shown before a hit that lies beyond the start of a long example line.
const EXAMPLE_LEAD_CHARS: usize = 30;
/// How much of a hit line is kept while it may still be in the tail.
const RECENT_CHARS: usize = 512;

/// Whether a line's failure words are incidental: a test runner's passing or progress line, or
/// source code echoed in a report or a code frame. Such lines are neither counted nor shown.
pub(crate) fn is_incidental(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']);
    let Some(&first) = t.as_bytes().first() else {
        return false;
    };
    // RSpec echoes the line that failed: `Failure/Error: expect(x).to eq(y)`, numbered in an
    // aggregate (`11.1) Failure/Error: …`); its message and location follow on their own lines.
    let unnumbered = if first.is_ascii_digit() {
        t.split_once(") ")
            .filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
            .map_or(t, |(_, rest)| rest)
    } else {
        t
    };
    if unnumbered.starts_with("Failure/Error: ") {
        return true;
    }
    // libtest and unittest: `name ... ok`, `name (module.Class.name) ... skipped 'why'`
    if t.ends_with(" ... ok")
        || t.ends_with(" ... expected failure")
        || (t.ends_with('\'') && t.contains(" ... skipped '"))
    {
        return true;
    }
    // pytest -v: `tests/a.py::test_x PASSED [ 10%]` (a test's name may hold any word)
    if t.contains("::")
        && [" PASSED", " SKIPPED", " XFAIL", " XPASS"]
            .iter()
            .any(|w| t.contains(w))
    {
        return true;
    }
    match first {
        // go test: `=== RUN   TestX`, `--- PASS: TestX (0.00s)`, `--- SKIP: …`; a compiler's
        // note or help annotates a diagnostic counted on its own line (`= note: this error
        // originates in the macro …`, `help: … and panic if …`)
        b'=' if super::shapes::valgrind::is_banner(t) => true,
        b'=' | b'h' | b'n' => [
            "=== RUN",
            "=== PAUSE",
            "=== CONT",
            "=== NAME",
            "= note: ",
            "= help: ",
            "help: ",
            "note: ",
        ]
        .iter()
        .any(|p| t.starts_with(p)),
        b'-' => t.starts_with("--- PASS: ") || t.starts_with("--- SKIP: "),
        // Maven Surefire: a test class that passed (`[INFO] Tests run: 5, Failures: 0, …`)
        b'[' => t.starts_with("[INFO] Tests run: "),
        b'T' => t.starts_with("Tests run: ") && t.contains(", Failures: 0, Errors: 0,"),
        // libtest: `test a::b ... ignored, reason`
        b't' => t.starts_with("test ") && t.contains(" ... ignored"),
        // bun test: `(pass) name [0.09ms]`, `(skip) name`
        b'(' => t.starts_with("(pass) ") || t.starts_with("(skip) ") || t.starts_with("(todo) "),
        // TAP: `ok 12 - name`
        b'o' => t
            .strip_prefix("ok ")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit())),
        // automake `PASS: name`, jest `PASS src/x.test.js`, TestNG `PASSED: name`
        b'P' => t.starts_with("PASS: ") || t.starts_with("PASS ") || t.starts_with("PASSED: "),
        // pytest's echoed source: `>       assert x == y`
        b'>' => {
            (line.starts_with('>') && (t.len() == 1 || t[1..].starts_with([' ', '\t'])))
                || is_code_frame(t)
        }
        // rustc's gutter: `   |`
        b'|' => true,
        // automake's zero counts: `# ERROR: 0`, `# FAIL:  0`
        b'#' => t
            .strip_prefix("# ")
            .and_then(|r| r.split_once(':'))
            .is_some_and(|(word, n)| {
                ["FAIL", "ERROR", "XFAIL", "XPASS"].contains(&word) && n.trim() == "0"
            }),
        b'0'..=b'9' => is_code_frame(t),
        // ✓ ✔ √: a passing test
        0xe2 => t.starts_with('✓') || t.starts_with('✔') || t.starts_with('√'),
        _ => false,
    }
}

/// A numbered source line of a code frame: ` 12 |   code`, `12| code`, `  > 12 | code`,
/// `12 │ code` (Biome, miette), a diff's frame with both numbers (`2503 2503 │   code`),
/// rustc's suggestion `378 ~     code`, or a line number and a tab (`497\t  code`).
fn is_code_frame(t: &str) -> bool {
    let t = t.trim_start_matches([' ', '>']);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return false;
    }
    // bandit's and `cat -n`'s `497\t    code`
    if t[digits..].starts_with('\t') {
        return true;
    }
    let mut gutter = t[digits..].trim_start_matches(' ');
    let second = gutter.bytes().take_while(u8::is_ascii_digit).count();
    if second > 0 && gutter[second..].starts_with(' ') {
        gutter = gutter[second..].trim_start_matches(' ');
    }
    gutter.starts_with('|') || gutter.starts_with('│') || gutter.starts_with("~ ") || gutter == "~"
}

/// The score of the best examples, which nothing replaces.
const BEST_SCORE: u8 = 3;

/// How much a line looks like a diagnostic about the hit at byte `at`: 3 when the word opens
/// the line (after indentation or a test runner's marker: `error: …`, `FAIL …`, `E   …`,
/// `panic: …`, `TypeError: …`), follows a `file:line:` location, or is a whole JSON value
/// (`"level":"error"`); 2 when it opens a clause (after `: `, `] `, `- `) or is capitalised;
/// 1 otherwise; 0 when the word is part of a path or a qualified name (`src/panicking.rs:689`,
/// `std::panicking::begin_panic`, `pkg/errors/wrap.go`), which no example shows.
fn example_score(line: &str, at: usize) -> u8 {
    let before = &line[..at];
    if in_a_name(line, at) {
        return 0;
    }
    if (before.ends_with("\":\"") || before.ends_with("\": \""))
        && line[at..]
            .find('"')
            .is_some_and(|end| line[at..at + end].bytes().all(|b| b.is_ascii_alphabetic()))
    {
        return BEST_SCORE;
    }
    let lead = before.trim_start_matches([' ', '\t', '●', '×', '✗', '✘', '❯', '⨯', '*', '!', '#']);
    // A word glued to the hit (`TypeError`): the word's start decides.
    let word_start = lead
        .rfind(|c: char| !c.is_alphanumeric() && c != '_')
        .map_or(0, |i| {
            i + lead[i..].chars().next().map_or(1, char::len_utf8)
        });
    let lead = &lead[..word_start];
    if lead.is_empty() || lead == "E " || lead.trim_end() == "E" || is_location(lead) {
        return BEST_SCORE;
    }
    let hit = &line[at..];
    if lead.ends_with(": ") || lead.ends_with("] ") || lead.ends_with("- ") {
        return 2;
    }
    if hit.starts_with(|c: char| c.is_ascii_uppercase()) {
        return 2;
    }
    1
}

/// Whether the word holding byte `at` is a component of a path or a qualified name: after a
/// `/` or `\\`, before a `/`, `::` or a `.` glued to a letter (`panicking.rs`), or after a `.`
/// or `::` unless it ends the line or a `:` follows (`urllib3.exceptions.MaxRetryError: …` is
/// an exception's header, `requests.exceptions.HTTPError(msg)` a call).
fn in_a_name(line: &str, at: usize) -> bool {
    let glued = |c: char| c.is_alphanumeric() || c == '_';
    let start = line[..at].trim_end_matches(glued).len();
    let end = line.len() - line[at..].trim_start_matches(glued).len();
    let (before, rest) = (&line[..start], &line[end..]);
    let qualified = before.ends_with('.') || before.ends_with("::");
    before.ends_with(['/', '\\'])
        || rest.starts_with('/')
        || rest.starts_with("::")
        || rest
            .strip_prefix('.')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_alphabetic()))
        || (qualified && !rest.is_empty() && !rest.starts_with(':'))
}

/// `src/a.c:12:5: `, `a.py:3: `, `src/a.ts(3,4): `: a location ending a line's lead.
fn is_location(lead: &str) -> bool {
    let lead = lead.trim_end();
    let Some(lead) = lead.strip_suffix(':').or_else(|| lead.strip_suffix(" -")) else {
        return false;
    };
    let number_end = lead.trim_end_matches(|c: char| {
        c.is_ascii_digit() || c == ':' || c == ',' || c == '(' || c == ')'
    });
    number_end.len() < lead.len() && !number_end.is_empty() && !number_end.contains(' ')
}

/// What the rest of the summary shows, which examples need not repeat.
#[derive(Clone, Copy, Default)]
pub(crate) struct Shown<'a> {
    /// Output lines whose failure was shown, and how.
    pub(crate) failures: &'a [(u64, String)],
    /// Every other line the summary shows: its facts, failure lists, head and tail.
    pub(crate) lines: &'a [&'a str],
}

/// An example's text without the marks of a cut.
fn uncut(text: &str) -> &str {
    text.trim_matches('…').trim()
}

/// Whether the summary says what the example would already: a failure shown nearby (with its
/// detail, which contains the example's start), a failure whose entry quotes the example
/// whole (`test a::b ... FAILED`), or any line shown elsewhere (a fact's first error, the head
/// or tail) that contains the example's text.
fn said(example: &Candidate, shown: Shown) -> bool {
    let text = uncut(&example.text);
    let start = |text: &'_ str| -> String {
        let start = text
            .char_indices()
            .nth(40)
            .map_or(text, |(i, _)| &text[..i]);
        start.trim_end().to_owned()
    };
    // A runner's word before the failure's name (`Error: suite:0:name (in the log).`) is
    // not in the name as listed.
    let name = text
        .split_once(": ")
        .filter(|(word, _)| word.len() <= 12 && word.bytes().all(|b| b.is_ascii_alphabetic()))
        .map(|(_, rest)| rest.trim_end_matches('.'));
    let named = name.map(start);
    let start = start(text);
    // A log's record begins with its time and process: its end is what a failure's detail
    // quotes (`DETAIL:  Failing row contains …`).
    let end = example.end.as_str();
    shown.failures.iter().any(|(line, said)| {
        *line == example.line
            || (line.abs_diff(example.line) <= 3
                && (said.contains(&start)
                    || (end.len() >= SAID_LEN && said.contains(end))
                    || named.as_ref().is_some_and(|n| said.contains(n))))
            // The runner's line that said it failed, quoted by the failure's entry.
            || (text.len() >= SAID_LEN && said.contains(text))
            // A record whose message a failure quotes whole, the same error again.
            || (end.len() >= SAID_END && said.contains(end))
    }) || [Some(text), name, (end.len() >= SAID_END).then_some(end)]
        .into_iter()
        .flatten()
        .any(|text| text.len() >= SAID_LEN && shown.lines.iter().any(|l| l.contains(text)))
}

/// How long an example must be to be recognised in another line (a short one, `FAIL: x`, may
/// be part of anything).
const SAID_LEN: usize = 16;
/// How long a line's end must be to say the line anywhere in the summary: a record's whole
/// message after its time and process (`password authentication failed for user "app"`).
const SAID_END: usize = 32;

/// Whether an example tells more than its failure word: a bare heading (`failures:`,
/// `FAILED`) does not.
fn informative(example: &Candidate) -> bool {
    example
        .text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .nth(1)
        .is_some()
}

/// An example candidate: a line, how diagnostic it looks, and the text shown.
#[derive(Clone, Debug)]
struct Candidate {
    line: u64,
    score: u8,
    text: String,
    /// The line's last `END_CHARS` characters, which the text shown may have cut.
    end: String,
    /// The line's form (its values left out).
    form: String,
}

impl Candidate {
    fn new(line: u64, score: u8, text: &str, at: usize) -> Candidate {
        let end = text
            .char_indices()
            .rev()
            .nth(END_CHARS - 1)
            .map_or(text, |(i, _)| &text[i..])
            .trim();
        Candidate {
            line,
            score,
            text: example_text(text, at),
            end: end.to_owned(),
            form: super::shapes::names::form(&cut(text, FORM_CHARS)),
        }
    }

    /// Whether it says what `other` says: a line of the same form that ends the same (the
    /// same record at another time, by another process).
    fn says_as(&self, other: &Candidate) -> bool {
        self.form == other.form && self.end == other.end
    }
}

/// How much of a line's end an example keeps to be recognised in a failure's detail.
const END_CHARS: usize = 40;
/// How much of a line its form is made of.
const FORM_CHARS: usize = 300;

/// The best candidates of one kind in one part of the output: highest score, then earliest.
#[derive(Clone, Debug, Default)]
struct Best {
    kept: Vec<Candidate>,
}

impl Best {
    fn offer(&mut self, candidate: Candidate) {
        if self.kept.len() < EXAMPLES_PER_KIND {
            self.kept.push(candidate);
            return;
        }
        // Replace the worst (lowest score, latest) when the new one scores higher.
        let worst = (0..self.kept.len())
            .min_by_key(|&i| (self.kept[i].score, std::cmp::Reverse(self.kept[i].line)))
            .expect("full");
        if candidate.score > self.kept[worst].score {
            self.kept[worst] = candidate;
        }
    }

    fn would_take(&self, score: u8) -> bool {
        self.kept.len() < EXAMPLES_PER_KIND || self.kept.iter().any(|c| c.score < score)
    }
}

/// Example candidates, per kind, kept apart by where they lie: within the first `window` lines
/// (maybe the head), after them (surely not the head), and among the last `window` lines
/// (maybe the tail, until later lines push them out of it). Whatever the head and tail turn
/// out to be, the best candidates of the omitted range are among those kept.
#[derive(Clone, Debug, Default)]
struct Examples {
    early: Vec<Best>,
    later: Vec<Best>,
    /// Hit lines among the last `window` lines: number, kinds, scores per kind, text.
    recent: VecDeque<(u64, u64, String)>,
}

/// Streams over every line, counting hits per kind, keeping what `finish` needs to count only
/// the omitted range: the first hits (for the head) and the hits among the last
/// `max_tail_lines` lines (for the tail).
#[derive(Clone)]
pub(crate) struct NotableCounter {
    patterns: NotablePatterns,
    totals: Vec<u64>,
    first_hits: Vec<(u64, u64)>,
    first_hits_kept: usize,
    /// Every hit on a line ≤ `covered` is in `first_hits`.
    covered: u64,
    saturated: bool,
    /// Per kind, the first hit after `covered` once `first_hits` is full (0: none).
    first_after_cover: Vec<u64>,
    tail: VecDeque<(u64, u64)>,
    /// The most lines the head or the tail can have.
    max_tail_lines: u64,
    last_line: u64,
    examples: Examples,
    lower: Vec<u8>,
}

impl NotableCounter {
    pub(crate) fn new(patterns: &NotablePatterns, max_tail_lines: u64) -> NotableCounter {
        let kinds = patterns.kinds();
        NotableCounter {
            patterns: patterns.clone(),
            totals: vec![0; kinds],
            first_hits: Vec::new(),
            first_hits_kept: FIRST_HITS_KEPT,
            covered: 0,
            saturated: false,
            first_after_cover: vec![0; kinds],
            tail: VecDeque::new(),
            max_tail_lines,
            last_line: 0,
            examples: Examples {
                early: vec![Best::default(); kinds],
                later: vec![Best::default(); kinds],
                recent: VecDeque::new(),
            },
            lower: Vec::new(),
        }
    }

    /// Keeps fewer first hits, to test what happens when the head holds more.
    #[cfg(test)]
    pub(crate) fn keeping_first_hits(mut self, n: usize) -> NotableCounter {
        self.first_hits_kept = n;
        self
    }

    pub(crate) fn line(&mut self, number: u64, text: &str) {
        self.line_with(number, text, None);
    }

    /// `default_kinds`: the line's default kinds when already known (see [`default_kinds`]);
    /// then only the configured patterns are looked for.
    pub(crate) fn line_with(&mut self, number: u64, text: &str, default_kinds: Option<u64>) {
        self.last_line = number;
        if !self.saturated {
            self.covered = number;
        }
        while self
            .tail
            .front()
            .is_some_and(|&(n, _)| n.saturating_add(self.max_tail_lines) <= number)
        {
            self.tail.pop_front();
        }
        while let Some(&(n, _, _)) = self.examples.recent.front()
            && n.saturating_add(self.max_tail_lines) <= number
        {
            let (n, mask, text) = self.examples.recent.pop_front().expect("front");
            self.settle_example(n, mask, &text);
        }
        let mask = match default_kinds {
            Some(mask) => mask | self.patterns.extra_kinds(text),
            None => self.patterns.classify_with(text, &mut self.lower),
        };
        if mask == 0 || is_incidental(text) {
            return;
        }
        for kind in bits(mask) {
            self.totals[kind] += 1;
            if self.saturated && self.first_after_cover[kind] == 0 {
                self.first_after_cover[kind] = number;
            }
        }
        if self.max_tail_lines > 0 {
            let kept = crate::format::cut(text, RECENT_CHARS);
            self.examples.recent.push_back((number, mask, kept));
        } else {
            self.settle_example(number, mask, text);
        }
        if !self.saturated {
            self.first_hits.push((number, mask));
            self.saturated = self.first_hits.len() == self.first_hits_kept;
        }
        if self.max_tail_lines > 0 {
            self.tail.push_back((number, mask));
        }
    }

    /// Offers a hit line that is surely not in the tail as an example of each of its kinds.
    fn settle_example(&mut self, number: u64, mask: u64, text: &str) {
        let early = number <= self.max_tail_lines;
        for kind in bits(mask) {
            let best = if early {
                &mut self.examples.early[kind]
            } else {
                &mut self.examples.later[kind]
            };
            if !best.would_take(BEST_SCORE) {
                // Full of the best examples there are: no need to read this one.
                continue;
            }
            let Some(at) = self.patterns.hit_at(text, &mut self.lower, kind) else {
                continue;
            };
            let score = example_score(text, at);
            if score > 0 && best.would_take(score) {
                best.offer(Candidate::new(number, score, text, at));
            }
        }
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        use std::mem::size_of;
        let best = |b: &Vec<Best>| {
            b.iter()
                .map(|b| {
                    b.kept.capacity() * size_of::<Candidate>()
                        + b.kept
                            .iter()
                            .map(|c| c.text.capacity() + c.end.capacity() + c.form.capacity())
                            .sum::<usize>()
                })
                .sum::<usize>()
        };
        self.totals.capacity() * 8
            + self.lower.capacity()
            + self.first_hits.capacity() * 16
            + self.first_after_cover.capacity() * 8
            + self.tail.capacity() * 16
            + best(&self.examples.early)
            + best(&self.examples.later)
            + self
                .examples
                .recent
                .iter()
                .map(|(_, _, t)| t.capacity() + 40)
                .sum::<usize>()
    }

    /// Counts over the `omitted` range; examples are taken from it, except what `shown` (shown
    /// elsewhere in the summary already) says already.
    pub(crate) fn finish(
        mut self,
        omitted: Option<std::ops::RangeInclusive<u64>>,
        shown: Shown,
        examples_shown: usize,
    ) -> Option<NotableReport> {
        let (a, b) = omitted?.into_inner();
        let b = b.min(self.last_line);
        if a == 0 || a > b {
            return None;
        }
        // Count exactly over [from, to]: the omitted range, unless the head or tail were longer
        // than what was kept, in which case the (stated) range is narrowed or widened.
        let from = if a - 1 <= self.covered {
            a
        } else {
            self.covered + 1
        };
        let tail_start = self.last_line.saturating_sub(self.max_tail_lines);
        let to = b.max(tail_start);
        if from > to {
            return None;
        }
        let mut counts = self.totals.clone();
        for &(_, mask) in self.first_hits.iter().filter(|&&(n, _)| n < from) {
            for kind in bits(mask) {
                counts[kind] = counts[kind].saturating_sub(1);
            }
        }
        for &(_, mask) in self.tail.iter().filter(|&&(n, _)| n > to) {
            for kind in bits(mask) {
                counts[kind] = counts[kind].saturating_sub(1);
            }
        }
        let in_range = |n: u64| (from..=to).contains(&n);
        let first = |kind: usize| {
            self.first_hits
                .iter()
                .find(|&&(n, mask)| mask & (1 << kind) != 0 && n >= from)
                .map(|&(n, _)| n)
                .or(Some(self.first_after_cover[kind]).filter(|&n| n > 0))
                .filter(|&n| in_range(n))
        };
        let kinds: Vec<NotableKind> = (0..counts.len())
            .filter(|&kind| counts[kind] > 0)
            .filter_map(|kind| {
                Some(NotableKind {
                    label: self.patterns.labels[kind].clone(),
                    count: counts[kind],
                    first: first(kind)?,
                })
            })
            .collect();
        if kinds.is_empty() {
            return None;
        }
        // The hit lines still in the window: those in the range are candidates too.
        for (n, mask, text) in std::mem::take(&mut self.examples.recent) {
            if in_range(n) {
                self.settle_example(n, mask, &text);
            }
        }
        let examples = self.pick_examples(&in_range, shown, examples_shown);
        Some(NotableReport {
            from,
            to,
            omitted: (a, b),
            kinds,
            examples,
        })
    }

    /// Up to `max` examples from the range: the best of each kind, the most telling
    /// kinds first, then the next best of those kinds.
    fn pick_examples(
        &self,
        in_range: &dyn Fn(u64) -> bool,
        shown: Shown,
        max: usize,
    ) -> Vec<(u64, String)> {
        let priority = |label: &str| {
            EXAMPLE_PRIORITY
                .iter()
                .position(|&p| p == label)
                .unwrap_or(EXAMPLE_PRIORITY.len())
        };
        let mut order: Vec<usize> = (0..self.patterns.labels.len()).collect();
        order.sort_by_key(|&kind| priority(&self.patterns.labels[kind]));
        let ranked: Vec<Vec<&Candidate>> = order
            .iter()
            .map(|&kind| {
                let mut c: Vec<&Candidate> = self.examples.early[kind]
                    .kept
                    .iter()
                    .chain(&self.examples.later[kind].kept)
                    .filter(|c| in_range(c.line) && informative(c) && !said(c, shown))
                    .collect();
                c.sort_by_key(|c| (std::cmp::Reverse(c.score), c.line));
                c
            })
            .collect();
        let mut examples: Vec<&Candidate> = Vec::new();
        // Each kind's best first; then more of the most telling kinds, diagnostics only.
        for round in 0..EXAMPLES_PER_KIND {
            let before = examples.len();
            for candidates in &ranked {
                if examples.len() == max {
                    break;
                }
                // Not a line chosen already, nor one that says the same.
                let next = candidates.iter().find(|c| {
                    !examples.iter().any(|e| {
                        e.line == c.line || uncut(&e.text) == uncut(&c.text) || c.says_as(e)
                    })
                });
                if let Some(c) = next
                    && (round == 0 || c.score == 3)
                {
                    examples.push(c);
                }
            }
            if examples.len() == before {
                break;
            }
        }
        let mut examples: Vec<(u64, String)> =
            examples.iter().map(|c| (c.line, c.text.clone())).collect();
        examples.sort();
        examples
    }
}

fn bits(mask: u64) -> impl Iterator<Item = usize> {
    (0..MAX_KINDS).filter(move |&i| mask & (1 << i) != 0)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NotableKind {
    pub(crate) label: String,
    pub(crate) count: u64,
    pub(crate) first: u64,
}

/// Counts of notable lines over the lines `from..=to` (the omitted range when everything needed
/// was kept, which is the case whenever the head and tail fit the preview).
#[derive(Clone, Debug)]
pub(crate) struct NotableReport {
    pub(crate) from: u64,
    pub(crate) to: u64,
    pub(crate) omitted: (u64, u64),
    pub(crate) kinds: Vec<NotableKind>,
    pub(crate) examples: Vec<(u64, String)>,
}

impl NotableReport {
    pub(crate) fn render(&self) -> Vec<String> {
        let what = if (self.from, self.to) == self.omitted {
            "omitted lines contain".to_owned()
        } else {
            format!(
                "lines {}–{} contain",
                thousands(self.from),
                thousands(self.to)
            )
        };
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .map(|k| {
                let first = if k.count == 1 { "" } else { "first " };
                format!(
                    "{} ×{} ({first}L{})",
                    k.label,
                    thousands(k.count),
                    thousands(k.first)
                )
            })
            .collect();
        let mut lines = vec![format!("[ctxoff] {what}: {}", kinds.join(" · "))];
        lines.extend(
            self.examples
                .iter()
                .map(|(n, text)| format!("  L{}: {text}", thousands(*n))),
        );
        lines
    }

    /// `'(?i)error|fail'`-style `grep` arguments for the kinds found, the most telling first.
    pub(crate) fn hint(&self) -> Option<String> {
        let mut labels: Vec<&str> = self.kinds.iter().map(|k| k.label.as_str()).collect();
        let priority = |label: &str| {
            EXAMPLE_PRIORITY
                .iter()
                .position(|&p| p == label)
                .unwrap_or(EXAMPLE_PRIORITY.len())
        };
        labels.sort_by_key(|l| priority(l));
        labels.truncate(3);
        let words: Vec<String> = labels
            .iter()
            .map(|&l| {
                FAMILIES
                    .iter()
                    .find(|f| f.label == l)
                    .map_or_else(|| l.to_owned(), |f| f.stems[0].to_owned())
            })
            .collect();
        if words.iter().any(|w| w.contains('\'')) {
            return None;
        }
        Some(format!("'(?i){}' -C 2", words.join("|")))
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        json!({
            "from": self.from,
            "to": self.to,
            "kinds": self.kinds.iter().map(|k| json!({"kind": k.label, "count": k.count, "first": k.first})).collect::<Vec<_>>(),
            "examples": self.examples.iter().map(|(n, text)| json!({"line": n, "text": text})).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(line: &str) -> Vec<String> {
        let p = NotablePatterns::default();
        bits(p.classify(line))
            .map(|k| p.labels[k].clone())
            .collect()
    }

    #[test]
    fn a_compilers_notes_help_and_suggestions_are_incidental() {
        for line in [
            "   = note: this error originates in the macro `mul_impl` (in Nightly builds)",
            "   = help: the trait `Mul<u64>` is not implemented for `u32`",
            "help: you can convert a `u32` to a `usize` and panic if the converted value doesn't fit",
            "note: the lint level is defined here: #[warn(clippy::pedantic)] (error-prone)",
            "378 ~                     Some(ignore::Error::Partial(_)) | None => (),",
            " 12 |     panic!(\"boom\")",
        ] {
            assert!(is_incidental(line), "{line}");
        }
        for line in [
            "error: could not compile `x`",
            "notes: 3 errors",
            "1 - error in foo",
            "12 ~error",
            "helper: panic at start",
            "src/a.rs:3:1: note: this is where the error was",
        ] {
            assert!(!is_incidental(line), "{line}");
        }
    }

    #[test]
    fn valgrind_banners_passing_unittest_lines_and_rspec_echoes_are_incidental() {
        for line in [
            "==32183== Memcheck, a memory error detector",
            "==14339== Helgrind, a thread error detector",
            "==32183== For lists of detected and suppressed errors, rerun with: -s",
            "testLoadExtensionFailure (test_apis.TestErrors.testLoadExtensionFailure) ... ok",
            "test_error (t.T.test_error) ... skipped 'needs the error module'",
            "     Failure/Error: expect(subject.ordinalize(n)).to eq(expected)",
            "      11.1) Failure/Error: expect(subject.underscore(i(\"1éBellisimo\"))).to eql(\"1_é\")",
            // pytest -v, whatever the path starts with
            "tests/test_error_store.py::TestMergeErrors::test_merging_none_and_string PASSED [ 38%]",
            "src/t.py::test_error_page SKIPPED (needs a server)                       [ 40%]",
            // bun test
            "(pass) when subcommand executable fails with other error then return [0.30ms]",
        ] {
            assert!(is_incidental(line), "{line}");
        }
        assert!(!is_incidental(
            "tests/test_error_store.py::test_merge FAILED                           [ 39%]"
        ));
        for line in [
            "==32183== ERROR SUMMARY: 29 errors from 29 contexts (suppressed: 0 from 0)",
            "==32183== Invalid read of size 1",
            "=== RUN   TestX error",
        ] {
            assert_eq!(is_incidental(line), line.starts_with("=== RUN"), "{line}");
        }
    }

    #[test]
    fn word_rules() {
        assert_eq!(kinds("error[E0308]: mismatched types"), ["error"]);
        assert_eq!(kinds("ERROR: shard-007 checksum mismatch"), ["error"]);
        assert_eq!(kinds("E   ImportError: cannot import name"), ["error"]);
        assert_eq!(
            kinds("AssertionError: perimeter was 4.8"),
            ["error", "assert"]
        );
        assert_eq!(kinds("thread 'x' panicked at src/lib.rs:1:1"), ["panic"]);
        assert_eq!(
            kinds("fatal runtime error: stack overflow"),
            ["error", "fatal"]
        );
        assert_eq!(kinds("Segmentation fault (core dumped)"), ["segfault"]);
        assert_eq!(kinds("open: Permission denied"), ["denied"]);
        // Called in code, not reported: a Rust macro, a lower-case function.
        for code in [
            "         assert!(lowercase.is_heap_allocated());",
            "    panic!{\"no\"}",
            "  assert(len <= max);",
            "\tt.error(\"x\")",
        ] {
            assert_eq!(kinds(code), Vec::<String>::new(), "{code}");
        }
        assert_eq!(kinds("3 error(s) found"), ["error"]);
        assert_eq!(kinds("Err(Error(\"bad\"))"), ["error"]);
        assert_eq!(kinds("2 warnings emitted"), ["warning"]);
        assert_eq!(kinds("WARN deprecated"), ["warning"]);
        assert_eq!(kinds("Traceback (most recent call last):"), ["traceback"]);
        assert_eq!(kinds("match io::ErrorKind::NotFound"), ["error"]);
        assert!(kinds("stderr on_error terror errorCount t.Errorf failover").is_empty());
        assert!(kinds("test result: ok. 5 passed; 0 failed; 0 ignored").is_empty());
        assert!(kinds("Found 0 errors. no warnings").is_empty());
        assert_eq!(kinds("10 failed"), ["fail"]);
        assert_eq!(kinds("1.0 failed"), ["fail"]);
        assert_eq!(kinds("known error; no errors here"), ["error"]);
        assert_eq!(kinds("worker-0 error"), ["error"]);
        assert!(kinds("(0 errors)").is_empty());
        assert!(kinds("No syntax errors detected in src/Logger.php").is_empty());
        assert!(kinds("Found 0 type errors").is_empty());
        assert_eq!(kinds("no such error"), Vec::<String>::new());
        assert_eq!(kinds("Errors parsing src/Logger.php"), ["error"]);
        assert_eq!(kinds("got 1 error"), ["error"]);
    }

    #[test]
    fn failure_words_say_it_failed_and_milder_ones_do_not() {
        for failed in [
            "Background saving error",
            "Errors trying to shut down the server.",
            "Failed opening the temp RDB file temp-1.rdb: Permission denied",
        ] {
            assert!(says_it_failed(failed), "{failed}");
        }
        for not in [
            "Server initialized",
            "DeprecationWarning: x is deprecated",
            "errorless run, no exception",
        ] {
            assert!(!says_it_failed(not), "{not}");
        }
    }

    #[test]
    fn a_long_example_shows_its_hit() {
        let p = NotablePatterns::new(&["TODO".to_owned()]).unwrap();
        let mut c = NotableCounter::new(&p, 0);
        let padding = "x".repeat(300);
        c.line(1, "fine");
        c.line(
            2,
            &format!(r#"{{"pad":"{padding}","level":"error","note":"TODO later"}}"#),
        );
        c.line(3, "warning near the start");
        let r = c.finish(Some(1..=3), Shown::default(), 4).unwrap();
        let shown: Vec<&str> = r.examples.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            shown,
            [
                r#"…xxxxxxxxxxxxxxxxxxx","level":"error","note":"TODO later"}"#,
                "warning near the start"
            ]
        );
    }

    /// A failure word inside a path or a qualified name is counted but never an example
    /// (a backtrace's `panicking.rs` frames were shown as the panic's example).
    #[test]
    fn a_word_in_a_path_or_a_qualified_name_is_no_example() {
        let mut c = NotableCounter::new(&NotablePatterns::default(), 0);
        let frames = [
            "             at /rustc/5980/library/std/src/panicking.rs:689:5",
            "   1: std::panicking::begin_panic_handler",
            "  File \"/srv/app/errors/wrap.py\", line 3",
            "    raise requests.exceptions.HTTPError(msg)",
        ];
        for (n, line) in (1..).zip(frames) {
            c.line(n, line);
        }
        c.line(5, "upload failed, retrying: connection error");
        let r = c.finish(Some(1..=5), Shown::default(), 4).unwrap();
        let counts: Vec<(&str, u64)> = r
            .kinds
            .iter()
            .map(|k| (k.label.as_str(), k.count))
            .collect();
        assert_eq!(
            counts,
            [("error", 3), ("fail", 1), ("panic", 2), ("exception", 1)]
        );
        let shown: Vec<u64> = r.examples.iter().map(|(n, _)| *n).collect();
        assert_eq!(shown, [5], "{:?}", r.examples);
    }

    #[test]
    fn configured_patterns_add_kinds_and_bad_ones_are_named() {
        let p = NotablePatterns::new(&["TODO".to_owned()]).unwrap();
        assert_eq!(
            bits(p.classify("TODO: error"))
                .map(|k| p.labels[k].as_str())
                .collect::<Vec<_>>(),
            ["error", "TODO"]
        );
        let err = NotablePatterns::new(&["ok".to_owned(), "(".to_owned()]).unwrap_err();
        assert!(format!("{err:#}").contains("`(`"), "{err:#}");
    }

    #[test]
    fn counts_only_the_omitted_range() {
        let mut c = NotableCounter::new(&NotablePatterns::default(), 3);
        for n in 1..=20 {
            c.line(n, if n % 2 == 0 { "error here" } else { "fine" });
        }
        // Head 1..=4, tail 18..=20: errors on 6, 8, …, 16.
        let r = c.finish(Some(5..=17), Shown::default(), 4).unwrap();
        assert_eq!(
            r.kinds,
            [NotableKind {
                label: "error".into(),
                count: 6,
                first: 6
            }]
        );
        assert_eq!(
            r.render()[0],
            "[ctxoff] omitted lines contain: error ×6 (first L6)"
        );
        assert_eq!(r.render()[1], "  L6: error here");
    }
}
