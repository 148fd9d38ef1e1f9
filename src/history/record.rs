//! The history's lines: one JSON object each, `"v": 1`, of three kinds. An `offload` and a
//! `read` are written as they happen; a `day` holds the exact totals records were folded into.
//!
//! ```text
//! {"v":1,"kind":"offload","time":1764547200,"session":"claude-4821","output":"cargo_4","started":"2025-12-01T00:00:00Z","path":"/tmp/agent/claude-4821/cargo_4.txt","command":"cargo","shapes":["cargo test"],"encoding":"o200k_base","output_tokens":48213,"summary_tokens":1102}
//! {"v":1,"kind":"read","time":1764547260,"session":"claude-4821","output":"cargo_4","started":"2025-12-01T00:00:00Z","via":"lines","encoding":"o200k_base","tokens":812}
//! {"v":1,"kind":"day","day":"2025-11-02","encoding":"o200k_base","command":"cargo","shapes":["cargo test"],"offloads":3,"output_tokens":90211,"summary_tokens":3120,"read_backs":2,"read_back_tokens":1400,"offloads_read_back":1}
//! ```
//!
//! An offload is known by its session, output and start time (the manifest's `started`): a
//! session's numbers start again after gc removes it, so `cargo_4` alone may name two outputs.

use serde_json::{Map, Value, json};

use super::Day;

/// The version of the line format; lines of another version are foreign and skipped.
const VERSION: u64 = 1;

/// One line of the history.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Record {
    Offload(Offload),
    Read(ReadBack),
    Day(Totals),
}

/// An output offloaded and summarised.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Offload {
    /// When the summary was printed, in seconds since the Unix epoch.
    pub time: i64,
    pub session: String,
    /// The output's name in its session, e.g. `cargo_4`.
    pub output: String,
    /// When its capture started, as the manifest says (RFC 3339).
    pub started: String,
    /// Where it was saved: while a file is there it can still be read back, and the record is
    /// not folded.
    pub path: String,
    /// The command's name, as the output is named (`cargo`).
    pub command: String,
    /// The output shapes the summary recognised, in the summary's order; empty when none.
    pub shapes: Vec<String>,
    pub encoding: String,
    pub output_tokens: u64,
    /// What was printed instead of the output: the summary (or `--json` object).
    pub summary_tokens: u64,
}

/// What `grep` or `lines` printed of an output.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ReadBack {
    pub time: i64,
    pub session: String,
    pub output: String,
    /// The output's start time from its session's manifest; `None` when the manifest did not
    /// say (then no offload matches it).
    pub started: Option<String>,
    /// `grep` or `lines`.
    pub via: String,
    pub encoding: String,
    pub tokens: u64,
}

/// Exact totals of folded records, for one day, encoding, command and set of shapes. The day
/// is the offload's, and read-backs count with the offload they read; `command` is `None` for
/// read-backs of outputs the history has no offload for (on the day they were read).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Totals {
    pub day: Day,
    pub encoding: String,
    pub command: Option<String>,
    pub shapes: Vec<String>,
    pub counts: Counts,
}

/// The figures `ctxoff stats` adds up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Counts {
    pub offloads: u64,
    pub output_tokens: u64,
    pub summary_tokens: u64,
    pub read_backs: u64,
    pub read_back_tokens: u64,
    /// Offloads read back at least once.
    pub offloads_read_back: u64,
}

impl Counts {
    /// Adds `other`; saturating, so a tampered history with absurd numbers shows absurd
    /// figures rather than stopping ctxoff.
    pub(crate) fn add(&mut self, other: &Counts) {
        self.offloads = self.offloads.saturating_add(other.offloads);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.summary_tokens = self.summary_tokens.saturating_add(other.summary_tokens);
        self.read_backs = self.read_backs.saturating_add(other.read_backs);
        self.read_back_tokens = self.read_back_tokens.saturating_add(other.read_back_tokens);
        self.offloads_read_back = self
            .offloads_read_back
            .saturating_add(other.offloads_read_back);
    }

    /// Tokens kept out of context: output − summary − read-back. Negative when more was
    /// printed than the outputs held.
    pub(crate) fn kept(&self) -> i128 {
        i128::from(self.output_tokens)
            - i128::from(self.summary_tokens)
            - i128::from(self.read_back_tokens)
    }

