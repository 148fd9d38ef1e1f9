//! Helpers shared by the summarisers: bounded lists of names, failures with their first detail,
//! the test counts JS runners report.

use serde_json::json;

use crate::format::{cut, cut_middle, thousands};

/// `tests: 39 run, 35 passed, 4 failed, 1 skipped, 1 todo of 41`: the counts JS runners report
/// (`run` is passed + failed; zero skipped/todo are left out).
pub(crate) fn js_test_counts(
    passed: u64,
    failed: u64,
    skipped: u64,
    todo: u64,
    total: u64,
) -> String {
    let mut line = format!(
        "tests: {} run, {} passed, {} failed",
        thousands(passed.saturating_add(failed)),
        thousands(passed),
        thousands(failed)
    );
    if skipped > 0 {
        line.push_str(&format!(", {} skipped", thousands(skipped)));
    }
    if todo > 0 {
        line.push_str(&format!(", {} todo", thousands(todo)));
    }
    line.push_str(&format!(" of {}", thousands(total)));
    line
}

/// `tests: 1,097 run, 1,043 passed, 21 failed, 32 errors, 1 skipped (zope.testrunner)`: the
/// counts of a runner that counts errors apart from failures (`errors` when it does), then
/// each of its `others` that is not zero, then `runner` in parentheses. How many passed is
/// left out when it is not known.
pub(crate) fn test_counts(
    run: u64,
    passed: Option<u64>,
    failed: u64,
    errors: Option<u64>,
    others: &[(u64, &str)],
    runner: &str,
) -> String {
    let mut line = format!("tests: {} run", thousands(run));
    if let Some(passed) = passed {
        line.push_str(&format!(", {} passed", thousands(passed)));
    }
    line.push_str(&format!(", {} failed", thousands(failed)));
    if let Some(errors) = errors {
        line.push_str(&format!(", {} errors", thousands(errors)));
    }
    for (n, word) in others.iter().filter(|(n, _)| *n > 0) {
        line.push_str(&format!(", {} {word}", thousands(*n)));
    }
    line.push_str(&format!(" ({runner})"));
    line
}

/// A line of one character repeated, at least `min` long: a runner's rule between blocks
/// (`=====…`, `-----…`).
pub(crate) fn is_rule(text: &str, c: u8, min: usize) -> bool {
    text.len() >= min && text.bytes().all(|b| b == c)
}

/// A numbered entry of a runner's failure list, `  12) title` → `title` (mocha, RSpec).
pub(crate) fn numbered(text: &str) -> Option<&str> {
    let t = text.strip_prefix("  ")?;
    let (n, rest) = t.split_once(") ")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty()).then_some(rest)
}

/// How often each name occurred (a test's status, a kind of error): the first `max` names on
/// their own, later ones together as `other`; names cut to `NAME_CHARS`.
#[derive(Debug, Default)]
pub(crate) struct Counts {
    pub(crate) counts: Vec<(String, u64)>,
    pub(crate) other: u64,
}

impl Counts {
    pub(crate) fn add(&mut self, name: &str, max: usize) {
        let name = cut(name, NAME_CHARS);
        if let Some((_, n)) = self.counts.iter_mut().find(|(k, _)| *k == name) {
            *n += 1;
        } else if self.counts.len() < max {
            self.counts.push((name, 1));
        } else {
            self.other += 1;
        }
    }

    /// `Failed ×8`, …, `other ×2`, for the names `keep` keeps.
    pub(crate) fn render(&self, keep: impl Fn(&str) -> bool) -> Vec<String> {
        self.counts
            .iter()
            .filter(|(k, _)| keep(k))
            .map(|(k, n)| format!("{k} ×{}", thousands(*n)))
            .chain((self.other > 0).then(|| format!("other ×{}", thousands(self.other))))
            .collect()
    }

    pub(crate) fn json(&self, key: &str) -> serde_json::Value {
        let mut list: Vec<serde_json::Value> = self
            .counts
            .iter()
            .map(|(k, n)| json!({key: k, "count": n}))
            .collect();
        if self.other > 0 {
            list.push(json!({key: "other", "count": self.other}));
        }
        list.into()
    }

    pub(crate) fn total(&self) -> u64 {
        self.counts.iter().map(|(_, n)| n).sum::<u64>() + self.other
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.counts.iter().map(|(k, _)| k.capacity() + 32).sum()
    }
}

/// Names kept for display: the first `NAMES_KEPT` and the last, each cut short, and how many
/// there were.
#[derive(Debug, Default)]
pub(crate) struct Names {
    pub(crate) kept: Vec<String>,
    last: Option<String>,
    pub(crate) total: u64,
    /// The runner's own line for each kept name, when every one was pushed with it.
    said: Vec<String>,
}

