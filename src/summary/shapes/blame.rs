//! `git blame` in its default form: `5bc805ca pendulum/date.py (Bryan Forbes 2023-06-10
//! 04:23:01 -0500 1) # text`, each line of a file under the commit that last changed it.
//! Facts: lines, commits and authors; the commit that holds the most lines; the newest change
//! (what a reader of a blame looks for first) with its line numbers and first line; the oldest;
//! and lines not committed yet. A blame is content: its words are the file's.

use std::collections::HashMap;

use serde_json::json;

use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Commits told apart; more are not counted.
const COMMITS_CHECKED: usize = 1 << 16;
/// Line numbers of the newest change that are named.
const NEWEST_LINES: usize = 4;
/// Paths told apart (a file's names over its history, or files lines were copied from).
const PATHS: usize = 8;
/// git's all-zero hash of lines not committed yet.
const UNCOMMITTED: &str = "00000000";

#[derive(Debug, Default)]
pub(crate) struct Blame {
    blamed: u64,
    /// Lines that are neither blamed nor empty.
    other: u64,
    uncommitted: u64,
    first_uncommitted: Option<u64>,
    commits: HashMap<String, Commit>,
    overflow: bool,
    newest: Option<Change>,
    oldest: Option<Change>,
    /// The paths lines are blamed on, when git names them, with their lines.
    paths: Vec<(String, u64)>,
    more_paths: bool,
}

#[derive(Debug, Default)]
struct Commit {
    lines: u64,
    author: String,
    date: String,
}

/// A commit with when it was made, its lines and the text of its first.
#[derive(Debug, Default)]
struct Change {
    hash: String,
    author: String,
    /// Date and time, as printed (sortable).
    when: String,
    lines: Vec<u64>,
    count: u64,
    text: String,
}

/// One blamed line: hash, author, date and time, line number, text.
struct Line<'a> {
    hash: &'a str,
    /// The path the line had in its commit, when git names it.
    path: &'a str,
    author: &'a str,
    date: &'a str,
    time: &'a str,
    number: u64,
    text: &'a str,
}

/// The last word of `s`, and what is before it.
fn last(s: &str) -> Option<(&str, &str)> {
    s.trim_end().rsplit_once(' ')
}

/// `^9cf7245 path (Author Name 2016-10-20 23:17:10 -0500 5) text`; the path is there when the
/// file had another name, `^` marks a boundary commit.
fn parse(line: &str) -> Option<Line<'_>> {
    let first = *line.as_bytes().first()?;
    if !(first.is_ascii_hexdigit() || first == b'^') {
        return None;
    }
    let rest = line.strip_prefix('^').unwrap_or(line);
    let (hash, rest) = rest.split_once(' ')?;
    if hash.len() < 7 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let open = rest.find('(')?;
    let (inside, text) = rest[open + 1..].split_once(") ").or_else(|| {
        let inside = rest[open + 1..].strip_suffix(')')?;
        Some((inside, ""))
    })?;
    // From the right: line number, zone, time, date; the author is what is left.
    let (inside, number) = last(inside)?;
    let number = number.parse::<u64>().ok()?;
    let (inside, zone) = last(inside)?;
    let (inside, time) = last(inside)?;
    let (author, date) = last(inside).unwrap_or(("", inside.trim()));
    let author = author.trim();
    let is_zone = zone.len() == 5
        && (zone.starts_with('+') || zone.starts_with('-'))
        && zone[1..].bytes().all(|b| b.is_ascii_digit());
    let is_date = date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-';
    if !is_zone || !is_date || time.len() != 8 {
        return None;
    }
    Some(Line {
        hash,
        path: rest[..open].trim(),
        author,
        date,
        time,
        number,
        text,
    })
}

impl Change {
    fn of(line: &Line) -> Change {
        Change {
            hash: line.hash.to_owned(),
            author: line.author.to_owned(),
            when: format!("{} {}", line.date, line.time),
            lines: vec![line.number],
            count: 1,
            text: cut(line.text.trim(), 100),
        }
    }

