//! The progress spinner: only on a terminal, only after about a second, never in the output.

use crate::support::*;

/// Runs `ctxoff ARGS` in a pseudo-terminal with `script`, returning what the terminal showed.
fn in_terminal(w: &World, args: &str) -> Option<String> {
    let available = std::process::Command::new("script")
        .arg("--version")
        .output();
    if available.map_or(true, |o| !o.status.success()) {
        skip("util-linux `script` is not available");
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

#[test]
fn the_spinner_never_erases_what_another_process_wrote_to_the_terminal() {
    // A prompt on /dev/tty was wiped by the spinner's next erase-line a second later.
    let w = World::new();
    for (how, write) in [
        ("/dev/tty", r#"printf "Password: " >/dev/tty"#),
        ("stdin, the terminal", r#"printf "Password: " >&0"#),
    ] {
        // Written before the spinner would appear, and while it shows.
        for delay in ["0", "1.5"] {
            let script = format!("sh -c 'sleep {delay}; {write}; sleep 2; echo done'");
            let Some(screen) = in_terminal(&w, &script) else {
                return;
            };
            // After script's own first line, which quotes the command.
            let start = screen.find('\n').unwrap_or(0);
            let prompt = screen[start..]
                .find("Password: ")
                .map(|i| start + i)
                .unwrap_or_else(|| panic!("{how}, {delay}: no prompt in {screen:?}"));
            // A terminal shows "\n" as "\r\n"; any other carriage return or escape would draw
            // over the prompt.
            let after = screen[prompt..].replace("\r\n", "\n");
            assert!(
                !after.contains('\r') && !after.contains("\x1b["),
                "{how}, after {delay}s: the prompt was overwritten: {screen:?}"
            );
            assert!(after.contains("done"), "{screen:?}");
        }
    }
}
