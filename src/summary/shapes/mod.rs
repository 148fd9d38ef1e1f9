//! One summariser per recognised output shape, each behind [`Shape`] and listed once in
//! [`registry`]. Each reads the display-cleaned lines (JSON and NUL-separated records read the
//! raw bytes), counts what it recognises, and states facts only about a shape it recognised.
//! A new shape is one file here and one line in [`registry`].

mod access;
mod alcotest;
mod ansible;
mod ansiblelint;
mod autoconf;
mod autotest;
mod ava;
mod bandit;
mod biome;
mod blame;
mod bun;
mod catch2;
mod change;
mod checkbashisms;
mod checkstylexml;
mod cmake;
mod commontest;
mod coverage;
mod cppcheck;
mod cppdoctest;
mod cpplint;
mod crash;
mod criterion;
mod ctest;
mod cunit;
mod cython;
mod deno;
mod diagnostics;
mod diff;
mod doctest;
mod eslint;
mod eunit;
mod fiveam;
mod fpcunit;
mod gcc;
mod gherkin;
mod gitlog;
mod gotest;
mod govet;
mod grep;
mod gtest;
mod headed;
mod install;
mod jest;
mod jshint;
mod json;
mod jsonfindings;
mod jsonreport;
mod junit;
mod junitxml;
mod lab;
mod libtest;
mod lintian;
mod listing;
mod log;
mod luacheck;
mod make;
mod markdownlint;
mod maven;
mod meson;
mod mocha;
mod mypy;
pub(crate) mod names;
mod nextest;
mod nodespec;
mod nodetap;
mod npmls;
mod nul;
mod numbered;
mod ocaml;
mod ounit;
mod oxlint;
mod parenthesized;
mod perlcritic;
mod php;
mod phpmd;
mod phpunit;
mod pydoc;
mod pylint;
mod pyright;
mod pytest;
mod pytrace;
mod radon;
mod robot;
mod rspec;
mod rubocop;
mod ruff;
mod rustc;
mod rustfmt;
mod sanitizer;
mod shellcheck;
mod shortlog;
mod shunit2;
mod sphinx;
mod sqlite;
mod standard;
mod strace;
mod subunit;
mod svelte;
mod tap;
mod tapspec;
mod tasks;
mod tcltest;
mod testng;
mod testthat;
mod testunit;
mod threads;
mod trial;
mod trybuild;
mod tsc;
mod unittest;
mod unity;
mod uvu;
pub(crate) mod valgrind;
mod vitest;
mod webpack;
mod xml;

use serde_json::Value;

use crate::command::{Invocation, Purpose};
pub(crate) use names::{Failure, Failures};

/// A summariser of one output shape. It sees every line once, in order, and keeps bounded
/// memory whatever the output's size.
pub(crate) trait Shape: Send {
    /// Every display-cleaned line, numbered from 1, without its newline.
    fn line(&mut self, number: u64, text: &str);

    /// Every raw output byte, in order, in chunks of any size (for shapes that read bytes).
    fn raw(&mut self, _bytes: &[u8]) {}

    /// What was counted, when the output had this shape.
    fn finish(self: Box<Self>) -> Option<Fact>;

    /// Heap bytes held, roughly (to test that memory stays bounded).
    #[cfg(test)]
    fn approx_heap(&self) -> usize;
}

/// What ran, for shapes whose reading depends on it (`cat` of source code is content).
#[derive(Clone, Debug)]
pub(crate) struct Source {
    pub purpose: Purpose,
    /// The directory it ran in: paths under it are shown from it on, as its reader (who runs
    /// commands there) names them.
    pub root: Option<String>,
}

impl Default for Source {
    /// Unknown (pipe mode).
    fn default() -> Source {
        Source {
            purpose: Purpose::Other,
            root: None,
        }
    }
}

impl Source {
    /// What `argv`, run in the current directory, printed (pipe mode: no `argv`).
    pub(crate) fn of(argv: &[String]) -> Source {
        Source {
            purpose: Invocation::of(argv).purpose(),
            root: std::env::current_dir()
                .ok()
                .and_then(|d| d.to_str().map(str::to_owned)),
        }
    }
}

