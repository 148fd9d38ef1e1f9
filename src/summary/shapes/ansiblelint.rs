//! ansible-lint's default report: each violation as its rule and message
//! (`fqcn[action-core]: Use FQCN for builtin module actions (file).`, ` (warning)` after a
//! warning's), then its place and what it is about (`tasks/a.yml:16:3 Use
//! ansible.builtin.file …`); the `# Rule Violation Summary` table, and the verdict, `Failed: 54
//! failure(s), 1 warning(s) in 17 files processed of 26 encountered.` Violations are counted
//! by rule; listed are the first of each rule at its place, the rules that stop a playbook
//! from loading or running (`syntax-check`, `load-failure`, `args`, …) first.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};
use crate::format::{cut, plural};

/// Rules whose violations keep a playbook from loading or running as written.
const BREAKING: [&str; 5] = [
    "syntax-check",
    "load-failure",
    "parser-error",
    "internal-error",
    "args",
];

#[derive(Debug, Default)]
pub(crate) struct AnsibleLint {
    diagnostics: Diagnostics,
    /// A rule's line, waiting for its place on the next: its line number, rule, text.
    pending: Option<(u64, String, String)>,
    warnings: u64,
    verdict: Option<String>,
}

impl Shape for AnsibleLint {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((at, rule, said)) = self.pending.take()
            && let Some(place) = place(text)
        {
            // A violation marked `(warning)` is listed with the others, by its rule: its
            // rule says more of what it breaks than the mark (`args[module]` is one).
            if said.ends_with(" (warning)") {
                self.warnings += 1;
            }
            let file = place.split(':').next().unwrap_or(place);
            self.diagnostics
                .add(at, Level::Error, Some(place), &said, Some(&rule));
            self.diagnostics.files.add(file);
            // What it is about, after the place: the task, the module to use, YAML's error.
            let about = text[place.len()..].trim();
            if !about.is_empty() {
                self.diagnostics.add_detail(&cut(about, 160));
            }
            return;
        }
        if let Some(rule) = rule(text) {
            self.pending = Some((number, rule.to_owned(), cut(text, 300)));
        } else if matches!(text.as_bytes().first(), Some(b'F' | b'P'))
            && (text.starts_with("Failed: ") || text.starts_with("Passed: "))
            && text.contains(" failure(s), ")
        {
            self.verdict = Some(cut(text, 200));
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        let violations = d.errors;
        if violations == 0 || self.verdict.is_none() {
            return None;
        }
        let mut line = format!(
            "ansible-lint: {}",
            plural(violations, "violation", "violations")
        );
        if self.warnings > 0 {
            line.push_str(&format!(", {} marked (warning)", self.warnings));
        }
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; rules: {codes}"));
        }
        let verdict = self.verdict.clone();
        let json = json!({
            "shape": "ansible-lint",
            "violations": violations,
            "marked_warning": self.warnings,
            "verdict": verdict,
            "rules": d.codes.json(),
            "files": d.files.json(),
        });
        let rank = |rule: &str| {
            let base = rule.split('[').next().unwrap_or(rule);
            u8::from(!BREAKING.contains(&base))
        };
        Some(
            Fact::new("ansible-lint", vec![line], json)
                .quoting(verdict.into_iter().collect())
                .failures(d.failures(rank))
                .hint("'^[a-z][a-z0-9-]*(\\[[a-z0-9_-]+\\])?: ' -A 1")
                .supersedes(&["log"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self
                .pending
                .as_ref()
                .map_or(0, |(_, r, s)| r.capacity() + s.capacity())
            + self.verdict.as_ref().map_or(0, String::capacity)
    }
}

/// `fqcn[action-core]: Use FQCN …` → `fqcn[action-core]`: a rule's name, lower case with
/// dashes, and its tag in brackets.
fn rule(text: &str) -> Option<&str> {
    // Most lines are passed over on their first byte.
    if !text.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
        return None;
    }
    let (rule, message) = text.split_once(": ")?;
    let name = rule.split('[').next().unwrap_or(rule);
    let tag = &rule[name.len()..];
    let named = name.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    let tagged = tag.is_empty()
        || (tag.starts_with('[')
            && tag.ends_with(']')
            && tag[1..tag.len() - 1]
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_'));
    (named && tagged && !message.is_empty()).then_some(rule)
}

/// `tasks/a.yml:16:3 Use …` → `tasks/a.yml:16:3`: a YAML file's place, then what it is about.
fn place(text: &str) -> Option<&str> {
    let place = text.split(' ').next()?;
    let (path, rest) = place.split_once(':')?;
    let yaml = path.ends_with(".yml") || path.ends_with(".yaml");
    let numbered = rest
        .split(':')
        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    (yaml && numbered).then_some(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_violation_s_rule_and_place() {
        assert_eq!(
            rule("fqcn[action-core]: Use FQCN for builtin module actions (file)."),
            Some("fqcn[action-core]")
        );
        assert_eq!(
            rule("no-free-form: Avoid using free-form when calling module actions. (command)"),
            Some("no-free-form")
        );
        assert_eq!(rule("Failed: 54 failure(s), 1 warning(s)"), None);
        assert_eq!(rule("note: x"), Some("note"));
        assert_eq!(
            place("security/main.yml:23:8 did not find expected key"),
            Some("security/main.yml:23:8")
        );
        assert_eq!(
            place("includes/a.yml:15 Task/Handler: x"),
            Some("includes/a.yml:15")
        );
        assert_eq!(place("src/a.py:3 x"), None);
    }
}
