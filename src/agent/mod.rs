//! Agent integrations: the hooks that run an agent's shell commands through ctxoff.

pub(crate) mod claude;
pub mod codex;
pub mod gemini;
pub(crate) mod hooks;
pub(crate) mod install;
pub(crate) mod instructions;
pub(crate) mod offload;
pub mod opencode;
pub(crate) mod rewrite;
pub(crate) mod wrap;
