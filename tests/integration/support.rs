//! A ctxoff run in its own world: a temporary scratch root, session and config file, so tests
//! never touch the real `/tmp/agent` or the user's configuration.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub struct World {
    pub dir: tempfile::TempDir,
    pub session: String,
}

impl World {
    pub fn new() -> World {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("config.toml"), "").expect("config");
        World {
            dir,
            session: "test".to_string(),
        }
    }

    pub fn root(&self) -> PathBuf {
        self.dir.path().join("root")
    }

    pub fn session_dir(&self) -> PathBuf {
        self.root().join(&self.session)
    }

    pub fn config(&self) -> PathBuf {
        self.dir.path().join("config.toml")
    }

    /// `ctxoff ARGS` with this world's environment.
    pub fn ctxoff(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ctxoff"));
        cmd.args(args);
        self.setup(&mut cmd);
        cmd
    }

    /// A shell script run with this world's environment and `ctxoff` first on the PATH.
    pub fn sh(&self, script: &str) -> Command {
        let bin = Path::new(env!("CARGO_BIN_EXE_ctxoff"))
            .parent()
            .expect("bin dir");
        let old = std::env::var_os("PATH").unwrap_or_default();
        let dirs = std::iter::once(bin.to_path_buf()).chain(std::env::split_paths(&old));
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(script);
        cmd.env("PATH", std::env::join_paths(dirs).expect("PATH"));
        self.setup(&mut cmd);
        cmd
    }

    fn setup(&self, cmd: &mut Command) {
        cmd.env("CTXOFF_DIR", self.root())
            .env("CTXOFF_SESSION", &self.session)
            .env("CTXOFF_CONFIG", self.config())
            .env_remove("CTXOFF_THRESHOLD")
            .env_remove("CTXOFF_PREVIEW")
            .env_remove("CTXOFF_ENCODING")
            .stdin(Stdio::null());
    }

    /// The session's files other than its bookkeeping, sorted.
    pub fn outputs(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.session_dir())
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| !n.starts_with('.') && n != "index.jsonl" && n != "session.json")
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("ctxoff runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/corpus")
        .join(name)
}

/// The reference count: tiktoken-rs's `encode_ordinary` on the lossily decoded bytes.
pub fn reference_tokens(bytes: &[u8]) -> u64 {
    let bpe = tiktoken_rs::o200k_base_singleton();
    bpe.encode_ordinary(&String::from_utf8_lossy(bytes)).len() as u64
}

/// `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
