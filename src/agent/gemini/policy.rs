//! Gemini CLI's Policy Engine rules, as far as they concern its shell tool (`run_shell_command`):
//! the `[[rule]]` tables of policy TOML files and the `tools.*` lists of `settings.json`, and how
//! the client matches a tool call against them.
//!
//! ```toml
//! [[rule]]
//! toolName = "run_shell_command"
//! commandPrefix = ["git push", "git reset"]   # or argsPattern = "…", or commandRegex = "…"
//! decision = "deny"                           # allow | deny | ask_user
//! priority = 100                              # 0–999, within the file's tier
//! modes = ["yolo"]                            # optional: the approval modes it applies in
//! ```
//!
//! Every rule gets a priority `tier + priority / 1000` (default policies 1, extensions 2, the
//! workspace's `.gemini/policies` 3, the user's `~/.gemini/policies` 4, the system's
//! `/etc/gemini-cli/policies` 5; the settings lists sit between 4.1 and 4.9), and the first rule in
//! priority order that matches decides. A rule's condition on the arguments is a regular
//! expression tested on the call's arguments as sorted JSON, each top-level pair wrapped in NUL
//! characters (`{\0"command":"git push"\0,\0"description":"…"\0}`); `commandPrefix = "git push"`
//! becomes `"command":"git push` followed by a blank, a quote or an escaped quote.

use regex::Regex;
use serde_json::Value;

/// The shell tool's name in calls and rules.
pub const SHELL_TOOL: &str = "run_shell_command";

/// What a rule decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Allow,
    Deny,
    AskUser,
}

impl Decision {
    pub fn name(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Deny => "deny",
            Decision::AskUser => "ask_user",
        }
    }

    fn parse(name: &str) -> Option<Decision> {
        match name {
            "allow" => Some(Decision::Allow),
            "deny" => Some(Decision::Deny),
            "ask_user" => Some(Decision::AskUser),
            _ => None,
        }
    }
}

/// Approval modes (`--approval-mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Default,
    AutoEdit,
    Yolo,
    Plan,
}

impl Mode {
    /// The name used on the command line.
    pub fn parse(name: &str) -> Option<Mode> {
        match name {
            "default" => Some(Mode::Default),
            "auto_edit" => Some(Mode::AutoEdit),
            "yolo" => Some(Mode::Yolo),
            "plan" => Some(Mode::Plan),
            _ => None,
        }
    }

    /// The name used in rules' `modes`.
    fn rule_name(self) -> &'static str {
        match self {
            Mode::Default => "default",
            Mode::AutoEdit => "autoEdit",
            Mode::Yolo => "yolo",
            Mode::Plan => "plan",
        }
    }
}

/// Where a policy file was found, which fixes its rules' priority band.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    Default = 1,
    Extension = 2,
    Workspace = 3,
    User = 4,
    Admin = 5,
}

/// One rule that can apply to the shell tool.
#[derive(Debug, Clone)]
pub struct Rule {
    pub decision: Decision,
    pub priority: f64,
    /// The condition on the call's arguments, if any.
    pub args: Option<Regex>,
    pub modes: Option<Vec<String>>,
    pub interactive: Option<bool>,
    /// Where it came from (a file name or a settings list), for messages.
    pub source: String,
}

/// Why a policy file or setting is outside what this reader can mirror.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyError(pub String);

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PolicyError {}

impl Rule {
    /// Whether the rule applies to a shell call with `args` (as given by [`stable_stringify`]),
    /// in `mode`, in an interactive session or not. Rules for subagents or MCP servers are never
    /// kept, so they need no check here.
    pub fn matches(&self, args: &str, mode: Mode, interactive: bool) -> bool {
        self.modes
            .as_ref()
            .is_none_or(|modes| modes.is_empty() || modes.iter().any(|m| m == mode.rule_name()))
            && self.interactive.is_none_or(|i| i == interactive)
            && self.args.as_ref().is_none_or(|re| re.is_match(args))
    }
}

