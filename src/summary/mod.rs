//! The summary's analysis of an output: notable lines and counted facts about recognised shapes.
//! (Minimal module list for the `summary` branch; the preview owner merges the full file.)

pub mod analysis;
mod diagnostics;
mod format;
mod gcc;
mod gotest;
mod grep;
mod jest;
mod json;
mod libtest;
pub mod notable;
mod pytest;
mod rustc;
mod tsc;
mod vitest;

#[cfg(test)]
mod tests;

pub use analysis::{Analysis, Report};
pub use notable::NotablePatterns;
