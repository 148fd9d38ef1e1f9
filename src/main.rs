//! ctxoff's entry point: parse, dispatch, and turn errors into exit statuses.

use std::process::ExitCode;

use ctxoff::cli::{self, Command};
use ctxoff::cmd;
use ctxoff::config::Settings;
use ctxoff::error;

fn main() -> ExitCode {
    let args = std::env::args_os().collect();
    let cli = match cli::parse(args, |_, word| word.starts_with('@')) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    match dispatch(cli) {
        Ok(code) => code,
        Err(e) if error::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ctxoff: {e:#}");
            ExitCode::from(error::exit_code(&e))
        }
    }
}

fn dispatch(cli: cli::Cli) -> anyhow::Result<ExitCode> {
    let settings = Settings::resolve(&cli.global)?;
    let mut stdout = std::io::stdout().lock();
    match &cli.subcommand {
        Some(Command::Count(args)) => cmd::count::run(args, settings.encoding, &mut stdout),
        Some(Command::Gc(args)) => cmd::gc::run(args, &settings, &mut stdout),
        Some(Command::Hook(args)) => cmd::hook::run(
            args,
            &settings.keep,
            &mut std::io::stdin().lock(),
            &mut stdout,
        ),
        Some(Command::Init(args)) => {
            let cwd = std::env::current_dir()?;
            let home = cmd::init::home_dir();
            cmd::init::run(
                args,
                home.as_deref(),
                &cwd,
                &mut stdout,
                &mut std::io::stderr(),
            )
        }
        None => {
            drop(stdout);
            cmd::run::run(&cli.command, &cli.run, settings)
        }
    }
}
