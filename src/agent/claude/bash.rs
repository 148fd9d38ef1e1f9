//! A Bash command line as Claude Code's permission rules see it (pinned client version, see
//! `permissions`): split into the parts its rules are checked on, with the environment
//! assignments it strips and the wrappers it sees through. This is deliberately *not* ctxoff's own
//! view of a command line (`crate::command`, which sees through more): a rule applies where the
//! client applies it, and nowhere else.
//!
//! Where the client's own code is mirrored, the comment names a string to search for in the
//! JavaScript bundled in the client's executable.

/// Environment variables the client strips from the front of a command before matching allow
/// rules (`"GOEXPERIMENT", "GOOS", "GOARCH"`): only with a value of `[A-Za-z0-9_./:-]+`. Any other
/// assignment stays part of the command, so `FOO=1 cargo test` is not `cargo test` to an allow
/// rule (deny and ask rules strip every assignment).
const SAFE_ENV: &[&str] = &[
    "GOEXPERIMENT",
    "GOOS",
    "GOARCH",
    "CGO_ENABLED",
    "GO111MODULE",
    "RUST_BACKTRACE",
    "RUST_LOG",
    "NODE_ENV",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD",
    "PYTEST_DEBUG",
    "ANTHROPIC_API_KEY",
    "LANG",
    "LANGUAGE",
    "LC_ALL",
    "LC_CTYPE",
    "LC_TIME",
    "CHARSET",
    "TERM",
    "COLORTERM",
    "NO_COLOR",
    "FORCE_COLOR",
    "TZ",
    "LS_COLORS",
    "LSCOLORS",
    "GREP_COLOR",
    "GREP_COLORS",
    "GCC_COLORS",
    "TIME_STYLE",
    "BLOCK_SIZE",
    "BLOCKSIZE",
    "COLUMNS",
    "LINES",
    "CLICOLOR",
    "CLICOLOR_FORCE",
    "CI",
    "DEBIAN_FRONTEND",
    "GIT_TERMINAL_PROMPT",
];

/// Wrappers the client sees through for deny and ask rules, beyond those of [`strip_for_allow`]
/// (`sudo: new Set(["-u", "-g", "-U"`): each with the options that take a value. Over-reading
/// them is safe: a deny or ask rule that matches more only means ctxoff rewrites less.
const DENY_WRAPPERS: &[(&str, &[&str])] = &[
    (
        "env",
        &["-u", "-C", "--unset", "--chdir", "-S", "--split-string"],
    ),
    (
        "sudo",
        &[
            "-u",
            "-g",
            "-U",
            "-C",
            "-D",
            "-h",
            "-p",
            "-r",
            "-R",
            "-t",
            "-T",
            "--user",
            "--group",
            "--other-user",
            "--close-from",
            "--chdir",
            "--host",
            "--prompt",
            "--role",
            "--chroot",
            "--type",
            "--command-timeout",
            "-a",
            "--auth-type",
        ],
    ),
    ("doas", &["-a", "-u", "-C"]),
    ("pkexec", &["--user"]),
    ("watch", &["-n", "--interval", "--equexit"]),
    (
        "ionice",
        &[
            "-c",
            "-n",
            "-p",
            "-P",
            "-u",
            "--class",
            "--classdata",
            "--pid",
            "--pgid",
            "--uid",
        ],
    ),
    ("setsid", &[]),
    ("taskset", &["-c", "--cpu-list"]),
    (
        "chrt",
        &[
            "-p",
            "--pid",
            "-T",
            "-P",
            "-D",
            "--sched-runtime",
            "--sched-period",
            "--sched-deadline",
        ],
    ),
    (
        "strace",
        &[
            "-e", "-o", "-p", "-s", "-E", "-P", "-S", "-a", "-b", "-I", "-u", "-X", "-O",
        ],
    ),
    (
        "ltrace",
        &[
            "-a", "-A", "-e", "-l", "-n", "-o", "-p", "-s", "-u", "-x", "-D", "-F", "-w",
        ],
    ),
    (
        "flock",
        &["-w", "-E", "--timeout", "--wait", "--conflict-exit-code"],
    ),
    ("script", &["-E", "-T", "-m", "-o", "-O", "-B", "-I"]),
    (
        "unshare",
        &[
            "-R", "-w", "-S", "-G", "--setuid", "--setgid", "--root", "--wd",
        ],
    ),
    (
        "nsenter",
        &["-t", "-S", "-G", "--target", "--setuid", "--setgid"],
    ),
    ("exec", &["-a"]),
    ("command", &[]),
    ("builtin", &[]),
    ("noglob", &[]),
    ("nocorrect", &[]),
    ("time", &[]),
    ("nohup", &[]),
    ("nice", &["-n"]),
    ("stdbuf", &["-i", "-o", "-e"]),
    ("timeout", &["-s", "-k", "--signal", "--kill-after"]),
    ("xargs", &[]),
];

