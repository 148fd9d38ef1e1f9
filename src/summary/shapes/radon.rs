//! radon's cyclomatic complexity report (`radon cc -s`): a file's path, then a line per block
//! under it, `    M 215:4 BufferedFile.readline - E (31)` (its type, place, name, rank A–F
//! and, with `-s`, its score), or `    ERROR: expected ':' (<unknown>, line 105)` for a file it
//! could not parse; with `-a`, the closing `941 blocks (classes, functions, methods)
//! analyzed.` and `Average complexity: A (2.78)`. Counted: blocks by rank. Listed: each file
//! it could not parse, with its error, then the most complex blocks (rank D to F), the highest
//! score first, each with its file.

use serde_json::json;

use super::diagnostics::Tally;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural};

/// How many of the most complex blocks are kept.
const WORST_KEPT: usize = 12;

#[derive(Debug, Default)]
pub(crate) struct Radon {
    blocks: u64,
    ranks: Tally,
    /// The file whose blocks follow.
    file: Option<String>,
    /// Blocks ranked D or worse.
    complex: u64,
    /// The most complex blocks (rank D or worse): score, line, file, block as printed.
    worst: Vec<(u64, u64, String, String)>,
    unparsed: Failures,
    analyzed: Option<String>,
    average: Option<String>,
}

impl Shape for Radon {
    fn line(&mut self, number: u64, text: &str) {
        let Some(block) = text.strip_prefix("    ") else {
            if let Some(average) = text.strip_prefix("Average complexity: ") {
                self.average = Some(cut(average, 80));
            } else if text.ends_with(" blocks (classes, functions, methods) analyzed.") {
                self.analyzed = Some(cut(text, 120));
            } else if text.ends_with(".py") && !text.contains(' ') {
                self.file = Some(cut(text, 300));
            } else {
                self.file = None;
            }
            return;
        };
        let Some(file) = &self.file else {
            return;
        };
        if block.starts_with("ERROR: ") {
            self.unparsed.push(number, "");
            if let Some(f) = self.unparsed.current() {
                f.add_detail(&format!("{file}: {block}"));
            }
            return;
        }
        let Some((rank, score)) = ranked(block) else {
            return;
        };
        self.blocks += 1;
        self.ranks.add(rank);
        if rank.as_bytes()[0] >= b'D' {
            self.complex += 1;
            let entry = (score.unwrap_or(0), number, file.clone(), cut(block, 200));
            let at = self.worst.partition_point(|w| w.0 >= entry.0);
            if at < WORST_KEPT {
                self.worst.insert(at, entry);
                self.worst.truncate(WORST_KEPT);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.blocks == 0 {
            return None;
        }
        let mut line = format!("radon: {}", plural(self.blocks, "block", "blocks"));
        if let Some(ranks) = self.ranks.render() {
            line.push_str(&format!(" by rank: {ranks}"));
        }
        let unparsed = self.unparsed.total;
        if unparsed > 0 {
            line.push_str(&format!(
                "; {} it could not parse",
                plural(unparsed, "file", "files")
            ));
        }
        if let Some(average) = &self.average {
            line.push_str(&format!("; average complexity {average}"));
        }
        let json = json!({
            "shape": "radon",
            "blocks": self.blocks,
            "ranks": self.ranks.json(),
            "unparsed": unparsed,
            "analyzed": self.analyzed,
            "average": self.average,
        });
        let mut worst = Failures::default();
        for (_, number, file, block) in &self.worst {
            worst.push(*number, "");
            if let Some(f) = worst.current() {
                f.add_detail(&format!("{file}: {block}"));
            }
        }
        let heading = if self.complex > self.worst.len() as u64 {
            "most complex blocks (rank D–F; the highest scores)"
        } else {
            "most complex blocks (rank D–F)"
        };
        Some(
            Fact::new("radon", vec![line], json)
                .failures(self.unparsed.take_as("files it could not parse"))
                .failures(worst.take_as(heading))
                .hint("' - [DEF]( \\(|$)|ERROR: ' -B 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.ranks.approx_heap()
            + self.file.as_ref().map_or(0, String::capacity)
            + self
                .worst
                .iter()
                .map(|w| w.2.capacity() + w.3.capacity() + 40)
                .sum::<usize>()
            + self.unparsed.approx_heap()
    }
}

/// `M 215:4 BufferedFile.readline - E (31)` → (`E`, `Some(31)`); the score only with `-s`.
fn ranked(block: &str) -> Option<(&str, Option<u64>)> {
    let (kind, rest) = block.split_once(' ')?;
    if !matches!(kind, "F" | "M" | "C") {
        return None;
    }
    let (place, rest) = rest.split_once(' ')?;
    if !place.contains(':') || !place.bytes().all(|b| b.is_ascii_digit() || b == b':') {
        return None;
    }
    let (_, verdict) = rest.rsplit_once(" - ")?;
    let (rank, score) = match verdict.split_once(" (") {
        Some((rank, score)) => (rank, score.strip_suffix(')')?.parse().ok()),
        None => (verdict, None),
    };
    (rank.len() == 1 && (b'A'..=b'F').contains(&rank.as_bytes()[0])).then_some((rank, score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_s_rank_and_score() {
        assert_eq!(
            ranked("M 215:4 BufferedFile.readline - E (31)"),
            Some(("E", Some(31)))
        );
        assert_eq!(ranked("F 30:0 byte_chr - A"), Some(("A", None)));
        assert_eq!(ranked("M x:4 a - E (31)"), None);
        assert_eq!(ranked("ERROR: expected ':'"), None);
    }
}
