//! Codex CLI (`@openai/codex`, measured against 0.171.0): what its hook may rewrite.
//!
//! The client checks its execpolicy rules on the command its `PreToolUse` hook hands back, so a
//! rewrite to `ctxoff -- CMD` no longer meets a rule written for `CMD`: a forbidden command would
//! run, an allowed one (which runs outside the sandbox) would run inside it. The hook therefore
//! decides on the original with the user's own rules, and rewrites only where no rule, and none of
//! the client's own heuristics, has a say over either form.
//!
//! The client loads rules from the `rules/` folder of each configuration layer: the system's
//! (`/etc/codex/rules`), the user's (`$CODEX_HOME/rules`, default `~/.codex/rules`) and each
//! trusted project's `.codex/rules`, every `*.rules` file in them; a file it cannot parse drops
//! all of them. Managed requirements (`requirements.toml`) can add prompt and forbidden rules.

pub mod execpolicy;
pub(crate) mod hook;
pub(crate) mod install;
pub mod sandbox;
pub mod script;
pub mod transcript;
pub mod trust;

use std::path::Path;

use execpolicy::{Decision, Policy};

/// What the hook may do with a command, given the user's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A rule matches the original (or the rewrite): leave the command to the client.
    Rule(Decision),
    /// No rule matches, and the client's own heuristics refuse or prompt for the original (a
    /// forced `rm`): leave it.
    Dangerous,
    /// Nothing the client decides differs between the original and the rewrite.
    MayRewrite,
    /// The client's view of the command cannot be reproduced here: leave it.
    Unsure,
}

/// The verdict for rewriting the shell command `original` to `rewritten`, run in `cwd`.
pub fn verdict(policy: &Policy, original: &str, rewritten: &str, cwd: &Path) -> Verdict {
    let mut dangerous = false;
    for (index, script) in [original, rewritten].into_iter().enumerate() {
        let Some(commands) = script::plain_commands(script) else {
            // Kept whole: only a rule for the shell could match, and the client looks for a
            // forced `rm` in places this reader does not.
            if policy.has_shell_rules() || (index == 0 && script.contains("rm")) {
                return Verdict::Unsure;
            }
            continue;
        };
        if let Some(decision) = commands
            .iter()
            .filter_map(|argv| policy.decision(argv, cwd))
            .max()
        {
            return Verdict::Rule(decision);
        }
        dangerous |= index == 0 && commands.iter().any(|argv| script::is_dangerous(argv));
    }
    match dangerous {
        true => Verdict::Dangerous,
        false => Verdict::MayRewrite,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WRAPPED: &str = "CTXOFF_SESSION=s /usr/local/bin/ctxoff -- ";

    fn verdict_for(rules: &str, original: &str) -> Verdict {
        let policy = Policy::parse(rules, None).unwrap();
        verdict(
            &policy,
            original,
            &format!("{WRAPPED}{original}"),
            Path::new("/p"),
        )
    }

    #[test]
    fn a_rule_on_the_original_leaves_it_alone() {
        let rules = "prefix_rule(pattern=['cargo', 'test'])\n\
                     prefix_rule(pattern=['git', 'push'], decision='forbidden')\n\
                     prefix_rule(pattern=['npm'], decision='prompt')";
        assert_eq!(
            verdict_for(rules, "cargo test --all"),
            Verdict::Rule(Decision::Allow)
        );
        assert_eq!(
            verdict_for(rules, "git push origin"),
            Verdict::Rule(Decision::Forbidden)
        );
        assert_eq!(
            verdict_for(rules, "/usr/bin/npm ci"),
            Verdict::Rule(Decision::Prompt)
        );
        assert_eq!(verdict_for(rules, "cargo build"), Verdict::MayRewrite);
        assert_eq!(verdict_for("", "cargo build"), Verdict::MayRewrite);
    }

    #[test]
    fn a_rule_on_the_rewrite_leaves_it_alone() {
        let policy = Policy::parse(
            "prefix_rule(pattern=['ctxoff'], decision='forbidden')",
            None,
        )
        .unwrap();
        assert_eq!(
            verdict(
                &policy,
                "cargo build",
                "ctxoff -- cargo build",
                Path::new("/p")
            ),
            Verdict::Rule(Decision::Forbidden)
        );
    }

    #[test]
    fn scripts_the_client_keeps_whole() {
        // `$ARGS` hides the words from every rule, wrapped or not.
        assert_eq!(
            verdict_for("prefix_rule(pattern=['cargo'])", "cargo test $ARGS"),
            Verdict::MayRewrite
        );
        // …except a rule for the shell, which sees the whole script either way.
        assert_eq!(
            verdict_for("prefix_rule(pattern=['bash'])", "cargo test"),
            Verdict::Unsure
        );
        assert_eq!(verdict_for("", "rm -rf \"$DIR\""), Verdict::Unsure);
    }

    /// Scripts the pinned client ran with a forbidden `echo` rule
    /// (`tests/fixtures/codex/scripts.json`): where this reader finds plain commands, the rule
    /// applies exactly where the client applied it; where it finds none, the client did not
    /// apply it either.
    #[test]
    fn reads_scripts_as_the_client_does() {
        let recorded: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/codex/scripts.json"
        )))
        .unwrap();
        let policy = Policy::parse(recorded["rules"].as_str().unwrap(), None).unwrap();
        for case in recorded["scripts"].as_array().unwrap() {
            let script = case["script"].as_str().unwrap();
            let forbidden = script::plain_commands(script).is_some_and(|commands| {
                commands
                    .iter()
                    .any(|argv| policy.decision(argv, Path::new("/")).is_some())
            });
            assert_eq!(forbidden, case["rejected"], "{script:?}");
        }
    }

    #[test]
    fn the_clients_heuristics() {
        assert_eq!(verdict_for("", "rm -rf build"), Verdict::Dangerous);
        assert_eq!(verdict_for("", "sudo rm -f x"), Verdict::Dangerous);
        assert_eq!(
            verdict_for("prefix_rule(pattern=['rm'])", "rm -rf build"),
            Verdict::Rule(Decision::Allow)
        );
    }
}
