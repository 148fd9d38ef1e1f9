use super::*;

const SESSION: &str = "7f3c2a9e-5b1d-4e8f-9a2c-1d3e5f7a9b0c";
const CTXOFF: &str = "/opt/ctxoff/bin/ctxoff";

/// Names the fake shell knows only as aliases or functions; everything else is a program, and
/// `/x/bin` holds only `tool`.
const NOT_PROGRAMS: &[&str] = &["ll", "gst", "my_function"];

fn is_program(name: &str, path: Option<&OsStr>) -> bool {
    match path.map(|p| p.to_string_lossy()) {
        Some(p) if p.starts_with("/x/bin") => name == "tool" || p.contains("/usr/bin"),
        _ => !NOT_PROGRAMS.contains(&name),
    }
}

fn with(command: &str, wrap_patterns: &[&str], keep: &[&str]) -> Result<Wrapped, Unwrapped> {
    let wrap_patterns: Vec<String> = wrap_patterns.iter().map(|p| p.to_string()).collect();
    let keep: Vec<String> = keep.iter().map(|p| p.to_string()).collect();
    let rewrite = Rewrite {
        agent: "claude",
        session: SESSION,
        ctxoff: Path::new(CTXOFF),
        wrap: &wrap_patterns,
        keep: &keep,
        path: Some(OsStr::new("/usr/local/bin:/usr/bin")),
        is_program: &is_program,
    };
    wrap(command, &rewrite)
}

fn rewritten(command: &str) -> Option<String> {
    with(command, &[], &[]).ok().map(|w| w.command)
}

fn wrapped(command: &str) -> String {
    format!("CTXOFF_SESSION={SESSION} CTXOFF_AGENT=claude {CTXOFF} -- {command}")
}

#[test]
fn wraps_listed_commands_keeping_their_text_exactly() {
    for command in [
        "cargo test",
        "cargo test --workspace -- --nocapture",
        "cargo +nightly test",
        "cargo --locked build --release",
        "cargo -C sub clippy --all-targets -- -D warnings",
        "ls -la",
        r#"grep -rn "x|y" src/"#,
        r#"rg 'fn (main|run)\(' --type rust"#,
        r"find . -name \*.rs -exec wc -l {} \;",
        "git log --format='%h %s' -n 20",
        "git -C sub log",
        "git --no-pager diff --stat",
        "git show HEAD~1",
        "cat $HOME/notes.txt",
        "cargo build 2>&1",
        "cargo test \\\n  --all",
        "sudo make",
        "timeout 60 npm test",
        "/usr/bin/make -j4",
        "make",
        "make -j4 CC=clang",
        "make -C build test",
        "make check",
        "npm run build",
        "npm test -- --watch=false",
        "npx jest --ci",
        "npx tsc --noEmit",
        "python3 -m pytest -x",
        "uv run pytest -q",
        "pytest -q tests/",
        "go test ./...",
        "tail -n 100 log.txt",
        "docker logs web",
        "docker ps -a",
        "./gradlew test",
        "./node_modules/.bin/eslint .",
    ] {
        assert_eq!(rewritten(command), Some(wrapped(command)), "{command:?}");
    }
}

#[test]
fn says_which_entry_or_pattern_wraps_a_command() {
    let listed = |command: &str, patterns: &[&str]| with(command, patterns, &[]).map(|w| w.listed);
    assert_eq!(
        listed("cargo +nightly test --all", &[]),
        Ok(Listed::Default("cargo test".into()))
    );
    assert_eq!(
        listed("git -C sub log", &[]),
        Ok(Listed::Default("git log".into()))
    );
    assert_eq!(listed("make -j4", &[]), Ok(Listed::Default("make".into())));
    assert_eq!(
        listed("npm run build", &[]),
        Ok(Listed::Default("npm run build".into()))
    );
    assert_eq!(listed("pytest", &[]), Ok(Listed::Default("pytest".into())));
    assert_eq!(
        listed("just test", &["just *", "task *"]),
        Ok(Listed::Config("just *".into()))
    );
    assert_eq!(
        listed("sudo just test", &["just *"]),
        Ok(Listed::Config("just *".into())),
        "patterns see through wrappers, as keep does"
    );
    assert_eq!(listed("ctxoff lines @last 1:40", &[]), Ok(Listed::Ctxoff));
    assert_eq!(
        listed("just deploy", &["just test*"]),
        Err(Unwrapped::NotListed("just deploy".into()))
    );
}

