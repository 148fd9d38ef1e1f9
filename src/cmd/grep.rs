//! `ctxoff grep REF PATTERN`: search an offloaded output (SPEC §5). Prints exactly what
//! `grep -n` with the same options prints for the display-cleaned file, within the token cap.
//! Whether `ctxoff grep X` means this or the grep program is `reference::is_reference`'s call.

use anyhow::{Result, anyhow};
use clap::{Arg, ArgAction, ArgMatches, Command, value_parser};
use regex::{Regex, RegexBuilder};
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::process::ExitCode;

use super::read::{Budget, Fit, LONG_LINE, LineRange, LongLines, TextFile};
use super::record::{self, Target};
use super::{Context, Run};
use crate::config::Settings;
use crate::format::{shell_quote, thousands};
use crate::text::clean_line;

/// `ctxoff grep`'s arguments.
#[derive(Debug, Clone)]
pub struct GrepArgs {
    /// The output to search.
    pub reference: String,
    pub pattern: String,
    pub ignore_case: bool,
    pub fixed_strings: bool,
    pub word_regexp: bool,
    pub invert_match: bool,
    pub after_context: Option<u64>,
    pub before_context: Option<u64>,
    pub context: Option<u64>,
    pub max_count: Option<u64>,
    pub count: bool,
    pub range: Option<String>,
    pub all: bool,
}

const LONG_ABOUT: &str = "\
Search an offloaded output

Prints the matching lines of the output REF with their line numbers and 2 lines of context, \
exactly as `grep -n -C 2` would print them for the output as displayed (ANSI colours stripped, \
carriage-return progress rendered): `LINE:text` for a match, `LINE-text` for context, `--` \
between groups. PATTERN is a Rust regular expression (https://docs.rs/regex/#syntax), or a fixed \
string with -F.

Printing stops at the offload threshold's worth of tokens, with a last `[ctxoff]` line saying how \
much was not shown; --all lifts the cap. Exit status: 0 when a line is selected, 1 when none is, 2 \
on error.

REF is @last, @N, NAME_N or SESSION/NAME_N (see `ctxoff list`), or the output's path.

Examples: ctxoff grep @last 'error\\[E\\d+\\]' -C 5 ctxoff grep cargo_4 -F 'panicked at' -m 3 \
ctxoff grep @2 -i warning -c ctxoff grep @last --range 2000: FAILED";

impl GrepArgs {
    pub fn command() -> Command {
        let flag = |id: &'static str, short: char, long: &'static str, help: &'static str| {
            Arg::new(id)
                .short(short)
                .long(long)
                .help(help)
                .action(ArgAction::SetTrue)
        };
        let lines = |id: &'static str, short: char, long: &'static str, help: &'static str| {
            Arg::new(id)
                .short(short)
                .long(long)
                .value_name("N")
                .help(help)
                .value_parser(value_parser!(u64))
        };
        Command::new("grep")
            .about("Search an offloaded output")
            .long_about(LONG_ABOUT)
            .args([
                Arg::new("reference")
                    .value_name("REF")
                    .help("The output to search: @last, @N, NAME_N, SESSION/NAME_N or its path")
                    .required(true),
                Arg::new("pattern")
                    .value_name("PATTERN")
                    .help("Regular expression (Rust syntax), or a fixed string with -F")
                    .required(true),
                flag("ignore_case", 'i', "ignore-case", "Ignore case"),
                flag(
                    "fixed_strings",
                    'F',
                    "fixed-strings",
                    "Match PATTERN as a fixed string, not a regular expression",
                ),
                flag(
                    "word_regexp",
                    'w',
                    "word-regexp",
                    "Match only whole words (as grep -w: not preceded or followed by a word \
                     character)",
                ),
                flag(
                    "invert_match",
                    'v',
                    "invert-match",
                    "Select the lines that do not match",
                ),
                lines(
                    "after_context",
                    'A',
                    "after-context",
                    "Lines of context after each selected line [default: 2, or -C]",
                ),
                lines(
                    "before_context",
                    'B',
                    "before-context",
                    "Lines of context before each selected line [default: 2, or -C]",
                ),
                lines(
                    "context",
                    'C',
                    "context",
                    "Lines of context before and after each selected line [default: 2]",
                ),
                lines(
                    "max_count",
                    'm',
                    "max-count",
                    "Stop after N selected lines (trailing context is still printed)",
                ),
                flag(
                    "count",
                    'c',
                    "count",
                    "Print only the number of selected lines",
                ),
                Arg::new("range")
                    .long("range")
                    .value_name("A:B")
                    .help("Search only these lines: A:B, A:, :B or -N: (the last N)")
                    .allow_hyphen_values(true),
                Arg::new("all")
                    .long("all")
                    .help("Print everything, without the token cap")
                    .action(ArgAction::SetTrue),
            ])
    }

    pub fn from_matches(matches: &ArgMatches) -> GrepArgs {
        let text = |id| matches.get_one::<String>(id).cloned();
        let number = |id| matches.get_one::<u64>(id).copied();
        GrepArgs {
            reference: text("reference").expect("required"),
            pattern: text("pattern").expect("required"),
            ignore_case: matches.get_flag("ignore_case"),
            fixed_strings: matches.get_flag("fixed_strings"),
            word_regexp: matches.get_flag("word_regexp"),
            invert_match: matches.get_flag("invert_match"),
            after_context: number("after_context"),
            before_context: number("before_context"),
            context: number("context"),
            max_count: number("max_count"),
            count: matches.get_flag("count"),
            range: text("range"),
            all: matches.get_flag("all"),
        }
    }
}

