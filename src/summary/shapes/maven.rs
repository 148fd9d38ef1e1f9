//! Maven: Surefire's (and Failsafe's) test report, and javac's errors when a compile fails.
//! Each test class gets `Tests run: 17, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s
//! <<< FAILURE! - in org.x.JsonerTest`, each failing test a header (`testX(org.x.JsonerTest)
//! Time elapsed: 0 s  <<< FAILURE!`, Surefire 3: `org.x.JsonerTest.testX -- Time elapsed: …`)
//! over its exception and stack; each module's `Results:` end in its totals (`Tests run: 73,
//! Failures: 5, Errors: 1, Skipped: 0`), summed over the modules of a build. A failed compile
//! lists javac's errors (`/path/X.java:[72,46] cannot find symbol`, with `symbol:` and
//! `location:` under it) after `COMPILATION ERROR :`, then their count (`3 errors`). Lines carry
//! Maven's level (`[INFO] `, `[ERROR] `); the exception and stack lines do not.

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// Lines of an exception's message kept (the exception, and what follows before the stack).
const MESSAGE_LINES: usize = 3;

/// Frames of a stack read for one of the test's own, past the frameworks' (an untrimmed JUnit
/// stack has a handful before it).
const FRAMES_READ: usize = 40;

#[derive(Debug, Default)]
pub(crate) struct Maven {
    /// Summed `Results:` totals (tests, failures, errors, skipped) and how many there were.
    results: [u64; 4],
    modules: u64,
    /// Summed per-class totals, for a run cut short before its `Results:`.
    classes: [u64; 4],
    failures: Failures,
    /// The failures listed under `Results:` (`  JsonerTest.testX:176 expected:<…>`), read when
    /// no test's own header was seen (a trimmed or redirected run).
    listed: Failures,
    reading: Reading,
    /// javac's errors of a failed compile, and the counts it printed (`3 errors`).
    compile: Failures,
    compile_counted: u64,
    /// `BUILD SUCCESS` or `BUILD FAILURE`, the last one.
    verdict: Option<&'static str>,
    /// The first frame of the stack being read, while all its frames are the frameworks', and
    /// how many frames were read.
    first_frame: Option<String>,
    frames: usize,
}

#[derive(Debug, Default, PartialEq, Eq)]
enum Reading {
    #[default]
    Nothing,
    /// A failing test's exception and stack, up to its first frame.
    Exception,
    /// The `Failures:`/`Errors:` lists of `Results:`.
    Listed,
    /// javac's errors, after `COMPILATION ERROR :`.
    Compile,
}

