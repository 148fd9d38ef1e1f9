//! The offload in progress: the output file, its hash, and the worker threads that count tokens
//! and scan lines while the capture goes on.

use sha2::{Digest, Sha256};
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::capture::Ending;
use super::scan::{LineReport, LineScan};
use super::{Job, Offloaded, Outcome, print_all};
use crate::store::{Entry, Kind, NewOutput, Store};
use crate::summary::preview::Preview;
use crate::summary::{Analysis, Source};
use crate::tokens::{Counter, ParallelCounter, Tokenizer};

/// Chunks in flight to each worker thread (backpressure keeps memory bounded).
const IN_FLIGHT: usize = 16;
/// How the writer gets its token count.
pub(super) enum Tokens {
    /// The output ended while undecided: counted already.
    Counted(u64),
    /// A counter that has seen the first `seen` bytes of the output and goes on with the rest
    /// (on every core: the writer's first chunk is not counted on the capturing thread).
    Counting { counter: Counter, seen: usize },
}

/// An offload in progress: the file, the hash, and the worker threads.
pub(super) struct Writer {
    store: Store,
    output: NewOutput,
    entry: Entry,
    kind: Kind,
    hasher: Sha256,
    bytes: u64,
    counter: Option<Worker<u64>>,
    /// The token count when it was complete before the writer started.
    counted: Option<u64>,
    lines: Worker<LineReport>,
}

/// Output bytes on their way to a worker, shared by the workers: `bytes[from..]`.
struct Chunk {
    bytes: Arc<Vec<u8>>,
    from: usize,
}

impl std::ops::Deref for Chunk {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes[self.from..]
    }
}

struct Worker<T> {
    tx: SyncSender<Chunk>,
    handle: JoinHandle<T>,
}

impl<T: Send + 'static> Worker<T> {
    fn spawn(f: impl FnOnce(Receiver<Chunk>) -> T + Send + 'static) -> Worker<T> {
        let (tx, rx) = sync_channel(IN_FLIGHT);
        Worker {
            tx,
            handle: std::thread::spawn(move || f(rx)),
        }
    }

    fn join(self) -> Option<T> {
        drop(self.tx);
        self.handle.join().ok()
    }
}

impl Writer {
    pub(super) fn start(
        store: Store,
        output: NewOutput,
        entry: Entry,
        kind: Kind,
        tokens: Tokens,
        job: &Job,
    ) -> Writer {
        let (counter, counted) = match tokens {
            // Binary output is not tokenized: it is slow and means nothing to a reader.
            _ if matches!(kind, Kind::Binary(_)) => (None, None),
            Tokens::Counted(n) => (None, Some(n)),
            Tokens::Counting { counter, .. } => {
                // Counting is the most work per byte: it gets every core (the writer and the
                // line scan are lighter and share them).
                let worker = Worker::spawn(move |rx| {
                    let mut counter = ParallelCounter::continuing(counter);
                    for chunk in rx {
                        counter.feed(&chunk);
                    }
                    counter.finish()
                });
                (Some(worker), None)
            }
        };
        let source = Source::of(&job.argv);
        let analysis = Analysis::for_source(&job.notable, job.settings.preview_budget(), &source);
        let lines = Worker::spawn(move |rx| {
            let mut scan = LineScan::new(analysis);
            for chunk in rx {
                scan.feed(&chunk);
            }
            scan.finish()
        });
        Writer {
            store,
            output,
            entry,
            kind,
            hasher: Sha256::new(),
            bytes: 0,
            counter,
            counted,
            lines,
        }
    }

    /// Saves `data`.
    pub(super) fn write(&mut self, data: &[u8]) -> io::Result<()> {
        self.write_shared(Arc::new(data.to_vec()), 0)
    }

    /// Writes `data`; the token counter gets it from byte `count_from` on (it has seen the
    /// bytes before).
    pub(super) fn write_shared(&mut self, data: Arc<Vec<u8>>, count_from: usize) -> io::Result<()> {
        self.output.file.write_all(&data)?;
        self.hasher.update(&*data);
        self.bytes += data.len() as u64;
        if let Some(counter) = &self.counter
            && count_from < data.len()
        {
            let _ = counter.tx.send(Chunk {
                bytes: Arc::clone(&data),
                from: count_from,
            });
        }
        let _ = self.lines.tx.send(Chunk {
            bytes: data,
            from: 0,
        });
        Ok(())
    }

