//! Fidelity benchmark: for every output of the fixture corpora, what each agent's own handling
//! leaves in the model's context and what ctxoff prints, measured in tokens (o200k_base, exact,
//! tiktoken-rs) and in ground-truth items visible (`*.truth.json`, see tests/fixtures/corpus2/
//! MANIFEST.md).
//!
//! Usage: cargo run --release --example fidelity -- [--verbose] [--ctxoff PATH] [CORPUS_DIR...]
//!
//! ctxoff sees each output replayed as the program that produced it: a scratch directory first
//! on PATH holds an executable named after argv[0] that writes the stored bytes and exits with
//! the recorded status, and `ctxoff ARGV…` runs with its own scratch `--dir` and `--session`.

#[allow(dead_code)] // parts of the shared module serve only the integration test
mod truth;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use truth::{Item, Truth};

/// The rules compared, in table order.
const RULES: &[&str] = &[
    "raw output",
    "Codex (5 KB head + 5 KB tail)",
    "Claude Code (fail: 10,000 chars; ok >30,000: 2 KB head)",
    "Gemini CLI (>40,000 chars: 8,000 + 32,000)",
    "opencode (last 2,000 lines)",
    "ctxoff defaults",
    "ctxoff --threshold 300 --preview 150",
];
const CTXOFF_DEFAULT: usize = 5;
const CTXOFF_TIGHT: usize = 6;

struct Options {
    verbose: bool,
    ctxoff: PathBuf,
    corpora: Vec<PathBuf>,
}

fn options() -> Options {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut o = Options {
        verbose: false,
        ctxoff: root.join("target/release/ctxoff"),
        corpora: Vec::new(),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "-v" | "--verbose" => o.verbose = true,
            "--ctxoff" => {
                o.ctxoff = PathBuf::from(args.next().unwrap_or_else(|| fail("--ctxoff PATH")))
            }
            "-h" | "--help" => {
                println!(
                    "usage: fidelity [--verbose] [--ctxoff PATH] [CORPUS_DIR...]\n\
                     default corpora: tests/fixtures/corpus and corpus2 to corpus30"
                );
                std::process::exit(0);
            }
            _ => o.corpora.push(PathBuf::from(a)),
        }
    }
    if o.corpora.is_empty() {
        o.corpora = vec![
            root.join("tests/fixtures/corpus"),
            root.join("tests/fixtures/corpus2"),
            root.join("tests/fixtures/corpus3"),
            root.join("tests/fixtures/corpus4"),
            root.join("tests/fixtures/corpus5"),
            root.join("tests/fixtures/corpus6"),
            root.join("tests/fixtures/corpus7"),
            root.join("tests/fixtures/corpus8"),
            root.join("tests/fixtures/corpus9"),
            root.join("tests/fixtures/corpus10"),
            root.join("tests/fixtures/corpus11"),
            root.join("tests/fixtures/corpus12"),
            root.join("tests/fixtures/corpus13"),
            root.join("tests/fixtures/corpus14"),
            root.join("tests/fixtures/corpus15"),
            root.join("tests/fixtures/corpus16"),
            root.join("tests/fixtures/corpus17"),
            root.join("tests/fixtures/corpus18"),
            root.join("tests/fixtures/corpus19"),
            root.join("tests/fixtures/corpus20"),
            root.join("tests/fixtures/corpus21"),
            root.join("tests/fixtures/corpus22"),
            root.join("tests/fixtures/corpus23"),
            root.join("tests/fixtures/corpus24"),
            root.join("tests/fixtures/corpus25"),
            root.join("tests/fixtures/corpus26"),
            root.join("tests/fixtures/corpus27"),
            root.join("tests/fixtures/corpus28"),
            root.join("tests/fixtures/corpus29"),
            root.join("tests/fixtures/corpus30"),
        ];
    }
    if !o.ctxoff.is_file() {
        fail(&format!(
            "no ctxoff at {} (cargo build --release, or --ctxoff PATH)",
            o.ctxoff.display()
        ));
    }
    o
}

/// The scratch directory, with a fixed name: its path is in every summary, three times, and a
/// random one made the figures move by about a hundred tokens between runs. One left by a run
/// that stopped is removed first if it is this user's own directory; one that is not (a
/// symlink, another user's) leaves a random name.
fn scratch_dir() -> tempfile::TempDir {
    use std::os::unix::fs::MetadataExt;
    let fixed = std::env::temp_dir().join("ctxoff-fidelity");
    // This user's id: the owner of a file it creates.
    let me = tempfile::tempfile()
        .and_then(|f| f.metadata())
        .map(|m| m.uid());
    if let Ok(meta) = std::fs::symlink_metadata(&fixed)
        && meta.is_dir()
        && me.is_ok_and(|me| meta.uid() == me)
    {
        std::fs::remove_dir_all(&fixed).ok();
    }
    tempfile::Builder::new()
        .prefix("ctxoff-fidelity")
        .rand_bytes(0)
        .tempdir()
        .or_else(|_| tempfile::tempdir())
        .unwrap_or_else(|e| fail(&format!("temp dir: {e}")))
}

