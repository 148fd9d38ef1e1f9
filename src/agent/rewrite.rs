//! The command an agent's hook hands back: the shared wrap decision's rewrite (`wrap`), with the
//! agent named for run mode (`CTXOFF_AGENT=`) and ctxoff called by its absolute path, so a
//! `PATH=…` in the command or the agent's shell profile cannot make it another program. Which
//! agent may have a command rewritten at all is each agent's own module's business.

use std::path::Path;

use super::wrap::{program_on_path, wrap_command};
use crate::format::shell_quote;

/// The agents whose hooks rewrite commands, as `CTXOFF_AGENT` names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Agent {
    Codex,
    Gemini,
    Opencode,
}

impl Agent {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Opencode => "opencode",
        }
    }
}

/// An agent's session or thread id as a ctxoff session name: `[A-Za-z0-9._-]` only, so it needs
/// no shell quoting; `None` when nothing usable is left.
pub(crate) fn session_name(id: &str) -> Option<String> {
    let name = crate::store::sanitize(id, "");
    crate::store::checked_session_name(&name).ok()
}

/// `command` rewritten to run through the ctxoff at `ctxoff` in `session`, or `None` when the
/// shared wrap decision leaves it alone. Programs named without a `/` must be on `path` (the
/// hook's `PATH`, which the agent's shell inherits).
pub(crate) fn rewrite(
    command: &str,
    agent: Agent,
    session: &str,
    keep: &[String],
    ctxoff: &Path,
    path: Option<&std::ffi::OsStr>,
) -> Option<String> {
    let is_program = |program: &str| program_on_path(program, path);
    let wrapped = wrap_command(command, session, keep, &is_program)?;
    let rest = wrapped.strip_prefix(&format!("CTXOFF_SESSION={session} "))?;
    let agent = agent.name();
    if rest == command {
        // The command already runs ctxoff (`ctxoff lines @last 1:40`): only the session is added.
        return Some(format!(
            "CTXOFF_SESSION={session} CTXOFF_AGENT={agent} {command}"
        ));
    }
    // `rest` is `ASSIGNMENTS ctxoff -- TAIL`, TAIL the end of `command`: the first `ctxoff -- `
    // at a word start with the rest of the command after it.
    const BARE: &str = "ctxoff -- ";
    let at = rest.match_indices(BARE).map(|(at, _)| at).find(|&at| {
        (at == 0 || rest[..at].ends_with(' ')) && command.ends_with(&rest[at + BARE.len()..])
    })?;
    let ctxoff = shell_quote(ctxoff.to_str()?);
    Some(format!(
        "CTXOFF_SESSION={session} CTXOFF_AGENT={agent} {}{ctxoff} -- {}",
        &rest[..at],
        &rest[at + BARE.len()..]
    ))
}

/// Whether `command` is one a ctxoff hook rewrote (it starts with the session assignment every
/// rewrite puts first).
pub(crate) fn is_rewritten(command: &str) -> bool {
    command.trim_start().starts_with("CTXOFF_SESSION=")
}

/// The ctxoff running this hook, by absolute path; `None` when it cannot be told.
pub(crate) fn current_ctxoff() -> Option<std::path::PathBuf> {
    std::env::current_exe().ok().filter(|p| p.is_absolute())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path_with(dir: &Path, programs: &[&str]) -> std::ffi::OsString {
        use std::os::unix::fs::PermissionsExt;
        for p in programs {
            let file = dir.join(p);
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        dir.as_os_str().to_owned()
    }

    #[test]
    fn names_the_agent_and_calls_ctxoff_by_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = path_with(dir.path(), &["cargo", "make", "ctxoff"]);
        let exe = Path::new("/opt/ctx off/bin/ctxoff");
        let rewrite = |c: &str| rewrite(c, Agent::Codex, "s1", &[], exe, Some(&path));
        assert_eq!(
            rewrite("cargo test --all").as_deref(),
            Some(
                "CTXOFF_SESSION=s1 CTXOFF_AGENT=codex '/opt/ctx off/bin/ctxoff' -- cargo test --all"
            )
        );
        assert_eq!(
            rewrite("RUST_LOG=debug cargo test -- --nocapture").as_deref(),
            Some(
                "CTXOFF_SESSION=s1 CTXOFF_AGENT=codex RUST_LOG=debug '/opt/ctx off/bin/ctxoff' -- cargo test -- --nocapture"
            )
        );
        // An assignment's value that looks like the wrapper does not confuse it.
        assert_eq!(
            rewrite("A='ctxoff -- x' make ctxoff").as_deref(),
            Some(
                "CTXOFF_SESSION=s1 CTXOFF_AGENT=codex A='ctxoff -- x' '/opt/ctx off/bin/ctxoff' -- make ctxoff"
            )
        );
        assert_eq!(
            rewrite("ctxoff lines @last 1:40").as_deref(),
            Some("CTXOFF_SESSION=s1 CTXOFF_AGENT=codex ctxoff lines @last 1:40")
        );
        for unchanged in ["cd src", "cargo test && ls", "ll", "vim x"] {
            assert_eq!(rewrite(unchanged), None, "{unchanged}");
        }
        assert!(is_rewritten(&rewrite("make").unwrap()));
        assert!(!is_rewritten("make"));
    }

    #[test]
    fn session_ids_become_session_names() {
        assert_eq!(
            session_name("01a22f3a-cddd-7180-b298-7111aaf880a8").as_deref(),
            Some("01a22f3a-cddd-7180-b298-7111aaf880a8")
        );
        assert_eq!(
            session_name("ses_dd0b/../x").as_deref(),
            Some("ses_dd0b_.._x")
        );
        assert_eq!(session_name(""), None);
        assert_eq!(session_name(".."), None);
    }
}
