//! `ctxoff count [FILE...]`: token counts like `wc`, per file and in total; stdin when no file.

use anyhow::Result;
use clap::{Arg, ArgMatches, Command, ValueHint, value_parser};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{Context, Run};
use crate::tokens::{Encoding, ParallelCounter, Tokenizer};

/// `ctxoff count`'s arguments.
#[derive(Debug)]
pub struct CountArgs {
    /// Files to count; standard input when empty.
    pub files: Vec<PathBuf>,
}

const LONG_ABOUT: &str = "\
Print token counts, like `wc` for tokens.

Counts in the encoding of --encoding (default o200k_base): one line per file, `TOKENS FILE`, and \
a total line when there is more than one file. Reads standard input when no FILE is given (or for \
`-`). Bytes that are not UTF-8 count as U+FFFD, as tiktoken does.";

impl CountArgs {
    pub(crate) fn command() -> Command {
        Command::new("count")
            .about("Print token counts, like `wc` for tokens")
            .long_about(LONG_ABOUT)
            .arg(
                Arg::new("files")
                    .value_name("FILES")
                    .help("Files to count (standard input when none, or `-`)")
                    .num_args(1..)
                    .value_parser(value_parser!(PathBuf))
                    .value_hint(ValueHint::FilePath),
            )
    }

    pub(crate) fn from_matches(matches: &ArgMatches) -> CountArgs {
        CountArgs {
            files: matches
                .get_many::<PathBuf>("files")
                .map_or_else(Vec::new, |files| files.cloned().collect()),
        }
    }
}

impl Run for CountArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        let encoding = ctx.settings()?.encoding;
        count(self, encoding, ctx.stdin, ctx.out, ctx.err)
    }
}

fn count(
    args: &CountArgs,
    encoding: Encoding,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<ExitCode> {
    let tokenizer = Tokenizer::load(encoding);
    let dash = [PathBuf::from("-")];
    let files = if args.files.is_empty() {
        &dash[..]
    } else {
        &args.files[..]
    };
    let mut total = 0;
    let mut failed = false;
    for path in files {
        let counted = if path.as_os_str() == "-" {
            count_reader(tokenizer, &mut *stdin)
        } else {
            std::fs::File::open(path).and_then(|f| count_reader(tokenizer, f))
        };
        match counted {
            Ok(n) => {
                total += n;
                writeln!(out, "{n:>10} {}", path.display())?;
            }
            Err(e) => {
                failed = true;
                writeln!(err, "ctxoff: {}: {e}", path.display())?;
            }
        }
    }
    if files.len() > 1 {
        writeln!(out, "{total:>10} total")?;
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn count_reader(tokenizer: Tokenizer, mut reader: impl Read) -> std::io::Result<u64> {
    let mut counter = ParallelCounter::new(tokenizer);
    let mut buf = vec![0; 1 << 20];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return Ok(counter.finish()),
            Ok(n) => counter.feed(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}
