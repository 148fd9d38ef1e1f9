//! `ctxoff hook claude`: the Claude Code `PreToolUse` hook handler (SPEC §8). It reads the hook
//! event on stdin and, for a simple Bash command it can wrap safely, prints a rewrite to
//! `CTXOFF_SESSION=<session> ctxoff -- <command>` (a command already running ctxoff only gets the
//! `CTXOFF_SESSION=` prefix, so its references resolve in the same session). Everything else gets
//! no output and exit 0, which Claude Code treats as "no opinion": the hook must never break or
//! block a tool call.
//! Deciding what is a simple command is `shell`'s job; installing the hook is `init`'s.
//!
//! The output schema (Claude Code hooks reference, "PreToolUse decision control",
//! <https://code.claude.com/docs/en/hooks>):
//!
//! ```json
//! {"hookSpecificOutput": {"hookEventName": "PreToolUse",
//!                         "updatedInput": {"command": "…", "description": "…", "timeout": 120000}}}
//! ```
//!
//! `updatedInput` replaces the whole tool input, so every other field is copied through.
//! No `permissionDecision` is sent on purpose: `"allow"` would skip the user's permission prompt
//! for anything the hook rewrites (rtk-ai/rtk#260, #1155 were exactly that bug), and `"ask"`
//! would prompt for everything. Without a decision Claude Code runs its normal permission flow,
//! which evaluates the user's rules against the rewritten command. Known consequences
//! (anthropics/claude-code#65393, #89448): an allow rule such as `Bash(cargo test:*)` no longer
//! matches, so the user is asked instead; a deny rule degrades to a prompt rather than a block.
//! Neither runs anything the user would otherwise have been asked about.

use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Arg, ArgMatches, Command, ValueEnum, value_parser};
use serde_json::{Map, Value, json};

use crate::shell;

/// `ctxoff hook`'s arguments.
#[derive(Debug)]
pub struct HookArgs {
    /// The agent whose hook protocol to speak.
    pub agent: Agent,
}

const LONG_ABOUT: &str = "\
Rewrite an agent's shell commands to run through ctxoff (an agent hook handler).

Install it with `ctxoff init claude`. Claude Code runs it before every Bash tool call with the \
call as JSON on stdin; for a simple command it prints a rewrite to `CTXOFF_SESSION=<session id> \
ctxoff -- <command>`, so large outputs land in the agent's session. It leaves alone (prints \
nothing, exits 0) what a prefix could change: shell builtins such as `cd` or `export`, lists and \
pipelines (`;`, `&&`, `|`), redirections, substitutions, interactive programs, names not found on \
PATH (aliases, functions), background commands, and commands matching a `keep` pattern of the \
configuration. A command that already runs ctxoff only gets the session. It never approves a \
command: Claude Code's own permission rules still decide.";

impl HookArgs {
    pub fn command() -> Command {
        Command::new("hook")
            .about(
                "Rewrite an agent's shell commands to run through ctxoff (an agent hook handler)",
            )
            .long_about(LONG_ABOUT)
            .arg(
                Arg::new("agent")
                    .value_name("AGENT")
                    .help("The agent whose hook protocol to speak")
                    .required(true)
                    .value_parser(value_parser!(Agent)),
            )
    }

    pub fn from_matches(matches: &ArgMatches) -> HookArgs {
        HookArgs {
            agent: *matches.get_one("agent").expect("required"),
        }
    }
}

/// Agents ctxoff integrates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
}

/// How agents are named on the command line, with the help `--help` shows for each.
impl ValueEnum for Agent {
    fn value_variants<'a>() -> &'a [Agent] {
        &[Agent::Claude]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Agent::Claude => PossibleValue::new("claude")
                .help("Claude Code (a PreToolUse hook on the Bash tool)"),
        })
    }
}

/// Reads one hook event from `input` and writes the rewrite, if any, to `out`. Always exit 0:
/// bad input, an unknown event or an unwrappable command all mean "no change".
pub fn run(
    args: &HookArgs,
    keep: &[String],
    input: &mut dyn Read,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let Agent::Claude = args.agent;
    let mut event = String::new();
    if input.read_to_string(&mut event).is_ok()
        && let Some(response) = claude_rewrite(&event, keep, &|program| {
            program_on_path(program, std::env::var_os("PATH").as_deref())
        })
    {
        // A failed write leaves Claude Code with no output, which is "no change": still exit 0.
        let _ = writeln!(out, "{response}").and_then(|()| out.flush());
    }
    Ok(ExitCode::SUCCESS)
}