    /// Saving failed after `written` bytes reached the file: print what the file holds and the
    /// chunk that failed, remove the partial file, and say why.
    pub(super) fn abandon(&mut self, error: io::Error, failed: &[u8]) -> String {
        use std::io::{Read, Seek};
        let _ = self.output.file.rewind();
        let mut file = &self.output.file;
        let mut buf = vec![0; 1 << 20];
        let mut left = self.bytes;
        while left > 0 {
            match file.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let n = n.min(left as usize);
                    print_all(&[&buf[..n]]);
                    left -= n as u64;
                }
            }
        }
        print_all(&[failed]);
        self.discard(error)
    }

    /// Removes the partial file, records the failure in the manifest, and says what failed.
    pub(super) fn discard(&mut self, error: io::Error) -> String {
        // The path may name someone else's file by now (the session directory was removed and
        // made again by another capture): remove only our own.
        if self.in_place().is_ok() {
            let _ = std::fs::remove_file(&self.output.path);
        }
        self.entry.bytes = self.bytes;
        let _ = self.store.append_manifest(&self.entry);
        format!(
            "could not save output to {}: {error}",
            self.output.path.display()
        )
    }

    /// Whether the file is still at its path. Removing the session directory during the capture
    /// unlinks it while writes to the open file still succeed: the summary would then point to
    /// nothing, and the output would be lost.
    pub(super) fn in_place(&self) -> io::Result<()> {
        use std::os::unix::fs::MetadataExt;
        let open = self.output.file.metadata()?;
        match std::fs::symlink_metadata(&self.output.path) {
            Ok(at) if at.dev() == open.dev() && at.ino() == open.ino() => Ok(()),
            _ => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "it was removed during the capture",
            )),
        }
    }

    pub(super) fn finish(
        mut self: Box<Self>,
        ending: &Ending,
        started: std::time::SystemTime,
        job: &Job,
        tokenizer: Tokenizer,
    ) -> Outcome {
        if let Err(e) = self.in_place() {
            // The unlinked file still holds every byte: print them instead.
            let error = self.abandon(e, &[]);
            return Outcome::Unsaved { error };
        }
        let tokens = self.counter.take().and_then(Worker::join).or(self.counted);
        let Some(lines) = self.lines.join() else {
            return Outcome::Unsaved {
                error: "internal error: line analysis failed".into(),
            };
        };
        let total_lines = lines.total;
        let (preview, report) = match self.kind {
            Kind::Binary(_) => (Preview::default(), lines.analysis.finish(None)),
            _ => lines.summarise(&tokenizer, job.settings.preview_budget(), tokens),
        };
        let mut kind = self.kind;
        let mut path = self.output.path.clone();
        if kind == Kind::Text
            && report.is_json_document()
            && let Some(renamed) = rename_extension(&path, "json")
        {
            kind = Kind::Json;
            path = renamed;
        }
        let sha256 = hex(&self.hasher.finalize());
        let mut entry = self.entry;
        entry.file = file_name(&path);
        entry.duration_ms = started.elapsed().map_or(0, |d| d.as_millis() as u64);
        entry.exit_code = ending.code;
        entry.signal = ending.signal.or(ending.interrupted);
        entry.bytes = self.bytes;
        entry.lines = total_lines;
        entry.tokens = tokens;
        entry.duplicate_of = link_duplicate(&self.store, &path, &sha256, entry.n);
        entry.sha256 = sha256;
        entry.complete = ending.interrupted.is_none();
        let _ = self.output.file.flush();
        let _ = self.store.append_manifest(&entry);
        Outcome::Offloaded(Box::new(Offloaded {
            store: self.store,
            path,
            entry,
            kind,
            preview,
            report,
        }))
    }
}

/// Renames `x_3.txt` to `x_3.<ext>` without replacing anything; `None` when it could not.
fn rename_extension(path: &std::path::Path, ext: &str) -> Option<PathBuf> {
    let target = path.with_extension(ext);
    std::fs::hard_link(path, &target).ok()?;
    let _ = std::fs::remove_file(path);
    Some(target)
}

/// When an earlier complete output of the session has the same bytes, makes this file a hard
/// link to it and returns its name (`cargo_2`).
fn link_duplicate(store: &Store, path: &std::path::Path, sha256: &str, n: u64) -> Option<String> {
    let dir = store.session_dir();
    let earlier = crate::store::read_manifest(&dir)
        .into_iter()
        .find(|e| e.n != n && e.complete && e.sha256 == sha256 && dir.join(&e.file).is_file())?;
    let temp = dir.join(crate::store::duplicate_link(n));
    std::fs::hard_link(dir.join(&earlier.file), &temp).ok()?;
    if std::fs::rename(&temp, path).is_err() {
        let _ = std::fs::remove_file(&temp);
        return None;
    }
    // The shared inode keeps the earlier output's times: mark it used, or gc would take the
    // new output for one unused since the earlier run.
    let _ = crate::store::touch_last_use(path);
    Some(crate::store::stem(&earlier.file).to_string())
}

pub(super) fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
