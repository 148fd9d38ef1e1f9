//! Whether Claude Code would run a Bash command without asking, decided the way the pinned client
//! decides it ([`CLIENT_VERSION`]), on the *original* command: the hook may rewrite a command only
//! where that answer is yes, because the client re-checks its rules on the rewritten string, where
//! they no longer match.
//!
//! The order is the client's: deny and ask rules first (they stop a command in every mode), then
//! the mode (`bypassPermissions` runs the rest), then allow rules (in `default`, `acceptEdits` and
//! `dontAsk`; the client honours them in `plan` too, but a user who is planning gets no rewrite).
//! A command the client runs only because it considers it read-only (`seq`, `cat`, `git log`) is
//! no rule's doing: the answer is "leave it", and the client runs it as if ctxoff were not
//! installed.
//!
//! Where the client is hard to mirror, the answer errs one way only: deny and ask rules are
//! matched on more forms of a command than the client tries, allow rules on no more, and anything
//! but a plain command (one program, its arguments, harmless redirections) is left alone.
//! Strings to search for in the JavaScript bundled in the client's executable are named where
//! its code is mirrored.

use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::bash::{self, Line, Part};

/// The Claude Code version whose behaviour this module mirrors; its decisions are recorded in
/// `tests/fixtures/claude-code/decisions.json`.
pub(crate) const CLIENT_VERSION: &str = "2.1.197";

/// What a rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Behavior {
    Allow,
    Deny,
    Ask,
}

/// Where a rule comes from: the client's settings scopes and its command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// `/etc/claude-code/managed-settings.json` and `managed-settings.d/*.json`.
    Managed,
    /// `$CLAUDE_CONFIG_DIR/settings.json` (`~/.claude/settings.json`).
    User,
    /// The project's `.claude/settings.json`.
    Project,
    /// The project's `.claude/settings.local.json`.
    Local,
    /// `--settings FILE-OR-JSON`.
    Flag,
    /// `--allowedTools` / `--disallowedTools`.
    CommandLine,
    /// `--tools` without Bash: the tool is not offered at all.
    Tools,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Source::Managed => "managed settings",
            Source::User => "user settings",
            Source::Project => "project settings (.claude/settings.json)",
            Source::Local => "local project settings (.claude/settings.local.json)",
            Source::Flag => "--settings",
            Source::CommandLine => "the client's --allowedTools/--disallowedTools",
            Source::Tools => "the client's --tools",
        })
    }
}

/// One permission rule, as written (`Bash(cargo test:*)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) behavior: Behavior,
    pub(crate) source: Source,
    /// As written in the settings or on the command line.
    pub(crate) text: String,
    tool: String,
    /// The part in parentheses, unescaped; `None` for the whole tool (`Bash`, `Bash(*)`).
    content: Option<String>,
}

impl Rule {
    /// Reads a rule the way the client does (`function Ig(e)`): `Tool(content)` with `\(`,
    /// `\)` and `\\` escaped; an empty content or `*` means the whole tool.
    pub(crate) fn new(behavior: Behavior, source: Source, text: &str) -> Rule {
        let (tool, content) = match (unescaped(text, '(', true), unescaped(text, ')', false)) {
            (Some(open), Some(close)) if open > 0 && close > open && close == text.len() - 1 => {
                let inner = &text[open + 1..close];
                let content = (!inner.is_empty() && inner != "*").then(|| {
                    inner
                        .replace("\\(", "(")
                        .replace("\\)", ")")
                        .replace("\\\\", "\\")
                });
                (text[..open].to_owned(), content)
            }
            _ => (text.to_owned(), None),
        };
        Rule {
            behavior,
            source,
            text: text.to_owned(),
            tool,
            content,
        }
    }

    /// A rule for the whole Bash tool: by name, or for deny and ask by a `*` pattern
    /// (`globMatching: !0`).
    fn is_whole_bash(&self) -> bool {
        self.content.is_none()
            && (self.tool == "Bash"
                || (self.behavior != Behavior::Allow
                    && self.tool.contains('*')
                    && glob_matches(&self.tool, "Bash")))
    }