/// The hook response for a Claude Code `PreToolUse` event, or `None` to leave the call alone.
/// `is_program` tells whether a command name is a program ctxoff can run (see `wrap_command`).
pub fn claude_rewrite(
    event: &str,
    keep: &[String],
    is_program: &dyn Fn(&str) -> bool,
) -> Option<Value> {
    let event: Value = serde_json::from_str(event).ok()?;
    if event.get("hook_event_name")?.as_str()? != "PreToolUse"
        || event.get("tool_name")?.as_str()? != "Bash"
    {
        return None;
    }
    let session = session_name(event.get("session_id")?.as_str()?)?;
    let tool_input = event.get("tool_input")?.as_object()?;
    // Background commands are read while they run; ctxoff holds output until it can decide.
    if tool_input.get("run_in_background").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    let command = wrap_command(
        tool_input.get("command")?.as_str()?,
        &session,
        keep,
        is_program,
    )?;
    let mut updated: Map<String, Value> = tool_input.clone();
    updated.insert("command".into(), Value::String(command));
    Some(json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": updated,
        }
    }))
}

/// `command` prefixed to run through ctxoff in `session`, or `None` when a prefix could change
/// what it does. A command that already runs ctxoff only gets the session. The original text is
/// kept byte for byte; leading `NAME=value` assignments move in front of `ctxoff`, whose child
/// inherits them.
///
/// A program name without a `/` must satisfy `is_program` (normally: found on `PATH`). Claude
/// Code's shell loads the user's aliases and functions (`ll`, `gst`); ctxoff cannot run those, and
/// left alone they work.
pub fn wrap_command(
    command: &str,
    session: &str,
    keep: &[String],
    is_program: &dyn Fn(&str) -> bool,
) -> Option<String> {
    let cmd = shell::simple_command(command).ok()?;
    let program = cmd.words[0].as_str();
    if SHELL_BUILTINS.contains(&program)
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
    let inner = see_through_wrappers(&cmd.words);
    if inner.is_empty()
        || base_name(&inner[0]) == "ctxoff"
        || is_interactive(inner)
        || keep
            .iter()
            .any(|k| shell::matches_keep(k, &cmd.words) || shell::matches_keep(k, inner))
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

/// Claude Code session ids are UUIDs; anything else is reduced to `[A-Za-z0-9._-]` so it needs no
/// shell quoting and is a valid ctxoff session name. `None` when nothing usable is left.
fn session_name(id: &str) -> Option<String> {
    let name = crate::store::sanitize(id, "");
    crate::store::checked_session_name(&name).ok()
}

/// Builtins and commands that act on the shell itself (directory, variables, options, jobs,
/// history) or need its state (`type`, `kill %1`, `pwd` and symlinks). Run as a child of ctxoff
/// they would change or see a throwaway process instead. `echo` and `printf` are wrapped: the
/// programs behave like the builtins, except `printf -v`, which assigns a variable.
const SHELL_BUILTINS: &[&str] = &[
    ".",
    ":",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

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

/// The command a wrapper runs: `sudo -u x vim` is `vim`, `env A=1 less` is `less`,
/// `timeout 5 top` is `top`, `nice -n 5 htop` is `htop`. Empty when the wrapper is given nothing.
fn see_through_wrappers(words: &[String]) -> &[String] {
    let mut rest = words;
    loop {
        let Some((first, mut tail)) = rest.split_first() else {
            return rest;
        };
        match base_name(first) {
            "sudo" | "doas" => {
                tail = skip_options(
                    tail,
                    &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"],
                )
            }
            "nice" | "ionice" | "stdbuf" | "nohup" | "setsid" => {
                tail = skip_options(tail, &["-n", "-c"])
            }
            "env" => {
                tail = skip_options(tail, &["-u", "-C", "-S"]);
                while tail.first().is_some_and(|w| w.contains('=')) {
                    tail = &tail[1..];
                }
            }
            "timeout" => {
                tail = skip_options(tail, &["-s", "-k"]);
                tail = tail.get(1..).unwrap_or(&[]);
            }
            _ => return rest,
        }
        rest = tail;
    }
}

/// `words` after the wrapper's options; `with_value` lists the options that take a value.
fn skip_options<'a>(mut words: &'a [String], with_value: &[&str]) -> &'a [String] {
    while let Some((option, more)) = words.split_first() {
        if option == "--" {
            return more;
        }
        if !option.starts_with('-') || option == "-" {
            break;
        }
        words = match with_value.contains(&option.as_str()) {
            true => more.get(1..).unwrap_or(&[]),
            false => more,
        };
    }
    words
}

