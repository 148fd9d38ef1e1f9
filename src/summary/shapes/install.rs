//! Package installs: npm (`added 1050 packages in 1m`, `npm warn deprecated x@1: …`,
//! `N vulnerabilities (…)`, `npm error …`), pnpm (`Packages: +309`, `WARN  deprecated …`,
//! `ERR_PNPM_…`, `Done in 2.3s`), yarn (`warning … deprecated`, `error …`, `Done in …`), pip
//! (`Successfully installed …`, `ERROR: …`, a build's `× … did not run successfully` with the
//! last lines of the subprocess's output, which hold its exception) and uv (`Resolved N
//! packages`, `Installed N packages`, `error: …`).

use serde_json::json;

use super::names::{Failures, Names};
use super::{Fact, Shape};
use crate::format::{cut, thousands};

#[derive(Debug, Default)]
pub(crate) struct Install {
    tool: Option<&'static str>,
    /// The lines that state the outcome (`added 1050 packages in 1m`, `Packages: +309`).
    outcome: Names,
    /// The line after the last error line, to join an error printed over several lines.
    error_next: u64,
    deprecated: Names,
    vulnerabilities: Option<String>,
    errors: Failures,
    /// The last lines of a subprocess's output inside pip's `╰─> [N lines of output]` block.
    in_subprocess: bool,
    recent: Vec<(u64, String)>,
}

/// Lines of a failed build's output kept to show its cause.
const CAUSE_LINES: usize = 2;

