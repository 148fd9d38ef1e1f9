//! The streaming analysis behind the summary: one pass over the raw bytes and the
//! display-cleaned lines, in bounded memory, feeding the notable-line counter and every shape of
//! the registry (`shapes::registry`), and ending in a [`Report`] of notable lines and counted
//! facts. It neither captures nor stores output, nor picks the head and tail.
//!
//! Every fact summariser states only what it counted, exactly, and nothing when the output's
//! shape was not recognised. A summariser that panics loses its own shape for the rest of the
//! output and nothing else: each call into a shape is isolated.

use std::borrow::Cow;
use std::cell::Cell;
use std::ops::RangeInclusive;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::Value;

use super::notable::{
    NotableCounter, NotablePatterns, NotableReport, Shown, default_kinds, notable_stems,
};
use super::prefix::Prefixes;
use super::preview::Preview;
use super::sections::Sections;
use super::shapes::{Fact, Failure, Failures, Shape, Source, registry, section_label};
use crate::format::thousands;
use crate::text::clean_line;
use crate::tokens::Tokenizer;

/// A shape and whether it still runs (it stops at its first panic).
pub(super) struct Slot {
    pub(super) shape: Box<dyn Shape>,
    alive: bool,
}

/// Every shape of the registry, running.
pub(super) fn slots(source: &Source) -> Vec<Slot> {
    registry(source)
        .into_iter()
        .map(|shape| Slot { shape, alive: true })
        .collect()
}

/// The analysis of one output while it streams. `Send`, so it can run on its own thread; its
/// memory is bounded whatever the output's size.
pub(crate) struct Analysis {
    notable: NotableCounter,
    shapes: Vec<Slot>,
    /// Scratch space of [`Analysis::plain_lines`]: the lower-cased text.
    lower: Vec<u8>,
    /// A runner's line prefixes, taken off before the shapes read a line.
    prefixes: Prefixes,
    /// The packages' or processes' own runs, each read by shapes of its own too.
    sections: Sections,
    /// The directory the command ran in (see [`Source::root`]).
    root: Option<String>,
    /// Lines were `go test -json` events (see [`test2json_output`]).
    events: bool,
}

impl Analysis {
    /// `window`: the most lines the head or the tail of the preview can have; hits there are
    /// taken out of the notable counts at the end, and examples are kept beyond them.
    #[cfg(test)]
    pub(crate) fn new(notable: &NotablePatterns, window: u64) -> Analysis {
        Analysis::for_source(notable, window, &Source::default())
    }

    /// The analysis of what `source` printed.
    pub(crate) fn for_source(notable: &NotablePatterns, window: u64, source: &Source) -> Analysis {
        Analysis {
            notable: NotableCounter::new(notable, window),
            shapes: slots(source),
            lower: Vec::new(),
            prefixes: Prefixes::default(),
            sections: Sections::new(source),
            root: source.root.clone(),
            events: false,
        }
    }

    #[cfg(test)]
    /// With `shape` reading each line before the others.
    pub(crate) fn with_shape(mut self, shape: Box<dyn Shape>) -> Analysis {
        self.shapes.insert(0, Slot { shape, alive: true });
        self
    }

    /// Every raw output byte, in order, in chunks of any size.
    pub(crate) fn raw(&mut self, bytes: &[u8]) {
        for slot in &mut self.shapes {
            isolated(slot, |shape| shape.raw(bytes));
        }
    }

    /// Every display-cleaned line, numbered from 1, without its newline.
    pub(crate) fn line(&mut self, number: u64, text: &str) {
        self.notable.line(number, text);
        self.shapes(number, text);
    }

