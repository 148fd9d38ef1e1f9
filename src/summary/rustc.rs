//! rustc / cargo / clippy diagnostics: `error[E0308]: …` and `warning: …` headers, located by
//! the ` --> file:line:col` line that follows. Recognised only when at least one header has such
//! a location. Cargo's own summary lines (`warning: `x` (lib) generated 4 warnings`,
//! `error: could not compile …`, `error: test failed, to rerun pass …`) and rustc's
//! `aborting due to …` / `N warnings emitted` are not diagnostics and are not counted.

use super::analysis::Fact;
use super::diagnostics::{Diagnostics, Level};

#[derive(Debug, Default)]
pub(crate) struct Rustc {
    diagnostics: Diagnostics,
    located: bool,
    /// The header seen on the previous line, waiting for its location.
    pending: Option<(Level, Option<String>)>,
    header: String,
}

impl Rustc {
    pub(crate) fn line(&mut self, text: &str) {
        if let Some((level, code)) = self.pending.take() {
            let location = text.trim_start_matches(' ').strip_prefix("--> ");
            self.located |= location.is_some();
            self.diagnostics.add(level, location, &self.header);
            if let Some(code) = code {
                self.diagnostics.codes.add(&code);
            }
        }
        let bytes = text.as_bytes();
        if !matches!(bytes.first(), Some(b'e' | b'w')) {
            return;
        }
        let (level, rest) = if let Some(rest) = text.strip_prefix("error") {
            (Level::Error, rest)
        } else if let Some(rest) = text.strip_prefix("warning") {
            (Level::Warning, rest)
        } else {
            return;
        };
        let (code, message) = if let Some(rest) = rest.strip_prefix('[') {
            let Some((code, message)) = rest.split_once("]: ") else {
                return;
            };
            (Some(code), message)
        } else if let Some(message) = rest.strip_prefix(": ") {
            (None, message)
        } else {
            return;
        };
        if is_summary(level, message) {
            return;
        }
        self.header.clear();
        self.header.push_str(text);
        // Only error codes are tallied (warnings carry lint names in their notes instead).
        let code = code.filter(|_| level == Level::Error).map(str::to_owned);
        self.pending = Some((level, code));
    }

    pub(crate) fn finish(mut self) -> Option<Fact> {
        if let Some((level, code)) = self.pending.take() {
            self.diagnostics.add(level, None, &self.header);
            if let Some(code) = code {
                self.diagnostics.codes.add(&code);
            }
        }
        self.located
            .then(|| self.diagnostics.fact("rustc", "rustc", "files"))
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.header.capacity() + 64
    }
}

/// Cargo's and rustc's summary lines, which repeat counts rather than report a diagnostic.
fn is_summary(level: Level, message: &str) -> bool {
    match level {
        Level::Error => {
            message.starts_with("could not compile")
                || message.starts_with("Could not compile")
                || message.starts_with("aborting due to")
                || message.starts_with("test failed, to rerun pass")
                || message.ends_with(" targets failed:")
                || message.ends_with(" target failed:")
        }
        _ => {
            message.starts_with("build failed, waiting for other jobs")
                || (message.starts_with('`') && message.contains(") generated "))
                || message.ends_with(" warnings emitted")
                || message.ends_with(" warning emitted")
        }
    }
}
