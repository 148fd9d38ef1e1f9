//! The name an output gets: the program's base name, seeing through wrappers.

use std::ffi::OsString;

use super::Invocation;
use crate::store::sanitize;

/// The name an output of `argv` gets: the program's base name, seeing through wrappers
/// (`env A=b`, `sudo`, `timeout 5`, `nice`, `npx`, `uv run`, `python -m X`, `sh -c '…'`).
pub(crate) fn output_name(argv: &[OsString]) -> String {
    let words: Vec<String> = argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    let invocation = Invocation::of(&words);
    // A wrapper given nothing to run (`timeout 5`) names the output itself.
    let name = match invocation.wrappers.last() {
        Some(wrapper) if invocation.program.is_empty() => wrapper.as_str(),
        _ => invocation.name(),
    };
    sanitize(name, "cmd")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(words: &[&str]) -> String {
        output_name(&words.iter().map(OsString::from).collect::<Vec<_>>())
    }

    #[test]
    fn names_see_through_wrappers() {
        assert_eq!(name(&["cargo", "test"]), "cargo");
        assert_eq!(name(&["/usr/bin/seq", "1", "9"]), "seq");
        assert_eq!(name(&["env", "A=b", "-u", "X", "cargo", "t"]), "cargo");
        assert_eq!(name(&["RUST_LOG=1", "cargo"]), "cargo");
        assert_eq!(name(&["sudo", "-u", "bob", "make"]), "make");
        assert_eq!(name(&["timeout", "-s", "KILL", "5", "pytest"]), "pytest");
        assert_eq!(name(&["nice", "-n", "5", "rg", "x"]), "rg");
        assert_eq!(name(&["npx", "vitest", "run"]), "vitest");
        assert_eq!(name(&["uv", "run", "pytest", "-q"]), "pytest");
        assert_eq!(name(&["python3", "-m", "pytest"]), "pytest");
        assert_eq!(name(&["sh", "-c", "cargo test 2>&1"]), "cargo");
        assert_eq!(name(&["bash", "-lc", "pytest -q"]), "pytest");
        assert_eq!(name(&["bash", "script.sh"]), "bash");
        assert_eq!(name(&["timeout", "5"]), "timeout");
        assert_eq!(name(&["timeout", "--signal", "KILL", "5", "vim"]), "vim");
        assert_eq!(name(&["timeout", "--signal=KILL", "5", "vim"]), "vim");
        assert_eq!(name(&["nice", "--adjustment", "5", "vim"]), "vim");
        assert_eq!(name(&["stdbuf", "-o", "L", "vim"]), "vim");
        assert_eq!(name(&["stdbuf", "-oL", "make"]), "make");
        assert_eq!(name(&["env", "A+=1", "make"]), "make");
        assert_eq!(name(&["sh", "-c", "\"/usr/bin/make\" -j4"]), "make");
        // A list names its first program the shell does not run itself.
        assert_eq!(name(&["sh", "-c", "trap 'x' EXIT; make"]), "make");
        assert_eq!(name(&["sh", "-c", "echo 'a; b' | wc -l"]), "echo");
        assert_eq!(name(&["sh", "-c", "(make)"]), "sh");
        assert_eq!(name(&["pnpm", "exec", "vitest"]), "vitest");
        assert_eq!(
            name(&["uvx", "--from", "ruff==0.6", "ruff", "check"]),
            "ruff"
        );
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(name(&["./my tool;rm -rf"]), "my_tool_rm_-rf");
        assert_eq!(name(&[".."]), "cmd");
        assert_eq!(name(&["héllo"]), "h_llo");
        assert_eq!(sanitize(&"x".repeat(200), "cmd").len(), 64);
    }
}
