//! Erlang's EUnit: a test per line when verbose (`  mod_test:198: -main_test_/0-fun-29-
//! (Boolean option)...ok`, `…*failed*`), each failure followed by its stack (`in function
//! mod_test:'-main_test_/0-fun-29-'/0 (test/mod_test.erl, line 198)`, `in call from …`) and the
//! error raised, a term over several lines (`**error:{assertEqual,[{module,mod_test},
//! {line,316}, …, {expected,…}, {value,…}]}`); then the totals, `  Failed: 11.  Skipped: 0.
//! Passed: 90.` or `  All 101 tests passed.`. Recognised by the totals; each failing test is
//! listed with the error's kind, the values it compared and where it was raised.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// Lines of a failure read, and how much of each is kept.
const FAILURE_LINES: usize = 40;
const KEPT_CHARS: usize = 1024;

#[derive(Debug, Default)]
pub(crate) struct Eunit {
    failures: Failures,
    /// The failure being read: its lines read, its raising place, its error, its values.
    block: Option<Block>,
    /// Summed totals: failed, skipped, passed, and how many runs stated them.
    totals: [u64; 3],
    runs: u64,
}

#[derive(Debug, Default)]
struct Block {
    lines: usize,
    /// The first `in function` line, and the first `in call from` one in a file of the
    /// project's (EUnit's own are left out).
    raised_in: Option<String>,
    called_from: Option<String>,
    error: Option<String>,
    values: Vec<String>,
    /// In the error's term, after its first line.
    in_term: bool,
}

