//! What the session transcript (`transcript_path`, a JSON-lines rollout) says about a tool call
//! that the hook's event does not: the turn's settings (`turn_context`: its sandbox and approval
//! policy) and the call's own arguments (a `function_call` response item, written before the hook
//! runs), where the model may ask for the sandbox to be lifted or for a terminal.
//!
//! ```json
//! {"type":"turn_context","payload":{"turn_id":"…","approval_policy":"never",
//!   "sandbox_policy":{"type":"read-only"},…}}
//! {"type":"response_item","payload":{"type":"function_call","name":"exec_command","call_id":"call_1",
//!   "arguments":"{\"cmd\":\"ls\",\"sandbox_permissions\":\"require_escalated\",…}"}}
//! ```

use serde_json::Value;

/// The entries of a transcript, newest first (lines that are not JSON are skipped).
fn newest_first(transcript: &str) -> impl Iterator<Item = Value> + '_ {
    transcript
        .lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
}

/// The latest `turn_context` payload of turn `turn_id`.
pub fn turn_context(transcript: &str, turn_id: &str) -> Option<Value> {
    newest_first(transcript)
        .filter(|entry| entry["type"] == "turn_context")
        .map(|mut entry| entry["payload"].take())
        .find(|payload| payload["turn_id"] == turn_id)
}

/// When the client asks a person before running a command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// Never (`codex exec` always): a command runs or fails without asking.
    Never,
    /// When the model asks for more than the sandbox allows, or a rule says to prompt.
    OnRequest,
    /// Anything else (`untrusted` asks for nearly every command, `on-failure` after a failure in
    /// the sandbox, `granular` settings): named as the transcript names it.
    Other(String),
}

/// The approval policy of a `turn_context` payload; `None` when it names none.
pub fn approval_of(payload: &Value) -> Option<Approval> {
    Some(match &payload["approval_policy"] {
        Value::String(name) if name == "never" => Approval::Never,
        Value::String(name) if name == "on-request" => Approval::OnRequest,
        Value::String(name) => Approval::Other(name.clone()),
        Value::Object(_) => Approval::Other("granular".into()),
        _ => return None,
    })
}

/// The arguments of the model's tool call `call_id` (an object), from the latest `function_call`
/// item with that id.
pub fn call_arguments(transcript: &str, call_id: &str) -> Option<Value> {
    let payload = newest_first(transcript)
        .filter(|entry| entry["type"] == "response_item")
        .map(|mut entry| entry["payload"].take())
        .find(|payload| payload["type"] == "function_call" && payload["call_id"] == call_id)?;
    let arguments: Value = serde_json::from_str(payload["arguments"].as_str()?).ok()?;
    arguments.is_object().then_some(arguments)
}

/// Why the call's own arguments make the command run differently from a rewrite, if they do: a
/// request to run outside the sandbox (which asks a person, who would then be shown the
/// rewrite) or a terminal (which ctxoff's capture would take away).
pub fn special_request(arguments: &Value) -> Option<&'static str> {
    let permissions = &arguments["sandbox_permissions"];
    if !(permissions.is_null() || permissions == "use_default") {
        return Some("the call asks to run outside the sandbox");
    }
    if arguments["tty"] == true {
        return Some("the call asks for a terminal");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn transcript(lines: &[Value]) -> String {
        let mut text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        text.push_str("not json\n");
        text
    }

    #[test]
    fn reads_the_turns_context_and_approval() {
        let t = transcript(&[
            json!({"type": "turn_context", "payload": {"turn_id": "t1", "approval_policy": "on-request"}}),
            json!({"type": "turn_context", "payload": {"turn_id": "t2", "approval_policy": "never"}}),
            json!({"type": "turn_context", "payload": {"turn_id": "t3",
                   "approval_policy": {"granular": {"rules": true}}}}),
            json!({"type": "turn_context", "payload": {"turn_id": "t4", "approval_policy": "untrusted"}}),
        ]);
        let approval = |turn| approval_of(&turn_context(&t, turn).unwrap());
        assert_eq!(approval("t1"), Some(Approval::OnRequest));
        assert_eq!(approval("t2"), Some(Approval::Never));
        assert_eq!(approval("t3"), Some(Approval::Other("granular".into())));
        assert_eq!(approval("t4"), Some(Approval::Other("untrusted".into())));
        assert_eq!(turn_context(&t, "t9"), None);
        assert_eq!(approval_of(&json!({})), None);
    }

    #[test]
    fn reads_the_calls_arguments() {
        let call = |id: &str, args: Value| {
            json!({"type": "response_item", "payload": {"type": "function_call",
                   "name": "exec_command", "call_id": id, "arguments": args.to_string()}})
        };
        let t = transcript(&[
            call("call_0", json!({"cmd": "ls"})),
            call(
                "call_1",
                json!({"cmd": "ls", "sandbox_permissions": "require_escalated",
                                  "justification": "x"}),
            ),
            call("call_2", json!({"cmd": "top", "tty": true})),
            call(
                "call_3",
                json!({"cmd": "ls", "sandbox_permissions": "use_default"}),
            ),
            json!({"type": "response_item", "payload": {"type": "function_call",
                   "call_id": "call_4", "arguments": "not json"}}),
        ]);
        let special = |id| special_request(&call_arguments(&t, id).unwrap());
        assert_eq!(special("call_0"), None);
        assert_eq!(special("call_3"), None);
        assert!(special("call_1").unwrap().contains("sandbox"));
        assert!(special("call_2").unwrap().contains("terminal"));
        assert_eq!(call_arguments(&t, "call_4"), None);
        assert_eq!(call_arguments(&t, "call_9"), None);
    }
}
