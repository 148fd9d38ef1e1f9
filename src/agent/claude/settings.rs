//! Where Claude Code keeps its permission rules, as the pinned client reads them (see
//! `permissions`), and what its command line adds. Every scope is read; the order does not matter
//! for a decision (a deny or ask rule anywhere wins over an allow rule anywhere).
//!
//! - managed: `/etc/claude-code/managed-settings.json`, then `managed-settings.d/*.json` (sorted,
//!   no dot files) (`"managed-settings.d"`);
//! - user: `$CLAUDE_CONFIG_DIR/settings.json`, else `~/.claude/settings.json`;
//! - project and local: `.claude/settings.json` and `.claude/settings.local.json` in the directory
//!   the client started in (its project root), not in a parent and not where a command runs;
//! - `--settings FILE-OR-JSON` (JSON when it starts with `{` and ends with `}`);
//! - `--allowedTools`, `--disallowedTools` (comma- or blank-separated, parentheses kept
//!   together), `--tools` (without Bash, the tool is not offered at all).
//!
//! Allow rules of the project's `.claude/settings.json` count only once the user has trusted the
//! project (`hasTrustDialogAccepted` in the client's global config, keyed by the project's git
//! root); the client ignores them before ("workspace not yet trusted"). In an untrusted project
//! it also ignores local allow rules when `settings.local.json` looks planted (see [`Trust`]).
//! Allow rules from a scope `--setting-sources` leaves out, or from anywhere but managed settings
//! under `allowManagedPermissionRulesOnly`, do not count either. Deny and ask rules always count,
//! wherever they are: counting one the client ignores only means ctxoff rewrites less.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::permissions::{Behavior, Rule, Rules, Source};

/// Where the client's files are, for one hook call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Places {
    /// The managed settings directory (`/etc/claude-code` on Linux).
    pub(crate) managed: PathBuf,
    /// `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
    pub(crate) config_dir: PathBuf,
    /// The client's global config: `$CLAUDE_CONFIG_DIR/.config.json` when it exists, else
    /// `.claude.json` in `$CLAUDE_CONFIG_DIR` or the home directory.
    pub(crate) global_config: PathBuf,
    /// The project root: `$CLAUDE_PROJECT_DIR`, the directory the client started in.
    pub(crate) project: PathBuf,
}

impl Places {
    /// From the hook's environment (the client passes its own, plus `CLAUDE_PROJECT_DIR`);
    /// `None` without a project directory or a home.
    pub(crate) fn from_env(
        var: impl Fn(&str) -> Option<std::ffi::OsString>,
        home: Option<PathBuf>,
    ) -> Option<Places> {
        let project = PathBuf::from(var("CLAUDE_PROJECT_DIR").filter(|p| !p.is_empty())?);
        let config_var = var("CLAUDE_CONFIG_DIR")
            .filter(|p| !p.is_empty())
            .map(PathBuf::from);
        let config_dir = match &config_var {
            Some(dir) => dir.clone(),
            None => home.clone()?.join(".claude"),
        };
        let dot_config = config_dir.join(".config.json");
        let global_config = match dot_config.exists() {
            true => dot_config,
            false => config_var.or(home)?.join(".claude.json"),
        };
        Some(Places {
            managed: PathBuf::from("/etc/claude-code"),
            config_dir,
            global_config,
            project,
        })
    }

    pub(crate) fn user_settings(&self) -> PathBuf {
        self.config_dir.join("settings.json")
    }

    pub(crate) fn project_settings(&self) -> PathBuf {
        self.project.join(".claude/settings.json")
    }

    pub(crate) fn local_settings(&self) -> PathBuf {
        self.project.join(".claude/settings.local.json")
    }

    /// The managed settings files, in the order the client merges them.
    pub(crate) fn managed_settings(&self) -> Vec<PathBuf> {
        let mut files = vec![self.managed.join("managed-settings.json")];
        if let Ok(entries) = std::fs::read_dir(self.managed.join("managed-settings.d")) {
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".json") && !n.starts_with('.'))
                .collect();
            names.sort();
            files.extend(
                names
                    .into_iter()
                    .map(|n| self.managed.join("managed-settings.d").join(n)),
            );
        }
        files
    }
}