/// The rules of a policy file that can apply to the shell tool. A file the client would reject
/// as a whole is an error here too; so is a regular expression this reader cannot run the way
/// the client does.
pub fn parse_policy_file(text: &str, tier: Tier, source: &str) -> Result<Vec<Rule>, PolicyError> {
    let doc: toml::Table = text
        .parse()
        .map_err(|e| PolicyError(format!("{source}: not TOML: {e}")))?;
    let Some(rules) = doc.get("rule") else {
        return Ok(Vec::new());
    };
    let rules = rules
        .as_array()
        .ok_or_else(|| PolicyError(format!("{source}: `rule` is not an array of tables")))?;
    let mut out = Vec::new();
    for (index, rule) in rules.iter().enumerate() {
        let error = |what: &str| PolicyError(format!("{source}: rule {}: {what}", index + 1));
        let rule = rule.as_table().ok_or_else(|| error("not a table"))?;
        let text = |key: &str| -> Result<Option<&str>, PolicyError> {
            rule.get(key)
                .map(|v| {
                    v.as_str()
                        .ok_or_else(|| error(&format!("`{key}` is not a string")))
                })
                .transpose()
        };
        let list = |key: &str| -> Result<Option<Vec<String>>, PolicyError> {
            match rule.get(key) {
                None => Ok(None),
                Some(toml::Value::String(s)) => Ok(Some(vec![s.clone()])),
                Some(toml::Value::Array(items)) => items
                    .iter()
                    .map(|i| i.as_str().map(str::to_owned))
                    .collect::<Option<Vec<_>>>()
                    .map(Some)
                    .ok_or_else(|| error(&format!("`{key}` holds a non-string"))),
                Some(_) => Err(error(&format!("`{key}` is not a string or a list"))),
            }
        };
        let tool_names = list("toolName")?.ok_or_else(|| error("no toolName"))?;
        let decision = text("decision")?
            .and_then(Decision::parse)
            .ok_or_else(|| error("no valid decision"))?;
        let priority = rule
            .get("priority")
            .and_then(toml::Value::as_integer)
            .filter(|p| (0..=999).contains(p))
            .ok_or_else(|| error("priority must be an integer from 0 to 999"))?;
        let interactive = match rule.get("interactive") {
            None => None,
            Some(v) => Some(
                v.as_bool()
                    .ok_or_else(|| error("`interactive` is not a boolean"))?,
            ),
        };
        // Rules for subagents and MCP servers never decide the main agent's shell calls.
        if rule.contains_key("subagent")
            || rule.contains_key("mcpName")
            || rule.contains_key("toolAnnotations")
            || !tool_names.iter().any(|t| t == "*" || t == SHELL_TOOL)
        {
            continue;
        }
        let patterns = args_patterns(
            text("argsPattern")?,
            list("commandPrefix")?,
            text("commandRegex")?,
        );
        for pattern in patterns {
            let args = match pattern {
                None => None,
                Some(pattern) => {
                    if !is_safe_regex(&pattern) {
                        // The client drops such a rule (and says so).
                        continue;
                    }
                    Some(Regex::new(&pattern).map_err(|e| {
                        error(&format!(
                            "cannot mirror the regular expression {pattern:?}: {e}"
                        ))
                    })?)
                }
            };
            out.push(Rule {
                decision,
                priority: tier as u8 as f64 + priority as f64 / 1000.0,
                args,
                modes: list("modes")?,
                interactive,
                source: source.to_owned(),
            });
        }
    }
    Ok(out)
}

/// The argument conditions a rule's `argsPattern`, `commandPrefix` or `commandRegex` stands for
/// (one rule per prefix); `[None]` when it has none.
fn args_patterns(
    args_pattern: Option<&str>,
    prefixes: Option<Vec<String>>,
    command_regex: Option<&str>,
) -> Vec<Option<String>> {
    if let Some(prefixes) = prefixes.filter(|p| !p.is_empty()) {
        return prefixes.iter().map(|p| Some(prefix_pattern(p))).collect();
    }
    if let Some(re) = command_regex {
        return vec![Some(format!("\"command\":\"{re}"))];
    }
    vec![args_pattern.map(str::to_owned)]
}

/// `"command":"PREFIX` (JSON-encoded) followed by a blank, `"` or `\"`.
fn prefix_pattern(prefix: &str) -> String {
    let encoded = serde_json::to_string(prefix).expect("a string serialises");
    let open = &encoded[..encoded.len() - 1];
    format!(
        "{}(?:[\\s\"]|\\\\\")",
        regex::escape(&format!("\"command\":{open}"))
    )
}

/// The client's guard against catastrophic patterns: it drops rules whose pattern is over 2,048
/// characters or has a quantified group containing a quantifier.
fn is_safe_regex(pattern: &str) -> bool {
    static NESTED: std::sync::OnceLock<Regex> = std::sync::OnceLock::new();
    let nested = NESTED.get_or_init(|| Regex::new(r"\([^)]*[*+?{].*\)[*+?{]").expect("valid"));
    pattern.len() <= 2048 && !nested.is_match(pattern)
}

