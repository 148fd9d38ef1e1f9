//! Which shell commands an agent's hook runs through ctxoff, and the rewritten command line. One
//! decision for every agent; whether the agent itself would run the command without asking is
//! the agent's module's question, answered before a rewrite is sent.
//!
//! A command is wrapped only when all of these hold:
//! - it is one simple command: no list, pipe, redirection or substitution (ctxoff would capture
//!   only part of it, or change where its output goes);
//! - its program is no shell builtin (`cd`, `export`, and `echo`, `printf`: the rewrite would swap
//!   the builtin for the coreutils program) and no shell's `-c` script (its commands are not
//!   checked one by one);
//! - the program is found on PATH, so it is no alias or function of the agent's shell (ctxoff
//!   cannot run those; left alone, they work);
//! - it is not interactive (editors, pagers, REPLs, `tail -f`…);
//! - no `keep` pattern matches it (`keep` always wins);
//! - the default wrap list ([`DEFAULT_WRAP`]) or a `wrap` pattern of the configuration names it,
//!   at subcommand level: `cargo test`, not `cargo`.
//!
//! A command that already runs ctxoff is not wrapped again; it only gets the session.
//!
//! The rewrite keeps the original text byte for byte behind
//! `CTXOFF_SESSION=<session> CTXOFF_AGENT=<agent> [ASSIGNMENTS] /path/to/ctxoff -- `: ctxoff by
//! its absolute path, so a `PATH=…` assignment of the command changes only where the command is
//! found; the command's own leading assignments move in front of ctxoff, whose child inherits
//! them.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};

use crate::command::lex::{self as shell, NotSimple};
use crate::command::{Invocation, base_name, first_match, is_builtin};
use crate::format::shell_quote;

/// What a rewrite needs besides the command.
pub(crate) struct Rewrite<'a> {
    /// The agent, as `CTXOFF_AGENT` names it: `claude`, `codex`, `gemini`, `opencode`.
    pub agent: &'a str,
    /// The agent's session, already a valid session name (see [`session_name`]).
    pub session: &'a str,
    /// ctxoff's absolute path (see [`ctxoff_path`]).
    pub ctxoff: &'a Path,
    /// The configuration's `wrap` patterns, added to [`DEFAULT_WRAP`].
    pub wrap: &'a [String],
    /// The configuration's `keep` patterns.
    pub keep: &'a [String],
    /// The PATH the agent's shell searches.
    pub path: Option<&'a OsStr>,
    /// Whether a program name is found in a PATH; normally [`program_on_path`].
    pub is_program: &'a dyn Fn(&str, Option<&OsStr>) -> bool,
}

/// A rewritten command, and why it was wrapped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Wrapped {
    pub command: String,
    pub listed: Listed,
}

/// Why a command is wrapped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Listed {
    /// This entry of the default wrap list names it (`cargo test`).
    Default(String),
    /// This `wrap` pattern of the configuration matches it.
    Config(String),
    /// It runs ctxoff already: only the session is added.
    Ctxoff,
}

impl fmt::Display for Listed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Listed::Default(entry) => write!(f, "`{entry}` is in the default wrap list"),
            Listed::Config(pattern) => write!(f, "the `wrap` pattern `{pattern}` matches"),
            Listed::Ctxoff => f.write_str("it runs ctxoff already: only the session is added"),
        }
    }
}

/// Why a command is left as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unwrapped {
    NotSimple(NotSimple),
    Builtin(String),
    ShellScript(String),
    NotFound(String),
    /// A `PATH=` assignment ctxoff cannot read without running the shell.
    UnknownPath,
    Interactive(String),
    Kept(String),
    NotListed(String),
    /// It runs ctxoff with a session of its own.
    OwnSession,
    /// A wrapper with nothing to run (`env`, `timeout 5`).
    NoProgram,
}

