//! An autoconf `configure` script's run: its checks (`checking for TSS2... no`), its messages
//! (`configure: error: …`, `configure: WARNING: …`, a bare `configure:`), each message either
//! on its line or in a block of `***` lines under it. The error is stated with its message; the
//! other messages are listed (gnupg names each missing library in one); and the checks answered
//! `no` that the messages name (`checking for LIBASSUAN - version >= 2.5.0... no` under `You
//! need libassuan`), or that came right before the error, are shown as the checks that failed.

use std::collections::VecDeque;

use serde_json::json;

use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, thousands};

/// How long a message is kept, and how many checks answered `no` are kept to be matched
/// against the messages.
const MESSAGE_CHARS: usize = 400;
const NO_CHECKS_KEPT: usize = 400;
const CHECK_CHARS: usize = 160;
/// Checks that failed shown at most.
const FAILED_SHOWN: usize = 4;

#[derive(Debug, Default)]
pub(crate) struct Autoconf {
    checks: u64,
    /// Checks answered `no`, the last [`NO_CHECKS_KEPT`] kept: line, text.
    no: VecDeque<(u64, String)>,
    no_total: u64,
    warnings: u64,
    /// The error, as its message reads, and the line of the check before it.
    error: Option<String>,
    check_before_error: Option<(u64, String)>,
    /// The message being read: its kind, line and text so far.
    message: Option<(&'static str, u64, String)>,
    messages: Failures,
    /// The last check was answered `no` (it is the last of `no`).
    last_no: bool,
    /// The lines printed since the last check (the first [`SAID_KEPT`]), and those that came
    /// before the error: what a script says of its own before it gives up (rsync's
    /// `- Failed to find zstd.h for zstd compression support.`).
    said: Vec<String>,
    said_before_error: Vec<String>,
}

/// Lines printed since the last check kept.
const SAID_KEPT: usize = 6;

impl Shape for Autoconf {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(rest) = text.strip_prefix("***") {
            if let Some((_, _, message)) = &mut self.message {
                let rest = rest.trim();
                if !rest.is_empty() && message.len() < MESSAGE_CHARS {
                    if !message.is_empty() {
                        message.push(' ');
                    }
                    message.push_str(rest);
                }
            }
            return;
        }
        self.end_message();
        if let Some(check) = text.strip_prefix("checking ") {
            self.checks += 1;
            self.said.clear();
            self.last_no = check.ends_with("... no") || check.ends_with("... (cached) no");
            if self.last_no {
                self.no_total += 1;
                if self.no.len() == NO_CHECKS_KEPT {
                    self.no.pop_front();
                }
                self.no.push_back((number, cut(text, CHECK_CHARS)));
            }
            return;
        }
        // rsync's script is `configure.sh`.
        let Some(rest) = text
            .strip_prefix("configure:")
            .or_else(|| text.strip_prefix("configure.sh:"))
        else {
            if self.checks > 0 && self.said.len() < SAID_KEPT {
                let t = text.trim();
                if !t.is_empty() {
                    self.said.push(cut(t, CHECK_CHARS));
                }
            }
            return;
        };
        let rest = rest.trim_start();
        let (kind, message) = if let Some(m) = rest.strip_prefix("error:") {
            ("error", m)
        } else if let Some(m) = rest.strip_prefix("WARNING:") {
            self.warnings += 1;
            ("WARNING", m)
        } else if rest.is_empty() {
            ("note", "")
        } else {
            // `configure: creating ./config.status`, `configure: checking for …`.
            return;
        };
        if kind == "error" {
            self.check_before_error = self.no.back().filter(|_| self.last_no).cloned();
            self.said_before_error = std::mem::take(&mut self.said);
        }
        self.message = Some((kind, number, message.trim().to_owned()));
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.end_message();
        if self.checks == 0 || (self.error.is_none() && self.messages.is_empty()) {
            return None;
        }
        let mut lines = vec![format!(
            "configure: {} checks, {} answered no",
            thousands(self.checks),
            thousands(self.no_total)
        )];
        if let Some(error) = &self.error {
            lines.push(format!("configure: error: {error}"));
            if !self.said_before_error.is_empty() {
                lines.push(format!(
                    "said before the error: {}",
                    self.said_before_error.join(" · ")
                ));
            }
        }
        let failed = self.failed_checks();
        if !failed.is_empty() {
            lines.push(format!(
                "failed checks behind the messages: {}",
                failed.join(" · ")
            ));
        }
        let json = json!({
            "shape": "configure",
            "checks": self.checks,
            "answered_no": self.no_total,
            "warnings": self.warnings,
            "error": self.error,
            "said_before_error": self.said_before_error,
            "failed_checks": failed,
        });
        Some(
            Fact::new("configure", lines, json)
                .failures(self.messages.take_as("configure's messages"))
                .hint("'^configure: (error|WARNING)|^\\*\\*\\*|\\.\\.\\. no$'"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        let text = |s: &Option<(u64, String)>| s.as_ref().map_or(0, |(_, t)| t.capacity());
        self.no
            .iter()
            .map(|(_, t)| t.capacity() + 16)
            .sum::<usize>()
            + self.error.as_ref().map_or(0, String::capacity)
            + text(&self.check_before_error)
            + self.message.as_ref().map_or(0, |(_, _, m)| m.capacity())
            + self.messages.approx_heap()
            + self
                .said
                .iter()
                .chain(&self.said_before_error)
                .map(String::capacity)
                .sum::<usize>()
    }
}

impl Autoconf {
    fn end_message(&mut self) {
        let Some((kind, line, message)) = self.message.take() else {
            return;
        };
        if message.is_empty() {
            return;
        }
        let message = cut(&message, MESSAGE_CHARS);
        if kind == "error" {
            self.error = Some(message);
        } else {
            self.messages.push(line, kind);
            if let Some(f) = self.messages.current() {
                f.add_detail(&message);
            }
        }
    }

