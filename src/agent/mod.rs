//! Agent integrations: the hooks that run an agent's shell commands through ctxoff.

pub(crate) mod claude;
pub mod codex;
pub mod gemini;
pub(crate) mod install;
pub(crate) mod instructions;
pub(crate) mod offload;
pub mod opencode;
pub(crate) mod rewrite;
pub(crate) mod wrap;

use crate::run::content::Keeps;

/// An agent ctxoff integrates with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    Gemini,
    Opencode,
}

impl Agent {
    pub(crate) const ALL: [Agent; 4] =
        [Agent::Claude, Agent::Codex, Agent::Gemini, Agent::Opencode];

    /// The agent named by `CTXOFF_AGENT`; `None` when unset or unknown (plain use).
    pub(crate) fn from_env() -> Option<Agent> {
        Agent::named(&std::env::var("CTXOFF_AGENT").ok()?)
    }

    /// The agent `CTXOFF_AGENT` calls `name`.
    pub(crate) fn named(name: &str) -> Option<Agent> {
        Agent::ALL.into_iter().find(|agent| agent.name() == name)
    }

    /// Its name in `CTXOFF_AGENT`, on ctxoff's command line and in its files.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Opencode => "opencode",
        }
    }

    /// What the agent keeps whole of one output, as measured against the real clients:
    ///
    /// | agent       | keeps whole                                                  |
    /// |-------------|--------------------------------------------------------------|
    /// | Codex       | 10,000 bytes (then 5 KB head + 5 KB tail)                    |
    /// | Claude Code | 30,000 characters; a failing command's first 10,000 only     |
    /// | Gemini CLI  | 40,000 characters (then 8,000 + 32,000)                      |
    /// | opencode    | 2,000 lines (then the last 2,000)                            |
    pub(crate) fn keeps(self) -> Keeps {
        match self {
            Agent::Codex => Keeps {
                bytes: Some(10_000),
                ..Keeps::default()
            },
            Agent::Claude => Keeps {
                chars: Some(30_000),
                failing_chars: Some(10_000),
                ..Keeps::default()
            },
            Agent::Gemini => Keeps {
                chars: Some(40_000),
                ..Keeps::default()
            },
            Agent::Opencode => Keeps {
                lines: Some(2_000),
                ..Keeps::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::content::Limit;

    #[test]
    fn agents_by_name() {
        for agent in Agent::ALL {
            assert_eq!(Agent::named(agent.name()), Some(agent));
        }
        assert_eq!(Agent::named("cursor"), None);
    }

    #[test]
    fn never_more_than_the_agent_keeps_whole() {
        let s = crate::config::Settings {
            content_limit: 50_000,
            ..crate::config::Settings::at("/nonexistent")
        };
        let limit = |agent: Agent| {
            Limit::for_command(&s, &["cat".into(), "notes.md".into()], Some(agent.keeps()))
        };
        let ascii = b"abcdefghi\n".repeat(1_500); // 15,000 bytes, chars, 1,500 lines
        assert!(!limit(Agent::Codex).passes(3_000, &ascii, false));
        assert!(limit(Agent::Codex).passes(2_500, &ascii, false));
        assert!(limit(Agent::Claude).passes(3_000, &ascii, false));
        assert!(!limit(Agent::Claude).passes(3_000, &ascii, true));
        assert!(limit(Agent::Gemini).passes(3_000, &ascii, true));
        assert!(limit(Agent::Opencode).passes(3_000, &ascii, false));
        let many_lines = b"x\n".repeat(2_001);
        assert!(!limit(Agent::Opencode).passes(3_000, &many_lines, false));
        // 40,000 characters of 2 bytes each are 80,000 bytes, and still kept by Gemini CLI.
        let wide = "é".repeat(40_000);
        assert!(limit(Agent::Gemini).passes(3_000, wide.as_bytes(), false));
        assert!(!limit(Agent::Gemini).passes(3_000, format!("{wide}é").as_bytes(), false));
    }
}