    /// [`Analysis::line`] for every line of `text`, numbered from `first`: whole lines, each
    /// ending in `\n`, of text that needs no display cleaning (no escapes, no carriage returns,
    /// no NULs). A line over `line_cap` bytes is analysed cut to that length. Returns the number
    /// of lines.
    ///
    /// Most output is such text, and searching it for the notable stems once rather than line
    /// by line is much faster (no stem spans a line, so each line gets the hits of its own).
    pub(crate) fn plain_lines(&mut self, first: u64, text: &str, line_cap: usize) -> u64 {
        let mut lower = std::mem::take(&mut self.lower);
        let mut stems = notable_stems(text.as_bytes(), &mut lower).peekable();
        let mut hits = Vec::new();
        let (mut number, mut start) = (first, 0);
        for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
            let line = &text[start..end];
            hits.clear();
            while let Some(hit) = stems.next_if(|hit| hit.start < end) {
                hits.push(hit.relative_to(start));
            }
            if line.len() > line_cap {
                // Cut in bytes and decoded lossily, as everywhere else.
                self.line(number, &clean_line(&line.as_bytes()[..line_cap]));
            } else {
                let kinds = default_kinds(line, hits.iter().copied());
                self.notable.line_with(number, line, Some(kinds));
                self.shapes(number, line);
            }
            number += 1;
            start = end + 1;
        }
        drop(stems);
        self.lower = lower;
        number - first
    }

    /// Every live shape reads the line, without a runner's prefix (see [`Prefixes`]), and so
    /// do the shapes of its section (see [`Sections`]). A `go test -json` event is read as the
    /// text it carries, numbered as its own line (see [`test2json_output`]).
    fn shapes(&mut self, number: u64, text: &str) {
        if let Some(output) = test2json_output(text) {
            self.events = true;
            for line in output.lines() {
                self.shapes(number, &clean_line(line.as_bytes()));
            }
            return;
        }
        let (shapes, sections) = (&mut self.shapes, &mut self.sections);
        self.prefixes.line(number, text, |number, text, name| {
            read(shapes, number, text);
            sections.line(number, text, name);
        });
    }

    /// Ends the analysis: every shape's facts (a shape replaced by another's is left out), a
    /// section's own where sections had any.
    pub(crate) fn conclude(mut self) -> Findings {
        let (shapes, sections) = (&mut self.shapes, &mut self.sections);
        self.prefixes.flush(|number, text, name| {
            read(shapes, number, text);
            sections.line(number, text, name);
        });
        let mut facts = facts_of(self.shapes);
        let prefixed = self.sections.prefixed();
        let mut sectioned = self.sections.conclude();
        if !sectioned.is_empty() {
            // The sections' facts stand for the whole's of the same shapes; the rest of the
            // whole's (the runner's own) stand beside them unless theirs replace them.
            // Each section's facts were filtered within it; the whole's give way to them.
            let sections = named_sections(&sectioned);
            let first = sectioned.len();
            let rest: Vec<Fact> = facts
                .iter()
                .filter(|f| !sectioned.iter().any(|s| s.slot == f.slot))
                .cloned()
                .collect();
            // A report beside the runs (a coverage table) is quoted once, from the first part
            // with one: each other part's counts are in its fact's line.
            let mut quoting: Vec<usize> = Vec::new();
            for fact in sectioned
                .iter_mut()
                .filter(|f| f.aside && !f.quoted.is_empty())
            {
                if quoting.contains(&fact.slot) {
                    fact.quoted.clear();
                } else {
                    quoting.push(fact.slot);
                }
            }
            let all: Vec<Fact> = sectioned.into_iter().chain(rest).collect();
            let replaced = replaced(&all);
            let all: Vec<Fact> = all
                .into_iter()
                .zip(replaced)
                .enumerate()
                .filter_map(|(k, (f, r))| (k < first || !r).then_some(f))
                .collect();
            // Unless parts begun by banners take more than `SECTION_LINES` a section beyond
            // the whole's (eight CTest tests, each with its test counts and valgrind's two
            // summaries): then the whole's stand. Parts named by prefixes are processes of
            // their own (`pnpm -r --parallel`'s nine vitest runs): the whole's facts of their
            // interleaved lines would be the last run's totals said for all.
            let lines = |facts: &[Fact]| {
                facts
                    .iter()
                    .map(|f| f.lines.len() + f.quoted.len())
                    .sum::<usize>()
            };
            if prefixed || lines(&all) <= lines(&facts) + SECTION_LINES * sections {
                facts = all;
            }
        }
        if self.events {
            // The text a hint looks for is inside each event, not at the start of its line.
            for fact in &mut facts {
                fact.hint = fact.hint.as_deref().map(unanchored);
            }
        }
        if let Some(root) = &self.root {
            for failure in facts
                .iter_mut()
                .flat_map(|f| &mut f.failures)
                .flat_map(Failures::iter_mut)
            {
                failure.relative_to(root);
            }
        }
        Findings {
            notable: self.notable,
            facts,
        }
    }

    /// Ends the analysis and reports over the `omitted` range, every failure shown.
    pub(crate) fn finish(self, omitted: Option<RangeInclusive<u64>>) -> Report {
        let findings = self.conclude();
        let failures = findings.failure_lines(None);
        findings.report(omitted, failures, None)
    }

    /// How many shapes panicked (and were disabled): a bug in each.
    #[cfg(test)]
    pub(crate) fn panicked_shapes(&self) -> usize {
        self.shapes.iter().filter(|s| !s.alive).count()
    }

    #[cfg(test)]
    pub(crate) fn approx_heap(&self) -> usize {
        self.notable.approx_heap()
            + self.prefixes.approx_heap()
            + self.sections.approx_heap()
            + self
                .shapes
                .iter()
                .map(|s| s.shape.approx_heap())
                .sum::<usize>()
    }
}

thread_local! {
    /// Set while a shape runs: its panic is handled, and the panic message is not printed.
    static IN_SHAPE: Cell<bool> = const { Cell::new(false) };
}

/// The facts of the shapes that recognised what they read, less those replaced by others'.
pub(super) fn facts_of(slots: Vec<Slot>) -> Vec<Fact> {
    let facts: Vec<Fact> = slots
        .into_iter()
        .enumerate()
        .filter(|(_, slot)| slot.alive)
        .filter_map(|(at, slot)| {
            let mut fact = guarded(move || slot.shape.finish()).flatten()?;
            fact.slot = at;
            Some(fact)
        })
        .collect();
    without_replaced(facts)
}

/// `facts` less those replaced by others'.
fn without_replaced(facts: Vec<Fact>) -> Vec<Fact> {
    let replaced = replaced(&facts);
    facts
        .into_iter()
        .zip(replaced)
        .filter_map(|(f, r)| (!r).then_some(f))
        .collect()
}

/// Which of `facts` others replace (see [`Fact::supersedes`], [`Fact::fallback`],
/// [`Fact::yields`], [`Fact::defers`]).
fn replaced(facts: &[Fact]) -> Vec<bool> {
    let superseded: Vec<&str> = facts.iter().flat_map(|f| f.supersedes).copied().collect();
    let mut out: Vec<bool> = facts
        .iter()
        .map(|f| superseded.contains(&f.shape))
        .collect();
    let live = |out: &[bool]| -> Vec<&Fact> {
        facts
            .iter()
            .zip(out)
            .filter_map(|(f, r)| (!r).then_some(f))
            .collect()
    };
    // While a fact of the first kind stands, those of the second give way.
    type Test = fn(&Fact) -> bool;
    let rules: [(Test, Test); 3] = [
        (
            |f| !f.fallback && !f.aside && (f.content || (!f.yields && !f.log)),
            |f| f.fallback,
        ),
        (|f| !f.content && !f.yields, |f| f.yields),
        (|f| !f.content && !f.yields && !f.log, |f| f.defers),
    ];
    for (present, gives_way) in rules {
        if live(&out).into_iter().any(present) {
            for (f, r) in facts.iter().zip(out.iter_mut()) {
                *r |= gives_way(f);
            }
        }
    }
    out
}

/// Every live shape reads the line, under one guard: a shape that panics is disabled and the
/// ones after it still read the line.
pub(super) fn read(slots: &mut [Slot], number: u64, text: &str) {
    let mut at = 0;
    while at < slots.len() {
        let done = guarded(|| {
            while at < slots.len() {
                if slots[at].alive {
                    slots[at].shape.line(number, text);
                }
                at += 1;
            }
        });
        if done.is_some() {
            return;
        }
        slots[at].alive = false;
        at += 1;
    }
}

/// Runs `f` on the slot's shape unless it panicked before; a panic disables the shape.
fn isolated(slot: &mut Slot, f: impl FnOnce(&mut dyn Shape)) {
    if slot.alive && guarded(|| f(&mut *slot.shape)).is_none() {
        slot.alive = false;
    }
}

/// `f()`, or `None` when it panicked.
fn guarded<R>(f: impl FnOnce() -> R) -> Option<R> {
    quiet_panics_in_shapes();
    IN_SHAPE.with(|s| s.set(true));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    IN_SHAPE.with(|s| s.set(false));
    outcome.ok()
}