impl fmt::Display for Unwrapped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unwrapped::NotSimple(why) => write!(f, "not one simple command ({why})"),
            Unwrapped::Builtin(name) => write!(f, "`{name}` is a shell builtin"),
            Unwrapped::ShellScript(shell) => write!(
                f,
                "a `{shell} -c` script: its commands are not checked one by one"
            ),
            Unwrapped::NotFound(name) => write!(
                f,
                "`{name}` is not a program on PATH (an alias or a function of the shell?)"
            ),
            Unwrapped::UnknownPath => f.write_str("it sets PATH to something ctxoff cannot read"),
            Unwrapped::Interactive(name) => write!(f, "`{name}` is run interactively"),
            Unwrapped::Kept(pattern) => write!(f, "the `keep` pattern `{pattern}` matches"),
            Unwrapped::NotListed(command) => write!(
                f,
                "`{command}` is in neither the default wrap list nor a `wrap` pattern"
            ),
            Unwrapped::OwnSession => f.write_str("it runs ctxoff with a session of its own"),
            Unwrapped::NoProgram => f.write_str("its wrappers are given nothing to run"),
        }
    }
}

/// `command` rewritten to run through ctxoff, or why it is left as it is.
pub(crate) fn wrap(command: &str, rewrite: &Rewrite) -> Result<Wrapped, Unwrapped> {
    let cmd = shell::simple_command(command).map_err(Unwrapped::NotSimple)?;
    let program = cmd.words[0].as_str();
    if is_builtin(program) || SHELL_BUILTIN_PROGRAMS.contains(&program) {
        return Err(Unwrapped::Builtin(program.to_owned()));
    }
    let path = search_path(cmd.assignments, rewrite.path)?;
    if !program.contains('/') && !(rewrite.is_program)(program, path.as_deref()) {
        return Err(Unwrapped::NotFound(program.to_owned()));
    }
    let prefix = format!(
        "CTXOFF_SESSION={} CTXOFF_AGENT={} ",
        rewrite.session, rewrite.agent
    );
    if base_name(program) == "ctxoff" {
        // Often `ctxoff lines @last …`: given the session, `@last` and `cargo_4` resolve where the
        // hook's own runs stored their output.
        let has_session = cmd
            .assignments
            .split_whitespace()
            .any(|a| a.starts_with("CTXOFF_SESSION="));
        if has_session {
            return Err(Unwrapped::OwnSession);
        }
        return Ok(Wrapped {
            command: format!("{prefix}{command}"),
            listed: Listed::Ctxoff,
        });
    }
    let inner = Invocation::of(&cmd.words);
    if let Some(shell) = inner.wrappers.iter().find(|w| SHELLS.contains(&w.as_str())) {
        return Err(Unwrapped::ShellScript(shell.clone()));
    }
    if inner.program.is_empty() {
        return Err(Unwrapped::NoProgram);
    }
    let name = inner.name();
    if name == "ctxoff" {
        return Err(Unwrapped::OwnSession);
    }
    if is_builtin(name) || SHELL_BUILTIN_PROGRAMS.contains(&name) {
        return Err(Unwrapped::Builtin(name.to_owned()));
    }
    if is_interactive(&inner.program) {
        return Err(Unwrapped::Interactive(name.to_owned()));
    }
    if let Some(pattern) = first_match(rewrite.keep, &cmd.words) {
        return Err(Unwrapped::Kept(pattern.to_owned()));
    }
    let listed = match (
        default_entry(&inner.program),
        first_match(rewrite.wrap, &cmd.words),
    ) {
        (Some(entry), _) => Listed::Default(entry),
        (None, Some(pattern)) => Listed::Config(pattern.to_owned()),
        (None, None) => return Err(Unwrapped::NotListed(inner.program.join(" "))),
    };
    let assignments = match cmd.assignments {
        "" => String::new(),
        a => format!("{a} "),
    };
    let ctxoff = shell_quote(&rewrite.ctxoff.to_string_lossy());
    Ok(Wrapped {
        command: format!("{prefix}{assignments}{ctxoff} -- {}", cmd.rest),
        listed,
    })
}

/// bash builtins that are also programs on PATH: wrapped, the program would run instead.
const SHELL_BUILTIN_PROGRAMS: &[&str] = &["echo", "printf"];

/// Shells whose `-c` script the command model sees through.
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh"];

