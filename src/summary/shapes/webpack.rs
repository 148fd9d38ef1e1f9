//! webpack's build report: each problem under `ERROR in ./src/a.js 3:10-30` (or `WARNING in
//! …`), with its message on the lines below (`Module not found: Error: Can't resolve './lib' in
//! …`, `Did you mean './lib.js'?`, `Module build failed (from ./node_modules/babel-loader/…):`
//! then the `SyntaxError: …`), and each compilation's verdict (`webpack 5.99.9 compiled with 8
//! errors in 30732 ms`). A configuration that builds several bundles prints the same problems
//! for each: they are counted as printed and listed once. Stated: the verdicts, the problems
//! and each distinct one with its message, errors first. Its `ERROR` lines are no log's.

use std::collections::HashSet;
use std::hash::{BuildHasher, RandomState};

use serde_json::json;

use super::eslint::is_number;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Lines of a problem's message kept.
const MESSAGE_LINES: usize = 2;
/// Distinct verdicts kept.
const VERDICTS_KEPT: usize = 8;
/// Distinct problems told apart; past them, none is listed and their number is unknown.
const PROBLEMS_CHECKED: usize = 1 << 12;

#[derive(Debug, Default)]
pub(crate) struct Webpack {
    errors: Failures,
    warnings: Failures,
    /// Problems printed, distinct or not: errors, warnings.
    printed: [u64; 2],
    /// The problem being read, until a blank line: listed when it closes, if new.
    open: Option<Problem>,
    seen: HashSet<u64>,
    hasher: RandomState,
    /// Each distinct verdict (`compiled with 8 errors`) and how many compilations said it.
    verdicts: Vec<(String, u64)>,
    compilations: u64,
    /// A problem came past those told apart: how many were distinct is unknown.
    unchecked: bool,
}

/// A problem as read so far.
#[derive(Debug)]
struct Problem {
    error: bool,
    line: u64,
    /// `ERROR in ./src/a.js 3:10-30`, or with ts-loader's place (`ERROR in
    /// /p/src/add.ts(9,25)`) once its `[tsl]` line is read.
    header: String,
    /// The first lines of its message.
    message: Vec<String>,
}

impl Webpack {
    /// The problem read is complete: counted, and listed if no problem alike was (one printed
    /// again for another bundle of the same build). Alike is the same header and first line of
    /// message: ts-loader names only a file in its header, a problem's place under it.
    fn close(&mut self) {
        let Some(problem) = self.open.take() else {
            return;
        };
        let checked = self.seen.len() < PROBLEMS_CHECKED;
        self.unchecked |= !checked;
        let key = (&problem.header, problem.message.first());
        if checked && self.seen.insert(self.hasher.hash_one(key)) {
            let list = self.list(problem.error);
            list.push(problem.line, &problem.header);
            if let Some(f) = list.current() {
                for line in &problem.message {
                    f.add_detail(line);
                }
            }
        }
    }

    /// The list of errors or of warnings.
    fn list(&mut self, error: bool) -> &mut Failures {
        if error {
            &mut self.errors
        } else {
            &mut self.warnings
        }
    }
}

