//! Agent integrations: the hooks that run an agent's shell commands through ctxoff.

pub(crate) mod claude;
pub(crate) mod wrap;
