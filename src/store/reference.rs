//! References to offloaded outputs (SPEC §4): turning what a reader types after `grep` or
//! `lines` (`@last`, `@3`, `cargo_4`, `claude-48213/cargo_4`, or a path) into one file inside the
//! scratch root, and refusing anything that resolves outside it. Reading the file is `cmd/*`'s.

use anyhow::{Result, anyhow, bail};
use std::fs::File;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};

use super::layout::{EXTENSIONS, OutputFile, parse_stem, stem};
use super::safety::{Access, Dir, EntryKind, check_root, current_uid};
use super::session::checked_session_name;
use super::{Entry, Store, read_manifest_in};

/// A resolved reference: an output file inside the scratch root, opened.
#[derive(Debug)]
pub(crate) struct Output {
    /// Path of the file: the canonical root, the session, the file name.
    pub path: PathBuf,
    /// Name of the session directory holding it.
    pub session: String,
    /// File name inside the session directory, e.g. `cargo_4.txt`.
    pub file: String,
    /// The session directory, as opened when the reference was resolved.
    dir: Dir,
    /// The file, opened then (a regular file, not through a symlink): what is read is what was
    /// checked, whatever happens to the names meanwhile.
    pub handle: File,
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
        read_manifest_in(&self.dir)
            .into_iter()
            .find(|e| e.file == self.file)
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
pub(crate) fn session_outputs(dir: &Dir) -> Vec<(u64, String)> {
    let Ok(entries) = dir.entries() else {
        return Vec::new();
    };
    let mut outputs: Vec<(u64, String)> = entries
        .into_iter()
        .filter_map(|(name, kind)| {
            let kind = match kind {
                EntryKind::Unknown => {
                    let meta = dir.entry_metadata(&name).ok()?;
                    if meta.is_file() {
                        EntryKind::File
                    } else if meta.file_type().is_symlink() {
                        EntryKind::Symlink
                    } else {
                        EntryKind::Other
                    }
                }
                kind => kind,
            };
            if !matches!(kind, EntryKind::File | EntryKind::Symlink) {
                return None;
            }
            let file = name.into_string().ok()?;
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
/// error), and an existing `NAME_N` or `SESSION/NAME_N`. Costs at most a few `stat` calls, and
/// only decides the dispatch: reading goes through [`resolve`].
pub fn is_reference(word: &str, store: &Store) -> bool {
    if word.is_empty() || word.starts_with('-') {
        return false;
    }
    if let Some(rest) = word.strip_prefix('@') {
        return rest == "last" || (!rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()));
    }
    let exists_in = |dir: PathBuf, stem: &str| {
        names_for(stem)
            .iter()
            .any(|name| dir.join(name).symlink_metadata().is_ok())
    };
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
        return session_ref(word)
            .is_some_and(|(session, stem)| exists_in(store.root.join(session), stem));
    }
    output_word(word).is_some() && exists_in(store.session_dir(), word)
}

/// Resolves a reference to an output file inside the root, and opens it: the root is opened and
/// checked once, the session directory and the file are opened relative to it, never through a
/// symlink. Errors are one line and, for an unknown output, list what the session has.
pub(crate) fn resolve(word: &str, store: &Store) -> Result<Output> {
    let root_dir = Dir::open(&store.root).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => anyhow!(
            "no scratch space at {} (nothing has been offloaded there yet)",
            store.root.display()
        ),
        _ if e.raw_os_error() == Some(libc::ELOOP) => anyhow!(
            "scratch root {} not read: it is a symlink",
            store.root.display()
        ),
        _ => anyhow!("cannot read the scratch root {}: {e}", store.root.display()),
    })?;
    let meta = root_dir.metadata()?;
    check_root(&meta, current_uid())
        .map_err(|why| anyhow!("scratch root {} not read: {why}", store.root.display()))?;
    let root = store.root.canonicalize()?;
    let resolver = Resolver {
        word,
        store,
        root_dir,
        root,
    };
    resolver.resolve()
}

