//! The JUnit Platform console launcher (`junit-platform-console-standalone`, JUnit 5): its
//! closing counts (`[      1090 tests found           ]`, `[        10 tests failed          ]`,
//! and the same for containers) and its `Failures (10):` section, each failure as
//! `  JUnit Jupiter:CssTest:nthLastChild_simple()`, its source, `=> exception: message` and the
//! stack. A failure is named by its class and method, with its exception and where it was
//! thrown in the project's own code and, when that is elsewhere, the test's own line.

use serde_json::json;

use super::maven::is_framework;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::thousands;

/// The counts the launcher prints, in its order.
const COUNTS: [&str; 6] = [
    "found",
    "skipped",
    "started",
    "aborted",
    "successful",
    "failed",
];

#[derive(Debug, Default)]
pub(crate) struct Junit {
    /// `tests` and `containers` counts, in the order of [`COUNTS`], once read.
    tests: [Option<u64>; 6],
    containers: [Option<u64>; 6],
    /// In the `Failures (N):` section, and the count it announced.
    in_failures: bool,
    announced: Option<u64>,
    failures: Failures,
    /// The failure being read: its class and method, and its stack so far.
    current: Option<Current>,
}

#[derive(Debug)]
struct Current {
    class: String,
    method: String,
    /// The first frame outside the frameworks, and the test method's own frame.
    own: Option<String>,
    test: Option<String>,
    causes: u8,
}

impl Shape for Junit {
    fn line(&mut self, number: u64, text: &str) {
        if let Some((n, what, count)) = count_line(text) {
            self.end_failure();
            self.in_failures = false;
            let counts = if what == "tests" {
                &mut self.tests
            } else {
                &mut self.containers
            };
            counts[count] = Some(n);
            return;
        }
        if let Some(n) = text
            .strip_prefix("Failures (")
            .and_then(|r| r.strip_suffix("):"))
            .and_then(|n| n.parse().ok())
        {
            self.in_failures = true;
            self.announced = Some(n);
            return;
        }
        if !self.in_failures {
            return;
        }
        if let Some(test) = text.strip_prefix("  ").filter(|t| !t.starts_with(' ')) {
            self.end_failure();
            // `JUnit Jupiter:CssTest:nthLastChild_simple()`: the engine, then the path.
            let mut parts = test.split(':').skip(1);
            let class = parts.next().unwrap_or("").to_owned();
            let method = parts.collect::<Vec<_>>().join(".");
            let name = if method.is_empty() {
                class.clone()
            } else {
                format!("{class}.{method}")
            };
            self.failures.push(number, &name);
            self.current = Some(Current {
                class,
                method,
                own: None,
                test: None,
                causes: 0,
            });
            return;
        }
        let t = text.trim();
        let Some(current) = &mut self.current else {
            return;
        };
        if let Some(exception) = t
            .strip_prefix("=> ")
            .or_else(|| t.strip_prefix("Caused by: "))
        {
            // The exception and, of a chain, its first cause (what it came from).
            if current.causes < 2
                && let Some(f) = self.failures.current()
            {
                f.add_detail(exception);
            }
            current.causes += 1;
            return;
        }
        if t.starts_with("MethodSource [") || t.starts_with("ClassSource [") || t == "[...]" {
            return;
        }
        if t.ends_with(')') && t.contains('(') && !is_framework(t) {
            if current.own.is_none() {
                current.own = Some(t.to_owned());
            }
            let method = current.method.trim_end_matches("()");
            let called = t.split('(').next().unwrap_or("");
            if current.test.is_none()
                && !method.is_empty()
                && called.ends_with(&format!("{}.{method}", current.class))
            {
                current.test = Some(t.to_owned());
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_failure();
        let [found, skipped, _, aborted, successful, failed] = self.tests;
        let (Some(found), Some(failed)) = (found, failed) else {
            return None;
        };
        let mut line = format!(
            "tests: {} found, {} successful, {} failed",
            thousands(found),
            thousands(successful.unwrap_or(0)),
            thousands(failed)
        );
        for (n, word) in [(skipped, "skipped"), (aborted, "aborted")] {
            if let Some(n) = n.filter(|&n| n > 0) {
                line.push_str(&format!(", {} {word}", thousands(n)));
            }
        }
        if let Some(failed) = self.containers[5].filter(|&n| n > 0) {
            line.push_str(&format!(", {} containers failed", thousands(failed)));
        }
        line.push_str(" (JUnit)");
        let json = json!({
            "shape": "junit",
            "tests": COUNTS.iter().zip(self.tests).map(|(k, v)| ((*k).to_owned(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "containers": COUNTS.iter().zip(self.containers).map(|(k, v)| ((*k).to_owned(), json!(v))).collect::<serde_json::Map<_, _>>(),
            "failures_listed": self.announced,
        });
        Some(
            Fact::new("junit", vec![line], json)
                .failures(self.failures.take_as("failed tests"))
                .hint_if_failed(failed > 0, "'^  JUnit |^    => ' -A 8"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap()
            + self.current.as_ref().map_or(0, |c| {
                c.class.capacity()
                    + c.method.capacity()
                    + c.own.as_ref().map_or(0, String::capacity)
                    + c.test.as_ref().map_or(0, String::capacity)
            })
    }
}

impl Junit {
    /// The failure read so far is complete: where it was thrown, and the test's own line.
    fn end_failure(&mut self) {
        let Some(current) = self.current.take() else {
            return;
        };
        let Some(f) = self.failures.current() else {
            return;
        };
        match (current.own, current.test) {
            (Some(own), Some(test)) if own != test => {
                f.add_detail(&format!("at {own}, from {test}"));
            }
            (Some(own), _) => {
                f.add_detail(&format!("at {own}"));
            }
            (None, _) => {}
        }
    }
}

/// `[      1090 tests found           ]` → (1090, `tests`, index in [`COUNTS`]).
fn count_line(text: &str) -> Option<(u64, &str, usize)> {
    let inside = text.strip_prefix('[')?.strip_suffix(']')?.trim();
    let mut words = inside.split_whitespace();
    let n = words.next()?.parse().ok()?;
    let what = words
        .next()
        .filter(|w| *w == "tests" || *w == "containers")?;
    let word = words.next()?;
    let count = COUNTS.iter().position(|c| *c == word)?;
    words.next().is_none().then_some((n, what, count))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_lines() {
        assert_eq!(
            count_line("[      1090 tests found           ]"),
            Some((1090, "tests", 0))
        );
        assert_eq!(
            count_line("[         0 containers failed     ]"),
            Some((0, "containers", 5))
        );
        assert_eq!(
            count_line("[        45 tests skipped         ]"),
            Some((45, "tests", 1))
        );
        assert_eq!(count_line("[ 3 tests passed ]"), None);
        assert_eq!(count_line("[INFO] 3 tests found"), None);
    }
}
