//! Codex CLI's execpolicy rules (`rules/*.rules` files): the Starlark subset they are written in,
//! and how the client matches an argv against them, as `codex execpolicy check
//! --resolve-host-executables --rules FILE -- ARGV` answers (the resolution the client itself uses
//! when it runs a command).
//!
//! A rules file is a list of calls:
//!
//! ```text
//! prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "forbidden", justification = "…")
//! host_executable(name = "git", paths = ["/usr/bin/git", "~/bin/git"])
//! ```
//!
//! `pattern` is an argv prefix; a list inside it is a choice of tokens. `decision` is `allow`
//! (the default), `prompt` or `forbidden`; where several rules match, the strictest wins. Only the
//! first token selects rules, exactly; an absolute program (`/usr/bin/git`) that no rule names
//! falls back to the rules of its base name (`git`), unless `host_executable` lists the paths that
//! name may resolve from and this one is not among them.
//!
//! Anything outside the subset (assignments, `load`, expressions, unknown calls or arguments)
//! is an error: the caller cannot know what the client makes of the file, so it must not act as
//! if it did.

use std::fmt;
use std::path::Path;

/// What a rule decides, in increasing strictness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Decision {
    Allow,
    Prompt,
    Forbidden,
}

impl Decision {
    /// The name the rules files and `codex execpolicy check` use.
    pub fn name(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Prompt => "prompt",
            Decision::Forbidden => "forbidden",
        }
    }

    fn parse(name: &str) -> Option<Decision> {
        match name {
            "allow" => Some(Decision::Allow),
            "prompt" => Some(Decision::Prompt),
            "forbidden" => Some(Decision::Forbidden),
            _ => None,
        }
    }
}

/// One `prefix_rule`: each pattern token is the set of words it accepts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrefixRule {
    pub pattern: Vec<Vec<String>>,
    pub decision: Decision,
    pub justification: Option<String>,
}

/// A rule that matched an argv.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleMatch {
    /// The words of the argv the pattern covered.
    pub matched_prefix: Vec<String>,
    pub decision: Decision,
    /// The absolute program, when the match came through its base name.
    pub resolved_program: Option<String>,
    pub justification: Option<String>,
}

/// The rules of one or more files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Policy {
    rules: Vec<PrefixRule>,
    /// `host_executable` declarations: a base name and the absolute paths it may resolve from.
    hosts: Vec<(String, Vec<String>)>,
}

/// Why a rules file is outside the subset ctxoff understands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the offending text.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

impl Policy {
    /// Parses one rules file. `home` expands `~/` in `host_executable` paths.
    pub fn parse(text: &str, home: Option<&Path>) -> Result<Policy, ParseError> {
        let mut policy = Policy::default();
        let mut parser = Parser::new(text);
        while let Some(call) = parser.call()? {
            policy.add_call(call, home)?;
        }
        Ok(policy)
    }

    /// Adds the rules of another file, as the client merges the files it loads.
    pub fn extend(&mut self, other: Policy) {
        self.rules.extend(other.rules);
        self.hosts.extend(other.hosts);
    }

    pub fn rules(&self) -> &[PrefixRule] {
        &self.rules
    }

    /// Every rule matching `argv`, in file order (empty when none does). A program given as a
    /// path (`/usr/bin/git`, `./git`, resolved against `cwd`) that no rule names exactly is
    /// matched by the rules of its base name.
    pub fn check(&self, argv: &[String], cwd: &Path) -> Vec<RuleMatch> {
        let Some(program) = argv.first() else {
            return Vec::new();
        };
        let exact = self.matches(program, argv, None);
        if !exact.is_empty() || !program.contains('/') {
            return exact;
        }
        let resolved = absolute(cwd, program);
        let base = match resolved.rsplit_once('/') {
            Some((_, base)) if !base.is_empty() => base,
            _ => return Vec::new(),
        };
        if !self.host_allows(base, &resolved) {
            return Vec::new();
        }
        self.matches(base, argv, Some(&resolved))
    }

