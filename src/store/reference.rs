//! References to offloaded outputs (SPEC §4): turning what a reader types after `grep` or
//! `lines` (`@last`, `@3`, `cargo_4`, `claude-48213/cargo_4`, or a path) into one file inside the
//! scratch root, and refusing anything that resolves outside it. Reading the file is `cmd/*`'s.

use anyhow::{Context, Result, anyhow, bail};
use std::path::{Component, Path, PathBuf};

use super::layout::{EXTENSIONS, OutputFile, parse_stem, stem};
use super::{Entry, Store, read_manifest};

/// A resolved reference: an output file inside the scratch root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Output {
    /// Canonical path of the file; inside the canonical root, directly in a session directory.
    pub path: PathBuf,
    /// Name of the session directory holding it.
    pub session: String,
    /// File name inside the session directory, e.g. `cargo_4.txt`.
    pub file: String,
}

impl Output {
    /// The file name without its extension, e.g. `cargo_4`.
    pub(crate) fn stem(&self) -> &str {
        stem(&self.file)
    }

    /// Binary outputs are stored as `.bin` and are not read back as text.
    pub(crate) fn is_binary(&self) -> bool {
        self.file.ends_with(".bin")
    }

    /// The output's manifest entry, when its session's manifest has one.
    pub(crate) fn entry(&self) -> Option<Entry> {
        let dir = self.path.parent()?;
        read_manifest(dir).into_iter().find(|e| e.file == self.file)
    }

    /// How to refer to this output in a hint: `cargo_4` in the current session, else its path.
    pub(crate) fn short_ref(&self, store: &Store) -> String {
        if self.session == store.session {
            self.stem().to_string()
        } else {
            self.path.display().to_string()
        }
    }
}

/// The outputs a session directory holds, as `(n, file name)` sorted by `n`: the files named like
/// outputs, whether or not the manifest knows them. Symbolic links are listed too, so that a
/// reference to one is refused with a reason rather than reported missing.
pub(crate) fn session_outputs(session_dir: &Path) -> Vec<(u64, String)> {
    let Ok(dir) = std::fs::read_dir(session_dir) else {
        return Vec::new();
    };
    let mut outputs: Vec<(u64, String)> = dir
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let kind = entry.file_type().ok()?;
            if !kind.is_file() && !kind.is_symlink() {
                return None;
            }
            let file = entry.file_name().into_string().ok()?;
            let n = OutputFile::parse(&file)?.n;
            Some((n, file))
        })
        .collect();
    outputs.sort();
    outputs
}

/// Whether `word`, the word after `ctxoff grep`, refers to an output (so `grep` is the retrieval
/// subcommand) rather than being an argument of the grep program. True for `@last`/`@N` syntax,
/// a path lexically inside the root (so a missing or outside-pointing one still gets a clear
/// error), and an existing `NAME_N` or `SESSION/NAME_N`. Costs at most a few `stat` calls.
pub fn is_reference(word: &str, store: &Store) -> bool {
    if word.is_empty() || word.starts_with('-') {
        return false;
    }
    if let Some(rest) = word.strip_prefix('@') {
        return rest == "last" || (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()));
    }
    if word.contains('/') {
        let path = Path::new(word);
        let absolute = match std::env::current_dir() {
            _ if path.is_absolute() => path.to_path_buf(),
            Ok(cwd) => cwd.join(path),
            Err(_) => return false,
        };
        if absolute.starts_with(&store.root)
            || store
                .root
                .canonicalize()
                .is_ok_and(|root| absolute.starts_with(root))
        {
            return true;
        }
        return session_ref(word).is_some_and(|(session, stem)| {
            !candidates(&store.root.join(session), stem).is_empty()
        });
    }
    output_word(word).is_some() && !candidates(&store.session_dir(), word).is_empty()
}

/// Resolves a reference to an output file inside the root. Errors are one line and, for an
/// unknown output, list what the session has.
pub(crate) fn resolve(word: &str, store: &Store) -> Result<Output> {
    let root = store.root.canonicalize().with_context(|| {
        format!(
            "no scratch space at {} (nothing has been offloaded there yet)",
            store.root.display()
        )
    })?;
    if let Some(rest) = word.strip_prefix('@') {
        return resolve_number(word, rest, store, &root);
    }
    if let Some((session, stem)) = session_ref(word) {
        let dir = store.root.join(session);
        if let [path, ..] = candidates(&dir, stem).as_slice() {
            return confine(word, path, &root);
        }
        let path = Path::new(word);
        if !path.exists() {
            return Err(unknown(word, session, &dir));
        }
    }
    let path = Path::new(word);
    if word.contains('/') || (output_word(word).is_none() && path.exists()) {
        if path.symlink_metadata().is_err() {
            bail!("no such output file: {word}");
        }
        return confine(word, path, &root);
    }
    if output_word(word).is_none() {
        bail!(
            "'{word}' is not a reference: use @last, @N, NAME_N, SESSION/NAME_N or a path inside {} (try ctxoff list)",
            store.root.display()
        );
    }
    let dir = store.session_dir();
    match candidates(&dir, word).as_slice() {
        [path, ..] => confine(word, path, &root),
        [] => Err(unknown(word, &store.session, &dir)),
    }
}

