//! The command-line model: how a shell command line splits into words, what it runs, through
//! which wrappers, what its output is called, and whether a command pattern matches it.

pub mod lex;
mod naming;
mod patterns;

pub use naming::output_name;
pub use patterns::matches_keep;
