//! Shell words: just enough bash lexing to tell a *simple command* (`cargo test --all`,
//! `grep -rn "a|b" src`) from anything a wrapper would change the meaning of (lists, pipes,
//! redirections, substitutions, compound commands). Used by the agent hook to decide what it may
//! prefix with `ctxoff --`. It does not expand, execute or rewrite
//! anything: the caller keeps the original text byte for byte.
//!
//! Why not the `shlex` crate: it splits words correctly but treats `;`, `|`, `&&`, `>` as
//! ordinary characters (`a;b` is one word to it), and it cannot report where a word began in the
//! original text. Both are exactly what the hook needs, and bash's quoting rules are small.

use std::fmt;

/// A command the shell runs as one program with arguments, and nothing else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SimpleCommand<'a> {
    /// Leading `NAME=value` assignments, exactly as written (empty when there are none).
    pub assignments: &'a str,
    /// The original text from the program word to the end, exactly as written.
    pub rest: &'a str,
    /// The program and its arguments with quotes and escapes removed (expansions such as `$HOME`
    /// are left as written). A trailing `2>&1` is not a word.
    pub words: Vec<String>,
    /// Whether the program word was written with quotes or escapes (`"if"` is not a keyword).
    pub program_quoted: bool,
}

/// Why a command line is not a simple command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NotSimple {
    /// Nothing but blanks and comments.
    Empty,
    /// A quote or a trailing backslash that is never closed: a syntax error for the shell.
    Unterminated,
    /// A control or redirection operator outside quotes: `;` `&` `|` `<` `>` `(` `)`.
    Operator(char),
    /// Command substitution, `$(…)`, `$((…))` or backticks: runs a second command.
    Substitution,
    /// An unquoted newline followed by more text: a second command.
    Newline,
    /// The first word is a reserved word (`if`, `for`, `{`, `!`, `time`, `[[`…).
    Keyword,
    /// Only `NAME=value` words: sets shell variables, runs nothing.
    AssignmentsOnly,
}

impl fmt::Display for NotSimple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotSimple::Empty => f.write_str("empty command"),
            NotSimple::Unterminated => f.write_str("unterminated quote or escape"),
            NotSimple::Operator(c) => write!(f, "shell operator `{c}`"),
            NotSimple::Substitution => f.write_str("command substitution"),
            NotSimple::Newline => f.write_str("more than one line"),
            NotSimple::Keyword => f.write_str("shell reserved word"),
            NotSimple::AssignmentsOnly => f.write_str("variable assignment only"),
        }
    }
}

/// bash reserved words: recognised only as the first word of a command, and only unquoted.
const KEYWORDS: &[&str] = &[
    "!", "{", "}", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for",
    "function", "if", "in", "select", "then", "time", "until", "while",
];

struct Word {
    start: usize,
    end: usize,
    text: String,
    quoted: bool,
}

/// Splits `line` into words if, and only if, it is one simple command.
///
/// Quoted and escaped operators are ordinary characters (`echo 'a && b'`, `grep x\|y`). `$VAR`
/// and `${VAR}` are allowed (the shell expands them the same way wrapped or not); `$(…)` and
/// backticks are not, wherever they appear outside single quotes. The only redirection accepted is
/// a standalone `2>&1` after the program word, because it means the same applied to a wrapper.
pub(crate) fn simple_command(line: &str) -> Result<SimpleCommand<'_>, NotSimple> {
    lex(line).map_err(|(why, _)| why)
}

/// The first simple command of each command in the list `line` (`a; b && c | d`), in order,
/// up to the first part that is not one (a subshell, a substitution, a compound command).
pub(crate) fn list_commands(line: &str) -> Vec<SimpleCommand<'_>> {
    let mut commands = Vec::new();
    let mut rest = line;
    loop {
        match lex(rest) {
            Ok(command) => {
                commands.push(command);
                return commands;
            }
            Err((NotSimple::Operator(';' | '&' | '|') | NotSimple::Newline, at)) => {
                match simple_command(&rest[..at]) {
                    Ok(command) => commands.push(command),
                    Err(_) => return commands,
                }
                rest = rest[at..].trim_start_matches([';', '&', '|', '\n']);
            }
            Err(_) => return commands,
        }
    }
}

