//! What a command line runs: the program under its leading `NAME=value` assignments and the
//! wrappers that run it (`env`, `sudo`, `timeout 5`, `nice -n 5`, `stdbuf -oL`, `npx`, `uv run`,
//! `python -m`, `sh -c '…'`: its first command that is not a builtin). One table of wrappers and their options serves naming outputs,
//! the hook's wrap decision and `keep`.
//!
//! Not for an agent's permission rules: each client sees through its own, narrower list, and the
//! hook must match what the client does (see `agent`).

use super::builtins::is_builtin;
use super::lex::{is_assignment, list_commands};

/// A wrapper: the program it runs is the first word after its options (and after `positional`
/// operands of its own, such as `timeout`'s duration).
struct Wrapper {
    /// The wrapper's names; a `words` entry such as `uv run` needs both words.
    names: &'static [&'static [&'static str]],
    /// Its options that take their value as the next word (`-n 5`, `--signal KILL`); the
    /// `--name=value` and `-n5` forms are one word anyway.
    valued: &'static [&'static str],
    /// Operands of its own before the program (`timeout DURATION`).
    positional: usize,
    /// `NAME=value` words among its options are assignments (`env A=1 cmd`).
    assignments: bool,
}

const WRAPPERS: &[Wrapper] = &[
    Wrapper {
        names: &[&["env"]],
        valued: &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
        positional: 0,
        assignments: true,
    },
    Wrapper {
        names: &[&["sudo"], &["doas"]],
        valued: &[
            "-u",
            "--user",
            "-g",
            "--group",
            "-C",
            "--close-from",
            "-D",
            "--chdir",
            "-h",
            "--host",
            "-p",
            "--prompt",
            "-U",
            "--other-user",
            "-r",
            "--role",
            "-t",
            "--type",
        ],
        positional: 0,
        assignments: true,
    },
    Wrapper {
        names: &[&["timeout"]],
        valued: &["-s", "--signal", "-k", "--kill-after"],
        positional: 1,
        assignments: false,
    },
    Wrapper {
        names: &[&["nice"]],
        valued: &["-n", "--adjustment"],
        positional: 0,
        assignments: false,
    },
    Wrapper {
        names: &[&["ionice"]],
        valued: &["-c", "--class", "-n", "--classdata"],
        positional: 0,
        assignments: false,
    },
    Wrapper {
        names: &[&["stdbuf"]],
        valued: &["-i", "--input", "-o", "--output", "-e", "--error"],
        positional: 0,
        assignments: false,
    },
    Wrapper {
        names: &[&["nohup"], &["setsid"], &["time"], &["exec"]],
        valued: &[],
        positional: 0,
        assignments: false,
    },
    Wrapper {
        names: &[&["npx"], &["pnpx"], &["bunx"], &["uvx"]],
        valued: &[
            "-p",
            "--package",
            "-c",
            "--call",
            "--from",
            "--with",
            "--python",
        ],
        positional: 0,
        assignments: false,
    },
    Wrapper {
        names: &[
            &["uv", "run"],
            &["poetry", "run"],
            &["pipenv", "run"],
            &["pnpm", "exec"],
            &["yarn", "exec"],
            &["bundle", "exec"],
        ],
        valued: &[
            "--with",
            "--python",
            "-p",
            "--directory",
            "--project",
            "--group",
        ],
        positional: 0,
        assignments: false,
    },
];

/// Shells whose `-c SCRIPT` is seen through when the script is one simple command.
const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh"];

/// How deep `sh -c 'sh -c …'` is followed.
const MAX_DEPTH: usize = 4;

/// What a command line runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Invocation {
    /// The program and its arguments, after the assignments and wrappers (for `python -m X`,
    /// the module `X` and its arguments). Empty when a wrapper is given nothing to run.
    pub program: Vec<String>,
    /// The wrappers seen through, outermost first, by base name (`sudo`, `timeout`, `uv`…).
    pub wrappers: Vec<String>,
}

impl Invocation {
    /// What `words` (a command's words, quotes removed) runs.
    pub(crate) fn of(words: &[String]) -> Invocation {
        let mut wrappers = Vec::new();
        let program = see_through(words, &mut wrappers, 0);
        Invocation { program, wrappers }
    }

    /// The program's base name (`cargo` for `/usr/bin/cargo`), empty when there is none.
    pub(crate) fn name(&self) -> &str {
        self.program.first().map_or("", |p| base_name(p))
    }
}

