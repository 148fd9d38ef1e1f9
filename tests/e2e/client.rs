//! The real agent clients, installed from the npm registry at pinned versions and cached under
//! the target directory, so a suite pays for the install once per checkout.

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// Installs `package@version` (once per checkout) and returns the path of its `bin` executable.
/// Concurrent tests wait for one install; a failed install is an error naming npm's output.
pub fn install(package: &str, version: &str, bin: &str) -> PathBuf {
    static INSTALLING: OnceLock<Mutex<()>> = OnceLock::new();
    let _one_at_a_time = INSTALLING
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("e2e-clients");
    let name = format!("{}@{version}", package.replace('/', "+"));
    let prefix = cache.join(&name);
    let exe = prefix.join("node_modules/.bin").join(bin);
    if exe.exists() {
        return exe;
    }
    // Installed beside the cache and renamed into place, so an interrupted install is never
    // taken for a finished one.
    let partial = cache.join(format!("{name}.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    std::fs::create_dir_all(&partial).expect("create the client cache");
    let out = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
        .arg("--prefix")
        .arg(&partial)
        .arg(format!("{package}@{version}"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run npm to install {package}@{version}: {e}"));
    assert!(
        out.status.success(),
        "npm install {package}@{version} failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&prefix);
    std::fs::rename(&partial, &prefix).expect("move the installed client into the cache");
    assert!(exe.exists(), "{package}@{version} has no bin `{bin}`");
    exe
}