    fn bash_content(&self) -> Option<&str> {
        (self.tool == "Bash").then_some(self.content.as_deref()?)
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = match self.behavior {
            Behavior::Allow => "allow",
            Behavior::Deny => "deny",
            Behavior::Ask => "ask",
        };
        write!(f, "{verb} rule {} from {}", self.text, self.source)
    }
}

/// The first `c` not escaped by a backslash, from the start or the end.
fn unescaped(text: &str, c: char, first: bool) -> Option<usize> {
    let mut hits = text.match_indices(c).map(|(i, _)| i);
    match first {
        true => hits.find(|&i| !is_escaped(text, i)),
        false => hits.rev().find(|&i| !is_escaped(text, i)),
    }
}

/// Whether the character at byte `i` follows an odd number of backslashes.
fn is_escaped(text: &str, i: usize) -> bool {
    let backslashes = text.as_bytes()[..i]
        .iter()
        .rev()
        .take_while(|b| **b == b'\\')
        .count();
    backslashes % 2 == 1
}

/// Every rule the client holds, from every scope it reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rules {
    rules: Vec<Rule>,
}

impl Rules {
    pub(crate) fn push(&mut self, rule: Rule) {
        self.rules.push(rule);
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter()
    }

    /// Rules that stop a command: deny first, then ask, as the client checks them.
    fn stoppers(&self) -> impl Iterator<Item = &Rule> {
        let of = |b| self.rules.iter().filter(move |r| r.behavior == b);
        of(Behavior::Deny).chain(of(Behavior::Ask))
    }

    fn allows(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(|r| r.behavior == Behavior::Allow)
    }
}

/// What the call looks like to the client, besides its command.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Situation<'a> {
    /// The event's `permission_mode`.
    pub(crate) mode: &'a str,
    /// The event's `tool_input`: rules may name its other fields (`Bash(description:*)`).
    pub(crate) input: &'a Map<String, Value>,
    /// Where the command runs (the event's `cwd`).
    pub(crate) cwd: &'a Path,
    /// The directories the client lets commands read without asking: the project,
    /// `permissions.additionalDirectories`, `--add-dir`.
    pub(crate) working_dirs: &'a [PathBuf],
}

/// Why the client would run a command without asking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Grant<'r> {
    /// `bypassPermissions` mode.
    Bypass,
    /// This allow rule matches the command.
    Rule(&'r Rule),
}

/// The answer for one command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision<'r> {
    /// A deny or ask rule matches the command: the client stops it (or asks), in every mode.
    /// Never rewrite.
    Stopped(&'r Rule),
    /// `plan` mode: the user is planning, not running; whatever the client runs, it runs as
    /// written. Never rewrite.
    Plan,
    /// The client would run the command without asking: the hook may rewrite it, approving the
    /// rewrite for this reason.
    Runs(Grant<'r>),
    /// Anything else (no rule allows it, or ctxoff cannot be sure the client would): leave the
    /// command to the client.
    Leave(Leave),
}

impl fmt::Display for Grant<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Grant::Bypass => f.write_str("bypassPermissions mode"),
            Grant::Rule(rule) => rule.fmt(f),
        }
    }
}

impl fmt::Display for Decision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decision::Stopped(rule) if rule.behavior == Behavior::Ask => {
                write!(f, "the {rule} makes the client ask")
            }
            Decision::Stopped(rule) => write!(f, "the {rule} stops it"),
            Decision::Plan => f.write_str("plan mode: the user is planning, not running"),
            Decision::Runs(grant) => write!(f, "the client runs it without asking: {grant}"),
            Decision::Leave(why) => write!(f, "left to the client: {why}"),
        }
    }
}

/// Why a command is left to the client.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Leave {
    /// No allow rule matches it (the client may still run it as read-only, or ask).
    NoRule,
    /// More than one command, or something that runs another (`&&`, `|`, `$(…)`…).
    NotSimple,
    /// A redirection the client checks as a file write.
    Redirection,
    /// A file or directory argument the client checks against the working directories.
    Paths,
    /// A program that changes files, which the client checks by mode and path.
    ChangesFiles,
    /// `rm` or `rmdir`, which the client checks even in `bypassPermissions` mode.
    Removal,
    /// The call asks to run outside the sandbox, which the client confirms.
    Unsandboxed,
    /// A mode this decision does not cover (`auto`: a classifier decides; or unknown).
    Mode,
}

