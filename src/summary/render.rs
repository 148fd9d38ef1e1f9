//! Writing the summary, as text or as one JSON object, from a plain view of what was saved.

use serde_json::{Value, json};
use std::path::Path;

use super::Report;
use super::preview::{Preview, PreviewLine};
use crate::format::{plural, shell_quote, signal_name, thousands};
use crate::store::{Entry, Kind};

/// How the run is described in the header: the command line, or the pipe's name.
pub(crate) struct Origin<'a> {
    /// The command as typed (shell-quoted); `None` in pipe mode.
    pub command: Option<&'a str>,
    pub name: &'a str,
}

/// A saved output, as the summary describes it.
pub(crate) struct Saved<'a> {
    /// The manifest entry: counts, exit status, hash, duplicate.
    pub entry: &'a Entry,
    pub path: &'a Path,
    pub kind: Kind,
    pub session: &'a str,
    /// Why the configured scratch root was not used, when it was not.
    pub note: Option<&'a str>,
    /// The signal that interrupted ctxoff, when one did.
    pub interrupted: Option<i32>,
    pub preview: &'a Preview,
    pub report: &'a Report,
}

/// The text summary, one line per element, each ending in a newline.
pub(crate) fn render(origin: &Origin, off: &Saved) -> String {
    let e = off.entry;
    let path = shell_quote(&off.path.to_string_lossy());
    let mut out = Vec::new();
    let what = match origin.command {
        Some(cmd) => format!("`{cmd}` {}", describe_ending(off)),
        None => match off.interrupted {
            Some(sig) => format!(
                "standard input ({}) interrupted by {}",
                origin.name,
                signal_name(sig)
            ),
            None => format!("standard input ({})", origin.name),
        },
    };
    if let Kind::Binary(kind) = off.kind {
        out.push(format!(
            "[ctxoff] {what} · binary output{} · {} bytes · sha256 {} · full output: {path}",
            kind.map(|k| format!(" ({k})")).unwrap_or_default(),
            thousands(e.bytes),
            e.sha256
        ));
    } else {
        out.push(format!(
            "[ctxoff] {what} · {} · {} · full output: {path}",
            plural(e.lines, "line", "lines"),
            e.tokens
                .map_or_else(|| "? tokens".to_string(), |t| plural(t, "token", "tokens")),
        ));
    }
    if let Some(note) = off.note {
        out.push(format!("[ctxoff] note: {note}"));
    }
    if origin.command.is_none() {
        out.push(
            "[ctxoff] the producing command's exit status is unknown here (a pipe); \
             `set -o pipefail` makes the shell report it"
                .to_string(),
        );
    }
    if !e.complete {
        out.push("[ctxoff] ctxoff was interrupted: the saved output is incomplete".to_string());
    }
    if let Some(original) = &e.duplicate_of {
        out.push(format!(
            "[ctxoff] identical to {original} (same sha256; stored once)"
        ));
    }
    if let Kind::Binary(_) = off.kind {
        out.push(format!(
            "[ctxoff] not shown: binary. Inspect with: file {path} · xxd {path} | head"
        ));
        return join(out);
    }
    let p = off.preview;
    out.extend(p.head.iter().map(head_line));
    let omitted = p.omitted_lines(e.lines);
    // Unknown when counting failed.
    let omitted_tokens = e
        .tokens
        .map_or("?".to_string(), |_| thousands(p.omitted_tokens));
    match &omitted {
        // Nothing previewed (a threshold of 0): the header says what the whole output is.
        Some(_) if p.head.is_empty() && p.tail.is_empty() => {}
        Some(range) => out.push(format!(
            "[ctxoff] … {} omitted ({} tokens) …",
            line_range(range.start(), range.end()),
            omitted_tokens
        )),
        None if p.head.iter().chain(&p.tail).any(|l| l.cut) => {
            let line = p.head.last().map_or(1, |l| l.number);
            out.push(format!(
                "[ctxoff] … the middle of line {} omitted ({} tokens) …",
                thousands(line),
                omitted_tokens
            ));
        }
        None => {}
    }
    out.extend(p.tail.iter().map(tail_line));
    out.extend(off.report.render());
    let (from, to) = match &omitted {
        Some(r) => (*r.start(), (*r.start() + 99).min(*r.end())),
        None => (1, e.lines.min(100)),
    };
    // The shape's own question first; without one, the omitted lines come first.
    out.push(match off.report.hint() {
        Some(grep) => format!(
            "[ctxoff] read more: ctxoff grep {path} {grep} · ctxoff lines {path} {from}:{to}"
        ),
        None => format!(
            "[ctxoff] read more: ctxoff lines {path} {from}:{to} · ctxoff grep {path} 'REGEX' -C 3"
        ),
    });
    join(out)
}

/// The `--json` object for an offloaded output.
pub(crate) fn to_json(off: &Saved) -> Value {
    let e = off.entry;
    let p = off.preview;
    let omitted = p.omitted_lines(e.lines).map(|r| {
        json!({
            "from": r.start(),
            "to": r.end(),
            "tokens": e.tokens.map(|_| p.omitted_tokens),
        })
    });
    let lines = |v: &[PreviewLine]| -> Value {
        v.iter()
            .map(|l| json!({"line": l.number, "text": l.text, "cut": l.cut}))
            .collect()
    };
    json!({
        "offloaded": true,
        "path": off.path,
        "name": e.name,
        "n": e.n,
        "session": off.session,
        "exit_code": e.exit_code,
        "signal": e.signal,
        "complete": e.complete,
        "bytes": e.bytes,
        "lines": e.lines,
        "tokens": e.tokens,
        "encoding": e.encoding,
        "sha256": e.sha256,
        "kind": match off.kind { Kind::Text => "text", Kind::Json => "json", Kind::Binary(_) => "binary" },
        "binary_type": match off.kind { Kind::Binary(t) => t, _ => None },
        "duplicate_of": e.duplicate_of,
        "head": lines(&p.head),
        "tail": lines(&p.tail),
        "omitted": omitted,
        "notable": off.report.notable_json(),
        "facts": off.report.facts_json(),
        "note": off.note,
    })
}

fn head_line(l: &PreviewLine) -> String {
    if l.cut {
        format!("{} [… line {} cut]", l.text, thousands(l.number))
    } else {
        l.text.clone()
    }
}

fn tail_line(l: &PreviewLine) -> String {
    if l.cut {
        format!("[line {} cut …] {}", thousands(l.number), l.text)
    } else {
        l.text.clone()
    }
}

fn join(lines: Vec<String>) -> String {
    let mut s = lines.join("\n");
    s.push('\n');
    s
}

fn line_range(from: &u64, to: &u64) -> String {
    if from == to {
        format!("line {}", thousands(*from))
    } else {
        format!("lines {}–{}", thousands(*from), thousands(*to))
    }
}

fn describe_ending(off: &Saved) -> String {
    match (off.interrupted, off.entry.signal, off.entry.exit_code) {
        (Some(sig), _, _) => format!("interrupted by {}", signal_name(sig)),
        (None, Some(sig), _) => format!("killed by {}", signal_name(sig)),
        (None, None, Some(code)) => format!("exited {code}"),
        (None, None, None) => "ended".to_string(),
    }
}
