//! `ctxoff init`: sets an agent up to use ctxoff (SPEC §8). It parses the arguments and hands
//! the agent's settings to its installer (`agent::<client>::install`); `--print` prints the
//! instruction snippet for AGENTS.md / CLAUDE.md.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Arg, ArgAction, ArgGroup, ArgMatches, Command, value_parser};

use super::{Context, Run};
use crate::agent::Agent;
use crate::agent::claude::install;
use crate::agent::wrap::ctxoff_path;

/// `ctxoff init`'s arguments.
#[derive(Debug)]
pub struct InitArgs {
    /// The agent whose settings to change; `None` with `--print`.
    pub agent: Option<Agent>,
    pub global: bool,
    pub project: bool,
    pub dry_run: bool,
    pub uninstall: bool,
    pub check: bool,
    pub print: bool,
    /// The agent `--print` was given, if any.
    pub print_for: Option<String>,
}

const LONG_ABOUT: &str = "\
Set up an agent to use ctxoff: install its hook, or print instructions for it.

`ctxoff init claude` adds ctxoff's hooks to Claude Code's settings, PreToolUse and PostToolUse on \
the Bash tool, calling this ctxoff by its absolute path (see `ctxoff hook`). By default the \
user's settings are changed (`$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`): \
the hooks then work in every project without committing anything to one; `--project` changes \
`.claude/settings.json` in the current directory instead, to share them with a team. Other \
settings and hooks are kept; the old file is saved as `settings.json.bak` (`.bak.1`, `.bak.2`… \
when that exists, with the file's own mode) before any change; a symlinked file stays a symlink \
and a read-only one is an error. Running it again changes nothing; an older entry of ctxoff's is \
pointed at this ctxoff. `--check` says where the hooks are installed and what they run (exit 1 \
when they are not installed for both events).

`ctxoff init codex`, `ctxoff init gemini` and `ctxoff init opencode` do the same for Codex CLI \
(a PreToolUse hook in hooks.json, recorded as trusted in config.toml), Gemini CLI (BeforeTool and \
AfterTool hooks in settings.json) and opencode (a plugin, ctxoff.ts, in its plugin folder). \
`--check` says whether the hook is installed and in effect.

`ctxoff init --print` prints a Markdown snippet for AGENTS.md or CLAUDE.md that teaches an agent \
the `ctxoff` prefix and the read-back commands, e.g. `ctxoff init --print >> CLAUDE.md`; \
`--print AGENT` adapts it to the instruction file AGENT reads (cursor, copilot, aider, windsurf, \
cline, claude, codex, gemini, opencode) and says on stderr which file that is.";

impl InitArgs {
    pub(crate) fn command() -> Command {
        let flag = |id: &'static str, long: &'static str, help: &'static str| {
            Arg::new(id)
                .long(long)
                .help(help)
                .action(ArgAction::SetTrue)
        };
        Command::new("init")
            .about("Set up an agent to use ctxoff: install its hook, or print instructions for it")
            .long_about(LONG_ABOUT)
            .args([
                Arg::new("agent")
                    .value_name("AGENT")
                    .help("The agent whose settings to change")
                    .value_parser(value_parser!(Agent)),
                flag(
                    "global",
                    "global",
                    "Change the user's settings, ~/.claude/settings.json or \
                     $CLAUDE_CONFIG_DIR/settings.json (the default)",
                )
                .conflicts_with_all(["project", "print"]),
                flag(
                    "project",
                    "project",
                    "Change .claude/settings.json in the current directory",
                )
                .conflicts_with("print"),
                flag(
                    "dry_run",
                    "dry-run",
                    "Show what would change; write nothing",
                )
                .conflicts_with("print"),
                flag(
                    "uninstall",
                    "uninstall",
                    "Remove ctxoff's hooks, and nothing else",
                )
                .conflicts_with("print"),
                flag(
                    "check",
                    "check",
                    "Say where ctxoff's hooks are installed and what they run; change nothing",
                )
                .conflicts_with_all([
                    "print",
                    "dry_run",
                    "uninstall",
                    "global",
                    "project",
                ]),
                Arg::new("print")
                    .long("print")
                    .value_name("AGENT")
                    .num_args(0..=1)
                    .help("Print the instruction snippet (for AGENT's instruction file); write nothing")
                    .conflicts_with("agent"),
            ])
            .group(
                ArgGroup::new("what")
                    .required(true)
                    .args(["agent", "print"]),
            )
    }

    pub(crate) fn from_matches(matches: &ArgMatches) -> InitArgs {
        InitArgs {
            agent: matches.get_one("agent").copied(),
            global: matches.get_flag("global"),
            project: matches.get_flag("project"),
            dry_run: matches.get_flag("dry_run"),
            uninstall: matches.get_flag("uninstall"),
            check: matches.get_flag("check"),
            print: matches.contains_id("print"),
            print_for: matches.get_one::<String>("print").cloned(),
        }
    }
}

