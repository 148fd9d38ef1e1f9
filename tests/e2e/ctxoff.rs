//! ctxoff itself in the end-to-end suites: installing it as a user would (`ctxoff init AGENT`),
//! the project the "model" runs commands in, and reading what reached the model.

use std::path::Path;
use std::process::Command;

/// The one session ctxoff stored outputs in under `scratch`.
pub fn only_session(scratch: &Path) -> String {
    let sessions: Vec<String> = std::fs::read_dir(scratch)
        .expect("ctxoff saved outputs")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(sessions.len(), 1, "{sessions:?}");
    sessions[0].clone()
}

/// The ctxoff binary under test.
pub fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_ctxoff")
}

/// A Makefile whose default target prints 20,000 lines (108,894 bytes) and whose `test` target
/// prints them and fails: a build and a failing test run, the commands a hook exists for. `wide`
/// prints 600 longer lines (31 KB, over ctxoff's threshold but under what opencode cuts).
pub const MAKEFILE: &str = "all:\n\t@seq 1 20000\n\ntest:\n\t@seq 1 20000; exit 3\n\n\
                            wide:\n\t@seq -f 'line %g: the quick brown fox jumps over the lazy dog' 1 600\n";

/// The bytes `make` prints: `seq 1 20000`.
pub const MAKE_BYTES: usize = 108_894;

/// Writes [`MAKEFILE`] into `project`.
pub fn makefile(project: &Path) {
    std::fs::write(project.join("Makefile"), MAKEFILE).expect("write the Makefile");
}

/// Runs `ctxoff init ARGS` in `cwd` with `env`, as a user would; returns its stdout. Fails the
/// test when it fails.
pub fn init(args: &[&str], cwd: &Path, env: &[(&str, &Path)]) -> String {
    let out = Command::new(exe())
        .arg("init")
        .args(args)
        .current_dir(cwd)
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("run ctxoff init");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "ctxoff init {args:?} failed:\n{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// The ctxoff summary in `text` (from its first line on), if there is one.
pub fn summary(text: &str) -> Option<&str> {
    text.find("[ctxoff] `").map(|at| &text[at..])
}

/// Asserts that `text` holds ctxoff's summary of `command`'s 20,000 lines, ending with status
/// `exit`, stored at a path under `scratch` in `session`; returns the stored file.
pub fn assert_summary(
    text: &str,
    command: &str,
    exit: i32,
    scratch: &Path,
    session: &str,
) -> std::path::PathBuf {
    let summary = summary(text).unwrap_or_else(|| panic!("no ctxoff summary in:\n{text:.2000}"));
    let head = summary.lines().next().unwrap();
    assert!(
        head.starts_with(&format!("[ctxoff] `{command}` exited {exit} · 20,0")),
        "{head}"
    );
    let stored = head
        .split("full output: ")
        .nth(1)
        .unwrap_or_else(|| panic!("no stored file named: {head}"));
    let stored = Path::new(stored.split_whitespace().next().unwrap()).to_path_buf();
    assert!(
        stored.starts_with(scratch.join(session)),
        "{} is not in session {session} under {}",
        stored.display(),
        scratch.display()
    );
    let saved = std::fs::read_to_string(&stored).expect("the stored output");
    assert!(saved.starts_with("1\n2\n3\n") && saved.contains("\n19999\n20000\n"));
    assert!(
        summary.len() < MAKE_BYTES / 10,
        "a summary, not the output: {} bytes",
        summary.len()
    );
    stored
}
