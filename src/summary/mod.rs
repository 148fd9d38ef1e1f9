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
