//! Settings: flags > environment > config file > defaults (SPEC §7). The flags and their
//! environment variables are declared in `cli`; this module adds the file and the defaults.

use anyhow::{Context, Result, bail};
use serde::Deserialize;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::de::{DeTable, ValueDeserializer};

use crate::tokens::Encoding;

pub(crate) const DEFAULT_THRESHOLD: u64 = 2_500;
pub(crate) const DEFAULT_PREVIEW: u64 = 1_000;
/// Output a command was run to read (`cat`, `sed -n`, `git show`…) passes through up to this
/// many tokens in plain use: about 24 KB of text, below what Claude Code (30,000 characters) and
/// Gemini CLI (40,000) keep whole. With a known agent, that agent's own limit applies too.
pub(crate) const DEFAULT_CONTENT_LIMIT: u64 = 6_000;
pub(crate) const DEFAULT_ROOT: &str = "/tmp/agent";

/// The options given on the command line or in `CTXOFF_*` variables (the command line declares
/// them); what is not given comes from the config file or the defaults.
#[derive(Debug, Clone, Default)]
pub struct Flags {
    pub threshold: Option<u64>,
    pub preview: Option<u64>,
    pub encoding: Option<Encoding>,
    pub dir: Option<PathBuf>,
    pub session: Option<String>,
    pub content_limit: Option<u64>,
}

/// The resolved settings every command works with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Offload when the output has strictly more tokens than this.
    pub threshold: u64,
    /// Tokens of head plus tail in a summary.
    pub preview: u64,
    /// Output run to be read passes through up to this many tokens (never less than the
    /// threshold).
    pub content_limit: u64,
    pub encoding: Encoding,
    pub root: PathBuf,
    /// `None`: resolve from the ancestor process (see `store`).
    pub session: Option<String>,
    /// Extra notable-line patterns (regexes) from the config file.
    pub notable: Vec<String>,
    /// Command patterns never offloaded.
    pub keep: Vec<String>,
    /// Command patterns an agent's hook runs through ctxoff, besides its default list.
    pub wrap: Vec<String>,
}

/// The config file's keys. Unknown keys are errors, so a typo never passes silently.
#[derive(Debug, Default)]
pub(crate) struct FileConfig {
    pub threshold: Option<u64>,
    pub preview: Option<u64>,
    pub content_limit: Option<u64>,
    pub encoding: Option<String>,
    pub dir: Option<PathBuf>,
    pub notable: Vec<String>,
    pub keep: Vec<String>,
    pub wrap: Vec<String>,
}

/// [`FileConfig`]'s keys, as the error for an unknown key lists them.
const KEYS: &[&str] = &[
    "threshold",
    "preview",
    "content_limit",
    "encoding",
    "dir",
    "notable",
    "keep",
    "wrap",
];

impl Settings {
    /// The tokens of head and tail a summary shows: the preview setting, but at most half the
    /// threshold, so a summary stays well below what it replaces.
    pub(crate) fn preview_budget(&self) -> u64 {
        self.preview.min(self.threshold / 2).max(1)
    }

    /// The store for reading back outputs (nothing is created).
    pub fn store(&self) -> Result<crate::store::Store> {
        crate::store::Store::locate(&self.root, self.session.as_deref())
    }

    /// The store to save an output in, created as needed.
    pub fn open_store(&self) -> Result<crate::store::Store> {
        crate::store::Store::open(&self.root, self.session.as_deref())
    }

