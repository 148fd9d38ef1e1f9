//! The name an output gets: the program's base name, seeing through wrappers.

use std::ffi::OsString;

use crate::store::sanitize;

/// The name an output of `argv` gets: the program's base name, seeing through wrappers
/// (`env A=b`, `sudo`, `timeout 5`, `nice`, `npx`, `uv run`, `python -m X`, `sh -c '…'`).
pub fn output_name(argv: &[OsString]) -> String {
    let words: Vec<String> = argv
        .iter()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    sanitize(&program_of(&words, 0), "cmd")
}

fn program_of(words: &[String], depth: usize) -> String {
    let mut i = 0;
    // Leading `VAR=value` assignments (as `env` and shells take them).
    let skip_assignments = |i: &mut usize| {
        while words.get(*i).is_some_and(|w| is_assignment(w)) {
            *i += 1;
        }
    };
    skip_assignments(&mut i);
    while let Some(word) = words.get(i) {
        let base = word.rsplit('/').next().unwrap_or(word);
        // Options of each wrapper that take a separate value.
        let (valued, positional): (&[&str], usize) = match base {
            "env" => (&["-u", "--unset", "-C", "--chdir", "-S"], 0),
            "sudo" | "doas" => (&["-u", "-g", "-C", "-D", "-h", "-p", "-U", "-r", "-t"], 0),
            "timeout" => (&["-s", "--signal", "-k", "--kill-after"], 1),
            "nice" => (&["-n", "--adjustment"], 0),
            "nohup" | "time" | "setsid" | "exec" => (&[], 0),
            "stdbuf" => (&["-i", "-o", "-e"], 0),
            "npx" | "pnpx" | "bunx" | "uvx" => (&["-p", "--package", "-c", "--call"], 0),
            "uv" | "poetry" | "pipenv" | "pnpm" | "yarn" | "bundle"
                if words.get(i + 1).is_some_and(|w| w == "run" || w == "exec") =>
            {
                i += 1;
                (&["--with", "--python", "-p", "--directory", "--project"], 0)
            }
            b if b.starts_with("python") && words.get(i + 1).is_some_and(|w| w == "-m") => {
                return words
                    .get(i + 2)
                    .map_or_else(|| base.to_string(), |m| m.clone());
            }
            "sh" | "bash" | "zsh" | "dash" | "ksh" => {
                // `-c` may be combined with other flags, as in `bash -lc`.
                let script = words
                    .iter()
                    .skip(i + 1)
                    .position(|w| w.starts_with('-') && !w.starts_with("--") && w.ends_with('c'));
                return match script.and_then(|p| words.get(i + 2 + p)) {
                    Some(script) if depth < 4 => {
                        let inner: Vec<String> =
                            script.split_whitespace().map(str::to_string).collect();
                        program_of(&inner, depth + 1)
                    }
                    _ => base.to_string(),
                };
            }
            _ => return base.to_string(),
        };
        i += 1;
        let mut positional = positional;
        while let Some(w) = words.get(i) {
            if w == "--" {
                i += 1;
                break;
            }
            if w.starts_with('-') && w.len() > 1 {
                i += if valued.contains(&w.as_str()) { 2 } else { 1 };
            } else if is_assignment(w) {
                i += 1;
            } else if positional > 0 {
                positional -= 1;
                i += 1;
            } else {
                break;
            }
        }
        skip_assignments(&mut i);
    }
    words.last().map_or_else(String::new, |w| {
        w.rsplit('/').next().unwrap_or(w).to_string()
    })
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        }
        None => false,
    }
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
        assert_eq!(name(&["timeout", "5"]), "5");
    }

    #[test]
    fn names_are_sanitised() {
        assert_eq!(name(&["./my tool;rm -rf"]), "my_tool_rm_-rf");
        assert_eq!(name(&[".."]), "cmd");
        assert_eq!(name(&["héllo"]), "h_llo");
        assert_eq!(sanitize(&"x".repeat(200), "cmd").len(), 64);
    }
}
