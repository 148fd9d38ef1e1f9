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
use crate::store::{Access, Dir, Entry, Kind, NewOutput, Store, read_manifest_in};
use crate::summary::preview::Preview;
use crate::summary::{Analysis, Source};
use crate::tokens::{Counter, ParallelCounter, Tokenizer};
use std::path::Path;

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
    /// `None` once the worker is gone (it panicked): nothing more is sent to it.
    tx: Option<SyncSender<Chunk>>,
    handle: JoinHandle<T>,
}

impl<T: Send + 'static> Worker<T> {
    fn spawn(f: impl FnOnce(Receiver<Chunk>) -> T + Send + 'static) -> Worker<T> {
        let (tx, rx) = sync_channel(IN_FLIGHT);
        Worker {
            tx: Some(tx),
            handle: std::thread::spawn(move || f(rx)),
        }
    }

    /// Hands `chunk` to the worker. A worker that died (a bug: it panicked) gets nothing more;
    /// [`Worker::join`] then reports it, and the summary does without what it would have found.
    fn send(&mut self, chunk: Chunk) {
        if let Some(tx) = &self.tx
            && tx.send(chunk).is_err()
        {
            self.tx = None;
        }
    }

    /// The worker's result, `None` when it panicked.
    fn join(mut self) -> Option<T> {
        self.tx = None;
        self.handle.join().ok()
    }
}

/// A fault a test injects into the offload, to check that a failing analysis loses nothing.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fault {
    /// The line worker panics on its first chunk.
    LineWorker,
    /// The token counter's thread panics on its first chunk.
    Counter,
    /// Ending the analysis panics.
    Report,
}

#[cfg(test)]
thread_local! {
    /// The fault the offloads started on this thread get.
    pub(super) static FAULT: std::cell::Cell<Option<Fault>> = const { std::cell::Cell::new(None) };
}

/// Runs `f`, or returns `None` when it panics: the summary does without that part.
fn contained<T>(f: impl FnOnce() -> T) -> Option<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).ok()
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
        #[cfg(test)]
        let fault = FAULT.with(std::cell::Cell::get);
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
                        #[cfg(test)]
                        if fault == Some(Fault::Counter) {
                            panic!("injected fault: the token counter");
                        }
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
                #[cfg(test)]
                if fault == Some(Fault::LineWorker) {
                    panic!("injected fault: the line worker");
                }
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
        if let Some(counter) = &mut self.counter
            && count_from < data.len()
        {
            counter.send(Chunk {
                bytes: Arc::clone(&data),
                from: count_from,
            });
        }
        self.lines.send(Chunk {
            bytes: data,
            from: 0,
        });
        Ok(())
    }

    /// Saving failed after `written` bytes reached the file: print what the file holds and the
    /// chunk that failed (when `print`), remove the partial file, and say why.
    pub(super) fn abandon(&mut self, error: io::Error, failed: &[u8], print: bool) -> String {
        use std::io::{Read, Seek};
        if !print {
            return self.discard(error);
        }
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
            let _ = self.output.dir.remove_file(self.output.name());
        }
        self.entry.bytes = self.bytes;
        let _ = self.store.append_manifest(&self.output.dir, &self.entry);
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
        // Looked up in the directory the file was made in, which must still be the session's.
        let dir = self.output.dir.metadata()?;
        let same_dir = self
            .store
            .session()
            .and_then(|d| d.metadata())
            .is_ok_and(|now| (now.dev(), now.ino()) == (dir.dev(), dir.ino()));
        match self.output.dir.entry_metadata(self.output.name()) {
            Ok(_) if !same_dir => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "its session directory was removed during the capture",
            )),
            Ok(at) if at.dev() == open.dev() && at.ino() == open.ino() => Ok(()),
            _ => Err(io::Error::new(
                io::ErrorKind::NotFound,
                "it was removed during the capture",
            )),
        }
    }

    pub(super) fn finish(
        self: Box<Self>,
        ending: &Ending,
        started: std::time::SystemTime,
        job: &Job,
        tokenizer: Tokenizer,
    ) -> Outcome {
        let mut this = *self;
        if let Err(e) = this.in_place() {
            // The unlinked file still holds every byte: print them instead.
            let error = this.abandon(e, &[], job.print_unsaved);
            return Outcome::Unsaved { error };
        }
        // Whatever fails in the analysis, the output stays saved and the summary keeps at least
        // its header: a part that failed is left out, and the summary says so.
        let mut failed = Vec::new();
        let tokens = match this.counter.take() {
            Some(worker) => worker.join().or_else(|| {
                failed.push("counting tokens");
                None
            }),
            None => this.counted,
        };
        let budget = job.settings.preview_budget();
        let empty_report =
            || Analysis::for_source(&job.notable, budget, &Source::default()).finish(None);
        let (total_lines, preview, report) = match this.lines.join() {
            Some(lines) => {
                let total = lines.total;
                let kind = this.kind;
                // Head, tail and report are decided together (failures and facts take their
                // room from head and tail).
                let summarised = contained(|| {
                    #[cfg(test)]
                    if FAULT.with(std::cell::Cell::get) == Some(Fault::Report) {
                        panic!("injected fault: the report");
                    }
                    match kind {
                        Kind::Binary(_) => (Preview::default(), lines.analysis.finish(None)),
                        // With a threshold of 0 every output is offloaded and none is previewed.
                        _ if job.settings.threshold == 0 => {
                            let preview = Preview::default();
                            let omitted = preview.omitted_lines(total);
                            (preview, lines.analysis.finish(omitted))
                        }
                        _ => lines.summarise(&tokenizer, budget, tokens),
                    }
                });
                let (preview, report) = summarised.unwrap_or_else(|| {
                    failed.push("the preview and the analysis");
                    (Preview::default(), empty_report())
                });
                (total, preview, report)
            }
            None => {
                failed.push("the line scan");
                (
                    count_lines(&this.output.file),
                    Preview::default(),
                    empty_report(),
                )
            }
        };
        let note = (!failed.is_empty()).then(|| {
            format!(
                "internal error in {}: the summary leaves it out; the saved output is whole",
                failed.join(" and ")
            )
        });
        let mut kind = this.kind;
        let mut path = this.output.path.clone();
        if kind == Kind::Text
            && report.is_json_document()
            && let Some(renamed) = rename_extension(&this.output.dir, &path, "json")
        {
            kind = Kind::Json;
            path = renamed;
        }
        let sha256 = hex(&this.hasher.finalize());
        let mut entry = this.entry;
        entry.file = file_name(&path);
        entry.duration_ms = started.elapsed().map_or(0, |d| d.as_millis() as u64);
        entry.exit_code = ending.code;
        entry.signal = ending.signal.or(ending.interrupted);
        entry.bytes = this.bytes;
        entry.lines = total_lines;
        entry.tokens = tokens;
        entry.duplicate_of = link_duplicate(&this.output.dir, &path, &sha256, entry.n);
        entry.sha256 = sha256;
        entry.complete = ending.interrupted.is_none();
        let _ = this.output.file.flush();
        let _ = this.store.append_manifest(&this.output.dir, &entry);
        Outcome::Offloaded(Box::new(Offloaded {
            store: this.store,
            path,
            entry,
            kind,
            preview,
            report,
            note,
            tokenizer,
        }))
    }
}