/// Context lines when neither -A/-B nor -C says otherwise (SPEC §5).
const DEFAULT_CONTEXT: u64 = 2;

impl Run for GrepArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        let settings = ctx.settings()?.clone();
        let matcher = Matcher::new(self)?;
        let range = self.range.as_deref().map(LineRange::parse).transpose()?;
        let read = |target: &Target, out: &mut dyn Write, err: &mut dyn Write| {
            search(self, &matcher, range, target, &settings, out, err)
        };
        record::read_back(ctx, &settings, "grep", &self.reference, read)
    }
}

/// Runs `ctxoff grep`. Matches and the cap note go to `out`; the note that nothing matched goes
/// to `err`. Returns exit status 0 when a line was selected and 1 when none was.
fn search(
    args: &GrepArgs,
    matcher: &Matcher,
    range: Option<LineRange>,
    target: &Target,
    settings: &Settings,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let mut file = TextFile::open(target.output)?;
    let short_ref = &target.short_ref;
    let max = args.max_count.unwrap_or(u64::MAX);
    if max == 0 {
        // As grep -m 0: stop before reading anything.
        return Ok(ExitCode::from(1));
    }
    let (first, last) = match range {
        Some(range) => range.bounds(|| file.line_count())?,
        None => (1, None),
    };
    let offset = match file.line_offset(first)? {
        Ok(offset) => offset,
        Err(count) if range.is_none() => {
            // An empty output: nothing to search.
            debug_assert_eq!(count, 0);
            writeln!(err, "ctxoff: no match: {short_ref} is empty")?;
            if args.count {
                writeln!(out, "0")?;
            }
            return Ok(ExitCode::from(1));
        }
        Err(count) => {
            return Err(anyhow!(
                "--range {} starts past the end: {short_ref} has {} lines",
                args.range.as_deref().unwrap_or_default(),
                thousands(count)
            ));
        }
    };

    let context = args.context.unwrap_or(DEFAULT_CONTEXT);
    let mut search = Search {
        matcher,
        invert: args.invert_match,
        before: args.before_context.unwrap_or(context),
        after: args.after_context.unwrap_or(context),
        max,
        count_only: args.count,
        out,
        budget: Budget::new((!args.all).then_some(settings.threshold), settings.encoding),
        buf: String::new(),
        selected: 0,
        shown: 0,
        last_printed: 0,
        after_left: 0,
        first_unshown: None,
        capped: false,
        cut_line: None,
        prev: VecDeque::new(),
    };
    // A line too long to hold is searched in its first LONG_LINE bytes (and said so).
    let mut blocks = file.blocks_from(offset, LongLines::Cut)?;
    let mut line = first;
    while let Some(mut block) = blocks.next_block()? {
        let mut done = false;
        if let Some(last) = last
            && let Some(i) =
                memchr::memchr_iter(b'\n', block).nth(last.saturating_sub(line) as usize)
        {
            block = &block[..=i];
            done = true;
        }
        let (next, stop) = search.block(block, line)?;
        line = next;
        if stop || done {
            break;
        }
    }

    if let (cut @ 1.., Some(first_cut)) = blocks.cut_lines() {
        writeln!(
            err,
            "ctxoff: {} longer than {} MiB searched in {} first {} MiB only (first: line {})",
            if cut == 1 {
                "1 line".to_string()
            } else {
                format!("{} lines", thousands(cut))
            },
            LONG_LINE >> 20,
            if cut == 1 { "its" } else { "their" },
            LONG_LINE >> 20,
            thousands(first + first_cut),
        )?;
    }
    let selected = search.selected;
    if args.count {
        writeln!(search.out, "{selected}")?;
    } else if selected == 0 {
        let what = if args.invert_match {
            "every line matches"
        } else {
            "no match for"
        };
        writeln!(
            err,
            "ctxoff: {what} '{}' in {short_ref} ({} lines searched)",
            args.pattern,
            thousands(line - first)
        )?;
    } else if search.capped {
        search.cap_note(short_ref, &args.pattern)?;
    }
    Ok(if selected > 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The compiled pattern, once for single lines and once for blocks of many lines.
struct Matcher {
    line: Regex,
    /// The same pattern with `^`/`$` matching at line ends, to find candidate lines in a whole
    /// block at once; a candidate is confirmed on its line alone.
    block: Regex,
}

impl Matcher {
    fn new(args: &GrepArgs) -> Result<Matcher> {
        let escaped;
        let pattern = if args.fixed_strings {
            escaped = regex::escape(&args.pattern);
            &escaped
        } else {
            &args.pattern
        };
        let build = |pattern: &str, multi_line| {
            RegexBuilder::new(pattern)
                .case_insensitive(args.ignore_case)
                .multi_line(multi_line)
                .build()
                .map_err(|e| regex_error(&args.pattern, e))
        };
        let line = build(pattern, false)?;
        if !args.word_regexp {
            return Ok(Matcher {
                block: build(pattern, true)?,
                line,
            });
        }
        // grep -w: a match not preceded and not followed by a word character. The pattern was
        // checked on its own above, so wrapping it cannot change how it parses.
        let word = format!(r"(?:^|\W)(?:{pattern})(?:\W|$)");
        Ok(Matcher {
            line: build(&word, false)?,
            block: build(&word, true)?,
        })
    }

    /// The next line at or after `pos` (a line start) that matches, as (start, end without
    /// `\n`). `text` is the block as text when displaying it changes nothing (no escape
    /// sequences, carriage returns or NULs, valid UTF-8): then the block is searched as a whole.
    fn next_match(
        &self,
        block: &[u8],
        text: Option<&str>,
        mut pos: usize,
    ) -> Option<(usize, usize)> {
        let len = block.len();
        let Some(text) = text else {
            while pos < len {
                let end = line_end(block, pos);
                if self.line.is_match(&clean_line(&block[pos..end])) {
                    return Some((pos, end));
                }
                pos = end + 1;
            }
            return None;
        };
        while pos < len {
            let m = self.block.find_at(text, pos)?;
            if m.start() == len && block[len - 1] == b'\n' {
                return None;
            }
            let start = memchr::memrchr(b'\n', &block[..m.start()]).map_or(0, |i| i + 1);
            let end = line_end(block, m.start());
            // A match that stays on its line is a match of the line; one that runs past the
            // line's end (`\s`, `[^x]` match `\n`) needs the line checked alone.
            if m.end() <= end || self.line.is_match(&text[start..end]) {
                return Some((start, end));
            }
            pos = end + 1;
        }
        None
    }
}

/// One line for an invalid pattern, with the regex crate's reason.
fn regex_error(pattern: &str, error: regex::Error) -> anyhow::Error {
    let reason = match &error {
        regex::Error::Syntax(text) => text
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("error: "))
            .unwrap_or(text.as_str())
            .to_string(),
        other => other.to_string(),
    };
    anyhow!("invalid regex '{pattern}': {reason} (use -F to search for it as a fixed string)")
}

/// The end of the line starting at `pos`: its `\n`, or the end of the block.
fn line_end(block: &[u8], pos: usize) -> usize {
    memchr::memchr(b'\n', &block[pos..]).map_or(block.len(), |i| pos + i)
}

/// Number of lines in `block[from..to]`, `from` and `to` being line starts or the block's end.
fn lines_in(block: &[u8], from: usize, to: usize) -> u64 {
    if from >= to {
        return 0;
    }
    let newlines = memchr::memchr_iter(b'\n', &block[from..to]).count() as u64;
    newlines + u64::from(to == block.len() && block[to - 1] != b'\n')
}

/// The state of one search across blocks: what has been selected and printed, pending context.
struct Search<'a> {
    matcher: &'a Matcher,
    invert: bool,
    before: u64,
    after: u64,
    max: u64,
    count_only: bool,
    out: &'a mut dyn Write,
    budget: Budget,
    buf: String,
    /// Selected lines so far (at most `max`).
    selected: u64,
    /// Selected lines printed.
    shown: u64,
    /// Number of the last line printed; 0 before the first.
    last_printed: u64,
    /// Context lines still to print after the last selected line.
    after_left: u64,
    /// The first selected line the cap kept from being printed.
    first_unshown: Option<u64>,
    /// The cap was reached: from now on lines are only counted.
    capped: bool,
    /// A line printed only in part, being longer than the whole cap.
    cut_line: Option<u64>,
    /// The last `before` lines of the previous block, for context before a block's first lines.
    prev: VecDeque<(u64, Vec<u8>)>,
}

