//! The command-line model: how a shell command line splits into words (`lex`), what it runs
//! through which wrappers (`wrappers`), what its output is called (`naming`), whether a
//! command pattern matches it (`patterns`), and whether it is run to read or list content
//! (`reading`). Naming, the hook's wrap decision and `keep` all use
//! it; an agent's own permission rules do not (each client sees through its own list).

mod builtins;
pub(crate) mod lex;
mod naming;
mod patterns;
mod reading;
mod wrappers;

pub(crate) use builtins::is_builtin;
pub(crate) use naming::output_name;
pub(crate) use patterns::{first_match, is_kept};
pub(crate) use reading::Purpose;
pub(crate) use wrappers::{Invocation, base_name};