/// Whether `name` is an executable file in one of the `path` directories, as `execvp` finds it.
pub fn program_on_path(name: &str, path: Option<&std::ffi::OsStr>) -> bool {
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

fn base_name(program: &str) -> &str {
    Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: &str = "7f3c2a9e-5b1d-4e8f-9a2c-1d3e5f7a9b0c";

    /// A PreToolUse event as Claude Code sends it for a Bash call.
    fn event(command: &str) -> Value {
        json!({
            "session_id": SESSION,
            "transcript_path": "/home/ana/.claude/projects/-home-ana-proj/7f3c2a9e.jsonl",
            "cwd": "/home/ana/proj",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {
                "command": command,
                "description": "Run the test suite",
                "timeout": 120000
            },
            "tool_use_id": "toolu_01ABCDEFGHJKLMNPQRSTUVWX"
        })
    }

    /// Names the fake shell knows only as aliases or functions; everything else is a program.
    const NOT_PROGRAMS: &[&str] = &["ll", "gst", "my_function"];

    /// The response line for `input`, or "" when the hook would print nothing.
    fn hook(input: &str, keep: &[&str]) -> String {
        let keep: Vec<String> = keep.iter().map(|k| k.to_string()).collect();
        let is_program = |p: &str| !NOT_PROGRAMS.contains(&p);
        match claude_rewrite(input, &keep, &is_program) {
            Some(response) => format!("{response}\n"),
            None => String::new(),
        }
    }

    /// The rewritten command, or `None` when the hook printed nothing.
    fn rewritten(command: &str) -> Option<String> {
        let out = hook(&event(command).to_string(), &[]);
        if out.is_empty() {
            return None;
        }
        let v: Value = serde_json::from_str(&out).unwrap();
        Some(
            v["hookSpecificOutput"]["updatedInput"]["command"]
                .as_str()
                .unwrap()
                .to_owned(),
        )
    }

    fn wrapped(command: &str) -> String {
        format!("CTXOFF_SESSION={SESSION} ctxoff -- {command}")
    }

    #[test]
    fn whole_response_shape() {
        let out = hook(&event("cargo test --workspace").to_string(), &[]);
        assert!(
            out.ends_with('\n') && out.lines().count() == 1,
            "one JSON line: {out:?}"
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v,
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "updatedInput": {
                    "command": wrapped("cargo test --workspace"),
                    "description": "Run the test suite",
                    "timeout": 120000
                }
            }})
        );
        // Never a permission decision: the user's own rules and prompts stay in charge.
        assert!(!out.contains("permissionDecision"), "{out}");
    }

    #[test]
    fn wraps_simple_commands_keeping_quotes_exactly() {
        for command in [
            "cargo test",
            "ls -la",
            "echo 'a && b'",
            r#"grep -rn "x|y" src/"#,
            r#"rg 'fn (main|run)\(' --type rust"#,
            r#"echo "it's \"quoted\"" 'and $NOT expanded'"#,
            r"find . -name \*.rs -exec wc -l {} \;",
            "git log --format='%h %s' -n 20",
            "python3 -c 'import sys; print(sys.version)'",
            "sh -c 'make && make install'",
            "git diff --stat",
            "cat $HOME/notes.txt",
            "cargo build 2>&1",
            "cargo test \\\n  --all",
            "echo 'line one\nline two'",
            "printf '%s\\n' a b",
            "sudo apt-get install -y ripgrep",
            "timeout 60 npm test",
            "/usr/bin/make -j4",
            "git commit -m 'fix: handle ; in messages'",
            "git commit -am \"wip\"",
            "git -C sub commit --message=x",
            "python3 script.py",
            "node --version",
            "tail -n 100 log.txt",
            "docker ps -a",
        ] {
            assert_eq!(rewritten(command), Some(wrapped(command)), "{command:?}");
        }
    }

    #[test]
    fn moves_leading_assignments_in_front_of_ctxoff() {
        assert_eq!(
            rewritten("RUST_LOG=debug RUST_BACKTRACE=1 cargo test -- --nocapture").as_deref(),
            Some(
                format!(
                    "CTXOFF_SESSION={SESSION} RUST_LOG=debug RUST_BACKTRACE=1 ctxoff -- cargo test -- --nocapture"
                )
                .as_str()
            )
        );
        assert_eq!(
            rewritten("NODE_OPTIONS='--max-old-space-size=4096' npx jest"),
            Some(format!(
                "CTXOFF_SESSION={SESSION} NODE_OPTIONS='--max-old-space-size=4096' ctxoff -- npx jest"
            ))
        );
    }

    #[test]
    fn leaves_builtins_and_shell_changers_alone() {
        for command in [
            "cd src",
            "cd",
            "export PATH=$HOME/bin:$PATH",
            "source .venv/bin/activate",
            ". ./env.sh",
            "alias ll='ls -l'",
            "unalias ll",
            "set -e",
            "unset FOO",
            "exec bash",
            "eval \"$CMD\"",
            "pushd /tmp",
            "popd",
            "ulimit -n 4096",
            "umask 022",
            "trap 'echo bye' EXIT",
            "shopt -s globstar",
            "declare -x A=1",
            "type cargo",
            "pwd",
            "jobs",
            "kill %1",
            "true",
            "printf -v x '%s' y",
            "\"cd\" src",
            "FOO=bar",
            "A=1 B=2",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn leaves_compound_commands_alone() {
        for command in [
            "cd src && cargo test",
            "cargo build; cargo test",
            "make || true",
            "cargo test 2>&1 | tail -50",
            "sleep 10 &",
            "cargo test > out.txt",
            "cargo test >> out.txt 2>&1",
            "wc -l < file",
            "cargo test 2>/dev/null",
            "cat <<'EOF'\nhello\nEOF",
            "(cd sub && make)",
            "{ make; make test; }",
            "echo $(git rev-parse HEAD)",
            "echo `date`",
            "cargo fmt\ncargo clippy",
            "for f in *.rs; do wc -l $f; done",
            "if [ -f x ]; then cat x; fi",
            "time cargo build",
            "! grep -q x file",
            "diff <(sort a) <(sort b)",
            "echo 'unterminated",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn leaves_interactive_programs_alone() {
        for command in [
            "vim src/main.rs",
            "less README.md",
            "top",
            "htop",
            "man git",
            "ssh host uptime",
            "tmux attach",
            "watch -n 1 ls",
            "python3",
            "python",
            "node",
            "psql",
            "bash",
            "python3 -i script.py",
            "/usr/bin/vim x",
            "sudo -u root vim /etc/hosts",
            "env EDITOR=vim nano x",
            "timeout 5 top",
            "git commit",
            "git commit --amend",
            "git commit -a",
            "git commit -m x --patch",
            "git -C sub commit -v",
            "git rebase -i HEAD~3",
            "git add -p",
            "git checkout --patch",
            "git tag -a v1.0",
            "git mergetool",
            "tail -f app.log",
            "tail -F app.log",
            "tail --follow=name app.log",
            "journalctl -f",
            "docker run -it ubuntu bash",
            "kubectl exec -it pod -- sh",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn commands_already_using_ctxoff_only_get_the_session() {
        for command in [
            "ctxoff cargo test",
            "ctxoff -- make",
            "ctxoff lines @last 1:40",
            "ctxoff grep cargo_4 'error\\[E' -C 3",
            "CTXOFF_THRESHOLD=100 ctxoff make",
            "~/.cargo/bin/ctxoff list",
        ] {
            let expected = format!("CTXOFF_SESSION={SESSION} {command}");
            assert_eq!(rewritten(command), Some(expected), "{command:?}");
        }
        for command in [
            "CTXOFF_SESSION=mine ctxoff lines @last 1:9",
            "env A=1 ctxoff make",
            "sudo ctxoff make",
            "ctxoff cargo test && ctxoff list",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn leaves_aliases_and_functions_alone() {
        for command in ["ll", "ll -a src", "gst", "my_function arg", "RUST_LOG=1 ll"] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
        // A path is run as it is, whatever PATH holds.
        assert_eq!(rewritten("./ll"), Some(wrapped("./ll")));
        assert_eq!(rewritten("sudo ll"), Some(wrapped("sudo ll")));
    }

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

    #[test]
    fn run_reads_stdin_and_writes_one_line() {
        let args = HookArgs {
            agent: Agent::Claude,
        };
        let input = event("ls -la").to_string();
        let mut out = Vec::new();
        let code = run(&args, &[], &mut input.as_bytes(), &mut out).unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains(" ctxoff -- ls -la\""), "{out}");
        assert!(out.ends_with("}\n") && out.lines().count() == 1, "{out}");
    }

    #[test]
    fn leaves_keep_patterns_alone() {
        let keep = ["git diff*", "cat *.md"];
        for (command, expect) in [
            ("git diff", true),
            ("git diff --stat HEAD~1", true),
            ("git  diff", true),
            ("cat README.md", true),
            ("sudo git diff", true),
            ("git status", false),
            ("cat src/main.rs", false),
        ] {
            let out = hook(&event(command).to_string(), &keep);
            assert_eq!(out.is_empty(), expect, "{command:?}: {out}");
        }
    }

    #[test]
    fn leaves_background_commands_alone() {
        let mut e = event("npm run dev");
        e["tool_input"]["run_in_background"] = json!(true);
        assert_eq!(hook(&e.to_string(), &[]), "");
        e["tool_input"]["run_in_background"] = json!(false);
        assert!(hook(&e.to_string(), &[]).contains("ctxoff -- npm run dev"));
    }

    #[test]
    fn session_id_is_sanitised() {
        let mut e = event("make");
        e["session_id"] = json!("ab c/../$(rm -rf ~)");
        let out: Value = serde_json::from_str(&hook(&e.to_string(), &[])).unwrap();
        assert_eq!(
            out["hookSpecificOutput"]["updatedInput"]["command"],
            "CTXOFF_SESSION=ab_c_..___rm_-rf___ ctxoff -- make"
        );
        for bad in [json!(""), json!(".."), json!(42), Value::Null] {
            e["session_id"] = bad.clone();
            assert_eq!(hook(&e.to_string(), &[]), "", "{bad}");
        }
    }

    #[test]
    fn malformed_input_means_no_change() {
        let mut inputs: Vec<String> = [
            "",
            "not json",
            "{",
            "[]",
            "null",
            "{}",
            "\u{feff}garbage \u{0}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mutations: [fn(&mut Value); 9] = [
            |e| e["hook_event_name"] = json!("PostToolUse"),
            |e| e["tool_name"] = json!("Edit"),
            |e| e["tool_name"] = json!("bash"),
            |e| {
                e.as_object_mut().unwrap().remove("tool_input");
            },
            |e| e["tool_input"] = json!("cargo test"),
            |e| e["tool_input"]["command"] = json!(["cargo", "test"]),
            |e| {
                e["tool_input"].as_object_mut().unwrap().remove("command");
            },
            |e| e["tool_input"]["command"] = json!("   "),
            |e| {
                e.as_object_mut().unwrap().remove("hook_event_name");
            },
        ];
        for mutate in mutations {
            let mut e = event("cargo test");
            mutate(&mut e);
            inputs.push(e.to_string());
        }
        for input in &inputs {
            assert_eq!(hook(input, &[]), "", "{input}");
        }
        // Invalid UTF-8 on stdin.
        let mut out = Vec::new();
        let args = HookArgs {
            agent: Agent::Claude,
        };
        run(&args, &[], &mut &b"\xff\xfe{}"[..], &mut out).unwrap();
        assert!(out.is_empty());
    }
}