impl Shape for Webpack {
    fn line(&mut self, number: u64, text: &str) {
        let first = text.as_bytes().first().copied();
        let problem = match first {
            Some(b'E') if text.starts_with("ERROR in ") => Some(true),
            Some(b'W') if text.starts_with("WARNING in ") => Some(false),
            _ => None,
        };
        if let Some(error) = problem {
            self.close();
            self.printed[usize::from(!error)] += 1;
            self.open = Some(Problem {
                error,
                line: number,
                header: text.trim_end().to_owned(),
                message: Vec::new(),
            });
            return;
        }
        if first == Some(b'w')
            && let Some(rest) = text.strip_prefix("webpack ")
            && let Some((_, verdict)) = rest.split_once(" compiled ")
        {
            self.close();
            let verdict = format!(
                "compiled {}",
                verdict.rsplit_once(" in ").map_or(verdict, |(v, _)| v)
            );
            self.compilations += 1;
            let known = self.verdicts.len();
            match self.verdicts.iter_mut().find(|(v, _)| *v == verdict) {
                Some((_, n)) => *n += 1,
                None if known < VERDICTS_KEPT => self.verdicts.push((verdict, 1)),
                None => {}
            }
            return;
        }
        let Some(problem) = &mut self.open else {
            return;
        };
        let t = text.trim();
        if t.is_empty() {
            self.close();
            return;
        }
        // ts-loader's place of the problem in the file its header names.
        if let Some(place) = t
            .strip_prefix("[tsl] ERROR in ")
            .or_else(|| t.strip_prefix("[tsl] WARNING in "))
        {
            let level = if problem.error { "ERROR" } else { "WARNING" };
            problem.header = format!("{level} in {}", cut(place, 300));
            return;
        }
        // The message's first lines, but for the modules that imported it (` @ ./src/index.js
        // 4:15-43`), the stack of an error thrown in a loader and a place said again
        // (`9:24-38`, `./src/add.ts 9:24-38`); what follows (what `resolve` tried) says
        // nothing more.
        if problem.message.len() >= MESSAGE_LINES
            || t.starts_with("@ ")
            || t.starts_with("at ")
            || is_position(t.rsplit(' ').next().unwrap_or(t))
        {
            return;
        }
        problem.message.push(cut(t, 200));
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.close();
        if self.compilations == 0 {
            return None;
        }
        let verdicts: Vec<String> = self
            .verdicts
            .iter()
            .map(|(v, n)| {
                if *n > 1 {
                    format!("{v} (×{})", thousands(*n))
                } else {
                    v.clone()
                }
            })
            .collect();
        let mut line = format!(
            "webpack: {}: {}",
            plural(self.compilations, "compilation", "compilations"),
            verdicts.join("; ")
        );
        let [errors, warnings] = self.printed;
        if errors + warnings > 0 {
            line.push_str(&format!(
                "; printed: {}, {}",
                plural(errors, "error", "errors"),
                plural(warnings, "warning", "warnings"),
            ));
            if !self.unchecked {
                let distinct = self.errors.total + self.warnings.total;
                line.push_str(&format!(" ({} distinct)", thousands(distinct)));
            }
        }
        let json = json!({
            "shape": "webpack",
            "compilations": self.compilations,
            "verdicts": self.verdicts.iter().map(|(v, n)| json!({"verdict": v, "count": n})).collect::<Vec<_>>(),
            "errors": errors,
            "warnings": warnings,
            "distinct_errors": (!self.unchecked).then_some(self.errors.total),
            "distinct_warnings": (!self.unchecked).then_some(self.warnings.total),
        });
        Some(
            Fact::new("webpack", vec![line], json)
                .failures(self.errors.take_as("webpack errors"))
                .failures(self.warnings.take_as("webpack warnings"))
                .supersedes(&["log"])
                .hint_if_failed(errors + warnings > 0, "'^(ERROR|WARNING) in ' -A 3"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.open.as_ref().map_or(0, |p| {
            p.header.capacity() + p.message.iter().map(String::capacity).sum::<usize>()
        }) + self.errors.approx_heap()
            + self.warnings.approx_heap()
            + self.seen.capacity() * 9
            + self
                .verdicts
                .iter()
                .map(|(v, _)| v.capacity() + 24)
                .sum::<usize>()
    }
}

/// webpack's place of a problem in a module: `9:24-38` or `2:0-28`.
fn is_position(word: &str) -> bool {
    let Some((line, columns)) = word.split_once(':') else {
        return false;
    };
    let (from, to) = columns.split_once('-').unwrap_or((columns, "0"));
    is_number(line) && is_number(from) && is_number(to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_listed_once_and_verdicts_counted() {
        let mut shape = Box::<Webpack>::default();
        let text = "ERROR in ./src/a.js 3:10-30\n\
                    Module not found: Error: Can't resolve './lib' in '/p/src'\n\
                    Did you mean './lib.js'?\n\
                    resolve './lib' in '/p/src'\n \
                    @ ./index.js 4:15-43\n\n\
                    webpack 5.99.9 compiled with 1 error in 803 ms\n\
                    ERROR in ./src/a.js 3:10-30\n\
                    Module not found: Error: Can't resolve './lib' in '/p/src'\n\n\
                    WARNING in ./src/b.js 6:0-76\n\
                    export 'center' (imported as 'center') was not found in '../enums.js'\n\n\
                    webpack 5.99.9 compiled with 1 error and 1 warning in 901 ms\n";
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().unwrap();
        assert_eq!(
            fact.lines,
            [
                "webpack: 2 compilations: compiled with 1 error; compiled with 1 error and 1 \
              warning; printed: 2 errors, 1 warning (2 distinct)"
            ]
        );
        let first = &fact.failures[0].kept[0];
        assert_eq!(first.name, "ERROR in ./src/a.js 3:10-30");
        assert_eq!(
            first.detail,
            [
                "Module not found: Error: Can't resolve './lib' in '/p/src'",
                "Did you mean './lib.js'?"
            ]
        );
        assert_eq!(
            fact.failures[1].kept[0].name,
            "WARNING in ./src/b.js 6:0-76"
        );
    }

    #[test]
    fn past_the_problems_told_apart_the_distinct_count_is_not_said() {
        let mut shape = Box::<Webpack>::default();
        let mut number = 0;
        for i in 0..=PROBLEMS_CHECKED {
            for line in [format!("ERROR in ./src/m{i}.js 1:0-9"), String::new()] {
                number += 1;
                shape.line(number, &line);
            }
        }
        shape.line(
            number + 1,
            "webpack 5.99.9 compiled with 4097 errors in 1 ms",
        );
        let fact = shape.finish().unwrap();
        assert_eq!(
            fact.lines,
            [
                "webpack: 1 compilation: compiled with 4097 errors; printed: 4,097 errors, 0 warnings"
            ]
        );
        assert!(fact.json["distinct_errors"].is_null());
    }
}
