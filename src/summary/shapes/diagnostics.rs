//! Compiler and linter diagnostics, counted by the rustc, gcc/clang, tsc, mypy, ruff, eslint and
//! go vet summarisers: errors, warnings and notes, codes and files, and the diagnostics to read
//! first: the first error (in a compiler's cascade, the cause), the first error of each other
//! code, more errors at other places, then the first warning of each code. Other codes come
//! rarest first: a diagnostic printed a hundred times is a habit of the code base or one missing
//! dependency (`Cannot find name 'process'` ×17); one printed once is news. Every list is
//! bounded.

use serde_json::json;

use super::names::{Failure, Failures, Names, form};
use crate::format::{cut_middle, plural, thousands};

/// A diagnostic's level, the most severe first (the least is the greatest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Level {
    Error,
    Warning,
    Note,
}

/// Distinct keys counted, at most `TALLY_KEYS`; a key first seen after that is not counted and
/// the tally is then not shown (its counts would be incomplete).
#[derive(Debug, Default)]
pub(crate) struct Tally {
    counts: Vec<(String, u64)>,
    overflow: bool,
}

const TALLY_KEYS: usize = 64;
const TALLY_SHOWN: usize = 5;

impl Tally {
    pub(crate) fn add(&mut self, key: &str) {
        self.add_count(key, 1);
    }

    /// `count` more of `key` (a tool's own tally: `8 violations of X.`).
    pub(crate) fn add_count(&mut self, key: &str, count: u64) {
        if let Some((_, n)) = self.counts.iter_mut().rev().find(|(k, _)| k == key) {
            *n += count;
        } else if self.counts.len() < TALLY_KEYS {
            self.counts.push((key.to_owned(), count));
        } else {
            self.overflow = true;
        }
    }

    /// Each key with its count, in the order first seen.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&str, u64)> {
        self.counts.iter().map(|(k, n)| (k.as_str(), *n))
    }

    /// The number of distinct keys, when complete.
    pub(crate) fn distinct(&self) -> Option<usize> {
        (!self.overflow).then_some(self.counts.len())
    }

    /// `a ×3, b ×2 +4 more`, most frequent first (ties: first seen first); `None` when
    /// incomplete or empty.
    pub(crate) fn render(&self) -> Option<String> {
        if self.overflow || self.counts.is_empty() {
            return None;
        }
        let mut sorted: Vec<&(String, u64)> = self.counts.iter().collect();
        sorted.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
        let out: Vec<String> = sorted
            .iter()
            .take(TALLY_SHOWN)
            .map(|(k, n)| format!("{k} ×{}", thousands(*n)))
            .collect();
        let mut out = out.join(", ");
        if sorted.len() > TALLY_SHOWN {
            out.push_str(&format!(" +{} more", sorted.len() - TALLY_SHOWN));
        }
        Some(out)
    }

    pub(crate) fn json(&self) -> serde_json::Value {
        if self.overflow {
            return serde_json::Value::Null;
        }
        self.counts
            .iter()
            .map(|(k, n)| (k.clone(), json!(n)))
            .collect::<serde_json::Map<_, _>>()
            .into()
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.counts.capacity() * std::mem::size_of::<(String, u64)>()
            + self.counts.iter().map(|(k, _)| k.capacity()).sum::<usize>()
    }
}

const MESSAGE_CHARS: usize = 200;
/// Distinct (level, code) pairs whose first diagnostic is kept.
const FIRSTS_KEPT: usize = 64;
/// Errors of a kind seen before, at other places, listed after the first of each kind.
const MORE_ERRORS: usize = 6;
/// Candidates for those kept while reading, in all and of one kind (the first ones, replaced
/// by ones that tell more: `'utils' is not defined` after `'option' is not defined`).
const MORE_KEPT: usize = 64;
const MORE_PER_KIND: usize = MORE_ERRORS;
/// A list shorter than this has room for warnings of a kind at other places.
const LISTED_WITH_ROOM: usize = 6;

/// The first diagnostic of one level and code, and how often that pair occurred. An error
/// without a code is of the kind its message's form says (`‘x’ undeclared here` is not `‘s’ has
/// no member named ‘y’`), so that a compiler's one other error is not lost behind thirty of the
/// first.
#[derive(Debug)]
struct First {
    level: Level,
    code: String,
    form: Option<String>,
    /// Its message (its header without its place), its place and its file.
    message: String,
    location: Option<String>,
    file: Option<String>,
    count: u64,
    failure: Failure,
}

