//! `npm ls`: the dependency tree under its root (`date-io@ /home/dev/date-io`), a package per
//! line behind the tree's branches (`│ ├── tslib@1.14.1 invalid: "^2.5.0" from
//! packages/hijri`), each problem said on its line: `invalid: "^2.5.0" from …` (the version
//! installed is not one asked for), `extraneous` (installed, asked for by none), `UNMET
//! DEPENDENCY luxon@^3.0.4` (asked for, not installed; `UNMET OPTIONAL DEPENDENCY` when
//! optional). A package printed again where it is shared says `deduped`.
//!
//! Stated, once a problem is read: the packages listed, and the problems by kind, each package
//! once; listed, the missing and invalid ones first, then the extraneous.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Distinct problems told apart per kind; past them a problem is counted as new.
const PROBLEMS_KEPT: usize = 256;

#[derive(Debug, Default)]
pub(crate) struct NpmLs {
    /// Package lines read.
    packages: u64,
    /// Per kind (see [`KINDS`]): each distinct problem with where it was first said.
    problems: [Vec<(u64, String)>; 4],
    counts: [u64; 4],
    /// npm's own list of the problems, after the tree (`npm error invalid: dayjs@1.11.13
    /// /p/node_modules/dayjs`): missing, invalid, extraneous. It names each package installed
    /// once per place, the tree (cut at `--depth`) each package once.
    stated: [u64; 3],
    /// npm's error code for them (`npm error code ELSPROBLEMS`).
    code: Option<String>,
}

/// The kinds of problem, the most urgent first.
const KINDS: [&str; 4] = ["missing", "invalid", "extraneous", "missing optional"];