    /// The strictest decision of the rules matching `argv`, or `None` when no rule does.
    pub fn decision(&self, argv: &[String], cwd: &Path) -> Option<Decision> {
        self.check(argv, cwd).iter().map(|m| m.decision).max()
    }

    /// Whether some rule's program could be the shell the client runs a script with: such a
    /// rule sees every command the client cannot split into plain words.
    pub fn has_shell_rules(&self) -> bool {
        self.rules.iter().any(|rule| {
            rule.pattern[0].iter().any(|program| {
                let base = program.rsplit('/').next().unwrap_or(program);
                super::script::SHELLS.contains(&base)
            })
        })
    }

    fn matches(&self, program: &str, argv: &[String], resolved: Option<&str>) -> Vec<RuleMatch> {
        self.rules
            .iter()
            .filter(|rule| rule.pattern[0].iter().any(|p| p == program))
            .filter(|rule| {
                argv.len() >= rule.pattern.len()
                    && rule.pattern[1..]
                        .iter()
                        .zip(&argv[1..])
                        .all(|(choices, word)| choices.contains(word))
            })
            .map(|rule| {
                let mut matched_prefix = argv[..rule.pattern.len()].to_vec();
                matched_prefix[0] = program.to_owned();
                RuleMatch {
                    matched_prefix,
                    decision: rule.decision,
                    resolved_program: resolved.map(str::to_owned),
                    justification: rule.justification.clone(),
                }
            })
            .collect()
    }

    /// Whether `path` may resolve through the rules of `base`: always, unless `host_executable`
    /// declared the paths of `base` and `path` is not one of them.
    fn host_allows(&self, base: &str, path: &str) -> bool {
        let mut declared = self
            .hosts
            .iter()
            .filter(|(name, _)| name == base)
            .peekable();
        declared.peek().is_none() || declared.any(|(_, paths)| paths.iter().any(|p| p == path))
    }

    fn add_call(&mut self, call: Call, home: Option<&Path>) -> Result<(), ParseError> {
        let line = call.line;
        let error = |message: String| ParseError { line, message };
        match call.name.as_str() {
            "prefix_rule" => {
                let mut pattern = None;
                let mut decision = Decision::Allow;
                let mut justification = None;
                for (key, value) in call.args {
                    match key.as_deref() {
                        None | Some("pattern") if pattern.is_none() => {
                            pattern = Some(value.pattern().map_err(error)?)
                        }
                        Some("decision") => {
                            let name = value.string().map_err(error)?;
                            decision = Decision::parse(&name)
                                .ok_or_else(|| error(format!("unknown decision {name:?}")))?;
                        }
                        Some("justification") => {
                            justification = Some(value.string().map_err(error)?)
                        }
                        // Examples the client checks when it loads the file; they decide nothing.
                        Some("match" | "not_match") => {}
                        Some("reviewer") => {
                            value.string().map_err(error)?;
                        }
                        other => {
                            return Err(error(format!(
                                "unexpected argument {other:?} to prefix_rule"
                            )));
                        }
                    }
                }
                let pattern =
                    pattern.ok_or_else(|| error("prefix_rule without a pattern".into()))?;
                self.rules.push(PrefixRule {
                    pattern,
                    decision,
                    justification,
                });
            }
            "host_executable" => {
                let (mut name, mut paths) = (None, None);
                for (key, value) in call.args {
                    match key.as_deref() {
                        Some("name") => name = Some(value.string().map_err(error)?),
                        Some("paths") => paths = Some(value.strings().map_err(error)?),
                        other => {
                            return Err(error(format!(
                                "unexpected argument {other:?} to host_executable"
                            )));
                        }
                    }
                }
                let name = name.ok_or_else(|| error("host_executable without a name".into()))?;
                let paths = paths
                    .unwrap_or_default()
                    .into_iter()
                    .map(|path| expand_home(path, home))
                    .collect();
                self.hosts.push((name, paths));
            }
            // Network rules govern the sandbox's proxy, not which commands run.
            "network_rule" => {}
            other => return Err(error(format!("unsupported call {other}()"))),
        }
        Ok(())
    }
}