/// `@last` or `@N` in the current session.
fn resolve_number(word: &str, rest: &str, store: &Store, root: &Path) -> Result<Output> {
    let dir = store.session_dir();
    let outputs = session_outputs(&dir);
    let found = if rest == "last" {
        outputs.last()
    } else {
        let n: u64 = rest
            .parse()
            .map_err(|_| anyhow!("bad reference '{word}': expected @last or @N (e.g. @3)"))?;
        outputs.iter().find(|(m, _)| *m == n)
    };
    match found {
        Some((_, file)) => confine(word, &dir.join(file), root),
        None => Err(unknown(word, &store.session, &dir)),
    }
}

/// `SESSION/NAME_N[.EXT]`: a relative word of two parts whose second part names an output.
fn session_ref(word: &str) -> Option<(&str, &str)> {
    let (session, stem) = word.split_once('/')?;
    let plain = |s: &str| !s.is_empty() && s != "." && s != ".." && !s.contains('/');
    (plain(session) && plain(stem) && output_word(stem).is_some()).then_some((session, stem))
}

/// `NAME_N` or `NAME_N.EXT`: the word's stem and `n`.
fn output_word(word: &str) -> Option<(&str, u64)> {
    if OutputFile::parse(word).is_some() {
        return parse_stem(stem(word));
    }
    parse_stem(word)
}

/// The existing paths (or symlinks) in `dir` that `word` (`NAME_N` or `NAME_N.EXT`) may name.
fn candidates(dir: &Path, word: &str) -> Vec<PathBuf> {
    let exists = |p: &PathBuf| p.symlink_metadata().is_ok();
    if OutputFile::parse(word).is_some() {
        return Some(dir.join(word)).into_iter().filter(exists).collect();
    }
    EXTENSIONS
        .iter()
        .map(|ext| dir.join(format!("{word}.{ext}")))
        .filter(exists)
        .collect()
}

/// Checks that `path` is a regular file directly in a session directory of the canonical `root`,
/// after resolving `..` and symbolic links, and returns it canonicalised.
fn confine(word: &str, path: &Path, root: &Path) -> Result<Output> {
    let canonical = path
        .canonicalize()
        .map_err(|e| anyhow!("cannot read '{word}': {e}"))?;
    if !canonical.starts_with(root) {
        let how = match path.symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => "is a symbolic link to",
            _ => "resolves to",
        };
        bail!(
            "refusing '{word}': it {how} {}, outside the scratch root {}",
            canonical.display(),
            root.display()
        );
    }
    let inside: Vec<_> = canonical
        .strip_prefix(root)
        .unwrap_or(&canonical)
        .components()
        .collect();
    let (session, file) = match inside.as_slice() {
        [Component::Normal(session), Component::Normal(file)] => (*session, *file),
        _ => bail!(
            "'{word}' is not an output file: outputs are {}/SESSION/NAME_N.EXT",
            root.display()
        ),
    };
    if !canonical.is_file() {
        bail!("'{word}' is not a regular file");
    }
    Ok(Output {
        session: session.to_string_lossy().into_owned(),
        file: file.to_string_lossy().into_owned(),
        path: canonical,
    })
}

