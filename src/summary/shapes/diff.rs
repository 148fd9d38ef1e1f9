//! Unified diffs (`git diff`, `git show`, `diff -u`): files, lines added and removed in all and
//! per file, the largest changes, the files git's headers say were created, deleted or renamed,
//! and the first and last file with their line numbers. A diff
//! is content: its `-`/`+` lines hold whatever words the code holds.
//!
//! A file starts at `diff --git a/X b/Y` (or, without git, at `--- X` followed by `+++ Y`, each
//! naming a file: a path, or a name with `diff -u`'s tab and date; minitest's and other
//! runners' `--- expected` / `+++ actual` over two values compared are no diff of files);
//! inside a hunk (`@@ -a,b +c,d @@`), lines starting with `+` and `-` are counted, up to the
//! lengths the hunk header announces.

use serde_json::json;

use super::names::Names;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// The largest changes listed.
const LARGEST: usize = 3;

#[derive(Debug, Default)]
pub(crate) struct Diff {
    files: u64,
    added: u64,
    removed: u64,
    /// The first and last file's header line and its line number.
    first: Option<(u64, String)>,
    last: Option<(u64, String)>,
    /// The current file's path and counts.
    current: Option<(String, u64, u64)>,
    largest: Vec<(String, u64, u64)>,
    /// Lines left in the current hunk: old side, new side.
    hunk: (u64, u64),
    /// A `--- X` line just seen (a diff without git's header).
    minus_header: Option<(u64, String)>,
    binary_files: u64,
    /// Files git's headers say were created, deleted or renamed (`new file mode`, `deleted
    /// file mode`, `rename from` / `rename to`).
    created: Names,
    deleted: Names,
    renamed: Names,
    rename_from: Option<String>,
}

/// The rest of a `--- ` or `+++ ` line names a file: `a/src/x.rs`, `x.c\t2024-05-01 …`.
fn is_file_header(rest: &str) -> bool {
    rest.contains(['/', '.', '\t'])
}

