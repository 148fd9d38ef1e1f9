//! `ctxoff hook AGENT`: an agent's hook handler (SPEC §8). It reads one hook event (or the
//! opencode plugin's call) on stdin and prints the agent module's answer, one JSON line, or
//! nothing when there is nothing to change. It never breaks the agent: whatever the event, the
//! environment or the configuration, it exits 0 and prints nothing but its answer on stdout
//! (Claude Code takes exit status 2 as "block this tool call"). Settings that cannot be resolved
//! mean no answer, since a rewritten command would fail on them the same way. (A Gemini CLI
//! replay, the follow-up command its `AfterTool` answer asks for, is the one run that prints a
//! summary and may fail.)
//!
//! `--explain CMD` says what the hook would do with a command, here and now, and why.

use std::path::Path;
use std::process::ExitCode;

use clap::builder::PossibleValue;
use clap::{Arg, ArgMatches, Command, ValueEnum, value_parser};

use serde_json::Value;

use super::{Context, Run};
use crate::agent::claude::{self, Hook, settings::ClientArgs};
use crate::agent::wrap::{ctxoff_path, program_on_path};
use crate::agent::{Agent, codex, gemini, opencode};

/// `ctxoff hook`'s arguments.
#[derive(Debug)]
pub struct HookArgs {
    /// The agent whose hook protocol to speak.
    pub agent: Agent,
    /// `--explain CMD`: describe instead of answering an event.
    pub explain: Option<String>,
    /// `--mode MODE` for `--explain`.
    pub mode: String,
    /// Why ctxoff's own options or environment could not be read, when they could not: the hook
    /// then answers nothing.
    pub unusable: Option<String>,
}

const LONG_ABOUT: &str = "\
An agent's hook handler: run ctxoff on the agent's shell commands, or on their output.

Install it with `ctxoff init claude`. Claude Code runs it before and after every Bash tool call, \
with the call as JSON on stdin. Before: a command Claude Code would run without asking (an allow \
rule of the user's matches it, or the mode is bypassPermissions) and whose output can be large \
(the default wrap list, at subcommand level, and the `wrap` patterns of the configuration) is \
rewritten to `CTXOFF_SESSION=<session id> CTXOFF_AGENT=claude /path/to/ctxoff -- <command>` and \
approved, naming the rule. Everything else is left to Claude Code, as if ctxoff were not \
installed: deny and ask rules, plan mode, read-only commands the client runs on its own, lists \
and pipelines, builtins, interactive programs, background commands, `keep` patterns. After: a \
successful output over the threshold of a command that was not rewritten is saved in the session \
and replaced by its summary.

The handler always exits 0 and prints only its JSON answer: it never blocks a tool call.

`ctxoff hook codex`, `ctxoff hook gemini` and `ctxoff hook opencode` (installed by `ctxoff init \
AGENT`) do the same for Codex CLI (PreToolUse), Gemini CLI (BeforeTool; AfterTool replaces a large \
output through a follow-up summary call) and opencode (through its plugin), each with the \
client's own rules and modes, and the same wrap list.

`--explain CMD` prints what the Claude Code hook would do with CMD in this project \
(CLAUDE_PROJECT_DIR, else the current directory) and mode (`--mode`, default `default`), and why: \
which rule, which list.";

impl HookArgs {
    pub(crate) fn command() -> Command {
        Command::new("hook")
            .about("An agent's hook handler: run ctxoff on the agent's shell commands")
            .long_about(LONG_ABOUT)
            .arg(
                Arg::new("agent")
                    .value_name("AGENT")
                    .help("The agent whose hook protocol to speak")
                    .required(true)
                    .value_parser(value_parser!(Agent)),
            )
            .arg(
                Arg::new("explain")
                    .long("explain")
                    .value_name("CMD")
                    .help("Say what the hook would do with CMD here, and why"),
            )
            .arg(
                Arg::new("mode")
                    .long("mode")
                    .value_name("MODE")
                    .requires("explain")
                    .default_value("default")
                    .value_parser([
                        "default",
                        "acceptEdits",
                        "dontAsk",
                        "bypassPermissions",
                        "plan",
                        "auto",
                    ])
                    .help("The permission mode for --explain"),
            )
    }

    pub(crate) fn from_matches(matches: &ArgMatches) -> HookArgs {
        HookArgs {
            agent: *matches.get_one("agent").expect("required"),
            explain: matches.get_one("explain").cloned(),
            mode: matches
                .get_one::<String>("mode")
                .cloned()
                .unwrap_or_default(),
            unusable: None,
        }
    }
}

/// How agents are named on the command line, with the help `--help` shows for each.
impl ValueEnum for Agent {
    fn value_variants<'a>() -> &'a [Agent] {
        &Agent::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Agent::Claude => PossibleValue::new("claude")
                .help("Claude Code (PreToolUse and PostToolUse hooks on the Bash tool)"),
            Agent::Codex => {
                PossibleValue::new("codex").help("Codex CLI (a PreToolUse hook on its shell tool)")
            }
            Agent::Gemini => PossibleValue::new("gemini")
                .help("Gemini CLI (BeforeTool and AfterTool hooks on run_shell_command)"),
            Agent::Opencode => PossibleValue::new("opencode")
                .help("opencode (called by the plugin `ctxoff init opencode` installs)"),
        })
    }
}