/// [`simple_command`], with the byte at which the line stopped being one.
fn lex(line: &str) -> Result<SimpleCommand<'_>, (NotSimple, usize)> {
    let mut words: Vec<Word> = Vec::new();
    let mut current: Option<Word> = None;
    let mut dup_stderr_at: Vec<usize> = Vec::new();
    let mut chars = line.char_indices().peekable();

    while let Some((i, c)) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = current.take() {
                    words.push(w);
                }
            }
            '\n' => {
                if line[i..].trim().is_empty() {
                    break;
                }
                return Err((NotSimple::Newline, i));
            }
            '#' if current.is_none() => {
                // A comment runs to the end of the line; a newline after it starts a new command.
                match line[i..].find('\n') {
                    Some(n) if !line[i + n..].trim().is_empty() => {
                        return Err((NotSimple::Newline, i));
                    }
                    _ => break,
                }
            }
            '\'' => {
                let w = current.get_or_insert_with(|| Word::at(i));
                w.quoted = true;
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, c)) => w.text.push(c),
                        None => return Err((NotSimple::Unterminated, i)),
                    }
                }
            }
            '"' => {
                let w = current.get_or_insert_with(|| Word::at(i));
                w.quoted = true;
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, '\n')) => {}
                            Some((_, c @ ('$' | '`' | '"' | '\\'))) => w.text.push(c),
                            Some((_, c)) => {
                                w.text.push('\\');
                                w.text.push(c);
                            }
                            None => return Err((NotSimple::Unterminated, i)),
                        },
                        Some((_, '`')) => return Err((NotSimple::Substitution, i)),
                        Some((_, '$')) if matches!(chars.peek(), Some((_, '('))) => {
                            return Err((NotSimple::Substitution, i));
                        }
                        Some((_, c)) => w.text.push(c),
                        None => return Err((NotSimple::Unterminated, i)),
                    }
                }
            }
            '\\' => match chars.next() {
                // Line continuation: removed by the shell, joins what is on either side.
                Some((_, '\n')) => {}
                Some((_, c)) => {
                    let w = current.get_or_insert_with(|| Word::at(i));
                    w.quoted = true;
                    w.text.push(c);
                }
                None => return Err((NotSimple::Unterminated, i)),
            },
            '`' => return Err((NotSimple::Substitution, i)),
            '$' => match chars.peek() {
                Some((_, '(')) => return Err((NotSimple::Substitution, i)),
                Some((_, '\'')) => {
                    // ANSI-C quoting `$'…'`: only its extent matters here, not its unescaping.
                    chars.next();
                    let w = current.get_or_insert_with(|| Word::at(i));
                    w.quoted = true;
                    loop {
                        match chars.next() {
                            Some((_, '\'')) => break,
                            Some((_, '\\')) => {
                                if let Some((_, c)) = chars.next() {
                                    w.text.push('\\');
                                    w.text.push(c);
                                }
                            }
                            Some((_, c)) => w.text.push(c),
                            None => return Err((NotSimple::Unterminated, i)),
                        }
                    }
                }
                _ => current.get_or_insert_with(|| Word::at(i)).text.push('$'),
            },
            '>' if is_dup_stderr(line, &current, i) => {
                let w = current.take().expect("checked by is_dup_stderr");
                dup_stderr_at.push(w.start);
                chars.next();
                chars.next();
            }
            ';' | '&' | '|' | '<' | '>' | '(' | ')' => return Err((NotSimple::Operator(c), i)),
            c => current.get_or_insert_with(|| Word::at(i)).text.push(c),
        }
        if let Some(w) = current.as_mut() {
            w.end = chars.peek().map_or(line.len(), |&(j, _)| j);
        }
    }
    if let Some(w) = current.take() {
        words.push(w);
    }

    let n_assign = words
        .iter()
        .take_while(|w| is_assignment(&line[w.start..w.end]))
        .count();
    let Some(program) = words.get(n_assign) else {
        let why = if words.is_empty() {
            NotSimple::Empty
        } else {
            NotSimple::AssignmentsOnly
        };
        return Err((why, line.len()));
    };
    if !program.quoted && KEYWORDS.contains(&program.text.as_str()) {
        return Err((NotSimple::Keyword, line.len()));
    }
    if dup_stderr_at.iter().any(|&at| at < program.start) {
        return Err((NotSimple::Operator('>'), line.len()));
    }
    let assignments = match n_assign {
        0 => "",
        n => &line[words[0].start..words[n - 1].end],
    };
    Ok(SimpleCommand {
        assignments,
        rest: &line[program.start..],
        program_quoted: program.quoted,
        words: words.drain(n_assign..).map(|w| w.text).collect(),
    })
}

