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

    /// The private fallback root ctxoff uses in this world (from `directories`).
    pub fn fallback_root(&self) -> PathBuf {
        self.dir.path().join("runtime/ctxoff/scratch")
    }

    /// The directory of this world's history (the platform data directory's `ctxoff`).
    pub fn history_dir(&self) -> PathBuf {
        self.dir.path().join("data/ctxoff")
    }

    /// `ctxoff --threshold 100 seq 1 N`, which offloads; the path the summary names.
    pub fn offload(&self, n: u64) -> PathBuf {
        let n = n.to_string();
        let out = run(&mut self.ctxoff(&["--threshold", "100", "seq", "1", &n]));
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        saved_path(&out)
    }

    fn setup(&self, cmd: &mut Command) {
        // The private fallback directory and the history live in the world too.
        cmd.env("XDG_RUNTIME_DIR", self.dir.path().join("runtime"))
            .env("XDG_CACHE_HOME", self.dir.path().join("cache"))
            .env("XDG_DATA_HOME", self.dir.path().join("data"));
        cmd.env("CTXOFF_DIR", self.root())
            .env("CTXOFF_SESSION", &self.session)
            .env("CTXOFF_CONFIG", self.config())
            .env_remove("CTXOFF_THRESHOLD")
            .env_remove("CTXOFF_PREVIEW")
            .env_remove("CTXOFF_CONTENT_LIMIT")
            .env_remove("CTXOFF_ENCODING")
            // Set by an agent's hook rewrite: a test run inside such an agent must not inherit it.
            .env_remove("CTXOFF_AGENT")
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

/// The path after `full output: ` in a summary.
pub fn saved_path(out: &Output) -> PathBuf {
    let text = stdout(out);
    let path = text
        .lines()
        .find_map(|l| l.split_once("full output: ").map(|(_, p)| p))
        .unwrap_or_else(|| panic!("no saved path in {text}"));
    PathBuf::from(path)
}

/// Sets a file's (or directory's) access and modification times to `age` ago, without
/// following a symlink at the end.
pub fn set_age(path: &Path, age: std::time::Duration) {
    use std::os::unix::fs::OpenOptionsExt;
    let time = std::time::SystemTime::now() - age;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
        .expect("open to age");
    file.set_times(
        std::fs::FileTimes::new()
            .set_accessed(time)
            .set_modified(time),
    )
    .expect("set times");
}

/// Waits until `file` holds at least `len` bytes (the capture is under way); kills `child` and
/// fails when it never does, so a failing test leaves nothing running.
pub fn wait_for_size(child: &mut std::process::Child, file: &Path, len: usize) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::metadata(file).map_or(0, |m| m.len()) < len as u64 {
        if std::time::Instant::now() >= deadline {
            let _ = child.kill();
            panic!("output never reached {}", file.display());
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Skips the running test, which cannot run on this machine, saying why. A skip passes as a
/// success, so under CI (`CI` set, as `.ci/run` runs) it fails instead, unless the test is listed
/// in `tests/ci-skips.txt` with the reason it cannot run there.
pub fn skip(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("?");
    eprintln!("skipped: {reason}");
    if std::env::var_os("CI").is_none() {
        return;
    }
    let list = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ci-skips.txt");
    let listed = std::fs::read_to_string(&list).unwrap_or_default();
    let allowed = listed
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_once(char::is_whitespace))
        .any(|(name, why)| name == test && !why.trim().is_empty());
    assert!(
        allowed,
        "{test} was skipped under CI ({reason}); make it run there, or list it in tests/ci-skips.txt with the reason it cannot"
    );
}