/// `program` made absolute against `cwd`, with `.` and `..` resolved by name only.
fn absolute(cwd: &Path, program: &str) -> String {
    use std::path::Component;
    let joined = cwd.join(program);
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in joined.components() {
        match component {
            Component::Normal(name) => parts.push(name),
            Component::ParentDir => {
                parts.pop();
            }
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    let mut path = String::new();
    for part in parts {
        path.push('/');
        path.push_str(&part.to_string_lossy());
    }
    path
}

fn expand_home(path: String, home: Option<&Path>) -> String {
    match (path.strip_prefix("~/"), home) {
        (Some(rest), Some(home)) => home.join(rest).to_string_lossy().into_owned(),
        _ => path,
    }
}

/// A value of the subset: a string or a list.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Str(String),
    List(Vec<Value>),
}

impl Value {
    fn string(self) -> Result<String, String> {
        match self {
            Value::Str(s) => Ok(s),
            Value::List(_) => Err("expected a string, found a list".into()),
        }
    }

    fn strings(self) -> Result<Vec<String>, String> {
        match self {
            Value::List(items) => items.into_iter().map(Value::string).collect(),
            Value::Str(_) => Err("expected a list of strings".into()),
        }
    }

    /// A `pattern`: a non-empty list of strings and non-empty lists of strings.
    fn pattern(self) -> Result<Vec<Vec<String>>, String> {
        let Value::List(tokens) = self else {
            return Err("pattern must be a list".into());
        };
        if tokens.is_empty() {
            return Err("pattern cannot be empty".into());
        }
        tokens
            .into_iter()
            .map(|token| match token {
                Value::Str(word) => Ok(vec![word]),
                list => match list.strings()? {
                    words if words.is_empty() => Err("empty choice in pattern".into()),
                    words => Ok(words),
                },
            })
            .collect()
    }
}

/// `name(args…)` at the top level of a file.
struct Call {
    line: usize,
    name: String,
    /// Keyword (or `None` for positional) and value, in order.
    args: Vec<(Option<String>, Value)>,
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { text, pos: 0 }
    }

    fn line(&self) -> usize {
        self.text[..self.pos].matches('\n').count() + 1
    }

    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        Err(ParseError {
            line: self.line(),
            message: message.into(),
        })
    }

    /// Skips blanks, newlines and `#` comments.
    fn skip(&mut self) {
        let rest = &self.text[self.pos..];
        let mut chars = rest.char_indices().peekable();
        let mut in_comment = false;
        while let Some(&(i, c)) = chars.peek() {
            match c {
                '\n' => in_comment = false,
                _ if in_comment => {}
                '#' => in_comment = true,
                ' ' | '\t' | '\r' => {}
                _ => {
                    self.pos += i;
                    return;
                }
            }
            chars.next();
        }
        self.pos = self.text.len();
    }

    fn peek(&mut self) -> Option<char> {
        self.skip();
        self.text[self.pos..].chars().next()
    }

    fn expect(&mut self, want: char) -> Result<(), ParseError> {
        match self.peek() {
            Some(c) if c == want => {
                self.pos += c.len_utf8();
                Ok(())
            }
            Some(c) => self.error(format!("expected `{want}`, found `{c}`")),
            None => self.error(format!("expected `{want}`, found the end of the file")),
        }
    }

    fn identifier(&mut self) -> Option<String> {
        self.skip();
        let rest = &self.text[self.pos..];
        let len = rest
            .char_indices()
            .find(|&(i, c)| !(c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit())))
            .map_or(rest.len(), |(i, _)| i);
        (len > 0).then(|| {
            self.pos += len;
            rest[..len].to_owned()
        })
    }

    /// The next top-level call, or `None` at the end of the file.
    fn call(&mut self) -> Result<Option<Call>, ParseError> {
        if self.peek().is_none() {
            return Ok(None);
        }
        let line = self.line();
        let Some(name) = self.identifier() else {
            return self.error("expected a call such as prefix_rule(…)");
        };
        self.expect('(')?;
        let mut args = Vec::new();
        loop {
            if self.peek() == Some(')') {
                self.pos += 1;
                break;
            }
            let start = self.pos;
            let key = match self.identifier() {
                Some(key) if self.peek() == Some('=') => {
                    self.pos += 1;
                    Some(key)
                }
                Some(word) => return self.error(format!("unsupported expression `{word}`")),
                None => {
                    self.pos = start;
                    None
                }
            };
            args.push((key, self.value()?));
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(')') => {}
                _ => return self.error("expected `,` or `)`"),
            }
        }
        // A statement ends the line (or is followed by `;`).
        self.skip_blanks();
        match self.text[self.pos..].chars().next() {
            None | Some('\n' | '#') => {}
            Some(';') => self.pos += 1,
            Some(c) => return self.error(format!("unexpected `{c}` after {name}(…)")),
        }
        Ok(Some(Call { line, name, args }))
    }

    fn skip_blanks(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start_matches([' ', '\t', '\r']).len();
    }

    fn value(&mut self) -> Result<Value, ParseError> {
        match self.peek() {
            Some('"' | '\'') => Ok(Value::Str(self.string()?)),
            Some('[') => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    if self.peek() == Some(']') {
                        self.pos += 1;
                        return Ok(Value::List(items));
                    }
                    items.push(self.value()?);
                    match self.peek() {
                        Some(',') => self.pos += 1,
                        Some(']') => {}
                        _ => return self.error("expected `,` or `]`"),
                    }
                }
            }
            Some(c) => self.error(format!("unsupported value starting with `{c}`")),
            None => self.error("expected a value, found the end of the file"),
        }
    }

    /// A one-line string in single or double quotes, with the common escapes.
    fn string(&mut self) -> Result<String, ParseError> {
        let quote = self.peek().expect("called at a quote");
        let rest = &self.text[self.pos + 1..];
        if rest.starts_with([quote, quote]) {
            return self.error("triple-quoted strings are not supported");
        }
        let mut out = String::new();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '\n' => break,
                _ if c == quote => {
                    self.pos += 1 + i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next().map(|(_, e)| e) {
                    Some('\\') => out.push('\\'),
                    Some('"') => out.push('"'),
                    Some('\'') => out.push('\''),
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some(e) => return self.error(format!("unsupported escape `\\{e}`")),
                    None => break,
                },
                _ => out.push(c),
            }
        }
        self.error("unterminated string")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &str) -> Vec<String> {
        words.split_whitespace().map(str::to_owned).collect()
    }

    impl Policy {
        fn decision_at(&self, argv: &[String]) -> Option<Decision> {
            self.decision(argv, Path::new("/home/ana/proj"))
        }
    }

    /// `codex execpolicy check`'s answer, built from `check`.
    fn answer(matches: &[RuleMatch]) -> serde_json::Value {
        let rules: Vec<serde_json::Value> = matches
            .iter()
            .map(|m| {
                let mut found = serde_json::json!({
                    "matchedPrefix": m.matched_prefix,
                    "decision": m.decision.name(),
                });
                if let Some(program) = &m.resolved_program {
                    found["resolvedProgram"] = program.as_str().into();
                }
                if let Some(why) = &m.justification {
                    found["justification"] = why.as_str().into();
                }
                serde_json::json!({"prefixRuleMatch": found})
            })
            .collect();
        let mut out = serde_json::json!({"matchedRules": rules});
        if let Some(decision) = matches.iter().map(|m| m.decision).max() {
            out["decision"] = decision.name().into();
        }
        out
    }

    /// Every argv the pinned client checked (`tests/fixtures/codex/execpolicy.json`, recorded
    /// by the end-to-end suite, run from `/`) gets the client's answer, match for match.
    #[test]
    fn agrees_with_the_client() {
        let recorded: serde_json::Value = serde_json::from_str(include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/codex/execpolicy.json"
        )))
        .unwrap();
        let policy = Policy::parse(recorded["rules"].as_str().unwrap(), None).unwrap();
        let checks = recorded["checks"].as_array().unwrap();
        assert!(checks.len() > 20);
        for case in checks {
            let argv: Vec<String> = serde_json::from_value(case["argv"].clone()).unwrap();
            assert_eq!(
                answer(&policy.check(&argv, Path::new("/"))),
                case["answer"],
                "{argv:?}"
            );
        }
    }

    #[test]
    fn parses_the_documented_shapes() {
        let policy = Policy::parse(
            r#"
# a comment
prefix_rule(pattern=["git", ["status", "log"]], decision="allow")
prefix_rule(
    pattern = ["git", "push"],
    decision = "forbidden",
    justification = 'use "gh" instead',  # trailing comment
    match = [["git", "push"], "git push origin"],
    not_match = ["git pull"],
)
prefix_rule(["npm"])
host_executable(name="git", paths=["/usr/bin/git", "~/bin/git"])
network_rule(host="example.com", protocol="https", decision="allow")
"#,
            Some(Path::new("/home/ana")),
        )
        .unwrap();
        assert_eq!(
            policy.rules()[1],
            PrefixRule {
                pattern: vec![vec!["git".into()], vec!["push".into()]],
                decision: Decision::Forbidden,
                justification: Some("use \"gh\" instead".into()),
            }
        );
        assert_eq!(policy.rules()[2].decision, Decision::Allow);
        assert_eq!(
            policy.hosts,
            vec![(
                "git".into(),
                vec!["/usr/bin/git".into(), "/home/ana/bin/git".into()]
            )]
        );
        assert_eq!(
            policy.decision_at(&argv("git log -3")),
            Some(Decision::Allow)
        );
        assert_eq!(
            policy.decision_at(&argv("git push")),
            Some(Decision::Forbidden)
        );
        assert_eq!(policy.decision_at(&argv("git")), None);
        assert_eq!(
            policy.decision_at(&argv("/home/ana/bin/git push x")),
            Some(Decision::Forbidden)
        );
        assert_eq!(policy.decision_at(&argv("/opt/git push x")), None);
    }

    #[test]
    fn the_strictest_match_wins() {
        let policy = Policy::parse(
            "prefix_rule(pattern=['cargo'])\nprefix_rule(pattern=['cargo', 'publish'], decision='prompt')",
            None,
        )
        .unwrap();
        assert_eq!(
            policy.check(&argv("cargo publish"), Path::new("/")).len(),
            2
        );
        assert_eq!(
            policy.decision_at(&argv("cargo publish --dry-run")),
            Some(Decision::Prompt)
        );
        assert_eq!(
            policy.decision_at(&argv("cargo test")),
            Some(Decision::Allow)
        );
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        for text in [
            "x = 1",
            "load('x.star', 'y')",
            "prefix_rule(pattern=[])",
            "prefix_rule(decision='allow')",
            "prefix_rule(pattern=['a'], decision='deny')",
            "prefix_rule(pattern=['a'], colour='red')",
            "prefix_rule(pattern=['a'] + ['b'])",
            "prefix_rule(pattern=['a'], justification=\"\"\"x\"\"\")",
            "prefix_rule(pattern=['a\\u0041'])",
            "prefix_rule(pattern=['a']",
            "prefix_rule(pattern=['a']) prefix_rule(pattern=['b'])",
            "def f():\n  pass",
            "prefix_rule(pattern=[[]])",
            "prefix_rule(pattern=['a'], decision=ALLOW)",
        ] {
            assert!(Policy::parse(text, None).is_err(), "{text}");
        }
        let error =
            Policy::parse("\n\nprefix_rule(pattern=['a'], decision='x')", None).unwrap_err();
        assert_eq!(error.line, 3, "{error}");
    }
}
