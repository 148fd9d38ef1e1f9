//! opencode (`opencode-ai`, measured against 1.18.33): what its `tool.execute.before` plugin hook
//! may rewrite.
//!
//! The client checks its `permission` rules inside the bash tool, on the command the plugin
//! handed back, so a rewrite to `ctxoff -- CMD` escapes a pattern written for `CMD`. Its rules:
//!
//! ```json
//! {"permission": {"bash": {"*": "allow", "git push *": "deny", "npm *": "ask"}, "edit": "ask"}}
//! ```
//!
//! become a list of `(permission, pattern, action)` rules, in the order of the resolved
//! configuration (JavaScript's key order), after the client's defaults (which allow every tool)
//! and before the agent's own `permission`. For each command of a bash
//! call the *last* rule whose permission and pattern both match decides, not the most specific;
//! `permission: "ask"` is `{"*": "ask"}`. Patterns are globs over the command's text (`*` any
//! text, `?` one character, and a trailing ` *` also matches nothing). With `opencode run` an
//! `ask` is refused and ends the run.
//!
//! The hook may rewrite only a single command whose deciding rule, before and after the rewrite,
//! is a `*` pattern that allows it. Commands whose path arguments the client also checks against
//! the project folder (`rm`, `cp`, `cat`…) are left alone: the rewrite would hide those paths.

pub(crate) mod hook;
pub(crate) mod install;

use std::path::Path;

use regex::Regex;
use serde_json::Value;

/// What a rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Allow,
    Ask,
    Deny,
}

impl Action {
    pub fn name(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Ask => "ask",
            Action::Deny => "deny",
        }
    }

    fn parse(name: &str) -> Option<Action> {
        match name {
            "allow" => Some(Action::Allow),
            "ask" => Some(Action::Ask),
            "deny" => Some(Action::Deny),
            _ => None,
        }
    }
}

/// One rule: a permission name (`bash`, or a glob such as `*`) and a pattern over what is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub permission: String,
    pub pattern: String,
    pub action: Action,
}

/// The client's defaults for its primary agent, as far as bash goes: every tool allowed.
pub fn defaults() -> Vec<Rule> {
    vec![Rule {
        permission: "*".into(),
        pattern: "*".into(),
        action: Action::Allow,
    }]
}

/// The rules of a `permission` configuration value, in the client's order. `home` expands
/// patterns starting with `~/` or `$HOME`.
pub fn rules_from_config(permission: &Value, home: Option<&Path>) -> Result<Vec<Rule>, String> {
    let entries = match permission {
        Value::String(action) => vec![("*".to_owned(), Value::String(action.clone()))],
        Value::Object(map) => js_order(map),
        _ => return Err("`permission` is neither an action nor an object".into()),
    };
    let mut rules = Vec::new();
    for (name, value) in entries {
        let action = |v: &Value| {
            v.as_str()
                .and_then(Action::parse)
                .ok_or_else(|| format!("permission.{name}: {v} is not allow, ask or deny"))
        };
        match &value {
            Value::String(_) => rules.push(Rule {
                permission: name.clone(),
                pattern: "*".into(),
                action: action(&value)?,
            }),
            Value::Object(patterns) => {
                for (pattern, v) in js_order(patterns) {
                    rules.push(Rule {
                        permission: name.clone(),
                        pattern: expand_home(&pattern, home),
                        action: action(&v)?,
                    });
                }
            }
            other => {
                return Err(format!(
                    "permission.{name}: {other} is not an action or object"
                ));
            }
        }
    }
    Ok(rules)
}

/// The rules of an agent's ruleset as the client's API lists them (`GET /agent`: each agent's
/// `permission`, the merged list it evaluates, in order):
/// `[{"permission": "bash", "pattern": "git push *", "action": "deny"}, …]`.
pub fn rules_from_ruleset(ruleset: &Value) -> Result<Vec<Rule>, String> {
    let entries = ruleset.as_array().ok_or("the ruleset is not a list")?;
    entries
        .iter()
        .map(|entry| {
            let text = |key: &str| {
                entry[key]
                    .as_str()
                    .ok_or_else(|| format!("a rule without {key}: {entry}"))
            };
            Ok(Rule {
                permission: text("permission")?.to_owned(),
                pattern: text("pattern")?.to_owned(),
                action: Action::parse(text("action")?)
                    .ok_or_else(|| format!("a rule with an unknown action: {entry}"))?,
            })
        })
        .collect()
}

/// A JSON object's entries in the order JavaScript iterates them: keys that are array indices
/// (`"0"`, `"17"`) first, ascending, then the rest as written.
fn js_order(map: &serde_json::Map<String, Value>) -> Vec<(String, Value)> {
    let index = |k: &str| {
        k.parse::<u32>()
            .ok()
            .filter(|n| *n < u32::MAX && n.to_string() == k)
    };
    let mut indices: Vec<(u32, String, Value)> = Vec::new();
    let mut rest = Vec::new();
    for (k, v) in map {
        match index(k) {
            Some(n) => indices.push((n, k.clone(), v.clone())),
            None => rest.push((k.clone(), v.clone())),
        }
    }
    indices.sort_by_key(|(n, _, _)| *n);
    indices
        .into_iter()
        .map(|(_, k, v)| (k, v))
        .chain(rest)
        .collect()
}

