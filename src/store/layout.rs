//! The names of things in the scratch space, in one place: output files `<name>_<n>.<ext>`, the
//! session's bookkeeping files, and sanitised names. Creating, reading back, listing and
//! collecting outputs all go through these.

/// The manifest file of a session directory.
pub const MANIFEST: &str = "index.jsonl";
/// Where a manifest rewrite is written before it replaces the manifest.
pub(crate) const MANIFEST_NEW: &str = ".index.jsonl.new";
/// The session's owner record: which process the session belongs to, for gc.
pub(crate) const OWNER: &str = "session.json";
/// The marker ctxoff writes into every session directory it creates: gc removes no directory
/// without it (or without the bookkeeping of a session of an earlier release).
pub(crate) const MARKER: &str = ".ctxoff-session";
/// The per-session sequence counter behind `<name>_<n>`; its `flock` is also the session lock.
pub(crate) const SEQUENCE: &str = ".seq";
/// The prefix of the link a duplicate output is made through before it takes its place.
const DUPLICATE_LINK: &str = ".dup-";

/// What kind of content an output is; decides its file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Text,
    Json,
    /// Binary output, with its type when its magic bytes tell it (`PNG`, `gzip`…).
    Binary(Option<&'static str>),
}

impl Kind {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Kind::Text => "txt",
            Kind::Json => "json",
            Kind::Binary(_) => "bin",
        }
    }
}

/// The extensions an output file can have, one per [`Kind`].
pub(crate) const EXTENSIONS: [&str; 3] = ["txt", "json", "bin"];

/// An output file's name, `<name>_<n>.<ext>`, as its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputFile<'a> {
    pub name: &'a str,
    pub n: u64,
    pub ext: &'a str,
}

impl<'a> OutputFile<'a> {
    /// The file name of output `n` called `name` with extension `ext`.
    pub(crate) fn format(name: &str, n: u64, ext: &str) -> String {
        format!("{name}_{n}.{ext}")
    }

    /// Reads a file name as an output's: `None` for anything else (the manifest, a user's file).
    pub fn parse(file: &'a str) -> Option<OutputFile<'a>> {
        let (stem, ext) = file.rsplit_once('.')?;
        if !EXTENSIONS.contains(&ext) {
            return None;
        }
        let (name, n) = parse_stem(stem)?;
        Some(OutputFile { name, n, ext })
    }
}

/// Splits `NAME_N` into its name and `n`. Names are what [`sanitize`] makes: `[A-Za-z0-9._-]`,
/// not empty, not starting with a dot.
pub(super) fn parse_stem(stem: &str) -> Option<(&str, u64)> {
    let (name, n) = stem.rsplit_once('_')?;
    let valid_name = !name.is_empty()
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
    if !valid_name || n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, n.parse().ok()?))
}

/// An output file's name without its extension: `cargo_4` for `cargo_4.txt`.
pub(crate) fn stem(file: &str) -> &str {
    file.rsplit_once('.').map_or(file, |(stem, _)| stem)
}

/// The temporary name a duplicate of output `n` is linked under before it replaces the file.
pub(crate) fn duplicate_link(n: u64) -> String {
    format!("{DUPLICATE_LINK}{n}")
}

/// The session's own files: manifest, owner record, sequence, and leftovers of interrupted
/// writes (a manifest rewrite, a duplicate's link).
pub(crate) fn is_bookkeeping(name: &str) -> bool {
    matches!(name, MANIFEST | OWNER | SEQUENCE | MANIFEST_NEW | MARKER)
        || name
            .strip_prefix(DUPLICATE_LINK)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Reduces a name to `[A-Za-z0-9._-]` (others become `_`), at most 64 bytes, no leading dot.
pub(crate) fn sanitize(name: &str, fallback: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.truncate(64);
    let out = out.trim_start_matches('.');
    if out.is_empty() {
        fallback.to_string()
    } else {
        out.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_file_names_round_trip() {
        for (name, n, ext) in [
            ("cargo", 4, "txt"),
            ("my_tool", 12, "json"),
            ("x-1.2", 3, "bin"),
        ] {
            let file = OutputFile::format(name, n, ext);
            assert_eq!(OutputFile::parse(&file), Some(OutputFile { name, n, ext }));
            assert_eq!(stem(&file), format!("{name}_{n}"));
        }
        for other in [
            "cargo_4.log",
            "cargo4.txt",
            "_4.txt",
            ".x_4.txt",
            "cargo_.txt",
            "cargo_4",
            "index.jsonl",
            "a b_1.txt",
        ] {
            assert_eq!(OutputFile::parse(other), None, "{other}");
        }
    }

    #[test]
    fn bookkeeping_is_recognised() {
        for name in [
            MANIFEST,
            OWNER,
            SEQUENCE,
            MANIFEST_NEW,
            MARKER,
            &duplicate_link(12),
        ] {
            assert!(is_bookkeeping(name), "{name}");
        }
        for name in [".dup-", ".dup-x", "cargo_1.txt", ".bashrc"] {
            assert!(!is_bookkeeping(name), "{name}");
        }
    }
}
