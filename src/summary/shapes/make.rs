//! make and ninja build failures: make's `*** [Makefile:951: src/jv.lo] Error 1` (the first is
//! the target that failed, the rest the targets above it), `*** No rule to make target …`,
//! `Target 'x' not remade because of errors`, and ninja's `FAILED: target`.

use serde_json::json;

use super::names::Names;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

#[derive(Debug, Default)]
pub(crate) struct Make {
    /// `[Makefile:951: src/jv.lo] Error 1`, as make prints it after `*** `.
    failed: Names,
    not_remade: u64,
    ninja_failed: Names,
}

impl Shape for Make {
    fn line(&mut self, _number: u64, text: &str) {
        match text.as_bytes().first() {
            Some(b'm' | b'g') => {
                // `make[2]: *** …`, `gmake: *** …`
                let Some((program, rest)) = text.split_once(": ") else {
                    return;
                };
                let program = program.split('[').next().unwrap_or(program);
                if !matches!(program, "make" | "gmake" | "mingw32-make") {
                    return;
                }
                if let Some(failure) = rest.strip_prefix("*** ") {
                    let failure = failure.trim_end_matches(['.', ' ']);
                    let failure = failure.strip_suffix("  Stop").unwrap_or(failure);
                    if !self.failed.contains(failure) {
                        self.failed.push(failure);
                    }
                } else if rest.starts_with("Target '")
                    && rest.ends_with("not remade because of errors.")
                {
                    self.not_remade += 1;
                }
            }
            Some(b'F') => {
                // OUnit's `FAILED: Cases: 58 Tried: 58 …` closes a test run.
                if let Some(target) = text.strip_prefix("FAILED: ")
                    && !target.starts_with("Cases: ")
                {
                    self.ninja_failed.push(target.trim_end());
                }
            }
            _ => {}
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        if self.failed.total == 0 && self.ninja_failed.total == 0 {
            return None;
        }
        let mut lines = Vec::new();
        if self.failed.total > 0 {
            let n = self.failed.total;
            let shown = self.failed.render_joined(n, " · *** ");
            let mut line = format!(
                "make: {} (first is the cause, the rest targets above it): *** {shown}",
                plural(n, "failure", "failures")
            );
            if self.not_remade > 0 {
                line.push_str(&format!("; {} target(s) not remade", self.not_remade));
            }
            lines.push(line);
        }
        if self.ninja_failed.total > 0 {
            let n = self.ninja_failed.total;
            // As ninja words it, so it reads (and greps) the same.
            lines.push(format!(
                "ninja: {} failed: FAILED: {}",
                thousands(n),
                self.ninja_failed.render_joined(n, " · FAILED: ")
            ));
        }
        let json = json!({
            "shape": "make",
            "failed": self.failed.json(),
            "failures": self.failed.total,
            "not_remade": self.not_remade,
            "ninja_failed": self.ninja_failed.json(),
        });
        Some(Fact::new("make", lines, json).hint("'\\*\\*\\*|error:|^FAILED:' -B 2"))
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failed.approx_heap() + self.ninja_failed.approx_heap()
    }
}