impl Shape for NpmLs {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text
            .strip_prefix("npm error ")
            .or_else(|| text.strip_prefix("npm ERR! "))
        {
            if let Some(code) = rest.strip_prefix("code ") {
                self.code.get_or_insert_with(|| cut(code.trim(), 40));
            }
            for (i, kind) in KINDS[..3].iter().enumerate() {
                if rest.strip_prefix(kind).is_some_and(|r| r.starts_with(": ")) {
                    self.stated[i] += 1;
                }
            }
            return;
        }
        let Some(entry) = entry(text) else {
            return;
        };
        self.packages += 1;
        let kind = if entry.starts_with("UNMET OPTIONAL DEPENDENCY ") {
            3
        } else if entry.starts_with("UNMET DEPENDENCY ") {
            0
        } else if entry.contains(" invalid: ") {
            1
        } else if entry.ends_with(" extraneous") {
            2
        } else {
            return;
        };
        // A package shared is said again, `deduped`: the same problem.
        let said = entry.replacen(" deduped", "", 1);
        let seen = &mut self.problems[kind];
        if seen.iter().any(|(_, s)| *s == said) {
            return;
        }
        self.counts[kind] += 1;
        if seen.len() < PROBLEMS_KEPT {
            seen.push((number, cut(&said, 200)));
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        if self.counts.iter().all(|n| *n == 0) {
            return None;
        }
        let said = |counts: &[u64]| {
            KINDS
                .iter()
                .zip(counts)
                .filter(|(_, n)| **n > 0)
                .map(|(kind, n)| format!("{} {kind}", thousands(*n)))
                .collect::<Vec<String>>()
                .join(", ")
        };
        let mut line = format!(
            "npm ls: {} listed",
            plural(self.packages, "package", "packages")
        );
        if self.stated.iter().any(|n| *n > 0) {
            let total: u64 = self.stated.iter().sum();
            let code = self
                .code
                .as_ref()
                .map_or(String::new(), |c| format!("{c}, "));
            line.push_str(&format!(
                "; npm's problems ({code}{}): {}",
                thousands(total),
                said(&self.stated)
            ));
            if self.counts[3] > 0 {
                line.push_str(&format!("; {}", said(&[0, 0, 0, self.counts[3]])));
            }
        } else {
            line.push_str(&format!("; problems in the tree: {}", said(&self.counts)));
        }
        let json = json!({
            "shape": "npm ls",
            "packages": self.packages,
            "missing": self.counts[0],
            "invalid": self.counts[1],
            "extraneous": self.counts[2],
            "missing_optional": self.counts[3],
            "code": self.code,
            "stated": {"missing": self.stated[0], "invalid": self.stated[1], "extraneous": self.stated[2]},
        });
        let mut listed = Failures::new("problems in the tree");
        for (line, said) in self.problems.iter().flatten() {
            listed.push(*line, said);
        }
        let problems = self.counts[..3].iter().sum::<u64>() > 0;
        Some(
            Fact::new("npm ls", vec![line], json)
                .failures(listed)
                .hint_if_failed(problems, "'UNMET DEPENDENCY|invalid: |extraneous$'")
                // Its `npm error code ELSPROBLEMS` block says these problems again.
                .supersedes(&["install"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.code.as_ref().map_or(0, String::capacity)
            + self
                .problems
                .iter()
                .flatten()
                .map(|(_, s)| s.capacity() + 32)
                .sum::<usize>()
    }
}

/// A package's line of the tree without its branches: `│ ├── tslib@1.14.1 invalid: …` →
/// `tslib@1.14.1 invalid: …`.
fn entry(text: &str) -> Option<&str> {
    let first = text.chars().next()?;
    if !matches!(first, '├' | '└' | '│' | ' ') {
        return None;
    }
    let rest = text.trim_start_matches(['│', ' ']);
    let rest = rest.strip_prefix("├").or_else(|| rest.strip_prefix("└"))?;
    let rest = rest.trim_start_matches(['─', '┬']).strip_prefix(' ')?;
    (!rest.is_empty()).then_some(rest.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_counted_once_each_the_missing_first() {
        let text = "date-io@ /home/dev/date-io\n\
                    ├─┬ @date-io/dayjs@3.2.0 -> ./packages/dayjs\n\
                    │ ├── dayjs@1.11.13 deduped invalid: \"^2.0.0-alpha.4\" from packages/dayjs\n\
                    │ └── UNMET DEPENDENCY luxon@^3.0.4\n\
                    ├── dayjs@1.11.13 invalid: \"^2.0.0-alpha.4\" from packages/dayjs\n\
                    ├── prettier@2.8.8 extraneous\n\
                    └── UNMET OPTIONAL DEPENDENCY fsevents@~2.3.2\n";
        let fact = super::super::read_lines::<NpmLs>(text).expect("an npm ls tree");
        assert_eq!(
            fact.lines,
            [
                "npm ls: 6 packages listed; problems in the tree: 1 missing, 1 invalid, 1 \
                 extraneous, 1 missing optional"
            ]
        );
        let listed: Vec<_> = fact.failures[0].iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            listed,
            [
                "UNMET DEPENDENCY luxon@^3.0.4",
                "dayjs@1.11.13 invalid: \"^2.0.0-alpha.4\" from packages/dayjs",
                "prettier@2.8.8 extraneous",
                "UNMET OPTIONAL DEPENDENCY fsevents@~2.3.2"
            ]
        );
        assert_eq!(entry("plain text"), None);
        let stated = format!(
            "{text}npm error code ELSPROBLEMS\n\
             npm error missing: luxon@^3.0.4, required by x@1\n\
             npm error invalid: dayjs@1.11.13 /p/node_modules/dayjs\n\
             npm error invalid: dayjs@1.11.13 /p/packages/a/node_modules/dayjs\n\
             npm error extraneous: prettier@2.8.8 /p/node_modules/prettier\n"
        );
        let fact = super::super::read_lines::<NpmLs>(&stated).expect("an npm ls tree");
        assert_eq!(
            fact.lines,
            [
                "npm ls: 6 packages listed; npm's problems (ELSPROBLEMS, 4): 1 missing, 2 \
                 invalid, 1 extraneous; 1 missing optional"
            ]
        );
    }
}
