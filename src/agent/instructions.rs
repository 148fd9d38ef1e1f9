//! `ctxoff init --print [AGENT]`: the instruction snippet that teaches an agent the `ctxoff`
//! prefix and the read-back commands, for agents with no usable hook (and, for those with one, to
//! teach the read-back commands). The snippet goes to stdout as the file it belongs in wants it
//! (Cursor's rule files need their front matter first); which file that is goes to stderr, so
//! `ctxoff init --print cursor > .cursor/rules/ctxoff.mdc` saves just the snippet.

use std::io::Write;

/// The AGENTS.md / CLAUDE.md snippet printed by `ctxoff init --print`.
pub(crate) const SNIPPET: &str = r#"## Long command output: ctxoff

Prefix shell commands whose output may be long with `ctxoff`: `ctxoff cargo test`,
`ctxoff npm run build`. Use `ctxoff -- CMD` when CMD is named `lines`, `list`, `gc` or `count`.
Small output passes through unchanged and the exit status is always the command's.

Large output is saved to a file and you get a summary instead: the first and last lines, how
many lines and tokens were left out, counts of error/warning/panic lines among them (with the
first few), test and compiler totals when recognised, and the file's path. The numbers are
exact. The summary is not the whole output: when it reports failures in omitted lines, read
them before drawing conclusions.

Read more of a saved output (REF is the path from the summary, `@last` for the latest, or a
name like `cargo_4`):

- `ctxoff lines REF 120:180` — lines 120 to 180 (`-50:` for the last 50)
- `ctxoff grep REF 'REGEX' -C 3` — matching lines with 3 lines of context
- `ctxoff list` — the outputs saved in this session
"#;

/// An agent and the instruction file it reads.
struct Target {
    name: &'static str,
    agent: &'static str,
    /// Where the snippet goes, said to the user.
    file: &'static str,
    /// Text before the snippet (front matter).
    front: &'static str,
}

const TARGETS: &[Target] = &[
    Target {
        name: "agents",
        agent: "agents that read AGENTS.md (Codex CLI, opencode, Amp, Jules, Zed…)",
        file: "append it to AGENTS.md at the project root: ctxoff init --print >> AGENTS.md",
        front: "",
    },
    Target {
        name: "claude",
        agent: "Claude Code",
        file: "append it to CLAUDE.md: ctxoff init --print claude >> CLAUDE.md",
        front: "",
    },
    Target {
        name: "codex",
        agent: "Codex CLI",
        file: "append it to AGENTS.md (or ~/.codex/AGENTS.md for every project)",
        front: "",
    },
    Target {
        name: "gemini",
        agent: "Gemini CLI",
        file: "append it to GEMINI.md (or ~/.gemini/GEMINI.md for every project)",
        front: "",
    },
    Target {
        name: "opencode",
        agent: "opencode",
        file: "append it to AGENTS.md (or ~/.config/opencode/AGENTS.md for every project)",
        front: "",
    },
    Target {
        name: "cursor",
        agent: "Cursor",
        file: "save it as a project rule: ctxoff init --print cursor > .cursor/rules/ctxoff.mdc",
        front: "---\ndescription: Long command output through ctxoff\nalwaysApply: true\n---\n\n",
    },
    Target {
        name: "copilot",
        agent: "GitHub Copilot",
        file: "append it to .github/copilot-instructions.md",
        front: "",
    },
    Target {
        name: "aider",
        agent: "Aider",
        file: "save it as CONVENTIONS.md and load it with `aider --read CONVENTIONS.md` \
               (or `read: CONVENTIONS.md` in .aider.conf.yml)",
        front: "",
    },
    Target {
        name: "windsurf",
        agent: "Windsurf",
        file: "save it as a workspace rule: ctxoff init --print windsurf > .windsurf/rules/ctxoff.md",
        front: "---\ntrigger: always_on\n---\n\n",
    },
    Target {
        name: "cline",
        agent: "Cline",
        file: "save it in the rules folder: ctxoff init --print cline > .clinerules/ctxoff.md",
        front: "",
    },
];

/// The names `--print` takes.
pub(crate) fn names() -> impl Iterator<Item = &'static str> {
    TARGETS.iter().map(|t| t.name)
}

/// Prints the snippet for `agent` (`None`: the AGENTS.md one) to `out`, and where it goes to
/// `err`. An unknown name is an error listing the known ones.
pub(crate) fn print(
    agent: Option<&str>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> anyhow::Result<()> {
    let name = agent.unwrap_or("agents");
    let Some(target) = TARGETS.iter().find(|t| t.name == name) else {
        let known: Vec<&str> = names().collect();
        return Err(crate::error::Failure::new(
            2,
            format!("no instructions for '{name}'; known: {}", known.join(", ")),
        )
        .into());
    };
    out.write_all(target.front.as_bytes())?;
    out.write_all(SNIPPET.as_bytes())?;
    writeln!(err, "ctxoff: for {}, {}", target.agent, target.file)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(agent: Option<&str>) -> (String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        print(agent, &mut out, &mut err).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn every_agent_gets_the_snippet_and_where_it_goes() {
        for name in names() {
            let (out, err) = printed(Some(name));
            assert!(out.ends_with(SNIPPET), "{name}");
            assert!(
                err.starts_with("ctxoff: for ") && err.lines().count() == 1,
                "{err}"
            );
        }
        let (out, err) = printed(None);
        assert_eq!(out, SNIPPET);
        assert!(err.contains("AGENTS.md"), "{err}");
        let (cursor, err) = printed(Some("cursor"));
        assert!(cursor.starts_with("---\ndescription:"), "{cursor}");
        assert!(err.contains(".cursor/rules/ctxoff.mdc"), "{err}");
    }

    #[test]
    fn an_unknown_agent_lists_the_known_ones() {
        let err = print(Some("vim"), &mut Vec::new(), &mut Vec::new()).unwrap_err();
        let message = err.to_string();
        assert!(
            message.contains("'vim'") && message.contains("cursor"),
            "{message}"
        );
    }
}