/// How many names (failing tests, files, packages…) are shown whole; more are shown as the
/// first `NAMES_FIRST`, a count, and the last.
pub(crate) const NAMES_KEPT: usize = 12;
const NAMES_FIRST: usize = 5;
const NAME_CHARS: usize = 160;
/// How much of a runner's line for a name is kept.
const SAID_LINE_CHARS: usize = 300;
/// What the runner's line says around the name (`[  FAILED  ] `, `test ` … ` ... FAILED`).
const SAID_CHARS: usize = 40;

impl Names {
    pub(crate) fn push(&mut self, name: &str) {
        self.total += 1;
        if self.kept.len() < NAMES_KEPT {
            self.kept.push(cut(name, NAME_CHARS));
        } else {
            self.last = Some(cut(name, NAME_CHARS));
        }
    }

    /// A name with the runner's own line for it (`FAIL\tpkg\t0.01s`).
    pub(crate) fn push_said(&mut self, name: &str, said: &str) {
        if self.kept.len() < NAMES_KEPT {
            self.said.push(cut(said, SAID_LINE_CHARS));
        }
        self.push(name);
    }

    /// The runner's lines for every name, while there are at most `NAMES_KEPT`, each pushed
    /// with its line: what a reader searches the output with, quoted rather than named.
    pub(crate) fn said_lines(&self) -> Option<&[String]> {
        let all = self.total <= NAMES_KEPT as u64 && self.said.len() as u64 == self.total;
        (all && self.total > 0).then_some(self.said.as_slice())
    }

    /// Whether `name` is among the names kept (the first ones and the last).
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.kept.iter().chain(&self.last).any(|n| n == name)
    }

    /// All the names when there are at most `NAMES_KEPT`, else `a, b, c, d, e, … 12 more …, z`.
    /// `total` is the count stated elsewhere, which may exceed the names seen (then the last
    /// seen is not shown as the last).
    pub(crate) fn render(&self, total: u64) -> String {
        self.render_joined(total, ", ")
    }

    /// [`Names::render`] with `separator` between names.
    pub(crate) fn render_joined(&self, total: u64, separator: &str) -> String {
        let seen_all = total <= self.total;
        if seen_all && self.total <= NAMES_KEPT as u64 {
            return self.kept.join(separator);
        }
        let first = &self.kept[..self.kept.len().min(NAMES_FIRST)];
        let mut out = first.join(separator);
        let last = self.last.as_ref().or(self.kept.last()).filter(|_| seen_all);
        let more = total.saturating_sub(first.len() as u64 + u64::from(last.is_some()));
        if more > 0 {
            out.push_str(&format!("{separator}… {} more", thousands(more)));
        }
        if let Some(last) = last {
            out.push_str(&format!(" …{separator}{last}"));
        }
        out
    }

    /// The names kept, the last one included.
    pub(crate) fn json(&self) -> serde_json::Value {
        json!(self.kept.iter().chain(&self.last).collect::<Vec<_>>())
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.kept.capacity() * std::mem::size_of::<String>()
            + self
                .kept
                .iter()
                .chain(&self.last)
                .chain(&self.said)
                .map(String::capacity)
                .sum::<usize>()
    }
}

/// One failure: where it was reported, its name, and its first detail (a few lines).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Failure {
    pub(crate) line: u64,
    pub(crate) name: String,
    pub(crate) detail: Vec<String>,
    /// How long the start of `name` is that names its group, when the shape knows (RSpec's
    /// `Dry::Inflector#ordinalize` of `Dry::Inflector#ordinalize ordinalizes 2 => 2nd`);
    /// else the group is read from the name's separators.
    pub(crate) group: Option<usize>,
    /// The form of the message (see [`Failure::form`]), read before a long message was cut:
    /// a cut in its middle leaves out what a cut at its end keeps. `None`: read from `detail`.
    pub(crate) message_form: Option<String>,
    /// The runner's own line that said the test failed, as printed (`test a::b ... FAILED`,
    /// `not ok 14 name`, `--- FAIL: TestX/sub (0.00s)`), when it holds the name: shown in
    /// place of the name, so that what the reader sees is what the runner said, word for word
    /// (to search for, or to recognise), not a paraphrase of it.
    pub(crate) said: Option<String>,
}

