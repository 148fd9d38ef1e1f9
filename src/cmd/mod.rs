//! One module per subcommand: its clap arguments and its `run`.

pub mod hook;
pub mod init;
