//! The client's own permission decisions, recorded: for each permission mode and set of rules,
//! every command of [`COMMANDS`] is asked for in one model turn (one Bash call each), and whether
//! the client ran it, or why it refused, is written to `tests/fixtures/claude-code/decisions.json`.
//! The rule matcher's unit tests (`agent::claude::permissions`) replay every case.
//!
//! Re-record (after changing the matrix or the pinned version):
//! `CTXOFF_E2E=1 cargo test --test e2e record_claude_decisions -- --ignored`.
//! `recorded_decisions_still_hold` replays a few runs against the client in every e2e run.

use serde_json::{Map, Value, json};

use super::{Claude, Transcript, VERSION, fixture, parallelism, read_fixture, run_parallel};

/// Programs stubbed on PATH (print `ran NAME ARGS`, exit 0).
const STUBS: &[&str] = &["cargo", "npm", "make", "pytest"];

/// The commands, each with its kind: `simple` (a program and its arguments), `readonly` (one the
/// client may run without a rule), `env` (leading assignments), `wrapper` (run through another
/// program), `quoting`, `path` (a program named by path), `compound`, `redirect`, `edit` (file
/// changes that `acceptEdits` allows).
pub const COMMANDS: &[(&str, &str)] = &[
    ("cargo test", "simple"),
    ("cargo test --all", "simple"),
    ("cargo test -p foo -- --nocapture", "simple"),
    ("cargo build", "simple"),
    ("cargo publish", "simple"),
    ("cargo", "simple"),
    ("cargo testx", "simple"),
    ("npm run build", "simple"),
    ("npm run", "simple"),
    ("npm test", "simple"),
    ("make", "simple"),
    ("make -j4", "simple"),
    ("pytest -q", "simple"),
    ("git push", "simple"),
    ("seq 1 5", "readonly"),
    ("seq 1 20000", "readonly"),
    ("cat README.md", "readonly"),
    ("cat /etc/hostname", "readonly"),
    ("cat ../outside.txt", "readonly"),
    ("grep -rn foo .", "readonly"),
    ("git log", "readonly"),
    ("git log --oneline -5", "readonly"),
    ("git status", "readonly"),
    ("ls -la", "readonly"),
    ("head -n 3 README.md", "readonly"),
    ("wc -l README.md", "readonly"),
    ("echo hello", "readonly"),
    ("find . -name '*.rs'", "readonly"),
    ("FOO=1 cargo test", "env"),
    ("RUST_LOG=debug cargo test", "env"),
    ("RUST_BACKTRACE=1 cargo test", "env"),
    ("RUST_LOG=debug FOO=1 cargo test", "env"),
    ("RUST_LOG='a b' cargo test", "env"),
    ("NODE_ENV=test npm run build", "env"),
    ("CTXOFF_SESSION=abc cargo test", "env"),
    ("FOO=1 seq 1 5", "env"),
    ("RUST_LOG=x seq 1 5", "env"),
    ("timeout 5 cargo test", "wrapper"),
    ("timeout -s KILL 5 cargo test", "wrapper"),
    ("nice cargo test", "wrapper"),
    ("nice -n 5 cargo test", "wrapper"),
    ("nohup cargo test", "wrapper"),
    ("time cargo test", "wrapper"),
    ("stdbuf -oL cargo test", "wrapper"),
    ("command cargo test", "wrapper"),
    ("env cargo test", "wrapper"),
    ("env A=b cargo test", "wrapper"),
    ("sudo cargo test", "wrapper"),
    ("xargs cargo test", "wrapper"),
    ("bash -c 'cargo test'", "wrapper"),
    ("ctxoff -- cargo test", "wrapper"),
    ("CTXOFF_SESSION=abc ctxoff -- cargo test", "wrapper"),
    ("timeout 5 seq 1 5", "wrapper"),
    ("sudo seq 1 5", "wrapper"),
    ("./cargo test", "path"),
    ("cargo  test", "quoting"),
    ("\"cargo\" test", "quoting"),
    ("cargo 'test'", "quoting"),
    ("cargo test 'a b'", "quoting"),
    ("cargo test # a comment", "quoting"),
    ("cargo test $HOME", "quoting"),
    ("ls *.md", "readonly"),
    ("cargo test && cargo build", "compound"),
    ("cargo test; cargo build", "compound"),
    ("cargo test || true", "compound"),
    ("cargo test | tail -5", "compound"),
    ("cargo test 2>&1 | tail -5", "compound"),
    ("(cargo test)", "compound"),
    ("cargo test && seq 1 3", "compound"),
    ("seq 1 3 | grep 2", "compound"),
    ("seq 1 3 && cat README.md", "compound"),
    ("echo $(cargo test)", "compound"),
    ("cargo test &", "compound"),
    ("cargo test\ncargo build", "compound"),
    ("cargo test > out.txt", "redirect"),
    ("cargo test 2>&1", "redirect"),
    ("cargo test 2>/dev/null", "redirect"),
    ("cargo test >/dev/null 2>&1", "redirect"),
    ("cargo test > ../outside.txt", "redirect"),
    ("cargo test < /dev/null", "redirect"),
    ("seq 1 5 > out.txt", "redirect"),
    ("touch new.txt", "edit"),
    ("mkdir newdir", "edit"),
    ("rm -rf build", "edit"),
];