impl fmt::Display for Leave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Leave::NoRule => "no allow rule matches the command",
            Leave::NotSimple => "not a single plain command",
            Leave::Redirection => "a redirection the client checks as a file write",
            Leave::Paths => "file arguments the client checks against the working directories",
            Leave::ChangesFiles => "a program that changes files, checked by mode and path",
            Leave::Removal => "rm and rmdir are checked even in bypassPermissions mode",
            Leave::Unsandboxed => "the call asks to run outside the sandbox",
            Leave::Mode => "a permission mode in which another check decides",
        })
    }
}

/// Programs whose file arguments the client checks against the working directories before
/// honouring an allow rule (`hBa = Object.keys(nmt)`).
const PATH_CHECKED: &[&str] = &[
    "cd",
    "ls",
    "find",
    "mkdir",
    "touch",
    "rm",
    "rmdir",
    "mv",
    "cp",
    "cat",
    "head",
    "tail",
    "sort",
    "uniq",
    "wc",
    "cut",
    "paste",
    "column",
    "file",
    "stat",
    "diff",
    "awk",
    "strings",
    "hexdump",
    "od",
    "base64",
    "nl",
    "sha256sum",
    "sha1sum",
    "md5sum",
    "tr",
    "grep",
    "rg",
    "sed",
    "jq",
    "git",
];

/// Programs that change files: the client allows them by mode (`acceptEdits`) and path, which
/// this decision does not mirror (`Nxf = ["mkdir", "touch"`).
const CHANGES_FILES: &[&str] = &["mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"];

/// Decides for `command` in `situation`, with every rule the client holds.
pub(crate) fn decide<'r>(command: &str, situation: &Situation, rules: &'r Rules) -> Decision<'r> {
    let line = bash::parse(command);
    if let Some(rule) = stopping_rule(command, &line, situation.input, rules) {
        return Decision::Stopped(rule);
    }
    match situation.mode {
        "plan" => return Decision::Plan,
        "bypassPermissions" => {
            let removes = line
                .parts
                .iter()
                .flat_map(|p| &p.words)
                .any(|w| matches!(base_name(w), "rm" | "rmdir"));
            return match removes {
                true => Decision::Leave(Leave::Removal),
                false => Decision::Runs(Grant::Bypass),
            };
        }
        "default" | "acceptEdits" | "dontAsk" => {}
        _ => return Decision::Leave(Leave::Mode),
    }
    if !line.simple {
        return Decision::Leave(Leave::NotSimple);
    }
    let part = &line.parts[0];
    if part.redirects.iter().any(|r| !is_harmless_redirect(r)) {
        return Decision::Leave(Leave::Redirection);
    }
    if situation.input.get("dangerouslyDisableSandbox") == Some(&Value::Bool(true)) {
        return Decision::Leave(Leave::Unsandboxed);
    }
    let Some(rule) = allowing_rule(command, part, rules) else {
        return Decision::Leave(Leave::NoRule);
    };
    if let Some(leave) = checked_before_allow(part, situation, rules) {
        return Decision::Leave(leave);
    }
    Decision::Runs(Grant::Rule(rule))
}

/// A deny or ask rule that matches: for the whole tool, for another field of the input
/// (`Bash(description:*)`), or for the command in any of its forms (`deny_forms`), in any of its
/// parts.
fn stopping_rule<'r>(
    command: &str,
    line: &Line,
    input: &Map<String, Value>,
    rules: &'r Rules,
) -> Option<&'r Rule> {
    let mut forms = vec![command.trim().to_owned()];
    for part in &line.parts {
        for form in bash::deny_forms(part) {
            if !forms.contains(&form) {
                forms.push(form);
            }
        }
    }
    rules.stoppers().find(|rule| {
        if rule.is_whole_bash() || rule.source == Source::Tools {
            return true;
        }
        let Some(content) = rule.bash_content() else {
            return false;
        };
        field_matches(content, input)
            || forms
                .iter()
                .any(|form| pattern_matches(content, form, Matching::Any, true))
    })
}