/// What can be read of the client's command line (from `/proc`, see [`ClientArgs::of_client`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ClientArgs {
    pub(crate) allowed_tools: Vec<String>,
    pub(crate) disallowed_tools: Vec<String>,
    /// `--tools`: the tools offered at all (`None`: all of them).
    pub(crate) tools: Option<Vec<String>>,
    /// `--settings`, as given.
    pub(crate) settings: Option<String>,
    /// `--setting-sources`: which of user, project and local are read (`None`: all).
    pub(crate) setting_sources: Option<Vec<String>>,
    pub(crate) add_dirs: Vec<String>,
}

/// The client's options that take several values (`<tools...>`): they take every following
/// argument up to the next one starting with `-`.
const VARIADIC: &[&str] = &[
    "--allowedTools",
    "--allowed-tools",
    "--disallowedTools",
    "--disallowed-tools",
    "--tools",
    "--add-dir",
    "--mcp-config",
    "--betas",
    "--file",
    "--channels",
];

/// The client's options that take one value.
const ONE_VALUE: &[&str] = &[
    "--settings",
    "--setting-sources",
    "--permission-mode",
    "--model",
    "-m",
    "--system-prompt",
    "--append-system-prompt",
    "--output-format",
    "--input-format",
    "--session-id",
    "--debug-file",
    "--resume",
    "-r",
    "--agent",
    "--agents",
    "--fallback-model",
    "--max-turns",
    "--permission-prompt-tool",
    "--plugin-dir",
    "--name",
    "-n",
    "--effort",
    "--json-schema",
];

impl ClientArgs {
    /// Reads the options that carry permissions from the client's arguments (without the
    /// program name).
    pub(crate) fn parse(args: &[String]) -> ClientArgs {
        let mut out = ClientArgs::default();
        let mut i = 0;
        while i < args.len() {
            let (option, inline) = match args[i].split_once('=') {
                Some((o, v)) if o.starts_with("--") => (o, Some(v.to_owned())),
                _ => (args[i].as_str(), None),
            };
            i += 1;
            let values: Vec<String> = if let Some(v) = inline {
                vec![v]
            } else if VARIADIC.contains(&option) {
                let start = i;
                while i < args.len() && !args[i].starts_with('-') {
                    i += 1;
                }
                args[start..i].to_vec()
            } else if ONE_VALUE.contains(&option) && i < args.len() {
                i += 1;
                vec![args[i - 1].clone()]
            } else {
                vec![]
            };
            match option {
                "--allowedTools" | "--allowed-tools" => {
                    out.allowed_tools.extend(split_tool_list(&values))
                }
                "--disallowedTools" | "--disallowed-tools" => {
                    out.disallowed_tools.extend(split_tool_list(&values))
                }
                "--tools" => out
                    .tools
                    .get_or_insert_with(Vec::new)
                    .extend(split_tool_list(&values)),
                "--settings" => out.settings = values.into_iter().last(),
                "--setting-sources" => {
                    out.setting_sources = values.last().map(|v| {
                        v.split(',')
                            .map(|s| s.trim().to_owned())
                            .filter(|s| !s.is_empty())
                            .collect()
                    })
                }
                "--add-dir" => out.add_dirs.extend(values),
                _ => {}
            }
        }
        out
    }

    /// The arguments of the nearest ancestor of this process that is the Claude Code client
    /// (the hook runs under a shell the client starts), with its working directory; `None`
    /// when none is found (not Linux, or not run by the client).
    pub(crate) fn of_client() -> Option<(ClientArgs, PathBuf)> {
        let mut pid = std::process::id();
        for _ in 0..8 {
            pid = parent_pid(pid)?;
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let args: Vec<String> = raw
                .split(|b| *b == 0)
                .filter(|a| !a.is_empty())
                .map(|a| String::from_utf8_lossy(a).into_owned())
                .collect();
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
            if args.first().is_some_and(|a| is_client_program(a))
                || is_client_program(&exe.to_string_lossy())
                || args.iter().any(|a| a.contains("@anthropic-ai/claude-code"))
            {
                let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).ok()?;
                return Some((ClientArgs::parse(&args[1..]), cwd));
            }
        }
        None
    }
}