/// Every shape, in the order their facts are listed.
pub(crate) fn registry(source: &Source) -> Vec<Box<dyn Shape>> {
    vec![
        Box::<libtest::Libtest>::default(),
        Box::<nextest::Nextest>::default(),
        Box::<trybuild::Trybuild>::default(),
        Box::<pytest::Pytest>::default(),
        Box::<threads::ThreadDump>::default(),
        Box::<unittest::Unittest>::default(),
        Box::<headed::Headed>::default(),
        Box::<subunit::Subunit>::default(),
        Box::<trial::Trial>::default(),
        Box::<doctest::Doctest>::default(),
        Box::<gotest::GoTest>::default(),
        Box::<jest::Jest>::default(),
        Box::<vitest::Vitest>::default(),
        Box::<mocha::Mocha>::default(),
        Box::<lab::Lab>::default(),
        Box::<uvu::Uvu>::default(),
        Box::<ava::Ava>::default(),
        Box::<bun::Bun>::default(),
        Box::<deno::Deno>::default(),
        Box::<nodespec::NodeSpec>::default(),
        Box::<rspec::Rspec>::default(),
        Box::<testunit::TestUnit>::default(),
        Box::<tap::Tap>::default(),
        Box::<tapspec::TapSpec>::default(),
        Box::<nodetap::NodeTap>::default(),
        Box::<ctest::Ctest>::default(),
        Box::<meson::Meson>::default(),
        Box::<autotest::Autotest>::default(),
        Box::<unity::Unity>::default(),
        Box::<cunit::Cunit>::default(),
        Box::<gtest::Gtest>::default(),
        Box::<maven::Maven>::default(),
        Box::<junit::Junit>::default(),
        Box::<testng::TestNg>::default(),
        Box::<junitxml::JunitXml>::default(),
        Box::<phpunit::Phpunit>::default(),
        Box::<catch2::Catch2>::default(),
        Box::<cppdoctest::CppDoctest>::default(),
        Box::<gherkin::Gherkin>::default(),
        Box::<eunit::Eunit>::default(),
        Box::<commontest::CommonTest>::default(),
        Box::<fiveam::FiveAm>::default(),
        Box::<fpcunit::FpcUnit>::default(),
        Box::<ounit::Ounit>::default(),
        Box::<tcltest::Tcltest>::default(),
        Box::<shunit2::Shunit2>::default(),
        Box::<testthat::Testthat>::default(),
        Box::<sqlite::Sqlite>::default(),
        Box::<alcotest::Alcotest>::default(),
        Box::<robot::Robot>::default(),
        Box::<criterion::Criterion>::default(),
        Box::<coverage::Coverage>::default(),
        Box::<tasks::Tasks>::default(),
        Box::<numbered::Numbered>::default(),
        Box::<rustc::Rustc>::default(),
        Box::<mypy::Mypy>::default(),
        Box::<ruff::Ruff>::default(),
        Box::<pylint::Pylint>::default(),
        Box::<pyright::Pyright>::default(),
        Box::<eslint::Eslint>::default(),
        Box::<standard::Standard>::default(),
        Box::<rubocop::Rubocop>::default(),
        Box::<jshint::Jshint>::default(),
        Box::<biome::Biome>::default(),
        Box::<oxlint::Oxlint>::default(),
        Box::<markdownlint::Markdownlint>::default(),
        Box::<luacheck::Luacheck>::default(),
        Box::<sphinx::Sphinx>::default(),
        Box::<shellcheck::Shellcheck>::default(),
        Box::<checkbashisms::Checkbashisms>::default(),
        Box::<checkstylexml::CheckstyleXml>::default(),
        Box::<cppcheck::Cppcheck>::default(),
        Box::<cpplint::Cpplint>::default(),
        Box::<phpmd::Phpmd>::default(),
        Box::<cython::Cython>::default(),
        Box::<pydoc::PyDoc>::default(),
        Box::<bandit::Bandit>::default(),
        Box::<radon::Radon>::default(),
        Box::<php::Php>::default(),
        Box::<perlcritic::Perlcritic>::default(),
        Box::<lintian::Lintian>::default(),
        Box::<gcc::Gcc>::default(),
        Box::<tsc::Tsc>::default(),
        Box::<parenthesized::Parenthesized>::default(),
        Box::<svelte::SvelteCheck>::default(),
        Box::<ocaml::Ocaml>::default(),
        Box::<govet::GoVet>::default(),
        Box::<valgrind::Valgrind>::default(),
        Box::<sanitizer::Sanitizer>::default(),
        Box::<webpack::Webpack>::default(),
        Box::<make::Make>::default(),
        Box::<cmake::Cmake>::default(),
        Box::<autoconf::Autoconf>::default(),
        Box::<ansible::Ansible>::default(),
        Box::<ansiblelint::AnsibleLint>::default(),
        Box::<strace::Strace>::default(),
        Box::<log::Log>::default(),
        Box::<access::AccessLog>::default(),
        Box::<install::Install>::default(),
        Box::<npmls::NpmLs>::default(),
        Box::<rustfmt::Rustfmt>::default(),
        Box::<diff::Diff>::default(),
        Box::<gitlog::GitLog>::default(),
        Box::<blame::Blame>::default(),
        Box::<shortlog::Shortlog>::default(),
        Box::<grep::Grep>::default(),
        Box::new(listing::Listing::new(source)),
        Box::<nul::NulRecords>::default(),
        Box::<json::JsonScan>::default(),
        Box::<jsonreport::JsonReport>::default(),
    ]
}

