//! The least a program can do to run a command and capture its output: spawn it with stdout and
//! stderr piped, read both to the end, wait. `bench/run.sh` times `ctxoff true` against it, to
//! separate what ctxoff itself adds from what starting and reaping a process costs the machine.
//!
//! ```text
//! spawn_floor COMMAND [ARGS...]
//! ```

use std::process::{Command, ExitCode, Stdio};

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let Some((program, rest)) = args.split_first() else {
        eprintln!("usage: spawn_floor COMMAND [ARGS...]");
        return ExitCode::from(2);
    };
    let captured = Command::new(program)
        .args(rest)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output();
    match captured {
        Ok(out) => ExitCode::from(out.status.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => {
            eprintln!("spawn_floor: {e}");
            ExitCode::from(127)
        }
    }
}
