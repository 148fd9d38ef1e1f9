//! The hook events the client sends for a Bash call, recorded: `PreToolUse`, `PostToolUse` for a
//! large successful output (the client saved it: `persistedOutputPath`), `PostToolUseFailure` for
//! a failing command. Written to `tests/fixtures/claude-code/events.json` with the run's
//! directories, ids and durations replaced by placeholders, for the hook's unit tests.
//!
//! Re-record: `CTXOFF_E2E=1 cargo test --test e2e record_claude_events -- --ignored`.

use serde_json::{Map, Value, json};

use super::{Claude, Transcript, fixture, read_fixture};

const LARGE: &str = "seq 1 20000";
const FAILING: &str = "seq 1 3; echo oops >&2; exit 3";

/// Runs both commands with a hook on every Bash event that appends the event to a file, and
/// returns the events by name, with placeholders for what changes from run to run.
fn record() -> Map<String, Value> {
    let mut run = Claude::new("bypassPermissions", &[LARGE, FAILING]);
    // One file per event: hooks of parallel calls run at the same time.
    let save = "cat > \"$(mktemp \"$CLAUDE_PROJECT_DIR/../event.XXXXXX\")\"";
    let hook = json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": save}]}]);
    run.user = Some(json!({"hooks": {
        "PreToolUse": hook, "PostToolUse": hook, "PostToolUseFailure": hook
    }}));
    let transcript = run.run();
    let mut events = Map::new();
    let files = std::fs::read_dir(transcript.dir.path()).expect("the run's directory");
    for file in files.filter_map(Result::ok) {
        if !file.file_name().to_string_lossy().starts_with("event.") {
            continue;
        }
        let text = std::fs::read_to_string(file.path()).expect("an event file");
        let event: Value = serde_json::from_str(&text).expect("an event is JSON");
        let name = event["hook_event_name"].as_str().unwrap().to_owned();
        let key = match (name.as_str(), event["tool_input"]["command"].as_str()) {
            ("PreToolUse", Some(FAILING)) => continue,
            _ => name,
        };
        events.insert(key, placeholders(&transcript, event));
    }
    ["PreToolUse", "PostToolUse", "PostToolUseFailure"]
        .iter()
        .filter_map(|name| Some((name.to_string(), events.remove(*name)?)))
        .collect()
}

/// `event` with the run's directories, ids, durations and saved-output name replaced.
fn placeholders(transcript: &Transcript, event: Value) -> Value {
    let session = event["session_id"].as_str().unwrap_or_default().to_owned();
    let prompt = event["prompt_id"].as_str().unwrap_or_default().to_owned();
    let text = transcript
        .sanitize(&event.to_string())
        .replace(&session, "<session>")
        .replace(&prompt, "<prompt>");
    let mut event: Value = serde_json::from_str(&text).unwrap();
    if event.get("duration_ms").is_some() {
        event["duration_ms"] = json!(0);
    }
    if let Some(path) = event["tool_response"]["persistedOutputPath"].as_str() {
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d).to_owned();
        event["tool_response"]["persistedOutputPath"] = json!(format!("{dir}/<id>.txt"));
    }
    event
}

/// The shape of an event: its keys and those of its objects, with the types of the values.
fn shape(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), shape(v))).collect())
        }
        Value::String(_) => json!("string"),
        Value::Number(_) => json!("number"),
        Value::Bool(_) => json!("bool"),
        Value::Array(_) => json!("array"),
        Value::Null => json!("null"),
    }
}

#[test]
#[ignore = "re-records tests/fixtures/claude-code/events.json against the real client"]
fn record_claude_events() {
    if !crate::enabled("claude") {
        return;
    }
    let events = record();
    let text = serde_json::to_string_pretty(&json!({
        "client": super::PACKAGE,
        "version": super::VERSION,
        "commands": {"PostToolUse": LARGE, "PostToolUseFailure": FAILING},
        "events": events,
    }))
    .unwrap();
    std::fs::write(fixture("events.json"), text + "\n").unwrap();
}

/// The live client still sends events of the recorded shape, with what the recording shows:
/// the output (cut at 30,000 characters) and where the whole of it was saved, or the failure.
#[test]
fn bash_events_keep_their_recorded_shape() {
    if !crate::enabled("claude") {
        return;
    }
    let fixture: Value = read_fixture("events.json");
    let live = record();
    for name in ["PreToolUse", "PostToolUse", "PostToolUseFailure"] {
        assert_eq!(
            shape(&live[name]),
            shape(&fixture["events"][name]),
            "{name} changed shape"
        );
    }
    let post = &live["PostToolUse"]["tool_response"];
    assert_eq!(post["stdout"].as_str().map(str::len), Some(30_000));
    assert_eq!(post["persistedOutputSize"], 108_894);
    assert_eq!(
        live["PostToolUseFailure"]["error"],
        "Exit code 3\n1\n2\n3\noops"
    );
}