/// What a user is likely to forbid is never a command the hook approves.
#[test]
fn leaves_subcommands_that_are_not_listed() {
    for command in [
        "cargo publish",
        "cargo run --release",
        "cargo install ripgrep",
        "cargo",
        "cargo testx",
        "git push origin main",
        "git commit -m x",
        "git reset --hard",
        "git",
        "npm publish",
        "npm run deploy",
        "npm start",
        "make install",
        "make deploy",
        "make -j 4",
        "docker run ubuntu",
        "docker rm -f web",
        "kubectl apply -f x.yaml",
        "kubectl delete pod x",
        "terraform apply",
        "rm -rf target",
        "mv a b",
        "cp a b",
        "sed -i s/a/b/ f",
        "curl -X POST https://example.invalid",
        "seq 1 20000",
        "python3 script.py",
        "node --version",
        "./ll",
    ] {
        assert!(
            matches!(with(command, &[], &[]), Err(Unwrapped::NotListed(_))),
            "{command:?}: {:?}",
            with(command, &[], &[])
        );
    }
}

#[test]
fn moves_leading_assignments_in_front_of_ctxoff() {
    assert_eq!(
        rewritten("RUST_LOG=debug RUST_BACKTRACE=1 cargo test -- --nocapture").as_deref(),
        Some(
            format!(
                "CTXOFF_SESSION={SESSION} CTXOFF_AGENT=claude RUST_LOG=debug RUST_BACKTRACE=1 {CTXOFF} -- cargo test -- --nocapture"
            )
            .as_str()
        )
    );
    assert_eq!(
        rewritten("NODE_OPTIONS='--max-old-space-size=4096' npx jest"),
        Some(format!(
            "CTXOFF_SESSION={SESSION} CTXOFF_AGENT=claude NODE_OPTIONS='--max-old-space-size=4096' {CTXOFF} -- npx jest"
        ))
    );
}

/// ctxoff is called by its absolute path, so the command's own PATH only decides where the
/// command is found: looked up there, not in the hook's PATH.
#[test]
fn a_path_assignment_is_where_the_program_is_looked_up() {
    let wrap_tool = ["tool *"];
    let ok = |command: &str| with(command, &wrap_tool, &[]).map(|w| w.command);
    assert_eq!(
        ok("PATH=/x/bin tool run"),
        Ok(format!(
            "CTXOFF_SESSION={SESSION} CTXOFF_AGENT=claude PATH=/x/bin {CTXOFF} -- tool run"
        ))
    );
    assert!(
        ok("PATH=/x/bin:$PATH make").is_ok(),
        "in the inherited part"
    );
    assert!(ok("PATH=/x/bin:${PATH} tool x").is_ok());
    assert_eq!(
        with("PATH=/x/bin make", &[], &[]),
        Err(Unwrapped::NotFound("make".into()))
    );
    assert_eq!(
        with("PATH=$(pwd)/bin make", &[], &[]),
        Err(Unwrapped::NotSimple(NotSimple::Substitution))
    );
    assert_eq!(
        with("PATH=~/bin:$PATH make", &[], &[]),
        Err(Unwrapped::UnknownPath)
    );
    let quoted = format!("{} -- make", shell_quote("/opt/my tools/ctxoff"));
    let rewrite = Rewrite {
        agent: "claude",
        session: "s",
        ctxoff: Path::new("/opt/my tools/ctxoff"),
        wrap: &[],
        keep: &[],
        path: None,
        is_program: &is_program,
    };
    assert_eq!(
        wrap("make", &rewrite).unwrap().command,
        format!("CTXOFF_SESSION=s CTXOFF_AGENT=claude {quoted}")
    );
}