/// `claude` or `claude.exe` (the npm package's binary), or a version of the native install
/// (`~/.local/share/claude/versions/2.1.197`).
fn is_client_program(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    matches!(name, "claude" | "claude.exe") || path.contains("/claude/versions/")
}

/// The parent of `pid`, from `/proc/PID/stat` (the field after the parenthesised name).
fn parent_pid(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

/// `--allowedTools` values as the client splits them (`function VN(e)`): at commas and blanks
/// outside parentheses.
fn split_tool_list(values: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for value in values {
        let mut current = String::new();
        let mut in_parens = false;
        for c in value.chars() {
            match c {
                '(' => {
                    in_parens = true;
                    current.push(c);
                }
                ')' => {
                    in_parens = false;
                    current.push(c);
                }
                ',' | ' ' if !in_parens => {
                    if !current.trim().is_empty() {
                        out.push(current.trim().to_owned());
                    }
                    current.clear();
                }
                _ => current.push(c),
            }
        }
        if !current.trim().is_empty() {
            out.push(current.trim().to_owned());
        }
    }
    out
}

/// The settings of one scope, as read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scope {
    pub(crate) source: Source,
    pub(crate) settings: Value,
}

/// A settings file that exists but cannot be read as JSON: its rules are unknown, so no
/// decision can be trusted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreadable {
    pub(crate) path: PathBuf,
    pub(crate) reason: String,
}

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

/// Reads every settings scope at `places`, and `--settings` (relative to the client's `cwd`).
/// A missing file is an empty scope; one that cannot be read or parsed is an error.
pub(crate) fn read_scopes(
    places: &Places,
    args: &ClientArgs,
    client_cwd: &Path,
) -> Result<Vec<Scope>, Unreadable> {
    let mut scopes = Vec::new();
    let mut read = |source: Source, path: &Path| -> Result<(), Unreadable> {
        if let Some(settings) = read_json(path)? {
            scopes.push(Scope { source, settings });
        }
        Ok(())
    };
    for file in places.managed_settings() {
        read(Source::Managed, &file)?;
    }
    read(Source::User, &places.user_settings())?;
    read(Source::Project, &places.project_settings())?;
    read(Source::Local, &places.local_settings())?;
    if let Some(flag) = &args.settings {
        let trimmed = flag.trim();
        if trimmed.starts_with('{') && trimmed.ends_with('}') {
            let settings = serde_json::from_str(trimmed).map_err(|e| Unreadable {
                path: PathBuf::from("--settings"),
                reason: e.to_string(),
            })?;
            scopes.push(Scope {
                source: Source::Flag,
                settings,
            });
        } else {
            read(Source::Flag, &client_cwd.join(flag))?;
        }
    }
    Ok(scopes)
}

fn read_json(path: &Path) -> Result<Option<Value>, Unreadable> {
    let unreadable = |reason: String| Unreadable {
        path: path.to_owned(),
        reason,
    };
    match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| unreadable(e.to_string())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => Ok(None),
        Err(e) => Err(unreadable(e.to_string())),
    }
}

/// Which project scopes' allow rules the client honours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Trust {
    /// `.claude/settings.json`: in a trusted project, or when it is the user settings file
    /// itself (a project at the home directory).
    pub(crate) project: bool,
    /// `.claude/settings.local.json`: in a trusted project, or when it does not look planted.
    pub(crate) local: bool,
}

impl Trust {
    /// As the client decides it (`workspace not yet trusted`).
    pub(crate) fn of(places: &Places) -> Trust {
        if is_trusted(places) {
            return Trust {
                project: true,
                local: true,
            };
        }
        Trust {
            project: places.project_settings() == places.user_settings(),
            local: !local_looks_planted(&places.project),
        }
    }
}

