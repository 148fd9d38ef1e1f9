//! Criterion's benchmarks, under `cargo bench`: `Benchmarking NAME` as each starts (then
//! `Benchmarking NAME: Warming up …`, `…: Collecting …`, `…: Analyzing`), its result (`NAME`,
//! then `time:   [low estimate high]`, and with a baseline `change:` and criterion's verdict,
//! `Performance has regressed.` or `improved.`). A panic while a benchmark runs is that
//! benchmark's: the failure is named by its `Benchmarking NAME` line as printed, with the
//! panic's place and message. Counted: the benchmarks measured, those that panicked, and the
//! verdicts, regressions named.

use serde_json::json;

use super::crash::Crashes;
use super::names::{Failures, Names};
use super::{Fact, Shape};
use crate::format::{cut, plural, thousands};

/// What follows a benchmark's name on the lines of its run.
const STEPS: [&str; 4] = [": Warming up", ": Collecting", ": Analyzing", ": Complete"];

#[derive(Debug, Default)]
pub(crate) struct Criterion {
    started: u64,
    measured: u64,
    /// The benchmark running: where it started, and its name.
    running: Option<(u64, String)>,
    /// The line before, which names a result (`NAME`, then `time: […]` under it).
    before: String,
    /// The last result's name, which a verdict is of.
    result: Option<String>,
    regressed: Names,
    improved: u64,
    crashes: Crashes,
    failures: Failures,
}

impl Shape for Criterion {
    fn line(&mut self, number: u64, text: &str) {
        // Nothing is criterion's before a benchmark starts: most outputs are passed over here.
        if self.started == 0 && !text.starts_with("Benchmarking ") {
            return;
        }
        let (raised, consumed) = self.crashes.line(text);
        if let Some(raised) = raised {
            self.panicked(number, raised.detail());
        }
        if consumed {
            return;
        }
        if let Some(rest) = text.strip_prefix("Benchmarking ") {
            let is_step = STEPS.iter().any(|s| rest.contains(s));
            if !is_step && !rest.is_empty() {
                self.started += 1;
                self.running = Some((number, cut(rest, 200)));
            }
        } else if text.starts_with(' ')
            && let Some(range) = text.trim_start().strip_prefix("time:")
            && range.trim_start().starts_with('[')
        {
            self.measured += 1;
            self.running = None;
            self.result = Some(cut(self.before.trim(), 200));
        } else if text.trim() == "Performance has regressed." {
            if let Some(name) = self.result.take() {
                self.regressed.push(&name);
            }
        } else if text.trim() == "Performance has improved." {
            self.improved += 1;
        }
        if !text.starts_with(' ') {
            self.before.clear();
            self.before.push_str(&text[..text.floor_char_boundary(200)]);
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if let Some(raised) = self.crashes.finish() {
            self.panicked(u64::MAX, raised.detail());
        }
        if self.started == 0 || (self.measured == 0 && self.failures.is_empty()) {
            return None;
        }
        let panicked = self.failures.total;
        let mut line = format!(
            "criterion: {} measured, {} panicked",
            plural(self.measured, "benchmark", "benchmarks"),
            thousands(panicked)
        );
        if self.regressed.total > 0 {
            line.push_str(&format!(
                "; regressed ({}): {}",
                thousands(self.regressed.total),
                self.regressed.render(self.regressed.total)
            ));
        }
        if self.improved > 0 {
            line.push_str(&format!("; improved: {}", thousands(self.improved)));
        }
        let json = json!({
            "shape": "criterion",
            "started": self.started,
            "measured": self.measured,
            "panicked": panicked,
            "regressed": self.regressed.total,
            "improved": self.improved,
        });
        let failures = self.failures.take_as("benchmarks that panicked");
        Some(
            Fact::new("criterion", vec![line], json)
                .failures(failures)
                .hint_if_failed(panicked > 0, "'^Benchmarking [^:]*$|panicked at' -A 2")
                .supersedes(&["log"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.running.as_ref().map_or(0, |r| r.1.capacity())
            + self.before.capacity()
            + self.result.as_ref().map_or(0, String::capacity)
            + self.regressed.approx_heap()
            + self.failures.approx_heap()
    }
}

impl Criterion {
    /// A panic: the failure of the benchmark running, or of none (a panic before or between
    /// them, in the bench program's own set-up).
    fn panicked<'a>(&mut self, number: u64, detail: impl Iterator<Item = &'a str>) {
        match self.running.take() {
            Some((at, name)) => self.failures.push(at, &format!("Benchmarking {name}")),
            None => self.failures.push(number.min(u64::MAX - 1), ""),
        }
        if let Some(f) = self.failures.current() {
            for d in detail {
                f.add_detail(d);
            }
        }
    }
}