/// Keeps a shape's panic off standard error (the reader gets the summary without that shape;
/// any other panic is reported as before).
fn quiet_panics_in_shapes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_SHAPE.with(Cell::get) {
                previous(info);
            }
        }));
    });
}

/// The lines the facts of an output read by sections may take per section beyond the whole
/// output's facts.
const SECTION_LINES: usize = 2;

/// How many sections `facts` name.
fn named_sections(facts: &[Fact]) -> usize {
    let mut sections: Vec<&str> = facts
        .iter()
        .filter_map(|f| f.json.get("section").and_then(Value::as_str))
        .collect();
    sections.sort_unstable();
    sections.dedup();
    sections.len()
}

/// Failure lines rendered for the summary, and what they cost.
#[derive(Clone, Debug, Default)]
pub(crate) struct FailureLines {
    pub(crate) lines: Vec<String>,
    pub(crate) tokens: u64,
    /// Output lines whose failure was shown, and how (notable examples need not repeat them).
    pub(crate) shown: Vec<(u64, String)>,
    /// The failures took all the room head and tail may give: the notable lines are counted,
    /// with one example.
    pub(crate) filled: bool,
}

/// What the analysis found, before the preview is decided.
pub(crate) struct Findings {
    notable: NotableCounter,
    facts: Vec<Fact>,
}

impl Findings {
    /// The output is content (a diff, commits, search results, a listing, source).
    pub(crate) fn is_content(&self) -> bool {
        self.facts.iter().any(|f| f.content)
    }

    /// How many sections of the output (see [`Sections`]) have failures listed.
    pub(crate) fn failing_sections(&self) -> u64 {
        let mut sections: Vec<&str> = self
            .facts
            .iter()
            .flat_map(|f| &f.failures)
            .filter_map(|l| l.section.as_deref())
            .collect();
        sections.sort_unstable();
        sections.dedup();
        sections.len() as u64
    }

    /// The tokens the facts' own lines take in the summary.
    pub(crate) fn fact_tokens(&self, tokenizer: &Tokenizer) -> u64 {
        self.facts
            .iter()
            .flat_map(Fact::shown)
            .map(|l| tokenizer.count(&format!("{l}\n")))
            .sum()
    }

    /// The failures of every fact, most important first, within `budget` tokens when given:
    /// each failure with its first detail while they fit, then the names of more, the last one
    /// always, and how many there were.
    pub(crate) fn failure_lines(&self, budget: Option<(&Tokenizer, u64)>) -> FailureLines {
        let mut out = FailureLines::default();
        let cost = |text: &str| budget.map_or(0, |(t, _)| t.count(text) + 1);
        let limit = budget.map_or(u64::MAX, |(_, b)| b);
        let lists: Vec<&Failures> = self.facts.iter().flat_map(|f| &f.failures).collect();
        // Each list keeps room for its heading and first failure from the lists before it: a
        // second way of failing (leaks after invalid reads, failed tests after a compile
        // error) must not go unseen because the first list had more to say.
        // A list with more failures than fit keeps a share of its room for their names.
        let first_costs: Vec<u64> = lists
            .iter()
            .map(|f| {
                if f.spare {
                    return 0;
                }
                let first = cost(&heading(f))
                    + f.iter()
                        .next()
                        .map_or(0, |first| cost(&failure_line(first, Detail::Compact)));
                if f.total > 1 {
                    (first * NAMES_SHARE).div_ceil(NAMES_SHARE - 1)
                } else {
                    first
                }
            })
            .collect();
        // The failures an earlier list showed: a later list's failure that says the same (one
        // warning in two sections, tox's docs and doctest) is said to be the same.
        let mut shown_before: Vec<&Failure> = Vec::new();
        for (k, f) in lists.iter().enumerate() {
            let left = limit - out.tokens.min(limit);
            let later: u64 = first_costs[k + 1..].iter().sum();
            let mut room = left.saturating_sub(later).max(first_costs[k].min(left));
            if f.spare {
                room = room.min(limit / SPARE_SHARE);
            }
            // Whole details while at least the first few fit; else the first line of each.
            let wanted = f.kept.len().min(COMPACT_BELOW) as u64;
            let mut listed = list_failures(f, Detail::Whole, room, &cost, &shown_before);
            if listed.detailed < wanted {
                let compact = list_failures(f, Detail::Compact, room, &cost, &shown_before);
                if compact.detailed > listed.detailed {
                    listed = compact;
                }
            }
            if listed.detailed == 0 {
                // Not even one fits: the counts and names stated elsewhere must do.
                continue;
            }
            shown_before.extend(
                f.iter()
                    .filter(|x| x.has_detail() && listed.shown.iter().any(|s| s.0 == x.line)),
            );
            out.tokens += listed.tokens;
            out.shown.extend(listed.shown);
            out.lines.extend(listed.lines);
        }
        out
    }

    /// The tokens the notable lines over the `omitted` range would take, besides `failures`
    /// and the `preview`.
    pub(crate) fn notable_tokens(
        &self,
        omitted: Option<RangeInclusive<u64>>,
        failures: &FailureLines,
        preview: &Preview,
        tokenizer: &Tokenizer,
    ) -> u64 {
        if self.is_content() {
            return 0;
        }
        notable_report(
            self.notable.clone(),
            &self.facts,
            omitted,
            failures,
            Some(preview),
        )
        .map_or(0, |n| {
            n.render()
                .iter()
                .map(|l| tokenizer.count(&format!("{l}\n")))
                .sum()
        })
    }

    /// The report over the `omitted` range, with the failure lines and the `preview` decided
    /// already.
    pub(crate) fn report(
        self,
        omitted: Option<RangeInclusive<u64>>,
        failures: FailureLines,
        preview: Option<&Preview>,
    ) -> Report {
        let notable = if self.is_content() {
            None
        } else {
            notable_report(self.notable, &self.facts, omitted, &failures, preview)
        };
        // A runner's line a fact quotes is not said twice: shown in the head or tail, it is
        // read there (blanks apart: a table's row is quoted without its trailing ones).
        let mut facts = self.facts;
        if let Some(p) = preview {
            let ends: Vec<String> = p
                .head
                .iter()
                .chain(&p.tail)
                .map(|l| single_blanks(&l.text))
                .collect();
            for fact in &mut facts {
                fact.quoted.retain(|q| {
                    let q = single_blanks(q);
                    !ends.iter().any(|e| e.ends_with(&q))
                });
            }
        }
        Report {
            notable,
            facts,
            failures: failures.lines,
        }
    }
}

