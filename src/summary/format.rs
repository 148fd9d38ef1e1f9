//! Small formatting helpers shared by the summarisers: numbers with thousands separators,
//! cutting display text to a length without splitting a character, bounded name lists.

/// `1204` → `1,204`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `512 B`, `1.5 KiB`, `3.0 MiB`: powers of 1024, the units `--max-size` takes.
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

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

/// The first `max_chars` characters of `text`, with `…` appended when something was cut.
pub(crate) fn cut(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_204), "1,204");
        assert_eq!(thousands(12_345_678), "12,345,678");
    }

    #[test]
    fn sizes_in_powers_of_1024() {
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(human_bytes(1_536), "1.5 KiB");
        assert_eq!(human_bytes(3 << 20), "3.0 MiB");
    }

    #[test]
    fn cut_respects_characters() {
        assert_eq!(cut("héllo", 2), "hé…");
        assert_eq!(cut("hé", 2), "hé");
    }
}