impl Shape for Maven {
    fn line(&mut self, number: u64, text: &str) {
        let (level, rest) = level(text);
        if self.reading == Reading::Exception {
            // Output without Maven's levels (some plugins print so) has the next header or a
            // class's totals unprefixed too.
            if level.is_none() && !rest.starts_with("Tests run: ") && failure_header(rest).is_none()
            {
                self.exception_line(text);
                return;
            }
            self.end_exception();
        }
        if level.is_none() && self.reading != Reading::Compile {
            // Unprefixed Surefire output (`mvn -B` into a file has the level; some plugins
            // print without it).
            if !rest.starts_with("Tests run: ") && failure_header(rest).is_none() {
                return;
            }
        }
        if let Some(counts) = rest.strip_prefix("Tests run: ").and_then(counts) {
            self.reading = Reading::Nothing;
            let sums = if counts.1 {
                &mut self.classes
            } else {
                self.modules += 1;
                &mut self.results
            };
            for (sum, n) in sums.iter_mut().zip(counts.0) {
                *sum = sum.saturating_add(n);
            }
            return;
        }
        if let Some(name) = failure_header(rest) {
            self.failures.push(number, &name);
            if let Some(failure) = self.failures.current() {
                failure.group = name.find('.');
            }
            self.reading = Reading::Exception;
            return;
        }
        match rest.trim_end() {
            "Results:" => return,
            "Failures:" | "Errors:" | "Flakes:" => {
                self.reading = Reading::Listed;
                return;
            }
            "COMPILATION ERROR :" => {
                self.reading = Reading::Compile;
                return;
            }
            "BUILD SUCCESS" => self.verdict = Some("BUILD SUCCESS"),
            "BUILD FAILURE" => self.verdict = Some("BUILD FAILURE"),
            _ => {}
        }
        match self.reading {
            Reading::Listed => self.listed_line(number, rest),
            Reading::Compile => self.compile_line(number, level, rest),
            _ => {}
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_exception();
        let mut lines = Vec::new();
        let (totals, from) = if self.modules > 0 {
            (self.results, "")
        } else {
            (self.classes, ", from its test classes")
        };
        let [tests, failed, errors, skipped] = totals;
        let ran = self.modules > 0 || tests > 0;
        if ran {
            let passed = tests.saturating_sub(failed + errors + skipped);
            let mut line = format!(
                "tests: {} run, {} passed, {} failed, {}, {} skipped (maven surefire{from}",
                thousands(tests),
                thousands(passed),
                thousands(failed),
                plural(errors, "error", "errors"),
                thousands(skipped),
            );
            if self.modules > 1 {
                line.push_str(&format!(", {} modules", thousands(self.modules)));
            }
            line.push(')');
            lines.push(line);
        }
        let compiled = !self.compile.is_empty();
        if compiled {
            let counted = self.compile_counted.max(self.compile.total);
            lines.push(format!(
                "javac: {} (maven)",
                plural(counted, "error", "errors")
            ));
        }
        if lines.is_empty() {
            return None;
        }
        if let Some(verdict) = self.verdict {
            let last = lines.len() - 1;
            lines[last].push_str(&format!("; {verdict}"));
        }
        let json = json!({
            "shape": "maven",
            "modules": self.modules,
            "tests": tests,
            "failed": failed,
            "errors": errors,
            "skipped": skipped,
            "compile_errors": self.compile_counted.max(self.compile.total),
            "verdict": self.verdict,
        });
        let failures = if self.failures.is_empty() {
            self.listed.take_as("failed tests and errors")
        } else {
            self.failures.take_as("failed tests and errors")
        };
        let hint = if compiled {
            r"'\.java:\[[0-9]+,[0-9]+\] ' -A 2"
        } else {
            "'<<< (FAILURE|ERROR)!' -A 3"
        };
        Some(
            Fact::new("maven", lines, json)
                .failures(self.compile.take_as("compile errors"))
                .failures(failures)
                .hint_if_failed(compiled || failed + errors > 0, hint),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.failures.approx_heap() + self.listed.approx_heap() + self.compile.approx_heap()
    }
}

impl Maven {
    /// A line under a failing test's header: its exception, then its stack, whose first frame
    /// outside the test frameworks and the JDK ends the reading (`at
    /// org.x.JsonerTest.testX(JsonerTest.java:176)` → `at JsonerTest.java:176`). Surefire
    /// trims the stack to the test's frames by default; untrimmed, it starts in
    /// `org.junit.Assert`.
    fn exception_line(&mut self, text: &str) {
        let t = text.trim();
        let Some(failure) = self.failures.current() else {
            self.reading = Reading::Nothing;
            return;
        };
        if let Some(frame) = t.strip_prefix("at ") {
            let place = frame
                .rsplit_once('(')
                .and_then(|(_, p)| p.strip_suffix(')'))
                .unwrap_or(frame);
            if is_framework(frame) {
                self.first_frame.get_or_insert_with(|| place.to_owned());
                self.frames += 1;
                if self.frames >= FRAMES_READ {
                    self.end_exception();
                }
            } else {
                failure.add_detail(&format!("at {place}"));
                self.first_frame = None;
                self.end_exception();
            }
        } else if self.first_frame.is_some() {
            // `Caused by: …` or the next test: no frame of the test's own.
            self.end_exception();
        } else if !t.is_empty() && failure.detail.len() < MESSAGE_LINES {
            failure.add_detail(t);
        }
    }

    /// The stack read ended without a frame of the test's own: its first frame is the place.
    fn end_exception(&mut self) {
        if let Some(place) = self.first_frame.take()
            && let Some(failure) = self.failures.current()
        {
            failure.add_detail(&format!("at {place}"));
        }
        self.frames = 0;
        self.reading = Reading::Nothing;
    }

    /// `  JsonerTest.testX:176 expected:<…>` or `  JsonObjectTest.testY:151 » ClassCast …`.
    fn listed_line(&mut self, number: u64, rest: &str) {
        let Some(entry) = rest.strip_prefix("  ") else {
            self.reading = Reading::Nothing;
            return;
        };
        let entry = entry.trim();
        if entry.starts_with("Run ") {
            return;
        }
        let (name, message) = entry.split_once(' ').unwrap_or((entry, ""));
        let (name, at) = name.rsplit_once(':').unwrap_or((name, ""));
        self.listed.push(number, name);
        if let Some(failure) = self.listed.current() {
            failure.group = name.find('.');
            failure.add_detail(message.trim_start_matches("» "));
            if !at.is_empty() {
                failure.add_detail(&format!("at line {at}"));
            }
        }
    }

    /// `[ERROR] /p/X.java:[72,46] cannot find symbol`, its `  symbol: …` lines, `3 errors`.
    fn compile_line(&mut self, number: u64, level: Option<&str>, rest: &str) {
        if let Some(count) = rest
            .trim_end()
            .strip_suffix(" errors")
            .or_else(|| rest.trim_end().strip_suffix(" error"))
            .and_then(|n| n.parse::<u64>().ok())
        {
            self.compile_counted += count;
            self.reading = Reading::Nothing;
            return;
        }
        if rest.contains(".java:[") {
            self.compile.push(number, rest.trim_end());
        } else if level.is_none() || rest.starts_with("  ") {
            if let Some(failure) = self.compile.current() {
                failure.add_detail(rest);
            }
        } else if !rest.starts_with("---") {
            self.reading = Reading::Nothing;
        }
    }
}

/// A frame of the JDK, a test framework or Surefire, which is where no test failed:
/// `org.junit.Assert.assertEquals(Assert.java:117)`.
pub(crate) fn is_framework(frame: &str) -> bool {
    const PACKAGES: [&str; 13] = [
        "java.",
        "javax.",
        "jdk.",
        "sun.",
        "org.junit.",
        "junit.",
        "org.opentest4j.",
        "org.assertj.",
        "org.hamcrest.",
        "org.mockito.",
        "org.testng.",
        "org.apache.maven.surefire.",
        "kotlin.test.",
    ];
    // A module's frames name it first: `java.base/java.lang.reflect.Method.invoke(…)`.
    let frame = match frame.split_once('/') {
        Some((module, rest)) if !module.contains('(') => rest,
        _ => frame,
    };
    PACKAGES.iter().any(|p| frame.starts_with(p))
}

/// Maven's level and the line without it: `[ERROR] x` → (`Some("ERROR")`, `x`).
fn level(text: &str) -> (Option<&str>, &str) {
    if let Some(rest) = text.strip_prefix('[')
        && let Some((level, after)) = rest.split_once("] ")
        && matches!(level, "INFO" | "ERROR" | "WARNING" | "WARN" | "DEBUG")
    {
        return (Some(level), after);
    }
    (None, text)
}

/// `73, Failures: 5, Errors: 1, Skipped: 0` → the four counts, and whether it is a class's
/// line (`, Time elapsed: …` follows) rather than a total.
fn counts(text: &str) -> Option<([u64; 4], bool)> {
    let mut parts = text.split(", ");
    let mut numbers = [0; 4];
    for (n, label) in numbers
        .iter_mut()
        .zip(["", "Failures: ", "Errors: ", "Skipped: "])
    {
        let part = parts.next()?.strip_prefix(label)?;
        let digits = part.split(' ').next()?;
        *n = digits.parse().ok()?;
    }
    let class = parts.any(|p| p.starts_with("Time elapsed"));
    Some((numbers, class))
}

/// The test a header names: `testX(org.x.JsonerTest)  Time elapsed: 0 s  <<< FAILURE!` →
/// `JsonerTest.testX`; `org.x.JsonerTest.testX -- Time elapsed: …  <<< ERROR!` →
/// `JsonerTest.testX`.
fn failure_header(rest: &str) -> Option<String> {
    let t = rest.trim_end();
    if !(t.ends_with("<<< FAILURE!") || t.ends_with("<<< ERROR!")) || t.starts_with("Tests run:") {
        return None;
    }
    let name = t.split(" Time elapsed").next()?.trim_end();
    let name = name.strip_suffix(" --").unwrap_or(name).trim();
    if name.is_empty() {
        return None;
    }
    let short = |class: &str| class.rsplit('.').next().unwrap_or(class).to_owned();
    Some(
        match name.strip_suffix(')').and_then(|n| n.split_once('(')) {
            Some((method, class)) => format!("{}.{method}", short(class)),
            None => match name.rsplit_once('.') {
                Some((class, method)) => format!("{}.{method}", short(class)),
                None => name.to_owned(),
            },
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Surefire 3 with `trimStackTrace` off: the stack starts in JUnit's frames; the place is
    /// the test's own frame under them. Without Maven's levels, the next header still starts
    /// the next failure.
    #[test]
    fn an_untrimmed_stack_gives_the_test_s_own_frame() {
        let mut maven = Box::new(Maven::default());
        let lines = [
            "[INFO] Running org.x.FooTest",
            "[ERROR] org.x.FooTest.testBar -- Time elapsed: 0.01 s <<< FAILURE!",
            "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>",
            "\tat org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)",
            "\tat org.junit.jupiter.api.Assertions.assertEquals(Assertions.java:150)",
            "\tat org.x.FooTest.testBar(FooTest.java:12)",
            "\tat java.base/java.lang.reflect.Method.invoke(Method.java:568)",
            "org.x.FooTest.testBaz -- Time elapsed: 0 s <<< ERROR!",
            "java.lang.NullPointerException",
            "\tat java.base/java.util.Objects.requireNonNull(Objects.java:209)",
            "",
            "[INFO] Tests run: 2, Failures: 1, Errors: 1, Skipped: 0",
        ];
        for (i, line) in lines.iter().enumerate() {
            maven.line(i as u64 + 1, line);
        }
        let fact = maven.finish().unwrap();
        let shown = fact.failures[0].json().to_string();
        assert!(
            shown.contains(r#""name":"FooTest.testBar","detail":["org.opentest4j.AssertionFailedError: expected: <1> but was: <2>","at FooTest.java:12"]"#),
            "{shown}"
        );
        assert!(
            shown.contains(r#""name":"FooTest.testBaz","detail":["java.lang.NullPointerException","at Objects.java:209"]"#),
            "{shown}"
        );
    }

    #[test]
    fn surefire_lines() {
        assert_eq!(
            counts("73, Failures: 5, Errors: 1, Skipped: 0"),
            Some(([73, 5, 1, 0], false))
        );
        assert_eq!(
            counts(
                "17, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.001 s <<< FAILURE! - in org.x.T"
            ),
            Some(([17, 1, 0, 0], true))
        );
        assert_eq!(counts("x, Failures: 5"), None);
        assert_eq!(
            failure_header(
                "testEnumSerialization(org.json.simple.JsonerTest)  Time elapsed: 0.001 s  <<< FAILURE!"
            )
            .as_deref(),
            Some("JsonerTest.testEnumSerialization")
        );
        assert_eq!(
            failure_header("org.x.FooTest.testBar -- Time elapsed: 0.1 s <<< ERROR!").as_deref(),
            Some("FooTest.testBar")
        );
        assert_eq!(
            failure_header(
                "Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0 s <<< FAILURE! - in x"
            ),
            None
        );
        assert_eq!(level("[ERROR] x"), (Some("ERROR"), "x"));
        assert_eq!(level("[x] y"), (None, "[x] y"));
    }
}