impl Shape for Diff {
    fn line(&mut self, number: u64, text: &str) {
        if self.hunk != (0, 0) {
            match text.as_bytes().first() {
                Some(b'+') => {
                    self.hunk.1 = self.hunk.1.saturating_sub(1);
                    self.count(1, 0);
                }
                Some(b'-') => {
                    self.hunk.0 = self.hunk.0.saturating_sub(1);
                    self.count(0, 1);
                }
                Some(b'\\') => {}
                _ => {
                    self.hunk.0 = self.hunk.0.saturating_sub(1);
                    self.hunk.1 = self.hunk.1.saturating_sub(1);
                }
            }
            return;
        }
        if let Some(rest) = text.strip_prefix("diff --git ") {
            let path = rest.rsplit_once(" b/").map_or(rest, |(_, b)| b).to_owned();
            self.start_file(number, text, path);
        } else if let Some(rest) = text.strip_prefix("--- ") {
            self.minus_header = Some((number, rest.to_owned()));
            return;
        } else if let Some(rest) = text.strip_prefix("+++ ") {
            if let Some((at, minus)) = self.minus_header.take()
                && self.current.as_ref().is_none_or(|(_, a, r)| *a + *r > 0)
                && at + 1 == number
                && is_file_header(&minus)
                && is_file_header(rest)
            {
                // `diff -u`: no `diff --git` line before the file.
                let path = rest.split('\t').next().unwrap_or(rest);
                let path = path.strip_prefix("b/").unwrap_or(path).to_owned();
                self.start_file(at, text, path);
            }
        } else if let Some(rest) = text.strip_prefix("@@ -")
            && self.current.is_some()
            && let Some((ranges, _)) = rest.split_once(" @@")
            && let Some((old, new)) = ranges.split_once(" +")
        {
            self.hunk = (length(old), length(new));
        } else if text.starts_with("Binary files ") && text.ends_with(" differ") {
            self.binary_files += 1;
        } else if let Some((path, _, _)) = &self.current {
            // git's extended headers, between `diff --git` and the first hunk.
            if text.starts_with("new file mode ") {
                self.created.push(path);
            } else if text.starts_with("deleted file mode ") {
                self.deleted.push(path);
            } else if let Some(from) = text.strip_prefix("rename from ") {
                self.rename_from = Some(cut(from, 160));
            } else if let Some(to) = text.strip_prefix("rename to ")
                && let Some(from) = self.rename_from.take()
            {
                self.renamed.push(&format!("{from} → {to}"));
            }
        }
        self.minus_header = None;
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.close_file();
        let (first_at, first) = self.first.clone()?;
        if self.added + self.removed == 0 && self.binary_files == 0 {
            return None;
        }
        let mut line = format!(
            "diff: {}, +{} −{}",
            plural(self.files, "file", "files"),
            thousands(self.added),
            thousands(self.removed)
        );
        if self.binary_files > 0 {
            line.push_str(&format!(", {} binary", thousands(self.binary_files)));
        }
        if self.files > 1 {
            let largest: Vec<String> = self
                .largest
                .iter()
                .map(|(p, a, r)| format!("{} +{} −{}", cut(p, 80), thousands(*a), thousands(*r)))
                .collect();
            line.push_str(&format!("; largest: {}", largest.join(", ")));
        }
        let mut lines = vec![line];
        for (names, what) in [
            (&self.created, "new files"),
            (&self.deleted, "deleted files"),
            (&self.renamed, "renamed"),
        ] {
            if names.total > 0 {
                lines.push(format!(
                    "{what} ({}): {}",
                    thousands(names.total),
                    names.render(names.total)
                ));
            }
        }
        lines.push(format!("first file: L{} {first}", thousands(first_at)));
        if let Some((at, last)) = &self.last
            && *at != first_at
        {
            lines.push(format!("last file: L{} {last}", thousands(*at)));
        }
        let json = json!({
            "shape": "diff",
            "files": self.files,
            "added": self.added,
            "removed": self.removed,
            "binary_files": self.binary_files,
            "first_file": first,
            "last_file": self.last.as_ref().map(|(_, l)| l),
            "largest": self.largest.iter().map(|(p, a, r)| json!({"path": p, "added": a, "removed": r})).collect::<Vec<_>>(),
            "new_files": self.created.total,
            "deleted_files": self.deleted.total,
            "renamed_files": self.renamed.total,
        });
        Some(
            Fact::new("diff", lines, json)
                .content()
                .hint("'^diff --git|^@@ ' -A 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.first.as_ref().map_or(0, |(_, s)| s.capacity())
            + self.last.as_ref().map_or(0, |(_, s)| s.capacity())
            + self.current.as_ref().map_or(0, |(s, _, _)| s.capacity())
            + self
                .largest
                .iter()
                .map(|(p, _, _)| p.capacity() + 40)
                .sum::<usize>()
            + self.minus_header.as_ref().map_or(0, |(_, s)| s.capacity())
            + self.created.approx_heap()
            + self.deleted.approx_heap()
            + self.renamed.approx_heap()
            + self.rename_from.as_ref().map_or(0, String::capacity)
    }
}

impl Diff {
    fn start_file(&mut self, number: u64, header: &str, path: String) {
        self.close_file();
        self.files += 1;
        let header = cut(header, 160);
        if self.first.is_none() {
            self.first = Some((number, header.clone()));
        }
        self.last = Some((number, header));
        self.current = Some((path, 0, 0));
        self.hunk = (0, 0);
    }

    fn count(&mut self, added: u64, removed: u64) {
        self.added += added;
        self.removed += removed;
        if let Some((_, a, r)) = &mut self.current {
            *a += added;
            *r += removed;
        }
    }

    fn close_file(&mut self) {
        let Some((path, a, r)) = self.current.take() else {
            return;
        };
        let size = a + r;
        let at = self
            .largest
            .iter()
            .position(|(_, x, y)| x + y < size)
            .unwrap_or(self.largest.len());
        if at < LARGEST {
            self.largest.insert(at, (path, a, r));
            self.largest.truncate(LARGEST);
        }
    }
}

/// The line count of a hunk range, `12,7` → 7, `12` → 1.
fn length(range: &str) -> u64 {
    match range.split_once(',') {
        Some((_, n)) => n.parse().unwrap_or(0),
        None => 1,
    }
}
