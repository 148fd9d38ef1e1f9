//! How Codex CLI reads the shell script of a command before it checks its rules.
//!
//! The client runs every command as `SHELL -lc SCRIPT` and matches its rules against the argv of
//! each command in the script, but only when the script is *plain*: words, quoted strings and
//! their concatenations, joined by `&&`, `||`, `;`, `|` or newlines. Anything else (variables,
//! substitutions, redirections, assignments, comments, control flow, globbing it cannot see
//! through) leaves the script whole: the rules then see `[SHELL, "-lc", SCRIPT]`, which only a rule
//! for the shell itself can match. Its words are the source text (quotes removed, nothing else), so
//! this reader accepts only what it can reproduce exactly, and says `None` for the rest.
//!
//! The client also refuses or prompts for a forced `rm` (`rm -f`, `rm -rf`, also behind `sudo`)
//! that no rule matched, wherever it appears in the script.

/// Shells whose `-lc` script the client reads (by base name).
pub const SHELLS: &[&str] = &["bash", "zsh", "sh"];

/// The argv of each command of a plain script, or `None` when the client would keep the script
/// whole (or when this reader cannot be sure it would not).
pub fn plain_commands(script: &str) -> Option<Vec<Vec<String>>> {
    let mut commands = vec![Vec::new()];
    let mut chars = script.chars().peekable();
    // The word being read, and whether anything (even `""`) has been read into it.
    let mut word = String::new();
    let mut in_word = false;
    let finish = |word: &mut String, in_word: &mut bool, commands: &mut Vec<Vec<String>>| {
        if *in_word {
            commands
                .last_mut()
                .expect("never empty")
                .push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => finish(&mut word, &mut in_word, &mut commands),
            '\n' | ';' | '&' | '|' => {
                finish(&mut word, &mut in_word, &mut commands);
                match c {
                    '&' if chars.next_if_eq(&'&').is_none() => return None,
                    '|' => {
                        chars.next_if_eq(&'|');
                    }
                    _ => {}
                }
                // An operator needs a command on its left; blank lines are allowed.
                if commands.last().expect("never empty").is_empty() {
                    if c != '\n' {
                        return None;
                    }
                    continue;
                }
                commands.push(Vec::new());
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => word.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '\\' => return None,
                        c => word.push(c),
                    }
                }
            }
            c if is_word_char(c) => {
                in_word = true;
                word.push(c);
            }
            _ => return None,
        }
    }
    finish(&mut word, &mut in_word, &mut commands);
    if commands.last().is_some_and(Vec::is_empty) {
        commands.pop();
        // A trailing operator (other than a newline) is a syntax error.
        if script
            .trim_end_matches([' ', '\t', '\n'])
            .ends_with([';', '&', '|'])
        {
            return None;
        }
    }
    if commands.is_empty()
        || commands.iter().any(|argv| {
            let first = argv[0].as_str();
            first.contains('=') || KEYWORDS.contains(&first)
        })
    {
        return None;
    }
    Some(commands)
}

/// Characters that are plain text in an unquoted word for bash and for the client's parser.
/// Glob and brace characters, `~`, `#`, `!` and `=`-led words are left out: the client's parser
/// gives some of them their own nodes, and this reader does not guess which.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | ':' | '@' | '%' | '+' | ',' | '=')
}

/// Reserved words: a command starting with one is a compound command.
const KEYWORDS: &[&str] = &[
    "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in",
    "select", "then", "time", "until", "while",
];

/// Whether the client's own heuristics refuse (or prompt for) `argv` when no rule matches it: a
/// forced `rm`, also behind `sudo`.
pub fn is_dangerous(argv: &[String]) -> bool {
    let Some((program, args)) = argv.split_first() else {
        return false;
    };
    match program.rsplit('/').next().unwrap_or(program) {
        "rm" => args.iter().take_while(|a| *a != "--").any(|a| {
            a == "--force"
                || a.strip_prefix('-')
                    .is_some_and(|f| !f.starts_with('-') && f.contains('f'))
        }),
        "sudo" => is_dangerous(args),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &str) -> Option<Vec<Vec<String>>> {
        plain_commands(script)
    }

    fn argvs(commands: &[&[&str]]) -> Option<Vec<Vec<String>>> {
        Some(
            commands
                .iter()
                .map(|argv| argv.iter().map(|w| w.to_string()).collect())
                .collect(),
        )
    }

    #[test]
    fn splits_plain_scripts_into_argvs() {
        assert_eq!(
            words("cargo test --all"),
            argvs(&[&["cargo", "test", "--all"]])
        );
        assert_eq!(
            words("git status && git log -3; echo 'a b' | wc -l || true"),
            argvs(&[
                &["git", "status"],
                &["git", "log", "-3"],
                &["echo", "a b"],
                &["wc", "-l"],
                &["true"],
            ])
        );
        assert_eq!(
            words(r#"echo "/usr"'/'"local"/bin"#),
            argvs(&[&["echo", "/usr/local/bin"]])
        );
        assert_eq!(words("echo ''"), argvs(&[&["echo", ""]]));
        assert_eq!(words("ls\npwd\n"), argvs(&[&["ls"], &["pwd"]]));
        assert_eq!(words("make CC=gcc"), argvs(&[&["make", "CC=gcc"]]));
    }

    #[test]
    fn keeps_other_scripts_whole() {
        for script in [
            "echo $HOME",
            "echo \"$HOME\"",
            "echo \"a\\\"b\"",
            "echo a\\ b",
            "echo $(pwd)",
            "echo `pwd`",
            "ls > out",
            "ls 2>&1",
            "sleep 1 &",
            "(ls)",
            "{ ls; }",
            "FOO=1 ls",
            "if true; then ls; fi",
            "ls # comment",
            "ls &&",
            "&& ls",
            "ls ;; pwd",
            "ls | | wc",
            "echo *.rs",
            "echo ~/x",
            "echo {a,b}",
            "[ -f x ]",
            "! ls",
            "echo 'unterminated",
            "",
            "   ",
        ] {
            assert_eq!(plain_commands(script), None, "{script:?}");
        }
    }

    #[test]
    fn forced_rm_is_dangerous() {
        let argv = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        for yes in [
            "rm -f x",
            "rm -rf /tmp/x",
            "/bin/rm -fr x",
            "rm -r -f x",
            "rm --force x",
            "rm x -f",
            "sudo rm -rf x",
        ] {
            assert!(is_dangerous(&argv(yes)), "{yes}");
        }
        for no in [
            "rm -r x",
            "rm -- -f",
            "rm x",
            "git rm -f x",
            "sudo ls -f",
            "echo rm -f",
        ] {
            assert!(!is_dangerous(&argv(no)), "{no}");
        }
    }
}