/// bash reserved words that start a compound command. `time` is not among them: the client
/// treats it as a wrapper.
const KEYWORDS: &[&str] = &[
    "!", "{", "}", "[[", "]]", "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for",
    "function", "if", "in", "select", "then", "until", "while",
];

/// One command of a command line: what a rule is matched against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Part {
    /// The command as written, trimmed, without its redirections and trailing comment.
    pub(crate) text: String,
    /// Its words with quotes and escapes removed (expansions left as written).
    pub(crate) words: Vec<String>,
    /// Its redirections as written (`2>&1`, `> out.txt`).
    pub(crate) redirects: Vec<String>,
    /// Whether a word holds an expansion or a glob (`$HOME`, `*.rs`, `~`).
    pub(crate) expands: bool,
}

/// A command line cut into the commands the client checks one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) parts: Vec<Part>,
    /// One command, and nothing that runs another (no `;`, `&&`, `|`, `&`, subshell,
    /// substitution, here-document or reserved word): the only shape ctxoff may approve.
    pub(crate) simple: bool,
}

/// Cuts `command` at its control operators. Never fails: what cannot be read (an unterminated
/// quote) is one part that is not simple.
pub(crate) fn parse(command: &str) -> Line {
    let mut lexer = Lexer {
        src: command,
        parts: Vec::new(),
        current: PartBuilder::default(),
        simple: true,
    };
    lexer.run();
    let Lexer {
        mut parts,
        current,
        mut simple,
        ..
    } = lexer;
    parts.extend(current.finish(command));
    if parts.len() != 1 {
        simple = false;
    }
    if let Some(first) = parts.first().and_then(|p| p.words.first())
        && KEYWORDS.contains(&first.as_str())
    {
        simple = false;
    }
    Line { parts, simple }
}

struct Lexer<'a> {
    src: &'a str,
    parts: Vec<Part>,
    current: PartBuilder,
    simple: bool,
}

/// A part being read: byte ranges of the source to drop from its text, and its words.
#[derive(Default)]
struct PartBuilder {
    start: Option<usize>,
    end: usize,
    cut: Vec<(usize, usize)>,
    words: Vec<String>,
    word: Option<String>,
    redirects: Vec<String>,
    expands: bool,
}

impl PartBuilder {
    fn touch(&mut self, at: usize, end: usize) {
        self.start.get_or_insert(at);
        self.end = end;
    }

    fn push_char(&mut self, c: char) {
        self.word.get_or_insert_with(String::new).push(c);
    }

    fn end_word(&mut self) {
        if let Some(w) = self.word.take() {
            self.words.push(w);
        }
    }

    fn finish(mut self, src: &str) -> Option<Part> {
        self.end_word();
        let start = self.start?;
        let mut text = String::new();
        let mut at = start;
        for &(from, to) in &self.cut {
            text.push_str(&src[at..from]);
            at = to;
        }
        text.push_str(&src[at..self.end.max(at)]);
        let text = text.trim().to_owned();
        if text.is_empty() && self.redirects.is_empty() {
            return None;
        }
        Some(Part {
            text,
            words: self.words,
            redirects: self.redirects,
            expands: self.expands,
        })
    }
}

