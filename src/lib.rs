//! ctxoff: run a command, pass small output through, offload large output to a session file and
//! print a summary an agent can trust. `main.rs` is a thin shell around this library.

pub mod cmd;
pub mod reference;
pub mod store;
pub mod text;
pub mod tokens;