/// The rules `settings.json`'s `tools` lists (or the matching command-line flags) add for the
/// shell tool: `exclude` (deny, 4.4, by tool name only), `confirmationRequired` (ask, 4.35),
/// `allowed` (allow, 4.3,
/// and for `run_shell_command(PREFIX)` entries a deny of every other command at 4.29), `core`
/// (allow at 4.25 and deny of everything else at 4.24, outside plan mode).
pub fn settings_rules(tools: &Value) -> Result<Vec<Rule>, PolicyError> {
    let list = |key: &str| -> Result<Vec<String>, PolicyError> {
        match tools.get(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| i.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| PolicyError(format!("tools.{key} holds a non-string"))),
            Some(_) => Err(PolicyError(format!("tools.{key} is not a list"))),
        }
    };
    let rule =
        |decision, priority: f64, args: Option<String>, modes: Option<&[&str]>, source: &str| {
            Ok::<_, PolicyError>(Rule {
                decision,
                priority,
                args: args
                    .map(|p| Regex::new(&p).map_err(|e| PolicyError(format!("{source}: {e}"))))
                    .transpose()?,
                modes: modes.map(|m| m.iter().map(|s| s.to_string()).collect()),
                interactive: None,
                source: source.to_owned(),
            })
        };
    let not_plan: &[&str] = &["default", "autoEdit", "yolo"];
    let mut out = Vec::new();
    for tool in list("exclude")? {
        // Only a tool's name excludes it: `run_shell_command(rm)` names no tool, and the client
        // runs `rm` as if it were not there.
        if tool == "*" || shell_entry(&tool) == Some(None) {
            out.push(rule(Decision::Deny, 4.4, None, None, "tools.exclude")?);
        }
    }
    for tool in list("confirmationRequired")? {
        if tool == "*" || shell_entry(&tool) == Some(None) {
            out.push(rule(
                Decision::AskUser,
                4.35,
                None,
                None,
                "tools.confirmationRequired",
            )?);
        }
    }
    let mut narrowed = false;
    for tool in list("allowed")? {
        match shell_entry(&tool) {
            Some(None) => out.push(rule(Decision::Allow, 4.3, None, None, "tools.allowed")?),
            Some(Some(prefix)) => {
                narrowed = true;
                out.push(rule(
                    Decision::Allow,
                    4.3,
                    Some(prefix_pattern(prefix)),
                    None,
                    "tools.allowed",
                )?);
            }
            None if tool == "*" => {
                out.push(rule(Decision::Allow, 4.3, None, None, "tools.allowed")?)
            }
            None => {}
        }
    }
    if narrowed {
        out.push(rule(Decision::Deny, 4.29, None, None, "tools.allowed")?);
    }
    let core = list("core")?;
    for tool in &core {
        match shell_entry(tool) {
            Some(None) => out.push(rule(
                Decision::Allow,
                4.25,
                None,
                Some(not_plan),
                "tools.core",
            )?),
            Some(Some(prefix)) => out.push(rule(
                Decision::Allow,
                4.25,
                Some(prefix_pattern(prefix)),
                Some(not_plan),
                "tools.core",
            )?),
            None => {}
        }
    }
    if !core.is_empty() {
        out.push(rule(
            Decision::Deny,
            4.24,
            None,
            Some(not_plan),
            "tools.core",
        )?);
    }
    Ok(out)
}

/// For a settings entry naming the shell tool: `Some(None)` for the tool itself, `Some(Some(p))`
/// for `run_shell_command(p)`; `None` for any other tool.
fn shell_entry(entry: &str) -> Option<Option<&str>> {
    let (name, args) = match entry.split_once('(') {
        Some((name, rest)) => (name, Some(rest.strip_suffix(')')?)),
        None => (entry, None),
    };
    matches!(name, "run_shell_command" | "ShellTool").then_some(args.filter(|a| !a.is_empty()))
}

/// The client's stable JSON of a call's arguments: keys sorted, each top-level pair between NUL
/// characters, nested values as sorted JSON.
pub fn stable_stringify(args: &serde_json::Map<String, Value>) -> String {
    let mut keys: Vec<&String> = args.keys().collect();
    keys.sort();
    let pairs: Vec<String> = keys
        .into_iter()
        .map(|key| {
            format!(
                "\0{}:{}\0",
                Value::from(key.as_str()),
                sorted_json(&args[key])
            )
        })
        .collect();
    format!("{{{}}}", pairs.join(","))
}

