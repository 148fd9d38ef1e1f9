//! Offloading after the fact: an agent's hook that is handed the output of a command that already
//! ran (Claude Code's `PostToolUse`, opencode's `tool.execute.after`) stores a large one in the
//! session like any capture, through run mode's own pipeline (`run::Recorder`), and gets the
//! summary to show the agent instead. What such an output cannot tell (its exit status, its two
//! streams apart) is the caller's to say, in the note the summary carries.

use std::io::Read;
use std::path::Path;

use crate::config::Settings;
use crate::run::capture::{Ending, Sink, Stream};
use crate::run::content::Limit;
use crate::run::{Job, Outcome, Recorder};
use crate::summary::{self, NotablePatterns, Origin};

use super::Agent;
use super::wrap::{kept_by, runs_ctxoff};

/// A finished command whose output an agent holds.
pub(crate) struct Finished<'a> {
    /// The agent that ran it: what it keeps whole decides whether content it read is left to it.
    pub agent: Agent,
    /// The command line as the agent ran it.
    pub command: &'a str,
    /// One line for the summary: what is not known about this output.
    pub note: &'a str,
}

/// Why an output is left to the agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Left {
    /// The command ran ctxoff: its output is a summary already, or small.
    RanCtxoff,
    /// This `keep` pattern matches one of its commands.
    Kept(String),
    /// It passes through: at or under the threshold, or content within the content limit that
    /// the agent keeps whole.
    Small,
    /// It could not be read or saved.
    Failed(String),
}

impl std::fmt::Display for Left {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Left::RanCtxoff => f.write_str("the command ran ctxoff"),
            Left::Kept(pattern) => write!(f, "the `keep` pattern `{pattern}` matches"),
            Left::Small => f.write_str("the output is small enough to pass through"),
            Left::Failed(why) => f.write_str(why),
        }
    }
}

/// Whether the output of `command` may be replaced by a summary at all.
pub(crate) fn may_offload(command: &str, keep: &[String]) -> Result<(), Left> {
    if runs_ctxoff(command) {
        return Err(Left::RanCtxoff);
    }
    match kept_by(command, keep) {
        Some(pattern) => Err(Left::Kept(pattern.to_owned())),
        None => Ok(()),
    }
}