/// What a section's lines start with: `zod: `, or `[0] ` for a name in brackets.
pub(crate) fn section_label(name: &str) -> String {
    if name.ends_with(']') {
        format!("{name} ")
    } else {
        format!("{name}: ")
    }
}

/// One recognised shape's counted facts.
#[derive(Clone, Debug)]
pub(crate) struct Fact {
    /// The shape's name, as in the JSON (`"cargo test"`, `"mypy"`).
    pub(crate) shape: &'static str,
    /// Summary lines (without the `[ctxoff] ` prefix), always shown.
    pub(crate) lines: Vec<String>,
    /// The runner's own lines, shown under them as printed (`FAIL\tpkg\t0.01s`): what a
    /// reader searches the output with.
    pub(crate) quoted: Vec<String>,
    pub(crate) json: Value,
    /// Failures with their first detail, most important first (lists in order: suites that
    /// did not run before failed tests), shown within a token budget.
    pub(crate) failures: Vec<Failures>,
    /// The output is content (a diff, a log of commits, search results, a listing, source):
    /// failure words in it are not failures.
    pub(crate) content: bool,
    /// The `ctxoff grep` arguments that answer the obvious next question (`'panicked at' -A 3`).
    pub(crate) hint: Option<String>,
    /// Shapes whose facts this one replaces (mypy's `file:line: error:` lines look like gcc's).
    pub(crate) supersedes: &'static [&'static str],
    /// Stated only when no shape that is not content recognised the output: grep's
    /// `path:line:text` is also what compilers, linters, make and server logs print, and such a
    /// log is no search result (its failure words count).
    pub(crate) yields: bool,
    /// A log of some kind (records, requests), which a test run, build or lint report may
    /// hold too: see [`Fact::defers`].
    pub(crate) log: bool,
    /// Stated only when no shape that is neither content nor a log recognised the output: a
    /// test run's or build's `ERROR` lines and tracebacks are theirs to state.
    pub(crate) defers: bool,
    /// Stated only when no other shape recognised the output, but for logs and `path:line:`
    /// lines: a reading of what many runners print alike (their numbered failures), which a
    /// shape of the runner's own, or content, reads better.
    pub(crate) fallback: bool,
    /// A runner's own statement about the tasks it ran: stated for the whole output only,
    /// never for one section of it.
    pub(crate) runner: bool,
    /// A report printed beside a run (a coverage table), which says nothing of how the run
    /// went: a [`Fact::fallback`] reading of the run stands beside it.
    pub(crate) aside: bool,
    /// The shape's place in [`registry`] (a shape may name its facts in more than one way:
    /// ruff's are `lint` without ruff's own total).
    pub(crate) slot: usize,
}

