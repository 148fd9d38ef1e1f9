//! Completions and man pages are generated from the clap definition and checked in; this test
//! fails when they are stale. Regenerate with:
//!
//!     CTXOFF_REGENERATE=1 cargo test --test integration generated

use clap_complete::Shell;
use std::path::{Path, PathBuf};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// Compares `content` with the checked-in file, or writes it when regenerating.
fn check(path: PathBuf, content: Vec<u8>, stale: &mut Vec<String>) {
    if std::env::var_os("CTXOFF_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, content).unwrap();
    } else if std::fs::read(&path).ok().as_deref() != Some(&content[..]) {
        stale.push(path.display().to_string());
    }
}

fn man_pages() -> Vec<(String, Vec<u8>)> {
    let cmd = ctxoff::cli::Cli::command();
    let mut pages = Vec::new();
    let mut render = |name: String, cmd: clap::Command| {
        let mut out = Vec::new();
        clap_mangen::Man::new(cmd).render(&mut out).unwrap();
        pages.push((name, out));
    };
    render("ctxoff.1".into(), cmd.clone());
    for sub in cmd.get_subcommands() {
        let name = format!("ctxoff-{}", sub.get_name());
        render(
            format!("{name}.1"),
            sub.clone().display_name(name.clone()).bin_name(name),
        );
    }
    pages
}

#[test]
fn completions_and_man_pages_are_fresh() {
    let mut stale = Vec::new();
    for shell in [
        Shell::Bash,
        Shell::Zsh,
        Shell::Fish,
        Shell::Elvish,
        Shell::PowerShell,
    ] {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut ctxoff::cli::Cli::command(), "ctxoff", &mut out);
        let file = match shell {
            Shell::Bash => "ctxoff.bash",
            Shell::Zsh => "_ctxoff",
            Shell::Fish => "ctxoff.fish",
            Shell::Elvish => "ctxoff.elv",
            _ => "_ctxoff.ps1",
        };
        check(repo(&format!("completions/{file}")), out, &mut stale);
    }
    for (name, page) in man_pages() {
        check(repo(&format!("man/{name}")), page, &mut stale);
    }
    assert!(
        stale.is_empty(),
        "stale generated files (regenerate: CTXOFF_REGENERATE=1 cargo test --test integration generated): {stale:?}"
    );
}

#[test]
fn man_pages_render_without_warnings() {
    let Ok(out) = std::process::Command::new("groff")
        .arg("--version")
        .output()
    else {
        crate::support::skip("groff is not installed");
        return;
    };
    assert!(out.status.success());
    for (name, page) in man_pages() {
        let mut child = std::process::Command::new("groff")
            .args(["-k", "-man", "-Tutf8", "-ww", "-z"])
            .stdin(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&page).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn completions_complete_the_wrapped_command() {
    let mut out = Vec::new();
    clap_complete::generate(
        Shell::Zsh,
        &mut ctxoff::cli::Cli::command(),
        "ctxoff",
        &mut out,
    );
    let zsh = String::from_utf8(out).unwrap();
    assert!(
        zsh.contains(":_cmdambivalent"),
        "zsh completes the command and its words"
    );
}
