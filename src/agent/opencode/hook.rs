//! `ctxoff hook opencode`: what ctxoff's opencode plugin asks, answered. The plugin (see
//! `install`) passes each `bash` tool call as JSON and applies the answer; the decisions are made
//! here.
//!
//! Before the call (`tool.execute.before`), with the running agent's ruleset as the client's API
//! lists it:
//!
//! ```json
//! {"hook": "tool.execute.before", "tool": "bash", "sessionID": "ses_…", "callID": "…",
//!  "args": {"command": "cargo test", "description": "…"},
//!  "agent": "build", "permission": [{"permission": "*", "pattern": "*", "action": "allow"}, …]}
//! ```
//!
//! the answer is `{"args": {…}}` (every argument, the command rewritten) where the verdict allows
//! it, else `{}`. After the call (`tool.execute.after`, with the `output` the client gave the
//! plugin), a large output of a command that was not rewritten is saved and summarised, and the
//! answer is `{"output": "<summary>"}`, which the model then gets instead. Only an output the
//! client did not cut: the file it saves a cut output to (`metadata.outputPath`) does not always
//! hold all of it (measured: its start can be missing), and a summary must be of the whole.

use std::path::PathBuf;

use serde_json::{Value, json};

use super::{Verdict, rules_from_ruleset, verdict};
use crate::agent::Agent;
use crate::agent::offload::{self, Finished};
use crate::agent::rewrite::{self, Call};
use crate::config::Settings;

/// What the hook uses from its process.
#[derive(Debug, Clone, Default)]
pub(crate) struct Env {
    pub path: Option<std::ffi::OsString>,
    pub ctxoff: Option<PathBuf>,
    /// Where offloads after the fact are recorded for `ctxoff stats` (`None`: nowhere).
    pub history: Option<PathBuf>,
}

impl Env {
    /// The process's, with the history in `history`.
    pub(crate) fn from_process(history: Option<&std::path::Path>) -> Env {
        Env {
            path: std::env::var_os("PATH").filter(|v| !v.is_empty()),
            ctxoff: crate::agent::wrap::ctxoff_path(),
            history: history.map(Into::into),
        }
    }
}

/// The answer to the plugin's `call`, or why there is nothing to change.
pub(crate) fn answer(call: &str, settings: Option<&Settings>, env: &Env) -> Result<Value, String> {
    let call: Value = serde_json::from_str(call).map_err(|_| "the call is not JSON")?;
    if call["tool"] != "bash" {
        return Err("not the bash tool".into());
    }
    let tool = Call::new(
        &call["args"],
        &call["sessionID"],
        settings,
        env.ctxoff.as_deref(),
    )?;
    let command = tool.command;
    match call["hook"].as_str() {
        Some("tool.execute.before") => {
            let rules = rules_from_ruleset(&call["permission"])?;
            let rewritten = tool
                .rewrite(Agent::Opencode, env.path.as_deref())
                .ok_or("not a command worth wrapping")?;
            match verdict(&rules, command, &rewritten) {
                Verdict::MayRewrite => {}
                Verdict::Rule { action, pattern } => {
                    return Err(format!(
                        "the rule {pattern:?} decides it: {}",
                        action.name()
                    ));
                }
                Verdict::Unsure(why) => return Err(why.into()),
            }
            Ok(json!({"args": tool.args_with(rewritten)}))
        }
        Some("tool.execute.after") => {
            if rewrite::is_rewritten(command) {
                return Err("ctxoff ran it already".into());
            }
            let output = whole_output(&call["output"])?;
            let mut settings = tool.settings.clone();
            settings.session = Some(tool.session);
            let note = after_the_fact(&call["output"]["metadata"]);
            let finished = Finished {
                agent: Agent::Opencode,
                command,
                note: &note,
            };
            let history = env.history.as_deref();
            let summary = offload::offload(&finished, &mut output.as_slice(), &settings, history)
                .map_err(|why| why.to_string())?;
            Ok(json!({"output": summary}))
        }
        _ => Err("an unknown hook".into()),
    }
}

