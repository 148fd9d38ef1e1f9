//! ctxoff: run a command, pass small output through, offload large output to a session file and
//! print a summary an agent can trust. `main.rs` is a thin shell around this library.
//!
//! Data flows one way: `capture` reads the child, `offload` decides and streams to the `store`
//! while `tokens` counts and `summary` analyses; `cmd` holds one module per subcommand.

pub mod agent;
pub mod cli;
pub mod cmd;
pub mod command;
pub mod config;
pub mod error;
pub mod format;
pub mod run;
pub mod store;
pub mod summary;
pub mod text;
pub mod tokens;