    pub fn resolve(flags: &Flags) -> Result<Settings> {
        let path = config_path();
        let file = match &path {
            Some(p) => load_file(p)?,
            None => FileConfig::default(),
        };
        let named = |key: &str| match &path {
            Some(p) => format!("config {}: key `{key}`", p.display()),
            None => format!("key `{key}`"),
        };
        let encoding = match (flags.encoding, &file.encoding) {
            (Some(e), _) => e,
            (None, Some(s)) => s
                .parse()
                .map_err(|e: String| anyhow::anyhow!("{}: {e}", named("encoding")))?,
            (None, None) => Encoding::default(),
        };
        let threshold = flags
            .threshold
            .or(file.threshold)
            .unwrap_or(DEFAULT_THRESHOLD);
        let preview = flags.preview.or(file.preview).unwrap_or(DEFAULT_PREVIEW);
        let content_limit = flags
            .content_limit
            .or(file.content_limit)
            .unwrap_or(DEFAULT_CONTENT_LIMIT)
            .max(threshold);
        if preview == 0 {
            bail!("preview must be at least 1 token");
        }
        let root = flags
            .dir
            .clone()
            .or(file.dir)
            .unwrap_or_else(|| PathBuf::from(DEFAULT_ROOT));
        if root.as_os_str().is_empty() {
            bail!("the scratch directory must not be empty");
        }
        // Summaries print the root for the reader to paste back: it must be text, and absolute,
        // so that it still leads there after a `cd`.
        if root.to_str().is_none() {
            bail!(
                "the scratch directory {} is not valid UTF-8: choose a path that is",
                std::os::unix::ffi::OsStrExt::as_bytes(root.as_os_str()).escape_ascii()
            );
        }
        let root = std::path::absolute(&root).with_context(|| {
            format!(
                "cannot make the scratch directory {} absolute",
                root.display()
            )
        })?;
        Ok(Settings {
            threshold,
            preview,
            content_limit,
            encoding,
            root,
            session: match &flags.session {
                Some(name) => Some(crate::store::checked_session_name(name)?),
                None => None,
            },
            notable: file.notable,
            keep: file.keep,
            wrap: file.wrap,
        })
    }
}

#[cfg(test)]
impl Settings {
    /// The defaults, storing under `root`: what unit tests start from.
    pub(crate) fn at(root: impl Into<PathBuf>) -> Settings {
        Settings {
            threshold: DEFAULT_THRESHOLD,
            preview: DEFAULT_PREVIEW,
            content_limit: DEFAULT_CONTENT_LIMIT,
            encoding: Encoding::default(),
            root: root.into(),
            session: None,
            notable: Vec::new(),
            keep: Vec::new(),
            wrap: Vec::new(),
        }
    }
}

/// `CTXOFF_CONFIG` if set (it must exist), else the platform config file if it exists.
fn config_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CTXOFF_CONFIG") {
        return Some(PathBuf::from(p));
    }
    let dirs = directories::ProjectDirs::from("", "", "ctxoff")?;
    let p = dirs.config_dir().join("config.toml");
    p.is_file().then_some(p)
}

fn load_file(path: &Path) -> Result<FileConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config {}", path.display()))?;
    // One line: the file, the line at fault when known, and what is wrong.
    let error = |message: &str, span: Option<Range<usize>>| {
        let line = span.map(|span| {
            text.as_bytes()[..span.start.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        });
        let at = line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let msg = message.trim().replace('\n', " ");
        anyhow::anyhow!("config {}: {at}{msg}", path.display())
    };
    let toml_error = |e: toml::de::Error| error(e.message(), e.span());
    let table = DeTable::parse(&text).map_err(toml_error)?;
    let mut config = FileConfig::default();
    for (key, value) in table.into_inner() {
        // Each value is read with serde's implementation for its field's type, so a value of the
        // wrong type is named as serde names it, at the value's line.
        let value = ValueDeserializer::from(value);
        let read = match key.get_ref().as_ref() {
            "threshold" => Deserialize::deserialize(value).map(|v| config.threshold = v),
            "preview" => Deserialize::deserialize(value).map(|v| config.preview = v),
            "content_limit" => Deserialize::deserialize(value).map(|v| config.content_limit = v),
            "encoding" => Deserialize::deserialize(value).map(|v| config.encoding = v),
            "dir" => Deserialize::deserialize(value).map(|v| config.dir = v),
            "notable" => Deserialize::deserialize(value).map(|v| config.notable = v),
            "keep" => Deserialize::deserialize(value).map(|v| config.keep = v),
            "wrap" => Deserialize::deserialize(value).map(|v| config.wrap = v),
            unknown => {
                let e = <toml::de::Error as serde::de::Error>::unknown_field(unknown, KEYS);
                return Err(error(e.message(), Some(key.span())));
            }
        };
        read.map_err(toml_error)?;
    }
    Ok(config)
}