fn see_through(words: &[String], wrappers: &mut Vec<String>, depth: usize) -> Vec<String> {
    let mut rest = skip_assignments(words);
    loop {
        let Some(first) = rest.first() else {
            return Vec::new();
        };
        let base = base_name(first);
        if base.starts_with("python") && rest.get(1).is_some_and(|w| w == "-m") {
            wrappers.push(base.to_string());
            return rest[2..].to_vec();
        }
        if SHELLS.contains(&base) {
            // `-c` may be combined with other flags, as in `bash -lc`; the script follows.
            let flags = rest[1..]
                .iter()
                .take_while(|w| w.starts_with('-') && w.len() > 1 && !w.starts_with("--"));
            let script = flags
                .clone()
                .position(|w| w.ends_with('c'))
                .and_then(|i| rest.get(2 + i));
            // The script's program: the first of its commands the shell does not do itself
            // (`set -e; cd x && make` runs `make`).
            let inner = script.and_then(|s| {
                list_commands(s)
                    .into_iter()
                    .find(|c| !is_builtin(base_name(&c.words[0])))
            });
            return match inner {
                Some(inner) if depth < MAX_DEPTH => {
                    wrappers.push(base.to_string());
                    see_through(&inner.words, wrappers, depth + 1)
                }
                _ => rest.to_vec(),
            };
        }
        let Some((wrapper, skip)) = WRAPPERS.iter().find_map(|w| {
            w.names
                .iter()
                .find(|name| {
                    base_name(first) == name[0]
                        && name[1..]
                            .iter()
                            .enumerate()
                            .all(|(i, n)| rest.get(i + 1) == Some(&n.to_string()))
                })
                .map(|name| (w, name.len()))
        }) else {
            return rest.to_vec();
        };
        wrappers.push(base.to_string());
        rest = skip_options(&rest[skip..], wrapper);
    }
}

/// The words after a wrapper's options and operands.
fn skip_options<'a>(mut words: &'a [String], wrapper: &Wrapper) -> &'a [String] {
    let mut positional = wrapper.positional;
    while let Some((word, more)) = words.split_first() {
        if word == "--" {
            words = more;
            break;
        }
        if word.starts_with('-') && word.len() > 1 {
            let takes_value = wrapper.valued.contains(&word.as_str());
            words = if takes_value {
                more.get(1..).unwrap_or(&[])
            } else {
                more
            };
        } else if wrapper.assignments && is_assignment(word) {
            words = more;
        } else if positional > 0 {
            positional -= 1;
            words = more;
        } else {
            break;
        }
    }
    words = skip_assignments(words);
    // `timeout -- 5 cmd`: operands may follow `--` too.
    while positional > 0 && !words.is_empty() {
        positional -= 1;
        words = &words[1..];
    }
    words
}

fn skip_assignments(words: &[String]) -> &[String] {
    let n = words.iter().take_while(|w| is_assignment(w)).count();
    &words[n..]
}

/// `cargo` for `/usr/bin/cargo`.
pub(crate) fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(words: &[&str]) -> (Vec<String>, Vec<String>) {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let inv = Invocation::of(&words);
        (inv.program, inv.wrappers)
    }

    #[test]
    fn sees_through_each_wrapper_and_its_options() {
        let cases: &[(&[&str], &[&str], &[&str])] = &[
            (&["A=1", "B+=2", "make", "-j"], &["make", "-j"], &[]),
            (
                &[
                    "sudo", "-u", "bob", "env", "X=1", "-u", "Y", "nice", "-n", "5", "top",
                ],
                &["top"],
                &["sudo", "env", "nice"],
            ),
            (
                &[
                    "timeout",
                    "--kill-after",
                    "1",
                    "--signal",
                    "KILL",
                    "5",
                    "vim",
                    "x",
                ],
                &["vim", "x"],
                &["timeout"],
            ),
            (&["timeout", "--", "5", "ls"], &["ls"], &["timeout"]),
            (&["stdbuf", "-o", "L", "-eL", "cat"], &["cat"], &["stdbuf"]),
            (&["/usr/bin/nohup", "./run.sh"], &["./run.sh"], &["nohup"]),
            (
                &["uv", "run", "--with", "x", "pytest", "-q"],
                &["pytest", "-q"],
                &["uv"],
            ),
            (
                &["python3", "-m", "pytest", "-x"],
                &["pytest", "-x"],
                &["python3"],
            ),
            (
                &["bash", "-lc", "npx jest --ci"],
                &["jest", "--ci"],
                &["bash", "npx"],
            ),
            (
                &["bash", "-c", "set -e; cd x && make -j"],
                &["make", "-j"],
                &["bash"],
            ),
            (
                &["bash", "-c", "(cd x && make)"],
                &["bash", "-c", "(cd x && make)"],
                &[],
            ),
            (&["sh", "-c", "cd x"], &["sh", "-c", "cd x"], &[]),
            (&["bash", "script.sh"], &["bash", "script.sh"], &[]),
            (&["uv", "pip", "list"], &["uv", "pip", "list"], &[]),
            (&["env"], &[], &["env"]),
        ];
        for (words, program, wrappers) in cases {
            assert_eq!(of(words), (to_vec(program), to_vec(wrappers)), "{words:?}");
        }
    }

    fn to_vec(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn nested_shells_stop_at_a_depth() {
        let mut script = "make".to_string();
        for _ in 0..8 {
            script = format!("sh -c {}", crate::format::shell_quote(&script));
        }
        let words: Vec<String> = ["sh", "-c", &script]
            .iter()
            .map(|w| w.to_string())
            .collect();
        let inv = Invocation::of(&words);
        assert_eq!(inv.wrappers.len(), MAX_DEPTH);
        assert_eq!(inv.name(), "sh");
    }
}
