//! The summary the reader gets instead of a large output (SPEC §3): a header with exact counts
//! and the path, head and tail, what was omitted, counted facts, and the commands to read more.
//! `preview` picks head and tail; `analysis` counts notable lines and facts while streaming,
//! with one small summariser per recognised output shape (`shapes`); `render` writes the summary
//! from a plain view of what was saved, so it knows nothing of how the output was captured.

pub(crate) mod analysis;
pub(crate) mod notable;
mod prefix;
pub(crate) mod preview;
mod render;
mod sections;
mod shapes;

#[cfg(test)]
mod tests;

pub(crate) use analysis::{Analysis, FailureLines, Report};
pub(crate) use notable::NotablePatterns;
pub(crate) use render::{Origin, Saved, render, to_json};
pub(crate) use shapes::Source;

use crate::tokens::Tokenizer;
use preview::{Ends, Preview};

/// Failures with their details get up to `findings_share` of the preview budget (less what the
/// facts take), and at least this many tokens however small the budget: each way of failing
/// with its first detail is what a reader needs most, more than a run's progress lines in head
/// and tail (450 tokens hold five or six failures with their values and places; 350, the
/// floor before, left the fourth of six phpunit failures without its detail).
const FAILURE_FLOOR: u64 = 450;

/// Sections of an output (packages' runs in a monorepo's) that each get the failure floor, at
/// most: each run's failures are what a run of its own would show.
const FLOORED_SECTIONS: u64 = 4;

/// When facts and failures alone take the whole budget or more (a monorepo's runs, each with
/// its failures), head and tail get this part of it (a sixth: the runner's first and last lines)
/// instead of the quarter they keep otherwise: what the summary says past the budget is
/// failures, and the head of such a run is its banner.
const OVERFLOW_PREVIEW: u64 = 6;

/// The share of the preview budget facts and failures may take from head and tail: three
/// quarters of the default budget (1,000 tokens) or more, half of a smaller one (its head and
/// tail are a few lines already, and often hold the totals).
fn findings_share(budget: u64) -> u64 {
    if budget >= 1_000 {
        budget / 4 * 3
    } else {
        budget / 2
    }
}

/// Head, tail and report of an output the analysis has seen whole. The facts and the failures
/// with their first details are decided first (the failures within `findings_share` of the
/// budget, less what the facts take, but at least `FAILURE_FLOOR` for each section with
/// failures, up to `FLOORED_SECTIONS`); what they and the notable lines take, up to that
/// share, is taken from the head and tail, and more when they take the whole budget
/// (`OVERFLOW_PREVIEW`). `tokens` is the whole output's count, for the exact
/// omitted figure.
pub(crate) fn summarise(
    analysis: Analysis,
    ends: &Ends,
    tokenizer: &Tokenizer,
    budget: u64,
    tokens: Option<u64>,
) -> (Preview, Report) {
    let findings = analysis.conclude();
    let facts = findings.fact_tokens(tokenizer);
    let failure_budget = findings_share(budget)
        .saturating_sub(facts)
        .max(FAILURE_FLOOR * findings.failing_sections().clamp(1, FLOORED_SECTIONS));
    let mut failures = findings.failure_lines(Some((tokenizer, failure_budget)));
    let preview_budget = |taken: u64| {
        if budget >= 1_000 && taken >= budget {
            budget / OVERFLOW_PREVIEW
        } else {
            (budget - taken.min(findings_share(budget))).max(1)
        }
    };
    let mut preview = Preview::new(ends, tokenizer, preview_budget(facts + failures.tokens));
    // The notable lines of the omitted range are part of the budget too: what they take is
    // taken from head and tail, once (the smaller preview omits a little more, which the
    // counts then cover). Past the share head and tail give up (failures of their floor),
    // they would add to the budget: then they are counted without examples, which the
    // failures shown say better.
    let notable_tokens = |failures: &FailureLines, preview: &Preview| {
        findings.notable_tokens(
            preview.omitted_lines(ends.total_lines),
            failures,
            preview,
            tokenizer,
        )
    };
    let mut notable = notable_tokens(&failures, &preview);
    if budget >= 1_000
        && !failures.lines.is_empty()
        && facts + failures.tokens + notable > findings_share(budget)
    {
        failures.filled = true;
        notable = notable_tokens(&failures, &preview);
    }
    if notable > 0 {
        preview = Preview::new(
            ends,
            tokenizer,
            preview_budget(facts + failures.tokens + notable),
        );
    }
    if let Some(total) = tokens {
        preview.count_omitted(ends, tokenizer, total);
    }
    let omitted = preview.omitted_lines(ends.total_lines);
    let report = findings.report(omitted, failures, Some(&preview));
    (preview, report)
}
