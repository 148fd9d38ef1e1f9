//! One module per subcommand; `read` is what `grep` and `lines` share.

pub mod grep;
pub mod lines;
pub mod list;
mod read;