impl Lexer<'_> {
    fn next_part(&mut self) {
        let part = std::mem::take(&mut self.current);
        self.parts.extend(part.finish(self.src));
    }

    fn run(&mut self) {
        let src = self.src;
        let bytes = src.as_bytes();
        let mut i = 0;
        while i < src.len() {
            let c = src[i..].chars().next().expect("in bounds");
            let width = c.len_utf8();
            match c {
                ' ' | '\t' => {
                    self.current.end_word();
                    i += 1;
                }
                '\n' | ';' | '|' | '&' => {
                    self.current.end_word();
                    // `&>` and `&>>` are redirections, not a background operator.
                    if c == '&' && bytes.get(i + 1) == Some(&b'>') {
                        i = self.redirect(i);
                        continue;
                    }
                    if !(c == '\n' && src[i..].trim().is_empty()) {
                        self.simple = false;
                    }
                    self.next_part();
                    i += 1;
                    while i < src.len() && matches!(bytes[i], b'|' | b'&' | b';') {
                        i += 1;
                    }
                }
                '(' | ')' => {
                    self.current.end_word();
                    self.simple = false;
                    self.next_part();
                    i += 1;
                }
                '#' if self.current.word.is_none() => {
                    // A comment runs to the end of the line.
                    let end = src[i..].find('\n').map_or(src.len(), |n| i + n);
                    i = end;
                }
                '<' | '>' => {
                    if bytes.get(i + 1) == Some(&b'(') {
                        // Process substitution.
                        self.simple = false;
                        self.current.touch(i, i + 1);
                        self.current.push_char(c);
                        i += 1;
                        continue;
                    }
                    i = self.redirect(i);
                }
                '\'' => {
                    self.current.touch(i, i + 1);
                    let close = src[i + 1..].find('\'').map(|n| i + 1 + n);
                    match close {
                        Some(end) => {
                            let inner = &src[i + 1..end];
                            self.current
                                .word
                                .get_or_insert_with(String::new)
                                .push_str(inner);
                            self.current.touch(i, end + 1);
                            i = end + 1;
                        }
                        None => return self.unreadable(),
                    }
                }
                '"' => match self.double_quoted(i) {
                    Some(end) => i = end,
                    None => return self.unreadable(),
                },
                '\\' => {
                    let Some(next) = src[i + 1..].chars().next() else {
                        return self.unreadable();
                    };
                    self.current.touch(i, i + 1 + next.len_utf8());
                    if next != '\n' {
                        self.current.push_char(next);
                    }
                    i += 1 + next.len_utf8();
                }
                '`' => {
                    self.simple = false;
                    self.current.touch(i, i + 1);
                    self.current.push_char(c);
                    i += 1;
                }
                '$' => {
                    if bytes.get(i + 1) == Some(&b'(') {
                        self.simple = false;
                    }
                    self.current.expands = true;
                    self.current.touch(i, i + 1);
                    self.current.push_char(c);
                    i += 1;
                }
                _ => {
                    if matches!(c, '*' | '?' | '[' | '{' | '~') {
                        self.current.expands = true;
                    }
                    self.current.touch(i, i + width);
                    self.current.push_char(c);
                    i += width;
                }
            }
        }
    }

    /// Reads the double-quoted string opening at `i`; returns the index after it.
    fn double_quoted(&mut self, i: usize) -> Option<usize> {
        let src = self.src;
        let mut j = i + 1;
        self.current.word.get_or_insert_with(String::new);
        while j < src.len() {
            let c = src[j..].chars().next()?;
            match c {
                '"' => {
                    self.current.touch(i, j + 1);
                    return Some(j + 1);
                }
                '\\' => {
                    let next = src[j + 1..].chars().next()?;
                    match next {
                        '$' | '`' | '"' | '\\' => self.current.push_char(next),
                        '\n' => {}
                        _ => {
                            self.current.push_char('\\');
                            self.current.push_char(next);
                        }
                    }
                    j += 1 + next.len_utf8();
                }
                '$' | '`' => {
                    if c == '`' || src[j + 1..].starts_with('(') {
                        self.simple = false;
                    }
                    self.current.expands = true;
                    self.current.push_char(c);
                    j += 1;
                }
                _ => {
                    self.current.push_char(c);
                    j += c.len_utf8();
                }
            }
        }
        None
    }

    /// Reads the redirection whose operator starts at `i` (a file-descriptor number just before
    /// it belongs to it); returns the index after its target.
    fn redirect(&mut self, i: usize) -> usize {
        let src = self.src;
        let bytes = src.as_bytes();
        // `2>`: the digits already read as a word are the descriptor.
        let mut start = i;
        if let Some(word) = &self.current.word
            && !word.is_empty()
            && word.bytes().all(|b| b.is_ascii_digit())
            && src[..i].ends_with(word.as_str())
        {
            start = i - word.len();
            self.current.word = None;
        } else {
            self.current.end_word();
        }
        let mut j = i;
        while j < src.len() && matches!(bytes[j], b'<' | b'>' | b'&' | b'|') && j - i < 3 {
            j += 1;
        }
        let operator = &src[i..j];
        if operator.starts_with("<<") {
            // A here-document or here-string: the command reads text the rule cannot see.
            self.simple = false;
        }
        while j < src.len() && matches!(bytes[j], b' ' | b'\t') {
            j += 1;
        }
        let target_start = j;
        while j < src.len() && !matches!(bytes[j], b' ' | b'\t' | b'\n' | b';' | b'|' | b'&') {
            if matches!(bytes[j], b'\'' | b'"' | b'$' | b'`' | b'(' | b')' | b'\\') {
                // A quoted or computed target: not a plain file name.
                self.simple = false;
            }
            j += 1;
        }
        let written = src[start..j].to_owned();
        if target_start == j {
            self.simple = false;
        }
        self.current.start.get_or_insert(start);
        self.current.cut.push((start, j));
        self.current.end = self.current.end.max(j);
        self.current.redirects.push(written);
        j
    }

    fn unreadable(&mut self) {
        self.simple = false;
        // The rest is one part as written: a rule can still be matched against its text.
        let start = self.current.start.unwrap_or(0);
        self.current.touch(start, self.src.len());
        self.current.word = None;
    }
}