#[test]
fn leaves_builtins_and_shell_changers_alone() {
    for command in [
        "cd src",
        "cd",
        "export PATH=$HOME/bin:$PATH",
        "source .venv/bin/activate",
        ". ./env.sh",
        "alias ll='ls -l'",
        "set -e",
        "unset FOO",
        "exec make",
        "eval \"$CMD\"",
        "pushd /tmp",
        "ulimit -n 4096",
        "type cargo",
        "pwd",
        "kill %1",
        "true",
        "echo hello",
        "printf '%s\\n' a b",
        "printf -v x '%s' y",
        "\"cd\" src",
        "sudo cd /root",
    ] {
        assert!(
            matches!(with(command, &["*"], &[]), Err(Unwrapped::Builtin(_))),
            "{command:?}: {:?}",
            with(command, &["*"], &[])
        );
    }
    for command in ["FOO=bar", "A=1 B=2"] {
        assert!(matches!(
            with(command, &["*"], &[]),
            Err(Unwrapped::NotSimple(_))
        ));
    }
}

#[test]
fn leaves_compound_commands_and_shell_scripts_alone() {
    for command in [
        "cd src && cargo test",
        "cargo build; cargo test",
        "make || true",
        "cargo test 2>&1 | tail -50",
        "sleep 10 &",
        "cargo test > out.txt",
        "cargo test 2>/dev/null",
        "cat <<'EOF'\nhello\nEOF",
        "(cd sub && make)",
        "{ make; make test; }",
        "cat $(git ls-files)",
        "cargo fmt\ncargo clippy",
        "for f in *.rs; do wc -l $f; done",
        "time cargo build",
        "! grep -q x file",
        "grep 'unterminated",
    ] {
        assert!(
            matches!(with(command, &["*"], &[]), Err(Unwrapped::NotSimple(_))),
            "{command:?}: {:?}",
            with(command, &["*"], &[])
        );
    }
    for command in [
        "sh -c 'make && make install'",
        "bash -lc 'cargo test'",
        "sudo sh -c 'make'",
    ] {
        assert!(
            matches!(with(command, &["*"], &[]), Err(Unwrapped::ShellScript(_))),
            "{command:?}"
        );
    }
}

#[test]
fn leaves_interactive_programs_alone() {
    for command in [
        "vim src/main.rs",
        "less README.md",
        "top",
        "man git",
        "ssh host uptime",
        "watch -n 1 ls",
        "python3",
        "node",
        "psql",
        "python3 -i script.py",
        "sudo -u root vim /etc/hosts",
        "timeout 5 top",
        "git commit",
        "git rebase -i HEAD~3",
        "git add -p",
        "tail -f app.log",
        "tail -F app.log",
        "tail --follow=name app.log",
        "journalctl -f",
        "docker logs -f web",
        "kubectl logs --follow pod",
        "docker run -it ubuntu bash",
    ] {
        assert!(
            matches!(with(command, &["*"], &[]), Err(Unwrapped::Interactive(_))),
            "{command:?}: {:?}",
            with(command, &["*"], &[])
        );
    }
}

#[test]
fn commands_already_using_ctxoff_only_get_the_session() {
    for command in [
        "ctxoff cargo test",
        "ctxoff -- make",
        "ctxoff lines @last 1:40",
        "ctxoff grep cargo_4 'error\\[E' -C 3",
        "CTXOFF_THRESHOLD=100 ctxoff make",
        "~/.cargo/bin/ctxoff list",
    ] {
        let expected = format!("CTXOFF_SESSION={SESSION} CTXOFF_AGENT=claude {command}");
        assert_eq!(rewritten(command), Some(expected), "{command:?}");
    }
    for command in [
        "CTXOFF_SESSION=mine ctxoff lines @last 1:9",
        "env A=1 ctxoff make",
        "sudo ctxoff make",
    ] {
        assert_eq!(rewritten(command), None, "{command:?}");
    }
}

#[test]
fn leaves_aliases_and_functions_alone() {
    for command in ["ll", "ll -a src", "gst", "my_function arg", "RUST_LOG=1 ll"] {
        assert!(
            matches!(with(command, &["*"], &[]), Err(Unwrapped::NotFound(_))),
            "{command:?}"
        );
    }
    // A path is run as it is, whatever PATH holds.
    assert!(with("./ll", &["*"], &[]).is_ok());
}

