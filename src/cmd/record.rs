//! Recording in the history (`crate::history`) what ctxoff printed: the summary of an offload
//! (run and pipe mode) and what `grep` and `lines` printed of an output.
//!
//! Recording changes nothing that is printed and no exit status, and says nothing when it
//! fails: the reader is usually an agent, and a note about ctxoff's own bookkeeping on every
//! command would cost its context the tokens ctxoff is there to save. `ctxoff stats` says when
//! the history cannot be used. Pass-through records nothing, and so costs nothing.

use anyhow::Result;
use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use super::Context;
use crate::config::Settings;
use crate::history::{self, History, Offload, ReadBack, Record};
use crate::run::Offloaded;
use crate::store::{reference, stem};
use crate::summary::Report;
use crate::tokens::{ParallelCounter, Tokenizer};

/// Records an offload whose summary (or `--json` object), `printed`, was printed. Binary
/// output is not tokenized, so it has no figures to record.
pub(super) fn offload(history: Option<&Path>, off: &Offloaded, printed: &str) {
    let Some(output_tokens) = off.entry.tokens else {
        return;
    };
    let Some(history) = open(history) else {
        return;
    };
    let record = Record::Offload(Offload {
        time: history::now(),
        session: off.store.session.clone(),
        output: stem(&off.entry.file).to_string(),
        started: off.entry.started.clone(),
        path: off.path.to_string_lossy().into_owned(),
        command: off.entry.name.clone(),
        shapes: shapes(&off.report),
        encoding: off.entry.encoding.clone(),
        output_tokens,
        summary_tokens: off.tokenizer.count(printed),
    });
    let _ = history.append(&record);
}

/// Runs a read-back, `via` `grep` or `lines`, of the output `reference` names, and records the
/// tokens it printed on the context's stdout and stderr. `read` gets the reference to read: the
/// output's path once resolved, so that the output recorded is the one read even if `@last`
/// moves meanwhile. A read-back that fails (exit status 2) is not recorded.
pub(super) fn read_back(
    ctx: &mut Context,
    settings: &Settings,
    via: &str,
    reference: &str,
    read: impl FnOnce(&str, &mut dyn Write, &mut dyn Write) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let output = settings
        .store()
        .ok()
        .and_then(|store| reference::resolve(reference, &store).ok());
    let (Some(output), Some(history)) = (output, open(ctx.history())) else {
        return read(reference, ctx.out, ctx.err);
    };
    let started = output.entry().map(|entry| entry.started);
    let tokenizer = Tokenizer::load(settings.encoding);
    let mut out = Tally::new(ctx.out, tokenizer);
    let mut err = Tally::new(ctx.err, tokenizer);
    let code = read(
        output.path.to_str().unwrap_or(reference),
        &mut out,
        &mut err,
    )?;
    let record = Record::Read(ReadBack {
        time: history::now(),
        session: output.session.clone(),
        output: output.stem().to_string(),
        started,
        via: via.to_string(),
        encoding: settings.encoding.name().to_string(),
        tokens: out.tokens() + err.tokens(),
    });
    let _ = history.append(&record);
    Ok(code)
}

/// The history in `dir`, created as needed; `None` when there is none or it is not safe to use.
fn open(dir: Option<&Path>) -> Option<History> {
    History::open(dir?, true).ok().flatten()
}

/// The output shapes the summary recognised, as its report names them.
fn shapes(report: &Report) -> Vec<String> {
    let facts = report.facts_json();
    let mut shapes: Vec<String> = facts
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|fact| fact["shape"].as_str().map(str::to_string))
        .collect();
    shapes.dedup();
    shapes
}

/// A stream that counts the tokens of what goes through it, exactly, in bounded memory.
struct Tally<'a> {
    inner: &'a mut dyn Write,
    counter: ParallelCounter,
}

impl<'a> Tally<'a> {
    fn new(inner: &'a mut dyn Write, tokenizer: Tokenizer) -> Tally<'a> {
        Tally {
            inner,
            counter: ParallelCounter::new(tokenizer),
        }
    }

    fn tokens(self) -> u64 {
        self.counter.finish()
    }
}

impl Write for Tally<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.counter.feed(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokens::Encoding;

    /// The tally's count equals counting the whole text at once, however it was written.
    #[test]
    fn a_tally_counts_what_was_printed_exactly() {
        let text: String = (1..=120_000)
            .map(|i| format!("{i}:/src/lib.rs:{i}: warning: unused variable `x{i}`\n"))
            .collect();
        let tokenizer = Tokenizer::load(Encoding::O200kBase);
        for piece in [7, 4096, 3 << 20] {
            let mut printed = Vec::new();
            let mut tally = Tally::new(&mut printed, tokenizer);
            for chunk in text.as_bytes().chunks(piece) {
                tally.write_all(chunk).unwrap();
            }
            assert_eq!(tally.tokens(), tokenizer.count(&text), "pieces of {piece}");
            assert_eq!(printed, text.as_bytes());
        }
        let mut sink = Vec::new();
        assert_eq!(Tally::new(&mut sink, tokenizer).tokens(), 0);
    }
}
