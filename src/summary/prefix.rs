//! Line prefixes put on by a runner of several processes: a monorepo's task runner (turbo's
//! `web:test: `, pnpm's `packages/web test: `), a process manager (honcho's and foreman's
//! `12:00:01 web.1  | `, docker compose's `web-1  | `) or concurrently's `[0] `. Behind such a
//! prefix, a test run or build is no longer at the start of its lines, and no shape would read
//! it: the shapes read each line with its prefix taken off.
//!
//! The prefix is decided once, on the first lines: a form is taken when most lines have it and
//! a few names repeat (a compiler's `a.c:12:5: ` or a table's first column varies on every
//! line). Until then, lines are held back (a bounded number of them); after, each line that has
//! the form loses its prefix, and a line without it is read as it is.

/// Lines looked at before a form is decided.
const WINDOW: usize = 48;
/// Bytes of held-back lines at most (a window of long lines is decided on fewer).
const WINDOW_BYTES: usize = 32 * 1024;
/// Names of a form kept to decide (more names than this: not a prefix).
const NAMES: usize = 12;

/// A form of prefix: a function from a line to the prefix's length and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// turbo: `pkg:task: ` (`@scope/pkg:test: `), and `pkg:task:` alone on an empty line.
    Task,
    /// pnpm's recursive run: `packages/pkg test: ` and its header `packages/pkg test$ ` (a
    /// path, so that `Not Found: ` is no prefix).
    Workspace,
    /// concurrently: `[0] `, `[name] `.
    Bracket,
    /// honcho, foreman, docker compose: `[HH:MM:SS ]name  | `.
    Pipe,
    /// A time stamp as CI logs and `ts` put it, to the microsecond or finer, with its zone:
    /// `2026-12-03T13:47:29.710514Z `. (A server's own log records are stamped to the second
    /// or millisecond: their stamp is part of the record.)
    Stamp,
    /// GNU parallel's `--tag`: the job's argument and a tab.
    Tag,
}

const FORMS: [Form; 6] = [
    Form::Task,
    Form::Workspace,
    Form::Bracket,
    Form::Pipe,
    Form::Stamp,
    Form::Tag,
];

impl Form {
    /// The prefix's length in bytes and its name, when `line` has this form.
    fn split(self, line: &str) -> Option<(usize, &str)> {
        let b = line.as_bytes();
        match self {
            Form::Task => package_and_word(line, b':', u8::is_ascii_alphabetic, word, b":"),
            Form::Workspace => package_and_word(line, b' ', u8::is_ascii_lowercase, script, b":$")
                .filter(|(_, name)| name.split(' ').next().is_some_and(|p| p.contains('/'))),
            Form::Bracket => {
                if b.first() != Some(&b'[') {
                    return None;
                }
                let name = word(&b[1..]);
                let end = 1 + name;
                if name == 0 || b.get(end) != Some(&b']') || is_level(&b[1..end]) {
                    return None;
                }
                // Named with its brackets: `[0]` is a number otherwise.
                match &b[end + 1..] {
                    [] => Some((end + 1, &line[..end + 1])),
                    [b' ', ..] => Some((end + 2, &line[..end + 1])),
                    _ => None,
                }
            }
            Form::Pipe => {
                let start = clock(b);
                let name = word(&b[start..]);
                if name == 0 || !b[start].is_ascii_alphabetic() {
                    return None;
                }
                let mut end = start + name;
                while b.get(end) == Some(&b' ') {
                    end += 1;
                }
                if end == start + name || b.get(end) != Some(&b'|') {
                    return None;
                }
                let cut = if b.get(end + 1) == Some(&b' ') {
                    end + 2
                } else {
                    end + 1
                };
                Some((cut, &line[start..start + name]))
            }
            // Every stamp differs: the form is its name.
            Form::Stamp => stamp(b).map(|end| (end, "")),
            Form::Tag => {
                let tab = memchr::memchr(b'\t', &b[..b.len().min(256)])?;
                let name = &b[..tab];
                // Not go test's verdict on a package (`FAIL\tpkg\t0.01s`, `ok  \tpkg`).
                let verdict = name == b"FAIL" || name.ends_with(b" ");
                let named = name.iter().any(u8::is_ascii_alphabetic)
                    && !name.iter().any(|c| c.is_ascii_control())
                    && !verdict;
                named.then(|| (tab + 1, &line[..tab]))
            }
        }
    }
}

