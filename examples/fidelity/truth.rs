//! Ground truth of the fixture corpora (`tests/fixtures/corpus*/*.truth.json`) and how an item
//! is judged visible in a text. Shared by the fidelity benchmark (`examples/fidelity`) and the
//! integration test that checks every truth file against the output it describes.
//!
//! A text is judged as a reader sees it: ANSI escape sequences stripped and carriage returns
//! rendered as a terminal would (per line, the text after the last `\r`; CRLF is a line end).
//! The stripping here is deliberately independent of ctxoff's own display code.

use std::path::{Path, PathBuf};

use regex::Regex;
use serde_json::Value;

/// The classes an output can belong to.
pub const CLASSES: &[&str] = &[
    "test", "compiler", "linter", "build", "content", "install", "log", "nul-text", "binary",
];

/// The kinds an item can be of.
pub const KINDS: &[&str] = &[
    "failing-name",
    "detail",
    "total",
    "first-error",
    "failed-target",
    "fact",
    "content",
];

/// One pattern: a literal substring (case-sensitive) or a regular expression.
#[derive(Debug)]
pub enum Pattern {
    Literal(String),
    Regex(Regex),
}

impl Pattern {
    fn parse(v: &Value) -> Result<Pattern, String> {
        match v {
            Value::String(s) if !s.is_empty() => Ok(Pattern::Literal(s.clone())),
            Value::Object(o) => match o.get("re") {
                Some(Value::String(r)) => Regex::new(r)
                    .map(Pattern::Regex)
                    .map_err(|e| format!("bad regex {r:?}: {e}")),
                _ => Err(format!("pattern object without a string `re`: {v}")),
            },
            _ => Err(format!("bad pattern {v}")),
        }
    }

    pub fn matches(&self, text: &str) -> bool {
        match self {
            Pattern::Literal(s) => text.contains(s.as_str()),
            Pattern::Regex(r) => r.is_match(text),
        }
    }
}

/// A thing an agent needs from the output: visible when one of `any` (if given) and every one
/// of `all` match.
#[derive(Debug)]
pub struct Item {
    pub id: String,
    pub kind: String,
    pub what: String,
    pub any: Vec<Pattern>,
    pub all: Vec<Pattern>,
}

impl Item {
    pub fn visible(&self, text: &str) -> bool {
        (self.any.is_empty() || self.any.iter().any(|p| p.matches(text)))
            && self.all.iter().all(|p| p.matches(text))
    }
}

#[derive(Debug)]
pub struct Truth {
    /// The truth file itself.
    pub path: PathBuf,
    /// The output file it describes (in the same directory).
    pub output: PathBuf,
    pub class: String,
    pub program: String,
    pub argv: Vec<String>,
    pub exit: i32,
    pub items: Vec<Item>,
}

impl Truth {
    pub fn load(path: &Path) -> Result<Truth, String> {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let v: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let str_field = |k: &str| -> Result<String, String> {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("missing string field `{k}`"))
        };
        if v.get("schema").and_then(Value::as_u64) != Some(1) {
            return Err("`schema` must be 1".into());
        }
        let output = path
            .parent()
            .unwrap_or(Path::new("."))
            .join(str_field("output")?);
        let class = str_field("class")?;
        if !CLASSES.contains(&class.as_str()) {
            return Err(format!("unknown class {class:?}"));
        }
        let program = str_field("program")?;
        let argv: Vec<String> = v
            .get("argv")
            .and_then(Value::as_array)
            .ok_or("missing `argv`")?
            .iter()
            .map(|a| a.as_str().map(str::to_string).ok_or("non-string argv"))
            .collect::<Result<_, _>>()?;
        if argv.first() != Some(&program) {
            return Err(format!("argv[0] is not the program {program:?}"));
        }
        let exit = v
            .get("exit")
            .and_then(Value::as_i64)
            .and_then(|e| i32::try_from(e).ok())
            .filter(|e| (0..=255).contains(e))
            .ok_or("`exit` must be an exit status 0..=255")?;
        let mut items = Vec::new();
        for (i, it) in v
            .get("items")
            .and_then(Value::as_array)
            .ok_or("missing `items`")?
            .iter()
            .enumerate()
        {
            items.push(parse_item(it).map_err(|e| format!("item {i}: {e}"))?);
        }
        // A binary output has nothing a reader could find in it; every other output has items.
        if items.is_empty() && class != "binary" {
            return Err("no items".into());
        }
        let mut ids: Vec<&str> = items.iter().map(|i| i.id.as_str()).collect();
        ids.sort_unstable();
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("duplicate item id {:?}", w[0]));
        }
        Ok(Truth {
            path: path.to_path_buf(),
            output,
            class,
            program,
            argv,
            exit,
            items,
        })
    }

    /// The output's file name.
    pub fn name(&self) -> String {
        self.output
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    }
}

fn parse_item(v: &Value) -> Result<Item, String> {
    let s = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| format!("missing `{k}`"))
    };
    let pats = |k: &str| -> Result<Vec<Pattern>, String> {
        match v.get(k) {
            None => Ok(Vec::new()),
            Some(Value::Array(a)) => a.iter().map(Pattern::parse).collect(),
            Some(_) => Err(format!("`{k}` must be an array")),
        }
    };
    let item = Item {
        id: s("id")?,
        kind: s("kind")?,
        what: s("what")?,
        any: pats("any")?,
        all: pats("all")?,
    };
    if !KINDS.contains(&item.kind.as_str()) {
        return Err(format!("unknown kind {:?}", item.kind));
    }
    if item.any.is_empty() && item.all.is_empty() {
        return Err(format!("item {:?} has no pattern", item.id));
    }
    Ok(item)
}

/// Every truth file in `dir`, sorted by name.
pub fn load_dir(dir: &Path) -> Result<Vec<Truth>, String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".truth.json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| Truth::load(p).map_err(|e| format!("{}: {e}", p.display())))
        .collect()
}

/// The text as a reader sees it: ANSI escapes stripped, `\r` rendered, invalid UTF-8 replaced.
pub fn display(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        let line = line.rsplit('\r').next().unwrap_or(line);
        strip_ansi(line, &mut out);
    }
    out
}

/// Appends `line` without its ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ST`,
/// and two-byte `ESC x`).
fn strip_ansi(line: &str, out: &mut String) {
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
}

/// Output files in `dir` that a truth file must describe (everything but the truth files, the
/// manifest and scripts).
pub fn outputs_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    let n = p.file_name().unwrap_or_default().to_string_lossy();
                    p.is_file()
                        && !n.ends_with(".truth.json")
                        && !n.ends_with(".md")
                        && !n.ends_with(".sh")
                })
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}