struct Resolver<'a> {
    word: &'a str,
    store: &'a Store,
    root_dir: Dir,
    /// The canonical root, for paths shown and for telling where a path leads.
    root: PathBuf,
}

impl Resolver<'_> {
    fn resolve(&self) -> Result<Output> {
        let word = self.word;
        if let Some(rest) = word.strip_prefix('@') {
            return self.resolve_number(rest);
        }
        if let Some((session, stem)) = session_ref(word) {
            match self.root_dir.open_dir(session) {
                Ok(dir) => {
                    if let Some(file) = candidates(&dir, stem).first() {
                        return self.open_in(session, dir, file);
                    }
                    if !Path::new(word).exists() {
                        return Err(self.unknown(session, Some(&dir)));
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    if !Path::new(word).exists() {
                        return Err(self.unknown(session, None));
                    }
                }
                Err(e) => return Err(self.session_error(session, e)),
            }
        }
        let path = Path::new(word);
        if word.contains('/') || (output_word(word).is_none() && path.exists()) {
            return self.by_path(path);
        }
        if output_word(word).is_none() {
            bail!(
                "'{word}' is not a reference: use @last, @N, NAME_N, SESSION/NAME_N or a path inside {} (try ctxoff list)",
                self.store.root.display()
            );
        }
        let session = &self.store.session;
        let dir = self.session_dir(session)?;
        match candidates(&dir, word).first() {
            Some(file) => self.open_in(session, dir, file),
            None => Err(self.unknown(session, Some(&dir))),
        }
    }

    /// `@last` or `@N` in the current session.
    fn resolve_number(&self, rest: &str) -> Result<Output> {
        let word = self.word;
        let session = &self.store.session;
        let dir = self.session_dir(session)?;
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
            Some((_, file)) => self.open_in(session, dir, file),
            None => Err(self.unknown(session, Some(&dir))),
        }
    }

    /// A path: its directory must be a session directory of the root (after resolving `..` and
    /// symlinks, to tell which one it names); the session and the file are then opened by name,
    /// relative to the root.
    fn by_path(&self, path: &Path) -> Result<Output> {
        let file = match path.components().next_back() {
            Some(Component::Normal(file)) => file.to_string_lossy().into_owned(),
            _ => {
                let canonical = path.canonicalize().map_err(|e| self.path_error(e))?;
                return Err(self.misplaced(&canonical));
            }
        };
        let parent = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let dir = parent.canonicalize().map_err(|e| self.path_error(e))?;
        let session = dir
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| {
                dir.parent() == Some(self.root.as_path()) && checked_session_name(s).is_ok()
            });
        let Some(session) = session else {
            let shown = path.canonicalize().unwrap_or_else(|_| dir.join(&file));
            return Err(self.misplaced(&shown));
        };
        let opened = self.session_dir(&session)?;
        self.open_in(&session, opened, &file)
    }

    /// The error for a path that is not an output file of the root: outside it, or at the wrong
    /// depth inside it.
    fn misplaced(&self, canonical: &Path) -> anyhow::Error {
        let word = self.word;
        if canonical.starts_with(&self.root) {
            return anyhow!(
                "'{word}' is not an output file: outputs are {}/SESSION/NAME_N.EXT",
                self.root.display()
            );
        }
        let how = match Path::new(word).symlink_metadata() {
            Ok(meta) if meta.file_type().is_symlink() => "is a symbolic link to",
            _ => "resolves to",
        };
        anyhow!(
            "refusing '{word}': it {how} {}, outside the scratch root {}",
            canonical.display(),
            self.root.display()
        )
    }

    fn path_error(&self, e: io::Error) -> anyhow::Error {
        let word = self.word;
        match e.kind() {
            io::ErrorKind::NotFound => anyhow!("no such output file: {word}"),
            io::ErrorKind::PermissionDenied => {
                anyhow!("cannot read '{word}': permission denied")
            }
            _ => anyhow!("cannot read '{word}': {e}"),
        }
    }

    /// Opens `file` in the session directory `dir` (named `session`): a regular file, not
    /// through a symlink.
    fn open_in(&self, session: &str, dir: Dir, file: &str) -> Result<Output> {
        let word = self.word;
        let handle = match dir.open_file(file, Access::Read) {
            Ok(handle) => handle,
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
                let target = self.root.join(session).join(file).canonicalize();
                let target = target
                    .unwrap_or_else(|_| dir.read_link(file).unwrap_or_else(|_| PathBuf::from("?")));
                if target.starts_with(&self.root) {
                    bail!(
                        "refusing '{word}': it is a symbolic link to {}; outputs are regular files",
                        target.display()
                    );
                }
                bail!(
                    "refusing '{word}': it is a symbolic link to {}, outside the scratch root {}",
                    target.display(),
                    self.root.display()
                );
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                bail!("no such output file: {word}")
            }
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                let owner = dir.entry_metadata(file).map(|m| owned_by(m.uid()));
                bail!(
                    "cannot read '{word}': permission denied{}",
                    owner.unwrap_or_default()
                )
            }
            Err(e) => bail!("cannot read '{word}': {e}"),
        };
        if !handle.metadata()?.is_file() {
            bail!("'{word}' is not a regular file");
        }
        Ok(Output {
            path: self.root.join(session).join(file),
            session: session.to_string(),
            file: file.to_string(),
            dir,
            handle,
        })
    }

    /// The session directory `session`, opened relative to the root, never through a symlink.
    fn session_dir(&self, session: &str) -> Result<Dir> {
        self.root_dir
            .open_dir(session)
            .map_err(|e| self.session_error(session, e))
    }

    /// The error for a session directory that could not be opened.
    fn session_error(&self, session: &str, e: io::Error) -> anyhow::Error {
        let word = self.word;
        let path = self.root.join(session);
        match e.kind() {
            io::ErrorKind::NotFound => self.unknown(session, None),
            io::ErrorKind::PermissionDenied => {
                let owner = self
                    .root_dir
                    .entry_metadata(session)
                    .map(|m| owned_by(m.uid()));
                anyhow!(
                    "cannot read '{word}': permission denied (session directory {}{})",
                    path.display(),
                    owner.unwrap_or_default()
                )
            }
            _ if e.raw_os_error() == Some(libc::ELOOP) => {
                let target = path.canonicalize().unwrap_or_else(|_| {
                    self.root_dir
                        .read_link(session)
                        .unwrap_or_else(|_| PathBuf::from("?"))
                });
                anyhow!(
                    "refusing '{word}': session directory {} is a symbolic link to {}{}",
                    path.display(),
                    target.display(),
                    if target.starts_with(&self.root) {
                        String::new()
                    } else {
                        format!(", outside the scratch root {}", self.root.display())
                    }
                )
            }
            _ if e.raw_os_error() == Some(libc::ENOTDIR) => {
                anyhow!(
                    "'{word}' is not an output file: {} is not a session directory",
                    path.display()
                )
            }
            _ => anyhow!("cannot read '{word}': {e}"),
        }
    }

    /// The error for a reference to an output that does not exist, listing what the session has.
    fn unknown(&self, session: &str, dir: Option<&Dir>) -> anyhow::Error {
        let word = self.word;
        let Some(dir) = dir else {
            return anyhow!(
                "no output '{word}': there is no session '{session}' in {} (try ctxoff list --all)",
                self.store.root.display()
            );
        };
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
}

fn owned_by(uid: u32) -> String {
    if uid == current_uid() {
        String::new()
    } else {
        format!(", owned by uid {uid}")
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

/// The file names `word` (`NAME_N` or `NAME_N.EXT`) may stand for.
fn names_for(word: &str) -> Vec<String> {
    if OutputFile::parse(word).is_some() {
        return vec![word.to_string()];
    }
    EXTENSIONS
        .iter()
        .map(|ext| format!("{word}.{ext}"))
        .collect()
}

/// The names in `dir` (files or symlinks) that `word` may name.
fn candidates(dir: &Dir, word: &str) -> Vec<String> {
    names_for(word)
        .into_iter()
        .filter(|name| dir.entry_metadata(name).is_ok())
        .collect()
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