/// The length of an ISO 8601 time stamp and its space at the start of `b`: a date, `T`, a time
/// with six or more digits of fraction, and a `Z` or an offset.
fn stamp(b: &[u8]) -> Option<usize> {
    const DATE_TIME: &[u8; 19] = b"dddd-dd-ddTdd:dd:dd";
    if b.len() < 20 {
        return None;
    }
    let fits = DATE_TIME.iter().zip(b).all(|(want, c)| match want {
        b'd' => c.is_ascii_digit(),
        _ => want == c,
    });
    if !fits {
        return None;
    }
    if b[19] != b'.' {
        return None;
    }
    let digits = b[20..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits < 6 {
        return None;
    }
    let mut at = 20 + digits;
    match b.get(at) {
        Some(b'Z') => at += 1,
        Some(b'+' | b'-') => {
            at += 1;
            while b.get(at).is_some_and(|c| c.is_ascii_digit() || *c == b':') {
                at += 1;
            }
        }
        _ => return None,
    }
    (b.get(at) == Some(&b' ')).then_some(at + 1)
}

/// `<package><between><word><end>` and a space or the line's end, as turbo (`web:test: `) and
/// pnpm (`packages/web test: `) write it, the word starting as `first` says and as long as
/// `word` reads it: the prefix's length and its name (up to the word's end).
fn package_and_word<'a>(
    line: &'a str,
    between: u8,
    first: fn(&u8) -> bool,
    word: fn(&[u8]) -> usize,
    ends: &[u8],
) -> Option<(usize, &'a str)> {
    let b = line.as_bytes();
    let pkg = package(b)?;
    if b.get(pkg) != Some(&between) {
        return None;
    }
    let length = word(&b[pkg + 1..]);
    if length == 0 || !first(&b[pkg + 1]) {
        return None;
    }
    let end = pkg + 1 + length;
    match &b[end..] {
        [c] if ends.contains(c) => Some((end + 1, &line[..end])),
        [c, b' ', ..] if ends.contains(c) => Some((end + 2, &line[..end])),
        _ => None,
    }
}

/// The length of a package name or workspace path at the start of `b`: `web`, `@scope/web`,
/// `packages/web`, `apps/web-app`, `_internal/web`.
fn package(b: &[u8]) -> Option<usize> {
    let mut at = usize::from(b.first() == Some(&b'@'));
    let start = at;
    while at < b.len() && (b[at].is_ascii_alphanumeric() || b"._-/".contains(&b[at])) {
        at += 1;
    }
    (at > start && (b[start].is_ascii_alphanumeric() || b[start] == b'_')).then_some(at)
}

/// The length of a task, script or process name at the start of `b`: letters, digits and
/// `.`, `_`, `-` (`test`, `test:unit`'s parts, `web.1`).
fn word(b: &[u8]) -> usize {
    b.iter()
        .take_while(|c| c.is_ascii_alphanumeric() || b"._-".contains(c))
        .count()
}

/// The length of a package script's name at the start of `b`: a word, or words joined by
/// colons (`test:lib`, `test:unit:watch`), without the colon that ends it.
fn script(b: &[u8]) -> usize {
    let length = b
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || b"._-:".contains(c))
        .count();
    b[..length]
        .iter()
        .rposition(|&c| c != b':')
        .map_or(0, |last| last + 1)
}

