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
use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Arg, ArgMatches, Command, ValueEnum, value_parser};

use super::{Context, Run};
use crate::agent::claude::claude_rewrite;
use crate::agent::wrap::program_on_path;

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
    pub(crate) fn command() -> Command {
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

    pub(crate) fn from_matches(matches: &ArgMatches) -> HookArgs {
        HookArgs {
            agent: *matches.get_one("agent").expect("required"),
        }
    }
}

/// Agents ctxoff integrates with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Opencode,
}

/// How agents are named on the command line, with the help `--help` shows for each.
impl ValueEnum for Agent {
    fn value_variants<'a>() -> &'a [Agent] {
        &[Agent::Claude, Agent::Codex, Agent::Gemini, Agent::Opencode]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Agent::Claude => PossibleValue::new("claude")
                .help("Claude Code (a PreToolUse hook on the Bash tool)"),
            Agent::Codex => {
                PossibleValue::new("codex").help("Codex CLI (a PreToolUse hook on its shell tool)")
            }
            Agent::Gemini => PossibleValue::new("gemini")
                .help("Gemini CLI (a BeforeTool hook on run_shell_command)"),
            Agent::Opencode => PossibleValue::new("opencode")
                .help("opencode (called by the plugin `ctxoff init opencode` installs)"),
        })
    }
}

/// Reads one hook event from `input` and writes the rewrite, if any, to `out`. Always exit 0:
/// bad input, an unknown event or an unwrappable command all mean "no change".
impl Run for HookArgs {
    fn run(&self, ctx: &mut Context) -> anyhow::Result<ExitCode> {
        let agent = match self.agent {
            Agent::Claude => None,
            Agent::Codex => Some(crate::agent::rewrite::Agent::Codex),
            Agent::Gemini => Some(crate::agent::rewrite::Agent::Gemini),
            Agent::Opencode => Some(crate::agent::rewrite::Agent::Opencode),
        };
        if let Some(agent) = agent {
            return Ok(crate::agent::hooks::run(agent, ctx));
        }
        let keep = ctx.settings()?.keep.clone();
        answer(self, &keep, ctx.stdin, ctx.out)
    }
}

fn answer(
    args: &HookArgs,
    keep: &[String],
    input: &mut dyn Read,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    if args.agent != Agent::Claude {
        return Ok(ExitCode::SUCCESS);
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::claude::tests::event;

    #[test]
    fn run_reads_stdin_and_writes_one_line() {
        let args = HookArgs {
            agent: Agent::Claude,
        };
        let input = event("ls -la").to_string();
        let mut out = Vec::new();
        let code = answer(&args, &[], &mut input.as_bytes(), &mut out).unwrap();
        assert_eq!(code, ExitCode::SUCCESS);
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains(" ctxoff -- ls -la\""), "{out}");
        assert!(out.ends_with("}\n") && out.lines().count() == 1, "{out}");
    }

    #[test]
    fn invalid_utf8_on_stdin_means_no_change() {
        let mut out = Vec::new();
        let args = HookArgs {
            agent: Agent::Claude,
        };
        answer(&args, &[], &mut &b"\xff\xfe{}"[..], &mut out).unwrap();
        assert!(out.is_empty());
    }
}
