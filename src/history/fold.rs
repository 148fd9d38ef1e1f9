//! Folding: the history stays small by adding old records into exact daily totals.
//!
//! An offload is folded, with every read-back of it, once it is older than the days kept and
//! its output file is gone: only then can no read-back of it come any more, so its totals are
//! final (an offload whose file is still there may still be read back, and stays). A read-back
//! of no recorded offload is folded once older than the days kept. Totals are per day,
//! encoding, command and set of shapes; each day record sums exactly what it replaced.

use std::collections::{BTreeMap, HashMap};

use super::figures::link;
use super::{Counts, Day, Offload, ReadBack, Record, Totals};

/// The history's lines after folding the records that are done with: `before` is the first day
/// not folded, `gone(path)` says whether an output file is gone. The totals come first, one
/// line per day, encoding, command and shapes, then the lines kept, in their order; lines that
/// are not records (corrupt, or of another version) are kept as they are.
pub(crate) fn fold(lines: &[&str], before: Day, gone: impl Fn(&str) -> bool) -> Vec<String> {
    let parsed: Vec<Option<Record>> = lines.iter().map(|l| Record::parse(l.as_bytes())).collect();
    let offload_line: HashMap<*const Offload, usize> = parsed
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Some(Record::Offload(o)) => Some((o as *const Offload, i)),
            _ => None,
        })
        .collect();
    let read_line: HashMap<*const ReadBack, usize> = parsed
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Some(Record::Read(read)) => Some((read as *const ReadBack, i)),
            _ => None,
        })
        .collect();

    type Key = (Day, String, Option<String>, Vec<String>);
    let mut totals: BTreeMap<Key, Counts> = BTreeMap::new();
    let mut folded = vec![false; lines.len()];
    for (i, record) in parsed.iter().enumerate() {
        if let Some(Record::Day(t)) = record {
            let key = (
                t.day,
                t.encoding.clone(),
                t.command.clone(),
                t.shapes.clone(),
            );
            totals.entry(key).or_default().add(&t.counts);
            folded[i] = true;
        }
    }
    let linked = link(parsed.iter().flatten());
    for (offload, reads) in &linked.offloads {
        let day = Day::local(offload.time);
        if day >= before || !gone(&offload.path) {
            continue;
        }
        let key = (
            day,
            offload.encoding.clone(),
            Some(offload.command.clone()),
            offload.shapes.clone(),
        );
        totals
            .entry(key)
            .or_default()
            .add(&Counts::of_offload(offload, reads));
        folded[offload_line[&(*offload as *const Offload)]] = true;
        for read in reads {
            folded[read_line[&(*read as *const ReadBack)]] = true;
        }
    }
    for read in &linked.unmatched {
        let day = Day::local(read.time);
        if day >= before {
            continue;
        }
        let key = (day, read.encoding.clone(), None, Vec::new());
        totals
            .entry(key)
            .or_default()
            .add(&Counts::of_unmatched(read));
        folded[read_line[&(*read as *const ReadBack)]] = true;
    }

    let days = totals
        .into_iter()
        .map(|((day, encoding, command, shapes), counts)| {
            Record::Day(Totals {
                day,
                encoding,
                command,
                shapes,
                counts,
            })
            .to_line()
        });
    let kept = lines
        .iter()
        .zip(folded)
        .filter(|(_, folded)| !folded)
        .map(|(line, _)| line.to_string());
    days.chain(kept).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::figures::{Figures, Scope};
    use crate::history::record::tests::{offload, read};

    const DAY: i64 = 86_400;

    fn figures(lines: &[String], since: Option<Day>) -> Figures {
        let records: Vec<Record> = lines
            .iter()
            .filter_map(|l| Record::parse(l.as_bytes()))
            .collect();
        Figures::of(
            &records,
            &Scope {
                since,
                session: None,
                encoding: "o200k_base".into(),
            },
        )
    }

    /// A history over sixty days: offloads, read-backs of them (some days later), read-backs
    /// of nothing recorded, an offload in another encoding, and a corrupt line.
    fn history(now: i64) -> Vec<String> {
        let mut lines = Vec::new();
        for d in (0..60).rev() {
            let t = now - d * DAY;
            let a = offload(t, &format!("cargo_{d}"), 5_000 + d as u64, 300);
            let mut b = offload(t + 60, &format!("pytest_{d}"), 9_000, 400 + d as u64);
            b.shapes = if d % 3 == 0 {
                Vec::new()
            } else {
                vec!["pytest".into()]
            };
            lines.push(Record::Offload(a.clone()).to_line());
            lines.push(Record::Offload(b.clone()).to_line());
            if d % 2 == 0 {
                lines.push(Record::Read(read(t + 120, &a, 700)).to_line());
                lines.push(Record::Read(read(t + 3 * DAY, &a, 50)).to_line());
            }
            let mut stray = read(t + 200, &b, 33);
            stray.started = None;
            lines.push(Record::Read(stray).to_line());
        }
        let mut cl100k = offload(now - 40 * DAY, "make_1", 7_000, 100);
        cl100k.encoding = "cl100k_base".into();
        lines.push(Record::Offload(cl100k).to_line());
        lines.push("{\"v\":1,\"kind\":\"offload\",\"tim".into());
        lines
    }

    #[test]
    fn folding_keeps_every_figure_exact() {
        let now = super::super::day::now();
        let today = Day::local(now);
        let lines = history(now);
        let text: Vec<&str> = lines.iter().map(String::as_str).collect();
        let folded = fold(&text, today.minus(14), |_| true);
        assert!(folded.len() < lines.len(), "{}", folded.len());
        // One line of totals per day, encoding, command and shapes; every record left is recent.
        let mut keys = std::collections::HashSet::new();
        for record in folded.iter().filter_map(|l| Record::parse(l.as_bytes())) {
            match record {
                Record::Day(t) => assert!(keys.insert((t.day, t.encoding, t.command, t.shapes))),
                Record::Offload(o) => assert!(Day::local(o.time) >= today.minus(14)),
                Record::Read(r) => assert!(Day::local(r.time) >= today.minus(14)),
            }
        }
        for since in [
            None,
            Some(today.minus(13)),
            Some(today.minus(30)),
            Some(today),
        ] {
            assert_eq!(figures(&folded, since), figures(&lines, since), "{since:?}");
        }
        // Nothing left to fold: folding again changes nothing.
        let again: Vec<&str> = folded.iter().map(String::as_str).collect();
        assert_eq!(fold(&again, today.minus(14), |_| true), folded);
        // The corrupt line is kept as it was.
        assert!(folded.contains(lines.last().unwrap()));
    }

    #[test]
    fn outputs_still_there_are_not_folded() {
        let now = super::super::day::now();
        let today = Day::local(now);
        let lines = history(now);
        let text: Vec<&str> = lines.iter().map(String::as_str).collect();
        let kept_path = |path: &str| !path.contains("/cargo_");
        let folded = fold(&text, today.minus(14), kept_path);
        for (line, record) in lines.iter().map(|l| (l, Record::parse(l.as_bytes()))) {
            if let Some(Record::Offload(o)) = record
                && o.command == "cargo"
            {
                assert!(folded.contains(line), "{line}");
            }
        }
        assert_eq!(figures(&folded, None), figures(&lines, None));
        // Once their files are gone they fold, and a late read-back counted with them.
        let later: Vec<&str> = folded.iter().map(String::as_str).collect();
        let refolded = fold(&later, today.minus(14), |_| true);
        assert_eq!(figures(&refolded, None), figures(&lines, None));
    }

    #[test]
    fn totals_of_the_same_key_merge() {
        let now = super::super::day::now();
        let old = now - 40 * DAY;
        let one = Record::Offload(offload(old, "cargo_1", 100, 10)).to_line();
        let two = Record::Offload(offload(old + 1, "cargo_2", 200, 20)).to_line();
        let first = fold(&[&one], Day::local(now).minus(14), |_| true);
        let mut lines: Vec<&str> = first.iter().map(String::as_str).collect();
        lines.push(&two);
        let second = fold(&lines, Day::local(now).minus(14), |_| true);
        assert_eq!(second.len(), 1, "{second:?}");
        let Some(Record::Day(t)) = Record::parse(second[0].as_bytes()) else {
            panic!("{second:?}")
        };
        assert_eq!((t.counts.offloads, t.counts.output_tokens), (2, 300));
    }
}