/// Lines of the saved file (`\n`s, and one more for a last line without), read back: for
/// when the line scan failed.
fn count_lines(file: &std::fs::File) -> u64 {
    use std::os::unix::fs::FileExt;
    let mut buf = vec![0u8; 1 << 20];
    let (mut lines, mut pos, mut last) = (0u64, 0u64, b'\n');
    while let Ok(n) = file.read_at(&mut buf, pos) {
        if n == 0 {
            break;
        }
        lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        last = buf[n - 1];
        pos += n as u64;
    }
    lines + u64::from(last != b'\n')
}

/// Renames `x_3.txt` (in `dir`) to `x_3.<ext>` without replacing anything; `None` when it could
/// not.
fn rename_extension(dir: &Dir, path: &Path, ext: &str) -> Option<PathBuf> {
    let target = path.with_extension(ext);
    let (from, to) = (file_name(path), file_name(&target));
    dir.hard_link(&from, &to).ok()?;
    let _ = dir.remove_file(&from);
    Some(target)
}

/// When an earlier complete output of the session (in `dir`) has the same bytes, makes this
/// file a hard link to it and returns its name (`cargo_2`).
fn link_duplicate(dir: &Dir, path: &Path, sha256: &str, n: u64) -> Option<String> {
    let earlier = read_manifest_in(dir).into_iter().find(|e| {
        e.n != n
            && e.complete
            && e.sha256 == sha256
            && dir.entry_metadata(&e.file).is_ok_and(|m| m.is_file())
    })?;
    let temp = crate::store::duplicate_link(n);
    dir.hard_link(&earlier.file, &temp).ok()?;
    if dir.rename(&temp, file_name(path)).is_err() {
        let _ = dir.remove_file(&temp);
        return None;
    }
    // The shared inode keeps the earlier output's times: mark it used, or gc would take the
    // new output for one unused since the earlier run.
    if let Ok(file) = dir.open_file(file_name(path), Access::Read) {
        let _ = crate::store::mark_used(&file);
    }
    Some(crate::store::stem(&earlier.file).to_string())
}

pub(super) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
