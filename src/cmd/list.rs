//! `ctxoff list`: the offloaded outputs of the session (or of every session), from the
//! manifests, checked against the files that are still there.

use anyhow::Result;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::SystemTime;

use super::{Context, Run};
use crate::format::{shell_quote, thousands};
use crate::store::OutputFile;
use crate::store::reference::session_outputs;
use crate::store::{Dir, Entry, Store, read_manifest_in};
use std::collections::HashSet;

/// `ctxoff list`'s arguments.
#[derive(Debug, Clone)]
pub struct ListArgs {
    pub all: bool,
    pub json: bool,
}

const LONG_ABOUT: &str = "\
List offloaded outputs

Lists the outputs of the current session, oldest first: the reference to use with `grep` and \
`lines` (@N), the file, its lines, tokens and age, the exit status and the command. Outputs still \
being written (or whose capture was killed) are marked incomplete; outputs removed by `gc` are \
not listed.

Examples: ctxoff list ctxoff list --all ctxoff list --json | jq '.[] | select(.exit_code != 0) | \
.path'";

impl ListArgs {
    pub fn command() -> Command {
        Command::new("list")
            .about("List offloaded outputs")
            .long_about(LONG_ABOUT)
            .args([
                Arg::new("all")
                    .long("all")
                    .help("List every session's outputs, not only the current session's")
                    .action(ArgAction::SetTrue),
                Arg::new("json")
                    .long("json")
                    .help(
                        "Print a JSON array of outputs (the manifest fields, with session, path \
                         and age)",
                    )
                    .action(ArgAction::SetTrue),
            ])
    }

    pub fn from_matches(matches: &ArgMatches) -> ListArgs {
        ListArgs {
            all: matches.get_flag("all"),
            json: matches.get_flag("json"),
        }
    }
}

/// One listed output.
#[derive(Debug)]
struct Listed {
    session: String,
    path: String,
    /// Seconds since the output was last written.
    age_s: Option<u64>,
    /// False for a file named like an output that the manifest does not describe.
    in_manifest: bool,
    entry: Entry,
}

impl Listed {
    /// The `--json` object: the listing's own keys, then the manifest entry's.
    fn to_json(&self) -> Value {
        let mut json = json!({
            "session": self.session,
            "path": self.path,
            "age_s": self.age_s,
            "in_manifest": self.in_manifest,
        });
        if let (Some(listed), Value::Object(entry)) = (json.as_object_mut(), self.entry.to_json()) {
            listed.extend(entry);
        }
        json
    }
}

impl Run for ListArgs {
    fn run(&self, ctx: &mut Context) -> Result<ExitCode> {
        list(self, &ctx.store()?, ctx.out)
    }
}