impl Search<'_> {
    fn printing(&self) -> bool {
        !self.count_only && !self.capped
    }

    /// Searches one block whose first line is number `line`. Returns the number of the line
    /// after the block and whether the search is over (-m reached and its context printed).
    fn block(&mut self, block: &[u8], mut line: u64) -> io::Result<(u64, bool)> {
        // A NUL is displayed as `\0`, so a block with one is searched as displayed, line by line.
        let text = if memchr::memchr3(0x1b, b'\r', 0, block).is_none() {
            std::str::from_utf8(block).ok()
        } else {
            None
        };
        let len = block.len();
        let mut pos = 0;
        loop {
            if self.selected >= self.max {
                // As grep -m: after the last selected line, only its trailing context.
                while self.after_left > 0 && self.printing() && pos < len {
                    let end = line_end(block, pos);
                    self.context(line, &block[pos..end])?;
                    line += 1;
                    pos = end + 1;
                }
                let more_context = self.after_left > 0 && self.printing();
                return Ok((line, !more_context));
            }
            if pos >= len {
                break;
            }
            let found = self.matcher.next_match(block, text, pos);
            let gap_end = found.map_or(len, |(start, _)| start);
            if self.invert {
                while pos < gap_end && self.selected < self.max {
                    if !self.printing() {
                        let n = lines_in(block, pos, gap_end);
                        let take = n.min(self.max - self.selected);
                        self.selected += take;
                        if take < n {
                            return Ok((line + take, true));
                        }
                        line += n;
                        pos = gap_end;
                        break;
                    }
                    let end = line_end(block, pos);
                    self.select(block, pos, end, line)?;
                    line += 1;
                    pos = end + 1;
                }
                if pos < gap_end {
                    continue;
                }
                let Some((start, end)) = found else { break };
                self.skip(block, start, (end + 1).min(len), &mut line)?;
                pos = end + 1;
            } else {
                self.skip(block, pos, gap_end, &mut line)?;
                let Some((start, end)) = found else { break };
                self.select(block, start, end, line)?;
                line += 1;
                pos = end + 1;
            }
        }
        self.remember_tail(block, line);
        Ok((line, false))
    }

    /// Lines `block[from..to]` are not selected: print what is owed of trailing context, count
    /// the rest.
    fn skip(&mut self, block: &[u8], from: usize, to: usize, line: &mut u64) -> io::Result<()> {
        let mut pos = from;
        while self.after_left > 0 && self.printing() && pos < to {
            let end = line_end(block, pos);
            self.context(*line, &block[pos..end])?;
            *line += 1;
            pos = end + 1;
        }
        *line += lines_in(block, pos.min(to), to);
        Ok(())
    }

    fn context(&mut self, line: u64, raw: &[u8]) -> io::Result<()> {
        self.after_left -= 1;
        self.emit(line, '-', raw)?;
        Ok(())
    }

    /// Line `line` at `block[start..end]` is selected: print its context before, a separator
    /// when it does not follow what was printed last, and the line.
    fn select(&mut self, block: &[u8], start: usize, end: usize, line: u64) -> io::Result<()> {
        self.selected += 1;
        if !self.printing() {
            self.first_unshown.get_or_insert(line);
            return Ok(());
        }
        let from = line
            .saturating_sub(self.before)
            .max(self.last_printed + 1)
            .max(1);
        // Context lines in this block, walking back from the selected line.
        let mut here = Vec::new();
        let (mut pos, mut number) = (start, line);
        while number > from && pos > 0 {
            let begin = memchr::memrchr(b'\n', &block[..pos - 1]).map_or(0, |i| i + 1);
            here.push((number - 1, begin, pos - 1));
            pos = begin;
            number -= 1;
        }
        let first_printed = from.min(line);
        if self.last_printed > 0 && first_printed > self.last_printed + 1 && !self.separator()? {
            self.first_unshown = Some(line);
            return Ok(());
        }
        let earlier: Vec<(u64, Vec<u8>)> = self
            .prev
            .iter()
            .filter(|(n, _)| *n >= from && *n < number)
            .cloned()
            .collect();
        for (n, raw) in &earlier {
            if !self.emit(*n, '-', raw)? {
                self.first_unshown = Some(line);
                return Ok(());
            }
        }
        for &(n, begin, finish) in here.iter().rev() {
            if !self.emit(n, '-', &block[begin..finish])? {
                self.first_unshown = Some(line);
                return Ok(());
            }
        }
        if self.emit(line, ':', &block[start..end])? {
            self.shown += 1;
            self.after_left = self.after;
        } else {
            self.first_unshown = Some(line);
        }
        Ok(())
    }

    fn separator(&mut self) -> io::Result<bool> {
        if self.budget.fit("--\n") == Fit::Whole {
            self.out.write_all(b"--\n")?;
            return Ok(true);
        }
        self.capped = true;
        Ok(false)
    }

    /// Prints one line as `grep -n` does, if the cap allows; false when it does not.
    fn emit(&mut self, line: u64, sep: char, raw: &[u8]) -> io::Result<bool> {
        self.buf.clear();
        let _ = writeln!(self.buf, "{line}{sep}{}", clean_line(raw));
        match self.budget.fit(&self.buf) {
            Fit::Whole => self.out.write_all(self.buf.as_bytes())?,
            Fit::Prefix(n) => {
                self.out.write_all(&self.buf.as_bytes()[..n])?;
                self.out.write_all(b"\n")?;
                self.cut_line = Some(line);
                self.capped = true;
            }
            Fit::Nothing => {
                self.capped = true;
                return Ok(false);
            }
        }
        self.last_printed = line;
        Ok(true)
    }

    /// Keeps the last `before` lines of a block whole-line block for the next one's context.
    fn remember_tail(&mut self, block: &[u8], next_line: u64) {
        if self.before == 0 || !self.printing() || block.last() != Some(&b'\n') {
            return;
        }
        let mut tail = Vec::new();
        let mut end = block.len() - 1;
        let mut number = next_line - 1;
        while (tail.len() as u64) < self.before {
            let begin = memchr::memrchr(b'\n', &block[..end]).map_or(0, |i| i + 1);
            tail.push((number, block[begin..end].to_vec()));
            if begin == 0 {
                break;
            }
            end = begin - 1;
            number -= 1;
        }
        self.prev.extend(tail.into_iter().rev());
        while self.prev.len() as u64 > self.before {
            self.prev.pop_front();
        }
    }

    /// The last line when the cap stopped the output: how much was not shown, how to narrow.
    fn cap_note(&mut self, short_ref: &str, pattern: &str) -> io::Result<()> {
        let cap = thousands(self.budget.cap());
        let hidden = self.selected - self.shown;
        let mut note = format!("[ctxoff] output capped at {cap} tokens: ");
        if let Some(line) = self.cut_line {
            let _ = write!(note, "line {} cut; ", thousands(line));
        }
        match self.first_unshown {
            Some(from) if hidden > 0 => {
                let _ = write!(
                    note,
                    "{} of {} selected lines not shown (from line {}); continue with `ctxoff grep {short_ref} {} --range {from}:`, or narrow with -m N, a tighter pattern, or --all",
                    thousands(hidden),
                    thousands(self.selected),
                    thousands(from),
                    shell_quote(pattern),
                );
            }
            _ => {
                let _ = write!(
                    note,
                    "all {} selected lines shown, some of their context not; use -C 0 or --all",
                    thousands(self.selected)
                );
            }
        }
        writeln!(self.out, "{note}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(pattern: &str) -> GrepArgs {
        GrepArgs {
            reference: "@last".into(),
            pattern: pattern.into(),
            ignore_case: false,
            fixed_strings: false,
            word_regexp: false,
            invert_match: false,
            after_context: None,
            before_context: None,
            context: None,
            max_count: None,
            count: false,
            range: None,
            all: false,
        }
    }

    #[test]
    fn invalid_regex_is_one_line_suggesting_fixed_strings() {
        let err = Matcher::new(&args("foo(")).err().unwrap().to_string();
        assert_eq!(
            err,
            "invalid regex 'foo(': unclosed group (use -F to search for it as a fixed string)"
        );
        assert!(
            Matcher::new(&GrepArgs {
                fixed_strings: true,
                ..args("foo(")
            })
            .is_ok()
        );
    }

    #[test]
    fn word_pattern_cannot_escape_its_group() {
        let err = Matcher::new(&GrepArgs {
            word_regexp: true,
            ..args("a)|(b")
        })
        .err();
        assert!(err.is_some());
    }

    #[test]
    fn block_search_confirms_matches_that_cross_lines() {
        let m = Matcher::new(&args(r"a\sb")).unwrap();
        let block = b"xa\nb\na b\n";
        let text = std::str::from_utf8(block).unwrap();
        assert_eq!(m.next_match(block, Some(text), 0), Some((5, 8)));
        assert_eq!(m.next_match(block, None, 0), Some((5, 8)));
    }
}
