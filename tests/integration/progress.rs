//! The progress spinner: only on a terminal, only after about a second, never in the output.

use crate::support::*;

/// Runs `ctxoff ARGS` in a pseudo-terminal with `script`, returning what the terminal showed.
fn in_terminal(w: &World, args: &str) -> Option<String> {
    let available = std::process::Command::new("script")
        .arg("--version")
        .output();
    if available.map_or(true, |o| !o.status.success()) {
        eprintln!("skipped: util-linux `script` is not available");
        return None;
    }
    let log = w.dir.path().join("typescript");
    let command = format!("{} {args}", env!("CARGO_BIN_EXE_ctxoff"));
    let out = run(w
        .sh("script -qfec \"$0\" \"$1\" >/dev/null")
        .arg(&command)
        .arg(&log));
    assert!(out.status.success(), "{}", stderr(&out));
    Some(String::from_utf8_lossy(&std::fs::read(&log).unwrap()).into_owned())
}

#[test]
fn a_slow_command_shows_a_spinner_on_a_terminal_then_clears_it() {
    let w = World::new();
    let Some(screen) = in_terminal(&w, "sh -c 'echo first; sleep 1.6; echo last'") else {
        return;
    };
    assert!(
        screen.contains("ctxoff ") && screen.contains("s · 1 line · 6 B · first"),
        "{screen}"
    );
    // Cleared (erase line) before the output is replayed.
    let cleared = screen.rfind("\x1b[2K").expect("spinner cleared");
    let output = screen.find("first\r\nlast").expect("output shown");
    assert!(cleared < output, "{screen}");
}

#[test]
fn quiet_turns_the_spinner_off() {
    let w = World::new();
    let Some(screen) = in_terminal(&w, "-q sh -c 'sleep 1.5; echo done'") else {
        return;
    };
    assert!(!screen.contains(" B · "), "{screen}");
    assert!(screen.contains("done"));
}

#[test]
fn no_spinner_when_stderr_is_not_a_terminal() {
    let w = World::new();
    let out = run(&mut w.ctxoff(&["sh", "-c", "sleep 1.5; echo done"]));
    assert_eq!(stdout(&out), "done\n");
    assert!(out.stderr.is_empty(), "{:?}", stderr(&out));
}
