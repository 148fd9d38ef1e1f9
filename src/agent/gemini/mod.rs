//! Gemini CLI (`@google/gemini-cli`, measured against 0.61.0): what its `BeforeTool` hook may
//! rewrite.
//!
//! The client runs the hook before its Policy Engine, which then judges the arguments the hook
//! handed back: a rewrite to `ctxoff -- CMD` escapes a rule written for `CMD` (a denial no longer
//! applies). Outside YOLO mode a command no rule allows is put to the user (or, with `-p`, refused),
//! and the client's heuristics (known-safe and dangerous commands) judge the rewrite differently
//! from the original. So the hook rewrites only a headless YOLO run's command that no rule with a
//! condition on the command matches, before or after the rewrite.
//!
//! Rules come from the policy folders (the system's `/etc/gemini-cli/policies`, the user's
//! `~/.gemini/policies`, a trusted workspace's `.gemini/policies`, extensions', and the
//! `policyPaths` settings or `--policy` flags) and from `settings.json`'s `tools` lists (and
//! `--allowed-tools`). The event does not name the approval mode; the client's command line does
//! (the hook's parent process), and a headless run (`-p`) cannot change it.

pub(crate) mod hook;
pub(crate) mod install;
pub mod policy;

use serde_json::{Map, Value};

use policy::{Decision, Mode, Rule};

/// How the client was started, as far as the hook's decision goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Launch {
    pub mode: Mode,
    /// `-p`: no one to ask, and no way to change the mode during the run.
    pub headless: bool,
}

/// The launch described by the client's arguments (what follows the `gemini` script on its
/// command line), or `None` when they are not read with certainty.
pub fn launch(args: &[String]) -> Option<Launch> {
    let mut mode = None;
    let mut headless = false;
    let mut set_mode = |m: Mode| match mode.replace(m) {
        Some(old) if old != m => None,
        _ => Some(()),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--" => break,
            "-y" | "--yolo" | "--yolo=true" => set_mode(Mode::Yolo)?,
            "--approval-mode" => set_mode(Mode::parse(rest.next()?)?)?,
            "-p" | "--prompt" => {
                headless = true;
                rest.next()?;
            }
            "-i" | "--prompt-interactive" => return None,
            a if a.starts_with("--approval-mode=") => {
                set_mode(Mode::parse(&a["--approval-mode=".len()..])?)?
            }
            a if a.starts_with("--prompt=") => headless = true,
            // A cluster of short flags could hide `-y` or `-p`.
            a if a.starts_with('-') && !a.starts_with("--") && a.len() > 2 => return None,
            _ => {}
        }
    }
    Some(Launch {
        mode: mode.unwrap_or(Mode::Default),
        headless,
    })
}

/// What the hook may do with a shell command, given the rules that apply.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// A rule decides the original or the rewrite by its command (or denies the shell outright):
    /// leave the command to the client. `source` names the rule's file or setting.
    Rule { decision: Decision, source: String },
    /// The same rule (or none: YOLO's allow-all) decides both, and lets both run.
    MayRewrite,
    /// The client's decision could differ, or cannot be reproduced here: leave it.
    Unsure(&'static str),
}

/// The verdict for rewriting the call with arguments `args` so that its `command` becomes
/// `rewritten`. `rules` are the user's rules (every tier but the client's defaults, and the
/// settings lists); `trusted_folder` says whether the client trusts the working folder.
pub fn verdict(
    rules: &[Rule],
    launch: Launch,
    trusted_folder: bool,
    args: &Map<String, Value>,
    rewritten: &str,
) -> Verdict {
    let Some(original) = args.get("command").and_then(Value::as_str) else {
        return Verdict::Unsure("the call has no command");
    };
    let mut new_args = args.clone();
    new_args.insert("command".into(), Value::from(rewritten));
    let (before, after) = (
        first_rule(rules, launch, args),
        first_rule(rules, launch, &new_args),
    );
    for rule in [before, after].into_iter().flatten() {
        if rule.args.is_some() {
            return Verdict::Rule {
                decision: rule.decision,
                source: rule.source.clone(),
            };
        }
    }
    if let Some(rule) = before.filter(|r| r.decision == Decision::Deny) {
        return Verdict::Rule {
            decision: rule.decision,
            source: rule.source.clone(),
        };
    }
    if launch.mode != Mode::Yolo {
        return Verdict::Unsure(
            "outside YOLO mode the client may ask, and judges the rewrite apart",
        );
    }
    if !launch.headless {
        return Verdict::Unsure("an interactive session can change its approval mode");
    }
    if !is_one_command(original) {
        return Verdict::Unsure("the client checks each part of a compound command");
    }
    if !trusted_folder
        && original
            .split_whitespace()
            .any(|w| w.rsplit('/').next() == Some("git"))
    {
        return Verdict::Unsure("the client asks for git commands in an untrusted folder");
    }
    match before.map(|r| r.decision) {
        None | Some(Decision::Allow) => Verdict::MayRewrite,
        Some(_) => Verdict::Unsure("a rule asks for every shell command"),
    }
}