/// The command as the client matches it against allow rules (`/^timeout[ \t]+(?:`): comment
/// lines dropped, leading assignments of [`SAFE_ENV`] with plain values removed, the program
/// word's quotes removed, and the wrappers `timeout`, `time`, `nice`, `stdbuf`, `nohup`,
/// `command`, `builtin` and `noglob` (with the options the client accepts) removed, repeatedly.
pub(crate) fn strip_for_allow(command: &str) -> String {
    let mut r = command.to_owned();
    let mut before = String::new();
    while r != before {
        before = r.clone();
        r = drop_comment_lines(&r);
        if let Some((name, len)) = plain_assignment(&r)
            && SAFE_ENV.contains(&name)
        {
            r = r[len..].to_owned();
        }
    }
    r = unquote_first_word(&drop_comment_lines(&r));
    before = String::new();
    while r != before {
        before = r.clone();
        for strip in ALLOW_WRAPPERS {
            if let Some(len) = strip(&r) {
                r = r[len..].to_owned();
            }
        }
        if r != before {
            r = unquote_first_word(&drop_comment_lines(&r));
        }
    }
    r.trim().to_owned()
}

/// `NAME=value` followed by blanks at the start of `s`, with a value of `[A-Za-z0-9_./:-]+`:
/// the name and the length to remove.
fn plain_assignment(s: &str) -> Option<(&str, usize)> {
    let name_len = identifier_len(s)?;
    let rest = s[name_len..].strip_prefix('=')?;
    let value = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"_./:-".contains(b))
        .count();
    let blanks = blanks_len(&rest[value..]);
    (value > 0 && blanks > 0).then(|| (&s[..name_len], name_len + 1 + value + blanks))
}

fn identifier_len(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if !b
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
    {
        return None;
    }
    Some(
        b.iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count(),
    )
}

fn blanks_len(s: &str) -> usize {
    s.bytes().take_while(|b| matches!(b, b' ' | b'\t')).count()
}

/// Without its lines that are comments, unless nothing else is left.
fn drop_comment_lines(s: &str) -> String {
    let kept: Vec<&str> = s
        .split('\n')
        .filter(|line| !line.trim_start().starts_with('#'))
        .collect();
    if kept.is_empty() {
        return s.to_owned();
    }
    kept.join("\n")
}