fn expand_home(pattern: &str, home: Option<&Path>) -> String {
    let Some(home) = home.map(|h| h.to_string_lossy().into_owned()) else {
        return pattern.to_owned();
    };
    if pattern == "~" {
        home
    } else if let Some(rest) = pattern.strip_prefix("~/") {
        format!("{home}/{rest}")
    } else if let Some(rest) = pattern.strip_prefix("$HOME") {
        format!("{home}{rest}")
    } else {
        pattern.to_owned()
    }
}

/// The client's glob: `*` is any text (newlines too), `?` one character, the rest literal
/// (backslashes read as `/`), the whole text; a pattern ending in ` *` also matches without
/// that tail (`git *` matches `git`).
pub fn wildcard(text: &str, pattern: &str) -> bool {
    let text = text.replace('\\', "/");
    let mut re = String::from("(?s)^");
    let body: String = pattern
        .replace('\\', "/")
        .chars()
        .map(|c| match c {
            '*' => ".*".to_owned(),
            '?' => ".".to_owned(),
            c => regex::escape(&c.to_string()),
        })
        .collect();
    match body.strip_suffix(" .*") {
        Some(head) => re.push_str(&format!("{head}( .*)?")),
        None => re.push_str(&body),
    }
    re.push('$');
    Regex::new(&re).is_ok_and(|re| re.is_match(&text))
}

/// The rule deciding `pattern` for `permission`: the last that matches; `None` means the
/// client's fallback, ask.
pub fn evaluate<'a>(rules: &'a [Rule], permission: &str, pattern: &str) -> Option<&'a Rule> {
    rules
        .iter()
        .rev()
        .find(|rule| wildcard(permission, &rule.permission) && wildcard(pattern, &rule.pattern))
}

/// Whether the client leaves the `permission` tool out altogether: the last rule naming it has
/// the pattern `*` and denies (whatever patterns came before).
pub fn hidden(rules: &[Rule], permission: &str) -> bool {
    rules
        .iter()
        .rev()
        .find(|rule| wildcard(permission, &rule.permission))
        .is_some_and(|rule| rule.pattern == "*" && rule.action == Action::Deny)
}

/// Programs whose path arguments the client checks against the project folder
/// (`external_directory`), and those that change directory (no bash permission at all).
const PATH_CHECKED: &[&str] = &[
    "cd", "chdir", "popd", "pushd", "rm", "cp", "mv", "mkdir", "touch", "chmod", "chown", "cat",
];

/// What the hook may do with a bash command, given the agent's rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// A rule other than a `*` pattern decides the original or the rewrite, or a `*` rule that
    /// does not allow: leave the command to the client.
    Rule { action: Action, pattern: String },
    /// A `*` pattern allows both.
    MayRewrite,
    /// The client would judge the rewrite on other grounds: leave it.
    Unsure(&'static str),
}

