//! `ctxoff hook codex|gemini|opencode`: reads the client's event (or the opencode plugin's call)
//! on stdin and prints the agent module's answer, one JSON line, or nothing when there is nothing
//! to change. Whatever the input, configuration or environment, it writes nothing else: a hook
//! that fails or prints something unexpected can block the agent's tool call. (A Gemini CLI
//! replay, the follow-up command its `AfterTool` answer asks for, is the one run that prints a
//! summary and may fail.)

use std::process::ExitCode;

use super::rewrite::Agent;
use super::{codex, gemini, opencode};
use crate::cmd::Context;
use crate::config::Settings;

/// Answers one event for `agent`. `settings` is `None` when ctxoff's configuration cannot be
/// read: then nothing is rewritten.
pub(crate) fn run(agent: Agent, settings: Option<&Settings>, ctx: &mut Context) -> ExitCode {
    if agent == Agent::Gemini
        && let Some(staged) = std::env::var_os(gemini::hook::REPLAY)
    {
        return gemini::hook::replay(std::path::Path::new(&staged));
    }
    let mut event = String::new();
    if ctx.stdin.read_to_string(&mut event).is_err() {
        return ExitCode::SUCCESS;
    }
    let home = ctx.home.as_deref();
    // A bug must not cost the agent its tool call either: a panic is taken for "no answer".
    let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match agent {
        Agent::Codex => {
            codex::hook::answer(&event, settings, &codex::hook::Env::from_process(home))
        }
        Agent::Gemini => {
            gemini::hook::answer(&event, settings, &gemini::hook::Env::from_process(home))
        }
        Agent::Opencode => {
            opencode::hook::answer(&event, settings, &opencode::hook::Env::from_process())
        }
    }));
    if let Ok(Ok(answer)) = answer {
        // A failed write leaves the client with no answer, which is "no change".
        let _ = writeln!(ctx.out, "{answer}").and_then(|()| ctx.out.flush());
    }
    ExitCode::SUCCESS
}