/// The first blank-separated word with its quotes and escapes removed, unless they are
/// unbalanced there (the client cuts at the first blank even inside quotes).
fn unquote_first_word(s: &str) -> String {
    let end = s.find(char::is_whitespace).unwrap_or(s.len());
    if end == 0 {
        return s.to_owned();
    }
    let (word, rest) = s.split_at(end);
    let mut out = String::new();
    let mut quote: Option<char> = None;
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') => quote = None,
            (Some('\''), _) => out.push(c),
            (Some('"'), '\\') => match chars.peek() {
                Some(&n @ ('$' | '`' | '"' | '\\')) => {
                    out.push(n);
                    chars.next();
                }
                None => return s.to_owned(),
                Some(_) => out.push(c),
            },
            (Some('"'), '"') => quote = None,
            (Some(_), _) => out.push(c),
            (None, '\\') => match chars.next() {
                Some(n) => out.push(n),
                None => return s.to_owned(),
            },
            (None, '"' | '\'') => quote = Some(c),
            (None, _) => out.push(c),
        }
    }
    if quote.is_some() {
        return s.to_owned();
    }
    out + rest
}

/// The allow-rule wrappers, each the length of its prefix at the start of a command, in the
/// client's order.
const ALLOW_WRAPPERS: &[fn(&str) -> Option<usize>] = &[
    timeout_prefix,
    |s| keyword_then(s, "time", true),
    nice_prefix,
    stdbuf_prefix,
    |s| keyword_then(s, "nohup", true),
    command_prefix,
    builtin_prefix,
    |s| not_dash_after(s, word_prefix(s, "noglob")?),
];

/// `WORD` and the blanks after it.
fn word_prefix(s: &str, word: &str) -> Option<usize> {
    let rest = s.strip_prefix(word)?;
    let blanks = blanks_len(rest);
    (blanks > 0).then_some(word.len() + blanks)
}

/// `WORD [-- ]`.
fn keyword_then(s: &str, word: &str, double_dash: bool) -> Option<usize> {
    let mut at = word_prefix(s, word)?;
    if double_dash {
        at += dashdash(&s[at..]);
    }
    Some(at)
}

/// `--` and blanks, or nothing.
fn dashdash(s: &str) -> usize {
    match s.strip_prefix("--") {
        Some(rest) if blanks_len(rest) > 0 => 2 + blanks_len(rest),
        _ => 0,
    }
}

/// The prefix of length `at` (ending in blanks) if what follows is not `-`; as a regex with a
/// `(?!-)` lookahead backtracks, one blank fewer when there are several.
fn not_dash_after(s: &str, at: usize) -> Option<usize> {
    if !s[at..].starts_with('-') {
        return Some(at);
    }
    let blanks = s[..at]
        .bytes()
        .rev()
        .take_while(|b| matches!(b, b' ' | b'\t'))
        .count();
    (blanks > 1).then(|| at - 1)
}