fn fail(msg: &str) -> ! {
    eprintln!("fidelity: {msg}");
    std::process::exit(2)
}

/// What one rule left of one output.
struct View {
    tokens: usize,
    missed: Vec<usize>,
}

struct Measured {
    truth: Truth,
    views: Vec<View>,
}

fn main() {
    let o = options();
    let bpe = tiktoken_rs::o200k_base_singleton();
    let count = |s: &str| bpe.encode_ordinary(s).len();
    let scratch = scratch_dir();
    for dir in &o.corpora {
        let truths = truth::load_dir(dir).unwrap_or_else(|e| fail(&e));
        let mut measured = Vec::new();
        for (n, t) in truths.into_iter().enumerate() {
            let raw = std::fs::read(&t.output)
                .unwrap_or_else(|e| fail(&format!("{}: {e}", t.output.display())));
            let mut texts: Vec<String> = agent_views(&raw, t.exit);
            for (i, tight) in [false, true].into_iter().enumerate() {
                let session = format!("c{n}_{i}");
                texts.push(replay(&o.ctxoff, scratch.path(), &session, &t, tight));
            }
            let views = texts
                .iter()
                .map(|text| View {
                    tokens: count(text),
                    missed: missed(&t.items, text),
                })
                .collect();
            measured.push(Measured { truth: t, views });
        }
        print!("{}", report(dir, &measured, o.verbose));
        std::io::stdout().flush().ok();
    }
}

/// The texts each agent's own handling leaves in context: raw, Codex, Claude Code, Gemini CLI,
/// opencode (as measured against the real clients).
fn agent_views(raw: &[u8], exit: i32) -> Vec<String> {
    let text = String::from_utf8_lossy(raw).into_owned();
    let chars = text.chars().count();
    let codex = if raw.len() > 10_000 {
        let head = String::from_utf8_lossy(&raw[..5_000]);
        let middle = String::from_utf8_lossy(&raw[5_000..raw.len() - 5_000]);
        let tail = String::from_utf8_lossy(&raw[raw.len() - 5_000..]);
        format!("{head}…{} chars truncated…{tail}", middle.chars().count())
    } else {
        text.clone()
    };
    let claude = if exit != 0 {
        let head: String = text.chars().take(10_000).collect();
        format!("Exit code {exit}\n{head}")
    } else if chars > 30_000 {
        let head = String::from_utf8_lossy(&raw[..2_000.min(raw.len())]);
        format!(
            "<persisted-output>\nOutput too large ({chars} characters). Full output saved to: \
             ~/.claude/projects/p/s/tool-results/t.txt\n\nPreview (first 2KB):\n{head}\n...\n\
             </persisted-output>"
        )
    } else {
        text.clone()
    };
    let gemini = if chars > 40_000 {
        let head: String = text.chars().take(8_000).collect();
        let tail: String = text.chars().skip(chars - 32_000).collect();
        format!(
            "{head}\n... [{} characters truncated] ...\n{tail}",
            chars - 40_000
        )
    } else {
        text.clone()
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let opencode = if lines.len() > 2_000 {
        format!(
            "...{} lines truncated...\n{}",
            lines.len() - 2_000,
            lines[lines.len() - 2_000..].concat()
        )
    } else {
        text.clone()
    };
    vec![text, codex, claude, gemini, opencode]
}

/// Runs `ctxoff ARGV…` with the output replayed by a stand-in for argv[0]; what ctxoff printed
/// (stdout and stderr).
fn replay(ctxoff: &Path, scratch: &Path, session: &str, t: &Truth, tight: bool) -> String {
    let bin = scratch.join("bin").join(session);
    std::fs::create_dir_all(&bin).unwrap_or_else(|e| fail(&format!("{}: {e}", bin.display())));
    let program = Path::new(&t.program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| t.program.clone());
    let stand_in = bin.join(&program);
    let script = format!(
        "#!/bin/sh\n/bin/cat '{}'\nexit {}\n",
        t.output.display().to_string().replace('\'', r"'\''"),
        t.exit
    );
    std::fs::write(&stand_in, script).unwrap_or_else(|e| fail(&format!("stand-in: {e}")));
    chmod_x(&stand_in);
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs = std::iter::once(bin.clone()).chain(std::env::split_paths(&path));
    let mut cmd = Command::new(ctxoff);
    cmd.arg("--dir")
        .arg(scratch.join("root"))
        .arg("--session")
        .arg(session);
    if tight {
        cmd.args(["--threshold", "300", "--preview", "150"]);
    }
    cmd.arg("--")
        .arg(&program)
        .args(&t.argv[1..])
        .env("PATH", std::env::join_paths(dirs).unwrap_or(path))
        .env("CTXOFF_CONFIG", "/dev/null")
        .env_remove("CTXOFF_THRESHOLD")
        .env_remove("CTXOFF_PREVIEW")
        .env_remove("CTXOFF_DIR")
        .env_remove("CTXOFF_SESSION")
        .stdin(Stdio::null());
    let out = cmd
        .output()
        .unwrap_or_else(|e| fail(&format!("running ctxoff: {e}")));
    let code = out.status.code();
    if code != Some(t.exit) {
        eprintln!(
            "fidelity: {}: ctxoff exited {code:?}, the recorded status is {}",
            t.name(),
            t.exit
        );
    }
    let mut printed = out.stdout;
    printed.extend_from_slice(&out.stderr);
    String::from_utf8_lossy(&printed).into_owned()
}

fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let perms = std::fs::Permissions::from_mode(0o755);
    std::fs::set_permissions(path, perms).unwrap_or_else(|e| fail(&format!("chmod: {e}")));
}

