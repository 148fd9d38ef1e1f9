//! Helpers shared by the summarisers: bounded lists of names, the test counts JS runners report.

use crate::format::{cut, thousands};

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
        thousands(passed + failed),
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

/// Names kept for display: at most `NAMES_KEPT`, each cut short, plus how many there were.
#[derive(Debug, Default)]
pub(crate) struct Names {
    pub(crate) kept: Vec<String>,
    pub(crate) total: u64,
}

/// How many failing test names (or files, locations…) a summary line shows.
pub(crate) const NAMES_KEPT: usize = 5;
const NAME_CHARS: usize = 100;

impl Names {
    pub(crate) fn push(&mut self, name: &str) {
        self.total += 1;
        if self.kept.len() < NAMES_KEPT {
            self.kept.push(cut(name, NAME_CHARS));
        }
    }

    /// `a, b, c +2 more`, where the total is `total` (a count stated elsewhere, which may exceed
    /// the names seen).
    pub(crate) fn render(&self, total: u64) -> String {
        let mut out = self.kept.join(", ");
        let more = total.saturating_sub(self.kept.len() as u64);
        if more > 0 {
            out.push_str(&format!(" +{} more", thousands(more)));
        }
        out
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.kept.capacity() * std::mem::size_of::<String>()
            + self.kept.iter().map(String::capacity).sum::<usize>()
    }
}