/// The rule that decides a shell call with `args`: the first, by priority, that matches (rules of
/// equal priority in the order given). `None`: no rule of `rules` does, and the client's defaults
/// decide (YOLO: allow; otherwise ask, or deny with `-p`).
pub fn first_rule<'a>(
    rules: &'a [Rule],
    launch: Launch,
    args: &Map<String, Value>,
) -> Option<&'a Rule> {
    let text = policy::stable_stringify(args);
    let mut sorted: Vec<&Rule> = rules.iter().collect();
    sorted.sort_by(|a, b| b.priority.total_cmp(&a.priority));
    sorted
        .into_iter()
        .find(|rule| rule.matches(&text, launch.mode, !launch.headless))
}

/// Whether the client's shell parser sees exactly one command: no operator, redirection,
/// substitution or subshell outside single quotes, and no shell run with `-c` (whose script the
/// client checks too).
pub fn is_one_command(command: &str) -> bool {
    let mut quote = None;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), _) => {}
            (Some(_), '`') | (Some(_), '\\') => return false,
            (Some(_), '$') if chars.peek() == Some(&'(') => return false,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ';' | '&' | '|' | '<' | '>' | '(' | ')' | '`' | '\n' | '\\') => return false,
            (None, '$') if chars.peek() == Some(&'(') => return false,
            (None, _) => {}
        }
    }
    let mut words = command.split_whitespace();
    let wrapper = words.next().is_some_and(|p| {
        matches!(
            p.rsplit('/').next(),
            Some("sh" | "bash" | "zsh" | "dash" | "ksh")
        )
    });
    quote.is_none() && !(wrapper && words.any(|w| w.starts_with('-') && w.contains('c')))
}

#[cfg(test)]
mod tests {
    use super::*;
    use policy::{Tier, parse_policy_file, settings_rules};
    use serde_json::json;

    const HEADLESS_YOLO: Launch = Launch {
        mode: Mode::Yolo,
        headless: true,
    };

    fn call(command: &str) -> Map<String, Value> {
        json!({"command": command, "description": "Run it"})
            .as_object()
            .unwrap()
            .clone()
    }

    fn wrapped(command: &str) -> String {
        format!("CTXOFF_SESSION=s /usr/local/bin/ctxoff -- {command}")
    }

    fn verdict_for(rules: &[Rule], launch: Launch, command: &str) -> Verdict {
        verdict(rules, launch, true, &call(command), &wrapped(command))
    }

    fn user_rules(text: &str) -> Vec<Rule> {
        parse_policy_file(text, Tier::User, "mine.toml").unwrap()
    }

    #[test]
    fn rules_on_the_command_leave_it_alone() {
        let rules = user_rules(
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"cargo publish\"\ndecision = \"deny\"\npriority = 100\n\
             [[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = \"cargo test\"\ndecision = \"allow\"\npriority = 100\n",
        );
        let rule = |decision| Verdict::Rule {
            decision,
            source: "mine.toml".into(),
        };
        assert_eq!(
            verdict_for(&rules, HEADLESS_YOLO, "cargo publish"),
            rule(Decision::Deny)
        );
        assert_eq!(
            verdict_for(&rules, HEADLESS_YOLO, "cargo test --all"),
            rule(Decision::Allow)
        );
        assert_eq!(
            verdict_for(&rules, HEADLESS_YOLO, "cargo build"),
            Verdict::MayRewrite
        );
        assert_eq!(
            verdict_for(&[], HEADLESS_YOLO, "cargo build"),
            Verdict::MayRewrite
        );
        // A rule that would catch the rewrite.
        let ctxoff = user_rules(
            "[[rule]]\ntoolName = \"*\"\nargsPattern = \"ctxoff\"\ndecision = \"deny\"\npriority = 1\n",
        );
        assert!(matches!(
            verdict_for(&ctxoff, HEADLESS_YOLO, "cargo build"),
            Verdict::Rule { .. }
        ));
    }

