//! The command an agent's hook hands back: the shared wrap decision's rewrite (`wrap`), with the
//! agent named for run mode (`CTXOFF_AGENT=`) and ctxoff called by its absolute path, so a
//! `PATH=…` in the command or the agent's shell profile cannot make it another program. Which
//! agent may have a command rewritten at all is each agent's own module's business.

use std::path::Path;

use serde_json::{Map, Value};

use super::Agent;
use super::wrap::{Rewrite, program_on_path, wrap};
use crate::config::Settings;

/// What every rewriting hook takes from a call before it decides anything: the tool's
/// arguments and their command, the agent's session id as a session name, and ctxoff's settings
/// and own path. Each is an error (no answer) when missing or unusable.
pub(crate) struct Call<'a> {
    pub args: &'a Map<String, Value>,
    pub command: &'a str,
    pub session: String,
    pub settings: &'a Settings,
    pub ctxoff: &'a Path,
}

impl<'a> Call<'a> {
    /// The call of a tool whose arguments are `args`, in the agent's session `session_id`.
    pub(crate) fn new(
        args: &'a Value,
        session_id: &Value,
        settings: Option<&'a Settings>,
        ctxoff: Option<&'a Path>,
    ) -> Result<Call<'a>, String> {
        Ok(Call {
            args: args.as_object().ok_or("the call has no arguments")?,
            command: args["command"]
                .as_str()
                .filter(|c| !c.trim().is_empty())
                .ok_or("the call has no command")?,
            session: session_id
                .as_str()
                .and_then(super::wrap::session_name)
                .ok_or("no usable session id")?,
            settings: settings.ok_or("ctxoff's configuration cannot be read")?,
            ctxoff: ctxoff.ok_or("ctxoff's own path is unknown")?,
        })
    }

    /// The command rewritten for `agent` ([`rewrite`]), or `None` when it is left alone.
    pub(crate) fn rewrite(&self, agent: Agent, path: Option<&std::ffi::OsStr>) -> Option<String> {
        rewrite(
            self.command,
            agent,
            &self.session,
            self.settings,
            self.ctxoff,
            path,
        )
    }

    /// Every argument of the call, with `command` in place of its command: the clients replace
    /// the arguments wholesale or merge them, so all of them go back.
    pub(crate) fn args_with(&self, command: String) -> Map<String, Value> {
        let mut args = self.args.clone();
        args.insert("command".into(), Value::String(command));
        args
    }
}

/// `command` rewritten by the shared wrap decision ([`wrap`]) to run through the ctxoff at
/// `ctxoff` in `session`, or `None` when it leaves the command alone. Programs named without a
/// `/` must be on `path` (the hook's `PATH`, which the agent's shell inherits).
pub(crate) fn rewrite(
    command: &str,
    agent: Agent,
    session: &str,
    settings: &Settings,
    ctxoff: &Path,
    path: Option<&std::ffi::OsStr>,
) -> Option<String> {
    let rewrite = Rewrite {
        agent: agent.name(),
        session,
        ctxoff,
        wrap: &settings.wrap,
        keep: &settings.keep,
        path,
        is_program: &program_on_path,
    };
    wrap(command, &rewrite).ok().map(|wrapped| wrapped.command)
}

/// Whether `command` is one a ctxoff hook rewrote (it starts with the session assignment every
/// rewrite puts first).
pub(crate) fn is_rewritten(command: &str) -> bool {
    command.trim_start().starts_with("CTXOFF_SESSION=")
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
        let settings = Settings {
            wrap: vec!["make *".into()],
            ..Settings::at(dir.path().join("root"))
        };
        let rewrite = |c: &str| rewrite(c, Agent::Codex, "s1", &settings, exe, Some(&path));
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
        // An assignment's value that looks like the wrapper does not confuse it; the `wrap`
        // patterns of the configuration extend the default list (`make TARGET`).
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
}