    fn add(&mut self, number: u64) {
        self.count += 1;
        if self.lines.len() < NEWEST_LINES {
            self.lines.push(number);
        }
    }

    /// Date and time, to compare with a line's.
    fn at(&self) -> (&str, &str) {
        self.when.split_once(' ').unwrap_or((&self.when, ""))
    }

    fn date(&self) -> &str {
        self.at().0
    }
}

impl Shape for Blame {
    fn line(&mut self, _number: u64, text: &str) {
        let Some(line) = parse(text) else {
            if !text.trim().is_empty() {
                self.other += 1;
            }
            return;
        };
        self.blamed += 1;
        if !line.path.is_empty() {
            let known = self.paths.len();
            match self.paths.iter_mut().find(|(p, _)| p == line.path) {
                Some((_, n)) => *n += 1,
                None if known < PATHS => self.paths.push((line.path.to_owned(), 1)),
                None => self.more_paths = true,
            }
        }
        if line.hash.bytes().all(|b| b == b'0') && line.hash.len() >= UNCOMMITTED.len() {
            self.uncommitted += 1;
            self.first_uncommitted.get_or_insert(line.number);
            return;
        }
        let known = self.commits.len();
        match self.commits.get_mut(line.hash) {
            Some(commit) => commit.lines += 1,
            None if known < COMMITS_CHECKED => {
                let commit = Commit {
                    lines: 1,
                    author: line.author.to_owned(),
                    date: line.date.to_owned(),
                };
                self.commits.insert(line.hash.to_owned(), commit);
            }
            None => self.overflow = true,
        }
        let when = (line.date, line.time);
        match &mut self.newest {
            Some(c) if c.hash == line.hash => c.add(line.number),
            Some(c) if when <= c.at() => {}
            _ => self.newest = Some(Change::of(&line)),
        }
        match &mut self.oldest {
            Some(c) if c.hash == line.hash => c.add(line.number),
            Some(c) if when >= c.at() => {}
            _ => self.oldest = Some(Change::of(&line)),
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        // A blame is all blamed lines; a few others (a warning) may stand among many.
        if self.blamed < 3 || self.other * 10 > self.blamed {
            return None;
        }
        let mut head = format!("git blame: {}", plural(self.blamed, "line", "lines"));
        if !self.overflow {
            let authors = {
                let mut names: Vec<&str> =
                    self.commits.values().map(|c| c.author.as_str()).collect();
                names.sort_unstable();
                names.dedup();
                names.len() as u64
            };
            head.push_str(&format!(
                " from {} by {}",
                plural(self.commits.len() as u64, "commit", "commits"),
                plural(authors, "author", "authors")
            ));
        }
        let mut lines = vec![head];
        if self.paths.len() > 1 {
            let mut paths = self.paths.clone();
            paths.sort_by_key(|p| std::cmp::Reverse(p.1));
            let named: Vec<String> = paths
                .iter()
                .map(|(p, n)| format!("{p} ({})", thousands(*n)))
                .collect();
            let more = if self.more_paths { ", …" } else { "" };
            lines.push(format!(
                "lines by their path then: {}{more}",
                named.join(", ")
            ));
        }
        if let Some(first) = self.first_uncommitted {
            lines.push(format!(
                "not committed yet: {} (the first is line {})",
                plural(self.uncommitted, "line", "lines"),
                thousands(first)
            ));
        }
        let most = self
            .commits
            .iter()
            .max_by(|a, b| a.1.lines.cmp(&b.1.lines).then(b.0.cmp(a.0)));
        if let Some((hash, c)) = most {
            let oldest = match &self.oldest {
                Some(o) if o.hash == *hash => ", the oldest".to_owned(),
                Some(o) => format!("; oldest: {} {} {}", o.hash, o.author, o.date()),
                None => String::new(),
            };
            lines[0].push_str(&format!(
                "; most lines: {hash} {} {} ({}){oldest}",
                c.author,
                c.date,
                thousands(c.lines)
            ));
        }
        if let Some(c) = &self.newest {
            let mut numbers: Vec<String> = c.lines.iter().map(|n| thousands(*n)).collect();
            if c.count > c.lines.len() as u64 {
                numbers.push(format!("… {} in all", thousands(c.count)));
            }
            let mut line = format!(
                "newest: {} {} {}, {} {}",
                c.hash,
                c.author,
                c.date(),
                if c.count == 1 { "line" } else { "lines" },
                numbers.join(", ")
            );
            if !c.text.is_empty() {
                line.push_str(&format!(": {}", c.text));
            }
            lines.push(line);
        }
        let change = |c: &Change| json!({"hash": c.hash, "author": c.author, "date": c.when, "lines": c.count});
        let json = json!({
            "shape": "git blame",
            "lines": self.blamed,
            "commits": (!self.overflow).then_some(self.commits.len()),
            "uncommitted": self.uncommitted,
            "newest": self.newest.as_ref().map(change),
            "oldest": self.oldest.as_ref().map(change),
        });
        let hint = self.newest.as_ref().map(|c| format!("'^{}'", c.hash));
        let fact = Fact::new("git blame", lines, json).content();
        Some(match hint {
            Some(hint) => fact.hint(&hint),
            None => fact,
        })
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        let change = |c: &Option<Change>| {
            c.as_ref().map_or(0, |c| {
                c.hash.capacity()
                    + c.author.capacity()
                    + c.when.capacity()
                    + c.text.capacity()
                    + c.lines.capacity() * 8
            })
        };
        let commits: usize = self
            .commits
            .iter()
            .map(|(h, c)| h.capacity() + c.author.capacity() + c.date.capacity() + 64)
            .sum();
        let paths: usize = self.paths.iter().map(|(p, _)| p.capacity() + 32).sum();
        commits + paths + change(&self.newest) + change(&self.oldest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blamed_line_is_read_in_its_forms() {
        let l = parse(
            "5bc805ca pendulum/date.py     (Bryan Forbes       2023-06-10 04:23:01 -0500   1) # x",
        )
        .unwrap();
        assert_eq!(
            (l.hash, l.author, l.date, l.number, l.text),
            ("5bc805ca", "Bryan Forbes", "2023-06-10", 1, "# x")
        );
        let boundary =
            parse("^9cf7245 (Sébastien Eustace 2016-10-20 23:17:10 -0500 760) ").unwrap();
        assert_eq!((boundary.hash, boundary.number), ("9cf7245", 760));
        let empty = parse("9cf72454 (A B 2016-10-20 23:17:10 -0500 7)").unwrap();
        assert_eq!(empty.text, "");
        assert!(parse("deadbeef is not a blame line").is_none());
        assert!(parse("cafe1234 (note 12) text").is_none());
    }

    #[test]
    fn lines_not_committed_yet_are_counted_apart() {
        let mut blame = Box::<Blame>::default();
        let lines = [
            "^1a2b3c4 (Ann Example 2020-01-02 03:04:05 +0000 1) fn main() {",
            "00000000 (Not Committed Yet 2026-12-07 10:00:00 +0000 2)     let x = 1;",
            "5e6f7a8b (Bo Example 2021-05-06 07:08:09 +0100 3)     run();",
            "00000000 (Not Committed Yet 2026-12-07 10:00:00 +0000 4)     x",
            "^1a2b3c4 (Ann Example 2020-01-02 03:04:05 +0000 5) }",
        ];
        for (i, line) in lines.iter().enumerate() {
            blame.line(i as u64 + 1, line);
        }
        let fact = blame.finish().unwrap();
        assert_eq!(
            fact.lines,
            [
                "git blame: 5 lines from 2 commits by 2 authors; most lines: 1a2b3c4 Ann \
                 Example 2020-01-02 (2), the oldest",
                "not committed yet: 2 lines (the first is line 2)",
                "newest: 5e6f7a8b Bo Example 2021-05-06, line 3: run();",
            ]
        );
    }
}
