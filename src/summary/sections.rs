//! The parts of an output that are each one package's or process's own run: the lines behind one
//! name of a runner's prefix (turbo's `zod:test: `, pnpm's `packages/qs test: `, concurrently's
//! `[lint] `, honcho's `web.1  | `), or the lines after each of a runner's banners (npm's
//! `> zod@4.6.7 test`, as `npm test --workspaces` and lerna print before each package's run;
//! tox's `py: commands[0]> pytest`; pre-commit's `black.........Failed`; CTest's `7/20 Test #7:
//! format-test ...***Failed`, after which `--output-on-failure` prints the test's own output;
//! dune's `     test_re alias lib_test/runtest (exit 1)`).
//!
//! Each part gets shapes of its own, so that four test runners in one output are read as four
//! runs (each with its totals and failures, and named) rather than one. The whole output is
//! read as before too: its facts stand where no part's do, and always for what the runner
//! itself states (which tasks failed).

use super::analysis::{Slot, facts_of, read, slots};
use super::shapes::{Fact, Source};

/// Parts read at most: an output of more named parts with lines than this is read whole only (a
/// part left unread would lose its facts where the whole's are replaced).
const MOST: usize = 16;

struct Part {
    name: String,
    slots: Vec<Slot>,
}

/// The parts of one output while it streams.
pub(crate) struct Sections {
    source: Source,
    parts: Vec<Part>,
    /// The part the last banner began, once a line came after it.
    current: Option<usize>,
    /// The name of the last banner, while no line has come after it: a banner with nothing
    /// under it (a CTest test that passed) begins no part.
    pending: Option<String>,
    /// More names came than [`MOST`].
    overflowed: bool,
    /// The parts are named by a runner's prefixes (each a process of its own, their lines
    /// interleaved), not begun by banners.
    prefixed: bool,
}

impl Sections {
    pub(crate) fn new(source: &Source) -> Sections {
        Sections {
            source: source.clone(),
            parts: Vec::new(),
            current: None,
            pending: None,
            overflowed: false,
            prefixed: false,
        }
    }