/// What a summary made after the fact cannot know, said in its note: the exit status only as
/// the client reported it, the two streams as the client merged them.
fn after_the_fact(metadata: &Value) -> String {
    let status = match metadata["exit"].as_i64() {
        Some(code) => format!("exit status {code} as opencode reported it"),
        None => "no exit status".to_owned(),
    };
    format!(
        "saved from opencode's result, not run by ctxoff: {status}, stdout and stderr merged as \
         the client gave them"
    )
}

/// The whole output of a finished call: what the client passed, unless it cut it.
fn whole_output(output: &Value) -> Result<Vec<u8>, String> {
    if output["metadata"]["truncated"] != false {
        return Err("the client cut the output, and may not have saved all of it".into());
    }
    output["output"]
        .as_str()
        .map(|s| s.as_bytes().to_vec())
        .ok_or_else(|| "the call has no output".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    const CTXOFF: &str = "/usr/local/bin/ctxoff";

    fn setup() -> (tempfile::TempDir, Env, Settings) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        for program in ["cargo", "seq"] {
            let file = dir.path().join(program);
            std::fs::write(&file, "").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        let env = Env {
            path: Some(dir.path().as_os_str().to_owned()),
            ctxoff: Some(PathBuf::from(CTXOFF)),
            history: None,
        };
        let settings = Settings::at("/tmp/agent");
        (dir, env, settings)
    }

    fn before(command: &str, permission: Value) -> String {
        json!({"hook": "tool.execute.before", "tool": "bash", "sessionID": "ses_1",
               "callID": "call_0", "args": {"command": command, "description": "Run it"},
               "agent": "build", "permission": permission})
        .to_string()
    }

    fn ruleset(bash: &[(&str, &str)]) -> Value {
        let mut rules = vec![json!({"permission": "*", "pattern": "*", "action": "allow"})];
        rules.extend(
            bash.iter()
                .map(|(p, a)| json!({"permission": "bash", "pattern": p, "action": a})),
        );
        Value::Array(rules)
    }

    #[test]
    fn rewrites_what_only_a_catch_all_allow_decides() {
        let (_dir, env, settings) = setup();
        let answer = |command: &str, permission: Value| {
            answer(&before(command, permission), Some(&settings), &env)
        };
        assert_eq!(
            answer("cargo test", ruleset(&[])),
            Ok(json!({"args": {
                "command": format!("CTXOFF_SESSION=ses_1 CTXOFF_AGENT=opencode {CTXOFF} -- cargo test"),
                "description": "Run it"}}))
        );
        assert!(
            answer(
                "cargo test",
                ruleset(&[("*", "allow"), ("git push *", "deny")])
            )
            .is_ok()
        );
        for bash in [
            &[("cargo *", "allow")][..],
            &[("cargo test*", "deny")],
            &[("*", "ask")],
            &[("*ctxoff*", "deny")],
        ] {
            assert!(answer("cargo test", ruleset(bash)).is_err(), "{bash:?}");
        }
        assert!(answer("cargo test", json!("allow")).is_err());
        assert!(answer("cargo test", Value::Null).is_err());
        assert!(answer("cargo test && ls", ruleset(&[])).is_err());
        assert!(super::answer(&before("cargo test", ruleset(&[])), None, &env).is_err());
    }

    #[test]
    fn takes_only_outputs_the_client_did_not_cut() {
        let whole = json!({"output": "1\n2\n", "metadata": {"truncated": false, "exit": 3}});
        assert_eq!(whole_output(&whole).unwrap(), b"1\n2\n");
        let cut = json!({"output": "…the end\n", "metadata": {"truncated": true,
            "outputPath": "/home/ana/.local/share/opencode/tool-output/tool_1", "exit": 0}});
        assert!(whole_output(&cut).is_err());
        assert!(whole_output(&json!({"output": "x", "metadata": {}})).is_err());
    }

    #[test]
    fn after_a_rewritten_command_nothing_changes() {
        let (_dir, env, settings) = setup();
        let call = json!({"hook": "tool.execute.after", "tool": "bash", "sessionID": "ses_1",
            "callID": "c", "args": {"command": format!("CTXOFF_SESSION=ses_1 {CTXOFF} -- seq 1 9")},
            "output": {"output": "[ctxoff] …", "metadata": {"truncated": false}}});
        assert!(answer(&call.to_string(), Some(&settings), &env).is_err());
    }
}
