use std::path::PathBuf;

use serde_json::{Map, Value, json};

use super::*;
use crate::agent::claude::settings::{self, ClientArgs, Scope, Trust};

/// What the real client decided, recorded by the end-to-end suite (`tests/e2e/claude/record.rs`).
const FIXTURE: &str = include_str!("../../../../tests/fixtures/claude-code/decisions.json");

fn fixture() -> Value {
    serde_json::from_str(FIXTURE).expect("the fixture is JSON")
}

/// The rules of one recorded run, read the way the hook reads them.
fn rules_of(run: &Value) -> Rules {
    let mut scopes = Vec::new();
    let mut args: Vec<String> = run["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_owned())
        .collect();
    for (scope, settings) in run["settings"].as_object().unwrap() {
        let source = match scope.as_str() {
            "user" => Source::User,
            "project" => Source::Project,
            "local" => Source::Local,
            "flag" => {
                args.extend(["--settings".into(), settings.to_string()]);
                continue;
            }
            other => panic!("unknown scope {other}"),
        };
        scopes.push(Scope {
            source,
            settings: settings.clone(),
        });
    }
    let args = ClientArgs::parse(&args);
    if let Some(flag) = &args.settings {
        scopes.push(Scope {
            source: Source::Flag,
            settings: serde_json::from_str(flag).unwrap(),
        });
    }
    // The recorded project is a git repository whose settings.local.json is not tracked: the
    // client keeps its allow rules even before the project is trusted.
    let trust = Trust {
        project: run["trusted"] == true,
        local: true,
    };
    settings::rules(&scopes, &args, trust).0
}

fn input(command: &str) -> Map<String, Value> {
    json!({"command": command, "description": "Run a command"})
        .as_object()
        .unwrap()
        .clone()
}

fn decide_in<'r>(mode: &str, command: &str, rules: &'r Rules) -> Decision<'r> {
    let input = input(command);
    let dirs = [PathBuf::from("/project")];
    let situation = Situation {
        mode,
        input: &input,
        cwd: Path::new("/project"),
        working_dirs: &dirs,
    };
    decide(command, &situation, rules)
}

/// Kinds of recorded commands that are one plain command, possibly behind assignments or
/// wrappers: where ctxoff must agree with the client exactly, not just safely.
const PLAIN: &[&str] = &["simple", "env", "wrapper", "quoting", "path"];

/// Deny and ask rules are matched on the unquoted words too, where the client is stricter and
/// misses them (`cargo 'test'` escapes its `Bash(cargo test:*)`): more stopping than the client,
/// which only means ctxoff leaves those commands alone.
const STOPPED_ON_UNQUOTED_WORDS: &[&str] = &["cargo 'test'"];

