//! What a command line is run for, when that decides how its output is treated: to read content
//! (`cat`, `head`, `tail`, `sed -n`, `git show`, a diff), which passes through whole up to the
//! content limit; to list files (`find`, `ls`, `git ls-files`) or search them (`grep`, `rg`),
//! whose output is content, not a failure report; anything else.

use super::wrappers::Invocation;

/// Why a command was run, as far as its output is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// Reading content; `source` when what is read is source code, configuration or
    /// documentation (by its name), not a log.
    Reads {
        source: bool,
    },
    /// Listing files.
    Lists,
    /// Searching files (`grep`, `rg`, `git grep`): the output is search results.
    Searches,
    Other,
}

/// Programs whose output is search results.
const SEARCHERS: &[&str] = &["grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep"];
/// Programs whose output is a listing of files.
const LISTERS: &[&str] = &["find", "fd", "fdfind", "ls", "tree", "locate", "exa", "eza"];
/// `find`'s actions that run a program for each file found.
const EXECS: &[&str] = &["-exec", "-execdir", "-ok", "-okdir"];
/// Programs that print (part of) files.
const READERS: &[&str] = &[
    "cat", "head", "tail", "sed", "bat", "batcat", "nl", "tac", "less", "more",
];
/// File extensions of source code, configuration and documentation (not of logs).
const SOURCE: &[&str] = &[
    "rs", "py", "pyi", "ts", "tsx", "js", "jsx", "mjs", "cjs", "go", "c", "h", "cc", "cpp", "cxx",
    "hpp", "hh", "java", "kt", "kts", "rb", "php", "cs", "swift", "scala", "sh", "bash", "zsh",
    "fish", "lua", "pl", "pm", "r", "sql", "toml", "yaml", "yml", "json", "jsonc", "xml", "html",
    "htm", "css", "scss", "less", "md", "rst", "adoc", "ini", "cfg", "conf", "proto", "graphql",
    "vue", "svelte", "ex", "exs", "erl", "hs", "ml", "mli", "clj", "dart", "zig", "nim", "jl", "m",
    "mm", "gradle", "cmake", "mk", "tf", "nix", "el", "vim", "lock", "csv",
];
/// Source files known by name.
const SOURCE_NAMES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "CMakeLists.txt",
    "Gemfile",
    "Rakefile",
    "Justfile",
    "justfile",
];

impl Invocation {
    /// Why the command runs (see [`Purpose`]).
    pub(crate) fn purpose(&self) -> Purpose {
        let program = self.name();
        let args = self.program.get(1..).unwrap_or_default();
        let operands = || args.iter().filter(|a| !a.starts_with('-'));
        // `find … -exec CMD {} ;` prints what CMD prints, for each file found.
        if program == "find"
            && let Some(at) = args.iter().position(|a| EXECS.contains(&a.as_str()))
        {
            let end = args[at + 1..]
                .iter()
                .position(|a| a == ";" || a == "+")
                .map_or(args.len(), |n| at + 1 + n);
            return Invocation::of(&args[at + 1..end]).purpose();
        }
        if LISTERS.contains(&program) {
            return Purpose::Lists;
        }
        if SEARCHERS.contains(&program) {
            return Purpose::Searches;
        }
        if program == "git" {
            return match args.first().map_or("", String::as_str) {
                "ls-files" | "ls-tree" => Purpose::Lists,
                "grep" => Purpose::Searches,
                // `git show REV:path` prints a file; `git show REV` a commit and its diff.
                "show" => Purpose::Reads {
                    source: operands().skip(1).any(|a| a.contains(':')),
                },
                "diff" | "blame" | "cat-file" => Purpose::Reads {
                    source: args.first().is_some_and(|a| a != "diff"),
                },
                _ => Purpose::Other,
            };
        }
        if program == "diff" {
            return Purpose::Reads { source: false };
        }
        let editing = program == "sed"
            && args
                .iter()
                .any(|a| a.starts_with("-i") || a == "--in-place");
        if READERS.contains(&program) && !editing {
            return Purpose::Reads {
                source: operands().any(|a| is_source(a)),
            };
        }
        Purpose::Other
    }
}

/// Whether `path` names source code, configuration or documentation.
fn is_source(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    if SOURCE_NAMES.contains(&name) {
        return true;
    }
    name.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && SOURCE.contains(&ext.to_ascii_lowercase().as_str())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn purpose(line: &[&str]) -> Purpose {
        let words: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        Invocation::of(&words).purpose()
    }

    #[test]
    fn what_a_command_is_run_for() {
        let source = Purpose::Reads { source: true };
        let other_content = Purpose::Reads { source: false };
        assert_eq!(purpose(&["find", ".", "-type", "f"]), Purpose::Lists);
        // What `find` runs for each file prints the output.
        let php = [
            "find", "src", "-name", "*.php", "-exec", "php", "-l", "{}", ";",
        ];
        assert_eq!(purpose(&php), Purpose::Other);
        let grep = ["find", ".", "-execdir", "grep", "-n", "x", "{}", "+"];
        assert_eq!(purpose(&grep), Purpose::Searches);
        let cat = ["find", ".", "-name", "*.rs", "-exec", "cat", "{}", ";"];
        assert_eq!(purpose(&cat), Purpose::Reads { source: false });
        assert_eq!(purpose(&["find", ".", "-delete"]), Purpose::Lists);
        assert_eq!(purpose(&["git", "ls-files", "-z"]), Purpose::Lists);
        assert_eq!(purpose(&["cat", "src/main.rs"]), source);
        assert_eq!(purpose(&["sed", "-n", "1,300p", "src/a.ts"]), source);
        assert_eq!(
            purpose(&["sed", "-i", "s/a/b/", "src/a.ts"]),
            Purpose::Other
        );
        assert_eq!(purpose(&["cat", "build.log"]), other_content);
        assert_eq!(purpose(&["tail", "-n", "50", "Makefile"]), source);
        assert_eq!(purpose(&["git", "show", "HEAD:src/a.rs"]), source);
        assert_eq!(purpose(&["git", "show", "HEAD"]), other_content);
        assert_eq!(purpose(&["git", "diff", "main"]), other_content);
        assert_eq!(purpose(&["git", "log"]), Purpose::Other);
        assert_eq!(purpose(&["rg", "--json", "TODO"]), Purpose::Searches);
        assert_eq!(purpose(&["git", "grep", "-n", "x"]), Purpose::Searches);
        assert_eq!(
            purpose(&["timeout", "5", "head", "-c", "100", "x.py"]),
            source
        );
        assert_eq!(purpose(&["cargo", "test"]), Purpose::Other);
    }
}
