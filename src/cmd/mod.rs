//! One module per subcommand, each an arguments type that implements [`Run`]; `run` is run and
//! pipe mode, `read` serves `grep` and `lines`, `record` keeps what they print in the history
//! `stats` adds up. Every subcommand runs with a [`Context`]: the settings, the standard
//! streams, and where the user is.

use anyhow::Result;
use std::cell::OnceCell;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::config::{Flags, Settings};
use crate::store::Store;

pub mod count;
pub mod gc;
pub mod grep;
pub mod hook;
pub mod init;
pub mod lines;
pub mod list;
mod read;
mod record;
pub mod run;
pub mod stats;

/// A subcommand (or run mode), ready to run.
pub trait Run {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode>;
}

/// What a subcommand runs with.
pub struct Context<'a> {
    flags: Flags,
    /// Resolved on first use, so a subcommand that must never fail (the agent hook) can do
    /// without a bad config file.
    settings: OnceCell<Settings>,
    /// The user's home directory, `None` when it cannot be found.
    pub home: Option<PathBuf>,
    /// The working directory, `None` when it cannot be read.
    pub cwd: Option<PathBuf>,
    /// Where the history of offloads and read-backs is kept, found on first use: output that
    /// passes through records nothing, so it does not even look.
    history: OnceCell<Option<PathBuf>>,
    pub stdin: &'a mut dyn Read,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

impl<'a> Context<'a> {
    /// The context of a real run: settings from `flags`, the environment and the config file;
    /// home and working directory from the process.
    pub fn new(
        flags: Flags,
        stdin: &'a mut dyn Read,
        out: &'a mut dyn Write,
        err: &'a mut dyn Write,
    ) -> Context<'a> {
        Context {
            flags,
            settings: OnceCell::new(),
            home: directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf()),
            cwd: std::env::current_dir().ok(),
            history: OnceCell::new(),
            stdin,
            out,
            err,
        }
    }

    /// A context with the settings given, for tests: no home or working directory, no history.
    pub fn with_settings(
        settings: Settings,
        stdin: &'a mut dyn Read,
        out: &'a mut dyn Write,
        err: &'a mut dyn Write,
    ) -> Context<'a> {
        Context {
            settings: OnceCell::from(settings),
            home: None,
            cwd: None,
            history: OnceCell::from(None),
            ..Context::new(Flags::default(), stdin, out, err)
        }
    }

    /// The settings: flags > environment > config file > defaults. An error names what is wrong.
    pub(crate) fn settings(&self) -> Result<&Settings> {
        if let Some(settings) = self.settings.get() {
            return Ok(settings);
        }
        let settings = Settings::resolve(&self.flags)?;
        Ok(self.settings.get_or_init(|| settings))
    }

    /// The history's directory; `None`: nowhere, nothing is recorded.
    pub(crate) fn history(&self) -> Option<&Path> {
        self.history
            .get_or_init(crate::history::History::location)
            .as_deref()
    }

    /// The scratch space to read outputs from.
    pub(crate) fn store(&self) -> Result<Store> {
        self.settings()?.store()
    }
}
