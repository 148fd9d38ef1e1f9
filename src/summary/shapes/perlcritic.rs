//! perlcritic's default report: a line per violation,
//! `lib/A.pm: Two-argument "open" used at line 1077, column 5.  See page 207 of PBP.
//! (Severity: 5)`, a clean file's `t/a.t source OK`, and with `--statistics` its closing
//! block (`460 violations.`, ` 24 severity 5 violations.`, `  8 violations of Policy::Name.`).
//!
//! Violations are counted by severity and file; the first of each message is listed, the
//! most severe (5) first, each as printed up to its place with its severity. The policy
//! tally is perlcritic's own, when it printed one.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level, Tally};
use super::{Fact, Shape};
use crate::format::thousands;

#[derive(Debug)]
pub(crate) struct Perlcritic {
    /// Violations by severity, 1 to 5.
    severities: [u64; 5],
    clean: u64,
    files: Tally,
    diagnostics: Diagnostics,
    /// `--statistics`: its total and policy tally.
    stated: Option<u64>,
    policies: Tally,
}

impl Default for Perlcritic {
    fn default() -> Perlcritic {
        Perlcritic {
            severities: [0; 5],
            clean: 0,
            files: Tally::default(),
            diagnostics: Diagnostics::firsts_only(),
            stated: None,
            policies: Tally::default(),
        }
    }
}

impl Shape for Perlcritic {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(v) = violation(text) {
            self.severities[usize::from(v.severity - 1)] += 1;
            self.files.add(v.file);
            // The most severe are what breaks; the rest are read after them.
            let level = if v.severity == 5 {
                Level::Error
            } else {
                Level::Warning
            };
            let shown = format!("{} (Severity: {})", v.said, v.severity);
            self.diagnostics
                .add(number, level, None, &shown, Some(v.message));
            return;
        }
        if text.ends_with(" source OK") && !text.trim_end_matches(" source OK").contains(' ') {
            self.clean += 1;
            return;
        }
        let t = text.trim_start();
        if let Some(n) = t
            .strip_suffix(" violations.")
            .and_then(|n| n.replace(',', "").parse().ok())
        {
            self.stated = Some(n);
        } else if t.starts_with(|c: char| c.is_ascii_digit())
            && let Some((n, policy)) = t.split_once(" violations of ")
            && let Some(policy) = policy.strip_suffix('.')
            && let Ok(n) = n.parse::<u64>()
        {
            self.policies.add_count(policy, n);
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let counted: u64 = self.severities.iter().sum();
        if counted == 0 {
            return None;
        }
        let mut line = format!("perlcritic: {} violations", thousands(counted));
        if let Some(files) = self.files.distinct() {
            line.push_str(&format!(" in {} files", thousands(files as u64)));
        }
        if self.clean > 0 {
            line.push_str(&format!(", {} files OK", thousands(self.clean)));
        }
        let by: Vec<String> = (1..=5)
            .rev()
            .filter(|s| self.severities[s - 1] > 0)
            .map(|s| format!("severity {s} ×{}", thousands(self.severities[s - 1])))
            .collect();
        line.push_str(&format!(" ({})", by.join(", ")));
        if let Some(stated) = self.stated.filter(|s| *s != counted) {
            line.push_str(&format!("; it says {} violations", thousands(stated)));
        }
        let mut lines = vec![line];
        if let Some(policies) = self.policies.render() {
            lines.push(format!("perlcritic policies: {policies}"));
        }
        let json = json!({
            "shape": "perlcritic",
            "violations": counted,
            "stated": self.stated,
            "severity": {"5": self.severities[4], "4": self.severities[3], "3": self.severities[2],
                         "2": self.severities[1], "1": self.severities[0]},
            "files": self.files.distinct(),
            "files_ok": self.clean,
            "policies": self.policies.json(),
        });
        let most = (1..=5)
            .rev()
            .find(|s| self.severities[s - 1] > 0)
            .unwrap_or(5);
        Some(
            Fact::new("perlcritic", lines, json)
                .failures(self.diagnostics.failures(|_| 0))
                .hint(&format!("'\\(Severity: {most}\\)$'")),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.files.approx_heap() + self.policies.approx_heap() + self.diagnostics.approx_heap()
    }
}

struct Violation<'a> {
    file: &'a str,
    /// Its message (`Two-argument "open" used`), the kind.
    message: &'a str,
    /// The line up to its place: `lib/A.pm: Two-argument "open" used at line 1077, column 5.`
    said: &'a str,
    severity: u8,
}

/// `lib/A.pm: Two-argument "open" used at line 1077, column 5.  See page 207 of PBP.
/// (Severity: 5)`.
fn violation(text: &str) -> Option<Violation<'_>> {
    let (rest, severity) = text.strip_suffix(')')?.rsplit_once("(Severity: ")?;
    let severity: u8 = severity.parse().ok().filter(|s| (1..=5).contains(s))?;
    let (file, _) = text.split_once(": ")?;
    if file.contains(' ') {
        return None;
    }
    let at = rest.find(" at line ")?;
    let message = &rest[file.len() + 2..at];
    let place = &rest[at..];
    let end = place.find(".  ").map_or(place.trim_end().len(), |i| i + 1);
    Some(Violation {
        file,
        message,
        said: &text[..at + end],
        severity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn violations_are_read_up_to_their_place() {
        let v = violation(
            "lib/Path/Tiny.pm: Two-argument \"open\" used at line 1077, column 5.  See page 207 of PBP.  (Severity: 5)",
        )
        .unwrap();
        assert_eq!(v.file, "lib/Path/Tiny.pm");
        assert_eq!(v.message, "Two-argument \"open\" used");
        assert_eq!(
            v.said,
            "lib/Path/Tiny.pm: Two-argument \"open\" used at line 1077, column 5."
        );
        assert_eq!(v.severity, 5);
        assert!(violation("lib/a.pm: fine (Severity: 9)").is_none());
        assert!(violation("some words: here at line 3 (Severity: 2)").is_none());
    }
}