impl Shape for Eunit {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(totals) = totals(text) {
            self.end_block();
            for (sum, n) in self.totals.iter_mut().zip(totals) {
                *sum = sum.saturating_add(n);
            }
            self.runs += 1;
            return;
        }
        if let Some((name, result)) = test_line(text) {
            self.end_block();
            if result != "ok" {
                self.failures.push(number, &name);
                self.block = Some(Block::default());
            }
            return;
        }
        if let Some(block) = &mut self.block {
            block.lines += 1;
            if block.lines > FAILURE_LINES {
                self.end_block();
            } else {
                block.read(text);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_block();
        if self.runs == 0 {
            return None;
        }
        let [failed, skipped, passed] = self.totals;
        let total = failed.saturating_add(skipped).saturating_add(passed);
        let line = format!(
            "eunit: {}, {} passed, {} failed, {} skipped",
            plural(total, "test", "tests"),
            thousands(passed),
            thousands(failed),
            thousands(skipped)
        );
        let json = json!({
            "shape": "eunit",
            "runs": self.runs,
            "tests": total,
            "passed": passed,
            "failed": failed,
            "skipped": skipped,
        });
        Some(
            Fact::new("eunit", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'\\*failed\\*' -A 16")
                .supersedes(&["numbered failures"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.block.as_ref().map_or(0, |b| {
                [&b.raised_in, &b.called_from, &b.error]
                    .iter()
                    .map(|s| s.as_ref().map_or(0, String::capacity))
                    .sum::<usize>()
                    + b.values.iter().map(String::capacity).sum::<usize>()
            })
    }
}

impl Block {
    fn read(&mut self, text: &str) {
        if let Some(function) = text.strip_prefix("in function ") {
            self.in_term = false;
            self.raised_in
                .get_or_insert_with(|| cut(function, KEPT_CHARS));
        } else if let Some(caller) = text.strip_prefix("in call from ") {
            self.in_term = false;
            let eunit = caller.starts_with("eunit_");
            if !eunit && self.called_from.is_none() && caller.contains(", line ") {
                self.called_from = Some(cut(caller, KEPT_CHARS));
            }
        } else if let Some(error) = text.strip_prefix("**") {
            // `**error:{assertEqual,[{module,m},` → `error:assertEqual`.
            let head = error.split_once(",[").map_or(error, |(head, _)| head);
            self.error = Some(cut(&head.replacen(":{", ":", 1), KEPT_CHARS));
            self.in_term = error.contains(",[");
        } else if self.in_term {
            let field = text.trim().trim_end_matches("]}").trim_end_matches(',');
            let compared = ["{expected,", "{value,", "{pattern,", "{unexpected_success,"]
                .iter()
                .any(|k| field.starts_with(k));
            if compared && self.values.len() < 4 {
                self.values.push(cut(field, KEPT_CHARS));
            }
            if text.trim_end().ends_with("]}") {
                self.in_term = false;
            }
        }
    }
}

impl Eunit {
    /// The failure read is complete: its details, the error and its values first.
    fn end_block(&mut self) {
        let Some(block) = self.block.take() else {
            return;
        };
        let Some(failure) = self.failures.current() else {
            return;
        };
        if let Some(error) = &block.error {
            failure.add_detail(error);
        }
        for value in &block.values {
            failure.add_detail(value);
        }
        // Where it was raised: the test's own line, or the project's function that called one
        // that failed (`os:get_env/1`, undefined, called from `getopt:get_env_var/3`).
        match (&block.raised_in, &block.called_from) {
            (Some(raised), _) if raised.contains(", line ") => {
                // The test's own generated function says no more than its file and line.
                let place = raised
                    .split_once("'/")
                    .and_then(|(_, rest)| rest.split_once(" ("))
                    .and_then(|(_, place)| place.strip_suffix(')'));
                match place {
                    Some(place) if raised.contains(":'-") => {
                        failure.add_detail(&format!("at {place}"));
                    }
                    _ => {
                        failure.add_detail(&format!("in {raised}"));
                    }
                }
            }
            (raised, Some(caller)) => {
                let raised = raised
                    .as_deref()
                    .map(|r| format!("{r} "))
                    .unwrap_or_default();
                failure.add_detail(&format!("in {raised}called from {caller}"));
            }
            (Some(raised), None) => {
                failure.add_detail(&format!("in {raised}"));
            }
            (None, None) => {}
        }
    }
}

/// `  mod_test:198: -main_test_/0-fun-29- (Boolean option)...[0.003 s] ok` →
/// (`mod_test:198 (Boolean option)`, `ok`); `*failed*`, `*skipped*`, `*timed out*` are the
/// other results.
fn test_line(text: &str) -> Option<(String, &str)> {
    // Cheap first: every line is asked.
    if !(text.ends_with("ok") || text.ends_with('*')) {
        return None;
    }
    let (test, result) = text.rsplit_once("...")?;
    let result = result.trim();
    let result = result
        .strip_prefix('[')
        .and_then(|r| r.split_once("] "))
        .map_or(result, |(_, r)| r);
    let result = match result {
        "ok" => "ok",
        _ => result.strip_prefix('*')?.strip_suffix('*')?,
    };
    let test = test.trim();
    if test.is_empty() || text.starts_with(|c: char| !c.is_whitespace()) {
        return None;
    }
    // The generated function's name says nothing the line and the title do not.
    let name = match test.split_once(": -") {
        Some((place, rest)) => match rest.split_once("- (") {
            Some((_, title)) => format!("{place} ({title}"),
            None => test.to_owned(),
        },
        None => test.to_owned(),
    };
    Some((name, result))
}

/// `  Failed: 11.  Skipped: 0.  Passed: 90.` → [11, 0, 90]; `  All 101 tests passed.` and
/// `  Test passed.` → no failures.
fn totals(text: &str) -> Option<[u64; 3]> {
    let t = text.trim();
    // Indented, as EUnit prints it: Python's doctest says `Test passed.` at the line's start.
    if t == "Test passed." && text.starts_with(' ') {
        return Some([0, 0, 1]);
    }
    if let Some(n) = t
        .strip_prefix("All ")
        .and_then(|r| r.strip_suffix(" tests passed."))
    {
        return Some([0, 0, n.parse().ok()?]);
    }
    let rest = t.strip_prefix("Failed: ")?;
    let mut out = [0; 3];
    for (i, part) in rest.split(".  ").enumerate() {
        let part = part.trim_end_matches('.');
        let n = match i {
            0 => part,
            1 => part.strip_prefix("Skipped: ")?,
            2 => part.strip_prefix("Passed: ")?,
            // `Cancelled: 1.` and what else a later EUnit adds.
            _ => continue,
        };
        out[i] = n.parse().ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_tests_and_totals() {
        assert_eq!(
            test_line("  m_test:198: -main_test_/0-fun-29- (Bool option)...[0.003 s] ok"),
            Some(("m_test:198 (Bool option)".into(), "ok"))
        );
        assert_eq!(
            test_line("  m_test:363: -u_test_/0-fun-5- (Non empty (utf8) arg)...*failed*"),
            Some(("m_test:363 (Non empty (utf8) arg)".into(), "failed"))
        );
        assert_eq!(
            test_line("  m_test: plain_test...*timed out*"),
            Some(("m_test: plain_test".into(), "timed out"))
        );
        assert_eq!(test_line("Loading... done"), None);
        assert_eq!(
            totals("  Failed: 11.  Skipped: 0.  Passed: 90."),
            Some([11, 0, 90])
        );
        assert_eq!(
            totals("  Failed: 1.  Skipped: 0.  Passed: 5.  Cancelled: 2."),
            Some([1, 0, 5])
        );
        assert_eq!(totals("  All 101 tests passed."), Some([0, 0, 101]));
        assert_eq!(totals("Failed: to connect."), None);
    }
}