/// Whether the project's local settings look planted rather than written by the user's own
/// client (`":(icase).claude/settings.local.json"`): `.claude` or the file is a symbolic link,
/// `.claude` is a git repository, the project is not a git repository, or the file is tracked
/// by git (it came with the checkout). Anything unexpected counts as planted.
fn local_looks_planted(project: &Path) -> bool {
    let claude = project.join(".claude");
    for path in [claude.clone(), claude.join("settings.local.json")] {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => return true,
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return true,
            _ => {}
        }
    }
    match std::fs::symlink_metadata(claude.join(".git")) {
        Ok(_) => return true,
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return true,
        Err(_) => {}
    }
    let status = std::process::Command::new("git")
        .args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "core.fsmonitor=",
            "-C",
        ])
        .arg(project)
        .args([
            "ls-files",
            "--error-unmatch",
            "--",
            ":(icase).claude/settings.local.json",
        ])
        .current_dir(project)
        .env("GIT_LITERAL_PATHSPECS", "")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
    match status {
        // No git at all: the client skips this check.
        Err(e) => e.kind() != std::io::ErrorKind::NotFound,
        Ok(status) => matches!(status.code(), Some(0 | 128) | None),
    }
}

/// Whether the user has trusted the project: `projects[KEY].hasTrustDialogAccepted` in the
/// client's global config, where KEY is the project's git root (the main worktree's for a linked
/// worktree), else the project directory itself (`hasTrustDialogAccepted === !0`).
pub(crate) fn is_trusted(places: &Places) -> bool {
    let Ok(text) = std::fs::read_to_string(&places.global_config) else {
        return false;
    };
    let Ok(config) = serde_json::from_str::<Value>(&text) else {
        return false;
    };
    let key = canonical_git_root(&places.project).unwrap_or_else(|| places.project.clone());
    config["projects"][key.to_string_lossy().as_ref()]["hasTrustDialogAccepted"] == true
}

/// The root of the git repository holding `dir`; for a linked worktree, the main worktree's.
fn canonical_git_root(dir: &Path) -> Option<PathBuf> {
    let root = dir.ancestors().find(|d| d.join(".git").exists())?;
    let git = root.join(".git");
    if git.is_dir() {
        return Some(root.to_owned());
    }
    // A linked worktree: `.git` is a file naming `<common>/worktrees/<name>`.
    let text = std::fs::read_to_string(&git).ok()?;
    let gitdir = root.join(text.strip_prefix("gitdir:")?.trim());
    let common = match std::fs::read_to_string(gitdir.join("commondir")) {
        Ok(c) => gitdir.join(c.trim()),
        Err(_) => return Some(root.to_owned()),
    };
    let common = common.canonicalize().ok()?;
    match common.file_name() == Some(".git".as_ref()) {
        true => common.parent().map(Path::to_owned),
        false => Some(root.to_owned()),
    }
}

/// What a hook call needs to decide: every rule, and the directories commands may read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Loaded {
    pub(crate) rules: Rules,
    /// The project, then the extra directories of the settings and of `--add-dir`.
    pub(crate) working_dirs: Vec<PathBuf>,
}

/// Reads every scope at `places` and what can be found of the client's command line (`client`:
/// its arguments and working directory, see [`ClientArgs::of_client`]).
pub(crate) fn load(
    places: &Places,
    client: Option<(ClientArgs, PathBuf)>,
) -> Result<Loaded, Unreadable> {
    let (args, client_cwd) =
        client.unwrap_or_else(|| (ClientArgs::default(), places.project.clone()));
    let scopes = read_scopes(places, &args, &client_cwd)?;
    let (rules, extra) = rules(&scopes, &args, Trust::of(places));
    let mut working_dirs = vec![places.project.clone()];
    working_dirs.extend(extra.iter().map(|d| places.project.join(d)));
    Ok(Loaded {
        rules,
        working_dirs,
    })
}

