//! One module per subcommand; `run` is run and pipe mode.

pub mod count;
pub mod gc;
pub mod hook;
pub mod init;
pub mod run;
