//! The command line: ctxoff's options, its subcommands, and the dispatch rule (SPEC §1).
//!
//! ```text
//! ctxoff [OPTIONS] [--] COMMAND [ARGS...]   run COMMAND, offload its output if large
//! COMMAND | ctxoff [OPTIONS]                same for standard input
//! ctxoff grep REF PATTERN [OPTIONS]         search an offloaded output
//! ctxoff lines REF RANGE... [OPTIONS]       print line ranges of an offloaded output
//! ctxoff gc [OPTIONS]                       delete old offloaded outputs
//! ```
//!
//! ctxoff's own options come before the command; everything after the command's first word
//! belongs to the command. `--` always means "run what follows". A word naming a subcommand is
//! the subcommand, except `grep`: `ctxoff grep X …` searches an output only when X is a
//! reference to one, and otherwise runs the grep program (`ctxoff grep -rn foo src/`).

use clap::{Args, Parser, Subcommand, ValueHint};
use std::ffi::OsString;
use std::path::PathBuf;

use crate::tokens::Encoding;

/// Run a command; pass small output through untouched, offload large output to a file.
///
/// Output of at most THRESHOLD tokens passes through byte for byte, stdout to stdout and stderr
/// to stderr, with the command's exit status. Larger output is written whole to
/// <DIR>/<SESSION>/<NAME>_<N>.txt and a short summary is printed instead: head, tail, exact
/// counts of what was left out, the path, and the commands to read more.
///
/// Examples:
///   ctxoff cargo test
///   ctxoff --threshold 500 -- git log --stat
///   make 2>&1 | ctxoff --name make
///   ctxoff lines @last 120:180
///   ctxoff grep @last 'panicked' -C 3
#[derive(Debug, Parser)]
#[command(
    name = "ctxoff",
    version,
    verbatim_doc_comment,
    subcommand_value_name = "SUBCOMMAND",
    override_usage = "ctxoff [OPTIONS] [--] COMMAND [ARGS]...\n       COMMAND | ctxoff [OPTIONS]\n       ctxoff [OPTIONS] SUBCOMMAND [ARGS]...",
    disable_help_subcommand = true,
    max_term_width = 100
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalOptions,

    #[command(flatten)]
    pub run: RunOptions,

    #[command(subcommand)]
    pub subcommand: Option<Command>,

    /// The command to run, with its arguments (read standard input when absent).
    #[arg(
        value_name = "COMMAND",
        trailing_var_arg = true,
        num_args = 1..,
        value_hint = ValueHint::CommandWithArguments
    )]
    pub command: Vec<OsString>,
}

/// Options every subcommand shares: where the scratch space is and how tokens are counted.
#[derive(Debug, Clone, Default, Args)]
pub struct GlobalOptions {
    /// Offload output of more than this many tokens [default: 2500]
    #[arg(long, value_name = "TOKENS", env = "CTXOFF_THRESHOLD", global = true)]
    pub threshold: Option<u64>,

    /// Tokens of head and tail shown in a summary, at most half the threshold [default: 1000]
    #[arg(long, value_name = "TOKENS", env = "CTXOFF_PREVIEW", global = true)]
    pub preview: Option<u64>,

    /// Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]
    #[arg(long, value_name = "NAME", env = "CTXOFF_ENCODING", global = true)]
    pub encoding: Option<Encoding>,

    /// Scratch root [default: /tmp/agent]
    #[arg(long, value_name = "DIR", env = "CTXOFF_DIR", global = true, value_hint = ValueHint::DirPath)]
    pub dir: Option<PathBuf>,

    /// Session name [default: the agent process that runs ctxoff, e.g. claude-4821]
    #[arg(long, value_name = "NAME", env = "CTXOFF_SESSION", global = true)]
    pub session: Option<String>,
}

/// Options of run and pipe mode.
#[derive(Debug, Clone, Default, Args)]
pub struct RunOptions {
    /// Name of the output file [default: the program's name, or `pipe`]
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,

    /// Print one JSON object (summary and counts) instead of the output or summary
    #[arg(long)]
    pub json: bool,

    /// No progress display and no notes on standard error
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Grep(crate::cmd::grep::GrepArgs),
    Lines(crate::cmd::lines::LinesArgs),
    List(crate::cmd::list::ListArgs),
    Count(crate::cmd::count::CountArgs),
    Gc(crate::cmd::gc::GcArgs),
    Hook(crate::cmd::hook::HookArgs),
    Init(crate::cmd::init::InitArgs),
}