/// Runs `ctxoff init`. Reports go to `out`; a settings file that cannot be used is one line on
/// `err` and exit 2, with nothing written.
impl Run for InitArgs {
    fn run(&self, ctx: &mut Context) -> anyhow::Result<ExitCode> {
        let cwd = ctx
            .cwd
            .clone()
            .context("cannot read the working directory")?;
        init(self, ctx.home.as_deref(), &cwd, ctx.out, ctx.err)
    }
}

fn init(
    args: &InitArgs,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    if args.print {
        crate::agent::instructions::print(args.print_for.as_deref(), out, err)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(agent) = args.agent.filter(|a| *a != Agent::Claude) {
        return install_agent(agent, args, home, cwd, out);
    }
    let options = install::Options {
        project: args.project,
        dry_run: args.dry_run,
        uninstall: args.uninstall,
        check: args.check,
        ctxoff: ctxoff_path(),
        config_dir: std::env::var_os("CLAUDE_CONFIG_DIR")
            .filter(|d| !d.is_empty())
            .map(Into::into),
    };
    install::run(&options, home, cwd, out, err)
}

/// `ctxoff init AGENT` for the agents whose installers live in their own modules.
fn install_agent(
    agent: Agent,
    args: &InitArgs,
    home: Option<&Path>,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    use crate::agent::install::{Options, Scope};
    let options = Options {
        scope: if args.project {
            Scope::Project
        } else {
            Scope::Global
        },
        dry_run: args.dry_run,
        uninstall: args.uninstall,
        check: args.check,
        ctxoff: crate::agent::wrap::ctxoff_path()
            .context("cannot tell where ctxoff is installed")?,
    };
    match agent {
        Agent::Codex => crate::agent::codex::install::run(&options, home, cwd, out),
        Agent::Gemini => crate::agent::gemini::install::run(&options, home, cwd, out),
        Agent::Opencode => crate::agent::opencode::install::run(&options, home, cwd, out),
        Agent::Claude => unreachable!("Claude Code is installed by agent::claude::install"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn print_shows_the_snippet() {
        InitArgs::command().debug_assert();
        let args = InitArgs::from_matches(
            &InitArgs::command()
                .try_get_matches_from(["init", "--print"])
                .unwrap(),
        );
        let mut out = Vec::new();
        let code = init(
            &args,
            None,
            Path::new("/nonexistent"),
            &mut out,
            &mut std::io::sink(),
        )
        .unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
        let text = String::from_utf8(out).unwrap();
        for needle in [
            "ctxoff cargo test",
            "ctxoff lines REF",
            "ctxoff grep REF 'REGEX' -C 3",
            "ctxoff list",
            "@last",
            "cargo_4",
        ] {
            assert!(text.contains(needle), "{needle}");
        }
        for bad in [
            &["ctxoff"][..],
            &["ctxoff", "claude", "--print"],
            &["ctxoff", "claude", "--global", "--project"],
        ] {
            assert!(
                InitArgs::command().try_get_matches_from(bad).is_err(),
                "{bad:?}"
            );
        }
    }
}
