//! One module per subcommand; `run` is run and pipe mode, `read` serves `grep` and `lines`.

pub mod count;
pub mod gc;
pub mod grep;
pub mod hook;
pub mod init;
pub mod lines;
pub mod list;
mod read;
pub mod run;