/// A clock and its space at the start of `b` (`12:00:01 `), as process managers print: its
/// length, or 0.
fn clock(b: &[u8]) -> usize {
    let digits = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    let shape = digits(0)
        && digits(1)
        && b.get(2) == Some(&b':')
        && digits(3)
        && digits(4)
        && b.get(5) == Some(&b':')
        && digits(6)
        && digits(7)
        && b.get(8) == Some(&b' ');
    if shape { 9 } else { 0 }
}

/// A log level in brackets is a log's, not a process's name (`[INFO] `, `[ERROR] `).
fn is_level(name: &[u8]) -> bool {
    const LEVELS: [&str; 12] = [
        "trace", "debug", "info", "notice", "warn", "warning", "error", "err", "fatal", "critical",
        "success", "ok",
    ];
    LEVELS
        .iter()
        .any(|l| l.as_bytes().eq_ignore_ascii_case(name))
}

/// Takes a runner's line prefixes off before the shapes read a line.
#[derive(Debug, Default)]
pub(crate) struct Prefixes {
    state: State,
}

#[derive(Debug)]
enum State {
    /// Lines held back while the form is decided, and their bytes.
    Deciding(Vec<(u64, String)>, usize),
    /// No prefix: lines are read as they are.
    Plain,
    Prefixed(Form),
}

impl Default for State {
    fn default() -> State {
        State::Deciding(Vec::new(), 0)
    }
}

impl Prefixes {
    /// Feeds `line` on: to `read` at once (its prefix taken off, with the prefix's name, or
    /// `""`), or later, with the lines held back, once the form is decided.
    pub(crate) fn line(&mut self, number: u64, text: &str, mut read: impl FnMut(u64, &str, &str)) {
        match &mut self.state {
            State::Plain => read(number, text, ""),
            State::Prefixed(form) => {
                let (text, name) = strip(*form, text);
                read(number, text, name);
            }
            State::Deciding(held, bytes) => {
                *bytes += text.len();
                held.push((number, text.to_owned()));
                if held.len() >= WINDOW || *bytes >= WINDOW_BYTES {
                    self.decide(read);
                }
            }
        }
    }

    /// Decides on the lines held back (at the end of a short output) and feeds them on.
    pub(crate) fn flush(&mut self, read: impl FnMut(u64, &str, &str)) {
        if matches!(self.state, State::Deciding(..)) {
            self.decide(read);
        }
    }

    fn decide(&mut self, mut read: impl FnMut(u64, &str, &str)) {
        let State::Deciding(held, _) = std::mem::replace(&mut self.state, State::Plain) else {
            return;
        };
        if let Some(form) = decided(&held) {
            self.state = State::Prefixed(form);
        }
        for (number, text) in &held {
            match self.state {
                State::Prefixed(form) => {
                    let (text, name) = strip(form, text);
                    read(*number, text, name);
                }
                _ => read(*number, text, ""),
            }
        }
    }

    /// The form decided, if any (for the facts: lines were read without their prefixes).
    #[cfg(test)]
    fn form(&self) -> Option<Form> {
        match self.state {
            State::Prefixed(form) => Some(form),
            _ => None,
        }
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        match &self.state {
            State::Deciding(held, bytes) => held.capacity() * 32 + bytes,
            _ => 0,
        }
    }
}

/// `text` without its prefix of `form` and the prefix's name, or `text` as it is and `""`.
fn strip(form: Form, text: &str) -> (&str, &str) {
    form.split(text)
        .map_or((text, ""), |(cut, name)| (&text[cut..], name))
}

