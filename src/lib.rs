//! ctxoff: run a command, pass small output through, offload large output to a session file and
//! print a summary an agent can trust. `main.rs` is a thin shell around this library.
//!
//! Data flows one way: `run` captures the child, decides, and streams large output to the
//! `store` while `tokens` counts and `summary` analyses; retrieval (`cmd::grep`, `cmd::lines`)
//! reads the store back. `command` models command lines (wrappers, names, `keep`), `agent` holds
//! the agents' hooks, `cmd` one module per subcommand; `history` keeps what offloads and
//! read-backs cost, for `stats`; `format` and `text` are leaves.
//!
//! Only what `main.rs` and the integration tests use is `pub`; everything else is `pub(crate)`,
//! so the compiler reports what nothing uses.

#![warn(unreachable_pub)]

pub mod agent;
pub mod cli;
pub mod cmd;
pub(crate) mod command;
pub mod config;
pub mod error;
pub(crate) mod format;
pub(crate) mod history;
pub(crate) mod run;
pub mod store;
pub(crate) mod summary;
pub mod text;
pub mod tokens;
