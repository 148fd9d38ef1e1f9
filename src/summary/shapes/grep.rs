//! grep / ripgrep results: `path:line:text` matches (with `-C`'s `path-line-text` context lines
//! and `--` separators), or ripgrep's `--heading` groups (a path line, then `line:text` lines, a
//! blank line between files). Recognised only when every line fits one of these shapes (or is a
//! `grep:`/`rg:` message such as `binary file matches`), so other output is never miscounted.
//!
//! Files are counted as runs of consecutive lines of one path (grep and ripgrep print each file's
//! results together); if a path comes back after another, or too many files were seen to check,
//! the file counts are left out and only matches are stated.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use serde_json::json;

use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

#[derive(Debug, Default)]
pub(crate) struct Grep {
    prefixed: Prefixed,
    heading: Heading,
}

impl Shape for Grep {
    fn line(&mut self, _number: u64, text: &str) {
        if self.prefixed.plausible {
            self.prefixed.line(text);
        }
        if self.heading.plausible {
            self.heading.line(text);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let p = self.prefixed;
        if p.plausible && p.matches > 0 {
            return Some(fact(
                "path:line",
                p.matches,
                p.context,
                p.separators,
                p.binary,
                p.files,
            ));
        }
        let mut h = self.heading;
        h.end_group();
        if h.plausible && h.matches > 0 {
            return Some(fact(
                "heading",
                h.matches,
                h.context,
                h.separators,
                0,
                h.files,
            ));
        }
        None
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.prefixed.files.approx_heap() + self.heading.files.approx_heap()
    }
}

fn fact(
    layout: &str,
    matches: u64,
    context: u64,
    separators: u64,
    binary: u64,
    files: Files,
) -> Fact {
    let (count, top) = files.finish();
    let mut line = format!("grep: {} matching lines", thousands(matches));
    if let Some(n) = count {
        line.push_str(&format!(" in {}", plural(n, "file", "files")));
    }
    if context > 0 {
        line.push_str(&format!(" (+{} context lines)", thousands(context)));
    }
    if let Some(top) = &top
        && count.is_some_and(|n| n > 1)
    {
        let shown: Vec<String> = top
            .iter()
            .map(|(p, n)| format!("{} {}", cut(p, 80), thousands(*n)))
            .collect();
        line.push_str(&format!("; most: {}", shown.join(", ")));
    }
    if binary > 0 {
        line.push_str(&format!(
            "; {} matched (not shown)",
            plural(binary, "binary file", "binary files")
        ));
    }
    let json = json!({
        "shape": "grep",
        "layout": layout,
        "matches": matches,
        "files": count,
        "context_lines": context,
        "separators": separators,
        "binary_files": binary,
        "top_files": top.map(|t| t.into_iter().map(|(p, n)| json!({"path": p, "matches": n})).collect::<Vec<_>>()),
    });
    Fact::new("grep", vec![line], json).content().yields()
}

/// `path:line:text` / `path-line-text` / `--` output.
#[derive(Debug)]
struct Prefixed {
    plausible: bool,
    matches: u64,
    context: u64,
    separators: u64,
    binary: u64,
    files: Files,
}

impl Default for Prefixed {
    fn default() -> Prefixed {
        Prefixed {
            plausible: true,
            matches: 0,
            context: 0,
            separators: 0,
            binary: 0,
            files: Files::default(),
        }
    }
}

impl Prefixed {
    fn line(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if text == "--" {
            self.separators += 1;
            return;
        }
        if text.starts_with("grep: ")
            || text.starts_with("rg: ")
            || text.starts_with("Binary file ")
        {
            if text.ends_with(": binary file matches")
                || text.ends_with(" matches") && text.starts_with("Binary file ")
            {
                self.binary += 1;
            }
            return;
        }
        let current = self.files.current();
        let known = text
            .strip_prefix(current)
            .filter(|_| !current.is_empty())
            .and_then(|rest| line_number_then(rest.as_bytes()))
            .map(|sep| (current.len(), sep));
        match known.or_else(|| find_separator(text.as_bytes())) {
            Some((path_len, b':')) => {
                self.matches += 1;
                self.files.add(&text[..path_len]);
            }
            Some(_) => self.context += 1,
            None => self.plausible = false,
        }
    }
}

/// `:123:…` or `-123-…` at the start of `rest`: the separator.
fn line_number_then(rest: &[u8]) -> Option<u8> {
    let sep = *rest.first()?;
    if sep != b':' && sep != b'-' {
        return None;
    }
    let digits = rest[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    (digits > 0 && rest.get(1 + digits) == Some(&sep)).then_some(sep)
}

/// The earliest `:123:` or `-123-` after a non-empty path: (path length, separator). Not a
/// clock's `23:06:50` (a log's `Dec 07 23:06:50 unbound[…]`, `2026-12-07T23:06:50`): its
/// hour is no path's end.
fn find_separator(text: &[u8]) -> Option<(usize, u8)> {
    memchr::memchr2_iter(b':', b'-', text)
        .filter(|&i| i > 0 && !(text[i] == b':' && ends_with_hour(&text[..i])))
        .find_map(|i| line_number_then(&text[i..]).map(|sep| (i, sep)))
}

/// Whether `before` ends with a clock's hour: one or two digits after the start, a blank, a
/// `T` or a `[`.
fn ends_with_hour(before: &[u8]) -> bool {
    let digits = before
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let start = before.len() - digits;
    (1..=2).contains(&digits)
        && (start == 0 || matches!(before[start - 1], b' ' | b'\t' | b'T' | b'['))
}

/// ripgrep's `--heading` output.
#[derive(Debug)]
struct Heading {
    plausible: bool,
    in_group: bool,
    group_matches: u64,
    matches: u64,
    context: u64,
    separators: u64,
    files: Files,
}

impl Default for Heading {
    fn default() -> Heading {
        Heading {
            plausible: true,
            in_group: false,
            group_matches: 0,
            matches: 0,
            context: 0,
            separators: 0,
            files: Files::default(),
        }
    }
}

impl Heading {
    fn line(&mut self, text: &str) {
        if text.is_empty() {
            self.end_group();
            return;
        }
        let numbered = numbered_line(text.as_bytes());
        if !self.in_group {
            // A heading: a path, not itself a numbered line.
            if numbered.is_some() || text == "--" {
                self.plausible = false;
                return;
            }
            self.in_group = true;
            self.group_matches = 0;
            self.files.start(text);
            return;
        }
        match numbered {
            Some(b':') => {
                self.matches += 1;
                self.group_matches += 1;
                self.files.count_current();
            }
            Some(_) => self.context += 1,
            None if text == "--" => self.separators += 1,
            None => self.plausible = false,
        }
    }

    fn end_group(&mut self) {
        if self.in_group && self.group_matches == 0 {
            self.plausible = false;
        }
        self.in_group = false;
    }
}

/// A heading-mode body line, `123:text` (match) or `123-text` (context): the separator.
fn numbered_line(text: &[u8]) -> Option<u8> {
    let digits = text.iter().take_while(|b| b.is_ascii_digit()).count();
    let sep = *text.get(digits)?;
    (digits > 0 && (sep == b':' || sep == b'-')).then_some(sep)
}

/// Per-file match counts, as runs of consecutive lines of one path.
#[derive(Debug, Default)]
struct Files {
    current: String,
    current_count: u64,
    runs: u64,
    seen: HashSet<u64>,
    hasher: RandomState,
    /// A path came back after another, or there were too many to check: counts unknown.
    unsure: bool,
    top: Vec<(String, u64)>,
}

/// Paths remembered to check that each file's results come together.
const PATHS_CHECKED: usize = 1 << 16;
const TOP_FILES: usize = 3;

impl Files {
    fn current(&self) -> &str {
        if self.runs == 0 { "" } else { &self.current }
    }

    /// A match in `path`.
    fn add(&mut self, path: &str) {
        if self.runs == 0 || path != self.current {
            self.start(path);
        }
        self.count_current();
    }

    fn count_current(&mut self) {
        self.current_count += 1;
    }

    /// The results of `path` begin.
    fn start(&mut self, path: &str) {
        self.close();
        self.runs += 1;
        self.current.clear();
        self.current.push_str(path);
        if self.seen.len() >= PATHS_CHECKED || !self.seen.insert(self.hasher.hash_one(path)) {
            self.unsure = true;
        }
    }

    fn close(&mut self) {
        if self.runs == 0 || self.current_count == 0 {
            return;
        }
        let n = self.current_count;
        self.current_count = 0;
        // Ties in path order, so the list does not depend on the order files were searched in.
        let at = self
            .top
            .iter()
            .position(|(p, m)| *m < n || (*m == n && self.current < *p))
            .unwrap_or(self.top.len());
        if at < TOP_FILES {
            self.top.insert(at, (self.current.clone(), n));
            self.top.truncate(TOP_FILES);
        }
    }

    fn finish(mut self) -> (Option<u64>, Option<Vec<(String, u64)>>) {
        self.close();
        if self.unsure {
            (None, None)
        } else {
            (Some(self.runs), Some(self.top))
        }
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.current.capacity()
            + self.seen.capacity() * 9
            + self
                .top
                .iter()
                .map(|(p, _)| p.capacity() + 32)
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clocks_time_is_no_path_and_line() {
        assert_eq!(find_separator(b"src/a.rs:12:fn main"), Some((8, b':')));
        assert_eq!(find_separator(b"file2:10:30 apples"), Some((5, b':')));
        for log in [
            "Dec 07 23:06:50 unbound[27553:0] info: start of service",
            "started at 7:06:50 by cron",
            "[23:06:50] started",
            "23:06:50 started",
        ] {
            assert_eq!(find_separator(log.as_bytes()), None, "{log}");
        }
    }
}