/// The form most of `lines` have, with a few names each repeated: at least four lines, two
/// thirds of the lines that are not blank, and on average three lines or more per name.
fn decided(lines: &[(u64, String)]) -> Option<Form> {
    let filled = lines.iter().filter(|(_, t)| !t.trim().is_empty()).count();
    FORMS
        .into_iter()
        .filter_map(|form| {
            let mut names: Vec<&str> = Vec::new();
            let mut count = 0;
            for (_, text) in lines {
                let Some((_, name)) = form.split(text) else {
                    continue;
                };
                count += 1;
                if !names.contains(&name) {
                    if names.len() == NAMES {
                        return None;
                    }
                    names.push(name);
                }
            }
            let repeated = count >= 3 * names.len();
            (count >= 4 && 3 * count >= 2 * filled && repeated).then_some((count, form))
        })
        .max_by_key(|(count, _)| *count)
        .map(|(_, form)| form)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> (Option<Form>, Vec<String>) {
        let mut prefixes = Prefixes::default();
        let mut out = Vec::new();
        for (i, line) in text.lines().enumerate() {
            prefixes.line(i as u64 + 1, line, |_, l, _| out.push(l.to_owned()));
        }
        prefixes.flush(|_, l, _| out.push(l.to_owned()));
        (prefixes.form(), out)
    }

    #[test]
    fn a_task_runners_prefix_is_taken_off() {
        let text = "• Running test in 2 packages\n\
                    web:test: > jest\n\
                    web:test: FAIL src/a.test.js\n\
                    web:test:\n\
                    @acme/ui:test: PASS src/b.test.js\n\
                    web:test: Tests:       1 failed, 3 passed, 4 total\n\
                    @acme/ui:test: Tests:       2 passed, 2 total\n";
        let (form, lines) = read_all(text);
        assert_eq!(form, Some(Form::Task));
        assert_eq!(
            lines,
            [
                "• Running test in 2 packages",
                "> jest",
                "FAIL src/a.test.js",
                "",
                "PASS src/b.test.js",
                "Tests:       1 failed, 3 passed, 4 total",
                "Tests:       2 passed, 2 total",
            ]
        );
    }

    #[test]
    fn a_workspace_runs_prefix_is_taken_off() {
        let text = "Scope: 2 of 3 workspace projects\n\
                    packages/a test$ jest\n\
                    packages/a test: FAIL test/x.test.js\n\
                    packages/a test: Tests: 1 failed, 1 total\n\
                    packages/b test$ vitest run\n\
                    packages/b test: ✓ y.test.ts (3 tests)\n\
                    packages/b test: Done\n";
        let (form, lines) = read_all(text);
        assert_eq!(form, Some(Form::Workspace));
        assert_eq!(lines[2], "FAIL test/x.test.js");
        assert_eq!(lines[4], "vitest run");
        // A script named with colons, as `pnpm -r --parallel` prefixes it.
        let text = "Scope: 2 of 3 workspace projects\n\
                    packages/a test:lib$ vitest\n\
                    packages/b test:lib$ vitest\n\
                    packages/a test:lib:  FAIL  tests/x.test.ts > a > b\n\
                    packages/b test:lib:  Test Files  1 passed (1)\n\
                    packages/a test:lib:  Test Files  1 failed (1)\n\
                    packages/b test:lib: Done\n";
        let (form, lines) = read_all(text);
        assert_eq!(form, Some(Form::Workspace));
        assert_eq!(lines[3], " FAIL  tests/x.test.ts > a > b");
        assert_eq!(lines[2], "vitest");
    }

    #[test]
    fn process_managers_prefixes_are_taken_off() {
        let text = "12:00:01 system  | web.1 started (pid=12)\n\
                    12:00:01 web.1   |  * Running on http://127.0.0.1:5000\n\
                    12:00:02 web.1   | Traceback (most recent call last):\n\
                    12:00:02 web.1   |   File \"app.py\", line 3, in <module>\n\
                    12:00:02 web.1   | KeyError: 'x'\n\
                    12:00:02 system  | web.1 stopped (rc=1)\n";
        let (form, lines) = read_all(text);
        assert_eq!(form, Some(Form::Pipe));
        assert_eq!(lines[2], "Traceback (most recent call last):");
        assert_eq!(lines[3], "  File \"app.py\", line 3, in <module>");
        let (form, lines) = read_all("[0] a\n[0] b\n[1] c\n[1] d\n[0] e\n[1] f\n");
        assert_eq!(form, Some(Form::Bracket));
        assert_eq!(lines, ["a", "b", "c", "d", "e", "f"]);
    }

    #[test]
    fn time_stamps_and_job_tags_are_taken_off() {
        let text = "2026-12-03T13:47:29.710514Z ============ test session starts ============\n\
                    2026-12-03T13:47:29.712194Z platform linux -- Python 3.11.7\n\
                    2026-12-03T13:47:30.0000000Z collected 3 items\n\
                    2026-12-03T13:47:31.123456+01:00 FAILED tests/test_a.py::test_b - AssertionError\n";
        let (form, lines) = read_all(text);
        assert_eq!(form, Some(Form::Stamp));
        assert_eq!(lines[2], "collected 3 items");
        assert_eq!(lines[3], "FAILED tests/test_a.py::test_b - AssertionError");
        let text = "tests/test_a.py\t===== test session starts =====\ntests/test_a.py\tcollected 2 items\n\
                    tests/test_a.py\t\ntests/test_b.py\tcollected 1 item\ntests/test_b.py\t1 passed\n\
                    tests/test_b.py\t===== 1 passed in 0.01s =====\n";
        let (form, lines) = read_all(text);
        assert_eq!(form, Some(Form::Tag));
        assert_eq!(lines[2], "");
        assert_eq!(lines[5], "===== 1 passed in 0.01s =====");
    }

    #[test]
    fn diagnostics_logs_and_tables_keep_their_lines() {
        // gcc's places, a log's levels, a coverage table, key: value lines.
        for text in [
            "a.c:12:5: error: x\na.c:13:5: error: y\nb.c:1:1: warning: z\nb.c:2:1: note: w\n",
            "[INFO] a\n[INFO] b\n[ERROR] c\n[INFO] d\n[WARNING] e\n",
            "File  | % Stmts\nsrc/a.ts | 100\nsrc/b.ts | 90\nsrc/c.ts | 80\nsrc/d.ts | 70\n",
            "error: a\nerror: b\nerror: c\nnote: d\nerror: e\n",
            "test a ... ok\ntest b ... ok\ntest c ... FAILED\ntest d ... ok\n",
            "Not Found: /a/\nNot Found: /b/\nNot Found: /c/\nNot Found: /d/\n",
            "2026-12-03T13:47:29Z GET /\n2026-12-03T13:47:29.123Z GET /\n2026-12-03T13:47:29Z a\n\
             2026-12-03T13:47:30Z b\n",
            "3\t1\tsrc/a.rs\n3\t1\tsrc/b.rs\n3\t2\tsrc/c.rs\n3\t1\tsrc/d.rs\n",
            // go test's verdicts on packages
            "FAIL\tex.com/a\t0.1s\nFAIL\tex.com/b\t0.1s\nFAIL\tex.com/c [build failed]\nFAIL\tex.com/d\t0.2s\n",
            "ok  \tex.com/a\t0.1s\nok  \tex.com/b\t0.1s\nok  \tex.com/c\t0.1s\nok  \tex.com/d\t0.2s\n",
        ] {
            let (form, lines) = read_all(text);
            assert_eq!(form, None, "{text}");
            assert_eq!(lines, text.lines().collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_long_output_is_decided_on_its_first_lines_and_then_streams() {
        let mut prefixes = Prefixes::default();
        let mut read = 0u64;
        for n in 1..=100_000u64 {
            prefixes.line(n, "api:build: compiling", |number, line, name| {
                assert_eq!(name, "api:build");
                assert_eq!(line, "compiling");
                read = number;
            });
            assert!(prefixes.approx_heap() < 64 * 1024);
        }
        assert_eq!(read, 100_000);
    }
}