fn sorted_json(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            let pairs: Vec<String> = keys
                .into_iter()
                .map(|k| format!("{}:{}", Value::from(k.as_str()), sorted_json(&map[k])))
                .collect();
            format!("{{{}}}", pairs.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(sorted_json).collect();
            format!("[{}]", items.join(","))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(command: &str) -> String {
        stable_stringify(
            json!({"description": "Run it", "command": command})
                .as_object()
                .unwrap(),
        )
    }

    #[test]
    fn stable_json_sorts_and_marks_top_level_pairs() {
        assert_eq!(
            stable_stringify(
                json!({"z": 1, "a": {"y": [true, null], "b": "q\""}})
                    .as_object()
                    .unwrap()
            ),
            "{\0\"a\":{\"b\":\"q\\\"\",\"y\":[true,null]}\0,\0\"z\":1\0}"
        );
    }

    #[test]
    fn command_prefixes_match_whole_words_at_the_start() {
        let rules = parse_policy_file(
            "[[rule]]\ntoolName = \"run_shell_command\"\ncommandPrefix = [\"git push\", \"rm\"]\n\
             decision = \"deny\"\npriority = 100\n",
            Tier::User,
            "test.toml",
        )
        .unwrap();
        assert_eq!(rules.len(), 2);
        assert!((rules[0].priority - 4.1).abs() < 1e-9);
        let matches = |command: &str| {
            rules
                .iter()
                .any(|r| r.matches(&args(command), Mode::Yolo, false))
        };
        for yes in ["git push", "git push origin main", "rm -rf x", "rm"] {
            assert!(matches(yes), "{yes}");
        }
        for no in [
            "git pushx",
            "git status",
            "rmdir x",
            "sudo rm x",
            " git push",
            "echo git push",
        ] {
            assert!(!matches(no), "{no}");
        }
    }

    #[test]
    fn modes_and_interactivity_narrow_a_rule() {
        let rules = parse_policy_file(
            "[[rule]]\ntoolName = \"*\"\ndecision = \"allow\"\npriority = 998\nmodes = [\"yolo\"]\n\
             [[rule]]\ntoolName = \"run_shell_command\"\ndecision = \"ask_user\"\npriority = 10\ninteractive = true\n\
             [[rule]]\ntoolName = \"read_file\"\ndecision = \"allow\"\npriority = 50\n",
            Tier::Default,
            "defaults.toml",
        )
        .unwrap();
        assert_eq!(
            rules.len(),
            2,
            "the read_file rule does not concern the shell"
        );
        let a = args("ls");
        assert!(rules[0].matches(&a, Mode::Yolo, false));
        assert!(!rules[0].matches(&a, Mode::Default, true));
        assert!(rules[1].matches(&a, Mode::Default, true));
        assert!(!rules[1].matches(&a, Mode::Default, false));
    }

    #[test]
    fn refuses_what_it_cannot_mirror() {
        for text in [
            "[[rule]]\ntoolName = \"*\"\ndecision = \"maybe\"\npriority = 1",
            "[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 1000",
            "[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"",
            "[[rule]]\ndecision = \"deny\"\npriority = 1",
            "[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 1\nargsPattern = \"(?<=x)y\"",
            "rule = 3",
            "not toml [",
        ] {
            assert!(
                parse_policy_file(text, Tier::User, "t.toml").is_err(),
                "{text}"
            );
        }
        // A pattern the client itself drops as unsafe is dropped here too.
        let dropped = "[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 1\nargsPattern = \"(a+)+\"";
        assert!(
            parse_policy_file(dropped, Tier::User, "t.toml")
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn settings_lists() {
        let rules = settings_rules(&json!({
            "allowed": ["run_shell_command(git status)", "read_file"],
            "exclude": ["run_shell_command(rm)", "write_file"],
        }))
        .unwrap();
        let first = |command: &str| {
            let mut sorted = rules.clone();
            sorted.sort_by(|a, b| b.priority.total_cmp(&a.priority));
            sorted
                .into_iter()
                .find(|r| r.matches(&args(command), Mode::Yolo, false))
                .map(|r| (r.decision, r.source))
        };
        assert_eq!(
            first("git status -s"),
            Some((Decision::Allow, "tools.allowed".into()))
        );
        // Narrowed: any other command is denied (excluding `rm` by name excludes nothing).
        assert_eq!(first("ls"), Some((Decision::Deny, "tools.allowed".into())));
        assert_eq!(first("rm -rf x"), first("ls"));
        let excluded = settings_rules(&json!({"exclude": ["run_shell_command"]})).unwrap();
        assert_eq!(excluded.len(), 1);
        assert!(excluded[0].args.is_none() && excluded[0].decision == Decision::Deny);
        assert!(settings_rules(&json!({"allowed": "x"})).is_err());
        assert!(settings_rules(&json!({})).unwrap().is_empty());
    }
}
