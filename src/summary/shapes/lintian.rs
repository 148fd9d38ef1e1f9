//! lintian, Debian's package checker: a line per tag, `E: hello: dir-in-usr-local
//! [usr/local/bin/]`, its level first (`E` error, `W` warning, `I` info, `P` pedantic, `X`
//! experimental, `O` overridden, `M` masked, `C` classification), then the package (`hello`,
//! `hello source`), the tag and what it is about; with `--info`, `N:` lines explaining each.
//!
//! Tags are counted by level; each error and warning tag is listed by its first line as
//! printed (errors first, the rarest first), then the first of each info, pedantic and
//! experimental tag.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally};
use super::{Fact, Shape};
use crate::format::thousands;

/// lintian's levels, in the order they are stated, with their words.
const LEVELS: [(char, &str); 8] = [
    ('E', "errors"),
    ('W', "warnings"),
    ('I', "info"),
    ('P', "pedantic"),
    ('X', "experimental"),
    ('O', "overridden"),
    ('M', "masked"),
    ('C', "classification"),
];

#[derive(Debug)]
pub(crate) struct Lintian {
    levels: [u64; 8],
    tags: Tally,
    packages: Tally,
    /// Errors and warnings; and the tags below them, read after.
    faults: Diagnostics,
    hints: Diagnostics,
}

impl Default for Lintian {
    fn default() -> Lintian {
        Lintian {
            levels: [0; 8],
            tags: Tally::default(),
            packages: Tally::default(),
            faults: Diagnostics::default(),
            hints: Diagnostics::firsts_only(),
        }
    }
}

impl Shape for Lintian {
    fn line(&mut self, number: u64, text: &str) {
        let Some((level, package, tag)) = tag_line(text) else {
            return;
        };
        self.levels[level] += 1;
        self.packages.add(package);
        match level {
            0 | 1 => {
                self.tags.add(tag);
                let level = if level == 0 {
                    Level::Error
                } else {
                    Level::Warning
                };
                self.faults.add(number, level, None, text, Some(tag));
            }
            2..=4 => self
                .hints
                .add(number, Level::Warning, None, text, Some(tag)),
            _ => {}
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let tags: u64 = self.levels.iter().sum();
        if tags == 0 {
            return None;
        }
        let counts: Vec<String> = LEVELS
            .iter()
            .zip(self.levels)
            .filter(|(_, n)| *n > 0)
            .map(|((_, word), n)| format!("{} {word}", thousands(n)))
            .collect();
        let mut lines = vec![format!("lintian: {}", counts.join(", "))];
        if let Some(tally) = self.tags.render() {
            lines.push(format!("lintian error and warning tags: {tally}"));
        }
        let json = json!({
            "shape": "lintian",
            "levels": LEVELS.iter().zip(self.levels)
                .map(|((c, _), n)| (c.to_string(), json!(n)))
                .collect::<serde_json::Map<_, _>>(),
            "tags": self.tags.json(),
            "packages": self.packages.json(),
        });
        let mut listed = self.faults.failures(|_| 0);
        for hint in self.hints.failures(|_| 0).iter() {
            listed.push_failure(hint.clone());
        }
        Some(
            Fact::new("lintian", lines, json)
                .failures(listed)
                .hint_if_failed(self.levels[0] + self.levels[1] > 0, "'^[EW]: ' -A 4"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.tags.approx_heap()
            + self.packages.approx_heap()
            + self.faults.approx_heap()
            + self.hints.approx_heap()
    }
}

/// `W: hello source: no-nmu-in-changelog [debian/changelog:1]` → the level's index in
/// `LEVELS`, the package (`hello source`) and the tag.
fn tag_line(text: &str) -> Option<(usize, &str, &str)> {
    let mut chars = text.chars();
    let level = chars.next()?;
    let rest = text.get(1..)?.strip_prefix(": ")?;
    let index = LEVELS.iter().position(|(c, _)| *c == level)?;
    let (package, rest) = rest.split_once(": ")?;
    let tag = rest.split(' ').next().unwrap_or(rest);
    let named = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-+.".contains(&b))
    };
    let package_name = package.strip_suffix(" source").unwrap_or(package);
    (named(package_name) && named(tag) && tag.contains('-')).then_some((index, package, tag))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_lines_and_what_is_not_one() {
        assert_eq!(
            tag_line("W: hello source: no-nmu-in-changelog [debian/changelog:1]"),
            Some((1, "hello source", "no-nmu-in-changelog"))
        );
        assert_eq!(
            tag_line("E: hello: dir-in-usr-local [usr/local/bin/]"),
            Some((0, "hello", "dir-in-usr-local"))
        );
        assert_eq!(tag_line("N:   Visibility: error"), None);
        assert_eq!(tag_line("E: Could not open lock file"), None);
        assert_eq!(tag_line("W: Some index files failed to download."), None);
    }
}
