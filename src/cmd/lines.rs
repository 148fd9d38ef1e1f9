//! `ctxoff lines REF RANGE...`: print line ranges of an offloaded output (SPEC §5), numbered
//! and display-cleaned, or raw with `--plain`, within the token cap.

use anyhow::{Result, bail};
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::io::Write;
use std::process::ExitCode;

use super::read::{Budget, Fit, LONG_LINE, LineRange, LongLines, TextFile};
use super::record::{self, Target};
use super::{Context, Run};
use crate::agent::Agent;
use crate::config::Settings;
use crate::format::{shell_quote, thousands};
use crate::run::content::{Keeps, Limit};
use crate::text::clean_line;

/// `ctxoff lines`'s arguments.
#[derive(Debug, Clone)]
pub struct LinesArgs {
    /// The output to read.
    pub reference: String,
    pub ranges: Vec<String>,
    pub plain: bool,
    pub all: bool,
}

const LONG_ABOUT: &str = "\
Print line ranges of an offloaded output

Prints the lines of the output REF in each RANGE as `LINE:text`, display-cleaned (ANSI colours \
stripped, carriage-return progress rendered). RANGE is N, A:B (1-based, inclusive), A: (to the \
end), :B (from the start) or -N: (the last N lines). With --plain, prints the stored lines \
unchanged and without numbers: `ctxoff lines REF 1: --plain --all` reproduces the output byte for \
byte.

Printing stops at the offload threshold's worth of tokens, with a last `[ctxoff]` line saying what \
was not shown; --all lifts the cap. An end past the last line is clamped (with a note on standard \
error); a start past it is an error.

Examples: ctxoff lines @last 120:180 ctxoff lines cargo_4 -40: ctxoff lines @2 1:20 900:920 \
ctxoff lines @last 1: --plain --all > full.log";

impl LinesArgs {
    pub fn command() -> Command {
        Command::new("lines")
            .about("Print line ranges of an offloaded output")
            .long_about(LONG_ABOUT)
            .args([
                Arg::new("reference")
                    .value_name("REF")
                    .help("The output to read: @last, @N, NAME_N, SESSION/NAME_N or its path")
                    .required(true),
                Arg::new("ranges")
                    .value_name("RANGE")
                    .help("Lines to print: N, A:B, A:, :B or -N: (the last N)")
                    .num_args(1..)
                    .required(true)
                    .allow_hyphen_values(true),
                Arg::new("plain")
                    .long("plain")
                    .help("Print the stored lines unchanged, without line numbers or cleaning")
                    .action(ArgAction::SetTrue),
                Arg::new("all")
                    .long("all")
                    .help("Print everything, without the token cap")
                    .action(ArgAction::SetTrue),
            ])
    }

    pub fn from_matches(matches: &ArgMatches) -> LinesArgs {
        LinesArgs {
            reference: matches
                .get_one::<String>("reference")
                .cloned()
                .expect("required"),
            ranges: matches
                .get_many::<String>("ranges")
                .map_or_else(Vec::new, |ranges| ranges.cloned().collect()),
            plain: matches.get_flag("plain"),
            all: matches.get_flag("all"),
        }
    }
}

impl Run for LinesArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        let settings = ctx.settings()?.clone();
        let request = Request::parse(self)?;
        let keeps = Agent::from_env().map(Agent::keeps);
        let read = |target: &Target, out: &mut dyn Write, err: &mut dyn Write| {
            print_lines(&request, target, &settings, keeps, out, err)
        };
        record::read_back(ctx, &settings, "lines", &self.reference, read)
    }
}

/// What `ctxoff lines` was asked for, parsed before the output is looked up.
struct Request<'a> {
    plain: bool,
    all: bool,
    /// Each range as written, and parsed.
    texts: Vec<&'a String>,
    ranges: Vec<LineRange>,
}

