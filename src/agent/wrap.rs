//! Which shell commands an agent's hook may run through ctxoff, and the rewritten command.

use std::path::Path;

use crate::command::lex as shell;
use crate::command::{Invocation, base_name, is_builtin, is_kept};

/// `command` prefixed to run through ctxoff in `session`, or `None` when a prefix could change
/// what it does. A command that already runs ctxoff only gets the session. The original text is
/// kept byte for byte; leading `NAME=value` assignments move in front of `ctxoff`, whose child
/// inherits them.
///
/// A program name without a `/` must satisfy `is_program` (normally: found on `PATH`). Claude
/// Code's shell loads the user's aliases and functions (`ll`, `gst`); ctxoff cannot run those, and
/// left alone they work.
pub(crate) fn wrap_command(
    command: &str,
    session: &str,
    keep: &[String],
    is_program: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let cmd = shell::simple_command(command).ok()?;
    let program = cmd.words[0].as_str();
    if is_builtin(program)
        || (!program.contains('/') && !is_program(program))
        || (program == "printf" && cmd.words.get(1).is_some_and(|a| a == "-v"))
    {
        return None;
    }
    if base_name(program) == "ctxoff" {
        // Already ctxoff (often `ctxoff lines @last …`): not wrapped again, but given the
        // session so `@last` and `cargo_4` resolve where the hook's own runs stored their output.
        let has_session = cmd
            .assignments
            .split_whitespace()
            .any(|a| a.starts_with("CTXOFF_SESSION="));
        return (!has_session).then(|| format!("CTXOFF_SESSION={session} {command}"));
    }
    let inner = Invocation::of(&cmd.words);
    if inner.program.is_empty()
        || inner.name() == "ctxoff"
        || is_interactive(&inner.program)
        || is_kept(keep, &cmd.words)
    {
        return None;
    }
    let assignments = match cmd.assignments {
        "" => String::new(),
        a => format!("{a} "),
    };
    Some(format!(
        "CTXOFF_SESSION={session} {assignments}ctxoff -- {}",
        cmd.rest
    ))
}

/// Programs that take over the terminal or wait for a person: editors, pagers, full-screen
/// monitors, multiplexers, remote and interactive shells, TUIs. Their output is screen control,
/// not something to summarise, and they behave the same unwrapped.
const INTERACTIVE: &[&str] = &[
    "btop", "emacs", "fzf", "ftp", "gitui", "glances", "htop", "info", "iotop", "joe", "lazygit",
    "less", "man", "mc", "micro", "more", "mosh", "most", "nano", "ncdu", "nmon", "nnn", "nvim",
    "pico", "ranger", "screen", "sftp", "ssh", "telnet", "tig", "tmux", "top", "vi", "view", "vim",
    "vimdiff", "watch", "zellij",
];

/// Interpreters, shells and database clients that start a REPL when given no arguments.
const REPLS: &[&str] = &[
    "bash",
    "bpython",
    "dash",
    "deno",
    "erl",
    "fish",
    "ghci",
    "iex",
    "ipython",
    "irb",
    "julia",
    "ksh",
    "lua",
    "mongosh",
    "mysql",
    "node",
    "ocaml",
    "php",
    "psql",
    "pry",
    "python",
    "python2",
    "python3",
    "R",
    "redis-cli",
    "sh",
    "sqlite3",
    "zsh",
];

fn is_interactive(words: &[String]) -> bool {
    let program = base_name(&words[0]);
    let args = &words[1..];
    let has = |flags: &[&str]| args.iter().any(|a| flags.contains(&a.as_str()));
    INTERACTIVE.contains(&program)
        || (REPLS.contains(&program) && (args.is_empty() || has(&["-i"])))
        || match program {
            "git" => git_is_interactive(args),
            // Follows forever: the agent would see nothing until the call times out.
            "tail" => args.iter().any(|a| {
                a.starts_with("--follow")
                    || (short_flags(a).is_some_and(|f| f.contains(['f', 'F'])))
            }),
            "journalctl" => has(&["-f", "--follow"]),
            "docker" | "podman" | "kubectl" => has(&[
                "-it",
                "-ti",
                "-i",
                "-t",
                "--interactive",
                "--tty",
                "--stdin",
            ]),
            _ => false,
        }
}

/// git subcommands that open an editor or ask questions: `commit` without a message,
/// `--patch`/`--interactive` modes, `rebase -i`, annotated tags without a message, merge tools.
fn git_is_interactive(args: &[String]) -> bool {
    // Global options come before the subcommand; `-C dir` and `-c key=value` take a value.
    let mut rest = args;
    while let Some((first, tail)) = rest.split_first() {
        if !first.starts_with('-') {
            break;
        }
        rest = if matches!(first.as_str(), "-C" | "-c") {
            tail.get(1..).unwrap_or(&[])
        } else {
            tail
        };
    }
    let Some((sub, args)) = rest.split_first() else {
        return false;
    };
    let has = |flags: &[&str]| args.iter().any(|a| flags.contains(&a.as_str()));
    let has_short = |c: char| {
        args.iter()
            .any(|a| short_flags(a).is_some_and(|f| f.contains(c)))
    };
    let has_long = |prefix: &str| args.iter().any(|a| a.starts_with(prefix));
    let patch = has(&["-p", "--patch", "-i", "--interactive"]);
    let message = has_short('m')
        || has_short('F')
        || has_short('C')
        || has_long("--message")
        || has_long("--file")
        || has_long("--reuse-message")
        || has(&["--no-edit", "--fixup"]);
    match sub.as_str() {
        "commit" => patch || has(&["-e", "--edit"]) || !message,
        "add" | "checkout" | "reset" | "restore" | "stash" | "clean" => patch,
        "rebase" => has(&["-i", "--interactive", "--edit-todo"]),
        "tag" => has(&["-a", "-s", "--annotate", "--sign"]) && !message,
        "merge" => has(&["-e", "--edit"]),
        "mergetool" | "difftool" => true,
        _ => false,
    }
}

/// The letters of a short-option cluster (`-am` gives `am`), or `None` for anything else.
fn short_flags(arg: &str) -> Option<&str> {
    arg.strip_prefix('-').filter(|f| {
        !f.is_empty() && !f.starts_with('-') && f.chars().all(|c| c.is_ascii_alphabetic())
    })
}

/// Whether `name` is an executable file in one of the `path` directories, as `execvp` finds it.
pub(crate) fn program_on_path(name: &str, path: Option<&std::ffi::OsStr>) -> bool {
    path.is_some_and(|dirs| {
        std::env::split_paths(dirs).any(|dir| {
            let candidate = dir.join(name);
            candidate.is_file() && is_executable(&candidate)
        })
    })
}

#[cfg(unix)]
fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    file.metadata()
        .is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(_: &Path) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn finds_programs_on_path() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (bin, data) = (dir.path().join("bin"), dir.path().join("data"));
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::create_dir_all(&data).unwrap();
        std::fs::write(bin.join("tool"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(bin.join("tool"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::write(data.join("notes"), "").unwrap();
        let path = std::env::join_paths([&data, &bin]).unwrap();
        assert!(program_on_path("tool", Some(&path)));
        assert!(!program_on_path("notes", Some(&path)), "not executable");
        assert!(
            !program_on_path("bin", Some(dir.path().as_os_str())),
            "a directory"
        );
        assert!(!program_on_path("ll", Some(&path)));
        assert!(!program_on_path("tool", None));
    }
}