/// A place in a test's file: `tests/a.test.js:9:3`, `src/__tests__/b.ts:1:2`, `test/c.js:4:1`,
/// `test_a.py:3`, `a_test.go:12` (what follows the path is left alone: `… :in 'test_x'`).
pub(crate) fn is_test_file(place: &str) -> bool {
    let path = place.split(':').next().unwrap_or(place);
    let name = path.rsplit('/').next().unwrap_or(path);
    [".test.", ".spec.", "_test.", "_spec."]
        .iter()
        .any(|m| name.contains(m))
        || name.starts_with("test_")
        || name == "tests.py"
        || name == "test.py"
        || path
            .split('/')
            .any(|d| d == "test" || d == "tests" || d == "__tests__" || d == "spec")
}

/// `text` with each path under the directory `root` written from it on: `root/` left out
/// where a path starts (at the start, after a space, a quote, a bracket, `=` or `:`).
/// The root `/` is left alone: every absolute path is under it.
pub(crate) fn relative<'a>(text: &'a str, root: &str) -> std::borrow::Cow<'a, str> {
    let root = root.trim_end_matches('/');
    if root.is_empty() || !root.starts_with('/') {
        return std::borrow::Cow::Borrowed(text);
    }
    let prefix = format!("{root}/");
    if !text.contains(&prefix) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&prefix) {
        let starts_path = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| c.is_whitespace() || "\"'`([{<=:,".contains(c));
        let (before, after) = rest.split_at(at);
        let under = &after[prefix.len()..];
        // A path as a URL (`file:///home/dev/proj/test/a.js:4:2`) is a path too.
        let (before, starts_path) = match before.strip_suffix("file://") {
            Some(before) if !under.is_empty() => (before, true),
            _ => (before, starts_path),
        };
        out.push_str(before);
        // The root itself (`cd /home/dev/proj/`) stays as written.
        if !starts_path || under.is_empty() || under.starts_with(char::is_whitespace) {
            out.push_str(&prefix);
        }
        rest = under;
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Labels of a value compared, at the start of a detail.
const VALUE_LABELS: [&str; 8] = [
    "Expected: ",
    "Actual: ",
    "Received: ",
    "expected: ",
    "actual: ",
    "received: ",
    "got: ",
    "want: ",
];

/// The form of a failure's detail: the detail with the values it compares left out (numbers,
/// quoted strings, what brackets hold), so that `expected 1 to be 2` and `expected 6 to be 5`
/// read alike and `expected '1' to be '2'` or `expected [ 1 ] to equal [ 2 ]` do not. Brackets
/// need not balance: a runner's abbreviation (`[(Tru[15 chars] …]`) or a cut detail leaves
/// some open, and a closer closes whatever was opened after its opener. Places in files are
/// left out too (`panicked at src/a.rs:4:5:` and `panicked at src/b.rs:9:1:` read alike), and
/// so is a value after the label that opens the detail (`Expected: <p>a2a2</p>`, as jasmine and
/// many spec runners print it).
pub(crate) fn form(detail: &str) -> String {
    let detail = without_pytest_mark(detail);
    let opening = detail.trim_start();
    if let Some(label) = VALUE_LABELS.iter().find(|l| {
        opening
            .strip_prefix(**l)
            .is_some_and(|value| !value.trim().is_empty())
    }) {
        return format!("{label}…");
    }
    let mut out = String::with_capacity(detail.len());
    let detail = without_locations(detail);
    let mut chars = detail.chars().peekable();
    let mut open: Vec<char> = Vec::new();
    let mut before = ' ';
    while let Some(c) = chars.next() {
        let closer = match c {
            '(' => Some(')'),
            '[' => Some(']'),
            '{' => Some('}'),
            _ => None,
        };
        if let Some(closer) = closer {
            if open.is_empty() {
                out.extend([c, closer]);
            }
            open.push(closer);
        } else if !open.is_empty() {
            if let Some(at) = open.iter().rposition(|&o| o == c) {
                open.truncate(at);
            }
        } else if matches!(c, '\'' | '"' | '`') && !before.is_alphanumeric() {
            out.extend([c, c]);
            chars.by_ref().find(|&q| q == c);
        } else if c == '‘' {
            // gcc's quotes.
            out.extend(['‘', '’']);
            chars.by_ref().find(|&q| q == '’');
        } else if c.is_ascii_digit() {
            out.push('0');
            while chars
                .next_if(|&n| n.is_ascii_digit() || n == '.' || n == '_')
                .is_some()
            {}
        } else if !(matches!(c, '+' | '-')
            && !before.is_alphanumeric()
            && chars.peek().is_some_and(char::is_ascii_digit))
        {
            out.push(c);
        }
        before = c;
    }
    out
}