/// The verdict for rewriting the bash command `original` to `rewritten` under `rules` (the
/// client's defaults, then the configuration's, then the agent's).
pub fn verdict(rules: &[Rule], original: &str, rewritten: &str) -> Verdict {
    let Ok(command) = crate::command::lex::simple_command(original) else {
        return Verdict::Unsure("the client asks for each command of a script");
    };
    let program = command.words[0].rsplit('/').next().unwrap_or_default();
    if PATH_CHECKED.contains(&program) {
        return Verdict::Unsure("the client checks this program's paths against the project");
    }
    for text in [original.trim(), rewritten.trim()] {
        match evaluate(rules, "bash", text) {
            Some(rule) if rule.pattern == "*" && rule.action == Action::Allow => {}
            Some(rule) => {
                return Verdict::Rule {
                    action: rule.action,
                    pattern: rule.pattern.clone(),
                };
            }
            None => {
                return Verdict::Rule {
                    action: Action::Ask,
                    pattern: "*".into(),
                };
            }
        }
    }
    Verdict::MayRewrite
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(permission: Value) -> Vec<Rule> {
        let mut all = defaults();
        all.extend(rules_from_config(&permission, Some(Path::new("/home/ana"))).unwrap());
        all
    }

    fn action(rules: &[Rule], command: &str) -> Action {
        evaluate(rules, "bash", command).map_or(Action::Ask, |r| r.action)
    }

    #[test]
    fn globs() {
        for (text, pattern, expected) in [
            ("git status", "git *", true),
            ("git", "git *", true),
            ("gitx", "git *", false),
            ("git status -s", "git status", false),
            ("git status", "git st?tus", true),
            ("npm run build", "npm run *", true),
            ("echo 'a\nb'", "echo *", true),
            ("a.b", "a?b", true),
            ("axb", "a.b", false),
            ("C:\\x", "C:/x", true),
            ("(x)", "(x)", true),
            ("anything at all", "*", true),
            ("", "*", true),
        ] {
            assert_eq!(wildcard(text, pattern), expected, "{text:?} ~ {pattern:?}");
        }
    }

    #[test]
    fn the_last_matching_rule_wins() {
        let broad_last = rules(json!({"bash": {"git *": "allow", "*": "ask"}}));
        assert_eq!(action(&broad_last, "git status"), Action::Ask);
        let specific_last = rules(json!({"bash": {"*": "ask", "git *": "allow"}}));
        assert_eq!(action(&specific_last, "git status"), Action::Allow);
        assert_eq!(action(&specific_last, "ls"), Action::Ask);
        assert_eq!(action(&rules(json!("deny")), "ls"), Action::Deny);
        assert_eq!(
            action(&rules(json!({"*": "ask", "bash": "allow"})), "ls"),
            Action::Allow
        );
        assert_eq!(action(&[], "ls"), Action::Ask, "no rule: ask");
        assert!(hidden(&rules(json!({"bash": "deny"})), "bash"));
        assert!(hidden(&rules(json!({"*": "deny"})), "bash"));
        assert!(!hidden(
            &rules(json!({"bash": {"*": "deny", "git *": "allow"}})),
            "bash"
        ));
        assert!(!hidden(
            &rules(json!({"bash": "deny", "edit": "allow"})),
            "edit"
        ));
    }

    #[test]
    fn config_order_is_javascripts() {
        let rules = rules_from_config(
            &json!({"bash": {"b *": "deny", "10": "ask", "a *": "allow", "2": "ask"}}),
            None,
        )
        .unwrap();
        let patterns: Vec<&str> = rules.iter().map(|r| r.pattern.as_str()).collect();
        assert_eq!(patterns, ["2", "10", "b *", "a *"]);
        let home = rules_from_config(
            &json!({"external_directory": {"~/x/*": "allow", "$HOME/y": "deny"}}),
            Some(Path::new("/home/ana")),
        )
        .unwrap();
        assert_eq!(home[0].pattern, "/home/ana/x/*");
        assert_eq!(home[1].pattern, "/home/ana/y");
        assert!(rules_from_config(&json!({"bash": {"*": "maybe"}}), None).is_err());
        assert!(rules_from_config(&json!(3), None).is_err());
    }

    /// The set-ups of `tests/fixtures/opencode/permission.json` run by the pinned client: every
    /// single command gets the client's decision, and no script is one the hook would rewrite.
    #[test]
    fn agrees_with_the_client() {
        let recorded: Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/opencode/permission.json"
        )))
        .unwrap();
        let mut checked = 0;
        for setup in recorded["setups"].as_array().unwrap() {
            let rules = rules(setup.get("permission").cloned().unwrap_or(json!({})));
            for case in setup["cases"].as_array().unwrap() {
                let command = case["command"].as_str().unwrap();
                if crate::command::lex::simple_command(command).is_err()
                    || case["outcome"] == "asked: external_directory"
                {
                    let wrapped = format!("ctxoff -- {command}");
                    assert!(
                        verdict(&rules, command, &wrapped) != Verdict::MayRewrite,
                        "{command}"
                    );
                    continue;
                }
                let decided = match action(&rules, command) {
                    _ if hidden(&rules, "bash") => "unavailable",
                    Action::Allow => "ran",
                    Action::Deny => "denied",
                    Action::Ask => "asked",
                };
                assert_eq!(decided, case["outcome"], "{}: {command}", setup["name"]);
                checked += 1;
            }
        }
        assert!(checked > 15, "{checked}");
    }

    #[test]
    fn only_commands_left_to_a_star_allow_are_rewritten() {
        let wrap = |c: &str| format!("CTXOFF_SESSION=s /usr/local/bin/ctxoff -- {c}");
        let verdict_for =
            |permission: Value, command: &str| verdict(&rules(permission), command, &wrap(command));
        assert_eq!(verdict_for(json!({}), "cargo test"), Verdict::MayRewrite);
        assert_eq!(
            verdict_for(json!({"bash": {"*": "allow"}}), "cargo test"),
            Verdict::MayRewrite
        );
        assert_eq!(
            verdict_for(json!({"bash": {"cargo *": "allow"}}), "cargo test"),
            Verdict::Rule {
                action: Action::Allow,
                pattern: "cargo *".into()
            }
        );
        assert_eq!(
            verdict_for(json!({"bash": {"*": "ask"}}), "cargo test"),
            Verdict::Rule {
                action: Action::Ask,
                pattern: "*".into()
            }
        );
        // A pattern that would catch the rewrite.
        assert_eq!(
            verdict_for(json!({"bash": {"*ctxoff*": "deny"}}), "cargo test"),
            Verdict::Rule {
                action: Action::Deny,
                pattern: "*ctxoff*".into()
            }
        );
        for command in [
            "cargo test && ls",
            "cat Cargo.toml",
            "rm -r target",
            "echo $(date)",
        ] {
            assert!(
                matches!(verdict_for(json!({}), command), Verdict::Unsure(_)),
                "{command}"
            );
        }
    }
}