impl Run for HookArgs {
    fn run(&self, ctx: &mut Context) -> anyhow::Result<ExitCode> {
        let settings = match &self.unusable {
            Some(why) => Err(why.clone()),
            None => ctx.settings().cloned().map_err(|e| format!("{e:#}")),
        };
        if self.explain.is_some() && self.agent != Agent::Claude {
            anyhow::bail!("--explain is for claude only");
        }
        // Settings that cannot be read mean no rewrite, never a failed hook.
        let usable = settings.as_ref().ok();
        let home = ctx.home.clone();
        let home = home.as_deref();
        let history = ctx.history().map(Path::to_path_buf);
        let history = history.as_deref();
        match self.agent {
            Agent::Claude => {}
            Agent::Codex => {
                let env = codex::hook::Env::from_process(home);
                return Ok(answer(ctx, |event| {
                    codex::hook::answer(event, usable, &env)
                }));
            }
            Agent::Gemini => {
                if let Some(staged) = std::env::var_os(gemini::hook::REPLAY) {
                    let out = &mut *ctx.out;
                    return Ok(gemini::hook::replay(
                        Path::new(&staged),
                        usable,
                        history,
                        out,
                    ));
                }
                let env = gemini::hook::Env::from_process(home);
                return Ok(answer(ctx, |event| {
                    gemini::hook::answer(event, usable, &env)
                }));
            }
            Agent::Opencode => {
                let env = opencode::hook::Env::from_process(history);
                return Ok(answer(ctx, |event| {
                    opencode::hook::answer(event, usable, &env)
                }));
            }
        }
        let ctxoff = ctxoff_path();
        let path = std::env::var_os("PATH");
        let rules = || claude::client_rules(home.map(Path::to_path_buf));
        let hook = Hook {
            settings: settings.as_ref().map_err(Clone::clone),
            ctxoff: ctxoff.as_deref(),
            path: path.as_deref(),
            is_program: &program_on_path,
            rules: &rules,
            history,
        };
        if let Some(command) = &self.explain {
            let cwd = ctx.cwd.clone().unwrap_or_default();
            let project = std::env::var_os("CLAUDE_PROJECT_DIR")
                .filter(|p| !p.is_empty())
                .map_or_else(|| cwd.clone(), Into::into);
            let text = claude::explain(
                command,
                &self.mode,
                &project,
                &cwd,
                ctx.home.clone(),
                ClientArgs::of_client(),
                &hook,
            );
            ctx.out.write_all(text.as_bytes())?;
            return Ok(ExitCode::SUCCESS);
        }
        Ok(answer(ctx, |event| claude::answer(event, &hook)))
    }
}

/// Reads one event from the context's stdin and prints the agent's answer, if any: one JSON
/// line. Always exit status 0.
fn answer(ctx: &mut Context, agent: impl FnOnce(&str) -> Result<Value, String>) -> ExitCode {
    let mut event = String::new();
    if ctx.stdin.read_to_string(&mut event).is_ok() {
        // A bug must not cost the agent its tool call either: a panic is reported on stderr
        // and taken for "no answer".
        let answered = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| agent(&event)));
        if let Ok(Ok(response)) = answered {
            // A failed write leaves the client with no answer, which is "no change".
            let _ = writeln!(ctx.out, "{response}").and_then(|()| ctx.out.flush());
        }
    }
    ExitCode::SUCCESS
}

/// Whether the command line calls the hook handler (`ctxoff hook …`, maybe after ctxoff's own
/// options): then a command line that does not parse still must not block the agent.
pub fn is_hook_call(args: &[std::ffi::OsString]) -> bool {
    args.iter()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))
        .is_some_and(|a| a == "hook")
        && !args.iter().any(|a| a == "--help" || a == "-h")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::claude::tests::{event, hook_with};

    /// What the hook prints for `input` on its stdin.
    fn answered(input: &[u8]) -> String {
        let (mut stdin, mut out, mut err) = (input, Vec::new(), Vec::new());
        let settings = crate::config::Settings::at("/tmp/agent");
        let mut ctx = Context::with_settings(settings, &mut stdin, &mut out, &mut err);
        let code = hook_with(|hook| answer(&mut ctx, |event| claude::answer(event, hook)));
        assert_eq!(code, ExitCode::SUCCESS);
        assert!(err.is_empty());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn reads_stdin_and_writes_one_line() {
        let out = answered(event("cargo test").to_string().as_bytes());
        assert!(out.contains(" -- cargo test\""), "{out}");
        assert!(out.ends_with("}\n") && out.lines().count() == 1, "{out}");
    }

    #[test]
    fn invalid_utf8_on_stdin_means_no_answer() {
        assert_eq!(answered(b"\xff\xfe{}"), "");
    }

    #[test]
    fn hook_calls_are_recognised_before_parsing() {
        let args =
            |words: &[&str]| -> Vec<std::ffi::OsString> { words.iter().map(Into::into).collect() };
        assert!(is_hook_call(&args(&["ctxoff", "hook", "claude"])));
        assert!(is_hook_call(&args(&["ctxoff", "hook", "cluade"])));
        assert!(is_hook_call(&args(&["ctxoff", "--threshold=x", "hook"])));
        assert!(!is_hook_call(&args(&["ctxoff", "hook", "--help"])));
        assert!(!is_hook_call(&args(&["ctxoff", "cargo", "hook"])));
        assert!(!is_hook_call(&args(&["ctxoff"])));
    }
}
