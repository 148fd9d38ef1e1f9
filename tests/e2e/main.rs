//! End-to-end suites: ctxoff's agent integrations inside the real clients, installed from the npm
//! registry at pinned versions and driven by a mock model server on 127.0.0.1.
//!
//! They need npm and minutes, so they run only with `CTXOFF_E2E=1` (which `.ci/run` sets). Without
//! it each test says why it skipped; under `CI` a skipped suite fails instead, so CI can never pass
//! without running them.

mod claude;
mod client;
mod codex;
mod codex_ctxoff;
mod ctxoff;
mod fixture;
mod gemini;
mod gemini_ctxoff;
mod mock;
mod opencode;
mod opencode_ctxoff;
mod probe;

/// `cmd` without the `CTXOFF_*` variables of the test's own environment (a test run inside an
/// agent that uses ctxoff inherits `CTXOFF_AGENT`, `CTXOFF_SESSION`…): a client and the hooks it
/// starts see only what the test sets.
pub fn isolated(cmd: &mut std::process::Command) -> &mut std::process::Command {
    for (name, _) in std::env::vars_os() {
        if name.to_string_lossy().starts_with("CTXOFF_") {
            cmd.env_remove(name);
        }
    }
    cmd
}

/// Whether the end-to-end suites run here; `false` (after saying why) when they are switched off.
/// Panics under `CI`, where a skip would hide that nothing was tested.
pub fn enabled(suite: &str) -> bool {
    if std::env::var_os("CTXOFF_E2E").is_some_and(|v| v == "1") {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the {suite} end-to-end suite was skipped under CI: set CTXOFF_E2E=1 (as .ci/run does)"
    );
    eprintln!("skipped: the {suite} end-to-end suite runs with CTXOFF_E2E=1");
    false
}