/// Every rule the client holds, from `scopes` and its command line, and the extra directories it
/// lets commands read.
pub(crate) fn rules(scopes: &[Scope], args: &ClientArgs, trust: Trust) -> (Rules, Vec<String>) {
    let managed_only = scopes.iter().any(|s| {
        s.source == Source::Managed
            && s.settings["allowManagedPermissionRulesOnly"] == Value::Bool(true)
    });
    let loaded = |source: Source| {
        let name = match source {
            Source::User => "user",
            Source::Project => "project",
            Source::Local => "local",
            _ => return true,
        };
        args.setting_sources
            .as_ref()
            .is_none_or(|s| s.iter().any(|n| n == name))
    };
    let allow_counts = |source: Source| {
        loaded(source)
            && (!managed_only || source == Source::Managed)
            && match source {
                Source::Project => trust.project,
                Source::Local => trust.local,
                _ => true,
            }
    };
    let mut rules = Rules::default();
    let mut dirs = Vec::new();
    for scope in scopes {
        let permissions = &scope.settings["permissions"];
        for (key, behavior) in [
            ("deny", Behavior::Deny),
            ("ask", Behavior::Ask),
            ("allow", Behavior::Allow),
        ] {
            if behavior == Behavior::Allow && !allow_counts(scope.source) {
                continue;
            }
            for text in permissions[key].as_array().into_iter().flatten() {
                if let Some(text) = text.as_str() {
                    rules.push(Rule::new(behavior, scope.source, text));
                }
            }
        }
        if allow_counts(scope.source) {
            let extra = permissions["additionalDirectories"].as_array();
            dirs.extend(
                extra
                    .into_iter()
                    .flatten()
                    .filter_map(|d| d.as_str())
                    .map(str::to_owned),
            );
        }
    }
    for text in &args.disallowed_tools {
        rules.push(Rule::new(Behavior::Deny, Source::CommandLine, text));
    }
    if let Some(tools) = &args.tools
        && !tools.iter().any(|t| t == "Bash" || t == "default")
    {
        rules.push(Rule::new(Behavior::Deny, Source::Tools, "Bash"));
    }
    if !managed_only {
        for text in &args.allowed_tools {
            rules.push(Rule::new(Behavior::Allow, Source::CommandLine, text));
        }
        dirs.extend(args.add_dirs.iter().cloned());
    }
    (rules, dirs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const TRUSTED: Trust = Trust {
        project: true,
        local: true,
    };

    fn args(list: &[&str]) -> ClientArgs {
        ClientArgs::parse(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn reads_the_options_that_carry_permissions() {
        let a = args(&[
            "-p",
            "Run the commands.",
            "--allowedTools",
            "Bash(cargo test:*),Bash(npm run:*)",
            "Read",
            "--disallowed-tools=Bash(git push:*)",
            "--permission-mode",
            "default",
            "--settings",
            "{\"permissions\":{}}",
            "--add-dir",
            "../lib",
            "--tools",
            "Bash,Read",
        ]);
        assert_eq!(
            a.allowed_tools,
            ["Bash(cargo test:*)", "Bash(npm run:*)", "Read"]
        );
        assert_eq!(a.disallowed_tools, ["Bash(git push:*)"]);
        assert_eq!(a.settings.as_deref(), Some("{\"permissions\":{}}"));
        assert_eq!(a.add_dirs, ["../lib"]);
        assert_eq!(a.tools, Some(vec!["Bash".into(), "Read".into()]));
    }

    #[test]
    fn tool_lists_split_at_commas_and_blanks_outside_parentheses() {
        assert_eq!(
            split_tool_list(&["Bash(git log, git diff) Edit,Read".into()]),
            ["Bash(git log, git diff)", "Edit", "Read"]
        );
    }

    #[test]
    fn project_allow_rules_count_only_in_a_trusted_project() {
        let scopes = [
            Scope {
                source: Source::Project,
                settings: json!({"permissions": {"allow": ["Bash(make:*)"], "deny": ["Bash(rm:*)"]}}),
            },
            Scope {
                source: Source::User,
                settings: json!({"permissions": {"allow": ["Bash(cargo test:*)"]}}),
            },
        ];
        let texts = |trusted| {
            let trust = Trust {
                project: trusted,
                local: trusted,
            };
            let (rules, _) = rules(&scopes, &ClientArgs::default(), trust);
            rules.iter().map(|r| r.text.clone()).collect::<Vec<_>>()
        };
        assert_eq!(
            texts(true),
            ["Bash(rm:*)", "Bash(make:*)", "Bash(cargo test:*)"]
        );
        assert_eq!(texts(false), ["Bash(rm:*)", "Bash(cargo test:*)"]);
    }

    #[test]
    fn setting_sources_and_managed_only_drop_allow_rules_but_never_deny_rules() {
        let scopes = [
            Scope {
                source: Source::User,
                settings: json!({"permissions": {"allow": ["Bash(a:*)"], "deny": ["Bash(b:*)"]}}),
            },
            Scope {
                source: Source::Managed,
                settings: json!({"permissions": {"allow": ["Bash(c:*)"]}}),
            },
        ];
        let texts = |scopes: &[Scope], a: &ClientArgs| {
            let (rules, _) = rules(scopes, a, TRUSTED);
            rules.iter().map(|r| r.text.clone()).collect::<Vec<_>>()
        };
        let project_only = args(&["--setting-sources", "project"]);
        assert_eq!(texts(&scopes, &project_only), ["Bash(b:*)", "Bash(c:*)"]);
        let mut managed_only = scopes.clone();
        managed_only[1].settings["allowManagedPermissionRulesOnly"] = json!(true);
        let cli = args(&["--allowedTools", "Bash(d:*)"]);
        assert_eq!(texts(&managed_only, &cli), ["Bash(b:*)", "Bash(c:*)"]);
    }

    #[test]
    fn tools_without_bash_deny_it() {
        let (without, _) = rules(&[], &args(&["--tools", "Read,Edit"]), TRUSTED);
        let texts: Vec<&str> = without.iter().map(|r| r.text.as_str()).collect();
        assert_eq!(texts, ["Bash"]);
        let (all, _) = rules(&[], &args(&["--tools", "default"]), TRUSTED);
        assert_eq!(all.iter().count(), 0);
    }

    #[test]
    fn trust_is_keyed_by_the_git_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let project = root.join("repo");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        std::fs::create_dir_all(project.join("sub")).unwrap();
        let places = |project: &Path| Places {
            managed: root.join("etc"),
            config_dir: root.join("config"),
            global_config: root.join("config/.claude.json"),
            project: project.to_owned(),
        };
        std::fs::create_dir_all(root.join("config")).unwrap();
        assert!(!is_trusted(&places(&project)), "no global config");
        let key = project.to_string_lossy().into_owned();
        std::fs::write(
            root.join("config/.claude.json"),
            json!({"projects": {key: {"hasTrustDialogAccepted": true}}}).to_string(),
        )
        .unwrap();
        assert!(is_trusted(&places(&project)));
        assert!(
            is_trusted(&places(&project.join("sub"))),
            "a subdirectory of the repository"
        );
        assert!(!is_trusted(&places(&root)), "outside the repository");
    }

    #[test]
    fn local_settings_look_planted_when_git_does_not_vouch_for_them() {
        let dir = tempfile::tempdir().unwrap();
        let project = dir.path();
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        std::fs::write(project.join(".claude/settings.local.json"), "{}").unwrap();
        assert!(local_looks_planted(project), "not a git repository");
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .current_dir(project)
                .env("GIT_CONFIG_GLOBAL", "/dev/null")
                .output()
                .unwrap()
        };
        git(&["init", "-q"]);
        assert!(!local_looks_planted(project), "untracked in a repository");
        git(&["add", ".claude/settings.local.json"]);
        assert!(
            local_looks_planted(project),
            "tracked: it came with the checkout"
        );
    }

    #[test]
    fn places_honour_claude_config_dir() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                vars.iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let home = Some(PathBuf::from("/home/ana"));
        let p = Places::from_env(env(&[("CLAUDE_PROJECT_DIR", "/src/app")]), home.clone()).unwrap();
        assert_eq!(
            p.user_settings(),
            Path::new("/home/ana/.claude/settings.json")
        );
        assert_eq!(p.global_config, Path::new("/home/ana/.claude.json"));
        assert_eq!(
            p.local_settings(),
            Path::new("/src/app/.claude/settings.local.json")
        );
        let p = Places::from_env(
            env(&[
                ("CLAUDE_PROJECT_DIR", "/src/app"),
                ("CLAUDE_CONFIG_DIR", "/cfg"),
            ]),
            home.clone(),
        )
        .unwrap();
        assert_eq!(p.user_settings(), Path::new("/cfg/settings.json"));
        assert_eq!(p.global_config, Path::new("/cfg/.claude.json"));
        assert!(Places::from_env(env(&[]), home).is_none(), "no project");
    }
}