/// A line of pytest's report without the `E` it is marked with (`E       assert 1 == 2`, its
/// indent the frame's): the message, whatever the frame's depth.
pub(crate) fn without_pytest_mark(text: &str) -> &str {
    match text.strip_prefix('E') {
        Some(rest) if rest.starts_with("   ") => rest.trim_start(),
        _ => text,
    }
}

/// `text` with each word that is a place in a file (`src/lib.rs:44:5:`, `(test/a.js:7:10)`)
/// as `…`: where a failure happened is not how it failed.
fn without_locations(text: &str) -> std::borrow::Cow<'_, str> {
    fn is_location(word: &str) -> bool {
        let word = word.trim_matches(|c: char| matches!(c, '(' | ')' | ':' | ',' | '[' | ']'));
        word.split_once(':').is_some_and(|(file, at)| {
            file.rsplit_once('.').is_some_and(|(stem, ext)| {
                !stem.is_empty() && !ext.is_empty() && ext.chars().all(char::is_alphanumeric)
            }) && at.starts_with(|c: char| c.is_ascii_digit())
        })
    }
    if !text.split_whitespace().any(is_location) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(if is_location(word) { "…" } else { word });
    }
    out.into()
}

/// Two values compared (`left: …`, `right: …`, each after its label), each shown around where
/// they first differ when either is longer than `width` characters: a long value's start and
/// end are often the same in both, and the difference is in its middle.
pub(crate) fn where_they_differ(a: &str, b: &str, width: usize) -> (String, String) {
    let (a_label, a_value) = split_label(a);
    let (b_label, b_value) = split_label(b);
    let (av, bv): (Vec<char>, Vec<char>) = (a_value.chars().collect(), b_value.chars().collect());
    if av.len() <= width && bv.len() <= width {
        return (a.to_owned(), b.to_owned());
    }
    let common = av.iter().zip(&bv).take_while(|(x, y)| x == y).count();
    // Some of what both have before the difference, to say where it is.
    let start = common.saturating_sub(width / 3);
    let window = |v: &[char]| {
        let end = v.len().min(start + width);
        let mut out = String::new();
        if start > 0 {
            out.push('…');
        }
        out.extend(&v[start.min(end)..end]);
        if end < v.len() {
            out.push('…');
        }
        out
    };
    (
        format!("{a_label}{}", window(&av)),
        format!("{b_label}{}", window(&bv)),
    )
}

/// `left:  value` → (`left:  `, `value`), `Expected value to equal: 1` → (`Expected value to
/// equal: `, `1`); no label: (``, text).
fn split_label(text: &str) -> (&str, &str) {
    match text.split_once(':') {
        Some((label, _))
            if !label.is_empty()
                && label.len() <= 30
                && label.split(' ').count() <= 4
                && !label.contains(['{', '[', '(', '"', '\'']) =>
        {
            let value = text[label.len() + 1..].trim_start();
            text.split_at(text.len() - value.len())
        }
        _ => ("", text),
    }
}

/// Detail lines kept per failure, and their length.
const DETAIL_LINES: usize = 4;
const DETAIL_CHARS: usize = 200;
/// Failures kept whole (the first ones), besides the last.
const FAILURES_KEPT: usize = 40;
/// Failures kept past the first ones because they fail in a way none kept before does.
const NEW_FORMS_KEPT: usize = 24;
/// Failures kept past the first ones because their message is new, though not their way of
/// failing (`expected 'Created' …, got '201'` after thirteen `expected 'Not Found' …`).
const NEW_MESSAGES_KEPT: usize = 8;

/// Failures in the order a reader needs them, bounded: the first `FAILURES_KEPT` and the last,
/// with how many there were.
#[derive(Clone, Debug, Default)]
pub(crate) struct Failures {
    /// What the list is, for its heading (`failed tests`, `first error of each code`).
    pub(crate) heading: &'static str,
    pub(crate) kept: Vec<Failure>,
    /// Failures past the first `FAILURES_KEPT` whose detail has a form or a message none
    /// before had (the 62nd of 66 failing tests may be the only one failing that way).
    pub(crate) new_forms: Vec<Failure>,
    /// The forms of the details of `kept` and `new_forms`, once `kept` is full.
    forms: Vec<String>,
    /// Their messages (see [`Failure::message`]), once `kept` is full.
    messages: Vec<String>,
    /// How many of `new_forms` fail in a way kept before, with a message none kept has.
    new_messages: usize,
    pub(crate) last: Option<Failure>,
    pub(crate) total: u64,
    /// The section of the output the failures are in (a package's run in a monorepo's).
    pub(crate) section: Option<String>,
    /// Shown only in the room the other lists leave: none is kept for it (a log's warnings
    /// beside its errors).
    pub(crate) spare: bool,
}