/// A rule `Bash(FIELD:GLOB)` naming another field of the tool input, matched against its value
/// as the client does for deny and ask rules (`if (c === t.ruleContentField) continue`).
fn field_matches(content: &str, input: &Map<String, Value>) -> bool {
    let Some((field, glob)) = content.split_once(':') else {
        return false;
    };
    let (field, glob) = (field.trim(), glob.trim());
    if field.is_empty() || glob.is_empty() || field == "command" {
        return false;
    }
    let value = match input.get(field) {
        Some(Value::String(s)) => s.trim().to_owned(),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => v.to_string(),
        _ => return false,
    };
    glob_matches(glob, &value)
}

/// The first allow rule the client would honour for this plain command: the whole tool, or a
/// rule matching the command as written or in its allow form (`strip_for_allow`).
fn allowing_rule<'r>(command: &str, part: &Part, rules: &'r Rules) -> Option<&'r Rule> {
    let whole = command.trim();
    let mut exact_forms = vec![whole.to_owned(), part.text.clone()];
    let mut prefix_forms = vec![part.text.clone()];
    for forms in [&mut exact_forms, &mut prefix_forms] {
        let stripped: Vec<String> = forms.iter().map(|f| bash::strip_for_allow(f)).collect();
        forms.extend(stripped);
    }
    rules.allows().find(|rule| {
        if rule.is_whole_bash() {
            return true;
        }
        let Some(content) = rule.bash_content() else {
            return false;
        };
        exact_forms
            .iter()
            .any(|f| pattern_matches(content, f, Matching::Exact, false))
            || prefix_forms
                .iter()
                .any(|f| pattern_matches(content, f, Matching::Prefix, false))
    })
}

/// What the client checks after deny and ask rules but before allow rules, and would ask about
/// despite the rule: programs that change files, and file arguments outside the working
/// directories or hidden behind expansions (`n4t`, "was blocked. For security").
fn checked_before_allow(part: &Part, situation: &Situation, rules: &Rules) -> Option<Leave> {
    let stripped = bash::parse(&bash::strip_for_allow(&part.text));
    let words = &stripped.parts.first()?.words;
    let (program, args) = words.split_first()?;
    let name = match base_name(program) {
        name @ ("rm" | "rmdir") => name,
        _ => program.as_str(),
    };
    if CHANGES_FILES.contains(&name) {
        return Some(Leave::ChangesFiles);
    }
    if !PATH_CHECKED.contains(&name) {
        return None;
    }
    if name == "git"
        && !(args.first().is_some_and(|a| a == "diff") && args.contains(&"--no-index".into()))
    {
        return None;
    }
    // Read and edit rules for paths apply to these programs' arguments too.
    let path_rules = rules.iter().any(|r| {
        r.behavior != Behavior::Allow && matches!(r.tool.as_str(), "Read" | "Edit" | "Write")
    });
    let inside = situation
        .working_dirs
        .iter()
        .any(|dir| situation.cwd.starts_with(dir));
    let plain = |arg: &String| {
        arg.starts_with('-')
            || !(arg.starts_with(['/', '~', '='])
                || arg.contains(['$', '`', '*', '?', '[', '{', '\\'])
                || Path::new(arg)
                    .components()
                    .any(|c| c == std::path::Component::ParentDir))
    };
    (path_rules || !inside || part.expands || !args.iter().all(plain)).then_some(Leave::Paths)
}

/// `2>&1`, `>&2` and `/dev/null` in or out: redirections the client does not check as writes.
fn is_harmless_redirect(redirect: &str) -> bool {
    let r: String = redirect.chars().filter(|c| !c.is_whitespace()).collect();
    let fd = r.trim_start_matches(|c: char| c.is_ascii_digit());
    let dup = fd
        .strip_prefix(">&")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    let null = ["&>>", "&>", ">>", ">", "<"]
        .iter()
        .any(|op| fd.strip_prefix(op) == Some("/dev/null"));
    dup || null
}

fn base_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// How the client compares a rule with a command: as a whole (`exact`, for rules checked on the
/// full command), by prefix (`prefix`, for each command of a line), or both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Matching {
    Exact,
    Prefix,
    Any,
}

