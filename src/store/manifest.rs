//! The per-session manifest `index.jsonl`: one JSON line per offload, appended when a capture
//! starts and again when it ends; the last line for an `n` counts.

use serde_json::{Map, Value, json};
use std::io::{self, Write};
use std::path::Path;

use super::SessionLock;
use super::layout::{MANIFEST, MANIFEST_NEW};
use super::safety::{Access, Dir, read_in};

/// One line of a session's `index.jsonl`. A capture appends a line with `complete: false` when it
/// starts writing and another when it ends; the last line for an `n` is the one that counts.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entry {
    pub n: u64,
    /// File name inside the session directory, e.g. `cargo_4.txt`.
    pub file: String,
    pub name: String,
    pub argv: Vec<String>,
    pub cwd: String,
    /// RFC 3339, UTC.
    pub started: String,
    pub duration_ms: u64,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub bytes: u64,
    pub lines: u64,
    /// `None` for binary output, which is not tokenized.
    pub tokens: Option<u64>,
    pub encoding: String,
    pub sha256: String,
    pub complete: bool,
    /// Written only when set.
    pub duplicate_of: Option<String>,
    /// What the order of the saved bytes means (see [`ORDER_EXACT`], [`ORDER_PER_STREAM`]);
    /// written only when set.
    pub order: Option<String>,
}

/// The saved output came through one pipe (or standard input): its bytes are in the order the
/// command wrote them.
pub const ORDER_EXACT: &str = "exact";
/// The command's stdout and stderr came through two pipes: each stream's bytes are in the order
/// written, but between the streams the order is the order ctxoff read them in, which can differ
/// from the order they were written (a line of stderr can come before stdout written earlier).
pub const ORDER_PER_STREAM: &str = "per-stream";

impl Entry {
    /// The manifest line's JSON object, keys in the order of the fields.
    pub fn to_json(&self) -> Value {
        let mut json = json!({
            "n": self.n,
            "file": self.file,
            "name": self.name,
            "argv": self.argv,
            "cwd": self.cwd,
            "started": self.started,
            "duration_ms": self.duration_ms,
            "exit_code": self.exit_code,
            "signal": self.signal,
            "bytes": self.bytes,
            "lines": self.lines,
            "tokens": self.tokens,
            "encoding": self.encoding,
            "sha256": self.sha256,
            "complete": self.complete,
        });
        if let Some(original) = &self.duplicate_of {
            json["duplicate_of"] = original.as_str().into();
        }
        if let Some(order) = &self.order {
            json["order"] = order.as_str().into();
        }
        json
    }

    /// Parses a manifest line: `None` unless every field is there with its type (the optional
    /// ones may also be missing or null). Other keys are ignored.
    pub(crate) fn from_json(line: &[u8]) -> Option<Entry> {
        let json: Value = serde_json::from_slice(line).ok()?;
        let fields = Fields(json.as_object()?);
        let string = |v: &Value| v.as_str().map(str::to_string);
        let i32 = |v: &Value| i32::try_from(v.as_i64()?).ok();
        Some(Entry {
            n: fields.u64("n")?,
            file: fields.string("file")?,
            name: fields.string("name")?,
            argv: fields
                .get("argv")?
                .as_array()?
                .iter()
                .map(string)
                .collect::<Option<_>>()?,
            cwd: fields.string("cwd")?,
            started: fields.string("started")?,
            duration_ms: fields.u64("duration_ms")?,
            exit_code: fields.optional("exit_code", i32)?,
            signal: fields.optional("signal", i32)?,
            bytes: fields.u64("bytes")?,
            lines: fields.u64("lines")?,
            tokens: fields.optional("tokens", Value::as_u64)?,
            encoding: fields.string("encoding")?,
            sha256: fields.string("sha256")?,
            complete: fields.get("complete")?.as_bool()?,
            duplicate_of: fields.optional("duplicate_of", string)?,
            order: fields.optional("order", string)?,
        })
    }
}

/// The fields of a JSON object, read by type: each getter is `None` for a missing field or one
/// of another type.
pub(super) struct Fields<'a>(pub(super) &'a Map<String, Value>);

impl Fields<'_> {
    pub(super) fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    pub(super) fn u64(&self, key: &str) -> Option<u64> {
        self.get(key)?.as_u64()
    }

    pub(super) fn string(&self, key: &str) -> Option<String> {
        Some(self.get(key)?.as_str()?.to_string())
    }

    /// `Some(None)` for a missing or null field, `None` for one `read` rejects.
    pub(super) fn optional<T>(
        &self,
        key: &str,
        read: impl Fn(&Value) -> Option<T>,
    ) -> Option<Option<T>> {
        match self.get(key) {
            None | Some(Value::Null) => Some(None),
            Some(value) => read(value).map(Some),
        }
    }
}