/// The notable lines over the `omitted` range, besides the `facts`, `failures` and `preview`
/// shown (examples repeat none of their lines).
fn notable_report(
    notable: NotableCounter,
    facts: &[Fact],
    omitted: Option<RangeInclusive<u64>>,
    failures: &FailureLines,
    preview: Option<&Preview>,
) -> Option<NotableReport> {
    let ends = preview
        .into_iter()
        .flat_map(|p| p.head.iter().chain(&p.tail));
    let lines: Vec<&str> = facts
        .iter()
        .flat_map(|f| f.lines.iter().chain(&f.quoted))
        .chain(&failures.lines)
        .map(String::as_str)
        .chain(ends.map(|l| l.text.as_str()))
        .collect();
    let shown = Shown {
        failures: &failures.shown,
        lines: &lines,
    };
    notable.finish(omitted, shown, examples_shown(failures))
}

/// How many notable examples are shown: failures shown with their details leave less for
/// examples to tell.
fn examples_shown(failures: &FailureLines) -> usize {
    match (failures.lines.is_empty(), failures.filled) {
        (true, _) => 4,
        (false, false) => 2,
        (false, true) => 1,
    }
}

/// The part of the budget (one in this many tokens) a spare list may take at most: what it
/// says is less than what head and tail would show in its place.
const SPARE_SHARE: u64 = 4;
/// While fewer failures than this fit with whole details, each gets its first line only.
const COMPACT_BELOW: usize = 3;
/// A compact detail's length.
const COMPACT_CHARS: usize = 110;
/// The part of a list's budget (one in this many tokens) kept for the names of failures shown
/// without details.
const NAMES_SHARE: u64 = 4;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Detail {
    Whole,
    /// The first line of detail, shortened, and where (`at …`).
    Compact,
}

/// One list's lines within `limit` tokens.
struct Listed {
    lines: Vec<String>,
    tokens: u64,
    shown: Vec<(u64, String)>,
    detailed: u64,
}

/// `[ctxoff] failed tests (8):`, `[ctxoff] zod: failed tests (12):`
fn heading(f: &Failures) -> String {
    let section = f.section.as_deref().map(section_label).unwrap_or_default();
    format!("[ctxoff] {section}{} ({}):", f.heading, thousands(f.total))
}

