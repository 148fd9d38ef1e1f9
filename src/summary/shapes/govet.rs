//! `go vet` and `go build` problems: a `# package` line (`# pkg [pkg.test]` for a package's test
//! build), then `file.go:line:col: message` lines, each perhaps with indented lines under it
//! (`\thave (…)`, `\twant (…)`). vet's own type check of a package that does not compile says
//! `vet: file.go:line:col: message`, under the package's header said again. Problems are counted
//! per package, and the first problem of each package is listed under its header, in the
//! order the packages were reported.

use std::collections::HashSet;

use super::diagnostics::location;
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::plural;
use serde_json::json;

/// Bytes of package names remembered to count each package once; past them (no real module
/// has so many), a package's header said again is counted again.
const NAMES_BYTES: usize = 1 << 20;

#[derive(Debug, Default)]
pub(crate) struct GoVet {
    /// The package whose problems are being read (its header), and whether it is listed.
    package: Option<String>,
    listed: bool,
    /// The packages with problems, counted once each.
    seen: HashSet<String>,
    seen_bytes: usize,
    packages: u64,
    problems: u64,
    /// `too many errors`: the compiler stopped listing a package's errors.
    cut_short: u64,
    /// Whether the problem read last is listed (its indented lines are its detail).
    detail_open: bool,
    failures: Failures,
}

impl Shape for GoVet {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(header) = text.strip_prefix("# ") {
            self.package = package_header(header).map(str::to_owned);
            self.listed = false;
            self.detail_open = false;
            return;
        }
        let Some(package) = &self.package else {
            return;
        };
        if let Some(more) = text.strip_prefix('\t') {
            if self.detail_open
                && let Some(failure) = self.failures.current()
            {
                failure.add_detail(more);
            }
            return;
        }
        let problem = text.strip_prefix("vet: ").unwrap_or(text);
        let Some(location) = go_location(problem) else {
            // The end of the package's problems.
            self.package = None;
            return;
        };
        let message = problem[location.len() + 1..].trim_start();
        self.detail_open = false;
        if message == "too many errors" {
            self.cut_short += 1;
            return;
        }
        self.problems += 1;
        if self.listed {
            return;
        }
        self.listed = true;
        if self.seen_bytes > NAMES_BYTES || !self.seen.contains(package) {
            self.packages += 1;
            if self.seen_bytes <= NAMES_BYTES {
                self.seen_bytes += package.len();
                self.seen.insert(package.clone());
            }
            let package = package.clone();
            self.failures
                .push_said(number, &package, &format!("# {package}"));
            if let Some(failure) = self.failures.current() {
                failure.add_detail(problem);
            }
            self.detail_open = true;
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        if self.problems == 0 {
            return None;
        }
        let mut line = format!(
            "go: {} in {}",
            plural(self.problems, "problem", "problems"),
            plural(self.packages, "package", "packages")
        );
        if self.cut_short > 0 {
            line.push_str(&format!(
                " (the compiler said `too many errors` and stopped listing {})",
                plural(self.cut_short, "time", "times")
            ));
        }
        let json = json!({
            "shape": "go vet",
            "problems": self.problems,
            "packages": self.packages,
            "too_many_errors": self.cut_short,
        });
        let failures = self.failures.take_as("first problem of each package");
        Some(
            Fact::new("go vet", vec![line], json)
                .failures(failures)
                .hint("'^# |^(vet: )?[^ ]+\\.go:[0-9]+:[0-9]+: ' -A 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.package.as_ref().map_or(0, String::capacity)
            + self.seen_bytes
            + self.seen.capacity() * std::mem::size_of::<String>()
            + self.failures.approx_heap()
    }
}

/// `golang.org/x/tools/present` or `pkg [pkg.test]`: a package's name, perhaps with the build
/// it is part of in brackets.
fn package_header(header: &str) -> Option<&str> {
    let (name, build) = match header.split_once(' ') {
        Some((name, build)) => (name, Some(build)),
        None => (header, None),
    };
    let bracketed = build.is_none_or(|b| {
        b.starts_with('[') && b.ends_with(']') && !b[1..b.len() - 1].contains([' ', '[', ']'])
    });
    (!name.is_empty() && bracketed).then_some(header)
}

/// `cmp/compare.go:214:9: …` → `cmp/compare.go:214:9`.
fn go_location(text: &str) -> Option<&str> {
    location(text, |file| file.ends_with(".go"))
        .filter(|(_, rest)| rest.starts_with(' '))
        .map(|(at, _)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Option<Fact> {
        let mut shape = Box::<GoVet>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        shape.finish()
    }

    #[test]
    fn packages_are_counted_once_and_said_by_their_header_with_their_first_problem() {
        let text = "# example.com/m/present\n\
                    present/parse.go:591:39: non-boolean condition in if statement\n\
                    present/parse.go:679:13: cannot use true as type error:\n\
                    \tbool does not implement error (missing Error method)\n\
                    # example.com/m/rta\n\
                    rta/rta.go:152:27: not enough arguments in call to callgraph.AddEdge\n\
                    \thave (*Node, *Node)\n\
                    \twant (*Node, ssa.CallInstruction, *Node)\n\
                    # example.com/m/rta [example.com/m/rta.test]\n\
                    rta/rta.go:152:27: not enough arguments in call to callgraph.AddEdge\n\
                    rta/rta.go:160:1: too many errors\n\
                    # example.com/m/cover\n\
                    vet: cover/profile.go:133:22: cannot use seekBack(…) (value of type int64) as int value in assignment\n\
                    # example.com/m/present\n\
                    vet: present/parse.go:591:39: non-boolean condition in if statement\n";
        let fact = read(text).expect("a fact");
        assert_eq!(
            fact.lines[0],
            "go: 6 problems in 4 packages (the compiler said `too many errors` and stopped listing 1 time)"
        );
        let failures = &fact.failures[0];
        let names: Vec<&str> = failures.kept.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "example.com/m/present",
                "example.com/m/rta",
                "example.com/m/rta [example.com/m/rta.test]",
                "example.com/m/cover"
            ]
        );
        assert_eq!(
            failures.kept[1].detail,
            [
                "rta/rta.go:152:27: not enough arguments in call to callgraph.AddEdge",
                "have (*Node, *Node)",
                "want (*Node, ssa.CallInstruction, *Node)"
            ]
        );
        assert_eq!(
            failures.kept[3].detail,
            [
                "cover/profile.go:133:22: cannot use seekBack(…) (value of type int64) as int value in assignment"
            ]
        );
        // Each is said as go said it: by the package's header.
        assert_eq!(
            failures.kept[2].said.as_deref(),
            Some("# example.com/m/rta [example.com/m/rta.test]")
        );
    }

    #[test]
    fn a_heading_that_is_not_a_package_is_not_read() {
        assert!(read("# a comment here\nmain.go:1:1: x\n").is_none());
        assert!(read("no header\nmain.go:1:1: x\n").is_none());
    }
}
