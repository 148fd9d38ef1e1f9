//! Which sandbox a Codex CLI command runs in. The hook's event does not say (its
//! `permission_mode` is `bypassPermissions` in `codex exec` whatever the sandbox), but the session
//! transcript it names (`transcript_path`) records each turn's settings as a `turn_context` line:
//!
//! ```json
//! {"type":"turn_context","payload":{"turn_id":"…","cwd":"/home/ana/proj",
//!  "sandbox_policy":{"type":"workspace-write","network_access":false,
//!                    "exclude_tmpdir_env_var":false,"exclude_slash_tmp":false}, …}}
//! ```
//!
//! In the read-only sandbox a command cannot create files anywhere (`Read-only file system`), so a
//! command rewritten to store its output would fail where the original ran.

use std::path::{Path, PathBuf};

use serde_json::Value;

/// A turn's sandbox, as far as writing files goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sandbox {
    ReadOnly,
    /// Writes allowed under the working directory, the extra roots, and `/tmp` and `$TMPDIR`
    /// unless excluded.
    WorkspaceWrite {
        cwd: PathBuf,
        writable_roots: Vec<PathBuf>,
        slash_tmp: bool,
        tmpdir: bool,
    },
    FullAccess,
}

/// The sandbox of turn `turn_id`, from the transcript's text; `None` when the transcript does not
/// say, or names a sandbox this reader does not know.
pub fn turn_sandbox(transcript: &str, turn_id: &str) -> Option<Sandbox> {
    sandbox_of(&super::transcript::turn_context(transcript, turn_id)?)
}

/// The sandbox a `turn_context` payload describes.
pub(crate) fn sandbox_of(payload: &Value) -> Option<Sandbox> {
    let policy = &payload["sandbox_policy"];
    let flag = |name: &str| policy[name].as_bool();
    match policy["type"].as_str()? {
        "read-only" => Some(Sandbox::ReadOnly),
        "danger-full-access" => Some(Sandbox::FullAccess),
        "workspace-write" => Some(Sandbox::WorkspaceWrite {
            cwd: PathBuf::from(payload["cwd"].as_str()?),
            writable_roots: match policy.get("writable_roots") {
                None => Vec::new(),
                Some(roots) => roots
                    .as_array()?
                    .iter()
                    .map(|r| r.as_str().map(PathBuf::from))
                    .collect::<Option<_>>()?,
            },
            slash_tmp: !flag("exclude_slash_tmp")?,
            tmpdir: !flag("exclude_tmpdir_env_var")?,
        }),
        _ => None,
    }
}

impl Sandbox {
    /// Whether a command in this sandbox may create files under `dir` (an absolute, normalised
    /// path); `tmpdir` is the command's `$TMPDIR`.
    pub fn may_write(&self, dir: &Path, tmpdir: Option<&Path>) -> bool {
        match self {
            Sandbox::ReadOnly => false,
            Sandbox::FullAccess => true,
            Sandbox::WorkspaceWrite {
                cwd,
                writable_roots,
                slash_tmp,
                tmpdir: tmpdir_allowed,
            } => {
                dir.starts_with(cwd)
                    || writable_roots.iter().any(|root| dir.starts_with(root))
                    || (*slash_tmp && dir.starts_with("/tmp"))
                    || (*tmpdir_allowed && tmpdir.is_some_and(|t| dir.starts_with(t)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(turn: &str, policy: &str) -> String {
        format!(
            "{{\"type\":\"session_meta\",\"payload\":{{}}}}\n\
             {{\"type\":\"turn_context\",\"payload\":{{\"turn_id\":\"old\",\"cwd\":\"/p\",\"sandbox_policy\":{{\"type\":\"danger-full-access\"}}}}}}\n\
             {{\"type\":\"turn_context\",\"payload\":{{\"turn_id\":\"{turn}\",\"cwd\":\"/home/ana/proj\",\"sandbox_policy\":{policy}}}}}\n\
             not json\n"
        )
    }

    #[test]
    fn reads_the_turns_sandbox() {
        let read_only = transcript("t1", r#"{"type":"read-only"}"#);
        assert_eq!(turn_sandbox(&read_only, "t1"), Some(Sandbox::ReadOnly));
        assert_eq!(turn_sandbox(&read_only, "old"), Some(Sandbox::FullAccess));
        assert_eq!(turn_sandbox(&read_only, "t2"), None);
        let workspace = transcript(
            "t1",
            r#"{"type":"workspace-write","network_access":false,"exclude_tmpdir_env_var":false,"exclude_slash_tmp":true,"writable_roots":["/data"]}"#,
        );
        let sandbox = turn_sandbox(&workspace, "t1").unwrap();
        assert_eq!(
            sandbox,
            Sandbox::WorkspaceWrite {
                cwd: "/home/ana/proj".into(),
                writable_roots: vec!["/data".into()],
                slash_tmp: false,
                tmpdir: true,
            }
        );
        assert!(!sandbox.may_write(Path::new("/tmp/agent"), None));
        assert!(sandbox.may_write(Path::new("/tmp/agent"), Some(Path::new("/tmp"))));
        assert!(sandbox.may_write(Path::new("/data/x"), None));
        assert!(sandbox.may_write(Path::new("/home/ana/proj/target"), None));
        assert!(!sandbox.may_write(Path::new("/home/ana"), None));
        assert!(!Sandbox::ReadOnly.may_write(Path::new("/tmp/agent"), None));
        assert!(Sandbox::FullAccess.may_write(Path::new("/tmp/agent"), None));
        for unknown in [
            r#"{"type":"external-sandbox"}"#,
            r#"{"type":"workspace-write"}"#,
            "{}",
        ] {
            assert_eq!(
                turn_sandbox(&transcript("t1", unknown), "t1"),
                None,
                "{unknown}"
            );
        }
    }
}