/// Every recorded decision, replayed. The answer must never widen the client (it says "runs"
/// only where the client ran the command), must name a deny or ask rule wherever one stopped the
/// command, and for plain commands must find the allow rule (or the mode) that let it run.
#[test]
fn agrees_with_every_decision_the_client_made() {
    let fixture = fixture();
    assert_eq!(fixture["version"], CLIENT_VERSION);
    let runs = fixture["runs"].as_array().unwrap();
    let kinds = fixture["kinds"].as_object().unwrap();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for run in runs {
        let mode = run["mode"].as_str().unwrap();
        let rules = rules_of(run);
        let control = runs
            .iter()
            .find(|r| r["mode"] == mode && r["rules"] == "none")
            .expect("every mode has a run without rules");
        for (command, outcome) in run["results"].as_object().unwrap() {
            checked += 1;
            let outcome = outcome.as_str().unwrap();
            let without_rules = control["results"][command].as_str().unwrap();
            let kind = kinds[command].as_str().unwrap();
            let plain = PLAIN.contains(&kind)
                || (kind == "redirect"
                    && bash::parse(command).parts[0]
                        .redirects
                        .iter()
                        .all(|r| is_harmless_redirect(r)));
            let decision = decide_in(mode, command, &rules);
            let problem = match decision {
                Decision::Runs(_) if outcome != "ran" => Some("says it runs; the client did not"),
                Decision::Stopped(_)
                    if plain
                        && outcome == "ran"
                        && !STOPPED_ON_UNQUOTED_WORDS.contains(&command.as_str()) =>
                {
                    Some("says a rule stops it; the client ran it")
                }
                Decision::Stopped(_) => None,
                _ if matches!(outcome, "deny" | "ask" | "absent") => {
                    Some("misses the rule that stopped it")
                }
                Decision::Runs(Grant::Bypass) => None,
                _ if plain && outcome == "ran" && mode == "bypassPermissions" => {
                    Some("misses that bypassPermissions runs it")
                }
                Decision::Runs(Grant::Rule(_)) => None,
                _ if plain && outcome == "ran" && without_rules != "ran" && mode != "plan" => {
                    Some("misses the allow rule that let it run")
                }
                _ => None,
            };
            if let Some(problem) = problem {
                wrong.push(format!(
                    "{mode} × {}: {command:?} ({kind}): {problem} (client: {outcome}; ctxoff: {decision:?})",
                    run["rules"]
                ));
            }
        }
    }
    assert!(checked > 5000, "only {checked} recorded decisions");
    assert!(
        wrong.is_empty(),
        "{} disagreements:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

fn rules(list: &[(Behavior, &str)]) -> Rules {
    let mut rules = Rules::default();
    for (behavior, text) in list {
        rules.push(Rule::new(*behavior, Source::Project, text));
    }
    rules
}

#[test]
fn names_the_rule_that_decides() {
    let set = rules(&[
        (Behavior::Allow, "Bash(cargo:*)"),
        (Behavior::Deny, "Bash(cargo publish:*)"),
        (Behavior::Ask, "Bash(git push:*)"),
    ]);
    let text = |d: Decision| match d {
        Decision::Stopped(r) | Decision::Runs(Grant::Rule(r)) => r.text.clone(),
        other => format!("{other:?}"),
    };
    assert_eq!(
        text(decide_in("default", "cargo test", &set)),
        "Bash(cargo:*)"
    );
    assert_eq!(
        text(decide_in("default", "cargo publish --dry-run", &set)),
        "Bash(cargo publish:*)"
    );
    assert_eq!(
        text(decide_in("bypassPermissions", "git push origin", &set)),
        "Bash(git push:*)"
    );
    assert_eq!(
        text(decide_in("bypassPermissions", "make", &set)),
        "Runs(Bypass)"
    );
    assert_eq!(text(decide_in("plan", "cargo test", &set)), "Plan");
    assert_eq!(text(decide_in("default", "make", &set)), "Leave(NoRule)");
    assert_eq!(text(decide_in("auto", "cargo test", &set)), "Leave(Mode)");
}

#[test]
fn rules_are_read_as_the_client_reads_them() {
    let rule = |text| Rule::new(Behavior::Allow, Source::User, text);
    assert_eq!(rule("Bash").content, None);
    assert_eq!(rule("Bash(*)").content, None);
    assert_eq!(rule("Bash()").content, None);
    assert_eq!(
        rule("Bash(echo \\(x\\))").content.as_deref(),
        Some("echo (x)")
    );
    assert_eq!(rule("Bash(npm run *)").tool, "Bash");
    assert_eq!(
        rule("Bash(ls) x").content,
        None,
        "text after the parenthesis"
    );
    assert!(Rule::new(Behavior::Deny, Source::User, "B*").is_whole_bash());
    assert!(
        !rule("B*").is_whole_bash(),
        "allow rules name a tool exactly"
    );
}

#[test]
fn wildcards_follow_the_clients_pattern_rules() {
    for (pattern, form, expected) in [
        ("npm run *", "npm run", true),
        ("npm run *", "npm run build", true),
        ("npm run *", "npm runx", false),
        ("cargo*", "cargo-fmt", true),
        ("*test*", "FOO=1 cargo test", true),
        ("git * main", "git push origin main", true),
        ("echo \\*", "echo *", true),
        ("echo \\*", "echo x", false),
        ("ls src/**/x", "ls src/x", true),
        ("ls src/**/x", "ls src/a/b/x", true),
        ("a *  b", "a x b", true),
        ("echo *", "echo a\nb", true),
    ] {
        assert_eq!(
            wildcard_matches(pattern, form),
            expected,
            "{pattern:?} {form:?}"
        );
    }
}

#[test]
fn prefix_rules_match_whole_words_and_xargs() {
    for (content, form, expected) in [
        ("cargo test:*", "cargo test", true),
        ("cargo test:*", "cargo test --all", true),
        ("cargo test:*", "cargo  test", true),
        ("cargo test:*", "cargo testx", false),
        ("cargo test:*", "xargs cargo test", true),
        ("cargo test", "cargo test", true),
        ("cargo test", "cargo test --all", false),
    ] {
        assert_eq!(
            pattern_matches(content, form, Matching::Prefix, false),
            expected,
            "{content:?} {form:?}"
        );
    }
}

#[test]
fn a_rule_on_another_input_field_stops_every_call() {
    let set = rules(&[(Behavior::Deny, "Bash(description:*command*)")]);
    assert!(matches!(
        decide_in("bypassPermissions", "ls", &set),
        Decision::Stopped(_)
    ));
    let set = rules(&[(Behavior::Deny, "Bash(description:*deploy*)")]);
    assert_eq!(
        decide_in("bypassPermissions", "ls", &set),
        Decision::Runs(Grant::Bypass)
    );
}

#[test]
fn file_arguments_outside_the_project_are_left_to_the_client() {
    let set = rules(&[
        (Behavior::Allow, "Bash(cat:*)"),
        (Behavior::Allow, "Bash(grep:*)"),
    ]);
    for command in [
        "cat /etc/passwd",
        "cat ../other/file",
        "cat ~/notes",
        "cat $HOME/x",
        "grep -r x *.rs",
    ] {
        assert_eq!(
            decide_in("default", command, &set),
            Decision::Leave(Leave::Paths),
            "{command:?}"
        );
    }
    assert!(matches!(
        decide_in("default", "grep -rn foo src", &set),
        Decision::Runs(Grant::Rule(_))
    ));
    let mut with_read_deny = set.clone();
    with_read_deny.push(Rule::new(Behavior::Deny, Source::User, "Read(./.env)"));
    assert_eq!(
        decide_in("default", "cat README.md", &with_read_deny),
        Decision::Leave(Leave::Paths)
    );
}

#[test]
fn only_harmless_redirections_are_plain() {
    for r in [
        "2>&1",
        ">&2",
        "> /dev/null",
        "2>/dev/null",
        "&>/dev/null",
        "</dev/null",
    ] {
        assert!(is_harmless_redirect(r), "{r}");
    }
    for r in ["> out.txt", ">> /tmp/log", "2> err", "< input"] {
        assert!(!is_harmless_redirect(r), "{r}");
    }
}
