//! The scratch space (SPEC §4): root, sessions, exclusive creation of output files, the
//! per-session manifest `index.jsonl`. Reading outputs back lives in `reference` and `cmd/*`.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// An opened scratch space: the root and the session outputs are stored in.
#[derive(Clone, Debug)]
pub struct Store {
    pub root: PathBuf,
    pub session: String,
}

impl Store {
    pub fn session_dir(&self) -> PathBuf {
        self.root.join(&self.session)
    }
}

/// The manifest file of a session directory.
pub const MANIFEST: &str = "index.jsonl";

/// One line of a session's `index.jsonl`. A capture appends a line with `complete: false` when it
/// starts writing and another when it ends; the last line for an `n` is the one that counts.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
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
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
}

/// Reads a session's manifest: the last line for each `n` wins, unreadable or unparsable lines
/// are skipped (a capture killed mid-write leaves at most one torn line). Sorted by `n`.
pub fn read_manifest(session_dir: &Path) -> Vec<Entry> {
    let Ok(text) = std::fs::read(session_dir.join(MANIFEST)) else {
        return Vec::new();
    };
    let mut by_n = std::collections::BTreeMap::new();
    for line in text.split(|&b| b == b'\n') {
        if let Ok(entry) = serde_json::from_slice::<Entry>(line) {
            by_n.insert(entry.n, entry);
        }
    }
    by_n.into_values().collect()
}

/// Marks an output as just used: gc removes outputs by last use, which is the later of the
/// file's access and modification times; retrieval sets the access time explicitly (so it works
/// on `noatime` mounts).
pub fn touch_last_use(path: &Path) -> std::io::Result<()> {
    let file = std::fs::File::open(path)?;
    file.set_times(std::fs::FileTimes::new().set_accessed(std::time::SystemTime::now()))
}