    /// One offload and the read-backs of it.
    pub(crate) fn of_offload(offload: &Offload, reads: &[&ReadBack]) -> Counts {
        Counts {
            offloads: 1,
            output_tokens: offload.output_tokens,
            summary_tokens: offload.summary_tokens,
            read_backs: reads.len() as u64,
            read_back_tokens: reads.iter().fold(0, |sum, r| sum.saturating_add(r.tokens)),
            offloads_read_back: u64::from(!reads.is_empty()),
        }
    }

    /// A read-back of an output the history has no offload for.
    pub(crate) fn of_unmatched(read: &ReadBack) -> Counts {
        Counts {
            read_backs: 1,
            read_back_tokens: read.tokens,
            ..Counts::default()
        }
    }
}

impl Record {
    /// The line, without its newline.
    pub(crate) fn to_line(&self) -> String {
        let json = match self {
            Record::Offload(o) => json!({
                "v": VERSION,
                "kind": "offload",
                "time": o.time,
                "session": o.session,
                "output": o.output,
                "started": o.started,
                "path": o.path,
                "command": o.command,
                "shapes": o.shapes,
                "encoding": o.encoding,
                "output_tokens": o.output_tokens,
                "summary_tokens": o.summary_tokens,
            }),
            Record::Read(r) => json!({
                "v": VERSION,
                "kind": "read",
                "time": r.time,
                "session": r.session,
                "output": r.output,
                "started": r.started,
                "via": r.via,
                "encoding": r.encoding,
                "tokens": r.tokens,
            }),
            Record::Day(t) => json!({
                "v": VERSION,
                "kind": "day",
                "day": t.day.to_string(),
                "encoding": t.encoding,
                "command": t.command,
                "shapes": t.shapes,
                "offloads": t.counts.offloads,
                "output_tokens": t.counts.output_tokens,
                "summary_tokens": t.counts.summary_tokens,
                "read_backs": t.counts.read_backs,
                "read_back_tokens": t.counts.read_back_tokens,
                "offloads_read_back": t.counts.offloads_read_back,
            }),
        };
        json.to_string()
    }

    /// Parses a line: `None` for anything but a line of this version with every field of its
    /// kind there with its type (a corrupt line, or one of another program or version).
    pub(crate) fn parse(line: &[u8]) -> Option<Record> {
        let json: Value = serde_json::from_slice(line).ok()?;
        let fields = Fields(json.as_object()?);
        if fields.u64("v")? != VERSION {
            return None;
        }
        Some(match fields.string("kind")?.as_str() {
            "offload" => Record::Offload(Offload {
                time: fields.i64("time")?,
                session: fields.string("session")?,
                output: fields.string("output")?,
                started: fields.string("started")?,
                path: fields.string("path")?,
                command: fields.string("command")?,
                shapes: fields.strings("shapes")?,
                encoding: fields.string("encoding")?,
                output_tokens: fields.u64("output_tokens")?,
                summary_tokens: fields.u64("summary_tokens")?,
            }),
            "read" => Record::Read(ReadBack {
                time: fields.i64("time")?,
                session: fields.string("session")?,
                output: fields.string("output")?,
                started: fields.nullable_string("started")?,
                via: fields.string("via")?,
                encoding: fields.string("encoding")?,
                tokens: fields.u64("tokens")?,
            }),
            "day" => Record::Day(Totals {
                day: Day::parse(&fields.string("day")?)?,
                encoding: fields.string("encoding")?,
                command: fields.nullable_string("command")?,
                shapes: fields.strings("shapes")?,
                counts: Counts {
                    offloads: fields.u64("offloads")?,
                    output_tokens: fields.u64("output_tokens")?,
                    summary_tokens: fields.u64("summary_tokens")?,
                    read_backs: fields.u64("read_backs")?,
                    read_back_tokens: fields.u64("read_back_tokens")?,
                    offloads_read_back: fields.u64("offloads_read_back")?,
                },
            }),
            _ => return None,
        })
    }
}

/// The fields of a JSON object, read by type: `None` for a missing field or one of another type.
struct Fields<'a>(&'a Map<String, Value>);

