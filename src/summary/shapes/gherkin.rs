//! Runs of Gherkin features — behave, Cucumber (JavaScript; Ruby's and godog's forms alike):
//! each scenario's header (`  Scenario: name  # features/a.feature:15`, behave's outlines
//! `… -- @1.3`, cucumber-js's `1) Scenario: name # features/a.feature:15`), its steps, and,
//! indented under the step that failed, how it failed (`ASSERT FAILED: …`, `expected: 3` / `got: 2`, an
//! exception, a Python traceback); then the failing scenarios listed again (behave's `Failing
//! scenarios:` and `Errored scenarios:`, Cucumber's `Failing Scenarios:`) and the counts,
//! `17 scenarios (2 failed, 15 passed)` or behave's `44 scenarios passed, 17 failed, 6 error,
//! 0 skipped`. Recognised by the counts of scenarios; each failing scenario is listed with its
//! place, its failure and the step that failed.

use serde_json::json;

use super::change::Change;
use super::names::Failures;
use super::pytrace::Traceback;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// Step keywords, in the languages' English form.
const STEP_WORDS: &[&str] = &["Given ", "When ", "Then ", "And ", "But ", "* "];
/// How many lines of a failure are read, and how many of its message are kept.
const FAILURE_LINES: usize = 40;
const MESSAGE_LINES: usize = 2;
/// How much of a scenario's name or a step is kept.
const KEPT_CHARS: usize = 1024;

#[derive(Debug, Default)]
pub(crate) struct Gherkin {
    /// The scenario being read: where its header is, and its name with its place.
    scenario: Option<(u64, String)>,
    /// The step read last (its text, without its place) and its indentation.
    step: Option<(String, usize)>,
    /// The step the current scenario failed at, once its failure is read, and what is read
    /// of that failure now.
    failed: Option<String>,
    reading: Option<Reading>,
    failures: Failures,
    /// In a closing list of failing scenarios, and how many were listed.
    in_list: bool,
    listed: u64,
    /// The counts of scenarios and of steps, as printed after the number (`(2 failed, 15
    /// passed)`, `passed, 17 failed, 6 error, 0 skipped`), each with the total.
    scenarios: Option<(u64, String)>,
    steps: Option<(u64, String)>,
    behave: bool,
    /// Under cucumber-js's `Undefined scenarios:` (or `Pending scenarios:`): each scenario
    /// there fails at a step with no definition, which prints no failure.
    undefined: bool,
    /// Within a step's doc string (`\"\"\"` … `\"\"\"`).
    doc_string: bool,
}

/// A failure being read under its step.
#[derive(Debug)]
struct Reading {
    indent: usize,
    lines: usize,
    /// Lines of its message kept, and whether a frame of its stack was.
    message: usize,
    framed: bool,
    /// A Python traceback being read (its lines without the failure's indentation).
    traceback: Option<Traceback>,
    /// The diff of the values compared, after its legend (`+ expected - actual`).
    diff: Option<Change>,
}

