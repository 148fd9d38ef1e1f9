//! bandit, the Python security linter: each issue as `>> Issue: [B602:subprocess_popen_…]
//! message`, then `   Severity: High   Confidence: High`, its CWE and link, `   Location:
//! ./a/b.py:1365:27` and the code around it; then the lines of code scanned and the issues by
//! severity (`\t\tHigh: 1`), by which the run is recognised. The first issue of each test is
//! listed, the most severe first, the rarest first within a severity.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};
use crate::format::thousands;

const SEVERITIES: [&str; 4] = ["Undefined", "Low", "Medium", "High"];

#[derive(Debug)]
pub(crate) struct Bandit {
    diagnostics: Diagnostics,
    /// The issue being read: its line, test id and message, and its severity once read.
    pending: Option<Pending>,
    /// Each test id seen and the highest severity of its issues (index in `SEVERITIES`).
    severities: Vec<(String, usize)>,
    /// Totals by severity, as bandit states them, and the lines of code scanned.
    in_totals: bool,
    totals: Option<[u64; 4]>,
    lines_of_code: Option<u64>,
}

impl Default for Bandit {
    fn default() -> Bandit {
        Bandit {
            // A test's repeats (1,200 `assert` uses) say nothing new.
            diagnostics: Diagnostics::firsts_only(),
            pending: None,
            severities: Vec::new(),
            in_totals: false,
            totals: None,
            lines_of_code: None,
        }
    }
}

#[derive(Debug)]
struct Pending {
    line: u64,
    code: String,
    message: String,
    severity: Option<usize>,
}

/// How many test ids are remembered with their severity.
const TESTS_KEPT: usize = 256;

impl Shape for Bandit {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(issue) = text.strip_prefix(">> Issue: [") {
            self.pending = issue.split_once("] ").map(|(test, message)| {
                let code = test.split(':').next().unwrap_or(test);
                Pending {
                    line: number,
                    code: code.to_owned(),
                    message: message.to_owned(),
                    severity: None,
                }
            });
            return;
        }
        if let Some(p) = &mut self.pending {
            if let Some(rest) = text.strip_prefix("   Severity: ") {
                let word = rest.split_whitespace().next().unwrap_or("");
                p.severity = SEVERITIES.iter().position(|s| *s == word);
            } else if let Some(place) = text.strip_prefix("   Location: ") {
                self.settle(place.trim());
            }
            return;
        }
        let t = text.trim();
        if t == "Total issues (by severity):" {
            self.in_totals = true;
            self.totals = Some([0; 4]);
            return;
        }
        if self.in_totals {
            let read = t.split_once(": ").and_then(|(word, n)| {
                let i = SEVERITIES.iter().position(|s| *s == word)?;
                Some((i, n.parse::<u64>().ok()?))
            });
            match (read, &mut self.totals) {
                (Some((i, n)), Some(totals)) => totals[i] = n,
                _ => self.in_totals = false,
            }
            return;
        }
        if let Some(n) = t.strip_prefix("Total lines of code: ") {
            self.lines_of_code = n.parse().ok();
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let totals = self.totals?;
        let issues = totals.iter().fold(0u64, |sum, n| sum.saturating_add(*n));
        let by_severity: Vec<String> = SEVERITIES
            .iter()
            .zip(totals)
            .rev()
            .filter(|(s, n)| *n > 0 || **s != "Undefined")
            .map(|(s, n)| format!("{s}: {}", thousands(n)))
            .collect();
        let mut line = format!(
            "bandit: {} issues ({})",
            thousands(issues),
            by_severity.join(", ")
        );
        if let Some(loc) = self.lines_of_code {
            line.push_str(&format!("; {} lines of code", thousands(loc)));
        }
        let d = &self.diagnostics;
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; tests: {codes}"));
        }
        let json = json!({
            "shape": "bandit",
            "issues": issues,
            "by_severity": {"high": totals[3], "medium": totals[2], "low": totals[1],
                "undefined": totals[0]},
            "lines_of_code": self.lines_of_code,
            "diagnostics": d.json("bandit"),
        });
        // The most severe first.
        let rank = |code: &str| {
            let severity = self
                .severities
                .iter()
                .find(|(c, _)| c == code)
                .map_or(0, |(_, s)| *s);
            (3 - severity.min(3)) as u8
        };
        let mut failures = d.failures(rank);
        failures.heading = "first issue of each test, the most severe first";
        Some(
            Fact::new("bandit", vec![line], json)
                .failures(failures)
                .hint_if_failed(issues > 0, "'Severity: (High|Medium)' -B 1 -A 3"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self
                .severities
                .iter()
                .map(|(c, _)| c.capacity() + 32)
                .sum::<usize>()
            + self
                .pending
                .as_ref()
                .map_or(0, |p| p.code.capacity() + p.message.capacity())
    }
}

impl Bandit {
    /// The issue read is complete at its location.
    fn settle(&mut self, place: &str) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let severity = p.severity.unwrap_or(0);
        let room = self.severities.len() < TESTS_KEPT;
        match self.severities.iter_mut().find(|(c, _)| *c == p.code) {
            Some((_, s)) => *s = (*s).max(severity),
            None if room => self.severities.push((p.code.clone(), severity)),
            None => {}
        }
        let header = format!(
            "{place}: {} {} ({})",
            p.code, p.message, SEVERITIES[severity]
        );
        self.diagnostics
            .add(p.line, Level::Error, Some(place), &header, Some(&p.code));
    }
}