impl Failures {
    pub(crate) fn new(heading: &'static str) -> Failures {
        Failures {
            heading,
            ..Failures::default()
        }
    }

    /// A new failure, reported at `line`.
    pub(crate) fn push(&mut self, line: u64, name: &str) {
        self.push_failure(Failure {
            line,
            name: cut(name, NAME_CHARS),
            detail: Vec::new(),
            group: None,
            message_form: None,
            said: None,
        });
    }

    /// A new failure, reported at `line` by the runner's line `said`, which names it.
    pub(crate) fn push_said(&mut self, line: u64, name: &str, said: &str) {
        self.push(line, name);
        self.say(said);
    }

    /// A failure counted already, pushed again now that its detail follows: one dropped when
    /// it was reported (past the first ones kept, its detail unknown) may fail in a new way.
    pub(crate) fn push_again(&mut self, line: u64, name: &str) {
        self.push(line, name);
        self.total -= 1;
    }

    /// The runner's own line for the failure pushed last (see [`Failure::said`]).
    pub(crate) fn say(&mut self, said: &str) {
        if let Some(f) = self.current() {
            f.say(said);
        }
    }

    /// Lines of detail for the failure pushed last (see [`Failure::add_detail`]).
    pub(crate) fn add_details(&mut self, details: &[String]) {
        if let Some(f) = self.current() {
            for detail in details {
                f.add_detail(detail);
            }
        }
    }

    /// A failure made elsewhere.
    pub(crate) fn push_failure(&mut self, failure: Failure) {
        self.total += 1;
        if self.kept.len() < FAILURES_KEPT {
            self.kept.push(failure);
            return;
        }
        // The one pushed before is complete now (details come after a push): kept if it
        // fails in a new way or with a message none kept has, else dropped for this one.
        let forms_full = self.new_forms.len() - self.new_messages >= NEW_FORMS_KEPT;
        if let Some(before) = self.last.replace(failure) {
            if forms_full && self.new_messages >= NEW_MESSAGES_KEPT {
                // Nothing more is kept: no need to read how it failed.
                return;
            }
            if self.forms.is_empty() {
                self.forms = self.kept.iter().filter_map(Failure::form).collect();
                self.messages = self
                    .kept
                    .iter()
                    .filter_map(|f| f.message().map(str::to_owned))
                    .collect();
            }
            let message = before
                .message()
                .filter(|m| !self.messages.iter().any(|k| k == m))
                .map(str::to_owned);
            if forms_full && message.is_none() {
                // Only a new message could keep it now.
                return;
            }
            let form = before.form().filter(|f| !self.forms.contains(f));
            let keep = if form.is_some() {
                !forms_full
            } else {
                message.is_some() && self.new_messages < NEW_MESSAGES_KEPT
            };
            if keep {
                self.new_messages += usize::from(form.is_none());
                self.forms.extend(form);
                self.messages.extend(message);
                self.new_forms.push(before);
            }
        }
    }

    /// The failure pushed last, if it is kept.
    pub(crate) fn current(&mut self) -> Option<&mut Failure> {
        match &mut self.last {
            Some(last) => Some(last),
            None => self.kept.last_mut(),
        }
    }

    /// The kept failure named `name`, the latest first.
    pub(crate) fn named(&mut self, name: &str) -> Option<&mut Failure> {
        self.find(|n| n == name)
    }

    /// The last failure kept whose name `matches`.
    pub(crate) fn find(&mut self, matches: impl Fn(&str) -> bool) -> Option<&mut Failure> {
        if self.last.as_ref().is_some_and(|l| matches(&l.name)) {
            return self.last.as_mut();
        }
        self.kept
            .iter_mut()
            .chain(&mut self.new_forms)
            .rev()
            .find(|f| matches(&f.name))
    }

    /// The failures of `other` after this list's, each counted (those `other` counted and did
    /// not keep too).
    pub(crate) fn append(&mut self, other: Failures) {
        let unkept = other.total - other.iter().count() as u64;
        for failure in other
            .kept
            .into_iter()
            .chain(other.new_forms)
            .chain(other.last)
        {
            self.push_failure(failure);
        }
        self.total += unkept;
    }

    /// The list, taken out to be stated under `heading`; an empty one is left.
    pub(crate) fn take_as(&mut self, heading: &'static str) -> Failures {
        Failures {
            heading,
            ..std::mem::take(self)
        }
    }

    /// Whether the list is of failed tests (`failed tests`, `failed examples`, `failing
    /// scenarios`), each a test to fix, rather than of errors or findings of a kind.
    pub(crate) fn of_tests(&self) -> bool {
        self.heading.starts_with("fail")
            && ["test", "example", "scenario"]
                .iter()
                .any(|w| self.heading.contains(w))
    }

