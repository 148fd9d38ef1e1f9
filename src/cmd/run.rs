//! Run mode (`ctxoff CMD`) and pipe mode (`CMD | ctxoff`): capture, decide, then pass the output
//! through untouched or print the summary of the saved file.

use anyhow::Result;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use super::{Context, Run};
use crate::agent::Agent;
use crate::command::output_name;
use crate::config::Settings;
use crate::error::Failure;
use crate::format::shell_quote;
use crate::run::capture::{self, Ending};
use crate::run::content::Limit;
use crate::run::{Buffered, Job, Outcome, Recorder};
use crate::store::{ORDER_EXACT, ORDER_PER_STREAM, sanitize};
use crate::summary::{self, NotablePatterns, Origin};
use clap::{Arg, ArgAction, ArgMatches};

/// Run and pipe mode: the command to run and the options that only they take.
#[derive(Debug, Clone, Default)]
pub struct RunArgs {
    /// The command to run, with its arguments; empty to read standard input.
    pub argv: Vec<OsString>,
    pub name: Option<String>,
    pub json: bool,
    pub quiet: bool,
}

impl RunArgs {
    /// The options; the command itself is the top level's trailing argument.
    pub(crate) fn args() -> [Arg; 3] {
        [
            Arg::new("name")
                .long("name")
                .value_name("NAME")
                .help("Name of the output file [default: the program's name, or `pipe`]"),
            Arg::new("json")
                .long("json")
                .help("Print one JSON object (summary and counts) instead of the output or summary")
                .action(ArgAction::SetTrue),
            Arg::new("quiet")
                .short('q')
                .long("quiet")
                .help("No progress display and no notes on standard error")
                .action(ArgAction::SetTrue),
        ]
    }

    pub(crate) fn from_matches(matches: &ArgMatches) -> RunArgs {
        RunArgs {
            argv: matches
                .get_many::<OsString>("command")
                .map_or_else(Vec::new, |words| words.cloned().collect()),
            name: matches.get_one("name").cloned(),
            json: matches.get_flag("json"),
            quiet: matches.get_flag("quiet"),
        }
    }
}

impl Run for RunArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        let settings = ctx.settings()?.clone();
        run(&self.argv, self, settings, ctx)
    }
}

fn run(
    argv: &[OsString],
    options: &RunArgs,
    settings: Settings,
    ctx: &Context,
) -> Result<ExitCode> {
    let pipe = argv.is_empty();
    if pipe && std::io::stdin().is_terminal() {
        return Err(Failure::new(
            2,
            "no command given and standard input is a terminal \
             (usage: ctxoff [OPTIONS] [--] COMMAND [ARGS...], or COMMAND | ctxoff [OPTIONS])",
        )
        .into());
    }
    let command_line = (!pipe).then(|| {
        argv.iter()
            .map(|w| shell_quote(&w.to_string_lossy()))
            .collect::<Vec<_>>()
            .join(" ")
    });
    let words: Vec<String> = argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    if !pipe && crate::command::is_kept(&settings.keep, &words) {
        return Err(exec(argv));
    }
    let notable = NotablePatterns::new(&settings.notable)?;
    let name = match &options.name {
        Some(n) => sanitize(n, "pipe"),
        None if pipe => "pipe".to_string(),
        None => output_name(argv),
    };
    let limit = Limit::for_command(&settings, &words, Agent::from_env().map(Agent::keeps));
    // In pipe mode the order is what was piped in; else exact where one pipe can serve both.
    let one_pipe = !pipe && capture::one_destination();
    let job = Job {
        order: if pipe || one_pipe {
            ORDER_EXACT
        } else {
            ORDER_PER_STREAM
        },
        progress: crate::run::progress::Progress::for_terminal(options.quiet),
        settings,
        name: name.clone(),
        argv: words,
        notable,
        print_unsaved: true,
        limit,
    };
    let mut recorder = Recorder::new(job);
    let ending = if pipe {
        capture::read_stdin(&mut recorder)?
    } else {
        capture::run_command(argv, one_pipe, &mut recorder)?
    };
    let origin = Origin {
        command: command_line.as_deref(),
        name: &name,
    };
    let mut stdout = std::io::stdout().lock();
    let printed = match recorder.finish(&ending) {
        Outcome::PassThrough(buffered) if options.json => {
            writeln!(stdout, "{}", pass_through_json(&buffered, &ending))
        }
        Outcome::PassThrough(buffered) => buffered.replay(&mut stdout, &mut std::io::stderr()),
        Outcome::Offloaded(off) => {
            let summary = if options.json {
                format!("{}\n", summary::to_json(&off.saved(ending.interrupted)))
            } else {
                summary::render(&origin, &off.saved(ending.interrupted))
            };
            let printed = stdout.write_all(summary.as_bytes());
            if printed.is_ok() {
                off.record(ctx.history(), &summary);
            }
            printed
        }
        Outcome::Unsaved { error } => {
            eprintln!("ctxoff: {error}; printed the output in full instead");
            Ok(())
        }
    };
    // A reader that closed early (`ctxoff … | head`) is not an error; the status stays the
    // command's.
    let _ = printed.and_then(|()| stdout.flush());
    Ok(ExitCode::from(ending.exit_status()))
}

fn pass_through_json(buffered: &Buffered, ending: &Ending) -> serde_json::Value {
    let text = String::from_utf8_lossy(&buffered.bytes);
    let lines = memchr::memchr_iter(b'\n', &buffered.bytes).count() as u64
        + u64::from(!buffered.bytes.is_empty() && !buffered.bytes.ends_with(b"\n"));
    serde_json::json!({
        "offloaded": false,
        "exit_code": ending.code,
        "signal": ending.signal.or(ending.interrupted),
        "bytes": buffered.bytes.len(),
        "lines": lines,
        "output": text,
    })
}

/// Runs a `keep` command in place of ctxoff: its output is never captured.
fn exec(argv: &[OsString]) -> anyhow::Error {
    use std::os::unix::process::CommandExt;
    let err = std::process::Command::new(&argv[0]).args(&argv[1..]).exec();
    let shown = argv[0].to_string_lossy();
    let failure = match err.kind() {
        std::io::ErrorKind::NotFound => Failure::new(127, format!("{shown}: command not found")),
        _ => Failure::new(126, format!("{shown}: cannot run: {err}")),
    };
    failure.into()
}