impl Word {
    fn at(start: usize) -> Word {
        Word {
            start,
            end: start,
            text: String::new(),
            quoted: false,
        }
    }
}

/// Whether the `>` at byte `i` is the middle of a standalone, unquoted `2>&1`.
fn is_dup_stderr(line: &str, current: &Option<Word>, i: usize) -> bool {
    let word_is_2 = current
        .as_ref()
        .is_some_and(|w| !w.quoted && w.text == "2" && w.start + 1 == i);
    let after = &line[i + 1..];
    word_is_2
        && after.starts_with("&1")
        && after[2..]
            .chars()
            .next()
            .is_none_or(|c| c.is_ascii_whitespace())
}

/// `NAME=…` or `NAME+=…` with an unquoted, valid variable name, as the shell recognises it.
pub(crate) fn is_assignment(raw: &str) -> bool {
    let name_len = raw
        .char_indices()
        .find(|&(j, c)| !(c == '_' || c.is_ascii_alphabetic() || (j > 0 && c.is_ascii_digit())))
        .map_or(raw.len(), |(j, _)| j);
    name_len > 0 && (raw[name_len..].starts_with('=') || raw[name_len..].starts_with("+="))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        simple_command(line)
            .unwrap_or_else(|e| panic!("{line:?}: {e}"))
            .words
    }

    #[test]
    fn splits_and_unquotes() {
        assert_eq!(words("cargo test  --all"), ["cargo", "test", "--all"]);
        assert_eq!(
            words(r#"echo 'a && b' "c | d" e\;f"#),
            ["echo", "a && b", "c | d", "e;f"]
        );
        assert_eq!(
            words(r#"grep -rn "x|y" src/"#),
            ["grep", "-rn", "x|y", "src/"]
        );
        assert_eq!(words(r#"echo "a\"b" 'it'\''s'"#), ["echo", "a\"b", "it's"]);
        assert_eq!(words(r#"echo "\$HOME \n""#), ["echo", "$HOME \\n"]);
        assert_eq!(
            words("echo $HOME ${PATH} \"$USER\""),
            ["echo", "$HOME", "${PATH}", "$USER"]
        );
        assert_eq!(words("printf $'a\\tb'"), ["printf", "a\\tb"]);
        assert_eq!(words("ls *.rs {a,b} ~/x"), ["ls", "*.rs", "{a,b}", "~/x"]);
        assert_eq!(words("cargo test \\\n  --all"), ["cargo", "test", "--all"]);
        assert_eq!(words("echo 'two\nlines'"), ["echo", "two\nlines"]);
        assert_eq!(words("cargo test # the suite"), ["cargo", "test"]);
        assert_eq!(words("cargo test\n"), ["cargo", "test"]);
        assert_eq!(words("ls a=b"), ["ls", "a=b"]);
    }

    #[test]
    fn keeps_original_text() {
        let c = simple_command("RUST_LOG=debug  X='a b' cargo test -- 'x y'  ").unwrap();
        assert_eq!(c.assignments, "RUST_LOG=debug  X='a b'");
        assert_eq!(c.rest, "cargo test -- 'x y'  ");
        assert_eq!(c.words, ["cargo", "test", "--", "x y"]);
        let c = simple_command("  make 2>&1").unwrap();
        assert_eq!((c.assignments, c.rest), ("", "make 2>&1"));
        assert_eq!(c.words, ["make"]);
    }

    #[test]
    fn rejects_what_is_not_one_simple_command() {
        use NotSimple::*;
        for (line, why) in [
            ("", Empty),
            ("   # just a comment", Empty),
            ("a; b", Operator(';')),
            ("a && b", Operator('&')),
            ("a || b", Operator('|')),
            ("a | b", Operator('|')),
            ("sleep 5 &", Operator('&')),
            ("a > out", Operator('>')),
            ("a >> out", Operator('>')),
            ("a < in", Operator('<')),
            ("a 2>/dev/null", Operator('>')),
            ("a &> out", Operator('&')),
            ("a 1>&2", Operator('>')),
            ("a 2>&1| tee x", Operator('>')),
            ("a 2>&1 | tail -5", Operator('|')),
            ("2>&1 a", Operator('>')),
            ("a 2>&1x", Operator('>')),
            ("a x2>&1", Operator('>')),
            ("cat <<EOF\nx\nEOF", Operator('<')),
            ("diff <(a) <(b)", Operator('<')),
            ("(cd x && make)", Operator('(')),
            ("{ a; }", Operator(';')),
            ("{ a }", Keyword),
            ("! a", Keyword),
            ("time cargo build", Keyword),
            ("if true then", Keyword),
            ("[[ -f x ]]", Keyword),
            ("echo $(date)", Substitution),
            ("echo \"$(date)\"", Substitution),
            ("echo `date`", Substitution),
            ("echo $((1+2))", Substitution),
            ("a\nb", Newline),
            ("a # c\nb", Newline),
            ("echo 'open", Unterminated),
            ("echo \"open", Unterminated),
            ("echo x\\", Unterminated),
            ("FOO=bar", AssignmentsOnly),
            ("A=1 B=2", AssignmentsOnly),
            ("arr=(1 2) cmd", Operator('(')),
        ] {
            assert_eq!(simple_command(line), Err(why), "{line:?}");
        }
        assert_eq!(simple_command("echo a;"), Err(Operator(';')));
    }

    #[test]
    fn quoted_keywords_and_assignment_lookalikes_are_words() {
        let c = simple_command("\"time\" ls").unwrap();
        assert!(c.program_quoted);
        assert_eq!(c.words, ["time", "ls"]);
        assert_eq!(words("'A=1' ls"), ["A=1", "ls"]);
        assert_eq!(words("1A=2 ls"), ["1A=2", "ls"]);
        assert_eq!(simple_command("A+=x make").unwrap().assignments, "A+=x");
    }

    #[test]
    fn lists_split_into_their_simple_commands() {
        let programs = |line: &str| -> Vec<String> {
            list_commands(line)
                .into_iter()
                .map(|c| c.words.join(" "))
                .collect()
        };
        assert_eq!(
            programs("a 1; b 'x;y' && c || d | e & f\ng"),
            ["a 1", "b x;y", "c", "d", "e", "f", "g"]
        );
        assert_eq!(programs("make"), ["make"]);
        assert_eq!(programs("cd x && (make) && ls"), ["cd x"]);
        assert_eq!(programs("echo $(date); ls"), Vec::<String>::new());
        assert_eq!(programs("cargo test > out; ls"), Vec::<String>::new());
        assert_eq!(programs(""), Vec::<String>::new());
    }
}