/// A diagnostic of a kind seen before, at another place: of `firsts[kind]`, and how much it
/// tells that the first does not: a message of its own (not the first's word for word), a
/// file of its own.
#[derive(Debug)]
struct More {
    kind: usize,
    news: u8,
    message: String,
    failure: Failure,
}

#[derive(Debug, Default)]
pub(crate) struct Diagnostics {
    pub(crate) errors: u64,
    pub(crate) warnings: u64,
    pub(crate) notes: u64,
    first_error: Option<String>,
    first_warning: Option<String>,
    error_locations: Names,
    pub(crate) codes: Tally,
    pub(crate) files: Tally,
    firsts: Vec<First>,
    /// Errors and warnings past the first of their kind.
    more: Vec<More>,
    /// The diagnostic added last, when it was kept: its index in `firsts`, or in `more`
    /// past `firsts`'s length.
    last_kept: Option<usize>,
    /// Only the first of each code is kept (a linter's repeats say nothing new).
    firsts_only: bool,
    /// A warning with a code is of its code's kind whatever its message (a report's rules).
    rules: bool,
}

impl Diagnostics {
    /// Diagnostics whose warnings are of their code's kind whatever their message (a
    /// report's rules), errors of a kind at other places kept too.
    pub(crate) fn of_rules() -> Diagnostics {
        Diagnostics {
            rules: true,
            ..Diagnostics::default()
        }
    }

    /// From now on, a linter's diagnostics: each of its rule's kind (see
    /// [`Diagnostics::of_rules`]), its notes of a rule findings of their own.
    pub(crate) fn as_rules(&mut self) {
        self.rules = true;
    }

    /// Diagnostics that keep only the first of each code.
    pub(crate) fn firsts_only() -> Diagnostics {
        Diagnostics {
            firsts_only: true,
            ..Diagnostics::default()
        }
    }

    /// [`Diagnostics::firsts_only`], a warning's kind its code too (one of each rule).
    pub(crate) fn firsts_of_rules() -> Diagnostics {
        Diagnostics {
            rules: true,
            ..Diagnostics::firsts_only()
        }
    }

    /// One diagnostic reported at output line `line`: `header` is its message as printed,
    /// `location` `file:line:col` if any, `code` its code or rule if any (errors' codes are
    /// tallied).
    pub(crate) fn add(
        &mut self,
        line: u64,
        level: Level,
        location: Option<&str>,
        header: &str,
        code: Option<&str>,
    ) {
        self.add_said(line, level, location, header, None, code);
    }

    /// [`Diagnostics::add`] of a diagnostic whose `header`, as printed, names its place in a
    /// form of its own (a JSON report's `"line":35,"column":14` under its file): `location`
    /// tells places apart and is not added to it; `message` tells messages apart.
    pub(crate) fn add_placed(
        &mut self,
        line: u64,
        level: Level,
        location: &str,
        header: &str,
        message: &str,
        code: Option<&str>,
    ) {
        self.add_said(line, level, Some(location), header, Some(message), code);
    }