/// The PATH the program is looked up in: `inherited`, or what a leading `PATH=` assignment sets,
/// with `$PATH` and `${PATH}` expanded. Anything else in it (quotes, other expansions) cannot be
/// read without the shell.
fn search_path(
    assignments: &str,
    inherited: Option<&OsStr>,
) -> Result<Option<OsString>, Unwrapped> {
    let Some(value) = assignments
        .split_whitespace()
        .filter_map(|a| a.strip_prefix("PATH="))
        .next_back()
    else {
        return Ok(inherited.map(OsStr::to_owned));
    };
    let inherited = inherited.map(|p| p.to_string_lossy().into_owned());
    let expanded = value
        .replace("${PATH}", inherited.as_deref().unwrap_or(""))
        .replace("$PATH", inherited.as_deref().unwrap_or(""));
    if expanded.contains(['$', '\'', '"', '\\', '`', '~']) {
        return Err(Unwrapped::UnknownPath);
    }
    Ok(Some(expanded.into()))
}

/// The programs whose output can be large, with their subcommands that produce it: test
/// runners, builds, compilers, linters, package managers' install and build, version-control
/// history and diffs, search, listing and reading tools, logs. At subcommand level, so that what
/// a user is likely to forbid (`cargo publish`, `git push`, `npm publish`, `docker run`) is never
/// a command the hook approves; programs that change files (`rm`, `mv`, `cp`, `sed`) are left out
/// too, as an alias of the user's shell may shadow them (`alias rm='rm -i'`) and the rewrite would
/// bypass it.
///
/// An empty list: every run of the program. `""`: the program with options only (`make -j4`).
/// Subcommands are matched after the program's global options (`git -C sub log`,
/// `cargo +nightly test`, `make -C dir test`) and `NAME=value` words (`make CC=clang`).
pub(crate) const DEFAULT_WRAP: &[(&str, &[&str])] = &[
    // Rust, Go, C and friends.
    (
        "cargo",
        &[
            "test", "t", "build", "b", "check", "c", "clippy", "doc", "d", "bench", "nextest",
            "tree", "metadata",
        ],
    ),
    ("rustc", &[]),
    ("go", &["test", "build", "vet"]),
    ("golangci-lint", &["run"]),
    ("gcc", &[]),
    ("g++", &[]),
    ("cc", &[]),
    ("c++", &[]),
    ("clang", &[]),
    ("clang++", &[]),
    (
        "make",
        &["", "all", "build", "check", "test", "tests", "lint"],
    ),
    (
        "gmake",
        &["", "all", "build", "check", "test", "tests", "lint"],
    ),
    ("ninja", &[]),
    ("cmake", &[]),
    ("ctest", &[]),
    ("meson", &["compile", "test"]),
    ("bazel", &["build", "test", "query"]),
    ("bazelisk", &["build", "test", "query"]),
    ("zig", &["build", "test"]),
    ("swift", &["build", "test"]),
    ("dotnet", &["build", "test", "restore"]),
    ("mvn", &["compile", "test", "package", "verify", "install"]),
    ("mvnw", &["compile", "test", "package", "verify", "install"]),
    ("gradle", &["build", "test", "check", "assemble"]),
    ("gradlew", &["build", "test", "check", "assemble"]),
    ("javac", &[]),
    ("mix", &["compile", "test"]),
    // JavaScript and TypeScript.
    (
        "npm",
        &[
            "test",
            "t",
            "ci",
            "install",
            "i",
            "ls",
            "audit",
            "outdated",
            "run build",
            "run test",
            "run lint",
            "run typecheck",
            "run check",
        ],
    ),
    (
        "pnpm",
        &[
            "test",
            "t",
            "install",
            "i",
            "build",
            "lint",
            "typecheck",
            "ls",
            "audit",
            "outdated",
            "run build",
            "run test",
            "run lint",
            "run typecheck",
            "run check",
        ],
    ),
    (
        "yarn",
        &[
            "",
            "test",
            "install",
            "build",
            "lint",
            "typecheck",
            "audit",
            "outdated",
            "run build",
            "run test",
            "run lint",
            "run typecheck",
            "run check",
        ],
    ),
    (
        "bun",
        &[
            "test",
            "install",
            "i",
            "run build",
            "run test",
            "run lint",
            "run typecheck",
        ],
    ),
    ("deno", &["test", "lint", "check"]),
    ("tsc", &[]),
    ("vue-tsc", &[]),
    ("jest", &[]),
    ("vitest", &[]),
    ("mocha", &[]),
    ("playwright", &["test"]),
    ("eslint", &[]),
    ("biome", &["check", "lint", "ci"]),
    ("next", &["build", "lint"]),
    ("vite", &["build"]),
    ("webpack", &[]),
    // Python, Ruby, PHP.
    ("pytest", &[]),
    ("py.test", &[]),
    ("unittest", &[]),
    ("tox", &[]),
    ("nox", &[]),
    ("mypy", &[]),
    ("pyright", &[]),
    ("ruff", &["check"]),
    ("flake8", &[]),
    ("pylint", &[]),
    ("pip", &["install", "list", "freeze", "show", "check"]),
    ("pip3", &["install", "list", "freeze", "show", "check"]),
    (
        "uv",
        &[
            "sync",
            "lock",
            "build",
            "pip install",
            "pip list",
            "pip freeze",
        ],
    ),
    ("poetry", &["install", "lock", "show", "build"]),
    ("pipenv", &["install"]),
    ("rspec", &[]),
    ("rubocop", &[]),
    ("bundle", &["install"]),
    ("phpunit", &[]),
    ("composer", &["install"]),
    ("shellcheck", &[]),
    // Version control.
    (
        "git",
        &[
            "log",
            "diff",
            "show",
            "status",
            "grep",
            "blame",
            "ls-files",
            "ls-tree",
            "shortlog",
            "reflog",
            "whatchanged",
        ],
    ),
    ("hg", &["log", "diff", "status"]),
    // Searching, listing and reading.
    ("grep", &[]),
    ("egrep", &[]),
    ("fgrep", &[]),
    ("rg", &[]),
    ("ag", &[]),
    ("ack", &[]),
    ("find", &[]),
    ("fd", &[]),
    ("fdfind", &[]),
    ("ls", &[]),
    ("tree", &[]),
    ("du", &[]),
    ("cat", &[]),
    ("head", &[]),
    ("tail", &[]),
    ("jq", &[]),
    ("yq", &[]),
    ("diff", &[]),
    ("objdump", &[]),
    ("nm", &[]),
    ("readelf", &[]),
    ("xxd", &[]),
    ("hexdump", &[]),
    ("od", &[]),
    // Logs and system state.
    ("journalctl", &[]),
    ("dmesg", &[]),
    ("ps", &[]),
    (
        "docker",
        &[
            "logs",
            "build",
            "images",
            "ps",
            "compose logs",
            "compose build",
        ],
    ),
    ("podman", &["logs", "build", "images", "ps"]),
    ("kubectl", &["logs", "describe", "get"]),
];

