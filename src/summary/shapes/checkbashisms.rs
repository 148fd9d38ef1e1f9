//! checkbashisms (devscripts): `possible bashism in FILE line N (WHAT):`, the script's line
//! under it, and `error: FILE: …` for a script it could not read to its end (`Unterminated
//! quoted string found, EOF reached`). Bashisms are counted by what they are and by file; the
//! first of each kind is listed as printed with its line of script, the rarest first, and
//! each script it could not read.

use serde_json::json;

use super::diagnostics::{Diagnostics, Level};
use super::names::Failures;
use super::{Fact, Shape};
use crate::format::{cut, plural};

#[derive(Debug)]
pub(crate) struct Checkbashisms {
    diagnostics: Diagnostics,
    /// The scripts it could not read, each with its error.
    unread: Failures,
    unread_count: u64,
    /// A bashism was read: its line of script follows.
    script_next: bool,
}

impl Default for Checkbashisms {
    fn default() -> Checkbashisms {
        Checkbashisms {
            diagnostics: Diagnostics::firsts_only(),
            unread: Failures::default(),
            unread_count: 0,
            script_next: false,
        }
    }
}

impl Shape for Checkbashisms {
    fn line(&mut self, number: u64, text: &str) {
        if std::mem::take(&mut self.script_next) {
            self.diagnostics.add_detail(&cut(text.trim(), 200));
            return;
        }
        if let Some((file, what)) = bashism(text) {
            self.diagnostics
                .add(number, Level::Error, None, text, Some(what));
            self.diagnostics.files.add(file);
            self.script_next = true;
        } else if let Some(rest) = text.strip_prefix("error: ")
            && let Some((file, message)) = rest.split_once(": ")
            && !file.contains(' ')
            && (message.contains("EOF reached") || message.starts_with("Unterminated"))
        {
            self.unread_count += 1;
            self.unread.push(number, "");
            if let Some(f) = self.unread.current() {
                f.add_detail(text);
            }
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        let d = &self.diagnostics;
        if d.errors == 0 && self.unread_count == 0 {
            return None;
        }
        let mut line = format!(
            "checkbashisms: {}",
            plural(d.errors, "possible bashism", "possible bashisms")
        );
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!(" in {}", plural(files as u64, "file", "files")));
        }
        if self.unread_count > 0 {
            line.push_str(&format!(
                ", {} it could not read to the end",
                plural(self.unread_count, "script", "scripts")
            ));
        }
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; kinds: {codes}"));
        }
        let json = json!({
            "shape": "checkbashisms",
            "bashisms": d.errors,
            "unread": self.unread_count,
            "kinds": d.codes.json(),
            "files": d.files.json(),
        });
        Some(
            Fact::new("checkbashisms", vec![line], json)
                .failures(d.failures(|_| 0))
                .failures(self.unread.take_as("scripts it could not read"))
                .hint("'^possible bashism in |^error: ' -A 1"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap() + self.unread.approx_heap()
    }
}

/// `possible bashism in deploy/a.sh line 76 ([^] should be [!]):` → the file and what.
fn bashism(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("possible bashism in ")?;
    let (file, rest) = rest.split_once(" line ")?;
    let (number, what) = rest.split_once(" (")?;
    let what = what.strip_suffix("):")?;
    (!number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())).then_some((file, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bashism_s_file_and_kind() {
        assert_eq!(
            bashism("possible bashism in deploy/qiniu.sh line 76 ([^] should be [!]):"),
            Some(("deploy/qiniu.sh", "[^] should be [!]"))
        );
        assert_eq!(
            bashism(
                "possible bashism in a.sh line 30 (alternative test command ([[ foo ]] should be [ foo ])):"
            ),
            Some((
                "a.sh",
                "alternative test command ([[ foo ]] should be [ foo ])"
            ))
        );
        assert_eq!(bashism("possible bashism in a.sh line x (y):"), None);
    }
}
