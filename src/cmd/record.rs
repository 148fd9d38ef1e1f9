//! Recording in the history (`crate::history`) what `grep` and `lines` printed of an output
//! (an offload's summary is recorded by `run::Offloaded::record`).
//!
//! Recording changes nothing that is printed and no exit status, and says nothing when it
//! fails: the reader is usually an agent, and a note about ctxoff's own bookkeeping on every
//! command would cost its context the tokens ctxoff is there to save. `ctxoff stats` says when
//! the history cannot be used. Pass-through records nothing, and so costs nothing.

use anyhow::Result;
use std::io::{self, Write};
use std::process::ExitCode;

use super::Context;
use crate::config::Settings;
use crate::history::{self, History, ReadBack, Record};
use crate::store::reference::{self, Output};
use crate::tokens::{ParallelCounter, Tokenizer};

/// The output a read-back reads, resolved once, and how hints refer to it.
pub(super) struct Target<'a> {
    pub(super) output: &'a Output,
    /// `cargo_4` in the current session, else the output's path.
    pub(super) short_ref: String,
}

/// Runs a read-back, `via` `grep` or `lines`, of the output `reference` names, and records the
/// tokens it printed on the context's stdout and stderr. The reference is resolved once, so the
/// output recorded is the one read even if `@last` moves meanwhile. A read-back that fails
/// (exit status 2) is not recorded.
pub(super) fn read_back(
    ctx: &mut Context,
    settings: &Settings,
    via: &str,
    reference: &str,
    read: impl FnOnce(&Target, &mut dyn Write, &mut dyn Write) -> Result<ExitCode>,
) -> Result<ExitCode> {
    let store = settings.store()?;
    let output = reference::resolve(reference, &store)?;
    let target = Target {
        output: &output,
        short_ref: output.short_ref(&store),
    };
    let Some(history) = History::writable(ctx.history()) else {
        return read(&target, ctx.out, ctx.err);
    };
    let tokenizer = Tokenizer::load(settings.encoding);
    let mut out = Tally::new(ctx.out, tokenizer);
    let mut err = Tally::new(ctx.err, tokenizer);
    let code = read(&target, &mut out, &mut err)?;
    let record = Record::Read(ReadBack {
        time: history::now(),
        session: output.session.clone(),
        output: output.stem().to_string(),
        started: output.entry().map(|entry| entry.started.clone()),
        via: via.to_string(),
        encoding: settings.encoding.name().to_string(),
        tokens: out.tokens() + err.tokens(),
    });
    let _ = history.append(&record);
    Ok(code)
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
