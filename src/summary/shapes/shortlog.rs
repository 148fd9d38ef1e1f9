//! `git shortlog`: each author with the number of their commits, `Mislav Marohnić (105):`, and
//! the commits' subjects indented under it; or with `-s`, one line per author, `   105\tMislav
//! Marohnić`. Facts: commits and authors, and the authors with the most commits. A shortlog is
//! content: its subjects are commit messages, and their words are no failures.

use serde_json::json;

use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// The authors with the most commits that are named.
const TOP: usize = 5;

#[derive(Debug, Default)]
pub(crate) struct Shortlog {
    authors: u64,
    commits: u64,
    subjects: u64,
    /// `-s` lines read (`   105\tName`).
    summary_lines: u64,
    /// Lines that are neither an author's nor a subject: one is enough for it not to be a
    /// shortlog.
    other: u64,
    /// The authors with the most commits so far, the most first (the first read first among
    /// equals).
    top: Vec<(String, u64)>,
}

impl Shape for Shortlog {
    fn line(&mut self, _number: u64, text: &str) {
        if self.other > 0 || text.trim().is_empty() {
            return;
        }
        if let Some(subject) = text.strip_prefix("      ") {
            if self.authors > 0 && !subject.starts_with(' ') {
                self.subjects += 1;
            } else {
                self.other += 1;
            }
            return;
        }
        if let Some((author, commits)) = author_line(text).or_else(|| summary_line(text)) {
            if !text.ends_with(':') {
                self.summary_lines += 1;
            }
            self.authors += 1;
            self.commits = self.commits.saturating_add(commits);
            self.rank(author, commits);
        } else {
            self.other += 1;
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let listed = self.summary_lines == self.authors;
        let recognised = self.other == 0
            && self.authors >= 2
            && (listed || (self.summary_lines == 0 && self.subjects == self.commits));
        if !recognised {
            return None;
        }
        let most: Vec<String> = self
            .top
            .iter()
            .map(|(author, n)| format!("{author} ({})", thousands(*n)))
            .collect();
        let line = format!(
            "git shortlog: {} by {}; most: {}",
            plural(self.commits, "commit", "commits"),
            plural(self.authors, "author", "authors"),
            most.join(", ")
        );
        let json = json!({
            "shape": "git shortlog",
            "commits": self.commits,
            "authors": self.authors,
            "most": self.top.iter().map(|(a, n)| json!({"author": a, "commits": n})).collect::<Vec<_>>(),
        });
        let hint = if listed {
            "'^ *[0-9]+\\t'"
        } else {
            "'^[^ ].* \\([0-9]+\\):$'"
        };
        Some(
            Fact::new("git shortlog", vec![line], json)
                .content()
                .hint(hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.top.capacity() * std::mem::size_of::<(String, u64)>()
            + self.top.iter().map(|(a, _)| a.capacity()).sum::<usize>()
    }
}

impl Shortlog {
    /// Keeps `author` among the `TOP` with the most commits.
    fn rank(&mut self, author: &str, commits: u64) {
        let at = self.top.partition_point(|(_, n)| *n >= commits);
        if at < TOP {
            self.top.insert(at, (cut(author, 80), commits));
            self.top.truncate(TOP);
        }
    }
}

/// `Mislav Marohnić (105):` → (`Mislav Marohnić`, 105).
fn author_line(text: &str) -> Option<(&str, u64)> {
    let (author, count) = text.strip_suffix("):")?.rsplit_once(" (")?;
    let commits = count.parse().ok()?;
    (!author.is_empty() && !author.starts_with(' ')).then_some((author, commits))
}

/// `   105\tMislav Marohnić` → (`Mislav Marohnić`, 105).
fn summary_line(text: &str) -> Option<(&str, u64)> {
    let (count, author) = text.trim_start().split_once('\t')?;
    let commits = count.parse().ok()?;
    (!author.is_empty()).then_some((author.trim_end(), commits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<Fact> {
        super::super::read_lines::<Shortlog>(text)
    }

    #[test]
    fn both_forms_are_counted_and_their_top_authors_named() {
        let full = read(
            "Ann (1):\n      Fix the parser (#12)\n\nBob (2):\n      Add a flag\n      \
             Remove an error\n\n",
        )
        .expect("shortlog");
        assert_eq!(
            full.lines,
            ["git shortlog: 3 commits by 2 authors; most: Bob (2), Ann (1)"]
        );
        assert!(full.content);
        let summary = read("     7\tCy\n    12\tDee\n     7\tEd\n").expect("shortlog -s");
        assert_eq!(
            summary.lines,
            ["git shortlog: 26 commits by 3 authors; most: Dee (12), Cy (7), Ed (7)"]
        );
        // A subject more than its author's count says, or another line: not a shortlog.
        assert!(read("Ann (1):\n      a\n      b\nBob (1):\n      c\n").is_none());
        assert!(read("Ann (1):\n      a\nerror: x\nBob (1):\n      c\n").is_none());
    }
}