    /// [`Diagnostics::add`], or [`Diagnostics::add_placed`] when `message` is given.
    fn add_said(
        &mut self,
        line: u64,
        level: Level,
        location: Option<&str>,
        header: &str,
        message: Option<&str>,
        code: Option<&str>,
    ) {
        let placed = message.is_some();
        // A report's header that starts with its place (`a.py:3:1: error F821 …`) says its
        // message after it: its rule's repeats elsewhere in its file say nothing new.
        let message = message.unwrap_or_else(|| {
            location
                .filter(|_| self.rules)
                .and_then(|loc| header.strip_prefix(loc))
                .unwrap_or(header)
        });
        // Cut in the middle: the end of a long message names the other type or value.
        let described = match location {
            Some(loc) if !placed && !names_place(header, loc) => {
                cut_middle(&format!("{loc}: {header}"), MESSAGE_CHARS)
            }
            _ => cut_middle(header, MESSAGE_CHARS),
        };
        match level {
            Level::Error => {
                self.errors += 1;
                if self.first_error.is_none() {
                    self.first_error = Some(described.clone());
                }
                if let Some(loc) = location
                    && !self.error_locations.contains(loc)
                {
                    self.error_locations.push(loc);
                }
                if let Some(code) = code {
                    self.codes.add(code);
                }
            }
            Level::Warning => {
                self.warnings += 1;
                if self.first_warning.is_none() {
                    self.first_warning = Some(described.clone());
                }
            }
            Level::Note => {
                self.notes += 1;
                // A compiler's note says more of a diagnostic before it; a linter's note of a
                // rule (ShellCheck's style findings) is a finding of its own.
                if !(self.rules && code.is_some()) {
                    return;
                }
            }
        }
        self.last_kept = None;
        let by_form = code.is_none() || (level == Level::Warning && !self.rules);
        let form = by_form.then(|| form(header));
        let code = code.unwrap_or("");
        if let Some(kind) = self
            .firsts
            .iter()
            .position(|f| f.level == level && f.code == code && f.form == form)
        {
            let first = &mut self.firsts[kind];
            first.count += 1;
            let elsewhere = location.is_some_and(|loc| first.location.as_deref() != Some(loc));
            if self.firsts_only || !elsewhere || level == Level::Note {
                return;
            }
            let message = cut_middle(message, MESSAGE_CHARS);
            let own_message = first.message != message;
            let own_file = first.file.as_deref() != location.map(file_of);
            let news = u8::from(own_message) + u8::from(own_file);
            if level == Level::Error {
                // A rule's repeat, word for word in the same file, says nothing new.
                if news > 0 || !self.rules {
                    self.keep_more(kind, news, message, failure(line, &described));
                }
            } else if !self.rules {
                // A warning at another place is listed when the list has room, and only with
                // words of its own (`unresolved link to `Unparker::unpark``; not `region of
                // size 87` after `size 82`, nor a linter's `12:5 warning …` after `3:1 …`).
                let own = without_numbers(&message);
                let said = |m: &str| without_numbers(m) == own;
                if !said(&first.message)
                    && !self.more.iter().any(|m| m.kind == kind && said(&m.message))
                {
                    self.keep_more(kind, news, message, failure(line, &described));
                }
            }
        } else {
            let first = First {
                level,
                code: code.to_owned(),
                form,
                message: cut_middle(message, MESSAGE_CHARS),
                location: location.map(str::to_owned),
                file: location.map(|l| file_of(l).to_owned()),
                count: 1,
                // A rule's findings are of its form, whatever their words: another rule's
                // is another way of failing (`UnusedPrivateMethod` after `UnusedPrivateField`).
                failure: Failure {
                    message_form: (self.rules && !code.is_empty()).then(|| code.to_owned()),
                    ..failure(line, &described)
                },
            };
            if self.firsts.len() < FIRSTS_KEPT {
                self.last_kept = Some(self.firsts.len());
                self.firsts.push(first);
            } else if let Some(slot) = self.less_severe_than(level) {
                // A warning's first after sixty-four kinds of conventions is read before
                // them: it takes the place of the last of the least severe (no error of a
                // kind kept refers to it).
                self.last_kept = Some(slot);
                self.firsts[slot] = first;
            }
        }
    }

    /// The last kept first of the least severe level kept, when that is less severe than
    /// `level`.
    fn less_severe_than(&self, level: Level) -> Option<usize> {
        let least = self.firsts.iter().map(|f| f.level).max()?;
        if least <= level {
            return None;
        }
        self.firsts.iter().rposition(|f| f.level == least)
    }

    /// A diagnostic of kind `kind` at another place, kept while its kind has fewer than
    /// `MORE_PER_KIND` and its level fewer than `MORE_KEPT`, or in place of one that tells less.
    fn keep_more(&mut self, kind: usize, news: u8, message: String, failure: Failure) {
        let level = self.firsts[kind].level;
        let more = More {
            kind,
            news,
            message,
            failure,
        };
        let of_kind = self.more.iter().filter(|m| m.kind == kind).count();
        let of_level = (self.more.iter())
            .filter(|m| self.firsts[m.kind].level == level)
            .count();
        let slot = if of_kind < MORE_PER_KIND && of_level < MORE_KEPT {
            self.more.push(more);
            self.more.len() - 1
        } else if let Some(i) = self
            .more
            .iter()
            .position(|m| m.kind == kind && m.news < news)
        {
            self.more[i] = more;
            i
        } else {
            return;
        };
        self.last_kept = Some(FIRSTS_KEPT + slot);
    }

    /// A line of detail under the diagnostic added last (javac's `symbol: class X`), if that
    /// one is shown.
    pub(crate) fn add_detail(&mut self, text: &str) {
        let failure = match self.last_kept {
            Some(i) if i < FIRSTS_KEPT => self.firsts.get_mut(i).map(|f| &mut f.failure),
            Some(i) => self.more.get_mut(i - FIRSTS_KEPT).map(|m| &mut m.failure),
            None => None,
        };
        if let Some(failure) = failure {
            failure.add_detail(text);
        }
    }