/// Replaces the manifest of `dir` with its lines for which `keep` holds (unparsable lines go):
/// written aside and renamed over, so a reader sees the old manifest or the new one.
pub(crate) fn rewrite_manifest(
    dir: &Dir,
    _lock: &SessionLock,
    keep: impl Fn(&Entry) -> bool,
) -> io::Result<()> {
    let text = read_in(dir, MANIFEST)?;
    let mut kept = Vec::with_capacity(text.len());
    for line in text.split(|&b| b == b'\n') {
        if Entry::from_json(line).is_some_and(|e| keep(&e)) {
            kept.extend_from_slice(line);
            kept.push(b'\n');
        }
    }
    let mut file = dir.open_file(MANIFEST_NEW, Access::Replace)?;
    file.write_all(&kept)?;
    file.sync_data()?;
    dir.rename(MANIFEST_NEW, MANIFEST)
}

/// Reads the manifest of the session directory at `session_dir` (see [`read_manifest_in`]);
/// empty when the directory cannot be opened without following a symlink.
pub fn read_manifest(session_dir: &Path) -> Vec<Entry> {
    Dir::open(session_dir).map_or_else(|_| Vec::new(), |dir| read_manifest_in(&dir))
}

/// Reads a session's manifest: the last line for each `n` wins, unreadable or unparsable lines
/// are skipped (a capture killed mid-write leaves at most one torn line). Sorted by `n`.
pub(crate) fn read_manifest_in(dir: &Dir) -> Vec<Entry> {
    let Ok(text) = read_in(dir, MANIFEST) else {
        return Vec::new();
    };
    let mut by_n = std::collections::BTreeMap::new();
    for line in text.split(|&b| b == b'\n') {
        if let Some(entry) = Entry::from_json(line) {
            by_n.insert(entry.n, entry);
        }
    }
    by_n.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_their_manifest_line() {
        let entry = Entry {
            n: 4,
            file: "cargo_4.txt".into(),
            name: "cargo".into(),
            argv: vec!["cargo".into(), "t \"x\"".into()],
            cwd: "/w".into(),
            started: "2024-01-02T03:04:05Z".into(),
            duration_ms: 5,
            exit_code: Some(-1),
            signal: Some(9),
            bytes: 10,
            lines: 2,
            tokens: Some(3),
            encoding: "o200k_base".into(),
            sha256: "ab".into(),
            complete: true,
            duplicate_of: Some("cargo_1".into()),
            order: Some(ORDER_PER_STREAM.into()),
        };
        let line = entry.to_json().to_string();
        assert_eq!(
            line,
            r#"{"n":4,"file":"cargo_4.txt","name":"cargo","argv":["cargo","t \"x\""],"cwd":"/w","started":"2024-01-02T03:04:05Z","duration_ms":5,"exit_code":-1,"signal":9,"bytes":10,"lines":2,"tokens":3,"encoding":"o200k_base","sha256":"ab","complete":true,"duplicate_of":"cargo_1","order":"per-stream"}"#
        );
        assert_eq!(Entry::from_json(line.as_bytes()).as_ref(), Some(&entry));

        let unset = Entry::default();
        let line = unset.to_json().to_string();
        assert!(line.ends_with(r#""tokens":null,"encoding":"","sha256":"","complete":false}"#));
        assert_eq!(Entry::from_json(line.as_bytes()), Some(unset));
    }

    #[test]
    fn manifest_lines_are_read_strictly() {
        let line = |extra: &str| {
            format!(
                r#"{{"n":1,"file":"f","name":"f","argv":[],"cwd":"/","started":"","duration_ms":0,"bytes":0,"lines":0,"encoding":"","sha256":""{extra}}}"#
            )
        };
        let read = |extra: &str| Entry::from_json(line(extra).as_bytes());
        // Optional fields may be missing or null; other keys are ignored.
        let entry = read(r#","complete":true,"tokens":null,"later":{"a":1}"#).expect("an entry");
        assert_eq!(
            (entry.exit_code, entry.tokens, entry.duplicate_of),
            (None, None, None)
        );
        // A missing field, or any of another type, and the line is not an entry.
        for bad in [
            "",
            r#","complete":1"#,
            r#","complete":true,"exit_code":3000000000"#,
            r#","complete":true,"exit_code":1.0"#,
            r#","complete":true,"duplicate_of":5"#,
            r#","complete":true,"argv":[1]"#,
        ] {
            assert_eq!(read(bad), None, "{bad}");
        }
        assert_eq!(Entry::from_json(br#"{"n":1,"#), None);
    }
}