/// `timeout [OPTIONS] [--] DURATION ` (`--foreground`, `--preserve-status`, `--verbose`, `-v`,
/// `-k`/`-s`/`--kill-after`/`--signal` with a value).
fn timeout_prefix(s: &str) -> Option<usize> {
    let mut at = word_prefix(s, "timeout")?;
    let value = |v: &str| {
        v.bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || b"_.+-".contains(b))
            .count()
    };
    loop {
        let rest = &s[at..];
        let option = ["--foreground", "--preserve-status", "--verbose", "-v"]
            .iter()
            .find(|o| word_prefix(rest, o).is_some())
            .map(|o| o.len())
            .or_else(|| {
                for long in ["--kill-after=", "--signal="] {
                    if let Some(v) = rest.strip_prefix(long) {
                        let n = value(v);
                        return (n > 0).then_some(long.len() + n);
                    }
                }
                for opt in ["--kill-after", "--signal", "-k", "-s"] {
                    if let Some(after) = word_prefix(rest, opt) {
                        let n = value(&rest[after..]);
                        if n > 0 {
                            return Some(after + n);
                        }
                    }
                }
                for opt in ["-k", "-s"] {
                    if let Some(v) = rest.strip_prefix(opt) {
                        let n = value(v);
                        if n > 0 {
                            return Some(opt.len() + n);
                        }
                    }
                }
                None
            });
        match option {
            Some(len) if blanks_len(&rest[len..]) > 0 => at += len + blanks_len(&rest[len..]),
            _ => break,
        }
    }
    at += dashdash(&s[at..]);
    let rest = &s[at..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let mut len = digits;
    if rest[len..].starts_with('.') {
        let fraction = rest[len + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if fraction > 0 {
            len += 1 + fraction;
        }
    }
    if rest[len..].starts_with(['s', 'm', 'h', 'd']) {
        len += 1;
    }
    let blanks = blanks_len(&rest[len..]);
    (blanks > 0).then_some(at + len + blanks)
}

/// `nice [-n N | -N] [--] `.
fn nice_prefix(s: &str) -> Option<usize> {
    let rest = s.strip_prefix("nice")?;
    let mut at = 4;
    let number = |v: &str| {
        let sign = usize::from(v.starts_with('-'));
        let digits = v[sign..].bytes().take_while(u8::is_ascii_digit).count();
        (digits > 0).then_some(sign + digits)
    };
    let blanks = blanks_len(rest);
    if blanks > 0 {
        let after = &rest[blanks..];
        if let Some(n_at) = word_prefix(after, "-n")
            && let Some(n) = number(&after[n_at..])
        {
            at += blanks + n_at + n;
        } else if let Some(digits) = after.strip_prefix('-').and_then(|v| {
            let d = v.bytes().take_while(u8::is_ascii_digit).count();
            (d > 0).then_some(d)
        }) {
            at += blanks + 1 + digits;
        }
    }
    let blanks = blanks_len(&s[at..]);
    if blanks == 0 {
        return None;
    }
    at += blanks;
    Some(at + dashdash(&s[at..]))
}

/// `stdbuf -[ioe]MODE… [--] `.
fn stdbuf_prefix(s: &str) -> Option<usize> {
    let mut at = "stdbuf".len();
    s.strip_prefix("stdbuf")?;
    let mut options = 0;
    loop {
        let rest = &s[at..];
        let blanks = blanks_len(rest);
        let opt = &rest[blanks..];
        let mode = opt
            .strip_prefix('-')
            .filter(|o| o.starts_with(['i', 'o', 'e']))
            .map(|o| {
                o[1..]
                    .bytes()
                    .take_while(|b| b.is_ascii_digit() || *b == b'L' || *b == b'N')
                    .count()
            });
        match mode {
            Some(n) if blanks > 0 && n > 0 => {
                at += blanks + 2 + n;
                options += 1;
            }
            _ => break,
        }
    }
    let blanks = blanks_len(&s[at..]);
    if options == 0 || blanks == 0 {
        return None;
    }
    at += blanks;
    Some(at + dashdash(&s[at..]))
}

/// `command [-p…]… [--] ` followed by something that is not an option.
fn command_prefix(s: &str) -> Option<usize> {
    let rest = s.strip_prefix("command")?;
    let mut at = "command".len();
    loop {
        let blanks = blanks_len(&s[at..]);
        let after = &s[at + blanks..];
        let ps = after
            .strip_prefix('-')
            .map(|p| p.bytes().take_while(|b| *b == b'p').count());
        match ps {
            Some(n) if blanks > 0 && n > 0 => at += blanks + 1 + n,
            _ => break,
        }
    }
    let blanks = blanks_len(&s[at..]);
    if blanks > 0 && s[at + blanks..].starts_with("--") {
        at += blanks + 2;
    }
    let blanks = blanks_len(&s[at..]);
    if blanks == 0 || rest.is_empty() {
        return None;
    }
    not_dash_after(s, at + blanks)
}

/// `builtin [--] ` followed by something that is not an option.
fn builtin_prefix(s: &str) -> Option<usize> {
    s.strip_prefix("builtin")?;
    let mut at = "builtin".len();
    let blanks = blanks_len(&s[at..]);
    if blanks > 0 && s[at + blanks..].starts_with("--") {
        at += blanks + 2;
    }
    let blanks = blanks_len(&s[at..]);
    if blanks == 0 {
        return None;
    }
    not_dash_after(s, at + blanks)
}

/// Every form of a part a deny or ask rule is matched against: as written, and with any
/// leading assignments and any wrappers of [`DENY_WRAPPERS`] removed, word by word and as the
/// allow form does. More forms than the client tries, never fewer.
pub(crate) fn deny_forms(part: &Part) -> Vec<String> {
    let mut forms = vec![part.text.clone()];
    let push = |form: String, forms: &mut Vec<String>| {
        if !form.is_empty() && !forms.contains(&form) {
            forms.push(form);
        }
    };
    push(strip_for_allow(&part.text), &mut forms);
    push(strip_all_assignments(&part.text), &mut forms);
    let mut words: &[String] = &part.words;
    push(words.join(" "), &mut forms);
    loop {
        let before = words.len();
        while words
            .first()
            .is_some_and(|w| identifier_len(w).is_some_and(|n| w[n..].starts_with(['=', '+'])))
        {
            words = &words[1..];
        }
        words = see_through_deny_wrapper(words);
        push(words.join(" "), &mut forms);
        if words.len() == before {
            break;
        }
    }
    let mut n = 0;
    while n < forms.len() {
        push(strip_for_allow(&forms[n]), &mut forms);
        push(strip_all_assignments(&forms[n]), &mut forms);
        n += 1;
    }
    forms
}

/// Without any leading `NAME=value` words (quoted values included).
fn strip_all_assignments(text: &str) -> String {
    let line = parse(text);
    let Some(part) = line.parts.first() else {
        return text.to_owned();
    };
    let n = part
        .words
        .iter()
        .take_while(|w| identifier_len(w).is_some_and(|n| w[n..].starts_with(['=', '+'])))
        .count();
    if n == 0 {
        return text.trim().to_owned();
    }
    // The text after the n-th word: skip that many blank-separated words of the source.
    let mut rest = text.trim_start();
    for _ in 0..n {
        let end = word_end(rest);
        rest = rest[end..].trim_start();
    }
    rest.trim().to_owned()
}

/// The end of the first shell word of `s` (quotes kept together).
fn word_end(s: &str) -> usize {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match (quote, c) {
            (_, '\\') if quote != Some('\'') => escaped = true,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if q == c => quote = None,
            (None, ' ' | '\t') => return i,
            _ => {}
        }
    }
    s.len()
}