    /// The names of the first `most` kept failures.
    pub(crate) fn names(&self, most: usize) -> Vec<String> {
        self.iter().take(most).map(|f| f.name.clone()).collect()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Every kept failure, in output order, the last included.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &Failure> {
        self.kept.iter().chain(&self.new_forms).chain(&self.last)
    }

    /// Every kept failure, in output order, the last included.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = &mut Failure> {
        self.kept
            .iter_mut()
            .chain(&mut self.new_forms)
            .chain(&mut self.last)
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        let mut json = json!({
            "heading": self.heading,
            "total": self.total,
            "kept": self
                .iter()
                .map(|f| {
                    let mut kept = json!({"line": f.line, "name": f.name, "detail": f.detail});
                    if let Some(said) = &f.said {
                        kept["said"] = json!(said);
                    }
                    kept
                })
                .collect::<Vec<_>>(),
        });
        if let (Some(section), serde_json::Value::Object(map)) = (&self.section, &mut json) {
            map.insert("section".into(), section.as_str().into());
        }
        json
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.forms
            .iter()
            .chain(&self.messages)
            .map(|f| f.capacity() + 24)
            .sum::<usize>()
            + self
                .iter()
                .map(|f| {
                    std::mem::size_of::<Failure>()
                        + f.name.capacity()
                        + f.said.as_ref().map_or(0, String::capacity)
                        + f.detail.iter().map(|d| d.capacity() + 24).sum::<usize>()
                })
                .sum::<usize>()
    }
}

impl Failure {
    /// Its name and detail with each path under `root` written from `root` on
    /// (`File "/home/dev/proj/pkg/a.py"` run in `/home/dev/proj`: `File "pkg/a.py"`); the
    /// runner's own line stays as printed.
    pub(crate) fn relative_to(&mut self, root: &str) {
        for text in std::iter::once(&mut self.name).chain(&mut self.detail) {
            if let std::borrow::Cow::Owned(relative) = relative(text, root) {
                *text = relative;
            }
        }
    }

    /// The runner's own line that said it failed (see [`Failure::said`]).
    pub(crate) fn say(&mut self, said: &str) {
        self.said = Some(cut(said.trim(), NAME_CHARS + SAID_CHARS));
    }

    /// The next line of a value of many lines (`expected: --help`, then `rake`), joined to the
    /// last line of detail as `\n` while it is shorter than a line of detail may be.
    pub(crate) fn continue_detail(&mut self, text: &str) {
        if let Some(last) = self.detail.last_mut()
            && last.chars().count() < DETAIL_CHARS
        {
            last.push_str("\\n");
            last.push_str(text.trim());
            // With its `…`, no longer than a line of detail.
            *last = cut(last, DETAIL_CHARS - 1);
        }
    }

    /// More of the last line of detail, after ` · `, while it is shorter than a line of detail
    /// may be.
    pub(crate) fn extend_detail(&mut self, text: &str) {
        if let Some(last) = self.detail.last_mut()
            && last.chars().count() < DETAIL_CHARS
        {
            last.push_str(" · ");
            last.push_str(text.trim());
            *last = cut(last, DETAIL_CHARS - 1);
        }
    }

    /// Adds a line of detail, unless it has enough. Returns whether it was added.
    pub(crate) fn add_detail(&mut self, text: &str) -> bool {
        let text = text.trim();
        if text.is_empty() {
            return false;
        }
        if self.detail.len() >= DETAIL_LINES {
            // Where it failed takes the place of the last line of values, when it is not said
            // yet: four lines of what (`Expected length: 1`, `Received length: 0`, `Received
            // array: []`) are little without where.
            if !text.starts_with("at ") || self.detail.iter().any(|d| says_where(d)) {
                return false;
            }
            self.detail.pop();
        }
        // A line said again (a property test's panic at each shrinking step) says no more;
        // a place said again is where something else happened.
        let cut = cut_middle(text, DETAIL_CHARS);
        if !cut.starts_with("at ") && self.detail.contains(&cut) {
            return false;
        }
        // `panicked at src/a.rs:4:5:` and what it says are one line, when it is short.
        if let Some(last) = self.detail.last_mut()
            && is_place(last)
            && !text.starts_with("at ")
            && last.len() + text.len() < DETAIL_CHARS
        {
            *last = format!("{last} {text}");
            if self.detail.len() == 1 {
                // Read from the line as it is now, when asked.
                self.message_form = None;
            }
            return true;
        }
        if self.message().is_none() && cut != text {
            // Read now, before the cut; a line kept whole is read when asked.
            self.message_form = (!text.starts_with("at ")).then(|| form(text));
        }
        self.detail.push(cut);
        true
    }