fn list_failures(
    f: &Failures,
    detail: Detail,
    limit: u64,
    cost: &dyn Fn(&str) -> u64,
    before: &[&Failure],
) -> Listed {
    let heading = heading(f);
    let mut listed = Listed {
        tokens: cost(&heading),
        lines: vec![heading],
        shown: Vec::new(),
        detailed: 0,
    };
    // Chosen in rounds: a failure of a form not shown yet first (its detail differs from every
    // one chosen in more than the values compared and where: a new way of failing), in order;
    // then one whose message was not shown word for word, the rarest message first (the one
    // `'Created'` among thirteen `'Not Found'`, the one panic at a place among thirty at
    // another), of a form of fewer messages first among messages as rare (a form of many
    // messages varies with the values tested), then of a group not shown yet; then the first failure
    // of each group not shown yet (a top-level test and its subtests, a describe block); then
    // the others in order. The names of those not detailed follow in one line, so a group can
    // be named without its detail, a way of failing cannot. A detail already shown word for
    // word (the same assertion failing in many subtests) is not shown again while other
    // failures wait: they get its room.
    let all: Vec<&Failure> = f.iter().collect();
    let mut lines: Vec<String> = all.iter().map(|f| failure_line(f, detail)).collect();
    let mut costs: Vec<u64> = lines.iter().map(|l| cost(l)).collect();
    let mut compact = false;
    let forms: Vec<Option<String>> = all.iter().map(|f| f.form()).collect();
    let words: Vec<Vec<&str>> = forms
        .iter()
        .map(|f| {
            f.as_deref()
                .map_or(Vec::new(), |f| f.split_whitespace().collect())
        })
        .collect();
    // A log's record (a failure without a name) is told by its message without its numbers:
    // times, ports and process ids differ from one record to the next.
    let messages: Vec<Option<Cow<str>>> = all
        .iter()
        .map(|f| {
            f.message().map(|m| match f.name.is_empty() {
                true => Cow::Owned(without_numbers(m)),
                false => Cow::Borrowed(m),
            })
        })
        .collect();
    let rarity: Vec<usize> = messages
        .iter()
        .map(|m| messages.iter().filter(|n| *n == m).count())
        .collect();
    // How many messages a failure's form has: a form of few messages whose one message
    // differs is a different fault; a form of many varies with the values tested.
    let variety: Vec<usize> = forms
        .iter()
        .map(|form| {
            let mut seen: Vec<&str> = Vec::new();
            for (m, _) in messages.iter().zip(&forms).filter(|(_, g)| *g == form) {
                if let Some(m) = m.as_deref()
                    && !seen.contains(&m)
                {
                    seen.push(m);
                }
            }
            seen.len()
        })
        .collect();
    let groups: Vec<&str> = all
        .iter()
        .map(|f| {
            f.group
                .and_then(|n| f.name.get(..n))
                .unwrap_or_else(|| failure_group(&f.name))
        })
        .collect();
    // Names of the failures not detailed need room too, unless every one fits with its detail.
    let every_one = listed.tokens + costs.iter().sum::<u64>();
    let all_fit = all.len() as u64 == f.total && every_one <= limit;
    let details_limit = if all_fit {
        limit
    } else {
        limit - limit / NAMES_SHARE
    };
    // A failure an earlier list showed word for word: said to be the same, after the others.
    let echoes: Vec<Option<&Failure>> = all
        .iter()
        .map(|a| {
            let same = |b: &&&Failure| b.detail == a.detail;
            before.iter().find(same).copied().filter(|_| a.has_detail())
        })
        .collect();
    let mut chosen = vec![false; all.len()];
    // The failures said as the same as one shown (`same as L33`), with where they are.
    let mut repeats = vec![false; all.len()];
    let mut tokens = listed.tokens;
    // What the failures chosen so far showed.
    let mut said: Vec<&[String]> = Vec::new();
    // The messages shown, each with the failure that showed it.
    let mut said_messages: Vec<(&str, usize)> = Vec::new();
    // The failures chosen whose form is shown.
    let mut seen_forms: Vec<usize> = Vec::new();
    let mut seen_groups: Vec<&str> = Vec::new();
    let nameless = |i: usize| all[i].name.is_empty();
    // Failed tests, each a test to fix, the first ones first.
    let tests = f.of_tests();
    // Where each failure happened, as its detail says (`test_schema.py:321`).
    let places: Vec<Vec<&str>> = all.iter().map(|f| places(&f.detail)).collect();
    // A failure at a place none chosen is at (another test to fix, not the same helper's
    // assertion again with other values); without a place, with a message none chosen has.
    let elsewhere = |i: usize, chosen: &[bool]| {
        let mut others = (0..all.len()).filter(|&j| chosen[j]);
        match places[i].is_empty() {
            false => others.all(|j| places[i].iter().all(|p| !places[j].contains(p))),
            true => others.all(|j| messages[j] != messages[i]),
        }
    };
    'rounds: for round in 0..4 {
        loop {
            let new_group = |i: usize| !seen_groups.contains(&groups[i]);
            let mut eligible = (0..all.len()).filter(|&i| {
                let repeated = all[i].has_detail() && said.contains(&all[i].detail.as_slice());
                !chosen[i]
                    && !repeated
                    && echoes[i].is_none()
                    && match round {
                        0 => {
                            (tests && i < FIRST_DETAILED && elsewhere(i, &chosen))
                                || forms[i].is_some()
                                    && !seen_forms.iter().any(|&j| {
                                        forms[j] == forms[i]
                                            || (nameless(i) && alike(&words[j], &words[i]))
                                    })
                        }
                        1 => messages[i]
                            .as_deref()
                            .is_some_and(|m| !said_messages.iter().any(|s| s.0 == m)),
                        2 => new_group(i),
                        _ => true,
                    }
            });
            let next = if round == 1 {
                eligible.min_by_key(|&i| (rarity[i], variety[i], !new_group(i), i))
            } else {
                eligible.next()
            };
            let Some(i) = next else {
                break;
            };
            if round == 0
                && !all_fit
                && let Some(&(_, j)) = messages[i]
                    .as_deref()
                    .and_then(|m| said_messages.iter().find(|s| s.0 == m))
            {
                // One of the first failures, failing as one shown did: where it is.
                lines[i] = repeat_line(all[i], all[j]);
                costs[i] = cost(&lines[i]);
                repeats[i] = true;
            }
            if tokens + costs[i] > details_limit {
                // Whole details fit no more: the others get the first line of theirs while
                // that fits (one more failure detailed is worth more than the rest of one).
                if detail == Detail::Compact || compact {
                    break 'rounds;
                }
                compact = true;
                for k in (0..all.len()).filter(|&k| !chosen[k] && !repeats[k]) {
                    lines[k] = failure_line(all[k], Detail::Compact);
                    costs[k] = cost(&lines[k]);
                }
                if tokens + costs[i] > details_limit {
                    break 'rounds;
                }
            }
            tokens += costs[i];
            chosen[i] = true;
            said.push(&all[i].detail);
            said_messages.extend(messages[i].as_deref().map(|m| (m, i)));
            if forms[i].is_some() {
                seen_forms.push(i);
            }
            seen_groups.push(groups[i]);
        }
    }
    // What room is left goes to failures whose message was shown (where they are is short),
    // while every name the names line showed is still shown.
    let names_shown = |chosen: &[bool], tokens: u64| {
        names_line(f, &all, chosen, tokens, limit, cost)
            .map_or((tokens, Vec::new()), |(line, shown)| {
                (tokens + cost(&line), shown)
            })
    };
    let (_, mut named) = names_shown(&chosen, tokens);
    for i in 0..all.len() {
        let repeated = all[i].has_detail() && said.contains(&all[i].detail.as_slice());
        let shown_by = messages[i]
            .as_deref()
            .and_then(|m| said_messages.iter().find(|s| s.0 == m))
            .map(|&(_, j)| all[j])
            .or(echoes[i]);
        let Some(first) = shown_by.filter(|_| !chosen[i] && !repeated) else {
            continue;
        };
        let line = repeat_line(all[i], first);
        let c = cost(&line);
        chosen[i] = true;
        let (total, after) = names_shown(&chosen, tokens + c);
        let kept = |name: &&str| *name == all[i].name || after.contains(name);
        if total <= limit && named.iter().all(kept) {
            tokens += c;
            lines[i] = line;
            named = after;
        } else {
            chosen[i] = false;
        }
    }
    if !tests {
        tokens -= same_places(&all, &chosen, &mut lines, cost);
    }
    listed.tokens = tokens;
    for (i, failure) in all.iter().enumerate() {
        if chosen[i] {
            listed.shown.push((failure.line, lines[i].clone()));
            listed.lines.extend(lines[i].split('\n').map(str::to_owned));
            listed.detailed += 1;
        }
    }
    if let Some((line, _)) = names_line(f, &all, &chosen, tokens, limit, cost) {
        listed.tokens += cost(&line);
        listed.lines.push(line);
    }
    listed
}

/// The failures chosen that failed where one listed before them did, each with a message of
/// its own (`ValueError: … 'x1'` after `… 'abc'`, both raised at `File "views.py", line 15`):
/// their lines say `same place as L88` for the place and source the earlier line showed. What
/// that saved. Not for failed tests: each is a test to fix, its place said with it.
fn same_places(
    all: &[&Failure],
    chosen: &[bool],
    lines: &mut [String],
    cost: &dyn Fn(&str) -> u64,
) -> u64 {
    let says_where = |d: &String| {
        super::shapes::names::says_where(d)
            || super::shapes::names::is_place(d)
            || !places(std::slice::from_ref(d)).is_empty()
    };
    let mut saved = 0;
    let mut shortened = vec![false; all.len()];
    for i in (0..all.len()).filter(|&i| chosen[i] && all[i].detail.len() > 1) {
        let rest = &all[i].detail[1..];
        if !rest.iter().any(says_where) {
            continue;
        }
        let Some(mode) = [Detail::Whole, Detail::Compact]
            .into_iter()
            .find(|&m| lines[i] == failure_line(all[i], m))
        else {
            continue;
        };
        let Some(j) = (0..i).find(|&j| {
            chosen[j] && !shortened[j] && rest.iter().all(|d| lines[j].contains(d.as_str()))
        }) else {
            continue;
        };
        let message = Failure {
            detail: all[i].detail[..1].to_vec(),
            ..all[i].clone()
        };
        let line = format!(
            "{} · same place as L{}",
            failure_line(&message, mode),
            thousands(all[j].line)
        );
        let (before, after) = (cost(&lines[i]), cost(&line));
        if after < before {
            saved += before - after;
            lines[i] = line;
            shortened[i] = true;
        }
    }
    saved
}

