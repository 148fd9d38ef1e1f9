//! Offloading an output after the fact, for hooks that see a finished command's output: the
//! output goes through ctxoff's pipe mode in a child process (so saving, counting and the summary
//! are exactly run mode's, and nothing but the hook's answer reaches the hook's own stdout).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use super::rewrite::Agent;

/// The summary of `output` saved as `name` in `session` by the ctxoff at `ctxoff`, or `None` when
/// ctxoff passed it through unchanged (at or under the threshold) or failed.
pub(crate) fn summarise(
    ctxoff: &Path,
    output: &[u8],
    name: &str,
    session: &str,
    agent: Agent,
) -> Option<String> {
    let mut child = Command::new(ctxoff)
        .args(["--quiet", "--name", name])
        .env("CTXOFF_SESSION", session)
        .env("CTXOFF_AGENT", agent.name())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let mut stdout = child.stdout.take()?;
    // Written and read at once: a large output would fill both pipes otherwise.
    let printed = std::thread::scope(|scope| {
        let reader = scope.spawn(move || {
            let mut printed = Vec::new();
            stdout.read_to_end(&mut printed).map(|_| printed)
        });
        let written = stdin.write_all(output);
        drop(stdin);
        (written, reader.join())
    });
    let status = child.wait().ok()?;
    let (Ok(()), Ok(Ok(printed))) = printed else {
        return None;
    };
    (status.success() && printed != output)
        .then(|| String::from_utf8(printed).ok())
        .flatten()
}

/// The name an output of the shell command line `command` gets: its first program's.
pub(crate) fn output_name(command: &str) -> String {
    crate::command::lex::list_commands(command)
        .first()
        .map(|c| {
            let words: Vec<std::ffi::OsString> = c.words.iter().map(Into::into).collect();
            crate::command::output_name(&words)
        })
        .unwrap_or_else(|| "shell".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_outputs_after_their_first_program() {
        assert_eq!(output_name("cargo test 2>&1 | tail"), "cargo");
        assert_eq!(output_name("RUST_LOG=1 cargo test"), "cargo");
        assert_eq!(output_name("(cd x)"), "shell");
    }
}