/// A set of rules, where they are written, and what else the client is told.
struct RuleSet {
    name: &'static str,
    /// `(scope, settings)`: scope is `user`, `project`, `local` or `flag` (`--settings JSON`).
    settings: Vec<(&'static str, Value)>,
    trusted: bool,
    args: Vec<&'static str>,
    /// Recorded in every mode, not only `default` and `dontAsk`.
    all_modes: bool,
}

impl RuleSet {
    fn new(name: &'static str) -> RuleSet {
        RuleSet {
            name,
            settings: vec![],
            trusted: true,
            args: vec![],
            all_modes: false,
        }
    }

    /// `permissions.KEY = rules` in `scope`.
    fn with(mut self, scope: &'static str, key: &str, rules: &[&str]) -> RuleSet {
        match self.settings.iter_mut().find(|(s, _)| *s == scope) {
            Some((_, settings)) => settings["permissions"][key] = json!(rules),
            None => self
                .settings
                .push((scope, json!({"permissions": {key: rules}}))),
        }
        self
    }

    fn args(mut self, args: &[&'static str]) -> RuleSet {
        self.args = args.to_vec();
        self
    }

    fn untrusted(mut self) -> RuleSet {
        self.trusted = false;
        self
    }

    fn in_all_modes(mut self) -> RuleSet {
        self.all_modes = true;
        self
    }
}

fn rule_sets() -> Vec<RuleSet> {
    let project = |name, key, rules: &[&str]| RuleSet::new(name).with("project", key, rules);
    const PREFIX: &[&str] = &["Bash(cargo test:*)"];
    vec![
        RuleSet::new("none").in_all_modes(),
        project("allow prefix", "allow", PREFIX).in_all_modes(),
        project("allow program prefix", "allow", &["Bash(cargo:*)"]),
        project("allow exact", "allow", &["Bash(cargo test)"]),
        project("allow wildcard word", "allow", &["Bash(cargo test *)"]),
        project("allow program wildcard", "allow", &["Bash(cargo *)"]),
        project("allow glued wildcard", "allow", &["Bash(cargo*)"]),
        project("allow inner wildcard", "allow", &["Bash(*test*)"]),
        project("allow npm run wildcard", "allow", &["Bash(npm run *)"]),
        project("allow npm run prefix", "allow", &["Bash(npm run:*)"]),
        project(
            "allow exact others",
            "allow",
            &["Bash(git log)", "Bash(make)"],
        ),
        project("allow tool", "allow", &["Bash"]).in_all_modes(),
        project("allow tool star", "allow", &["Bash(*)"]),
        project("allow seq", "allow", &["Bash(seq:*)"]).in_all_modes(),
        project("allow readers", "allow", &["Bash(cat:*)", "Bash(grep:*)"]),
        project("deny prefix", "deny", PREFIX).in_all_modes(),
        project("deny program prefix", "deny", &["Bash(cargo:*)"]),
        project("deny exact", "deny", &["Bash(cargo test)"]),
        project("deny wildcard word", "deny", &["Bash(cargo test *)"]),
        project("deny tool", "deny", &["Bash"]),
        project("ask tool", "ask", &["Bash"]),
        project("deny seq", "deny", &["Bash(seq:*)"]).in_all_modes(),
        project("deny input field", "deny", &["Bash(description:*)"]),
        project("ask prefix", "ask", PREFIX).in_all_modes(),
        project("ask seq", "ask", &["Bash(seq:*)"]),
        project(
            "allow program, deny subcommand",
            "allow",
            &["Bash(cargo:*)"],
        )
        .with("project", "deny", &["Bash(cargo publish:*)"]),
        project("allow program, ask subcommand", "allow", &["Bash(cargo:*)"])
            .with("project", "ask", PREFIX),
        RuleSet::new("user allow prefix").with("user", "allow", PREFIX),
        RuleSet::new("local allow prefix").with("local", "allow", PREFIX),
        project("untrusted project allow prefix", "allow", PREFIX).untrusted(),
        RuleSet::new("untrusted local allow prefix")
            .with("local", "allow", PREFIX)
            .untrusted(),
        RuleSet::new("flag allow prefix").with("flag", "allow", PREFIX),
        RuleSet::new("user deny prefix").with("user", "deny", PREFIX),
        RuleSet::new("--allowedTools prefix")
            .args(&["--allowedTools", "Bash(cargo test:*)"])
            .in_all_modes(),
        RuleSet::new("--disallowedTools prefix")
            .args(&["--disallowedTools", "Bash(cargo test:*)"])
            .in_all_modes(),
        RuleSet::new("--tools without Bash").args(&["--tools", "Read"]),
        RuleSet::new("--allowedTools two, comma")
            .args(&["--allowedTools", "Bash(cargo test:*),Bash(npm run:*)"]),
    ]
}

const MODES: &[&str] = &[
    "default",
    "dontAsk",
    "acceptEdits",
    "bypassPermissions",
    "plan",
];

/// One client run of the matrix: a mode and a rule set, every command.
fn run_of(mode: &str, set: &RuleSet) -> Claude {
    let commands: Vec<&str> = COMMANDS.iter().map(|(c, _)| *c).collect();
    let mut run = Claude::new(mode, &commands);
    run.trusted = set.trusted;
    run.stubs = STUBS.iter().map(|s| s.to_string()).collect();
    run.args = set.args.iter().map(|a| a.to_string()).collect();
    for (scope, settings) in &set.settings {
        match *scope {
            "user" => run.user = Some(settings.clone()),
            "project" => run.project = Some(settings.clone()),
            "local" => run.local = Some(settings.clone()),
            "flag" => run.args.extend(["--settings".into(), settings.to_string()]),
            _ => unreachable!("unknown scope {scope}"),
        }
    }
    run
}

/// What the client did with one call: `ran`; `absent` (the model was not offered Bash, or got
/// no result); or why it refused: `deny` (a deny rule), `ask` (an ask rule: print mode cannot
/// prompt), `dontAsk` (no rule allowed it in `dontAsk` mode), or `prompt: REASON` (it would have
/// asked the user, for this reason; its first sentence).
fn outcome(transcript: &Transcript, call: &super::Call) -> String {
    let Some(content) = &call.content else {
        return "absent".into();
    };
    if !call.denied {
        return "ran".into();
    }
    let message = transcript.sanitize(content);
    if message.starts_with(
        "Permission to use Bash has been denied because Claude Code is running in don't ask mode",
    ) {
        return "dontAsk".into();
    }
    if message.starts_with("Permission to use Bash") && message.ends_with(" has been denied.") {
        return "deny".into();
    }
    if message == "Claude requested permissions to use Bash, but you haven't granted it yet." {
        return "ask".into();
    }
    let first = match message.find(". ") {
        Some(end) => &message[..=end],
        None => &message,
    };
    format!("prompt: {first}")
}

/// The `runs` entry of the fixture for `mode` and `set`, from a transcript.
fn recorded(mode: &str, set: &RuleSet, transcript: &Transcript) -> Value {
    let mut results = Map::new();
    for call in &transcript.calls {
        results.insert(call.command.clone(), outcome(transcript, call).into());
    }
    recorded_run(mode, set, results)
}

fn recorded_run(mode: &str, set: &RuleSet, results: Map<String, Value>) -> Value {
    let mut settings = Map::new();
    for (scope, value) in &set.settings {
        settings.insert(scope.to_string(), value.clone());
    }
    json!({
        "mode": mode,
        "rules": set.name,
        "settings": settings,
        "trusted": set.trusted,
        "args": set.args,
        "results": results,
    })
}

/// The fixture as text: one run per block, one command per line, so a re-recording shows as a
/// readable diff.
fn render(runs: &[Value]) -> String {
    let head = json!({
        "client": super::PACKAGE,
        "version": VERSION,
        "licence": "proprietary (Anthropic's Commercial Terms, see the package README); \
                    recorded here are only its permission decisions and refusal messages",
        "recorded_by": "CTXOFF_E2E=1 cargo test --test e2e record_claude_decisions -- --ignored",
        "how": "claude -p --output-format json --permission-mode MODE in a temporary HOME and \
                project (a git repository with one commit; settings.local.json not tracked), \
                driven by a mock model that calls Bash once per command in one turn; `ran`, or \
                why the call was refused (see tests/e2e/claude/record.rs)",
        "stubs": STUBS,
        "kinds": COMMANDS.iter().map(|(c, k)| (c.to_string(), Value::from(*k))).collect::<Map<_, _>>(),
    });
    let mut text = String::from("{\n");
    for (key, value) in head.as_object().unwrap() {
        text.push_str(&format!(
            "  {}: {},\n",
            Value::from(key.as_str()),
            compact_map(value)
        ));
    }
    text.push_str("  \"runs\": [\n");
    for (n, run) in runs.iter().enumerate() {
        text.push_str("    {\n");
        for key in ["mode", "rules", "settings", "trusted", "args"] {
            text.push_str(&format!("      \"{key}\": {},\n", run[key]));
        }
        text.push_str(&format!(
            "      \"results\": {}\n    }}{}\n",
            compact_map(&run["results"])
                .replace("\n  ", "\n        ")
                .replace("\n}", "\n      }"),
            if n + 1 < runs.len() { "," } else { "" }
        ));
    }
    text.push_str("  ]\n}\n");
    text
}

/// An object with one key per line; anything else on one line.
fn compact_map(value: &Value) -> String {
    match value.as_object() {
        Some(map) if map.len() > 1 => {
            let lines: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("  {}: {v}", Value::from(k.as_str())))
                .collect();
            format!("{{\n{}\n}}", lines.join(",\n"))
        }
        _ => value.to_string(),
    }
}

fn matrix() -> Vec<(&'static str, RuleSet)> {
    let mut cells = Vec::new();
    for mode in MODES {
        for set in rule_sets() {
            if set.all_modes || matches!(*mode, "default" | "dontAsk") {
                cells.push((*mode, set));
            }
        }
    }
    cells
}

#[test]
#[ignore = "re-records tests/fixtures/claude-code/decisions.json against the real client (minutes)"]
fn record_claude_decisions() {
    if !crate::enabled("claude") {
        return;
    }
    let cells = matrix();
    let jobs = cells
        .iter()
        .map(|(mode, set)| move || recorded(mode, set, &run_of(mode, set).run()))
        .collect();
    let runs = run_parallel(jobs, parallelism());
    let path = fixture("decisions.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, render(&runs)).unwrap();
    eprintln!("recorded {} runs to {}", runs.len(), path.display());
}

/// The fixture holds exactly the runs and commands of the matrix above (no client needed).
#[test]
fn fixture_matches_the_matrix() {
    let fixture: Value = read_fixture("decisions.json");
    let recorded: Vec<Value> = fixture["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| {
            let mut run = run.clone();
            let results = run.as_object_mut().unwrap().remove("results").unwrap();
            let commands: Vec<&String> = results.as_object().unwrap().keys().collect();
            let expected: Vec<&str> = COMMANDS.iter().map(|(c, _)| *c).collect();
            assert_eq!(commands, expected, "{} × {}", run["mode"], run["rules"]);
            run
        })
        .collect();
    let matrix: Vec<Value> = matrix()
        .iter()
        .map(|(mode, set)| {
            let mut run = recorded_run(mode, set, Map::new());
            run.as_object_mut().unwrap().remove("results");
            run
        })
        .collect();
    assert_eq!(recorded, matrix);
}

/// A few recorded runs, replayed against the client: the fixture still describes the pinned
/// version.
#[test]
fn recorded_decisions_still_hold() {
    if !crate::enabled("claude") {
        return;
    }
    let fixture: Value = read_fixture("decisions.json");
    assert_eq!(fixture["version"], VERSION);
    let chosen = [
        ("default", "allow prefix"),
        ("dontAsk", "allow prefix"),
        ("bypassPermissions", "deny prefix"),
    ];
    let cells: Vec<(&str, RuleSet)> = matrix()
        .into_iter()
        .filter(|(mode, set)| chosen.contains(&(*mode, set.name)))
        .collect();
    assert_eq!(cells.len(), chosen.len());
    let jobs = cells
        .iter()
        .map(|(mode, set)| move || recorded(mode, set, &run_of(mode, set).run()))
        .collect();
    for run in run_parallel(jobs, parallelism()) {
        let was = fixture["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["mode"] == run["mode"] && r["rules"] == run["rules"])
            .expect("the run is in the fixture");
        assert_eq!(
            run["results"], was["results"],
            "{} × {}",
            run["mode"], run["rules"]
        );
    }
}