    /// The diagnostics to read first (see the module documentation): after the first error,
    /// the others by the `rank` of their code (lowest first: a tool may put what breaks at run
    /// time first, its optional checks and complaints about the environment last), the
    /// rarest first within a rank; then the warnings, the rarest first.
    pub(crate) fn failures(&self, rank: impl Fn(&str) -> u8) -> Failures {
        self.failures_of(rank, |_| true)
    }

    /// [`Diagnostics::failures`] with the warnings by `rank` too: a linter whose every
    /// finding is a warning, the worst and the most trivial alike.
    pub(crate) fn failures_warnings_ranked(&self, rank: impl Fn(&str) -> u8) -> Failures {
        self.listing(rank, |_| true, true)
    }

    /// [`Diagnostics::failures`] of the codes `listed` accepts.
    pub(crate) fn failures_of(
        &self,
        rank: impl Fn(&str) -> u8,
        listed: impl Fn(&str) -> bool,
    ) -> Failures {
        self.listing(rank, listed, false)
    }

    /// The list of [`Diagnostics::failures_of`], the warnings ranked too when
    /// `warnings_ranked`.
    fn listing(
        &self,
        rank: impl Fn(&str) -> u8,
        listed: impl Fn(&str) -> bool,
        warnings_ranked: bool,
    ) -> Failures {
        let mut out = Failures::new("first of each kind");
        let mut errors: Vec<&First> = self
            .firsts
            .iter()
            .filter(|f| f.level == Level::Error && listed(&f.code))
            .collect();
        if let Some((first, rest)) = errors.split_first_mut() {
            rest.sort_by_key(|f| (rank(&f.code), f.count));
            for f in std::iter::once(&**first).chain(rest.iter().copied()) {
                out.push_failure(f.failure.clone());
            }
        }
        // Then errors of those kinds at other places: those that tell more first (a message,
        // a file of their own), of the rarer kinds first, as many as `MORE_ERRORS`.
        for m in self.more_of(Level::Error, &listed).take(MORE_ERRORS) {
            out.push_failure(m.failure.clone());
        }
        // Then the warnings, then a linter's notes of a rule: each the rarest first.
        for level in [Level::Warning, Level::Note] {
            let mut firsts: Vec<&First> = self
                .firsts
                .iter()
                .filter(|f| f.level == level && listed(&f.code))
                .collect();
            firsts.sort_by_key(|f| {
                let rank = if warnings_ranked { rank(&f.code) } else { 0 };
                (rank, f.count, f.failure.line)
            });
            for f in firsts {
                out.push_failure(f.failure.clone());
            }
        }
        // A short list has room for warnings of those kinds with messages of their own
        // (rustdoc's broken links: `ShardedLock`, then `Unparker::unpark`).
        let room =
            LISTED_WITH_ROOM.saturating_sub(usize::try_from(out.total).unwrap_or(usize::MAX));
        for m in self.more_of(Level::Warning, &listed).take(room) {
            out.push_failure(m.failure.clone());
        }
        out
    }

    /// The diagnostics of `level` past the first of their kind, of the kinds `listed`
    /// accepts: those that tell more first, of the rarer kinds first.
    fn more_of(&self, level: Level, listed: &impl Fn(&str) -> bool) -> impl Iterator<Item = &More> {
        let mut more: Vec<&More> = (self.more.iter())
            .filter(|m| {
                let first = &self.firsts[m.kind];
                first.level == level && listed(&first.code)
            })
            .collect();
        more.sort_by_key(|m| {
            (
                std::cmp::Reverse(m.news),
                self.firsts[m.kind].count,
                m.failure.line,
            )
        });
        more.into_iter()
    }

    /// A linter's own count: `3 errors, 2 warnings in 4 files; error rules: no-undef ×2, …`
    /// (the files when their count is complete, the errors' codes under `codes_label`).
    pub(crate) fn counted(&self, codes_label: &str) -> String {
        let mut line = format!(
            "{}, {}",
            plural(self.errors, "error", "errors"),
            plural(self.warnings, "warning", "warnings")
        );
        if let Some(files) = self.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(codes) = self.codes.render() {
            line.push_str(&format!("; {codes_label}: {codes}"));
        }
        line
    }

