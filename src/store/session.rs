//! Sessions: which process a session belongs to (the nearest ancestor that is not a shell or a
//! wrapper), its owner record for gc, and valid session names.

use anyhow::{Result, bail};
use serde_json::{Value, json};
use std::fs;

use super::layout::{OWNER, sanitize};
use super::manifest::Fields;
use super::safety::{Dir, read_in};

/// The process a session belongs to, recorded when the session directory is created.
#[derive(Clone, Debug, PartialEq)]
pub struct Owner {
    pub pid: u32,
    /// Start time of the process in clock ticks after boot (`/proc/PID/stat` field 22), so a
    /// reused pid is not mistaken for the owner.
    pub start_time: u64,
    pub comm: String,
}

impl Owner {
    /// The owner record's JSON object.
    pub fn to_json(&self) -> Value {
        json!({"pid": self.pid, "start_time": self.start_time, "comm": self.comm})
    }

    /// Whether the owning process still runs: its pid exists with the recorded start time.
    pub(crate) fn is_alive(&self) -> bool {
        process_stat(self.pid).is_some_and(|(_, _, start)| start == self.start_time)
    }

    /// Parses an owner record, as strictly as [`Entry::from_json`] a manifest line.
    pub(crate) fn from_json(record: &[u8]) -> Option<Owner> {
        let json: Value = serde_json::from_slice(record).ok()?;
        let fields = Fields(json.as_object()?);
        Some(Owner {
            pid: u32::try_from(fields.u64("pid")?).ok()?,
            start_time: fields.u64("start_time")?,
            comm: fields.string("comm")?,
        })
    }
}

/// The owner record of a session directory, if it has a readable one.
pub(crate) fn read_owner(dir: &Dir) -> Option<Owner> {
    Owner::from_json(&read_in(dir, OWNER).ok()?)
}

/// Session names become directory names: `[A-Za-z0-9._-]`, not empty, not `.` or `..`.
pub(crate) fn checked_session_name(name: &str) -> Result<String> {
    let ok = !name.is_empty()
        && name.len() <= 128
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if !ok {
        bail!(
            "bad session name '{}': use 1-128 of [A-Za-z0-9._-], not starting with '.'",
            name.escape_debug()
        );
    }
    Ok(name.to_string())
}

/// Programs that run ctxoff on someone else's behalf: the session belongs to the process above.
const NOT_A_SESSION: &[&str] = &[
    "bash", "sh", "zsh", "fish", "dash", "ksh", "mksh", "tcsh", "csh", "busybox", "env", "timeout",
    "nice", "nohup", "sudo", "doas", "su", "setsid", "stdbuf", "time", "xargs", "script", "ctxoff",
    "make",
];

/// The nearest ancestor process that is not a shell or wrapper: `<comm>-<pid>` and its identity.
pub(super) fn ancestor_session() -> Option<(String, Owner)> {
    let mut pid = process_stat(std::process::id())?.1;
    for _ in 0..64 {
        if pid <= 1 {
            return None;
        }
        let (comm, ppid, start_time) = process_stat(pid)?;
        if !NOT_A_SESSION.contains(&comm.as_str()) {
            let name = format!("{}-{pid}", sanitize(&comm, "proc"));
            return Some((
                name,
                Owner {
                    pid,
                    start_time,
                    comm,
                },
            ));
        }
        pid = ppid;
    }
    None
}

/// `(comm, ppid, start_time)` of a process, from `/proc/PID/stat`.
pub fn process_stat(pid: u32) -> Option<(String, u32, u64)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // comm may contain spaces and parentheses: it ends at the last ')'.
    let open = stat.find('(')?;
    let close = stat.rfind(')')?;
    let comm = stat.get(open + 1..close)?.to_string();
    let fields: Vec<&str> = stat.get(close + 2..)?.split(' ').collect();
    // fields[0] is field 3 (state): ppid is field 4, starttime field 22.
    let ppid = fields.get(1)?.parse().ok()?;
    let start = fields.get(19)?.parse().ok()?;
    Some((comm, ppid, start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_names_are_checked() {
        for bad in ["", "..", ".x", "a/b", "a\0b", &"x".repeat(129)] {
            assert!(checked_session_name(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            checked_session_name("claude-123_x.y").unwrap(),
            "claude-123_x.y"
        );
    }

    #[test]
    fn owner_records_round_trip() {
        let owner = Owner {
            pid: 4821,
            start_time: 123,
            comm: "claude".into(),
        };
        let record = owner.to_json().to_string();
        assert_eq!(record, r#"{"pid":4821,"start_time":123,"comm":"claude"}"#);
        assert_eq!(Owner::from_json(record.as_bytes()), Some(owner));
        assert_eq!(
            Owner::from_json(br#"{"pid":4294967296,"start_time":1,"comm":"x"}"#),
            None
        );
    }

    #[test]
    fn own_process_stat_is_parsed() {
        let (comm, ppid, start) = process_stat(std::process::id()).expect("own stat");
        assert!(!comm.is_empty());
        assert!(ppid > 0);
        assert!(start > 0);
    }
}
