//! pyright (and basedpyright) output: each file's path on a line of its own, then its
//! diagnostics, `  path:line:col - error|warning|information: message`, a message going on over
//! more indented lines (with no-break spaces) and ending with its rule (`(reportArgumentType)`),
//! and the closing
//! totals (`421 errors, 0 warnings, 0 informations`; basedpyright's level and count of the least
//! severe are `note`, `0 notes`). Recognised by those totals; the first
//! diagnostic of each rule is listed, those that raise at run time first, the rarest first.

use super::diagnostics::{Diagnostics, Level};
use super::{Fact, Shape};
use crate::format::thousands;

/// Rules whose errors raise when the line runs (`NameError`, `AttributeError`, a `TypeError`
/// for a wrong call or operand): listed first after the first error.
const RAISING: &[&str] = &[
    "reportUndefinedVariable",
    "reportAttributeAccessIssue",
    "reportCallIssue",
    "reportOperatorIssue",
    "reportIndexIssue",
    "reportPossiblyUnbound",
    "reportOptionalMemberAccess",
    "reportOptionalSubscript",
    "reportOptionalCall",
    "reportOptionalIterable",
    "reportOptionalOperand",
];

/// How long a diagnostic's message may grow over its lines before its rule is read.
const MESSAGE_KEPT: usize = 2 * 1024;

#[derive(Debug, Default)]
pub(crate) struct Pyright {
    diagnostics: Diagnostics,
    /// A diagnostic whose message may go on: line, level, location, its first line, its rule
    /// when read.
    pending: Option<Pending>,
    /// The closing totals: errors, warnings, informations (or notes).
    totals: Option<[u64; 3]>,
    /// basedpyright's word for the least severe: `notes`.
    notes: bool,
}

#[derive(Debug)]
struct Pending {
    line: u64,
    level: Level,
    location: String,
    header: String,
    /// The message's lines after the first, joined (to find the rule at its end).
    rest: String,
}

impl Shape for Pyright {
    fn line(&mut self, number: u64, text: &str) {
        if let Some(p) = &mut self.pending {
            // pyright indents the lines after the first with no-break spaces.
            if text.starts_with("  ") && !text.trim().is_empty() && parse(text).is_none() {
                if p.rest.len() < MESSAGE_KEPT {
                    p.rest.push(' ');
                    p.rest.push_str(text.trim());
                }
                return;
            }
            self.settle();
        }
        if let Some((totals, notes)) = totals(text) {
            self.totals = Some(totals);
            self.notes = notes;
            return;
        }
        if let Some((location, level, message)) = parse(text) {
            self.pending = Some(Pending {
                line: number,
                level,
                location: location.to_owned(),
                header: format!("{location} - {}: {message}", level_word(level, self.notes)),
                rest: String::new(),
            });
        }
    }

    fn finish(mut self: Box<Self>) -> Option<Fact> {
        self.settle();
        let [errors, warnings, informations] = self.totals?;
        let d = &self.diagnostics;
        let mut line = format!(
            "pyright: {} errors, {} warnings, {} {}",
            thousands(errors),
            thousands(warnings),
            thousands(informations),
            if self.notes { "notes" } else { "informations" }
        );
        if let Some(codes) = d.codes.render() {
            line.push_str(&format!("; rules: {codes}"));
        }
        if let Some(files) = d.files.distinct() {
            line.push_str(&format!("; in {} files", thousands(files as u64)));
        }
        Some(
            Fact::new("pyright", vec![line], d.json("pyright"))
                .failures(d.failures(rank))
                .hint("' - error: ' -A 2")
                .supersedes(&["gcc"]),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.diagnostics.approx_heap()
            + self.pending.as_ref().map_or(0, |p| {
                p.location.capacity() + p.header.capacity() + p.rest.capacity()
            })
    }
}

impl Pyright {
    /// The diagnostic read so far is complete: counted, with its rule.
    fn settle(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let rule = rule_of(&p.rest)
            .or_else(|| rule_of(&p.header))
            .map(str::to_owned);
        let file = p.location.split(':').next().unwrap_or(&p.location);
        self.diagnostics.files.add(file);
        let mut header = p.header;
        if let Some(rule) = &rule
            && !header.ends_with(')')
        {
            header.push_str(&format!(" ({rule})"));
        }
        self.diagnostics
            .add(p.line, p.level, Some(&p.location), &header, rule.as_deref());
    }
}

/// Where errors of `rule` come in the list: those that raise at run time first.
fn rank(rule: &str) -> u8 {
    u8::from(!RAISING.contains(&rule))
}

fn level_word(level: Level, notes: bool) -> &'static str {
    match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note if notes => "note",
        Level::Note => "information",
    }
}

