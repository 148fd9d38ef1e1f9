//! Run mode (`ctxoff CMD`) and pipe mode (`CMD | ctxoff`): capture, decide, then pass the output
//! through untouched or print the summary of the saved file.

use anyhow::Result;
use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

use crate::cli::RunOptions;
use crate::command::output_name;
use crate::config::Settings;
use crate::error::Failure;
use crate::format::shell_quote;
use crate::run::capture::{self, Ending};
use crate::run::{Buffered, Job, Outcome, Recorder};
use crate::store::sanitize;
use crate::summary::{self, NotablePatterns, Origin};

pub fn run(argv: &[OsString], options: &RunOptions, settings: Settings) -> Result<ExitCode> {
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
    if !pipe
        && settings
            .keep
            .iter()
            .any(|p| crate::command::matches_keep(p, &words))
    {
        return Err(exec(argv));
    }
    let notable = NotablePatterns::new(&settings.notable)?;
    let name = match &options.name {
        Some(n) => sanitize(n, "pipe"),
        None if pipe => "pipe".to_string(),
        None => output_name(argv),
    };
    let job = Job {
        progress: crate::run::progress::Progress::for_terminal(options.quiet),
        settings,
        name: name.clone(),
        argv: words,
        notable,
    };
    let mut recorder = Recorder::new(job);
    let ending = if pipe {
        capture::read_stdin(&mut recorder)?
    } else {
        capture::run_command(argv, &mut recorder)?
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
        Outcome::Offloaded(off) if options.json => {
            writeln!(stdout, "{}", summary::to_json(&ending, &off))
        }
        Outcome::Offloaded(off) => {
            stdout.write_all(summary::render(&origin, &ending, &off).as_bytes())
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