impl Fields<'_> {
    fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    fn u64(&self, key: &str) -> Option<u64> {
        self.get(key)?.as_u64()
    }

    fn i64(&self, key: &str) -> Option<i64> {
        self.get(key)?.as_i64()
    }

    fn string(&self, key: &str) -> Option<String> {
        Some(self.get(key)?.as_str()?.to_string())
    }

    /// A string or `null`; `None` when the key is missing or holds anything else.
    fn nullable_string(&self, key: &str) -> Option<Option<String>> {
        match self.get(key)? {
            Value::Null => Some(None),
            value => Some(Some(value.as_str()?.to_string())),
        }
    }

    fn strings(&self, key: &str) -> Option<Vec<String>> {
        self.get(key)?
            .as_array()?
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn offload(time: i64, output: &str, tokens: u64, summary: u64) -> Offload {
        Offload {
            time,
            session: "s".into(),
            output: output.into(),
            started: format!("started-{output}"),
            path: format!("/nonexistent/ctxoff-history-test/s/{output}.txt"),
            command: output.split('_').next().unwrap_or_default().into(),
            shapes: vec!["cargo test".into()],
            encoding: "o200k_base".into(),
            output_tokens: tokens,
            summary_tokens: summary,
        }
    }

    pub(crate) fn read(time: i64, of: &Offload, tokens: u64) -> ReadBack {
        ReadBack {
            time,
            session: of.session.clone(),
            output: of.output.clone(),
            started: Some(of.started.clone()),
            via: "lines".into(),
            encoding: of.encoding.clone(),
            tokens,
        }
    }

    #[test]
    fn records_round_trip() {
        let o = offload(1_764_547_200, "cargo_4", 48_213, 1_102);
        let mut unmatched = read(1_764_547_260, &o, 812);
        unmatched.started = None;
        let day = Totals {
            day: Day::parse("2025-11-02").unwrap(),
            encoding: "o200k_base".into(),
            command: None,
            shapes: Vec::new(),
            counts: Counts {
                read_backs: 2,
                read_back_tokens: 90,
                ..Counts::default()
            },
        };
        for record in [
            Record::Offload(o.clone()),
            Record::Read(read(1_764_547_260, &o, 812)),
            Record::Read(unmatched),
            Record::Day(day),
        ] {
            let line = record.to_line();
            assert!(!line.contains('\n'));
            assert_eq!(Record::parse(line.as_bytes()), Some(record), "{line}");
        }
    }

    #[test]
    fn documented_lines_parse() {
        let doc = include_str!("record.rs");
        let lines: Vec<&str> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("//! {"))
            .collect();
        assert_eq!(lines.len(), 3);
        for line in lines {
            let line = format!("{{{line}");
            let record = Record::parse(line.as_bytes()).expect(&line);
            assert_eq!(record.to_line(), line);
        }
    }

    #[test]
    fn absurd_numbers_saturate() {
        let o = offload(1, "x_1", u64::MAX, u64::MAX);
        let reads = [read(2, &o, u64::MAX), read(3, &o, u64::MAX)];
        let mut counts = Counts::of_offload(&o, &[&reads[0], &reads[1]]);
        counts.add(&counts.clone());
        assert_eq!(counts.read_back_tokens, u64::MAX);
        assert_eq!(counts.kept(), -i128::from(u64::MAX));
    }

    #[test]
    fn corrupt_and_foreign_lines_are_not_records() {
        let good = Record::Offload(offload(1, "x_1", 10, 2)).to_line();
        let cut = &good[..good.len() / 2];
        let other_version = good.replace("\"v\":1", "\"v\":2");
        let wrong_type = good.replace("\"output_tokens\":10", "\"output_tokens\":\"10\"");
        let negative = good.replace("\"output_tokens\":10", "\"output_tokens\":-10");
        let missing = good.replace("\"summary_tokens\":2", "\"other\":2");
        let o = offload(1, "x_1", 10, 2);
        let read_line = Record::Read(read(2, &o, 5)).to_line();
        assert!(read_line.contains("\"started\":\""), "{read_line}");
        let started = regex::Regex::new(r#""started":"[^"]*""#).unwrap();
        let started_number = started.replace(&read_line, "\"started\":5").into_owned();
        let no_started = started.replace(&read_line, "\"x\":null").into_owned();
        for line in [
            &started_number,
            &no_started,
            cut,
            "",
            "not json",
            "[1,2]",
            "{}",
            r#"{"v":1,"kind":"gc"}"#,
            &other_version,
            &wrong_type,
            &negative,
            &missing,
        ] {
            assert_eq!(Record::parse(line.as_bytes()), None, "{line}");
        }
    }
}