/// Whether a Bash rule's content matches one form of a command (`function N$o(`):
/// `prefix:*` matches the prefix alone or followed by a blank (blanks compared as one space);
/// content with an unescaped `*` is a wildcard pattern; anything else must be equal. Both also
/// match behind `xargs ` (for allow rules, a wildcard only when it ends in `*`).
fn pattern_matches(content: &str, form: &str, matching: Matching, stopper: bool) -> bool {
    let exact = matching != Matching::Prefix;
    let prefix = matching != Matching::Exact;
    if let Some(p) = content.strip_suffix(":*").filter(|p| !p.is_empty()) {
        let (p, f) = (collapse_blanks(p), collapse_blanks(form));
        if exact && f == p {
            return true;
        }
        if !prefix {
            return false;
        }
        let starts = |f: &str, p: &str| f == p || f.starts_with(&format!("{p} "));
        return starts(&f, &p) || starts(&f, &format!("xargs {p}"));
    }
    if has_unescaped_star(content) {
        if !prefix {
            return false;
        }
        return wildcard_matches(content, form)
            || ((stopper || ends_with_unescaped_star(content))
                && wildcard_matches(&format!("xargs {content}"), form));
    }
    content == form
}

fn collapse_blanks(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = false;
    for c in s.chars() {
        if c == ' ' || c == '\t' {
            if !blank {
                out.push(' ');
            }
            blank = true;
        } else {
            out.push(c);
            blank = false;
        }
    }
    out
}

fn has_unescaped_star(content: &str) -> bool {
    !content.ends_with(":*")
        && content
            .match_indices('*')
            .any(|(i, _)| !is_escaped(content, i))
}

fn ends_with_unescaped_star(content: &str) -> bool {
    let t = content.trim_end();
    t.ends_with('*') && !is_escaped(t, t.len() - 1)
}

/// One piece of a wildcard pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Piece {
    Literal(char),
    Star,
    /// `/**/` (repeated): any number of directories.
    Globstar,
}

/// A wildcard rule against a command (`function T6(e, t`): blanks compared as one space, `*`
/// matches anything (newlines too), `\*` a star, `\\` a backslash, `/**/` any directories, and a
/// pattern ending in ` *` with no other star also matches without that tail (`npm run *` matches
/// `npm run`).
fn wildcard_matches(pattern: &str, form: &str) -> bool {
    let pattern = collapse_blanks(pattern.trim());
    let form = collapse_blanks(form);
    let mut pieces = Vec::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('\\', Some(&n @ ('*' | '\\'))) => {
                pieces.push(Piece::Literal(n));
                chars.next();
            }
            ('*', _) => pieces.push(Piece::Star),
            _ => pieces.push(Piece::Literal(c)),
        }
    }
    let stars = pieces.iter().filter(|p| **p == Piece::Star).count();
    let pieces = globstars(pieces);
    let mut regex = String::from("(?s)^");
    for piece in &pieces {
        match piece {
            Piece::Literal(c) => regex.push_str(&regex::escape(&c.to_string())),
            Piece::Star => regex.push_str(".*"),
            Piece::Globstar => regex.push_str("/(?:.*/)?"),
        }
    }
    if stars == 1 && pieces.ends_with(&[Piece::Literal(' '), Piece::Star]) {
        regex.truncate(regex.len() - " .*".len());
        regex.push_str("( .*)?");
    }
    regex.push('$');
    regex::Regex::new(&regex).is_ok_and(|re| re.is_match(&form))
}

/// `/` followed by one or more `**/` becomes one [`Piece::Globstar`].
fn globstars(pieces: Vec<Piece>) -> Vec<Piece> {
    let mut out = Vec::with_capacity(pieces.len());
    let mut i = 0;
    while i < pieces.len() {
        let star_star_slash = |j: usize| {
            pieces.get(j..j + 3) == Some(&[Piece::Star, Piece::Star, Piece::Literal('/')][..])
        };
        if pieces[i] == Piece::Literal('/') && star_star_slash(i + 1) {
            let mut j = i + 1;
            while star_star_slash(j) {
                j += 3;
            }
            out.push(Piece::Globstar);
            i = j;
        } else {
            out.push(pieces[i]);
            i += 1;
        }
    }
    out
}

/// A glob with `*` only, matched whole (tool names, other input fields).
fn glob_matches(glob: &str, text: &str) -> bool {
    let regex: Vec<String> = glob.split('*').map(regex::escape).collect();
    regex::Regex::new(&format!("(?s)^{}$", regex.join(".*"))).is_ok_and(|re| re.is_match(text))
}

#[cfg(test)]
mod tests;