/// Options of a program's own that come before its subcommand and take the next word as their
/// value.
const GLOBAL_VALUED: &[(&str, &[&str])] = &[
    (
        "git",
        &["-C", "-c", "--git-dir", "--work-tree", "--namespace"],
    ),
    (
        "make",
        &["-C", "-f", "--file", "--directory", "-I", "-o", "-W"],
    ),
    (
        "gmake",
        &["-C", "-f", "--file", "--directory", "-I", "-o", "-W"],
    ),
    ("cargo", &["-C", "--config", "-Z", "--color"]),
    ("go", &["-C"]),
    ("npm", &["--prefix", "-w", "--workspace"]),
    ("pnpm", &["-C", "--dir", "--filter", "-F"]),
    ("yarn", &["--cwd"]),
    ("uv", &["--directory", "--project"]),
    ("docker", &["-H", "--host", "-c", "--context", "--config"]),
    ("podman", &["--url", "-c", "--connection"]),
    (
        "kubectl",
        &[
            "-n",
            "--namespace",
            "--context",
            "--cluster",
            "--kubeconfig",
        ],
    ),
];

/// The default wrap list's entry for a program and its arguments (`cargo test`), if any.
fn default_entry(program: &[String]) -> Option<String> {
    let name = base_name(&program[0]);
    let (_, subcommands) = DEFAULT_WRAP.iter().find(|(p, _)| *p == name)?;
    if subcommands.is_empty() {
        return Some(name.to_owned());
    }
    let valued = GLOBAL_VALUED
        .iter()
        .find(|(p, _)| *p == name)
        .map_or(&[][..], |(_, v)| v);
    let mut rest = &program[1..];
    while let Some((word, more)) = rest.split_first() {
        if word == "--" {
            rest = more;
            break;
        }
        let is_option =
            word.starts_with('-') || word.starts_with('+') || shell::is_assignment(word);
        if !is_option {
            break;
        }
        rest = match valued.contains(&word.as_str()) {
            true => more.get(1..).unwrap_or_default(),
            false => more,
        };
    }
    subcommands
        .iter()
        .find(|sub| match **sub {
            "" => rest
                .iter()
                .all(|w| w.starts_with('-') || shell::is_assignment(w)),
            sub => {
                let words: Vec<&str> = sub.split(' ').collect();
                rest.len() >= words.len() && rest.iter().zip(&words).all(|(a, b)| a == b)
            }
        })
        .map(|sub| match *sub {
            "" => name.to_owned(),
            sub => format!("{name} {sub}"),
        })
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
    let follows = has(&["-f", "--follow"]);
    INTERACTIVE.contains(&program)
        || (REPLS.contains(&program) && (args.is_empty() || has(&["-i"])))
        || match program {
            "git" => git_is_interactive(args),
            // Follows forever: the agent would see nothing until the call times out.
            "tail" => args.iter().any(|a| {
                a.starts_with("--follow")
                    || (short_flags(a).is_some_and(|f| f.contains(['f', 'F'])))
            }),
            "journalctl" => follows,
            "docker" | "podman" | "kubectl" => {
                has(&[
                    "-it",
                    "-ti",
                    "-i",
                    "-t",
                    "--interactive",
                    "--tty",
                    "--stdin",
                ]) || (args.iter().any(|a| a == "logs") && follows)
            }
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

/// Whether a command line runs ctxoff itself (wrapped by a hook, or typed so): its output is
/// already a summary, or small enough to pass.
pub(crate) fn runs_ctxoff(command: &str) -> bool {
    shell::list_commands(command).iter().any(|cmd| {
        base_name(&cmd.words[0]) == "ctxoff" || Invocation::of(&cmd.words).name() == "ctxoff"
    })
}

/// The first `keep` pattern matching one of the commands of a command line (`git diff | head`
/// is kept by `git diff*`).
pub(crate) fn kept_by<'p>(command: &str, keep: &'p [String]) -> Option<&'p str> {
    shell::list_commands(command)
        .iter()
        .find_map(|cmd| first_match(keep, &cmd.words))
}