impl<'a> Request<'a> {
    fn parse(args: &'a LinesArgs) -> Result<Request<'a>> {
        // RANGE accepts words starting with `-` (for `-N:`), so flags written after the ranges
        // arrive among them.
        let flag = |name: &str| args.ranges.iter().any(|r| r == name);
        let texts: Vec<&String> = args
            .ranges
            .iter()
            .filter(|r| *r != "--plain" && *r != "--all")
            .collect();
        let ranges = texts
            .iter()
            .map(|r| LineRange::parse(r))
            .collect::<Result<Vec<_>>>()?;
        Ok(Request {
            plain: args.plain || flag("--plain"),
            all: args.all || flag("--all"),
            texts,
            ranges,
        })
    }
}

/// Runs `ctxoff lines`. Lines and the cap note go to `out`, the note about a clamped range to
/// `err`. Content a command was run to read is capped at the content limit (and at what the
/// agent running ctxoff `keeps` whole), the rest at the threshold.
fn print_lines(
    request: &Request,
    target: &Target,
    settings: &Settings,
    keeps: Option<Keeps>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let Request {
        plain,
        all,
        ref texts,
        ref ranges,
    } = *request;
    let mut file = TextFile::open(target.output)?;
    let short_ref = &target.short_ref;
    let argv = target
        .output
        .entry()
        .map(|e| e.argv.as_slice())
        .unwrap_or_default();
    let limit = Limit::for_command(settings, argv, keeps);
    let keeps = limit.keeps.filter(|_| limit.tokens > limit.threshold);
    let mut printer = Printer {
        plain,
        budget: Budget::new((!all).then_some(limit.tokens), settings.encoding).keeping(keeps),
        out,
        buf: String::new(),
        last_printed: 0,
        at_line_start: true,
        cut_line: None,
    };

    for (i, (range, text)) in ranges.iter().zip(texts).enumerate() {
        let (start, end) = range.bounds(|| file.line_count())?;
        let offset = match file.line_offset(start)? {
            Ok(offset) => offset,
            Err(count) => bail!(
                "range {text} starts past the end: {short_ref} has {} lines",
                thousands(count)
            ),
        };
        if !printer.plain
            && printer.last_printed > 0
            && start != printer.last_printed + 1
            && !printer.print(start, "--\n", b"--\n")?
        {
            return printer.cap_note(short_ref, start, end, &mut file, &texts[i..]);
        }
        // A line too long to hold is printed in pieces with --plain, else cut (and said so).
        let long = if printer.plain {
            LongLines::Pieces
        } else {
            LongLines::Cut
        };
        let mut blocks = file.blocks_from(offset, long)?;
        let mut line = start;
        'blocks: while let Some((block, mid_line)) = blocks.next_piece()? {
            let mut pos = 0;
            while pos < block.len() {
                if end.is_some_and(|end| line > end) {
                    break 'blocks;
                }
                let eol = memchr::memchr(b'\n', &block[pos..]).map_or(block.len(), |i| pos + i);
                let raw = &block[pos..(eol + 1).min(block.len())];
                let shown = if printer.plain {
                    printer.print(line, &String::from_utf8_lossy(raw), raw)?
                } else {
                    let text = format!("{line}:{}\n", clean_line(&block[pos..eol]));
                    printer.print(line, &text, text.as_bytes())?
                };
                if !shown {
                    drop(blocks);
                    return printer.cap_note(short_ref, line, end, &mut file, &texts[i + 1..]);
                }
                // A piece of a long line is not the line's end.
                if eol < block.len() || !mid_line {
                    line += 1;
                }
                pos = eol + 1;
            }
        }
        if let (cut @ 1.., Some(first)) = blocks.cut_lines()
            && printer.cut_line.is_none()
        {
            writeln!(
                err,
                "ctxoff: {} longer than {} MiB shown cut to that (first: line {}); --plain prints {} whole",
                if cut == 1 {
                    "1 line".to_string()
                } else {
                    format!("{} lines", thousands(cut))
                },
                LONG_LINE >> 20,
                thousands(start + first),
                if cut == 1 { "it" } else { "them" },
            )?;
        }
        if let Some(end) = end
            && line <= end
        {
            writeln!(
                err,
                "ctxoff: {short_ref} has {} lines: showing {start}:{} of {text}",
                thousands(line - 1),
                line - 1
            )?;
        }
        if printer.cut_line.is_some() {
            return printer.cap_note(short_ref, line, end, &mut file, &texts[i + 1..]);
        }
    }
    Ok(ExitCode::SUCCESS)
}

struct Printer<'a> {
    plain: bool,
    budget: Budget,
    out: &'a mut dyn Write,
    buf: String,
    last_printed: u64,
    /// Whether what was printed ends with a newline, so a note starts on its own line.
    at_line_start: bool,
    cut_line: Option<u64>,
}

impl Printer<'_> {
    /// Prints `raw` (counted as `text`) if the cap allows, else nothing; false when the cap
    /// stopped the output.
    fn print(&mut self, line: u64, text: &str, raw: &[u8]) -> std::io::Result<bool> {
        match self.budget.fit(text) {
            Fit::Whole => self.out.write_all(raw)?,
            Fit::Prefix(n) => {
                self.cut_line = Some(line);
                self.out.write_all(&text.as_bytes()[..n])?;
                self.out.write_all(b"\n")?;
            }
            Fit::Nothing => return Ok(false),
        }
        self.at_line_start = raw.last() == Some(&b'\n') || self.cut_line.is_some();
        self.last_printed = line;
        Ok(true)
    }

    /// The last line when the cap stopped the output at line `stopped` of a range ending at
    /// `end`: how many lines were not shown and how to get them.
    fn cap_note(
        &mut self,
        short_ref: &str,
        stopped: u64,
        end: Option<u64>,
        file: &mut TextFile,
        later: &[&String],
    ) -> Result<ExitCode> {
        self.buf.clear();
        if !self.at_line_start {
            self.buf.push('\n');
        }
        let count = file.line_count()?;
        let last = end.map_or(count, |end| end.min(count));
        self.buf.push_str(&format!(
            "[ctxoff] output capped at {} tokens",
            thousands(self.budget.cap())
        ));
        if let Some(line) = self.cut_line {
            self.buf.push_str(&format!(
                ": line {} is longer than that and was cut (--all shows it whole)",
                thousands(line)
            ));
        }
        if stopped <= last {
            self.buf.push_str(&format!(
                ": lines {}–{} not shown ({} lines)",
                thousands(stopped),
                thousands(last),
                thousands(last - stopped + 1)
            ));
        }
        if !later.is_empty() {
            self.buf.push_str(&format!(
                ", nor ranges {}",
                later
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        if stopped <= last {
            let plain = if self.plain { " --plain" } else { "" };
            self.buf.push_str(&format!(
                "; continue with `ctxoff lines {} {stopped}:{last}{plain}`, narrow the range, or use --all",
                shell_quote(short_ref)
            ));
        }
        self.buf.push('\n');
        self.out.write_all(self.buf.as_bytes())?;
        Ok(ExitCode::SUCCESS)
    }
}