impl Fact {
    pub(crate) fn new(shape: &'static str, lines: Vec<String>, json: Value) -> Fact {
        Fact {
            shape,
            lines,
            quoted: Vec::new(),
            json,
            failures: Vec::new(),
            content: false,
            hint: None,
            supersedes: &[],
            yields: false,
            log: false,
            defers: false,
            fallback: false,
            runner: false,
            aside: false,
            slot: 0,
        }
    }

    /// Adds a list of failures (an empty one is left out).
    pub(crate) fn failures(mut self, failures: Failures) -> Fact {
        if !failures.is_empty() {
            self.failures.push(failures);
        }
        self
    }

    /// Quotes the runner's `lines` under the fact's own.
    pub(crate) fn quoting(mut self, lines: Vec<String>) -> Fact {
        self.quoted = lines;
        self
    }

    /// The fact's lines as the summary shows them.
    pub(crate) fn shown(&self) -> impl Iterator<Item = String> + '_ {
        let own = self.lines.iter().map(|l| format!("[ctxoff] {l}"));
        own.chain(self.quoted.iter().cloned())
    }

    pub(crate) fn content(mut self) -> Fact {
        self.content = true;
        self
    }

    pub(crate) fn hint(mut self, hint: &str) -> Fact {
        self.hint = Some(hint.to_owned());
        self
    }

    /// A test run's hint, given only when something failed: a passing run's next question is
    /// not where its failures are.
    pub(crate) fn hint_if_failed(self, failed: bool, hint: &str) -> Fact {
        if failed { self.hint(hint) } else { self }
    }

    /// See [`Fact::yields`].
    pub(crate) fn yields(mut self) -> Fact {
        self.yields = true;
        self
    }

    /// See [`Fact::log`].
    pub(crate) fn log(mut self) -> Fact {
        self.log = true;
        self
    }

    /// See [`Fact::defers`]; such a fact is a log's.
    pub(crate) fn defers(mut self) -> Fact {
        self.defers = true;
        self.log = true;
        self
    }

    /// See [`Fact::fallback`].
    pub(crate) fn fallback(mut self) -> Fact {
        self.fallback = true;
        self
    }

    /// See [`Fact::runner`].
    pub(crate) fn runner(mut self) -> Fact {
        self.runner = true;
        self
    }

    /// See [`Fact::aside`].
    pub(crate) fn aside(mut self) -> Fact {
        self.aside = true;
        self
    }

    /// The fact of one section of the output (`zod`, `[0]`), its lines and failures named
    /// after it (`zod: tests: …`, `[0] tests: …`).
    pub(crate) fn in_section(mut self, name: &str) -> Fact {
        let label = section_label(name);
        for line in &mut self.lines {
            line.insert_str(0, &label);
        }
        for list in &mut self.failures {
            list.section = Some(name.to_owned());
        }
        if let Value::Object(map) = &mut self.json {
            map.insert("section".into(), Value::from(name));
        }
        self
    }

    pub(crate) fn supersedes(mut self, shapes: &'static [&'static str]) -> Fact {
        self.supersedes = shapes;
        self
    }
}

