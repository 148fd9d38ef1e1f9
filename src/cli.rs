//! The command line: ctxoff's options, its subcommands, and the dispatch rule (SPEC §1).
//!
//! ```text
//! ctxoff [OPTIONS] [--] COMMAND [ARGS...]   run COMMAND, offload its output if large
//! COMMAND | ctxoff [OPTIONS]                same for standard input
//! ctxoff grep REF PATTERN [OPTIONS]         search an offloaded output
//! ctxoff lines REF RANGE... [OPTIONS]       print line ranges of an offloaded output
//! ctxoff gc [OPTIONS]                       delete old offloaded outputs
//! ctxoff stats [OPTIONS]                    what offloading saved
//! ```
//!
//! ctxoff's own options come before the command; everything after the command's first word
//! belongs to the command. `--` always means "run what follows". A word naming a subcommand is
//! the subcommand, except `grep`: `ctxoff grep X …` searches an output only when X is a
//! reference to one, and otherwise runs the grep program (`ctxoff grep -rn foo src/`).
//!
//! The definition uses clap's builder, not its derive macros: proc-macro crates cannot be built
//! for the statically linked binary, so none is in the dependency graph. Each subcommand's module
//! declares its arguments (`command`) and reads them back (`from_matches`).

use clap::{Arg, ArgMatches, ValueHint, value_parser};
use std::ffi::OsString;
use std::path::PathBuf;

use crate::cmd::run::RunArgs;
use crate::cmd::{Run, count, gc, grep, hook, init, lines, list, stats};
use crate::config::Flags;
use crate::tokens::Encoding;

const ABOUT: &str =
    "Run a command; pass small output through untouched, offload large output to a file.";

const LONG_ABOUT: &str = "\
Run a command; pass small output through untouched, offload large output to a file.

Output of at most THRESHOLD tokens passes through byte for byte, stdout to stdout and stderr
to stderr, with the command's exit status. Larger output is written whole to
<DIR>/<SESSION>/<NAME>_<N>.txt and a short summary is printed instead: head, tail, exact
counts of what was left out, the path, and the commands to read more.

Examples:
  ctxoff cargo test
  ctxoff --threshold 500 -- git log --stat
  make 2>&1 | ctxoff --name make
  ctxoff lines @last 120:180
  ctxoff grep @last 'panicked' -C 3";

const USAGE: &str = "ctxoff [OPTIONS] [--] COMMAND [ARGS]...
       COMMAND | ctxoff [OPTIONS]
       ctxoff [OPTIONS] SUBCOMMAND [ARGS]...";

/// The parsed command line.
#[derive(Debug)]
pub struct Cli {
    pub flags: Flags,
    /// What to do: run a command (or read standard input), or a subcommand.
    pub command: Command,
}

impl Cli {
    /// ctxoff's whole command line, for parsing and for the generated completions and man pages.
    pub fn command() -> clap::Command {
        Cli::top_level().subcommands(Command::commands())
    }

    /// The command line without the subcommands: all it takes to run a command, and several
    /// times cheaper to build and check than the whole definition (run mode is on the path of
    /// every command an agent runs).
    fn top_level() -> clap::Command {
        clap::Command::new("ctxoff")
            .version(env!("CARGO_PKG_VERSION"))
            .about(ABOUT)
            .long_about(LONG_ABOUT)
            .subcommand_value_name("SUBCOMMAND")
            .override_usage(USAGE)
            .disable_help_subcommand(true)
            .max_term_width(100)
            .args(flag_args())
            .args(RunArgs::args())
            .arg(
                Arg::new("command")
                    .value_name("COMMAND")
                    .help(
                        "The command to run, with its arguments (read standard input when absent)",
                    )
                    .value_parser(value_parser!(OsString))
                    .trailing_var_arg(true)
                    .num_args(1..)
                    .value_hint(ValueHint::CommandWithArguments),
            )
    }

    fn from_matches(matches: &ArgMatches) -> Cli {
        let subcommand = matches
            .subcommand()
            .and_then(|(name, sub)| Command::from_matches(name, sub));
        Cli {
            flags: flags_from(matches),
            command: subcommand.unwrap_or_else(|| Command::Run(RunArgs::from_matches(matches))),
        }
    }
}