    /// A line without its prefix, with the prefix's name (`""` when it has none).
    pub(crate) fn line(&mut self, number: u64, text: &str, name: &str) {
        let at = if !name.is_empty() {
            self.prefixed = true;
            self.part(name)
        } else {
            match banner(text) {
                Banner::Begins(section) => {
                    self.current = None;
                    self.pending = Some(section.to_owned());
                    return;
                }
                Banner::Ends => {
                    self.current = None;
                    self.pending = None;
                    return;
                }
                Banner::None => {}
            }
            if let Some(section) = self.pending.take() {
                self.current = self.part(&section);
            }
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

    /// Whether the parts are named by a runner's prefixes: processes of their own, whose
    /// interleaved lines read as one run say nothing true of any.
    pub(crate) fn prefixed(&self) -> bool {
        self.prefixed
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

/// What a line says of sections.
#[derive(Debug, PartialEq, Eq)]
enum Banner<'a> {
    /// The lines after it are the named section's (the banner itself is the whole's).
    Begins(&'a str),
    /// The lines after it are no section's (CTest's `Start 8: x` and closing summary).
    Ends,
    None,
}

/// The section a line begins, by the banner a runner prints before each of its runs: npm's
/// script banner (see [`npm_banner`]), tox's `py: commands[0]> pytest` (tox 3: `py run-test:
/// commands[0] | pytest`), pre-commit's `black.......Failed` (a hook's run follows its line),
/// CTest's result line (see [`ctest_banner`]), dune's line before a test's output (see
/// [`dune_banner`]).
fn banner(text: &str) -> Banner<'_> {
    let section = if text.starts_with('>') {
        npm_banner(text)
    } else {
        match ctest_banner(text) {
            Banner::None => tox_banner(text)
                .or_else(|| hook_banner(text))
                .or_else(|| dune_banner(text)),
            ctest => return ctest,
        }
    };
    section.map_or(Banner::None, Banner::Begins)
}

/// CTest's result line, `  7/20 Test  #7: format-test ......***Failed    0.02 sec`: with
/// `--output-on-failure` the test's output follows it, until the next `Start 8: x` line (or,
/// with `-j`, the next result line) or the closing `80% tests passed, 4 tests failed out of 20`.
fn ctest_banner(text: &str) -> Banner<'_> {
    let t = text.trim_start();
    if let Some(rest) = t.strip_prefix("Start ") {
        let (n, name) = rest.trim_start().split_once(": ").unwrap_or(("", ""));
        let numbered = is_number(n) && !name.trim().is_empty() && !name.contains(' ');
        return if numbered { Banner::Ends } else { Banner::None };
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Banner::None;
    }
    let rest = &t[digits..];
    if rest.starts_with("% tests passed, ") && rest.contains(" failed out of ") {
        return Banner::Ends;
    }
    // `7/20 Test  #7: name ...`
    let Some(rest) = rest.strip_prefix('/') else {
        return Banner::None;
    };
    let total = rest.bytes().take_while(u8::is_ascii_digit).count();
    let Some(rest) = rest[total..].strip_prefix(" Test ") else {
        return Banner::None;
    };
    let Some((n, rest)) = rest
        .trim_start()
        .strip_prefix('#')
        .and_then(|r| r.split_once(": "))
    else {
        return Banner::None;
    };
    let Some((name, result)) = rest.split_once(' ') else {
        return Banner::None;
    };
    let result = result.trim_start();
    if total > 0 && is_number(n) && (result.starts_with('.') || result.starts_with('*')) {
        Banner::Begins(name)
    } else {
        Banner::None
    }
}

/// The program whose output dune prints next: `     test_re alias lib_test/runtest (exit 1)`
/// (the program, right-aligned, the alias that ran it, and how it ended when it failed).
fn dune_banner(text: &str) -> Option<&str> {
    // Read from the first word only: most lines are no banner.
    let t = text.trim_start();
    let at = t
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || b"_.-".contains(b))
        .count();
    let (program, rest) = t.split_at(at);
    let rest = rest.strip_prefix(" alias ")?;
    let rest = rest.trim_end();
    let end = rest.find(" (").unwrap_or(rest.len());
    let (alias, ended) = rest.split_at(end);
    let ended_ok = ended.is_empty()
        || ended
            .strip_prefix(" (exit ")
            .and_then(|e| e.strip_suffix(')'))
            .is_some_and(is_number)
        || ended.starts_with(" (got signal ") && ended.ends_with(')');
    let word = |w: &str| !w.is_empty() && !w.contains(' ');
    (word(program) && word(alias) && ended_ok).then_some(program)
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
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
    use super::{Banner, banner};

    fn begins(line: &str) -> Option<&str> {
        match banner(line) {
            Banner::Begins(s) => Some(s),
            _ => None,
        }
    }

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
            assert_eq!(begins(line), package, "{line}");
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
            assert_eq!(begins(line), section, "{line}");
        }
    }

    #[test]
    fn ctests_result_line_begins_a_test_and_its_start_line_ends_it() {
        for (line, section) in [
            (
                " 7/20 Test  #7: format-test ......................***Failed    0.02 sec",
                Some("format-test"),
            ),
            (
                "13/20 Test #13: ranges-test ......................***Failed    0.01 sec",
                Some("ranges-test"),
            ),
            (
                "1/3 Test #1: test_chaos .......***Exception: SegFault  0.10 sec",
                Some("test_chaos"),
            ),
            (
                " 4/20 Test  #4: color-test .......................   Passed    0.01 sec",
                Some("color-test"),
            ),
            // Text that reads like it.
            ("1/2 Test of the parser: ok", None),
            ("Test #1: a .... Passed", None),
        ] {
            assert_eq!(begins(line), section, "{line}");
        }
        for line in [
            "      Start  8: format-impl-test",
            "Start 12: printf-test",
            "80% tests passed, 4 tests failed out of 20",
        ] {
            assert_eq!(banner(line), Banner::Ends, "{line}");
        }
        assert_eq!(banner("Start the engine: now"), Banner::None);
    }

    #[test]
    fn dunes_line_before_a_tests_output_names_the_program() {
        for (line, section) in [
            (
                "     test_re alias lib_test/runtest (exit 1)",
                Some("test_re"),
            ),
            ("    test_str alias lib_test/runtest", Some("test_str")),
            (
                "test_unicode_data alias test/runtest (exit 2)",
                Some("test_unicode_data"),
            ),
            (
                "        test alias test/runtest (got signal SEGV)",
                Some("test"),
            ),
            // Prose.
            ("git config alias st status", None),
            ("the alias test/runtest ran (twice)", None),
            ("     test_re alias lib_test/runtest (exit one)", None),
        ] {
            assert_eq!(begins(line), section, "{line}");
        }
    }
}
