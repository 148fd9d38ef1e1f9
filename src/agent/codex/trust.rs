//! Codex CLI runs a hook from `hooks.json` (or `[hooks]` in `config.toml`) only when it is
//! trusted: `config.toml` must hold, for that hook,
//!
//! ```toml
//! [hooks.state."/home/ana/.codex/hooks.json:pre_tool_use:0:0"]
//! trusted_hash = "sha256:…"
//! ```
//!
//! The key is the absolute path of the file declaring the hook, the event, the index of its matcher
//! group and the index of the hook in that group. The hash covers the hook's definition, normalised
//! the way the client normalises it (the timeout always present, optional fields absent), as
//! sorted compact JSON. An untrusted or changed hook is skipped without a word; the client's hook
//! review (`/hooks` in its interface) writes the same entry.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

/// Hook events, as the client labels them in keys and hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    PreToolUse,
    PostToolUse,
    PermissionRequest,
    SessionStart,
    UserPromptSubmit,
    Stop,
}

impl Event {
    pub fn label(self) -> &'static str {
        match self {
            Event::PreToolUse => "pre_tool_use",
            Event::PostToolUse => "post_tool_use",
            Event::PermissionRequest => "permission_request",
            Event::SessionStart => "session_start",
            Event::UserPromptSubmit => "user_prompt_submit",
            Event::Stop => "stop",
        }
    }

    /// Events whose matcher the client ignores (and leaves out of the hash).
    fn ignores_matcher(self) -> bool {
        matches!(self, Event::UserPromptSubmit | Event::Stop)
    }
}

/// A `{"type": "command"}` hook as written in `hooks.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandHook<'a> {
    pub event: Event,
    /// The group's `matcher` (`"Bash"`), if it has one.
    pub matcher: Option<&'a str>,
    pub command: &'a str,
    /// `timeout`, in seconds; the client's default is 600.
    pub timeout: Option<u64>,
    pub status_message: Option<&'a str>,
}

/// The client's default hook timeout, in seconds.
const DEFAULT_TIMEOUT: u64 = 600;

/// The `trusted_hash` the client expects for `hook`.
pub fn trusted_hash(hook: &CommandHook) -> String {
    let mut handler = BTreeMap::new();
    handler.insert("type", Value::from("command"));
    handler.insert("command", Value::from(hook.command));
    handler.insert(
        "timeout",
        Value::from(hook.timeout.unwrap_or(DEFAULT_TIMEOUT).max(1)),
    );
    handler.insert("async", Value::from(false));
    if let Some(message) = hook.status_message {
        handler.insert("statusMessage", Value::from(message));
    }
    let mut identity = BTreeMap::new();
    identity.insert("event_name", Value::from(hook.event.label()));
    identity.insert("hooks", Value::Array(vec![to_object(handler)]));
    if let Some(matcher) = hook.matcher.filter(|_| !hook.event.ignores_matcher()) {
        identity.insert("matcher", Value::from(matcher));
    }
    let canonical = serde_json::to_string(&identity).expect("strings and numbers serialise");
    let digest = Sha256::digest(canonical.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// A sorted map as a JSON object (whatever the crate's map order, the keys go in sorted).
fn to_object(map: BTreeMap<&str, Value>) -> Value {
    Value::Object(map.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// The `[hooks.state."…"]` key of the `handler`-th hook of the `group`-th matcher group of
/// `event` in the file at `source` (an absolute path, as the client spells it).
pub fn state_key(source: &Path, event: Event, group: usize, handler: usize) -> String {
    format!("{}:{}:{group}:{handler}", source.display(), event.label())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hashes the pinned client's own hook inventory (`codex app-server`, `hooks/list`,
    /// `currentHash`) gave for these two definitions.
    #[test]
    fn hashes_agree_with_the_client() {
        let pre = CommandHook {
            event: Event::PreToolUse,
            matcher: Some("Bash"),
            command: "/home/ana/.codex/hooks/pre.sh",
            timeout: Some(30),
            status_message: None,
        };
        assert_eq!(
            trusted_hash(&pre),
            "sha256:c9abd39a96fe5d8fa7573fd31f92c292561c25fa7fca6c18a0ecccb919ce3f26"
        );
        let post = CommandHook {
            event: Event::PostToolUse,
            matcher: Some("Bash"),
            command: "ctxoff hook codex",
            timeout: None,
            status_message: Some("ctxoff"),
        };
        assert_eq!(
            trusted_hash(&post),
            "sha256:484e4fdb054e6f6572d869c382dd3b0e1cde7164b452ce8f3780f6fa15ff40db"
        );
    }

    #[test]
    fn normalisation() {
        let hook = CommandHook {
            event: Event::PreToolUse,
            matcher: Some("Bash"),
            command: "ctxoff hook codex",
            timeout: None,
            status_message: None,
        };
        let explicit_default = CommandHook {
            timeout: Some(600),
            ..hook.clone()
        };
        assert_eq!(trusted_hash(&hook), trusted_hash(&explicit_default));
        let zero = CommandHook {
            timeout: Some(0),
            ..hook.clone()
        };
        let one = CommandHook {
            timeout: Some(1),
            ..hook.clone()
        };
        assert_eq!(trusted_hash(&zero), trusted_hash(&one));
        assert_ne!(trusted_hash(&hook), trusted_hash(&one));
        let stop = |matcher| CommandHook {
            event: Event::Stop,
            matcher,
            ..hook.clone()
        };
        assert_eq!(trusted_hash(&stop(Some("x"))), trusted_hash(&stop(None)));
    }

    #[test]
    fn state_keys_name_file_event_and_position() {
        assert_eq!(
            state_key(
                Path::new("/home/ana/.codex/hooks.json"),
                Event::PostToolUse,
                1,
                0
            ),
            "/home/ana/.codex/hooks.json:post_tool_use:1:0"
        );
    }
}