/// The fact a shape states over `text`, its lines numbered from 1 (for a shape's unit tests).
#[cfg(test)]
pub(crate) fn read_lines<S: Shape + Default + 'static>(text: &str) -> Option<Fact> {
    let mut shape: Box<S> = Box::default();
    for (i, line) in text.lines().enumerate() {
        shape.line(i as u64 + 1, line);
    }
    shape.finish()
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Every shape, called directly (the analysis would catch a panic and drop the shape's
        /// facts), on lines shaped like the outputs it reads and cut anywhere.
        #[test]
        fn no_shape_panics_on_hostile_lines(
            lines in prop::collection::vec(
                "(==[0-9]{0,3}==?[ ]{0,4}(at 0x|by 0x|Address |This conflicts |Locks held:|ERROR SUMMARY: |LEAK SUMMARY:|[0-9,]{0,4} (\\([0-9, a-z]{0,12}\\) )?bytes in [0-9,]{0,3} blocks are (definitely|possibly) lost in loss record |definitely lost: )?.{0,12})\
                 |([ 0-9]{0,3}/[0-9]{0,2} Test +#[0-9]{0,2}: [a-z_]{0,6} [.]{0,4}(\\*\\*\\*)?[A-Za-z: ]{0,10}[ 0-9.]{0,6}( sec)?)\
                 |([0-9]{0,3}% tests passed, [0-9]{0,3} tests? failed out of [0-9]{0,3})|(Test project .{0,5})|(\t +[0-9]{0,2} - .{0,8})\
                 |([a-z./]{0,6}:[0-9]{0,3}:[a-z_0-9]{0,6}:(PASS|FAIL|IGNORE)(: .{0,8})?)|([0-9]{0,3} Tests [0-9]{0,3} Failures [0-9]{0,3} Ignored ?)\
                 |((\\[(INFO|ERROR)\\] )?(Tests run: [0-9,]{0,4}(, (Failures|Errors|Skipped): [0-9]{0,3}){0,3}.{0,20}|[a-zA-Z]{0,6}\\([a-z.]{0,8}\\)  Time elapsed: [0-9.]{0,4} s  <<< (FAILURE|ERROR)!|COMPILATION ERROR : |[0-9]{0,2} errors? |BUILD (SUCCESS|FAILURE)|/[a-z/]{0,6}\\.java:\\[[0-9]{0,3},[0-9]{0,3}\\] .{0,8}|Results:|(Failures|Errors|Tests in error): |  [A-Za-z.]{0,8}:[0-9]{0,3} .{0,8}))\
                 |(\tat [a-z.]{0,8}\\([A-Za-z]{0,5}\\.java:[0-9]{0,3}\\))|([a-z.]{0,12}(Exception|Failure|Error): .{0,12})\
                 |(Tests: [0-9]{0,4}, Assertions: [0-9]{0,4}(, (Errors|Failures|Skipped|Incomplete|Risky): [0-9]{0,2}){0,3}\\.?)|(OK \\([0-9]{0,4} tests?, [0-9]{0,4} assertions?\\))\
                 |(There (was|were) [0-9]{0,2} (errors?|failures?|risky tests?):)|([0-9]{0,2}\\) [A-Za-z\\\\:]{0,12}( with data set #[0-9])?)|( ?[✘✔] .{0,8})|(FAILURES!|ERRORS!|OK, but .{0,8})|(--- Expected|\\+\\+\\+ Actual|[-+]'.{0,6}')|(/[a-z/]{0,6}\\.php:[0-9]{0,3})|(Summary of non-successful tests:)\
                 |(-{0,79})|(\\.{0,79})|(={0,79})|([a-z/]{0,6}\\.cpp:[0-9]{0,4}(: FAILED:)?)|(  (CHECK|REQUIRE)\\( .{0,8} \\))|(with expansion:)|(due to unexpected exception with message:)\
                 |(test cases: {0,2}[0-9]{0,3} \\| {0,2}[0-9]{0,3} passed \\| [0-9]{0,3} failed)|(assertions: [0-9]{0,3} \\| [0-9]{0,3} passed( \\| [0-9]{0,3} failed)?)|(All tests passed \\([0-9]{0,3} assertions? in [0-9]{0,3} test cases?\\))\
                 |([a-z/.]{0,8}\\.java:[0-9]{0,3}: (error|warning): (\\[[a-z]{0,5}\\] )?.{0,8})|(  (symbol|location|required|found): .{0,8})|([0-9]{0,4} (errors?|warnings?))\
                 |(only showing the first [0-9]{0,3} (errors|warnings), of [0-9]{0,4} total.{0,10})\
                 |(?s).{0,30}",
                0..80,
            ),
        ) {
            for mut shape in registry(&Source::default()) {
                for (i, line) in lines.iter().enumerate() {
                    shape.raw(line.as_bytes());
                    shape.line(i as u64 + 1, line);
                }
                let _ = shape.finish();
            }
        }
    }
}