fn list(args: &ListArgs, store: &Store, out: &mut dyn Write) -> Result<ExitCode> {
    let root_dir = Dir::open(&store.root).ok();
    let sessions = match &root_dir {
        Some(root) if args.all => all_sessions(root),
        Some(_) => vec![store.session.clone()],
        None => Vec::new(),
    };
    let listed: Vec<(String, Vec<Listed>)> = sessions
        .into_iter()
        .filter_map(|session| {
            let outputs = session_listing(&store.root, root_dir.as_ref()?, &session);
            Some((session, outputs))
        })
        .filter(|(_, outputs)| !outputs.is_empty())
        .collect();

    if args.json {
        let all: Vec<Value> = listed
            .iter()
            .flat_map(|(_, o)| o)
            .map(Listed::to_json)
            .collect();
        serde_json::to_writer(&mut *out, &all)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if listed.is_empty() {
        let scope = if args.all {
            "no session".to_string()
        } else {
            format!("session {}", store.session)
        };
        writeln!(out, "no outputs in {scope} under {}", store.root.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    for (i, (session, outputs)) in listed.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write_session(out, session, &store.root.join(session), outputs)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The session directories under the root, the most recently active last.
fn all_sessions(root: &Dir) -> Vec<String> {
    let Ok(entries) = root.entries() else {
        return Vec::new();
    };
    let mut sessions: Vec<(SystemTime, String)> = entries
        .into_iter()
        .filter_map(|(name, _)| {
            let meta = root.entry_metadata(&name).ok()?;
            if !meta.is_dir() {
                return None;
            }
            Some((meta.modified().ok()?, name.into_string().ok()?))
        })
        .collect();
    sessions.sort();
    sessions.into_iter().map(|(_, name)| name).collect()
}

/// A session's outputs that still exist, by `n`: manifest entries whose file is there, and
/// files named like outputs that the manifest does not know (a capture killed before writing it).
/// An output still being written (or whose capture was killed) is listed with the size it has
/// on disk.
fn session_listing(root: &Path, root_dir: &Dir, session: &str) -> Vec<Listed> {
    let dir = root.join(session);
    let Ok(fd) = root_dir.open_dir(session) else {
        return Vec::new();
    };
    let files = session_outputs(&fd);
    let mut unknown: HashSet<&str> = files.iter().map(|(_, f)| f.as_str()).collect();
    let mut entries = read_manifest_in(&fd);
    entries.retain(|e| unknown.remove(e.file.as_str()));
    let unknown: Vec<Entry> = files
        .iter()
        .filter(|(_, f)| unknown.contains(f.as_str()))
        .filter_map(|(n, f)| {
            let name = OutputFile::parse(f)?.name;
            Some(Entry {
                n: *n,
                file: f.clone(),
                name: name.to_string(),
                ..Entry::default()
            })
        })
        .collect();
    let now = SystemTime::now();
    let mut listed: Vec<Listed> = entries
        .into_iter()
        .map(|e| (e, true))
        .chain(unknown.into_iter().map(|e| (e, false)))
        .map(|(mut entry, in_manifest)| {
            let path = dir.join(&entry.file);
            let meta = fd.entry_metadata(&entry.file).ok();
            if !in_manifest || !entry.complete {
                entry.bytes = meta.as_ref().map_or(0, |m| m.len());
            }
            let age_s = meta
                .and_then(|m| m.modified().ok())
                .and_then(|t| now.duration_since(t).ok())
                .map(|d| d.as_secs());
            Listed {
                session: session.to_string(),
                path: path.display().to_string(),
                age_s,
                in_manifest,
                entry,
            }
        })
        .collect();
    listed.sort_by_key(|l| l.entry.n);
    listed
}

fn write_session(out: &mut dyn Write, session: &str, dir: &Path, outputs: &[Listed]) -> Result<()> {
    writeln!(out, "session {session} ({})", dir.display())?;
    let rows: Vec<[String; 7]> = outputs.iter().map(row).collect();
    let mut widths = [0; 6];
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    for row in &rows {
        let line = format!(
            "  {:>w0$}  {:<w1$}  {:>w2$}  {:>w3$}  {:>w4$}  {:<w5$}  {}",
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            row[5],
            row[6],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2],
            w3 = widths[3],
            w4 = widths[4],
            w5 = widths[5],
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The cells of one output's line: @N, file, lines, tokens, age, status, command and marks.
fn row(listed: &Listed) -> [String; 7] {
    let e = &listed.entry;
    // An incomplete output's counts are not known: its size on disk is.
    let counted = listed.in_manifest && e.complete;
    let lines = if counted {
        format!("{} lines", thousands(e.lines))
    } else {
        "? lines".into()
    };
    let tokens = match e.tokens {
        Some(t) if counted => format!("{} tokens", thousands(t)),
        _ => format!("{} bytes", thousands(e.bytes)),
    };
    let age = listed.age_s.map_or("?".into(), age);
    let status = match (e.exit_code, e.signal) {
        (_, Some(signal)) => format!("signal {signal}"),
        (Some(code), None) => format!("exit {code}"),
        (None, None) => String::new(),
    };
    let mut command: Vec<String> = e.argv.iter().map(|a| shell_quote(a)).collect();
    if !listed.in_manifest {
        command.push("(not in the manifest)".into());
    } else if !e.complete {
        command.push("[incomplete]".into());
    }
    if let Some(original) = &e.duplicate_of {
        command.push(format!("(identical to {original})"));
    }
    [
        format!("@{}", e.n),
        e.file.clone(),
        lines,
        tokens,
        age,
        status,
        command.join(" "),
    ]
}

/// `42s ago`, `5m ago`, `3h ago`, `2d ago`.
fn age(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s ago"),
        60..3600 => format!("{}m ago", secs / 60),
        3600..172_800 => format!("{}h ago", secs / 3600),
        _ => format!("{}d ago", secs / 86_400),
    }
}
