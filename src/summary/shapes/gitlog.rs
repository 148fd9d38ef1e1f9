//! `git log` / `git show` output in git's default format: `commit <hash>` lines, each followed
//! by `Author:` (and maybe `Merge:`) and `Date:` lines and the indented message. Facts: commits,
//! authors, the newest and oldest commit with their subjects and dates (the log's first and last
//! commit), and `--stat`'s totals. A log is content: its words are commit messages.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use serde_json::json;

use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Authors told apart; more are not counted.
const AUTHORS_CHECKED: usize = 1 << 16;

#[derive(Debug, Default)]
pub(crate) struct GitLog {
    commits: u64,
    /// Commits followed by their `Author:` line, as git prints them.
    confirmed: u64,
    /// Newest and oldest: line, hash, date, subject.
    first: Option<Commit>,
    last: Option<Commit>,
    /// Where the current commit's header is: 1 after `commit`, 2 after `Author:`/`Date:`, 3
    /// once its subject is taken.
    state: u8,
    authors: HashSet<u64>,
    hasher: RandomState,
    authors_overflow: bool,
    /// `--stat` totals: files changed, insertions, deletions.
    stat: (u64, u64, u64),
    stat_lines: u64,
}

#[derive(Clone, Debug, Default)]
struct Commit {
    line: u64,
    hash: String,
    date: String,
    subject: String,
}

impl Shape for GitLog {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("commit ") {
            let hash = rest.split(' ').next().unwrap_or("");
            if hash.len() >= 7 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
                self.commits += 1;
                self.state = 1;
                let commit = Commit {
                    line: number,
                    hash: hash[..hash.len().min(10)].to_owned(),
                    ..Commit::default()
                };
                if self.first.is_none() {
                    self.first = Some(commit.clone());
                }
                self.last = Some(commit);
                return;
            }
        }
        match self.state {
            1 | 2 => {
                if let Some(author) = text.strip_prefix("Author: ") {
                    self.confirmed += 1;
                    self.state = 2;
                    if self.authors.len() < AUTHORS_CHECKED {
                        self.authors.insert(self.hasher.hash_one(author.trim()));
                    } else {
                        self.authors_overflow = true;
                    }
                } else if let Some(date) = text
                    .strip_prefix("Date: ")
                    .or_else(|| text.strip_prefix("AuthorDate: "))
                {
                    let date = date.trim().to_owned();
                    if let Some(last) = &mut self.last {
                        last.date = date.clone();
                    }
                    if self.commits == 1
                        && let Some(first) = &mut self.first
                    {
                        first.date = date;
                    }
                } else if let Some(subject) = text.strip_prefix("    ")
                    && self.state == 2
                {
                    self.state = 3;
                    let subject = cut(subject.trim(), 100);
                    if let Some(last) = &mut self.last {
                        last.subject = subject.clone();
                    }
                    if self.commits == 1
                        && let Some(first) = &mut self.first
                    {
                        first.subject = subject;
                    }
                }
            }
            _ => {
                // ` 4 files changed, 1262 insertions(+), 3618 deletions(-)`
                let t = text.trim_start();
                if t.contains(" changed")
                    && let Some((n, _)) = t.split_once(" file")
                    && let Ok(n) = n.parse::<u64>()
                {
                    self.stat.0 = self.stat.0.saturating_add(n);
                    self.stat_lines += 1;
                    for part in t.split(", ").skip(1) {
                        let Some((count, word)) = part.split_once(' ') else {
                            continue;
                        };
                        let Ok(count) = count.parse::<u64>() else {
                            continue;
                        };
                        if word.starts_with("insertion") {
                            self.stat.1 += count;
                        } else if word.starts_with("deletion") {
                            self.stat.2 += count;
                        }
                    }
                }
            }
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        if self.confirmed == 0 || self.confirmed != self.commits {
            return None;
        }
        let first = self.first.as_ref()?;
        let describe = |c: &Commit| {
            let mut s = format!("L{} {}", thousands(c.line), c.hash);
            if !c.date.is_empty() {
                s.push_str(&format!(" ({})", c.date));
            }
            if !c.subject.is_empty() {
                s.push_str(&format!(" {}", c.subject));
            }
            s
        };
        let mut line = format!("git log: {}", plural(self.commits, "commit", "commits"));
        if !self.authors_overflow {
            let n = self.authors.len() as u64;
            line.push_str(&format!(", {}", plural(n, "author", "authors")));
        }
        if self.stat_lines > 0 {
            // In git's own words, summed over the commits.
            line.push_str(&format!(
                "; --stat totals: {} changed, {}(+), {}(-)",
                plural(self.stat.0, "file", "files"),
                plural(self.stat.1, "insertion", "insertions"),
                plural(self.stat.2, "deletion", "deletions")
            ));
        }
        let mut lines = vec![line];
        if self.commits == 1 {
            lines.push(format!("commit: {}", describe(first)));
        } else {
            lines.push(format!("newest (first): {}", describe(first)));
            if let Some(last) = &self.last {
                lines.push(format!("oldest (last): {}", describe(last)));
            }
        }
        let json = json!({
            "shape": "git log",
            "commits": self.commits,
            "authors": (!self.authors_overflow).then_some(self.authors.len()),
            "first": {"hash": first.hash, "date": first.date, "subject": first.subject},
            "last": self.last.as_ref().map(|l| json!({"hash": l.hash, "date": l.date, "subject": l.subject})),
            "stat": (self.stat_lines > 0).then(|| json!({"files": self.stat.0, "insertions": self.stat.1, "deletions": self.stat.2})),
        });
        Some(
            Fact::new("git log", lines, json)
                .content()
                .hint("'^commit |^    ' -A 0"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        let commit = |c: &Option<Commit>| {
            c.as_ref().map_or(0, |c| {
                c.hash.capacity() + c.date.capacity() + c.subject.capacity()
            })
        };
        commit(&self.first) + commit(&self.last) + self.authors.capacity() * 9
    }
}