/// The options every subcommand shares (where the scratch space is, how tokens are counted),
/// each with its environment variable; global, so they may also follow a subcommand.
fn flag_args() -> [Arg; 6] {
    let option = |name: &'static str, value_name: &'static str, env: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name(value_name)
            .env(env)
            .global(true)
    };
    [
        option("threshold", "TOKENS", "CTXOFF_THRESHOLD")
            .help("Offload output of more than this many tokens [default: 2500]")
            .value_parser(value_parser!(u64)),
        option("preview", "TOKENS", "CTXOFF_PREVIEW")
            .help(
                "Tokens of head and tail shown in a summary, at most half the threshold \
                 [default: 1000]",
            )
            .value_parser(value_parser!(u64)),
        option("content-limit", "TOKENS", "CTXOFF_CONTENT_LIMIT")
            .help(
                "Output of a command run to read content (cat, head, sed -n, git show, a diff) \
                 passes through up to this many tokens, within the agent's own limit \
                 [default: 6000]",
            )
            .value_parser(value_parser!(u64)),
        option("encoding", "NAME", "CTXOFF_ENCODING")
            .help("Tokenizer encoding: o200k_base or cl100k_base [default: o200k_base]")
            .value_parser(value_parser!(Encoding)),
        option("dir", "DIR", "CTXOFF_DIR")
            .help("Scratch root [default: /tmp/agent]")
            .value_parser(value_parser!(PathBuf))
            .value_hint(ValueHint::DirPath),
        option("session", "NAME", "CTXOFF_SESSION")
            .help("Session name [default: the agent process that runs ctxoff, e.g. claude-4821]"),
    ]
}

fn flags_from(matches: &ArgMatches) -> Flags {
    Flags {
        threshold: matches.get_one("threshold").copied(),
        preview: matches.get_one("preview").copied(),
        content_limit: matches.get_one("content-limit").copied(),
        encoding: matches.get_one("encoding").copied(),
        dir: matches.get_one("dir").cloned(),
        session: matches.get_one("session").cloned(),
    }
}

/// What ctxoff was asked to do.
#[derive(Debug)]
pub enum Command {
    /// Run mode and pipe mode.
    Run(RunArgs),
    Grep(grep::GrepArgs),
    Lines(lines::LinesArgs),
    List(list::ListArgs),
    Count(count::CountArgs),
    Gc(gc::GcArgs),
    Hook(hook::HookArgs),
    Init(init::InitArgs),
    Stats(stats::StatsArgs),
}

impl Command {
    /// The subcommands' names, as [`Command::commands`] declares them.
    const NAMES: [&str; 8] = [
        "grep", "lines", "list", "count", "gc", "stats", "hook", "init",
    ];

    /// The subcommands, in the order help lists them.
    fn commands() -> [clap::Command; 8] {
        [
            grep::GrepArgs::command(),
            lines::LinesArgs::command(),
            list::ListArgs::command(),
            count::CountArgs::command(),
            gc::GcArgs::command(),
            stats::StatsArgs::command(),
            hook::HookArgs::command(),
            init::InitArgs::command(),
        ]
    }

    /// The command, to run.
    pub fn runner(&self) -> &dyn Run {
        match self {
            Command::Run(args) => args,
            Command::Grep(args) => args,
            Command::Lines(args) => args,
            Command::List(args) => args,
            Command::Count(args) => args,
            Command::Gc(args) => args,
            Command::Hook(args) => args,
            Command::Init(args) => args,
            Command::Stats(args) => args,
        }
    }

    fn from_matches(name: &str, matches: &ArgMatches) -> Option<Command> {
        Some(match name {
            "grep" => Command::Grep(grep::GrepArgs::from_matches(matches)),
            "lines" => Command::Lines(lines::LinesArgs::from_matches(matches)),
            "list" => Command::List(list::ListArgs::from_matches(matches)),
            "count" => Command::Count(count::CountArgs::from_matches(matches)),
            "gc" => Command::Gc(gc::GcArgs::from_matches(matches)),
            "hook" => Command::Hook(hook::HookArgs::from_matches(matches)),
            "init" => Command::Init(init::InitArgs::from_matches(matches)),
            "stats" => Command::Stats(stats::StatsArgs::from_matches(matches)),
            _ => return None,
        })
    }
}