    /// `tool: 3 errors, 2 warnings; codes: …; files: …`, and the JSON of the counts.
    pub(crate) fn summary(&self, tool: &str, files_label: &str) -> String {
        let mut counts = vec![
            plural(self.errors, "error", "errors"),
            plural(self.warnings, "warning", "warnings"),
        ];
        if self.notes > 0 {
            counts.push(plural(self.notes, "note", "notes"));
        }
        let mut first = format!("{tool}: {}", counts.join(", "));
        if let Some(codes) = self.codes.render() {
            first.push_str(&format!("; codes: {codes}"));
        }
        if let Some(files) = self.files.render() {
            first.push_str(&format!("; {files_label}: {files}"));
        }
        first
    }

    pub(crate) fn json(&self, shape: &str) -> serde_json::Value {
        json!({
            "shape": shape,
            "errors": self.errors,
            "warnings": self.warnings,
            "notes": self.notes,
            "first_error": self.first_error,
            "first_warning": self.first_warning,
            "error_locations": self.error_locations.json(),
            "codes": self.codes.json(),
            "files": self.files.json(),
        })
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        let failure = |f: &Failure| {
            64 + f.name.capacity() + f.detail.iter().map(String::capacity).sum::<usize>()
        };
        self.first_error.as_ref().map_or(0, String::capacity)
            + self.first_warning.as_ref().map_or(0, String::capacity)
            + self.error_locations.approx_heap()
            + self.codes.approx_heap()
            + self.files.approx_heap()
            + self
                .firsts
                .iter()
                .map(|f| {
                    f.code.capacity()
                        + f.form.as_ref().map_or(0, String::capacity)
                        + f.message.capacity()
                        + f.location.as_ref().map_or(0, String::capacity)
                        + f.file.as_ref().map_or(0, String::capacity)
                        + failure(&f.failure)
                        + 32
                })
                .sum::<usize>()
            + self
                .more
                .iter()
                .map(|m| 16 + m.message.capacity() + failure(&m.failure))
                .sum::<usize>()
    }
}

/// A message's words, without its numbers (`region of size 87` reads as `region of size 82`).
pub(crate) fn without_numbers(message: &str) -> String {
    message.chars().filter(|c| !c.is_ascii_digit()).collect()
}

/// The file of a location: `src/a.rs:3:5` → `src/a.rs`.
pub(crate) fn file_of(location: &str) -> &str {
    location.split(':').next().unwrap_or(location)
}

/// The location `path:line` or `path:line:col` that starts `text`, for a path without spaces
/// that `is_path` accepts, and the text after the location's last colon.
pub(crate) fn location(text: &str, is_path: impl Fn(&str) -> bool) -> Option<(&str, &str)> {
    let (path, mut rest) = text.split_once(':')?;
    if path.is_empty() || path.contains(' ') || !is_path(path) {
        return None;
    }
    let mut end = path.len();
    for _ in 0..2 {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || !rest[digits..].starts_with(':') {
            break;
        }
        end += 1 + digits;
        rest = &rest[digits + 1..];
    }
    (end > path.len()).then(|| (&text[..end], rest))
}

/// Whether a word is a place and nothing more: `path:line` or `path:line:col`.
pub(crate) fn is_place_word(word: &str) -> bool {
    let Some((path, numbers)) = word.split_once(':') else {
        return false;
    };
    let number = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let numbered = match numbers.split_once(':') {
        Some((line, col)) => number(line) && number(col),
        None => number(numbers),
    };
    numbered && !path.is_empty() && !path.contains(char::is_whitespace)
}

/// Whether a diagnostic as described names the place `loc`: it starts with it (`a.rs:4:5: …`,
/// `a.js:4:5 rule …`), after a word (Cython's `warning: a.pyx:4:5: …`), or ends with it in
/// brackets (oxlint's `! rule: message [a.js:4:5]`).
fn names_place(described: &str, loc: &str) -> bool {
    described.starts_with(loc)
        || described
            .split_once(": ")
            .is_some_and(|(word, rest)| !word.contains(' ') && rest.starts_with(loc))
        || described
            .strip_suffix(']')
            .and_then(|d| d.strip_suffix(loc))
            .is_some_and(|d| d.ends_with('['))
        // PHP's `… in src/a.php on line 59`.
        || loc.rsplit_once(':').is_some_and(|(file, line)| {
            described
                .strip_suffix(line)
                .and_then(|d| d.strip_suffix(" on line "))
                .is_some_and(|d| d.ends_with(file))
        })
}

fn failure(line: u64, described: &str) -> Failure {
    Failure {
        line,
        name: String::new(),
        detail: vec![described.to_owned()],
        ..Failure::default()
    }
}
