//! The summary the reader gets instead of a large output (SPEC §3): a header with exact counts
//! and the path, head and tail, what was omitted, counted facts, and the commands to read more.
//! `preview` picks head and tail; `analysis` counts notable lines and facts while streaming,
//! with one small summariser per recognised output shape (`shapes`); `render` writes the summary
//! from a plain view of what was saved, so it knows nothing of how the output was captured.

pub(crate) mod analysis;
pub(crate) mod notable;
pub(crate) mod preview;
mod render;
mod shapes;

#[cfg(test)]
mod tests;

pub(crate) use analysis::{Analysis, Report};
pub(crate) use notable::NotablePatterns;
pub(crate) use render::{Origin, Saved, render, to_json};
pub(crate) use shapes::Source;

use crate::tokens::Tokenizer;
use preview::{Ends, Preview};

/// Failures with their details get up to half the preview budget, and at least this many
/// tokens however small the budget: the first failure's detail is what a reader needs most.
const FAILURE_FLOOR: u64 = 250;

/// Head, tail and report of an output the analysis has seen whole. The facts and the failures
/// with their first details are decided first (the failures within half the budget, less what
/// the facts take, but at least `FAILURE_FLOOR`); what they take, up to half the budget, is
/// taken from the head and tail. `tokens` is the whole output's count, for the exact omitted
/// figure.
pub(crate) fn summarise(
    analysis: Analysis,
    ends: &Ends,
    tokenizer: &Tokenizer,
    budget: u64,
    tokens: Option<u64>,
) -> (Preview, Report) {
    let findings = analysis.conclude();
    let facts = findings.fact_tokens(tokenizer);
    let failure_budget = (budget / 2).saturating_sub(facts).max(FAILURE_FLOOR);
    let failures = findings.failure_lines(Some((tokenizer, failure_budget)));
    let preview_budget = budget - (facts + failures.tokens).min(budget / 2);
    let mut preview = Preview::new(ends, tokenizer, preview_budget.max(1));
    if let Some(total) = tokens {
        preview.count_omitted(ends, tokenizer, total);
    }
    let omitted = preview.omitted_lines(ends.total_lines);
    (preview, findings.report(omitted, failures))
}