/// Parses the command line, applying the `grep` dispatch rule: `grep` followed by a word that
/// `is_reference` rejects runs the grep program. The options before `grep` are parsed first so
/// `is_reference` can look in the right scratch space.
pub fn parse(
    args: Vec<OsString>,
    is_reference: impl FnOnce(&GlobalOptions, &str) -> bool,
) -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let command = Cli::command();
    let mut args = args;
    if let Some(i) = first_word(&command, &args)
        && args[i] == "grep"
    {
        let options = Cli::try_parse_from(&args[..i])?;
        let next = args.get(i + 1).and_then(|w| w.to_str());
        if !next.is_some_and(|w| is_reference(&options.global, w)) {
            args.insert(i, OsString::from("--"));
        }
    }
    let matches = command.try_get_matches_from(args)?;
    let mut cli = Cli::from_arg_matches(&matches)?;
    if let Some(Command::Gc(gc)) = &mut cli.subcommand {
        // CTXOFF_SESSION names where captures go; only the flag narrows gc to one session.
        gc.scope = matches
            .subcommand_matches("gc")
            .filter(|m| m.value_source("session") == Some(clap::parser::ValueSource::CommandLine))
            .and(cli.global.session.clone());
    }
    Ok(cli)
}

/// Index of the first word that is neither one of ctxoff's options nor an option's value;
/// `None` when there is none or `--` comes first.
fn first_word(command: &clap::Command, args: &[OsString]) -> Option<usize> {
    let takes_value = |arg: &clap::Arg| arg.get_action().takes_values();
    let mut i = 1;
    while i < args.len() {
        let word = args[i].to_str()?;
        if word == "--" {
            return None;
        }
        if let Some(long) = word.strip_prefix("--") {
            let (name, inline) = long
                .split_once('=')
                .map_or((long, false), |(n, _)| (n, true));
            let arg = command.get_arguments().find(|a| a.get_long() == Some(name));
            if !inline && arg.is_some_and(takes_value) {
                i += 1;
            }
        } else if word.len() > 1 && word.starts_with('-') {
            let last = word.chars().last()?;
            let arg = command
                .get_arguments()
                .find(|a| a.get_short() == Some(last));
            if word.len() == 2 && arg.is_some_and(takes_value) {
                i += 1;
            }
        } else {
            return Some(i);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_words(words: &[&str], reference: bool) -> Cli {
        let args = words.iter().map(OsString::from).collect();
        parse(args, |_, _| reference).expect("parses")
    }

    #[test]
    fn clap_definition_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn trailing_command_keeps_its_own_flags() {
        let cli = parse_words(
            &[
                "ctxoff",
                "--threshold",
                "5",
                "cargo",
                "test",
                "--threshold",
                "9",
            ],
            false,
        );
        assert_eq!(cli.global.threshold, Some(5));
        assert_eq!(cli.command, ["cargo", "test", "--threshold", "9"]);
    }

    #[test]
    fn double_dash_always_runs() {
        let cli = parse_words(&["ctxoff", "--", "count", "x"], false);
        assert!(cli.subcommand.is_none());
        assert_eq!(cli.command, ["count", "x"]);
    }

    #[test]
    fn subcommand_word_is_the_subcommand() {
        let cli = parse_words(&["ctxoff", "count", "f"], false);
        assert!(matches!(cli.subcommand, Some(Command::Count(_))));
    }

    #[test]
    fn only_the_session_flag_narrows_gc() {
        let scope = |words: &[&str]| match parse_words(words, false).subcommand {
            Some(Command::Gc(gc)) => gc.scope,
            _ => panic!("not gc"),
        };
        assert_eq!(
            scope(&["ctxoff", "gc", "--session", "s1"]),
            Some("s1".into())
        );
        assert_eq!(scope(&["ctxoff", "gc", "--all"]), None);
    }

    #[test]
    fn grep_without_a_reference_runs_grep() {
        let cli = parse_words(&["ctxoff", "-q", "grep", "-rn", "foo", "src/"], false);
        assert!(cli.run.quiet);
        assert_eq!(cli.command, ["grep", "-rn", "foo", "src/"]);
    }

    #[test]
    fn option_values_are_not_taken_for_the_command() {
        let args: Vec<OsString> = ["ctxoff", "--name", "grep", "echo"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(
            first_word(&<Cli as clap::CommandFactory>::command(), &args),
            Some(3)
        );
    }
}
