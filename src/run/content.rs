//! How much output passes through untouched: up to the threshold, or, for a command run to read
//! content (`cat`, `head`, `tail`, `sed -n`, `git show`, a diff: `command::Purpose::Reads`), up
//! to the content limit, but never more than the agent running ctxoff keeps whole of one
//! output ([`Keeps`]; each agent's figures are `agent::Agent::keeps`). Reading is not summarising: a reader who asked for a 300-line file wants the file,
//! not a summary and three more calls. Passing more than the agent keeps would lose the rest
//! for good (Codex keeps the first and last 5 KB of an output and drops its middle).
//!
//! Precedence: `keep` (never captured) > content limit > threshold.

use crate::command::{Invocation, Purpose};
use crate::config::Settings;

/// The most of one output an agent keeps whole, in the units it counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keeps {
    pub(crate) bytes: Option<u64>,
    pub(crate) chars: Option<u64>,
    /// Characters kept of a failing command's output, when fewer.
    pub(crate) failing_chars: Option<u64>,
    pub(crate) lines: Option<u64>,
}

impl Keeps {
    /// Whether `text` (a whole output) is kept whole.
    pub(crate) fn whole(&self, text: &[u8], failed: bool) -> bool {
        let len = text.len() as u64;
        if self.bytes.is_some_and(|max| len > max) {
            return false;
        }
        let chars = if failed {
            self.failing_chars.or(self.chars)
        } else {
            self.chars
        };
        // Characters never outnumber bytes: count them only when it could matter.
        if let Some(max) = chars
            && len > max
            && String::from_utf8_lossy(text).chars().count() as u64 > max
        {
            return false;
        }
        let lines = memchr::memchr_iter(b'\n', text).count() as u64
            + u64::from(!text.is_empty() && !text.ends_with(b"\n"));
        self.lines.is_none_or(|max| lines <= max)
    }
}

/// How much of one run's output passes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limit {
    /// Output of at most this many tokens always passes.
    pub(crate) threshold: u64,
    /// Output of more passes only when the command reads content: up to this many tokens…
    pub(crate) tokens: u64,
    /// …and only when the agent keeps it whole.
    pub(crate) keeps: Option<Keeps>,
}

impl Limit {
    /// The limit for `argv` run with `settings` by an agent that `keeps` so much whole (`None`:
    /// plain use).
    pub(crate) fn for_command(settings: &Settings, argv: &[String], keeps: Option<Keeps>) -> Limit {
        let reads =
            !argv.is_empty() && matches!(Invocation::of(argv).purpose(), Purpose::Reads { .. });
        Limit::for_content(settings, reads, keeps)
    }

    /// The limit for output that is (`reads`) or is not content the command was run to read.
    pub(crate) fn for_content(settings: &Settings, reads: bool, keeps: Option<Keeps>) -> Limit {
        Limit {
            threshold: settings.threshold,
            tokens: if reads {
                settings.content_limit.max(settings.threshold)
            } else {
                settings.threshold
            },
            keeps,
        }
    }

    /// Whether output of `tokens` tokens, `text`, of a command that `failed` passes through.
    pub(crate) fn passes(&self, tokens: u64, text: &[u8], failed: bool) -> bool {
        tokens <= self.threshold
            || (tokens <= self.tokens && self.keeps.is_none_or(|k| k.whole(text, failed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(threshold: u64, content_limit: u64) -> Settings {
        Settings {
            threshold,
            content_limit,
            ..Settings::at("/nonexistent")
        }
    }

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn reading_content_passes_up_to_the_content_limit() {
        let s = settings(2_500, 6_000);
        let cat = Limit::for_command(&s, &words("cat src/main.rs"), None);
        let test = Limit::for_command(&s, &words("cargo test"), None);
        let text = b"fn main() {}\n".repeat(100);
        assert!(cat.passes(5_000, &text, false));
        assert!(!cat.passes(6_001, &text, false));
        assert!(!test.passes(2_501, &text, false));
        assert!(test.passes(2_500, &text, false));
        // A content limit under the threshold raises nothing.
        let low = Limit::for_command(&settings(2_500, 100), &words("cat a.rs"), None);
        assert!(low.passes(2_500, &text, false) && !low.passes(2_501, &text, false));
    }
}