    /// Adds a line of detail that must be seen (a property test's failing input): when the
    /// failure has enough, it takes the place of the last line.
    pub(crate) fn add_essential_detail(&mut self, text: &str) {
        if self.detail.len() >= DETAIL_LINES && self.detail.len() > 1 {
            self.detail.pop();
        }
        self.add_detail(text);
    }

    pub(crate) fn has_detail(&self) -> bool {
        !self.detail.is_empty()
    }

    /// The form of its message (see [`form`]). Only the first line: the lines under it vary
    /// with the values (`First differing element 0:` or not) more than with the way of failing.
    pub(crate) fn form(&self) -> Option<String> {
        self.message_form
            .clone()
            .or_else(|| self.message().map(form))
    }

    /// Its first line of detail that says how it failed, not where (`at …`).
    pub(crate) fn message(&self) -> Option<&str> {
        self.detail
            .iter()
            .map(String::as_str)
            .find(|d| !d.starts_with("at "))
    }
}

/// A line of detail that says where a failure happened: `at src/x.js:4:2`, Python's `File
/// "a.py", line 3, in f`, or pytest's `tests/test_a.py:12: AssertionError` (with `, from …`
/// when it was raised outside the tests).
pub(crate) fn says_where(detail: &str) -> bool {
    if detail.starts_with("at ") || detail.starts_with("File \"") {
        return true;
    }
    let Some((place, kind)) = detail.split_once(": ") else {
        return false;
    };
    let kind = kind.split(", from ").next().unwrap_or(kind);
    let located = place.rsplit_once(':').is_some_and(|(path, line)| {
        path.contains('.')
            && !path.contains(' ')
            && !line.is_empty()
            && line.bytes().all(|b| b.is_ascii_digit())
    });
    located && !kind.is_empty() && !kind.contains(' ')
}

