//! The per-user history behind `ctxoff stats`: a record of every offload (the tokens of the
//! output and of the summary printed instead) and of every read-back (the tokens `grep` or
//! `lines` printed of an output). It lives in the platform data directory, so it outlives `gc`
//! and the sessions it cleans, and stays small by folding old records into exact daily totals.
//!
//! It counts no tokens and prints nothing: the commands record what they counted
//! (`cmd::record`), and `cmd::stats` shows the [`Figures`].

mod day;
mod figures;
mod file;
mod fold;
mod record;

pub(crate) use day::{Day, now};
pub(crate) use figures::{Figures, Scope};
pub(crate) use file::{History, KEEP_DAYS};
pub(crate) use record::{Counts, Offload, ReadBack, Record, Totals};

/// The records of a history's text, and the numbers (from 1) of the lines that are not
/// records: corrupt, or of another program or version. Empty lines are neither.
pub(crate) fn records(text: &str) -> (Vec<Record>, Vec<usize>) {
    let mut records = Vec::new();
    let mut unreadable = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.is_empty() {
            continue;
        }
        match Record::parse(line.as_bytes()) {
            Some(record) => records.push(record),
            None => unreadable.push(i + 1),
        }
    }
    (records, unreadable)
}