    #[test]
    fn only_headless_yolo_runs_are_rewritten() {
        for launch in [
            Launch {
                mode: Mode::Default,
                headless: true,
            },
            Launch {
                mode: Mode::AutoEdit,
                headless: true,
            },
            Launch {
                mode: Mode::Yolo,
                headless: false,
            },
        ] {
            assert!(
                matches!(verdict_for(&[], launch, "cargo build"), Verdict::Unsure(_)),
                "{launch:?}"
            );
        }
        let allowed =
            settings_rules(&json!({"allowed": ["run_shell_command(cargo build)"]})).unwrap();
        let narrowed = verdict_for(&allowed, HEADLESS_YOLO, "cargo test");
        assert_eq!(
            narrowed,
            Verdict::Rule {
                decision: Decision::Deny,
                source: "tools.allowed".into()
            }
        );
    }

    #[test]
    fn what_the_client_splits_or_asks_about() {
        for command in [
            "cargo build && cargo test",
            "make > log",
            "sh -c 'make'",
            "echo $(date)",
            "echo \"`date`\"",
        ] {
            assert!(
                matches!(verdict_for(&[], HEADLESS_YOLO, command), Verdict::Unsure(_)),
                "{command}"
            );
        }
        assert_eq!(
            verdict_for(&[], HEADLESS_YOLO, "grep -rn 'a|b' src"),
            Verdict::MayRewrite
        );
        assert!(matches!(
            verdict(
                &[],
                HEADLESS_YOLO,
                false,
                &call("git log"),
                &wrapped("git log")
            ),
            Verdict::Unsure(_)
        ));
        assert_eq!(
            verdict(
                &[],
                HEADLESS_YOLO,
                false,
                &call("cargo build"),
                &wrapped("cargo build")
            ),
            Verdict::MayRewrite
        );
    }

    /// The set-ups of `tests/fixtures/gemini/policy.json`, run by the pinned client headless in
    /// YOLO mode: every single command is decided as the client decided it (a tool left out is
    /// one no command can use), and no compound command is one the hook would rewrite.
    #[test]
    fn agrees_with_the_client() {
        let recorded: Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/gemini/policy.json"
        )))
        .unwrap();
        let mut checked = 0;
        for setup in recorded["setups"].as_array().unwrap() {
            let mut rules = Vec::new();
            for (name, text) in setup["user_policies"].as_object().into_iter().flatten() {
                rules.extend(parse_policy_file(text.as_str().unwrap(), Tier::User, name).unwrap());
            }
            if let Some(tools) = setup.get("settings_tools") {
                rules.extend(settings_rules(tools).unwrap());
            }
            for case in setup["cases"].as_array().unwrap() {
                let command = case["command"].as_str().unwrap();
                let args = call(command);
                if !is_one_command(command) {
                    let v = verdict(&rules, HEADLESS_YOLO, true, &args, &wrapped(command));
                    assert!(!matches!(v, Verdict::MayRewrite), "{command}: {v:?}");
                    continue;
                }
                let decided = match first_rule(&rules, HEADLESS_YOLO, &args).map(|r| r.decision) {
                    None | Some(Decision::Allow) => "ran",
                    Some(Decision::Deny) => "denied",
                    Some(Decision::AskUser) => "asked",
                };
                let seen = match case["outcome"].as_str().unwrap() {
                    "unavailable" => "denied",
                    other => other,
                };
                assert_eq!(decided, seen, "{}: {command}", setup["name"]);
                checked += 1;
            }
        }
        assert!(checked > 15, "{checked}");
    }

    #[test]
    fn reads_the_launch() {
        let args = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(
            launch(&args("-p hi -o json --approval-mode yolo")),
            Some(HEADLESS_YOLO)
        );
        assert_eq!(launch(&args("--yolo --prompt=hi")), Some(HEADLESS_YOLO));
        assert_eq!(
            launch(&args("-y -p x -m gemini-2.5-pro")),
            Some(HEADLESS_YOLO)
        );
        assert_eq!(
            launch(&args("--approval-mode=auto_edit")),
            Some(Launch {
                mode: Mode::AutoEdit,
                headless: false
            })
        );
        assert_eq!(
            launch(&args("")),
            Some(Launch {
                mode: Mode::Default,
                headless: false
            })
        );
        for unsure in [
            "-yp hi",
            "-i hi",
            "--approval-mode",
            "--approval-mode nope",
            "-y --approval-mode plan",
            "-p",
        ] {
            assert_eq!(launch(&args(unsure)), None, "{unsure}");
        }
    }
}