#[test]
fn keep_always_wins() {
    let keep = ["git diff*", "cat *.md"];
    for (command, kept) in [
        ("git diff", true),
        ("git diff --stat HEAD~1", true),
        ("git  diff", true),
        ("cat README.md", true),
        ("sudo git diff", true),
        ("git status", false),
        ("cat src/main.rs", false),
    ] {
        let result = with(command, &["git *", "cat *"], &keep);
        assert_eq!(
            matches!(result, Err(Unwrapped::Kept(_))),
            kept,
            "{command:?}: {result:?}"
        );
    }
}

#[test]
fn every_default_entry_is_reachable_and_unique() {
    let mut seen = std::collections::HashSet::new();
    for (program, subcommands) in DEFAULT_WRAP {
        assert!(seen.insert(*program), "{program} listed twice");
        assert!(!is_builtin(program) && !SHELL_BUILTIN_PROGRAMS.contains(program));
        assert!(!INTERACTIVE.contains(program), "{program}");
        let entries: Vec<String> = match subcommands.is_empty() {
            true => vec![program.to_string()],
            false => subcommands
                .iter()
                .map(|s| format!("{program} {s}").trim_end().to_owned())
                .collect(),
        };
        for entry in entries {
            let words: Vec<String> = entry.split(' ').map(String::from).collect();
            assert_eq!(default_entry(&words), Some(entry.clone()), "{entry}");
        }
    }
}

#[test]
fn runs_ctxoff_and_kept_by_look_at_every_command_of_a_line() {
    assert!(runs_ctxoff("CTXOFF_SESSION=x /usr/bin/ctxoff -- make"));
    assert!(runs_ctxoff("make; ctxoff lines @last"));
    assert!(runs_ctxoff("sudo ctxoff make"));
    assert!(!runs_ctxoff("seq 1 20000 | grep 7"));
    assert!(!runs_ctxoff("echo ctxoff"));
    let keep = vec!["git diff*".to_string()];
    assert_eq!(kept_by("git diff | head", &keep), Some("git diff*"));
    assert_eq!(kept_by("cd x && git diff", &keep), Some("git diff*"));
    assert_eq!(kept_by("git log", &keep), None);
}

#[test]
fn session_ids_become_session_names() {
    assert_eq!(session_name("claude-123").as_deref(), Some("claude-123"));
    assert_eq!(
        session_name("0F9C2A7E-3b1d-4c8e-9a57-2d6e1f0B8C43").as_deref(),
        Some("1f0b8c43")
    );
    // Codex's UUID v7 thread ids begin with the time: the end is what differs.
    assert_eq!(
        session_name("019a3c4e-7d2b-7f00-8a1b-3c5d7e9f1a2b").as_deref(),
        Some("7e9f1a2b")
    );
    assert_eq!(
        session_name("0f9c2a7e-3b1d-4c8e-9a57").as_deref(),
        Some("0f9c2a7e-3b1d-4c8e-9a57")
    );
    assert_eq!(
        session_name("ab c/../$(rm -rf ~)").as_deref(),
        Some("ab_c_..___rm_-rf___")
    );
    for bad in ["", ".."] {
        assert_eq!(session_name(bad), None, "{bad:?}");
    }
}

#[cfg(unix)]
#[test]
fn finds_programs_on_path() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (bin, data) = (dir.path().join("bin"), dir.path().join("data"));
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(bin.join("tool"), "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(bin.join("tool"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(data.join("notes"), "").unwrap();
    let path = std::env::join_paths([&data, &bin]).unwrap();
    assert!(program_on_path("tool", Some(&path)));
    assert!(!program_on_path("notes", Some(&path)), "not executable");
    assert!(
        !program_on_path("bin", Some(dir.path().as_os_str())),
        "a directory"
    );
    assert!(!program_on_path("ll", Some(&path)));
    assert!(!program_on_path("tool", None));
}