/// Parses the command line, applying the `grep` dispatch rule: `grep` followed by a word that
/// `is_reference` rejects runs the grep program. The options before `grep` are parsed first so
/// `is_reference` can look in the right scratch space.
pub fn parse(
    args: Vec<OsString>,
    is_reference: impl FnOnce(&Flags, &str) -> bool,
) -> Result<Cli, clap::Error> {
    let top = Cli::top_level();
    let first = first_word(&top, &args);
    if let Some(cli) = parse_run(top, &args, first) {
        return Ok(cli);
    }
    let command = Cli::command();
    let mut args = args;
    if let Some(i) = first
        && args[i] == "grep"
    {
        let options = command.clone().try_get_matches_from(&args[..i])?;
        let next = args.get(i + 1).and_then(|w| w.to_str());
        if !next.is_some_and(|w| is_reference(&flags_from(&options), w)) {
            args.insert(i, OsString::from("--"));
        }
    }
    let matches = match command.try_get_matches_from(&args) {
        Ok(matches) => matches,
        Err(e) => return hook_despite(&args, first, e),
    };
    let mut cli = Cli::from_matches(&matches);
    // CTXOFF_SESSION names where captures go; only the flag narrows gc and stats to one session.
    let scope = |name| {
        matches
            .subcommand_matches(name)
            .filter(|m| m.value_source("session") == Some(clap::parser::ValueSource::CommandLine))
            .and(cli.flags.session.clone())
    };
    match &mut cli.command {
        Command::Gc(gc) => gc.scope = scope("gc"),
        Command::Stats(stats) => stats.session = scope("stats"),
        _ => {}
    }
    Ok(cli)
}

/// An agent's hook handler must answer whatever ctxoff's options and environment hold (a bad
/// `CTXOFF_THRESHOLD` must not block the agent's tool calls): when only they fail to parse, the
/// hook runs without them and knows why. Any other error stays an error.
fn hook_despite(
    args: &[OsString],
    first: Option<usize>,
    error: clap::Error,
) -> Result<Cli, clap::Error> {
    use clap::error::ErrorKind;
    let Some(i) = first.filter(|&i| args[i] == "hook") else {
        return Err(error);
    };
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
    ) {
        return Err(error);
    }
    let Ok(matches) = hook::HookArgs::command().try_get_matches_from(&args[i..]) else {
        return Err(error);
    };
    let mut args = hook::HookArgs::from_matches(&matches);
    let reason = error.to_string();
    args.unusable = Some(
        reason
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_owned(),
    );
    Ok(Cli {
        flags: Flags::default(),
        command: Command::Hook(args),
    })
}