/// `text` without its trailing blanks and with each run of blanks as one.
fn single_blanks(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if !out.is_empty() || text.starts_with(' ') {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `text` with each run of digits as one `0`.
fn without_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !digits {
                out.push('0');
            }
            digits = true;
        } else {
            out.push(c);
            digits = false;
        }
    }
    out
}

/// Whether two forms, by their words, are one template with a word or two of its own each
/// (`user bob not found: /admin/`, `user mallory not found: /admin/`): as many words, nearly
/// all the same in the same places.
fn alike(a: &[&str], b: &[&str]) -> bool {
    if a.len() != b.len() || a.len() < ALIKE_MIN_WORDS {
        return false;
    }
    let same = a.iter().zip(b).filter(|(x, y)| x == y).count();
    same * ALIKE_SHARE_DEN >= a.len() * ALIKE_SHARE_NUM
}

/// The places a failure's detail names: each word that is a path with a line
/// (`tests/test_a.py:12`, `src/x.rs:4:5`), without the punctuation around it.
fn places(detail: &[String]) -> Vec<&str> {
    detail
        .iter()
        .flat_map(|d| d.split_whitespace())
        .map(|w| w.trim_matches(|c: char| matches!(c, '(' | ')' | ',' | ':' | '"' | '\'')))
        .filter(|w| {
            w.split_once(':').is_some_and(|(path, line)| {
                let path = path.trim_start_matches("./");
                path.contains('.')
                    && !path.starts_with('.')
                    && line
                        .split(':')
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
        })
        .collect()
}

/// The failed tests detailed first whatever their form: the first ones a reader fixes, in
/// order (a second `DID NOT RAISE` at another place is another test to fix).
const FIRST_DETAILED: usize = 3;

/// Forms of fewer words are alike only when equal: a short message's one other word is what
/// it says (`connect timeout: db`, `read timeout: db`).
const ALIKE_MIN_WORDS: usize = 4;
/// The share of their words two forms must have in the same places to be alike: two in three.
const ALIKE_SHARE_NUM: usize = 2;
const ALIKE_SHARE_DEN: usize = 3;

/// `  … 4 more failed: a, b, …` for the failures of `all` not `chosen`, with as many names as
/// fit in `limit` past `tokens`, the last failure's always; and the names it shows.
/// `None` when every failure is shown, or none.
fn names_line<'a>(
    f: &'a Failures,
    all: &[&'a Failure],
    chosen: &[bool],
    tokens: u64,
    limit: u64,
    cost: &dyn Fn(&str) -> u64,
) -> Option<(String, Vec<&'a str>)> {
    let detailed = chosen.iter().filter(|c| **c).count() as u64;
    if detailed == 0 || detailed >= f.total {
        return None;
    }
    let unshown: Vec<&Failure> = all
        .iter()
        .zip(chosen)
        .filter(|(_, c)| !**c)
        .map(|(f, _)| *f)
        .collect();
    // The output's last failure, when it is not shown (the last kept when all were).
    let last = f
        .last
        .as_ref()
        .or(f.kept.last())
        .filter(|l| unshown.last() == Some(l) && !l.name.is_empty());
    let mut named: Vec<&str> = unshown
        .iter()
        .filter(|u| Some(**u) != last && !u.name.is_empty())
        .map(|u| u.name.as_str())
        .collect();
    let mut take = named.len();
    let failed = f.heading.contains("failed");
    let mut line = more_line(f.total - detailed, failed, &named[..take], last);
    while take > 0 && tokens + cost(&line) > limit {
        take -= 1;
        line = more_line(f.total - detailed, failed, &named[..take], last);
    }
    named.truncate(take);
    named.extend(last.map(|l| l.name.as_str()));
    Some((line, named))
}

/// The group a failing test belongs to: its name up to the first nesting separator
/// (`TestX/sub`, `describe > test`, `describe › test`), without the parameters of a
/// parametrised test or subtest (`test_range[int-5]`, `Tests.test_basic (size=1)`).
fn failure_group(name: &str) -> &str {
    let end = [" > ", " › ", "/", "[", " ("]
        .iter()
        .filter_map(|sep| name.find(sep))
        .min()
        .unwrap_or(name.len());
    &name[..end]
}

/// `  L1,204 name: detail · detail`; when the runner said it failed in a line of its own, that
/// line as printed and the detail under it (`test a::b ... FAILED` then `  L36 detail`, or
/// only `  L36` when it has none), two lines joined by a newline.
fn failure_line(failure: &Failure, detail: Detail) -> String {
    let (mut line, name) = match &failure.said {
        Some(said) => (format!("{said}\n  L{}", thousands(failure.line)), ""),
        None => (
            format!("  L{}", thousands(failure.line)),
            failure.name.as_str(),
        ),
    };
    if !name.is_empty() {
        line.push(' ');
        line.push_str(name);
    }
    if failure.has_detail() {
        line.push_str(if name.is_empty() { " " } else { ": " });
        match detail {
            Detail::Whole => line.push_str(&failure.detail.join(" · ")),
            Detail::Compact => {
                // The detail's lines while they fit in `COMPACT_CHARS` (a panic's location is
                // nothing without the values under it), the first always; then where (`at …`).
                // A first line that only says where (`panicked at src/a.rs:4:5:`) goes last
                // too, when a line that says how follows it.
                let mut first = &failure.detail[0];
                let mut at = failure.detail[1..]
                    .iter()
                    .find(|d| super::shapes::names::says_where(d));
                if at.is_none()
                    && super::shapes::names::is_place(first)
                    && let Some(how) = failure.detail[1..].first()
                {
                    at = Some(first);
                    first = how;
                }
                let mut compact = crate::format::cut(first, COMPACT_CHARS);
                for (k, d) in failure
                    .detail
                    .iter()
                    .filter(|d| *d != first && Some(*d) != at)
                    .enumerate()
                {
                    // A first line that ends in a label (`rule_test.go:1408: have:`) says
                    // nothing without what follows it.
                    let introduced = k == 0 && first.ends_with(':');
                    if introduced {
                        compact.push_str(" · ");
                        compact.push_str(&crate::format::cut(d, COMPACT_CHARS));
                        continue;
                    }
                    if compact.chars().count() + 3 + d.chars().count() > COMPACT_CHARS {
                        break;
                    }
                    compact.push_str(" · ");
                    compact.push_str(d);
                }
                line.push_str(&compact);
                if let Some(at) = at {
                    line.push_str(" · ");
                    line.push_str(at);
                }
            }
        }
    }
    line
}

/// A failure whose message `first` showed: its runner's line or name, `same as L1,108`, and
/// the lines of its detail `first` did not show (`at ./spec/a_spec.rb:131`).
fn repeat_line(failure: &Failure, first: &Failure) -> String {
    let mut line = match &failure.said {
        Some(said) => format!("{said}\n  L{} ", thousands(failure.line)),
        None if failure.name.is_empty() => format!("  L{} ", thousands(failure.line)),
        None => format!("  L{} {}: ", thousands(failure.line), failure.name),
    };
    line.push_str(&format!("same as L{}", thousands(first.line)));
    let message = failure.message();
    for d in &failure.detail {
        if Some(d.as_str()) != message && !first.detail.contains(d) {
            line.push_str(" · ");
            line.push_str(d);
        }
    }
    line
}

/// `  … 51 more failed: a, b, … 46 more …, L1,590 z`: the failures not detailed (`failed` when
/// the list is of failed tests or targets, so the line reads on its own). Names that are
/// phrases (`two sets are not equal (reversed)`) or hold a comma go one to a line under it
/// instead: joined by commas, where one ends would be a guess.
fn more_line(count: u64, failed: bool, names: &[&str], last: Option<&Failure>) -> String {
    let mut line = format!("  … {} more", thousands(count));
    if failed {
        line.push_str(" failed");
    }
    if names.is_empty() && last.is_none() {
        return line;
    }
    let mut parts = runs(names);
    let unnamed = count - names.len() as u64 - u64::from(last.is_some());
    if unnamed > 0 {
        parts.push(match last {
            Some(_) => format!("… {} more …", thousands(unnamed)),
            None => format!("… {} more", thousands(unnamed)),
        });
    }
    if let Some(last) = last {
        parts.push(format!("L{} {}", thousands(last.line), last.name));
    }
    let phrases = parts.len() > 1
        && names
            .iter()
            .chain(last.map(|l| l.name.as_str()).as_ref())
            .any(|n| n.contains(',') || n.matches(' ').count() >= PHRASE_SPACES);
    if phrases {
        line.push(':');
        for part in parts {
            line.push_str("\n    ");
            line.push_str(&part);
        }
    } else {
        line.push_str(": ");
        line.push_str(&parts.join(", "));
    }
    line
}

/// A failure's name of this many spaces or more is a phrase (`fails when not given an array`),
/// not an identifier with a parameter (`MarkEndsTests.test_basic (size=2)`).
const PHRASE_SPACES: usize = 3;

/// Names, a run of one name once with its count (`Invalid read of size 1 ×20`).
fn runs(names: &[&str]) -> Vec<String> {
    names
        .chunk_by(|a, b| a == b)
        .map(|run| match run.len() {
            1 => run[0].to_owned(),
            n => format!("{} ×{}", run[0], thousands(n as u64)),
        })
        .collect()
}

/// The text a `go test -json` event carries (`{"Time":…,"Action":"output",…,"Output":"--- FAIL:
/// TestX (0.00s)\n"}`, or a compiler's `build-output`), which is what `go test` prints without
/// `-json`: its runner reads it as such. Its other events (`run`, `pass`, `fail`) say again
/// what that text said, and carry none.
fn test2json_output(line: &str) -> Option<String> {
    // Most lines are not JSON: they are passed over on their first byte.
    let carries = line.starts_with('{')
        && (line.contains(r#""Action":"output""#) || line.contains(r#""Action":"build-output""#));
    if !carries {
        return None;
    }
    let event: Value = serde_json::from_str(line).ok()?;
    Some(event.get("Output")?.as_str()?.to_owned())
}

/// A `ctxoff grep` hint for `go test -json` events: what it looks for at the start of a line
/// is at the start of an event's text, after its opening quote (`'^\s*--- FAIL|^panic:' -A 2`
/// → `'"\s*--- FAIL|"panic:' -A 2`).
fn unanchored(hint: &str) -> String {
    hint.replace("'^", "'\"").replace("|^", "|\"")
}

/// What the analysis found: notable lines in the omitted range and facts about the output.
#[derive(Clone, Debug)]
pub(crate) struct Report {
    notable: Option<NotableReport>,
    facts: Vec<Fact>,
    failures: Vec<String>,
}

impl Report {
    /// Summary lines: facts, failures with their details, then notable counts and examples.
    pub(crate) fn render(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for fact in &self.facts {
            lines.extend(fact.shown());
        }
        lines.extend(self.failures.iter().cloned());
        if let Some(notable) = &self.notable {
            lines.extend(notable.render());
        }
        lines
    }

    /// The `ctxoff grep` arguments that answer the obvious next question about this output:
    /// the first recognised shape's, else one built from the notable kinds found.
    pub(crate) fn hint(&self) -> Option<String> {
        self.facts
            .iter()
            .find_map(|f| f.hint.clone())
            .or_else(|| self.notable.as_ref().and_then(NotableReport::hint))
    }

    /// `{"from", "to", "kinds": [{"kind", "count", "first"}], "examples": [{"line", "text"}]}`,
    /// or `null` when nothing notable was omitted.
    pub(crate) fn notable_json(&self) -> Value {
        self.notable
            .as_ref()
            .map_or(Value::Null, NotableReport::json)
    }

    /// An array with one object per recognised shape, each with a `"shape"` key (and its
    /// failures under `"failures"` when it has any).
    /// The recognised shapes, as the facts' JSON names them, in the summary's order, each once.
    pub(crate) fn shapes(&self) -> Vec<String> {
        let mut shapes: Vec<String> = self
            .facts
            .iter()
            .filter_map(|f| f.json["shape"].as_str().map(str::to_owned))
            .collect();
        shapes.dedup();
        shapes
    }

    pub(crate) fn facts_json(&self) -> Value {
        Value::Array(
            self.facts
                .iter()
                .map(|f| {
                    let mut json = f.json.clone();
                    if !f.failures.is_empty()
                        && let Value::Object(map) = &mut json
                    {
                        let lists: Vec<Value> = f.failures.iter().map(|l| l.json()).collect();
                        let shadowed = map.insert("failures".into(), Value::Array(lists));
                        debug_assert!(shadowed.is_none(), "{} names a fact `failures`", f.shape);
                    }
                    json
                })
                .collect(),
        )
    }

    /// The whole output is one valid JSON value (whitespace around it allowed).
    pub(crate) fn is_json_document(&self) -> bool {
        self.facts.iter().any(|f| f.shape == "json")
    }
}

#[cfg(test)]
mod tests {
    use super::{Detail, Failure, failure_group, failure_line, places};
    use crate::summary::shapes::names::form;

    #[test]
    fn the_places_a_detail_names_are_its_paths_with_a_line() {
        let detail = [
            "panicked at src/tests.rs:44:5:".to_owned(),
            "left: 1140 · at (./spec/change_spec.rb:58)".to_owned(),
            "test_schema.py:321: Failed".to_owned(),
            "expected 1.5 got 2, ratio 3:4 ... done".to_owned(),
        ];
        assert_eq!(
            places(&detail),
            [
                "src/tests.rs:44:5",
                "./spec/change_spec.rb:58",
                "test_schema.py:321"
            ]
        );
    }

    #[test]
    fn a_form_leaves_out_the_values_compared() {
        let same = [
            (
                "expected 1 to be 2 // Object.is equality",
                "expected -136 to be +135 // Object.is equality",
            ),
            (
                "expected 2020-01-11T00:00:00.000Z to deeply equal 2020-01-13T00:00:00.000Z",
                "expected 2018-09-22T00:00:00.000Z to deeply equal 2019-08-12T00:00:00.000Z",
            ),
            (
                "Lists differ: [(True, False, '0')] != [(True, True, '0')]",
                "Lists differ: [(Tru[15 chars] (False, False, '1')] != [(Tru[15 chars] (False, Fal…",
            ),
            (
                "Name \"default_hooks\" is not defined",
                "Name \"x\" is not defined",
            ),
            (
                "TypeError: 'generator' object is not reversible",
                "TypeError: 'map' object is not reversible",
            ),
            (
                "panicked at src/tests.rs:44:5:",
                "panicked at src/engine/tests.rs:1273:5:",
            ),
            (
                "tests/test_more.py:3388: AssertionError",
                "src/a.py:7: AssertionError",
            ),
            // A value after the label that opens the detail (jasmine's spec runners).
            (
                "Expected: <p>AAA&lt;script&gt; &lt;img &",
                "Expected: <h1 id=\"markdown-basics\">Markd",
            ),
        ];
        for (a, b) in same {
            assert_eq!(form(a), form(b), "{a} / {b}");
        }
        let different = [
            (
                "expected 1 to be 2 // Object.is equality",
                "expected '1' to be '2' // Object.is equality",
            ),
            (
                "expected 1 to deeply equal 2",
                "expected [ 1 ] to deeply equal [ 2 ]",
            ),
            ("expected true to be false", "expected 1 to be 2"),
            ("AssertionError: 6 != 5", "TypeError: 6 != 5"),
            ("panicked at src/a.rs:1:1:", "panicked at 12:30"),
            ("Expected: <p>a</p>", "Expected $.length = 10 to equal 9."),
        ];
        for (a, b) in different {
            assert_ne!(form(a), form(b), "{a} / {b}");
        }
        // An apostrophe in a word opens no string.
        assert_eq!(form("doesn't fit 3"), "doesn't fit 0");
        // gcc's quotes hold values too.
        assert_eq!(
            form("no matching function for call to ‘f<int [2]>(int)’"),
            form("no matching function for call to ‘g<char>()’")
        );
    }

    #[test]
    fn a_group_is_a_test_without_its_parameters() {
        for (name, group) in [
            ("TestDiff/Project3/Inequal", "TestDiff"),
            ("addBusinessDays > context > allows", "addBusinessDays"),
            ("test_range[type8-5-4]", "test_range"),
            (
                "MarkEndsTests.test_basic (size=1)",
                "MarkEndsTests.test_basic",
            ),
            ("tests::parse", "tests::parse"),
        ] {
            assert_eq!(failure_group(name), group);
        }
    }

    #[test]
    fn a_failure_is_named_by_the_runners_line_when_known() {
        let failure = Failure {
            line: 36,
            name: "a::b".into(),
            said: Some("test a::b ... FAILED".into()),
            detail: vec![
                "AssertionError: 1 != 2".into(),
                "x".repeat(100),
                "File \"t.py\", line 4, in test_b".into(),
            ],
            ..Failure::default()
        };
        assert_eq!(
            failure_line(&failure, Detail::Compact),
            "test a::b ... FAILED\n  L36 AssertionError: 1 != 2 · File \"t.py\", line 4, in test_b"
        );
    }

    #[test]
    fn a_compact_detail_keeps_the_lines_that_fit_and_where() {
        let failure = Failure {
            line: 7,
            name: "t".into(),
            detail: [
                "panicked at src/a.rs:1:1:",
                "assertion `left == right` failed",
                "left: 1",
                "right: 2",
                "at src/a.rs:1",
            ]
            .map(String::from)
            .to_vec(),
            ..Failure::default()
        };
        assert_eq!(
            failure_line(&failure, Detail::Compact),
            "  L7 t: panicked at src/a.rs:1:1: · assertion `left == right` failed · left: 1 · right: 2 · at src/a.rs:1"
        );
        let long = Failure {
            detail: vec!["x".repeat(100), "second line".into(), "at here".into()],
            ..failure
        };
        assert_eq!(
            failure_line(&long, Detail::Compact),
            format!("  L7 t: {} · at here", "x".repeat(100))
        );
        // A first line that ends in a label keeps what follows it, however long.
        let labelled = Failure {
            detail: vec!["x_test.go:4: have:".into(), "y".repeat(100), "third".into()],
            ..long
        };
        assert_eq!(
            failure_line(&labelled, Detail::Compact),
            format!("  L7 t: x_test.go:4: have: · {}", "y".repeat(100))
        );
    }
}
