//! Adding the history up: read-backs matched with the offloads they read, then the figures of a
//! period and scope, in total and by command, by shape and by day.

use std::collections::{BTreeMap, HashMap};

use super::{Counts, Day, Offload, ReadBack, Record};

/// Offloads with the read-backs of each, and read-backs of outputs with no offload recorded.
pub(crate) struct Linked<'a> {
    pub offloads: Vec<(&'a Offload, Vec<&'a ReadBack>)>,
    pub unmatched: Vec<&'a ReadBack>,
}

/// Matches every read-back with the offload it read: same session, output, start time and
/// encoding, wherever the two are in the history.
pub(crate) fn link<'a>(records: impl IntoIterator<Item = &'a Record>) -> Linked<'a> {
    let mut offloads: Vec<(&Offload, Vec<&ReadBack>)> = Vec::new();
    let mut reads = Vec::new();
    for record in records {
        match record {
            Record::Offload(o) => offloads.push((o, Vec::new())),
            Record::Read(r) => reads.push(r),
            Record::Day(_) => {}
        }
    }
    let index: HashMap<(&str, &str, &str, &str), usize> = offloads
        .iter()
        .enumerate()
        .map(|(i, (o, _))| {
            let key = (&*o.session, &*o.output, &*o.started, &*o.encoding);
            (key, i)
        })
        .collect();
    let mut unmatched = Vec::new();
    for read in reads {
        let key = read
            .started
            .as_deref()
            .map(|started| (&*read.session, &*read.output, started, &*read.encoding));
        match key.and_then(|key| index.get(&key)) {
            Some(&i) => offloads[i].1.push(read),
            None => unmatched.push(read),
        }
    }
    Linked {
        offloads,
        unmatched,
    }
}

/// Which records count.
#[derive(Clone, Debug)]
pub(crate) struct Scope {
    /// The first day counted; `None` for all.
    pub since: Option<Day>,
    /// One session only; `None` for all.
    pub session: Option<String>,
    /// Token counts of different encodings do not add up: only this one's are counted.
    pub encoding: String,
}

/// The figures of a scope. Offloads count on the (local) day their summary was printed, each
/// with all its read-backs, whenever they came.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Figures {
    pub total: Counts,
    /// Largest output first.
    pub by_command: Vec<(String, Counts)>,
    /// Most read back first: by the share of offloads read back, then read-back tokens.
    pub by_shapes: Vec<(Vec<String>, Counts)>,
    /// Every day with an offload, in order.
    pub by_day: Vec<(Day, Counts)>,
    /// Read-backs of outputs the history has no offload of (it was not recorded): counted on
    /// the day they were read, and in no other figure.
    pub unmatched: Counts,
    /// Offloads counted in other encodings, left out, by encoding.
    pub other_encodings: BTreeMap<String, u64>,
    /// Folded daily totals in the period, left out of a session's figures: they have no sessions.
    pub folded_left_out: u64,
}

impl Figures {
    pub(crate) fn of(records: &[Record], scope: &Scope) -> Figures {
        let mut figures = Figures::default();
        let in_scope = |day: Day, session: Option<&str>| {
            scope.since.is_none_or(|since| day >= since)
                && scope.session.as_deref().is_none_or(|s| session == Some(s))
        };
        // Offloads (or a day's totals) in scope: (day, command, shapes, counts).
        let mut counted: Vec<(Day, &str, &[String], Counts)> = Vec::new();
        let mut left_out = |encoding: &str, offloads: u64| {
            let count = figures
                .other_encodings
                .entry(encoding.to_string())
                .or_default();
            *count = count.saturating_add(offloads);
        };
        let linked = link(records);
        for (offload, reads) in &linked.offloads {
            let day = Day::local(offload.time);
            if !in_scope(day, Some(&offload.session)) {
                continue;
            }
            if offload.encoding != scope.encoding {
                left_out(&offload.encoding, 1);
                continue;
            }
            let counts = Counts::of_offload(offload, reads);
            counted.push((day, &offload.command, &offload.shapes, counts));
        }
        for read in &linked.unmatched {
            if in_scope(Day::local(read.time), Some(&read.session))
                && read.encoding == scope.encoding
            {
                figures.unmatched.add(&Counts::of_unmatched(read));
            }
        }
        for record in records {
            let Record::Day(totals) = record else {
                continue;
            };
            if !in_scope(totals.day, None) {
                // No session: a day's totals count only for all sessions.
                if scope.session.is_some() && scope.since.is_none_or(|s| totals.day >= s) {
                    figures.folded_left_out += 1;
                }
                continue;
            }
            if totals.encoding != scope.encoding {
                left_out(&totals.encoding, totals.counts.offloads);
                continue;
            }
            match &totals.command {
                Some(command) => counted.push((totals.day, command, &totals.shapes, totals.counts)),
                None => figures.unmatched.add(&totals.counts),
            }
        }
        let mut by_command: BTreeMap<&str, Counts> = BTreeMap::new();
        let mut by_shapes: BTreeMap<&[String], Counts> = BTreeMap::new();
        let mut by_day: BTreeMap<Day, Counts> = BTreeMap::new();
        for (day, command, shapes, counts) in counted {
            figures.total.add(&counts);
            by_command.entry(command).or_default().add(&counts);
            by_shapes.entry(shapes).or_default().add(&counts);
            by_day.entry(day).or_default().add(&counts);
        }
        figures.by_command = by_command
            .into_iter()
            .map(|(command, counts)| (command.to_string(), counts))
            .collect();
        figures
            .by_command
            .sort_by_key(|(_, counts)| std::cmp::Reverse(counts.output_tokens));
        figures.by_shapes = by_shapes
            .into_iter()
            .map(|(shapes, counts)| (shapes.to_vec(), counts))
            .collect();
        figures.by_shapes.sort_by(|(_, a), (_, b)| {
            // a.read/a.offloads > b.read/b.offloads, exactly.
            let share = |c: &Counts, d: &Counts| {
                u128::from(c.offloads_read_back) * u128::from(d.offloads.max(1))
            };
            share(b, a)
                .cmp(&share(a, b))
                .then(b.read_back_tokens.cmp(&a.read_back_tokens))
                .then(b.offloads.cmp(&a.offloads))
        });
        figures.by_day = by_day.into_iter().collect();
        figures
    }
}
