//! Fixtures recorded from the real clients, under `tests/fixtures/`. The suites compare what the
//! pinned client does now with what was recorded; with `CTXOFF_E2E_RECORD=1` they write it
//! instead, so a new client version is re-recorded by one run and reviewed as a diff.

use std::path::PathBuf;

use serde_json::Value;

pub fn path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

pub fn recording() -> bool {
    std::env::var_os("CTXOFF_E2E_RECORD").is_some_and(|v| v == "1")
}

pub fn read(name: &str) -> Value {
    let file = path(name);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (record it with CTXOFF_E2E_RECORD=1)",
            file.display()
        )
    });
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

/// Writes `actual` as the fixture `name` when recording; otherwise asserts it equals the fixture.
pub fn check(name: &str, actual: &Value) {
    if recording() {
        let text = serde_json::to_string_pretty(actual).expect("serialise") + "\n";
        std::fs::write(path(name), text).expect("write the fixture");
        return;
    }
    let expected = read(name);
    assert!(
        &expected == actual,
        "the client no longer does what tests/fixtures/{name} records \
         (re-record with CTXOFF_E2E_RECORD=1 and review the diff):\n{}",
        serde_json::to_string_pretty(actual).unwrap_or_default()
    );
}

/// The shape of a JSON value: the same object keys, recursively, with each leaf reduced to its
/// type. Events carry ids, times and paths that differ on every run; their shape must not.
pub fn shape(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), shape(v))).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(shape).collect()),
        Value::String(_) => Value::from("string"),
        Value::Number(_) => Value::from("number"),
        Value::Bool(_) => Value::from("bool"),
        Value::Null => Value::Null,
    }
}

/// Records a real event as fixture `name` (with `tmp`, the run's temporary folder, replaced by
/// `/tmp/e2e`); otherwise asserts the event still has the recorded shape.
pub fn check_event(name: &str, event: &Value, tmp: &std::path::Path) {
    if recording() {
        let text = event
            .to_string()
            .replace(&tmp.display().to_string(), "/tmp/e2e");
        check(name, &serde_json::from_str(&text).expect("still JSON"));
        return;
    }
    assert_eq!(
        shape(&read(name)),
        shape(event),
        "the event no longer has the shape tests/fixtures/{name} records:\n{event:#}"
    );
}