impl Shape for Install {
    fn line(&mut self, number: u64, text: &str) {
        if self.in_subprocess {
            let t = text.trim();
            if t == "[end of output]" {
                self.in_subprocess = false;
                let cause: Vec<(u64, String)> = std::mem::take(&mut self.recent);
                if let Some((line, _)) = cause.first() {
                    self.errors.push(*line, "");
                    if let Some(f) = self.errors.current() {
                        for (_, text) in &cause {
                            f.add_detail(text);
                        }
                    }
                }
            } else if !t.is_empty() && !t.starts_with('^') {
                if self.recent.len() == CAUSE_LINES {
                    self.recent.remove(0);
                }
                self.recent.push((number, cut(t, 200)));
            }
            return;
        }
        let t = text.trim_start();
        if let Some(rest) = t.strip_prefix("npm ") {
            self.tool = Some("npm");
            let rest = rest.trim_start_matches("WARN ").trim_start_matches("warn ");
            if let Some(what) = rest.strip_prefix("deprecated ") {
                self.deprecated.push(package(what));
            } else if let Some(what) = rest
                .strip_prefix("error ")
                .or_else(|| rest.strip_prefix("ERR! "))
                .or_else(|| rest.strip_prefix("ERR "))
            {
                self.error(number, what);
            }
        } else if let Some(rest) = t.strip_prefix("WARN ") {
            if let Some(what) = rest.trim_start().strip_prefix("deprecated ") {
                self.deprecated.push(package(what));
            }
        } else if let Some(rest) = t.strip_prefix("warning ") {
            // yarn: `warning pkg > dep@1.0.0: this is deprecated`
            if rest.contains("deprecated")
                && let Some((what, _)) = rest.split_once(": ")
            {
                self.tool.get_or_insert("yarn");
                self.deprecated
                    .push(package(what.rsplit(" > ").next().unwrap_or(what)));
            }
        } else if t.starts_with("added ") && t.contains(" package")
            || t.starts_with("removed ") && t.contains(" package")
            || t.starts_with("up to date")
            || t.starts_with("Packages: ")
            || t.starts_with("Successfully installed ")
            || t.starts_with("Resolved ") && t.contains(" package")
            || t.starts_with("Installed ") && t.contains(" package")
            || t.starts_with("Done in ")
        {
            if t.starts_with("Packages: ") {
                self.tool.get_or_insert("pnpm");
            } else if t.starts_with("Successfully installed ") {
                self.tool = Some("pip");
            } else if t.starts_with("Resolved ") || t.starts_with("Installed ") {
                self.tool.get_or_insert("uv");
            }
            self.outcome.push(&cut(t, 120));
        } else if t.contains(" vulnerabilit") && t.starts_with(|c: char| c.is_ascii_digit())
            || t.starts_with("found 0 vulnerabilities")
        {
            self.vulnerabilities = Some(t.to_owned());
        } else if t.starts_with("Collecting ")
            || t.starts_with("Requirement already satisfied: ")
            || t.starts_with("Installing collected packages: ")
        {
            // pip's own lines: `ERROR: ` alone is any program's.
            self.tool.get_or_insert("pip");
        } else if let Some(what) = t.strip_prefix("ERROR: ") {
            self.error(number, what);
        } else if t.starts_with("× ") || t.starts_with(" ERR_PNPM_") || t.starts_with("ERR_PNPM_")
        {
            self.error(number, t);
        } else if t.starts_with("╰─> [") && t.ends_with(" lines of output]") {
            self.in_subprocess = true;
            self.recent.clear();
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let tool = self.tool?;
        if self.outcome.total == 0 && self.errors.is_empty() && self.deprecated.total == 0 {
            return None;
        }
        let mut parts = Vec::new();
        if self.outcome.total > 0 {
            parts.push(self.outcome.render_joined(self.outcome.total, "; "));
        }
        if let Some(v) = &self.vulnerabilities {
            parts.push(v.clone());
        }
        if self.deprecated.total > 0 {
            parts.push(format!(
                "{} deprecated: {}",
                thousands(self.deprecated.total),
                self.deprecated.render(self.deprecated.total)
            ));
        }
        if !self.errors.is_empty() {
            parts.push(format!("{} error(s)", thousands(self.errors.total)));
        }
        let line = format!("{tool}: {}", parts.join("; "));
        let json = json!({
            "shape": "install",
            "tool": tool,
            "outcome": self.outcome.json(),
            "deprecated": self.deprecated.json(),
            "deprecated_count": self.deprecated.total,
            "vulnerabilities": self.vulnerabilities,
            "errors": self.errors.total,
        });
        let errors = self.errors.take_as("errors");
        Some(
            Fact::new("install", vec![line], json)
                .failures(errors)
                .hint("'(?i)error|deprecated|vulnerab' -A 2"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.outcome.approx_heap()
            + self.deprecated.approx_heap()
            + self.errors.approx_heap()
            + self.vulnerabilities.as_ref().map_or(0, String::capacity)
            + self
                .recent
                .iter()
                .map(|(_, t)| t.capacity() + 32)
                .sum::<usize>()
    }
}

impl Install {
    fn error(&mut self, number: u64, what: &str) {
        let what = what.trim();
        if what.is_empty() {
            return;
        }
        // npm and pnpm print an error over several lines: the first says what failed, and
        // npm's fields follow (`code 1`, `workspace a@1.0.0`, `command sh -c mocha`). In a
        // workspace run one block holds an error per script that failed
        // (`Lifecycle script `test` failed with error:` each).
        let joined = self.error_next == number;
        self.error_next = number + 1;
        if joined
            && !what.starts_with("Lifecycle script ")
            && let Some(f) = self.errors.current()
        {
            // Where it happened is the workspace's name already.
            let said = ["path ", "location ", "cwd "]
                .iter()
                .any(|k| what.starts_with(k))
                || what == "command failed";
            if !said {
                f.add_detail(what);
            }
            return;
        }
        self.errors.push(number, "");
        if let Some(f) = self.errors.current() {
            f.add_detail(what);
        }
    }
}

/// `rollup-plugin-terser@7.0.2: This package…` → `rollup-plugin-terser`.
fn package(what: &str) -> &str {
    let name = what.split([':', ' ']).next().unwrap_or(what);
    // `@scope/name@1.0.0`: the version's `@` is the last one after the first character.
    match name[1.min(name.len())..].rfind('@') {
        Some(i) => &name[..i + 1],
        None => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names() {
        assert_eq!(
            package("rollup-plugin-terser@7.0.2: This"),
            "rollup-plugin-terser"
        );
        assert_eq!(package("@scope/x@1.0.0: y"), "@scope/x");
        assert_eq!(package("plain"), "plain");
    }
}
