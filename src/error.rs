//! Errors that carry an exit status. Everything else is an `anyhow` error at the edges, printed
//! once as `ctxoff: <cause chain>` with exit status 2 (usage, configuration, bad input).

use std::fmt;

/// An error with a specific exit status, e.g. 127 for a command that was not found.
#[derive(Debug)]
pub(crate) struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(code: u8, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}

/// The exit status for an error: the `Failure`'s own, else 2.
pub fn exit_code(err: &anyhow::Error) -> u8 {
    err.chain()
        .find_map(|e| e.downcast_ref::<Failure>())
        .map_or(2, |f| f.code)
}

/// Whether the error is a closed reader (`ctxoff … | head`): not worth a message.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