/// An agent's session id as a ctxoff session name: reduced to `[A-Za-z0-9._-]`, so it needs no
/// shell quoting; `None` when nothing usable is left. A UUID (Claude Code, Codex and Gemini CLI
/// name sessions so) becomes its last 8 hex digits, random in UUID v4 and v7 alike: the name
/// is in every path of every summary, where a whole UUID costs 26 tokens more each time.
pub(crate) fn session_name(id: &str) -> Option<String> {
    if is_uuid(id) {
        return Some(id[id.len() - 8..].to_ascii_lowercase());
    }
    let name = crate::store::sanitize(id, "");
    crate::store::checked_session_name(&name).ok()
}

/// `0f9c2a7e-3b1d-4c8e-9a57-2d6e1f0b8c43`: five groups of 8, 4, 4, 4 and 12 hex digits.
fn is_uuid(id: &str) -> bool {
    let groups: Vec<&str> = id.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// This ctxoff's absolute path, as the rewrite and the installed hooks call it: the real path of
/// the running executable, `None` when it is gone (replaced during an upgrade).
pub(crate) fn ctxoff_path() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    (exe.is_absolute() && exe.is_file()).then_some(exe)
}

/// Whether `name` is an executable file in one of the `path` directories, as `execvp` finds it.
pub(crate) fn program_on_path(name: &str, path: Option<&OsStr>) -> bool {
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
mod tests;