/// Saves `output` in the session of `settings` when it is over the threshold, and returns the
/// summary that replaces it, recorded in the history in `history` (`None`: nowhere) as run
/// mode's are. Memory stays bounded as in run mode: the output is read in blocks.
pub(crate) fn offload(
    finished: &Finished,
    output: &mut dyn Read,
    settings: &Settings,
    history: Option<&Path>,
) -> Result<String, Left> {
    may_offload(finished.command, &settings.keep)?;
    let argv = match crate::command::lex::simple_command(finished.command) {
        Ok(cmd) => cmd.words,
        // What the agent's shell ran: the whole line.
        Err(_) => vec!["bash".into(), "-c".into(), finished.command.into()],
    };
    let name = crate::command::output_name(
        &argv
            .iter()
            .map(std::ffi::OsString::from)
            .collect::<Vec<_>>(),
    );
    let notable =
        NotablePatterns::new(&settings.notable).map_err(|e| Left::Failed(e.to_string()))?;
    let limit = Limit::for_command(settings, &argv, Some(finished.agent.keeps()));
    let mut recorder = Recorder::new(Job {
        settings: settings.clone(),
        progress: None,
        name: name.clone(),
        argv,
        notable,
        print_unsaved: false,
        limit,
        // The client's stdout and stderr, as it merged them: not known to be in the order the
        // command wrote them.
        order: crate::store::ORDER_PER_STREAM,
    });
    let mut block = vec![0; 256 * 1024];
    let read = loop {
        match output.read(&mut block) {
            Ok(0) => break Ok(()),
            Ok(n) => recorder.output(Stream::Stdout, &block[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => break Err(e),
        }
    };
    // The agent ran the command and reported it finished: no exit status, no signal.
    let outcome = recorder.finish(&Ending::default());
    read.map_err(|e| Left::Failed(format!("cannot read the output: {e}")))?;
    match outcome {
        Outcome::PassThrough(_) => Err(Left::Small),
        Outcome::Unsaved { error } => Err(Left::Failed(error)),
        Outcome::Offloaded(off) => {
            let origin = Origin {
                command: Some(finished.command),
                name: &name,
            };
            let text = summary::render(&origin, &off.saved(None));
            // The note goes right under the header line, before anything is read as output.
            let (header, rest) = text.split_once('\n').unwrap_or((&text, ""));
            let summary = format!("{header}\n[ctxoff] note: {}\n{rest}", finished.note);
            off.record(history, &summary);
            Ok(summary)
        }
    }
}

/// The name an output of the shell command line `command` gets: its first program's (`cargo`
/// for `cargo test 2>&1 | tail`), `shell` when it has none.
pub(crate) fn output_name(command: &str) -> String {
    crate::command::lex::list_commands(command)
        .first()
        .map(|c| {
            let words: Vec<std::ffi::OsString> = c.words.iter().map(Into::into).collect();
            crate::command::output_name(&words)
        })
        .unwrap_or_else(|| "shell".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn settings(root: PathBuf) -> Settings {
        Settings {
            threshold: 100,
            preview: 40,
            content_limit: 100,
            session: Some("offload-test".into()),
            keep: vec!["git diff*".into()],
            ..Settings::at(root)
        }
    }

    fn numbers(n: u32) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    /// Saved, summarised with the note, and recorded for `ctxoff stats` like run mode's
    /// offloads: the summary's tokens are those of the text returned.
    #[test]
    fn a_large_output_is_saved_in_the_session_summarised_with_the_note_and_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let s = settings(dir.path().join("root"));
        let history = dir.path().join("history");
        let finished = Finished {
            agent: Agent::Claude,
            command: "seq 1 2000 | sed 's/^/line /'",
            note: "what is not known",
        };
        let output = numbers(2000);
        let summary = offload(&finished, &mut output.as_bytes(), &s, Some(&history)).unwrap();
        let lines: Vec<&str> = summary.lines().collect();
        assert!(
            lines[0].starts_with("[ctxoff] `seq 1 2000 | sed 's/^/line /'` ended · 2,000 lines · "),
            "{summary}"
        );
        assert_eq!(lines[1], "[ctxoff] note: what is not known");
        assert_eq!(lines[2], "line 1");
        let saved = dir.path().join("root/offload-test/seq_1.txt");
        assert_eq!(std::fs::read_to_string(&saved).unwrap(), output);
        assert!(summary.contains(&saved.display().to_string()), "{summary}");
        let manifest =
            std::fs::read_to_string(dir.path().join("root/offload-test/index.jsonl")).unwrap();
        assert!(manifest.contains(r#""argv":["bash","-c","seq 1 2000 | sed 's/^/line /'"]"#));
        let text = std::fs::read_to_string(history.join("history.jsonl")).unwrap();
        let (records, unreadable) = crate::history::records(&text);
        assert!(unreadable.is_empty());
        let tokenizer = crate::tokens::Tokenizer::load(s.encoding);
        match records.as_slice() {
            [crate::history::Record::Offload(o)] => {
                assert_eq!(
                    (o.session.as_str(), o.output.as_str(), o.command.as_str()),
                    ("offload-test", "seq_1", "seq")
                );
                assert_eq!(o.output_tokens, tokenizer.count(&output));
                assert_eq!(o.summary_tokens, tokenizer.count(&summary));
            }
            other => panic!("one offload expected: {other:?}"),
        }
    }

    /// Content the command was run to read passes through after the fact as in run mode: up to
    /// the content limit, if the agent that ran it keeps it whole (Claude Code 30,000
    /// characters, Codex 10,000 bytes); another command's output is offloaded.
    #[test]
    fn content_read_is_left_to_an_agent_that_keeps_it_whole() {
        let dir = tempfile::tempdir().unwrap();
        let s = Settings {
            threshold: 100,
            content_limit: 100_000,
            ..settings(dir.path().join("root"))
        };
        let text = numbers(2_000); // 17,893 bytes: over Codex's 10,000, under Claude's 30,000
        let left = |agent, command| {
            let finished = Finished {
                agent,
                command,
                note: "",
            };
            offload(&finished, &mut text.as_bytes(), &s, None).err()
        };
        assert_eq!(left(Agent::Claude, "cat notes.txt"), Some(Left::Small));
        assert_eq!(left(Agent::Codex, "cat notes.txt"), None, "offloaded");
        assert_eq!(left(Agent::Claude, "sort notes.txt"), None, "offloaded");
    }

    #[test]
    fn small_kept_and_ctxoff_outputs_are_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let s = settings(dir.path().join("root"));
        let history = dir.path().join("history");
        let large = numbers(2000);
        for (command, output, left) in [
            ("seq 1 3", "1\n2\n3\n".to_string(), Left::Small),
            (
                "git diff HEAD~3",
                large.clone(),
                Left::Kept("git diff*".into()),
            ),
            (
                "git diff | head -5000",
                large.clone(),
                Left::Kept("git diff*".into()),
            ),
            (
                "CTXOFF_SESSION=x CTXOFF_AGENT=claude /usr/bin/ctxoff -- make",
                large.clone(),
                Left::RanCtxoff,
            ),
            (
                "make; ctxoff lines @last 1:9000",
                large.clone(),
                Left::RanCtxoff,
            ),
        ] {
            let finished = Finished {
                agent: Agent::Claude,
                command,
                note: "",
            };
            assert_eq!(
                offload(&finished, &mut output.as_bytes(), &s, Some(&history)),
                Err(left),
                "{command}"
            );
        }
        assert!(!dir.path().join("root").exists(), "nothing was stored");
        assert!(!history.exists(), "nothing was recorded");
    }

    #[test]
    fn names_outputs_after_their_first_program() {
        assert_eq!(output_name("cargo test 2>&1 | tail"), "cargo");
        assert_eq!(output_name("RUST_LOG=1 cargo test"), "cargo");
        assert_eq!(output_name("(cd x)"), "shell");
    }
}