impl Shape for Gherkin {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((total, rest, behave)) = counts(text, "scenario") {
            self.behave |= behave;
            self.scenarios = Some((total, rest));
            self.in_list = false;
            return;
        }
        if let Some((total, rest, _)) = counts(text, "step") {
            self.steps = Some((total, rest));
            return;
        }
        let trimmed = text.trim_start();
        let indent = text.len() - trimmed.len();
        if trimmed.is_empty() {
            return;
        }
        if indent == 0
            && let Some(undefined) = match trimmed.trim_end() {
                "Undefined scenarios:" | "Pending scenarios:" => Some(true),
                "Failed scenarios:" => Some(false),
                _ => None,
            }
        {
            self.end_scenario();
            self.undefined = undefined;
            return;
        }
        if matches!(
            trimmed.trim_end(),
            "Failing scenarios:" | "Errored scenarios:" | "Failing Scenarios:"
        ) {
            self.end_scenario();
            self.in_list = true;
            return;
        }
        if self.in_list {
            match listed(text) {
                Some(name) => self.list(number, &name),
                None => self.in_list = false,
            }
            return;
        }
        if let Some(name) = scenario(trimmed) {
            self.end_scenario();
            self.scenario = Some((number, cut(&name, KEPT_CHARS)));
            return;
        }
        if self.scenario.is_none() {
            return;
        }
        if let Some(step) = step(trimmed)
            && self.reading.as_ref().is_none_or(|r| indent <= r.indent)
        {
            self.stop_reading();
            self.doc_string = false;
            self.step = Some((cut(step, KEPT_CHARS), indent));
            return;
        }
        if let Some(reading) = &mut self.reading {
            if indent < reading.indent || reading.lines >= FAILURE_LINES {
                self.stop_reading();
            } else {
                reading.lines += 1;
                self.read_failure(text.trim_end());
                return;
            }
        }
        let Some((_, step_indent)) = self.step.as_ref() else {
            return;
        };
        // A step's argument: a table's row, or a doc string's lines between its `\"\"\"`.
        let quotes = trimmed.starts_with("\"\"\"");
        let argument = trimmed.starts_with('|') || quotes || self.doc_string;
        self.doc_string ^= quotes;
        if indent > *step_indent && !argument && self.failed.is_none() {
            self.failed = self.step.as_ref().map(|(step, _)| step.clone());
            let (line, name) = self.scenario.clone().unwrap_or_default();
            // A runner may show a failed scenario twice (godog's `--- Failed steps:`).
            if self.was_read(&name) {
                self.failed = None;
                return;
            }
            self.failures.push(line, &name);
            self.reading = Some(Reading {
                indent,
                lines: 1,
                message: 0,
                framed: false,
                traceback: None,
                diff: None,
            });
            self.read_failure(text.trim_end());
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_scenario();
        let (total, counts) = self.scenarios.take()?;
        let tool = if self.behave { "behave" } else { "cucumber" };
        let mut line = format!("{tool}: {} scenarios {counts}", thousands(total));
        if let Some((steps, counts)) = &self.steps {
            line.push_str(&format!("; {} steps {counts}", thousands(*steps)));
        }
        // The closing list names each failing scenario once; those read before it are in it.
        if self.listed > 0 {
            self.failures.total = self.listed;
        }
        let json = json!({
            "shape": "gherkin",
            "tool": tool,
            "scenarios": total,
            "scenario_counts": counts,
            "steps": self.steps.as_ref().map(|(n, c)| json!({"total": n, "counts": c})),
            "listed_failing": self.listed,
        });
        let failed = !self.failures.is_empty();
        Some(
            Fact::new("gherkin", vec![line], json)
                .failures(self.failures.take_as("failing scenarios"))
                .hint_if_failed(failed, "'^ *(Scenario|Example)' -A 12")
                .supersedes(&["numbered failures"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.scenario.as_ref().map_or(0, |(_, s)| s.capacity())
            + self.step.as_ref().map_or(0, |(s, _)| s.capacity())
            + self.failed.as_ref().map_or(0, String::capacity)
            + self.scenarios.as_ref().map_or(0, |(_, s)| s.capacity())
            + self.steps.as_ref().map_or(0, |(_, s)| s.capacity())
    }
}

impl Gherkin {
    fn end_scenario(&mut self) {
        self.stop_reading();
        if let Some(step) = self.failed.take()
            && let Some(f) = self.failures.current()
        {
            f.add_detail(&format!("in step: {step}"));
        } else if self.undefined
            && let (Some((line, name)), Some((step, _))) = (&self.scenario, &self.step)
            && !self.was_read(name)
        {
            self.failures.push(*line, name);
            if let Some(f) = self.failures.current() {
                f.add_detail(&format!("undefined step: {step}"));
            }
        }
        self.scenario = None;
        self.step = None;
    }

    /// The end of a failure's lines: the change its diff shows is said, if no frame said it.
    fn stop_reading(&mut self) {
        if let Some(Reading {
            diff: Some(diff),
            message,
            ..
        }) = self.reading.take()
            && message < MESSAGE_LINES
            && let Some(f) = self.failures.current()
        {
            for detail in diff.details() {
                f.add_detail(&detail);
            }
        }
    }

    /// A line of the current scenario's failure.
    fn read_failure(&mut self, line: &str) {
        let Some(reading) = &mut self.reading else {
            return;
        };
        let Some(failure) = self.failures.current() else {
            return;
        };
        let text = line.trim_start();
        // The traceback as Python prints it, at the line's start.
        let dedented = line.get(reading.indent..).unwrap_or(text);
        match &mut reading.traceback {
            Some(traceback) => {
                if let Some(raised) = traceback.line(dedented) {
                    for detail in raised.detail() {
                        failure.add_detail(detail);
                    }
                    reading.traceback = None;
                }
            }
            None if text.starts_with("Traceback (most recent call last)") => {
                let mut traceback = Traceback::default();
                traceback.line(dedented);
                reading.traceback = Some(traceback);
            }
            // The first frame of a stack: where it failed, after how the values differ.
            None if text.starts_with("at ") => {
                if let Some(diff) = reading.diff.take()
                    && reading.message < MESSAGE_LINES
                {
                    for detail in diff.details() {
                        failure.add_detail(&detail);
                    }
                }
                if !reading.framed {
                    reading.framed = true;
                    failure.add_detail(text);
                }
            }
            // The diff of the values, when the message's lines left room to say how they
            // differ (not after `3 !== 6`).
            None if text == "+ expected - actual" || text == "+ actual - expected" => {
                reading.diff = Some(Change::at(line.len() - text.len()));
            }
            None if reading.diff.is_some() => {
                if let Some(diff) = &mut reading.diff {
                    diff.line(line.len() - text.len(), text);
                }
            }
            // The message's first lines (`expected: 3`, `got: 2`); not what it printed
            // (behave's `Captured stdout:`).
            None => {
                let said = text.starts_with("Captured ");
                if reading.message < MESSAGE_LINES && !said {
                    reading.message += 1;
                    failure.add_detail(text);
                }
            }
        }
    }

    /// Whether the failure of the scenario `name` (its place first) is kept already.
    fn was_read(&self, name: &str) -> bool {
        let place = name.split(' ').next();
        self.failures
            .iter()
            .any(|f| f.name.split(' ').next() == place)
    }

    /// A failing scenario of the closing list: added if its failure was not read.
    fn list(&mut self, number: u64, name: &str) {
        self.listed += 1;
        if !self.was_read(name) {
            self.failures.push(number, name);
        }
    }
}

/// `Scenario: name  # features/a.feature:15` (cucumber-js's `1) Scenario: …` or `1) name # …`) →
/// `features/a.feature:15 name`.
fn scenario(trimmed: &str) -> Option<String> {
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let numbered = trimmed[digits..].strip_prefix(") ").filter(|_| digits > 0);
    let t = numbered.unwrap_or(trimmed);
    let keyword = [
        "Scenario:",
        "Scenario Outline:",
        "Scenario Template:",
        "Example:",
    ]
    .iter()
    .find_map(|k| t.strip_prefix(k));
    // cucumber-js 10 numbers its scenarios without their keyword.
    let rest = keyword.or(numbered)?;
    let (name, place) = rest.rsplit_once(" # ")?;
    let place = place.trim();
    let (file, line) = place.rsplit_once(':')?;
    if !file.ends_with(".feature") || line.parse::<u64>().is_err() {
        return None;
    }
    Some(format!("{place} {}", name.trim()))
}

/// A step line (`Then the slug is "a"   # steps.py:45`, cucumber-js's `✖ Then …`) → its text.
fn step(trimmed: &str) -> Option<&str> {
    let t = ["✔ ", "✖ ", "- ", "? ", "ℹ "]
        .iter()
        .find_map(|mark| trimmed.strip_prefix(mark))
        .unwrap_or(trimmed);
    STEP_WORDS.iter().find(|w| t.starts_with(*w))?;
    let text = t.rsplit_once(" # ").map_or(t, |(text, _)| text);
    Some(text.trim_end())
}

/// A line of a closing list of failing scenarios: behave's `  features/a.feature:15  Name`,
/// Cucumber's `cucumber features/a.feature:15 # Scenario: Name` → `features/a.feature:15 Name`.
fn listed(text: &str) -> Option<String> {
    let t = text.trim();
    let t = t.strip_prefix("cucumber ").unwrap_or(t);
    let (place, name) = t.split_once(' ').unwrap_or((t, ""));
    let (file, line) = place.rsplit_once(':')?;
    if !file.ends_with(".feature") || line.parse::<u64>().is_err() {
        return None;
    }
    let name = name.trim_start_matches([' ', '#']).trim();
    let name = ["Scenario: ", "Scenario Outline: ", "Example: "]
        .iter()
        .find_map(|k| name.strip_prefix(k))
        .unwrap_or(name);
    Some(format!("{place} {name}").trim_end().to_owned())
}

/// Counts of scenarios or steps (`noun`): Cucumber's `17 scenarios (2 failed, 15 passed)` →
/// (17, `(2 failed, 15 passed)`, false); behave's `44 scenarios passed, 17 failed, 6 error, 0
/// skipped` → (67, `(44 passed, 17 failed, 6 error, 0 skipped)`, true).
fn counts(text: &str, noun: &str) -> Option<(u64, String, bool)> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let rest = text[digits..].strip_prefix(' ')?.strip_prefix(noun)?;
    let first: u64 = text[..digits].parse().ok()?;
    let rest = rest.strip_prefix('s').unwrap_or(rest);
    let rest = rest.trim_end();
    if let Some(inner) = rest.strip_prefix(" (").and_then(|r| r.strip_suffix(')')) {
        let each = inner.split(", ").map(count_word);
        each.clone().all(|c| c.is_some()).then_some(())?;
        let sum = each
            .flatten()
            .fold(0u64, |sum, (n, _)| sum.saturating_add(n));
        return (sum == first).then(|| (first, format!("({inner})"), false));
    }
    if rest.is_empty() {
        return (first == 0).then(|| (0, String::new(), false));
    }
    // behave: `passed, 17 failed, 6 error, 0 skipped[, 0 untested]`.
    let rest = rest.strip_prefix(" passed, ")?;
    let mut total = first;
    for part in rest.split(", ") {
        total = total.saturating_add(count_word(part)?.0);
    }
    Some((
        total,
        format!("({} passed, {rest})", thousands(first)),
        true,
    ))
}

/// `17 failed` → (17, `failed`).
fn count_word(part: &str) -> Option<(u64, &str)> {
    let (n, word) = part.split_once(' ')?;
    let word_ok = !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase());
    word_ok.then_some(())?;
    Some((n.parse().ok()?, word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_counts_of_each_runner() {
        assert_eq!(
            counts("17 scenarios (2 failed, 15 passed)", "scenario"),
            Some((17, "(2 failed, 15 passed)".into(), false))
        );
        assert_eq!(
            counts("1 scenario (1 failed)", "scenario"),
            Some((1, "(1 failed)".into(), false))
        );
        assert_eq!(
            counts(
                "44 scenarios passed, 17 failed, 6 error, 0 skipped",
                "scenario"
            ),
            Some((
                67,
                "(44 passed, 17 failed, 6 error, 0 skipped)".into(),
                true
            ))
        );
        assert_eq!(
            counts("172 steps passed, 17 failed, 6 error, 6 skipped", "step").map(|c| c.0),
            Some(201)
        );
        // Counts that do not add up, or that count something else.
        assert_eq!(counts("3 scenarios (2 failed, 2 passed)", "scenario"), None);
        assert_eq!(counts("3 scenarios were run", "scenario"), None);
        assert_eq!(counts("12 steps (1 failed)", "scenario"), None);
    }

    #[test]
    fn reads_scenarios_and_lists() {
        assert_eq!(
            scenario("Scenario Outline: Entities are decoded -- @1.3   # features/e.feature:15"),
            Some("features/e.feature:15 Entities are decoded -- @1.3".into())
        );
        assert_eq!(
            scenario("1) Scenario: eat 5 # features/godogs.feature:6"),
            Some("features/godogs.feature:6 eat 5".into())
        );
        assert_eq!(
            scenario("2) Attach a buffer # features/attachments.feature:17"),
            Some("features/attachments.feature:17 Attach a buffer".into())
        );
        assert_eq!(scenario("Scenario: no place"), None);
        assert_eq!(scenario("Attach a buffer # features/a.feature:17"), None);
        assert_eq!(
            listed("  features/e.feature:15  Entities are decoded -- @1.3 "),
            Some("features/e.feature:15 Entities are decoded -- @1.3".into())
        );
        assert_eq!(
            listed("cucumber features/a.feature:4 # Scenario: Adding"),
            Some("features/a.feature:4 Adding".into())
        );
        assert_eq!(listed("1 feature passed, 4 failed"), None);
    }
}
