//! ctxoff's entry point: parse, dispatch, and turn errors into exit statuses.

use std::process::ExitCode;

use ctxoff::cli;
use ctxoff::cmd::Context;
use ctxoff::config::Settings;
use ctxoff::error;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let hook_call = ctxoff::cmd::hook::is_hook_call(&args);
    let is_reference = |flags: &ctxoff::config::Flags, word: &str| {
        Settings::resolve(flags)
            .and_then(|settings| settings.store())
            .is_ok_and(|store| ctxoff::store::reference::is_reference(word, &store))
    };
    let cli = match cli::parse(args, is_reference) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // An agent takes a hook's failure for a blocked tool call.
            if hook_call && e.use_stderr() {
                return ExitCode::SUCCESS;
            }
            return ExitCode::from(e.exit_code().clamp(0, 255) as u8);
        }
    };
    // Retrieval can print millions of lines: write in blocks, not line by line.
    let out = &mut std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    // Standard input is not locked here: run mode hands it to the child.
    let (stdin, err) = (&mut std::io::stdin(), &mut std::io::stderr());
    let mut ctx = Context::new(cli.flags, stdin, out, err);
    let run_mode = matches!(cli.command, cli::Command::Run(_));
    let ran = cli.command.runner().run(&mut ctx);
    let flushed = ctx.out.flush();
    match ran.and_then(|code| match flushed {
        // Run mode's status is the command's, whatever became of its output.
        Err(_) if run_mode => Ok(code),
        flushed => flushed.map(|()| code).map_err(Into::into),
    }) {
        Ok(code) => code,
        Err(e) if error::is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ctxoff: {e:#}");
            match hook_call {
                true => ExitCode::SUCCESS,
                false => ExitCode::from(error::exit_code(&e)),
            }
        }
    }
}