/// Indices of the items not visible in `text` (judged as a reader sees it).
fn missed(items: &[Item], text: &str) -> Vec<usize> {
    let shown = truth::display(text.as_bytes());
    (0..items.len())
        .filter(|&i| !items[i].visible(&shown))
        .collect()
}

fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn report(dir: &Path, m: &[Measured], verbose: bool) -> String {
    let mut s = String::new();
    let items: usize = m.iter().map(|x| x.truth.items.len()).sum();
    let _ = writeln!(
        s,
        "\n== {} ({} outputs, {} items) ==",
        dir.display(),
        m.len(),
        items
    );
    let _ = writeln!(s, "{:<58} {:>10} {:>16}", "rule", "tokens", "items visible");
    let mut totals = Vec::new();
    for (r, name) in RULES.iter().enumerate() {
        let tokens: usize = m.iter().map(|x| x.views[r].tokens).sum();
        let seen = items - m.iter().map(|x| x.views[r].missed.len()).sum::<usize>();
        totals.push((tokens, seen));
        let _ = writeln!(
            s,
            "{name:<58} {:>10} {:>9} / {:<5}",
            thousands(tokens),
            thousands(seen),
            items
        );
    }
    // Targets: at defaults, at least every rule's items in at most half the leanest rule's
    // tokens; under the tight budget every total and every failure's first detail.
    let (tok, seen) = totals[CTXOFF_DEFAULT];
    let best = totals[..CTXOFF_DEFAULT]
        .iter()
        .map(|t| t.1)
        .max()
        .unwrap_or(0);
    let leanest = totals[..CTXOFF_DEFAULT]
        .iter()
        .map(|t| t.0)
        .min()
        .unwrap_or(0);
    let _ = writeln!(
        s,
        "target, defaults: items >= {best} (best rule): {}; tokens <= {} (half the leanest rule): {}",
        verdict(seen >= best),
        thousands(leanest / 2),
        verdict(tok <= leanest / 2)
    );
    let key = |i: &Item| i.kind == "total" || i.kind == "detail";
    let keys: usize = m
        .iter()
        .map(|x| x.truth.items.iter().filter(|i| key(i)).count())
        .sum();
    let key_missed: usize = m
        .iter()
        .map(|x| {
            x.views[CTXOFF_TIGHT]
                .missed
                .iter()
                .filter(|&&i| key(&x.truth.items[i]))
                .count()
        })
        .sum();
    let _ = writeln!(
        s,
        "target, --threshold 300 --preview 150: every total and failure detail: {} of {keys} shown: {}",
        keys - key_missed,
        verdict(key_missed == 0)
    );
    let _ = writeln!(s, "ctxoff missed, by kind of item (defaults / tight):");
    let mut kinds: Vec<&str> = truth::KINDS.to_vec();
    kinds.retain(|k| m.iter().any(|x| x.truth.items.iter().any(|i| i.kind == *k)));
    for k in kinds {
        let all: usize = m
            .iter()
            .map(|x| x.truth.items.iter().filter(|i| i.kind == k).count())
            .sum();
        let miss = |r: usize| -> usize {
            m.iter()
                .map(|x| {
                    x.views[r]
                        .missed
                        .iter()
                        .filter(|&&i| x.truth.items[i].kind == k)
                        .count()
                })
                .sum()
        };
        let _ = writeln!(
            s,
            "  {k:<14} {:>4} / {:<4} of {all}",
            miss(CTXOFF_DEFAULT),
            miss(CTXOFF_TIGHT)
        );
    }
    let _ = writeln!(
        s,
        "\n{:<42} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8}   items: raw codex claude gemini opencode ctxoff tight",
        "output (tokens: raw, codex, claude, gemini, opencode, ctxoff, tight)",
        "",
        "",
        "",
        "",
        "",
        "",
        ""
    );
    for x in m {
        let n = x.truth.items.len();
        let mut line = format!("{:<42}", x.truth.name());
        for v in &x.views {
            let _ = write!(line, " {:>8}", thousands(v.tokens));
        }
        line.push_str("  ");
        for v in &x.views {
            let _ = write!(line, " {}/{n}", n - v.missed.len());
        }
        let _ = writeln!(s, "{line}");
        if verbose {
            for (label, r) in [("defaults", CTXOFF_DEFAULT), ("tight", CTXOFF_TIGHT)] {
                for &i in &x.views[r].missed {
                    let it = &x.truth.items[i];
                    let _ = writeln!(
                        s,
                        "    ctxoff {label} missed {} [{}]: {}",
                        it.id, it.kind, it.what
                    );
                }
            }
        }
    }
    s
}

fn verdict(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}