/// `  /a/b.py:54:12 - error: message` → (`/a/b.py:54:12`, level, `message`).
fn parse(text: &str) -> Option<(&str, Level, &str)> {
    let t = text.strip_prefix("  ")?;
    // The path and `:line:col` hold no space: what follows the first one is ` - `.
    let (location, rest) = t.split_once(' ')?;
    let rest = rest.strip_prefix("- ")?;
    let (level, message) = rest.split_once(": ")?;
    let level = match level {
        "error" => Level::Error,
        "warning" => Level::Warning,
        "information" | "note" => Level::Note,
        _ => return None,
    };
    let mut parts = location.rsplitn(3, ':');
    let (col, line, path) = (parts.next()?, parts.next()?, parts.next()?);
    let numeric = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (numeric(col) && numeric(line) && !path.is_empty() && !path.contains(' '))
        .then_some((location, level, message))
}

/// The rule a message ends with: `… (reportArgumentType)` → `reportArgumentType`.
fn rule_of(message: &str) -> Option<&str> {
    let (_, rule) = message.trim_end().strip_suffix(')')?.rsplit_once('(')?;
    (rule.starts_with("report") && rule.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(rule)
}

/// `421 errors, 0 warnings, 0 informations` (a count of one is singular), and whether the
/// last is basedpyright's `notes`.
fn totals(text: &str) -> Option<([u64; 3], bool)> {
    // `421 error`: read no further a line that does not start so.
    let number = text.bytes().take_while(u8::is_ascii_digit).count();
    if number == 0 || !text[number..].starts_with(" error") {
        return None;
    }
    let mut out = [0; 3];
    let mut notes = false;
    let mut parts = text.trim().split(", ");
    for (i, word) in ["error", "warning", "information"].iter().enumerate() {
        let (n, noun) = parts.next()?.split_once(' ')?;
        let noun = noun.trim_end_matches('s');
        if i == 2 && noun == "note" {
            notes = true;
        } else if noun != *word {
            return None;
        }
        out[i] = n.parse().ok()?;
    }
    parts.next().is_none().then_some((out, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_pyright() {
        assert_eq!(
            totals("421 errors, 0 warnings, 0 informations "),
            Some(([421, 0, 0], false))
        );
        assert_eq!(
            totals("1 error, 1 warning, 0 informations"),
            Some(([1, 1, 0], false))
        );
        assert_eq!(
            totals("20 errors, 1669 warnings, 0 notes"),
            Some(([20, 1669, 0], true))
        );
        assert_eq!(totals("3 errors, 2 warnings"), None);
        assert_eq!(
            rule_of("\"None\" is not assignable (reportArgumentType)"),
            Some("reportArgumentType")
        );
        assert_eq!(rule_of("f(x) (y)"), None);
        let (loc, level, msg) =
            parse("  /a/b.py:54:12 - error: Type \"X\" is not assignable").unwrap();
        assert_eq!(
            (loc, level, msg),
            (
                "/a/b.py:54:12",
                Level::Error,
                "Type \"X\" is not assignable"
            )
        );
        assert!(parse("  a b.py:1:2 - error: x").is_none());
    }
}
