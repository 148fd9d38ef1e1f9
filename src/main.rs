//! ctxoff's entry point: parse, dispatch, and turn errors into exit statuses.

use std::io::Write;
use std::process::ExitCode;

use ctxoff::cli::{self, Command};
use ctxoff::cmd;
use ctxoff::config::Settings;
use ctxoff::error;
use ctxoff::store::Store;

fn main() -> ExitCode {
    let args = std::env::args_os().collect();
    let is_reference = |global: &cli::GlobalOptions, word: &str| {
        Settings::resolve(global)
            .and_then(|settings| Store::locate(&settings))
            .is_ok_and(|store| ctxoff::store::reference::is_reference(word, &store))
    };
    let cli = match cli::parse(args, is_reference) {
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
    let Some(subcommand) = &cli.subcommand else {
        return cmd::run::run(&cli.command, &cli.run, settings);
    };
    // Retrieval can print millions of lines: write in blocks, not line by line.
    let out = &mut std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let err = &mut std::io::stderr();
    let (encoding, cap) = (settings.encoding, settings.threshold);
    let code = match subcommand {
        Command::Grep(args) => {
            cmd::grep::run(args, &Store::locate(&settings)?, encoding, cap, out, err)
        }
        Command::Lines(args) => {
            cmd::lines::run(args, &Store::locate(&settings)?, encoding, cap, out, err)
        }
        Command::List(args) => cmd::list::run(args, &Store::locate(&settings)?, out),
        Command::Count(args) => cmd::count::run(args, encoding, out),
        Command::Gc(args) => cmd::gc::run(args, &settings, out),
        Command::Hook(args) => {
            cmd::hook::run(args, &settings.keep, &mut std::io::stdin().lock(), out)
        }
        Command::Init(args) => {
            let cwd = std::env::current_dir()?;
            cmd::init::run(args, cmd::init::home_dir().as_deref(), &cwd, out, err)
        }
    }?;
    out.flush()?;
    Ok(code)
}