/// The words after one wrapper of [`DENY_WRAPPERS`] and its options (for `timeout` its
/// duration, for `env` its assignments); the same words when the first is no such wrapper.
fn see_through_deny_wrapper(words: &[String]) -> &[String] {
    let Some((first, mut rest)) = words.split_first() else {
        return words;
    };
    let Some((name, with_value)) = DENY_WRAPPERS.iter().find(|(n, _)| n == first) else {
        return words;
    };
    while let Some((option, more)) = rest.split_first() {
        if option == "--" {
            rest = more;
            break;
        }
        if option.starts_with('-') && option.len() > 1 {
            let takes_value = with_value.contains(&option.as_str());
            rest = if takes_value {
                more.get(1..).unwrap_or_default()
            } else {
                more
            };
            continue;
        }
        if *name == "env" && option.contains('=') {
            rest = more;
            continue;
        }
        break;
    }
    if matches!(*name, "timeout" | "chrt" | "taskset" | "flock")
        && rest.len() > 1
        && rest[0].starts_with(|c: char| c.is_ascii_digit())
    {
        rest = &rest[1..];
    }
    if rest.len() == words.len() {
        words
    } else {
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(command: &str) -> Vec<String> {
        parse(command).parts.into_iter().map(|p| p.text).collect()
    }

    #[test]
    fn simple_commands_are_one_part_without_redirections_or_comment() {
        for (command, text) in [
            ("cargo test", "cargo test"),
            ("  cargo  test --all ", "cargo  test --all"),
            ("cargo test 2>&1", "cargo test"),
            ("cargo test >/dev/null 2>&1", "cargo test"),
            ("cargo test < /dev/null", "cargo test"),
            ("cargo test &> log", "cargo test"),
            ("cargo test # a comment", "cargo test"),
            ("RUST_LOG='a b' cargo test", "RUST_LOG='a b' cargo test"),
            ("cargo test 'a b' \"c d\"", "cargo test 'a b' \"c d\""),
            ("echo 'a && b'", "echo 'a && b'"),
            ("cargo test\n", "cargo test"),
        ] {
            let line = parse(command);
            assert!(line.simple, "{command:?}");
            assert_eq!(parts(command), [text], "{command:?}");
        }
        let line = parse("cargo test 2>&1 'a b'");
        assert_eq!(line.parts[0].words, ["cargo", "test", "a b"]);
        assert_eq!(line.parts[0].redirects, ["2>&1"]);
    }

    #[test]
    fn compound_commands_are_cut_into_their_commands() {
        for (command, expected) in [
            ("a && b", &["a", "b"][..]),
            ("a; b", &["a", "b"]),
            ("a || b", &["a", "b"]),
            ("a | b", &["a", "b"]),
            ("a |& b", &["a", "b"]),
            ("a &", &["a"]),
            ("a\nb", &["a", "b"]),
            ("(a)", &["a"]),
            ("echo $(a)", &["echo $", "a"]),
        ] {
            let line = parse(command);
            assert!(!line.simple, "{command:?}");
            assert_eq!(parts(command), expected, "{command:?}");
        }
        for command in [
            "cat <<EOF\nx\nEOF",
            "echo `date`",
            "diff <(a) b",
            "if true; then a; fi",
            "echo 'open",
            "{ a; }",
        ] {
            assert!(!parse(command).simple, "{command:?}");
        }
    }

    #[test]
    fn allow_form_strips_safe_assignments_and_the_clients_wrappers() {
        for (command, form) in [
            ("cargo test", "cargo test"),
            ("RUST_LOG=debug cargo test", "cargo test"),
            ("RUST_LOG=debug RUST_BACKTRACE=1 cargo test", "cargo test"),
            ("FOO=1 cargo test", "FOO=1 cargo test"),
            ("RUST_LOG=debug FOO=1 cargo test", "FOO=1 cargo test"),
            ("RUST_LOG='a b' cargo test", "RUST_LOG='a b' cargo test"),
            ("timeout 5 cargo test", "cargo test"),
            ("timeout -s KILL 5 cargo test", "cargo test"),
            ("timeout --signal=TERM 1.5m cargo test", "cargo test"),
            ("timeout cargo test", "timeout cargo test"),
            ("time cargo test", "cargo test"),
            ("nice cargo test", "cargo test"),
            ("nice -n 5 cargo test", "cargo test"),
            ("nice -5 cargo test", "cargo test"),
            ("nohup cargo test", "cargo test"),
            ("stdbuf -oL -eL cargo test", "cargo test"),
            ("stdbuf cargo test", "stdbuf cargo test"),
            ("command cargo test", "cargo test"),
            ("command -p cargo test", "cargo test"),
            ("command -v cargo", "command -v cargo"),
            ("builtin echo x", "echo x"),
            ("noglob ls *", "ls *"),
            ("time timeout 5 nice cargo test", "cargo test"),
            ("env cargo test", "env cargo test"),
            ("sudo cargo test", "sudo cargo test"),
            ("\"cargo\" test", "cargo test"),
            ("cargo 'test'", "cargo 'test'"),
            ("'my prog' x", "'my prog' x"),
            ("# note\ncargo test", "cargo test"),
        ] {
            assert_eq!(strip_for_allow(command), form, "{command:?}");
        }
    }

    #[test]
    fn deny_forms_see_through_every_assignment_and_more_wrappers() {
        let forms = |command: &str| deny_forms(&parse(command).parts[0]);
        for (command, form) in [
            ("FOO=1 cargo test", "cargo test"),
            ("RUST_LOG='a b' cargo test", "cargo test"),
            ("env A=b cargo test", "cargo test"),
            ("sudo -u root cargo test", "cargo test"),
            ("sudo nice -n 5 cargo test", "cargo test"),
            ("timeout -s KILL 5 cargo test", "cargo test"),
            ("xargs cargo test", "cargo test"),
            ("watch -n 1 cargo test", "cargo test"),
        ] {
            assert!(
                forms(command).iter().any(|f| f == form),
                "{command:?}: {:?}",
                forms(command)
            );
        }
    }
}