/// The error for a reference to an output that does not exist, listing what the session has.
fn unknown(word: &str, session: &str, dir: &Path) -> anyhow::Error {
    if !dir.is_dir() {
        return anyhow!(
            "no output '{word}': there is no session '{session}' in {} (try ctxoff list --all)",
            dir.parent().unwrap_or(dir).display()
        );
    }
    let outputs = session_outputs(dir);
    if outputs.is_empty() {
        return anyhow!("no output '{word}': session {session} has no outputs");
    }
    // The newest outputs are the likely intended ones; a long session is abbreviated.
    const SHOWN: usize = 12;
    let skipped = outputs.len().saturating_sub(SHOWN);
    let names: Vec<&str> = outputs[skipped..]
        .iter()
        .map(|(_, file)| stem(file))
        .collect();
    let more = if skipped > 0 {
        format!("{skipped} older, … ")
    } else {
        String::new()
    };
    anyhow!(
        "no output '{word}' in session {session}; it has: {more}{} (try ctxoff list)",
        names.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &Path) -> Store {
        Store {
            root: dir.to_path_buf(),
            session: "s1".into(),
            fallback: None,
        }
    }

    fn setup() -> (tempfile::TempDir, Store) {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path());
        std::fs::create_dir(s.session_dir()).unwrap();
        for file in ["cargo_1.txt", "seq_2.json", "png_3.bin", "my_tool_10.txt"] {
            std::fs::write(s.session_dir().join(file), "x\n").unwrap();
        }
        std::fs::create_dir(tmp.path().join("other")).unwrap();
        std::fs::write(tmp.path().join("other/make_7.txt"), "y\n").unwrap();
        (tmp, s)
    }

    fn file_of(word: &str, s: &Store) -> String {
        resolve(word, s).unwrap().file
    }

    #[test]
    fn resolves_every_reference_form() {
        let (tmp, s) = setup();
        assert_eq!(file_of("@last", &s), "my_tool_10.txt");
        assert_eq!(file_of("@2", &s), "seq_2.json");
        assert_eq!(file_of("cargo_1", &s), "cargo_1.txt");
        assert_eq!(file_of("cargo_1.txt", &s), "cargo_1.txt");
        assert_eq!(file_of("my_tool_10", &s), "my_tool_10.txt");
        assert_eq!(file_of("other/make_7", &s), "make_7.txt");
        assert_eq!(resolve("other/make_7.txt", &s).unwrap().session, "other");
        let abs = tmp.path().join("s1/seq_2.json");
        assert_eq!(file_of(abs.to_str().unwrap(), &s), "seq_2.json");
        let dotted = tmp.path().join("other/../s1/cargo_1.txt");
        assert_eq!(file_of(dotted.to_str().unwrap(), &s), "cargo_1.txt");
    }

    #[test]
    fn unknown_reference_lists_the_session() {
        let (_tmp, s) = setup();
        let err = resolve("cargo_9", &s).unwrap_err().to_string();
        assert_eq!(
            err,
            "no output 'cargo_9' in session s1; it has: cargo_1, seq_2, png_3, my_tool_10 (try ctxoff list)"
        );
        let err = resolve("@5", &s).unwrap_err().to_string();
        assert!(
            err.starts_with("no output '@5' in session s1; it has: cargo_1"),
            "{err}"
        );
        let err = resolve("nope/cargo_1", &s).unwrap_err().to_string();
        assert!(err.contains("there is no session 'nope'"), "{err}");
        let err = resolve("@x", &s).unwrap_err().to_string();
        assert!(err.contains("expected @last or @N"), "{err}");
        let err = resolve("foo", &s).unwrap_err().to_string();
        assert!(err.contains("is not a reference"), "{err}");
    }

    #[test]
    fn empty_session_and_missing_root_are_clear() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path());
        let err = resolve("@last", &s).unwrap_err().to_string();
        assert!(err.contains("there is no session 's1'"), "{err}");
        std::fs::create_dir(s.session_dir()).unwrap();
        let err = resolve("@last", &s).unwrap_err().to_string();
        assert_eq!(err, "no output '@last': session s1 has no outputs");
        let gone = store(&tmp.path().join("missing"));
        let err = resolve("@last", &gone).unwrap_err().to_string();
        assert!(err.starts_with("no scratch space at"), "{err}");
    }

    #[test]
    fn refuses_paths_outside_the_root() {
        let (tmp, s) = setup();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret_1.txt");
        std::fs::write(&secret, "secret\n").unwrap();
        let err = resolve(secret.to_str().unwrap(), &s)
            .unwrap_err()
            .to_string();
        assert!(err.contains("outside the scratch root"), "{err}");
        let escape = tmp.path().join("s1/../../");
        let escape = format!(
            "{}{}",
            escape.display(),
            outside.path().file_name().unwrap().to_str().unwrap()
        );
        let err = resolve(&format!("{escape}/secret_1.txt"), &s)
            .unwrap_err()
            .to_string();
        assert!(err.contains("outside the scratch root"), "{err}");
        let err = resolve(tmp.path().join("s1").to_str().unwrap(), &s)
            .unwrap_err()
            .to_string();
        assert!(err.contains("is not an output file"), "{err}");
    }

    #[test]
    fn refuses_symlinks_pointing_outside() {
        let (_tmp, s) = setup();
        let outside = tempfile::tempdir().unwrap();
        let secret = outside.path().join("secret.txt");
        std::fs::write(&secret, "secret\n").unwrap();
        std::os::unix::fs::symlink(&secret, s.session_dir().join("evil_50.txt")).unwrap();
        for word in ["evil_50", "evil_50.txt", "@50", "@last", "s1/evil_50"] {
            let err = resolve(word, &s).unwrap_err().to_string();
            assert!(err.contains("is a symbolic link to"), "{word}: {err}");
            assert!(err.contains("outside the scratch root"), "{word}: {err}");
        }
        // A session directory that is itself a link to elsewhere.
        std::os::unix::fs::symlink(outside.path(), s.root.join("linked")).unwrap();
        std::fs::write(outside.path().join("x_1.txt"), "x\n").unwrap();
        let err = resolve("linked/x_1", &s).unwrap_err().to_string();
        assert!(err.contains("outside the scratch root"), "{err}");
    }

    /// Arbitrary words, mostly built from the parts of references, paths inside and outside the
    /// root, `..`, symbolic links and stray characters, never resolve to anything but an output
    /// file directly in a session directory of the root, and never panic.
    #[test]
    fn no_word_resolves_outside_the_root() {
        use proptest::prelude::*;
        let (tmp, s) = setup();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret_1.txt"), "secret\n").unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("secret_1.txt"),
            s.session_dir().join("evil_50.txt"),
        )
        .unwrap();
        std::os::unix::fs::symlink(outside.path(), tmp.path().join("linked")).unwrap();
        let root = tmp.path().canonicalize().unwrap();
        let absolute = |p: &Path| p.to_str().unwrap().to_string();
        let piece = prop_oneof![
            4 => prop::sample::select(vec![
                "/", "..", ".", "@", "last", "s1", "other", "linked", "cargo_1", "make_7", "seq_2",
                "secret_1", "evil_50", ".txt", ".json", ".bin", "_", "1", "99", "~", "\0", "\n",
                "-", " ", "*",
            ])
            .prop_map(str::to_string),
            1 => prop::sample::select(vec![absolute(tmp.path()), absolute(outside.path())]),
            1 => any::<String>(),
        ];
        let (inside, elsewhere) = (absolute(tmp.path()), absolute(outside.path()));
        let shaped = (
            prop::sample::select(vec![
                String::new(),
                format!("{inside}/"),
                format!("{inside}/s1/../"),
                format!("{inside}/../"),
                format!("{elsewhere}/"),
                format!("{elsewhere}/../"),
                "../".into(),
            ]),
            prop::sample::select(vec![
                "",
                "s1/",
                "other/",
                "linked/",
                "s1/../other/",
                "../",
                "s1/./",
            ]),
            prop::sample::select(vec![
                "cargo_1", "make_7", "seq_2", "png_3", "evil_50", "secret_1", "x_1",
            ]),
            prop::sample::select(vec!["", ".txt", ".json", ".bin"]),
        )
            .prop_map(|(a, b, c, d)| format!("{a}{b}{c}{d}"));
        let word = prop_oneof![
            prop::collection::vec(piece, 0..7).prop_map(|p| p.concat()),
            shaped,
        ];
        let mut runner = proptest::test_runner::TestRunner::default();
        runner
            .run(&word, |word| {
                let _ = is_reference(&word, &s);
                if let Ok(out) = resolve(&word, &s) {
                    prop_assert!(out.path.starts_with(&root), "{:?} -> {:?}", word, out);
                    let session_dir = root.join(&out.session);
                    prop_assert_eq!(out.path.parent(), Some(session_dir.as_path()));
                    prop_assert_eq!(out.path.canonicalize().unwrap(), out.path.clone());
                    prop_assert!(out.path.is_file());
                    prop_assert!(std::fs::read(&out.path).unwrap() != b"secret\n");
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn is_reference_tells_references_from_grep_arguments() {
        let (tmp, s) = setup();
        for word in [
            "@last",
            "@3",
            "@99",
            "cargo_1",
            "cargo_1.txt",
            "other/make_7",
        ] {
            assert!(is_reference(word, &s), "{word}");
        }
        let inside = tmp.path().join("s1/missing_4.txt");
        assert!(is_reference(inside.to_str().unwrap(), &s));
        for word in [
            "-rn",
            "foo",
            "",
            "-",
            "@",
            "@x",
            "cargo_9",
            "src/",
            "other/make_8",
            "/etc/passwd",
        ] {
            assert!(!is_reference(word, &s), "{word}");
        }
    }
}