    /// The checks answered `no` whose subject a message names (`LIBASSUAN` in `You need
    /// libassuan …`), and the one right before the error, in the output's order.
    fn failed_checks(&self) -> Vec<String> {
        let said: Vec<String> = self
            .error
            .iter()
            .chain(self.messages.iter().flat_map(|f| f.detail.iter()))
            .map(|m| m.to_lowercase())
            .collect();
        let mut failed: Vec<&(u64, String)> = self
            .no
            .iter()
            .filter(|(_, check)| subjects(check).any(|s| said.iter().any(|m| contains_word(m, &s))))
            .collect();
        if let Some(before) = &self.check_before_error
            && !failed.iter().any(|(line, _)| *line == before.0)
        {
            failed.push(before);
            failed.sort_by_key(|(line, _)| *line);
        }
        failed
            .into_iter()
            .take(FAILED_SHOWN)
            .map(|(_, check)| check.clone())
            .collect()
    }
}

/// What a `checking for …` check looks for, lowercased: `libassuan` of `checking for LIBASSUAN
/// - version >= 2.5.0... no` and of `checking for libassuan-config... no`. Checks that ask
/// `whether …`, or for a `library containing …`, name nothing a message would.
fn subjects(check: &str) -> impl Iterator<Item = String> + '_ {
    let subject = check
        .strip_prefix("checking for ")
        .and_then(|rest| rest.split([' ', '.']).next())
        .map(|s| s.strip_suffix("-config").unwrap_or(s).to_lowercase())
        .filter(|s| s.len() >= 3 && !["library", "working", "the"].contains(&s.as_str()));
    subject.into_iter()
}

/// Whether `word` stands in `text` as a word of its own (`npth` in `library (npth).`).
fn contains_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_its_messages_and_the_checks_they_name() {
        let text = "checking for gcc... gcc\nchecking for LIBASSUAN - version >= 2.5.0... no\n\
                    checking for strerror... no\nchecking for zlib.h... yes\n\
                    checking whether this program needs support... no\n\
                    configure: WARNING:\n***\n*** Building without LDAP support.\n***\n\
                    configure:\n***\n*** You need libassuan to build this program.\n\
                    *** (at least version 2.5.0 (API 2) is required).\n***\n\
                    checking for TSS2... no\n\
                    configure: error: \n***\n*** Required libraries not found.\n***\n";
        let mut shape = Box::<Autoconf>::default();
        for (i, line) in text.lines().enumerate() {
            shape.line(i as u64 + 1, line);
        }
        let fact = shape.finish().expect("a fact");
        assert_eq!(
            fact.lines,
            [
                "configure: 6 checks, 4 answered no",
                "configure: error: Required libraries not found.",
                "failed checks behind the messages: checking for LIBASSUAN - version >= \
                 2.5.0... no · checking for TSS2... no"
            ]
        );
        let kept = &fact.failures[0].kept;
        assert_eq!(kept[0].name, "WARNING");
        assert_eq!(kept[0].detail, ["Building without LDAP support."]);
        assert_eq!(kept[1].name, "note");
        assert_eq!(
            kept[1].detail,
            [
                "You need libassuan to build this program. (at least version 2.5.0 (API 2) is required)."
            ]
        );
    }
}