/// A line of detail that says only where a failure happened (`panicked at src/a.rs:4:5:`).
pub(crate) fn is_place(detail: &str) -> bool {
    detail
        .strip_prefix("panicked at ")
        .and_then(|rest| rest.strip_suffix(':'))
        .is_some_and(|place| !place.contains(' ') && place.contains(':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_says_where() {
        for d in [
            "at src/x.js:4:2",
            "File \"a.py\", line 3, in f",
            "tests/test_a.py:12: AssertionError",
            "src/pkg/a.py:1277: TypeError, from tests/conftest.py:27",
        ] {
            assert!(says_where(d), "{d}");
        }
        for d in [
            "AssertionError: assert 1 == 2",
            "a.py:3: assert x == y",
            "expected 1",
        ] {
            assert!(!says_where(d), "{d}");
        }
    }

    #[test]
    fn paths_under_the_root_are_written_from_it_on() {
        let root = "/home/dev/proj";
        for (text, want) in [
            (
                "File \"/home/dev/proj/pkg/a.py\", line 3, in f",
                "File \"pkg/a.py\", line 3, in f",
            ),
            ("at /home/dev/proj/src/x.js:4:2", "at src/x.js:4:2"),
            // An ES module's frame names its file by URL.
            (
                "at file:///home/dev/proj/test/a.js:15:12, from (file:///home/dev/proj/b.js:2:1)",
                "at test/a.js:15:12, from (b.js:2:1)",
            ),
            (
                "(/home/dev/proj/a.go:1) and /home/dev/proj/b.go:2",
                "(a.go:1) and b.go:2",
            ),
            // Not under it, not where a path starts, or the root itself: as written.
            ("/home/dev/project/a.py:1", "/home/dev/project/a.py:1"),
            ("/srv/home/dev/proj/a.py", "/srv/home/dev/proj/a.py"),
            ("cd /home/dev/proj/ && make", "cd /home/dev/proj/ && make"),
        ] {
            assert_eq!(relative(text, root), want, "{text}");
            assert_eq!(relative(text, "/home/dev/proj/"), want, "{text}");
        }
        assert_eq!(relative("/a/b.py", "/"), "/a/b.py");
        assert_eq!(relative("/a/b.py", ""), "/a/b.py");
    }

    #[test]
    fn a_value_of_many_lines_is_one_line_of_detail_of_bounded_length() {
        let mut f = Failure::default();
        f.add_detail("# expected: --help");
        f.continue_detail("rake");
        f.continue_detail(" ruby ");
        assert_eq!(f.detail, ["# expected: --help\\nrake\\nruby"]);
        for _ in 0..100 {
            f.continue_detail("another line");
        }
        assert_eq!(f.detail.len(), 1);
        assert!(
            f.detail[0].chars().count() <= DETAIL_CHARS,
            "{}",
            f.detail[0]
        );
    }

    #[test]
    fn runners_lines_are_quoted_only_when_every_name_has_one_and_they_are_few() {
        let mut few = Names::default();
        assert_eq!(few.said_lines(), None);
        for k in 0..NAMES_KEPT {
            few.push_said(&format!("p{k}"), &format!("FAIL\tp{k}\t0.01s"));
        }
        let said = few.said_lines().expect("twelve lines");
        assert_eq!((said.len(), said[11].as_str()), (12, "FAIL\tp11\t0.01s"));
        few.push_said("p12", "FAIL\tp12\t0.01s");
        assert_eq!(few.said_lines(), None);
        let mut mixed = Names::default();
        mixed.push_said("a", "FAIL\ta");
        mixed.push("b");
        assert_eq!(mixed.said_lines(), None);
    }

    #[test]
    fn names_show_all_when_few_else_first_and_last() {
        let mut few = Names::default();
        for n in ["a", "b", "c"] {
            few.push(n);
        }
        assert_eq!(few.render(3), "a, b, c");
        assert_eq!(few.render(5), "a, b, c, … 2 more");
        let mut many = Names::default();
        for i in 1..=12 {
            many.push(&format!("t{i}"));
        }
        assert_eq!(
            many.render(12),
            "t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12"
        );
        many.push("t13");
        assert_eq!(many.render(13), "t1, t2, t3, t4, t5, … 7 more …, t13");
        assert!(many.contains("t13") && many.contains("t12") && !many.contains("t14"));
    }

    #[test]
    fn a_failure_past_the_first_ones_is_kept_when_it_fails_a_new_way() {
        let mut failures = Failures::new("failed tests");
        for i in 1..=60u64 {
            failures.push(i, &format!("t{i}"));
            let detail = match i {
                45 => "TypeError: x is undefined",
                50 => "expected 1 to be 0",
                55 => "expected 'Created' to be '201'",
                _ => "expected '1' to be '0'",
            };
            failures.current().unwrap().add_detail(detail);
            failures
                .current()
                .unwrap()
                .add_detail(&format!("at t.js:{i}"));
        }
        let names: Vec<&str> = failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names.len(), 44, "{names:?}");
        assert_eq!(&names[38..], ["t39", "t40", "t45", "t50", "t55", "t60"]);
        assert_eq!(failures.total, 60);
        assert!(failures.named("t45").is_some());
        // New messages of a form kept before are kept while they are few (t55 and seven
        // more); new forms beyond; t60, the last before, failed as many did.
        for i in 61..=80u64 {
            failures.push(i, &format!("t{i}"));
            let detail = match i {
                70 => "RangeError: too far".to_owned(),
                _ => format!("expected '{i}' to be '0'"),
            };
            failures.current().unwrap().add_detail(&detail);
        }
        let names: Vec<&str> = failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            &names[40..],
            [
                "t45", "t50", "t55", "t61", "t62", "t63", "t64", "t65", "t66", "t67", "t70", "t80"
            ],
        );
    }

    #[test]
    fn counts_keep_the_first_names_and_count_the_rest_as_other() {
        let mut counts = Counts::default();
        for name in [
            "Failed",
            "Timeout",
            "Failed",
            "Exception: SegFault",
            "Timeout",
        ] {
            counts.add(name, 2);
        }
        assert_eq!(
            counts.render(|_| true),
            ["Failed ×2", "Timeout ×2", "other ×1"]
        );
        assert_eq!(counts.render(|n| n != "Failed"), ["Timeout ×2", "other ×1"]);
        assert_eq!(counts.total(), 5);
        let long = "x".repeat(70_000);
        counts.add(&long, 3);
        counts.add(&long, 3);
        assert_eq!(counts.counts[2].1, 2);
        assert!(counts.counts[2].0.chars().count() <= NAME_CHARS + 1);
    }

    #[test]
    fn lists_of_failed_tests_are_told_from_lists_of_errors() {
        for heading in [
            "failed tests",
            "failed tests and errors",
            "failed examples",
            "failing scenarios",
            "failed (sub)tests",
        ] {
            assert!(Failures::new(heading).of_tests(), "{heading}");
        }
        for heading in [
            "errors",
            "first of each other code",
            "suites that failed to run",
            "test files that failed to run",
            "failed tasks",
        ] {
            assert!(!Failures::new(heading).of_tests(), "{heading}");
        }
    }
}