/// Run and pipe mode, parsed without the subcommands: `None` when the words before the command
/// name a subcommand or may ask for help or the version (their output lists the subcommands), or
/// when they do not parse (the whole definition then gives the error, word for word).
fn parse_run(top: clap::Command, args: &[OsString], first: Option<usize>) -> Option<Cli> {
    let end = first
        .or_else(|| args.iter().position(|w| w == "--"))
        .unwrap_or(args.len());
    if first.is_some_and(|i| Command::NAMES.iter().any(|name| args[i] == *name)) {
        return None;
    }
    let may_ask_for_help = args.get(1..end).unwrap_or_default().iter().any(|w| {
        let w = w.to_string_lossy();
        w == "--help"
            || w == "--version"
            || (!w.starts_with("--") && w.starts_with('-') && w.contains(['h', 'V']))
    });
    if may_ask_for_help {
        return None;
    }
    let matches = top.try_get_matches_from(args).ok()?;
    Some(Cli::from_matches(&matches))
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

    /// The command run mode runs.
    fn run_words(cli: &Cli) -> &[OsString] {
        match &cli.command {
            Command::Run(run) => &run.argv,
            other => panic!("not run mode: {other:?}"),
        }
    }

    fn parse_words(words: &[&str], reference: bool) -> Cli {
        let args = words.iter().map(OsString::from).collect();
        parse(args, |_, _| reference).expect("parses")
    }

    #[test]
    fn subcommand_names_are_the_declared_ones() {
        let declared: Vec<String> = Command::commands()
            .iter()
            .map(|c| c.get_name().to_owned())
            .collect();
        assert_eq!(declared, Command::NAMES);
    }

    #[test]
    fn run_mode_parses_the_same_without_the_subcommands() {
        let cases: &[&[&str]] = &[
            &["ctxoff", "true"],
            &["ctxoff"],
            &["ctxoff", "--threshold", "5", "--", "lines", "x"],
            &["ctxoff", "-q", "--json", "cargo", "test", "--help", "-V"],
            &["ctxoff", "--name", "grep", "echo", "hi"],
            &[
                "ctxoff",
                "--encoding=cl100k_base",
                "--dir",
                "/d",
                "--session=s",
                "ls",
            ],
            &["ctxoff", "--preview", "7", "--", "--weird"],
        ];
        for words in cases {
            let args: Vec<OsString> = words.iter().map(OsString::from).collect();
            let first = first_word(&Cli::top_level(), &args);
            let quick = parse_run(Cli::top_level(), &args, first).expect("parsed in run mode");
            let whole = Cli::from_matches(&Cli::command().try_get_matches_from(&args).unwrap());
            assert_eq!(format!("{quick:?}"), format!("{whole:?}"), "{words:?}");
        }
    }

    #[test]
    fn help_subcommands_and_errors_get_the_whole_definition() {
        for words in [
            &["ctxoff", "--help"][..],
            &["ctxoff", "-qh", "true"],
            &["ctxoff", "-V"],
            &["ctxoff", "count", "f"],
            &["ctxoff", "--bogus", "true"],
            &["ctxoff", "--threshold", "x", "true"],
        ] {
            let args: Vec<OsString> = words.iter().map(OsString::from).collect();
            let first = first_word(&Cli::top_level(), &args);
            assert!(
                parse_run(Cli::top_level(), &args, first).is_none(),
                "{words:?}"
            );
        }
        let args: Vec<OsString> = ["ctxoff", "--bogus", "true"]
            .iter()
            .map(OsString::from)
            .collect();
        let err = parse(args.clone(), |_, _| false).unwrap_err();
        let whole = Cli::command().try_get_matches_from(&args).unwrap_err();
        assert_eq!(err.render().to_string(), whole.render().to_string());
    }

    #[test]
    fn clap_definition_is_consistent() {
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
        assert_eq!(cli.flags.threshold, Some(5));
        assert_eq!(run_words(&cli), ["cargo", "test", "--threshold", "9"]);
    }

    #[test]
    fn double_dash_always_runs() {
        let cli = parse_words(&["ctxoff", "--", "count", "x"], false);
        assert_eq!(run_words(&cli), ["count", "x"]);
    }

    #[test]
    fn subcommand_word_is_the_subcommand() {
        let cli = parse_words(&["ctxoff", "count", "f"], false);
        assert!(matches!(cli.command, Command::Count(_)));
    }

    #[test]
    fn only_the_session_flag_narrows_gc_and_stats() {
        let scope = |words: &[&str]| match parse_words(words, false).command {
            Command::Gc(gc) => gc.scope,
            Command::Stats(stats) => stats.session,
            _ => panic!("not gc or stats"),
        };
        assert_eq!(
            scope(&["ctxoff", "stats", "--session", "s1"]),
            Some("s1".into())
        );
        assert_eq!(scope(&["ctxoff", "stats", "--since", "7d"]), None);
        assert_eq!(
            scope(&["ctxoff", "gc", "--session", "s1"]),
            Some("s1".into())
        );
        assert_eq!(scope(&["ctxoff", "gc", "--all"]), None);
    }

    #[test]
    fn grep_without_a_reference_runs_grep() {
        let cli = parse_words(&["ctxoff", "-q", "grep", "-rn", "foo", "src/"], false);
        let Command::Run(run) = &cli.command else {
            panic!("not run mode")
        };
        assert!(run.quiet);
        assert_eq!(run.argv, ["grep", "-rn", "foo", "src/"]);
    }

    #[test]
    fn option_values_are_not_taken_for_the_command() {
        let args: Vec<OsString> = ["ctxoff", "--name", "grep", "echo"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(first_word(&Cli::command(), &args), Some(3));
    }
}
