//! Claude Code: the `PreToolUse` hook's answer to a Bash tool call. What the client itself
//! would do with the call, mirrored from the pinned client: its permission rules and modes
//! (`permissions`), where it reads them (`settings`), its view of a Bash command line (`bash`).

// Not yet called by the hook: the decision is wired in next.
#[allow(dead_code, unreachable_pub)]
pub mod bash;
pub(crate) mod install;
#[allow(dead_code, unreachable_pub)]
pub mod permissions;
#[allow(dead_code, unreachable_pub)]
pub mod settings;

use serde_json::{Map, Value, json};

use super::wrap::wrap_command;

/// The hook response for a Claude Code `PreToolUse` event, or `None` to leave the call alone.
/// `is_program` tells whether a command name is a program ctxoff can run (see `wrap_command`).
pub(crate) fn claude_rewrite(
    event: &str,
    keep: &[String],
    is_program: &dyn Fn(&str) -> bool,
) -> Option<Value> {
    let event: Value = serde_json::from_str(event).ok()?;
    if event.get("hook_event_name")?.as_str()? != "PreToolUse"
        || event.get("tool_name")?.as_str()? != "Bash"
    {
        return None;
    }
    let session = session_name(event.get("session_id")?.as_str()?)?;
    let tool_input = event.get("tool_input")?.as_object()?;
    // Background commands are read while they run; ctxoff holds output until it can decide.
    if tool_input.get("run_in_background").and_then(Value::as_bool) == Some(true) {
        return None;
    }
    let command = wrap_command(
        tool_input.get("command")?.as_str()?,
        &session,
        keep,
        is_program,
    )?;
    let mut updated: Map<String, Value> = tool_input.clone();
    updated.insert("command".into(), Value::String(command));
    Some(json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "updatedInput": updated,
        }
    }))
}

