//! PHPMD's text report: a line per violation, its place and its rule padded into columns
//! (`/src/Writer.php:140      UnusedPrivateMethod       Avoid unused private methods such as
//! 'flushIfNeeded'.`), no totals; after them each file the parser could not read, as a line
//! `\t-\tUnexpected token: List, line: 18, col: 10, file: /src/Serializer/ArrayShape.php.`
//! followed by PHP's stack trace (`#0 …`).
//!
//! Stated: the violations counted by rule and file, and the files it could not read; listed,
//! those files first, then the first violation of each rule, the rules of unused code first
//! (what a change left behind), the rarest first.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally, file_of};
use super::{Fact, Shape};
use crate::format::plural;

#[derive(Debug)]
pub(crate) struct Phpmd {
    /// Violations as warnings, of their rule's kind; the files it could not read as errors.
    diagnostics: Diagnostics,
    rules: Tally,
}

impl Default for Phpmd {
    fn default() -> Phpmd {
        Phpmd {
            diagnostics: Diagnostics::of_rules(),
            rules: Tally::default(),
        }
    }
}

/// The rule a file the parser could not read is counted under.
const PARSE_ERROR: &str = "parse error";

impl Shape for Phpmd {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(error) = text.strip_prefix("\t-\t") {
            // Only after violations: a tab-indented list is many tools' form.
            if self.diagnostics.warnings > 0 {
                let file = error
                    .rsplit_once(", file: ")
                    .map(|(_, f)| f.trim_end_matches('.'));
                self.diagnostics.add(
                    number,
                    Level::Error,
                    file,
                    error.trim_end(),
                    Some(PARSE_ERROR),
                );
            }
            return;
        }
        if let Some((place, rule, message)) = violation(text) {
            // Without the columns' padding, which says nothing and costs tokens.
            let said = format!("{place} {rule} {message}");
            self.diagnostics
                .add(number, Level::Warning, Some(place), &said, Some(rule));
            self.rules.add(rule);
            self.diagnostics.files.add(file_of(place));
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        let (violations, unreadable) = (d.warnings, d.errors);
        if violations < 2 {
            return None;
        }
        let mut line = format!("phpmd: {}", plural(violations, "violation", "violations"));
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if unreadable > 0 {
            line.push_str(&format!(
                ", {} it could not parse",
                plural(unreadable, "file", "files")
            ));
        }
        let mut lines = vec![line];
        if let Some(rules) = self.rules.render() {
            lines.push(format!("rules: {rules}"));
        }
        let json = json!({
            "shape": "phpmd",
            "violations": violations,
            "unreadable_files": unreadable,
            "rules": self.rules.json(),
            "files": d.files.json(),
        });
        // Files it could not read first; then unused code, what a change left behind; names
        // and sizes are the code base's habits.
        let rank = |rule: &str| u8::from(!rule.starts_with("Unused"));
        Some(
            Fact::new("phpmd", lines, json)
                .failures(d.failures_warnings_ranked(rank))
                .hint("'^\\t-\\t|:[0-9]+ +Unused'"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.rules.approx_heap()
    }
}

/// `/src/Writer.php:140   UnusedPrivateMethod   Avoid …` → (`/src/Writer.php:140`,
/// `UnusedPrivateMethod`, `Avoid …`): a place, a rule's name in capitalised words, each
/// followed by padding, then the message.
fn violation(text: &str) -> Option<(&str, &str, &str)> {
    // Split at single spaces (a byte search; most lines fail at their first word), each
    // column then padded by one more.
    let (place, rest) = text.split_once(' ')?;
    let (path, line) = place.rsplit_once(':')?;
    if !path.contains('.') || line.is_empty() || !line.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (rule, message) = rest.strip_prefix(' ')?.trim_start().split_once(' ')?;
    let message = message.strip_prefix(' ')?.trim();
    let rule_like = rule.starts_with(|c: char| c.is_ascii_uppercase())
        && rule.bytes().all(|b| b.is_ascii_alphanumeric());
    (rule_like && !message.is_empty()).then_some((place, rule, message))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_violation_is_its_place_and_rule() {
        assert_eq!(
            violation(
                "/src/Writer.php:140                      UnusedPrivateMethod       Avoid unused \
                 private methods such as 'flushIfNeeded'."
            ),
            Some((
                "/src/Writer.php:140",
                "UnusedPrivateMethod",
                "Avoid unused private methods such as 'flushIfNeeded'."
            ))
        );
        assert_eq!(violation("src/a.php:12  not a rule  message"), None);
        assert_eq!(violation("src/a.c:12: error: x"), None);
    }

    #[test]
    fn violations_by_rule_and_the_files_it_could_not_parse() {
        let text = "/src/A.php:38     TooManyPublicMethods   The class A has 15 public methods.\n\
                    /src/A.php:72     StaticAccess           Avoid using static access.\n\
                    /src/W.php:140    UnusedPrivateMethod    Avoid unused private methods such as 'f'.\n\
                    \t-\tUnexpected token: List, line: 18, col: 10, file: /src/S/ArrayShape.php.\n\
                    #0 /usr/share/php/PDepend/Engine.php(606): parse()\n";
        let fact = super::super::read_lines::<Phpmd>(text).expect("a phpmd report");
        assert_eq!(
            fact.lines[0],
            "phpmd: 3 violations in 2 files, 1 file it could not parse"
        );
        let listed: Vec<String> = fact.failures[0]
            .iter()
            .map(|f| f.detail.join(" · "))
            .collect();
        assert!(listed[0].contains("Unexpected token: List"), "{listed:?}");
        assert!(listed[1].contains("UnusedPrivateMethod"), "{listed:?}");
    }
}
