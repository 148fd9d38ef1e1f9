//! The parts of an output that are each one package's or process's own run: the lines behind one
//! name of a runner's prefix (turbo's `zod:test: `, pnpm's `packages/qs test: `, concurrently's
//! `[lint] `, honcho's `web.1  | `), or the lines after each of a runner's banners (npm's
//! `> zod@4.6.7 test`, as `npm test --workspaces` and lerna print before each package's run;
//! tox's `py: commands[0]> pytest`; pre-commit's `black.........Failed`).
//!
//! Each part gets shapes of its own, so that four test runners in one output are read as four
//! runs (each with its totals and failures, and named) rather than one. The whole output is
//! read as before too: its facts stand where no part's do, and always for what the runner
//! itself states (which tasks failed).

use super::analysis::{Slot, facts_of, read, slots};
use super::shapes::{Fact, Source};

/// Parts read at most: an output of more names than this is read whole only (a part left
/// unread would lose its facts where the whole's are replaced).
const MOST: usize = 16;

struct Part {
    name: String,
    slots: Vec<Slot>,
}

/// The parts of one output while it streams.
pub(crate) struct Sections {
    source: Source,
    parts: Vec<Part>,
    /// The part the last banner began.
    current: Option<usize>,
    /// More names came than [`MOST`].
    overflowed: bool,
}

impl Sections {
    pub(crate) fn new(source: &Source) -> Sections {
        Sections {
            source: source.clone(),
            parts: Vec::new(),
            current: None,
            overflowed: false,
        }
    }

    /// A line without its prefix, with the prefix's name (`""` when it has none).
    pub(crate) fn line(&mut self, number: u64, text: &str, name: &str) {
        let at = if !name.is_empty() {
            self.part(name)
        } else if let Some(package) = banner(text) {
            self.current = self.part(package);
            self.current
        } else {
            self.current
        };
        if let Some(at) = at {
            read(&mut self.parts[at].slots, number, text);
        }
    }

    /// The part named `name`, begun now if it is new and there is room.
    fn part(&mut self, name: &str) -> Option<usize> {
        if let Some(at) = self.parts.iter().position(|p| p.name == name) {
            return Some(at);
        }
        if self.parts.len() == MOST {
            self.overflowed = true;
            return None;
        }
        self.parts.push(Part {
            name: name.to_owned(),
            slots: slots(&self.source),
        });
        Some(self.parts.len() - 1)
    }

    /// Each part's facts, each named after its part, when two parts or more had any (else
    /// nothing: the whole output's facts say it all). What a runner states about its tasks is
    /// the whole output's to state.
    pub(crate) fn conclude(self) -> Vec<Fact> {
        if self.overflowed || self.parts.len() < 2 {
            return Vec::new();
        }
        let parts: Vec<(String, Vec<Fact>)> = self
            .parts
            .into_iter()
            .map(|part| {
                let mut facts = facts_of(part.slots);
                facts.retain(|f| !f.runner);
                (part.name, facts)
            })
            .filter(|(_, facts)| !facts.is_empty())
            .collect();
        if parts.len() < 2 {
            return Vec::new();
        }
        parts
            .into_iter()
            .flat_map(|(name, facts)| facts.into_iter().map(move |f| f.in_section(&name)))
            .collect()
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.parts
            .iter()
            .map(|p| {
                p.name.capacity()
                    + p.slots
                        .iter()
                        .map(|s| s.shape.approx_heap() + 16)
                        .sum::<usize>()
            })
            .sum()
    }
}

/// The section a line begins, by the banner a runner prints before each of its runs: npm's
/// script banner (see [`npm_banner`]), tox's `py: commands[0]> pytest` (tox 3: `py run-test:
/// commands[0] | pytest`), pre-commit's `black.......Failed` (a hook's run follows its line).
fn banner(text: &str) -> Option<&str> {
    match text.as_bytes().first()? {
        b'>' => npm_banner(text),
        _ => tox_banner(text).or_else(|| hook_banner(text)),
    }
}

fn tox_banner(text: &str) -> Option<&str> {
    // Read from the first word only: most lines are no banner.
    let at = text
        .bytes()
        .take_while(|c| c.is_ascii_alphanumeric() || b"._-".contains(c))
        .count();
    let rest = &text[at..];
    let banner = rest.starts_with(": commands[") || rest.starts_with(" run-test: commands[");
    (at > 0 && banner).then_some(&text[..at])
}

fn hook_banner(text: &str) -> Option<&str> {
    if !text.ends_with('d') {
        return None;
    }
    let rest = text
        .strip_suffix("Passed")
        .or_else(|| text.strip_suffix("Failed"))
        .or_else(|| text.strip_suffix("Skipped"))?;
    let rest = rest.strip_suffix("(no files to check)").unwrap_or(rest);
    let name = rest.trim_end_matches('.');
    (rest.len() - name.len() >= 3 && !name.trim().is_empty()).then(|| name.trim())
}

/// The package whose script npm's banner says starts: `> zod@4.6.7 test`, `> @acme/ui@1.0.0
/// test /home/dev/acme/packages/ui` (a name, `@` and a version, the script, and the path
/// npm 6 and pnpm add).
fn npm_banner(text: &str) -> Option<&str> {
    let rest = text.strip_prefix("> ")?;
    let scoped = usize::from(rest.starts_with('@'));
    let at = scoped + rest[scoped..].find('@')?;
    let package = &rest[..at];
    let name_ok = at > scoped
        && package[scoped..]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"._-/".contains(&c));
    let mut words = rest[at + 1..].split(' ');
    let version = words.next()?;
    let version_ok = version.starts_with(|c: char| c.is_ascii_digit())
        && version
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b".+-".contains(&c));
    let script = words.next().filter(|s| !s.is_empty())?;
    let rest_ok = words.next().is_none_or(|path| path.starts_with('/')) && words.next().is_none();
    let script_ok = !script.starts_with('-');
    (name_ok && version_ok && script_ok && rest_ok).then_some(package)
}

#[cfg(test)]
mod tests {
    use super::banner;

    #[test]
    fn npms_script_banner_names_the_package() {
        for (line, package) in [
            ("> zod@4.6.7 test", Some("zod")),
            (
                "> papaparse@5.7.1 test /home/dev/libs-monorepo/packages/papaparse",
                Some("papaparse"),
            ),
            ("> @acme/ui@1.0.0-beta.1 test:unit", Some("@acme/ui")),
            // The command under the banner, a quote, an email address.
            ("> vitest run", None),
            ("> see foo@bar.com for more", None),
            ("> a@1.0", None),
            ("zod@4.6.7 test", None),
            ("> @1.0.0 test", None),
        ] {
            assert_eq!(banner(line), package, "{line}");
        }
    }

    #[test]
    fn tox_and_pre_commit_banners_name_the_environment_and_the_hook() {
        for (line, section) in [
            ("py: commands[0]> pytest --cov", Some("py")),
            (
                "ruff-format: commands[1]> ruff format --diff -q",
                Some("ruff-format"),
            ),
            ("py311 run-test: commands[0] | pytest", Some("py311")),
            (
                "trim trailing whitespace.................................................Failed",
                Some("trim trailing whitespace"),
            ),
            (
                "mypy.............................................(no files to check)Skipped",
                Some("mypy"),
            ),
            ("check toml.......Passed", Some("check toml")),
            // A test's line, a sentence.
            ("tests/test_a.py::test_b PASSED", None),
            ("All checks Passed", None),
            ("see the docs: commands[0] is the first", None),
        ] {
            assert_eq!(banner(line), section, "{line}");
        }
    }
}