/// Claude Code session ids are UUIDs; anything else is reduced to `[A-Za-z0-9._-]` so it needs no
/// shell quoting and is a valid ctxoff session name. `None` when nothing usable is left.
fn session_name(id: &str) -> Option<String> {
    let name = crate::store::sanitize(id, "");
    crate::store::checked_session_name(&name).ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    const SESSION: &str = "7f3c2a9e-5b1d-4e8f-9a2c-1d3e5f7a9b0c";

    /// A PreToolUse event as Claude Code sends it for a Bash call.
    pub(crate) fn event(command: &str) -> Value {
        json!({
            "session_id": SESSION,
            "transcript_path": "/home/ana/.claude/projects/-home-ana-proj/7f3c2a9e.jsonl",
            "cwd": "/home/ana/proj",
            "permission_mode": "default",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {
                "command": command,
                "description": "Run the test suite",
                "timeout": 120000
            },
            "tool_use_id": "toolu_01ABCDEFGHJKLMNPQRSTUVWX"
        })
    }

    /// Names the fake shell knows only as aliases or functions; everything else is a program.
    const NOT_PROGRAMS: &[&str] = &["ll", "gst", "my_function"];

    /// The response line for `input`, or "" when the hook would print nothing.
    fn hook(input: &str, keep: &[&str]) -> String {
        let keep: Vec<String> = keep.iter().map(|k| k.to_string()).collect();
        let is_program = |p: &str| !NOT_PROGRAMS.contains(&p);
        match claude_rewrite(input, &keep, &is_program) {
            Some(response) => format!("{response}\n"),
            None => String::new(),
        }
    }

    /// The rewritten command, or `None` when the hook printed nothing.
    fn rewritten(command: &str) -> Option<String> {
        let out = hook(&event(command).to_string(), &[]);
        if out.is_empty() {
            return None;
        }
        let v: Value = serde_json::from_str(&out).unwrap();
        Some(
            v["hookSpecificOutput"]["updatedInput"]["command"]
                .as_str()
                .unwrap()
                .to_owned(),
        )
    }

    fn wrapped(command: &str) -> String {
        format!("CTXOFF_SESSION={SESSION} ctxoff -- {command}")
    }

    #[test]
    fn whole_response_shape() {
        let out = hook(&event("cargo test --workspace").to_string(), &[]);
        assert!(
            out.ends_with('\n') && out.lines().count() == 1,
            "one JSON line: {out:?}"
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(
            v,
            json!({"hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "updatedInput": {
                    "command": wrapped("cargo test --workspace"),
                    "description": "Run the test suite",
                    "timeout": 120000
                }
            }})
        );
        // Never a permission decision: the user's own rules and prompts stay in charge.
        assert!(!out.contains("permissionDecision"), "{out}");
    }

    #[test]
    fn wraps_simple_commands_keeping_quotes_exactly() {
        for command in [
            "cargo test",
            "ls -la",
            "echo 'a && b'",
            r#"grep -rn "x|y" src/"#,
            r#"rg 'fn (main|run)\(' --type rust"#,
            r#"echo "it's \"quoted\"" 'and $NOT expanded'"#,
            r"find . -name \*.rs -exec wc -l {} \;",
            "git log --format='%h %s' -n 20",
            "python3 -c 'import sys; print(sys.version)'",
            "sh -c 'make && make install'",
            "git diff --stat",
            "cat $HOME/notes.txt",
            "cargo build 2>&1",
            "cargo test \\\n  --all",
            "echo 'line one\nline two'",
            "printf '%s\\n' a b",
            "sudo apt-get install -y ripgrep",
            "timeout 60 npm test",
            "/usr/bin/make -j4",
            "git commit -m 'fix: handle ; in messages'",
            "git commit -am \"wip\"",
            "git -C sub commit --message=x",
            "python3 script.py",
            "node --version",
            "tail -n 100 log.txt",
            "docker ps -a",
        ] {
            assert_eq!(rewritten(command), Some(wrapped(command)), "{command:?}");
        }
    }

    #[test]
    fn moves_leading_assignments_in_front_of_ctxoff() {
        assert_eq!(
            rewritten("RUST_LOG=debug RUST_BACKTRACE=1 cargo test -- --nocapture").as_deref(),
            Some(
                format!(
                    "CTXOFF_SESSION={SESSION} RUST_LOG=debug RUST_BACKTRACE=1 ctxoff -- cargo test -- --nocapture"
                )
                .as_str()
            )
        );
        assert_eq!(
            rewritten("NODE_OPTIONS='--max-old-space-size=4096' npx jest"),
            Some(format!(
                "CTXOFF_SESSION={SESSION} NODE_OPTIONS='--max-old-space-size=4096' ctxoff -- npx jest"
            ))
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
            "unalias ll",
            "set -e",
            "unset FOO",
            "exec bash",
            "eval \"$CMD\"",
            "pushd /tmp",
            "popd",
            "ulimit -n 4096",
            "umask 022",
            "trap 'echo bye' EXIT",
            "shopt -s globstar",
            "declare -x A=1",
            "type cargo",
            "pwd",
            "jobs",
            "kill %1",
            "true",
            "printf -v x '%s' y",
            "\"cd\" src",
            "FOO=bar",
            "A=1 B=2",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn leaves_compound_commands_alone() {
        for command in [
            "cd src && cargo test",
            "cargo build; cargo test",
            "make || true",
            "cargo test 2>&1 | tail -50",
            "sleep 10 &",
            "cargo test > out.txt",
            "cargo test >> out.txt 2>&1",
            "wc -l < file",
            "cargo test 2>/dev/null",
            "cat <<'EOF'\nhello\nEOF",
            "(cd sub && make)",
            "{ make; make test; }",
            "echo $(git rev-parse HEAD)",
            "echo `date`",
            "cargo fmt\ncargo clippy",
            "for f in *.rs; do wc -l $f; done",
            "if [ -f x ]; then cat x; fi",
            "time cargo build",
            "! grep -q x file",
            "diff <(sort a) <(sort b)",
            "echo 'unterminated",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn leaves_interactive_programs_alone() {
        for command in [
            "vim src/main.rs",
            "less README.md",
            "top",
            "htop",
            "man git",
            "ssh host uptime",
            "tmux attach",
            "watch -n 1 ls",
            "python3",
            "python",
            "node",
            "psql",
            "bash",
            "python3 -i script.py",
            "/usr/bin/vim x",
            "sudo -u root vim /etc/hosts",
            "env EDITOR=vim nano x",
            "timeout 5 top",
            "timeout --signal KILL 5 vim",
            "timeout -s KILL 5 vim",
            "nice --adjustment 5 vim",
            "stdbuf -o L vim",
            "ionice -c 3 htop",
            "sh -c 'vim notes.txt'",
            "git commit",
            "git commit --amend",
            "git commit -a",
            "git commit -m x --patch",
            "git -C sub commit -v",
            "git rebase -i HEAD~3",
            "git add -p",
            "git checkout --patch",
            "git tag -a v1.0",
            "git mergetool",
            "tail -f app.log",
            "tail -F app.log",
            "tail --follow=name app.log",
            "journalctl -f",
            "docker run -it ubuntu bash",
            "kubectl exec -it pod -- sh",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
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
            let expected = format!("CTXOFF_SESSION={SESSION} {command}");
            assert_eq!(rewritten(command), Some(expected), "{command:?}");
        }
        for command in [
            "CTXOFF_SESSION=mine ctxoff lines @last 1:9",
            "env A=1 ctxoff make",
            "sudo ctxoff make",
            "ctxoff cargo test && ctxoff list",
        ] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
    }

    #[test]
    fn leaves_aliases_and_functions_alone() {
        for command in ["ll", "ll -a src", "gst", "my_function arg", "RUST_LOG=1 ll"] {
            assert_eq!(rewritten(command), None, "{command:?}");
        }
        // A path is run as it is, whatever PATH holds.
        assert_eq!(rewritten("./ll"), Some(wrapped("./ll")));
        assert_eq!(rewritten("sudo ll"), Some(wrapped("sudo ll")));
    }

    #[test]
    fn leaves_keep_patterns_alone() {
        let keep = ["git diff*", "cat *.md"];
        for (command, expect) in [
            ("git diff", true),
            ("git diff --stat HEAD~1", true),
            ("git  diff", true),
            ("cat README.md", true),
            ("sudo git diff", true),
            ("git status", false),
            ("cat src/main.rs", false),
        ] {
            let out = hook(&event(command).to_string(), &keep);
            assert_eq!(out.is_empty(), expect, "{command:?}: {out}");
        }
    }

    #[test]
    fn leaves_background_commands_alone() {
        let mut e = event("npm run dev");
        e["tool_input"]["run_in_background"] = json!(true);
        assert_eq!(hook(&e.to_string(), &[]), "");
        e["tool_input"]["run_in_background"] = json!(false);
        assert!(hook(&e.to_string(), &[]).contains("ctxoff -- npm run dev"));
    }

    #[test]
    fn session_id_is_sanitised() {
        let mut e = event("make");
        e["session_id"] = json!("ab c/../$(rm -rf ~)");
        let out: Value = serde_json::from_str(&hook(&e.to_string(), &[])).unwrap();
        assert_eq!(
            out["hookSpecificOutput"]["updatedInput"]["command"],
            "CTXOFF_SESSION=ab_c_..___rm_-rf___ ctxoff -- make"
        );
        for bad in [json!(""), json!(".."), json!(42), Value::Null] {
            e["session_id"] = bad.clone();
            assert_eq!(hook(&e.to_string(), &[]), "", "{bad}");
        }
    }

    #[test]
    fn malformed_input_means_no_change() {
        let mut inputs: Vec<String> = [
            "",
            "not json",
            "{",
            "[]",
            "null",
            "{}",
            "\u{feff}garbage \u{0}",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mutations: [fn(&mut Value); 9] = [
            |e| e["hook_event_name"] = json!("PostToolUse"),
            |e| e["tool_name"] = json!("Edit"),
            |e| e["tool_name"] = json!("bash"),
            |e| {
                e.as_object_mut().unwrap().remove("tool_input");
            },
            |e| e["tool_input"] = json!("cargo test"),
            |e| e["tool_input"]["command"] = json!(["cargo", "test"]),
            |e| {
                e["tool_input"].as_object_mut().unwrap().remove("command");
            },
            |e| e["tool_input"]["command"] = json!("   "),
            |e| {
                e.as_object_mut().unwrap().remove("hook_event_name");
            },
        ];
        for mutate in mutations {
            let mut e = event("cargo test");
            mutate(&mut e);
            inputs.push(e.to_string());
        }
        for input in &inputs {
            assert_eq!(hook(input, &[]), "", "{input}");
        }
    }
}
