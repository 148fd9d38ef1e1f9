//! The decision between pass-through and offload, and the offload itself: a `Sink` that keeps
//! output in memory while it may still pass through, and once it is surely over the threshold
//! streams it to the session file while counting tokens, hashing, numbering lines and analysing
//! them on other threads. Memory stays bounded whatever the output size.

use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use crate::capture::{Sink, Stream};
use crate::config::Settings;
use crate::sniff;
use crate::store::{Entry, NewOutput, Store};
use crate::summary::preview::{Ends, Preview};
use crate::summary::{Analysis, NotablePatterns, Report, default_kinds, notable_stems};
use crate::text::clean_line;
use crate::tokens::{Counter, ParallelCounter, Tokenizer};

/// How much of each end of the output is kept for the preview.
const KEEP: usize = 256 * 1024;
/// Lines longer than this reach the analysis cut to this length.
const LINE_CAP: usize = 64 * 1024;
/// The most the line scan takes at once.
const SCAN_PIECE: usize = 256 * 1024;
/// While undecided, wait for the tokenizer rather than buffer more than this.
const UNDECIDED_CAP: usize = 8 * 1024 * 1024;
/// Chunks in flight to each worker thread (backpressure keeps memory bounded).
const IN_FLIGHT: usize = 16;

/// What kind of content an output is; decides its file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Text,
    Json,
    Binary(Option<&'static str>),
}

impl Kind {
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Text => "txt",
            Kind::Json => "json",
            Kind::Binary(_) => "bin",
        }
    }
}

/// The result of a capture.
pub enum Outcome {
    /// At or under the threshold: the chunks as they arrived, to replay.
    PassThrough(Buffered),
    /// Saved to the session file.
    Offloaded(Box<Offloaded>),
    /// Over the threshold, but saving failed: everything was printed instead.
    Unsaved { error: String },
}

/// Output held in memory, with the stream each byte came from.
#[derive(Default)]
pub struct Buffered {
    pub bytes: Vec<u8>,
    /// Where each run of one stream ends in `bytes`.
    pub segments: Vec<(Stream, usize)>,
}

impl Buffered {
    fn push(&mut self, stream: Stream, data: &[u8]) {
        self.bytes.extend_from_slice(data);
        match self.segments.last_mut() {
            Some((s, end)) if *s == stream => *end = self.bytes.len(),
            _ => self.segments.push((stream, self.bytes.len())),
        }
    }

    /// Writes each byte to the stream it came from, in arrival order.
    pub fn replay(&self, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<()> {
        let mut start = 0;
        for &(stream, end) in &self.segments {
            let target: &mut dyn Write = if stream == Stream::Stdout {
                &mut *out
            } else {
                &mut *err
            };
            target.write_all(&self.bytes[start..end])?;
            target.flush()?;
            start = end;
        }
        Ok(())
    }
}

/// An output saved to its file, with everything the summary says about it.
pub struct Offloaded {
    pub store: Store,
    pub path: PathBuf,
    pub entry: Entry,
    pub kind: Kind,
    pub preview: Preview,
    pub report: Report,
}

/// What the recorder needs to know about the run.
pub struct Job {
    pub settings: Settings,
    /// The spinner, when stderr is a terminal.
    pub progress: Option<crate::progress::Progress>,
    pub name: String,
    pub argv: Vec<String>,
    pub notable: NotablePatterns,
}

/// The capture sink: buffers, decides, offloads.
pub struct Recorder {
    job: Job,
    started: std::time::SystemTime,
    state: State,
    tokenizer: Option<Tokenizer>,
    loader: Option<JoinHandle<Tokenizer>>,
}

enum State {
    Undecided {
        buffer: Buffered,
        counter: Option<Counter>,
        counted: usize,
    },
    Writing(Box<Writer>),
    /// Saving failed: everything goes straight to stdout.
    Printing {
        error: String,
    },
}

impl Recorder {
    pub fn new(job: Job) -> Recorder {
        Recorder {
            job,
            started: std::time::SystemTime::now(),
            state: State::Undecided {
                buffer: Buffered::default(),
                counter: None,
                counted: 0,
            },
            tokenizer: None,
            loader: None,
        }
    }

    fn tokenizer(&mut self) -> Tokenizer {
        if let Some(t) = self.tokenizer {
            return t;
        }
        let encoding = self.job.settings.encoding;
        let t = self
            .loader
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_else(|| Tokenizer::load(encoding));
        self.tokenizer = Some(t);
        t
    }

    /// Once the output passes the threshold in bytes, start loading the tokenizer in the
    /// background while the command keeps running.
    fn start_loading(&mut self) {
        if self.tokenizer.is_none() && self.loader.is_none() {
            let encoding = self.job.settings.encoding;
            self.loader = Some(std::thread::spawn(move || Tokenizer::load(encoding)));
        }
    }

    /// Ends the capture: decides for output still in memory and finishes the offload.
    pub fn finish(mut self, ending: &crate::capture::Ending) -> Outcome {
        if let Some(p) = &mut self.job.progress {
            p.clear();
        }
        let state = std::mem::replace(
            &mut self.state,
            State::Printing {
                error: String::new(),
            },
        );
        match state {
            State::Undecided {
                buffer,
                counter,
                counted,
            } => {
                if (buffer.bytes.len() as u64) <= self.job.settings.threshold {
                    return Outcome::PassThrough(buffer);
                }
                let tokenizer = self.tokenizer();
                let threshold = self.job.settings.threshold;
                let mut counter = counter.unwrap_or_else(|| Counter::new(tokenizer));
                let at = count_until_over(&mut counter, &buffer.bytes, counted, threshold);
                if counter.committed() > threshold && sniff::is_binary(&buffer.bytes) {
                    // Surely over, and binary output is not tokenized further.
                    let tokens = Tokens::Counting {
                        counter,
                        seen: buffer.bytes.len(),
                    };
                    return match self.open_writer(buffer.bytes, tokens) {
                        Ok(writer) => writer.finish(ending, self.started, &self.job, tokenizer),
                        Err(error) => Outcome::Unsaved { error },
                    };
                }
                let mut counter = ParallelCounter::continuing(counter);
                counter.feed(&buffer.bytes[at..]);
                let tokens = counter.finish();
                if tokens <= threshold {
                    return Outcome::PassThrough(buffer);
                }
                match self.open_writer(buffer.bytes, Tokens::Counted(tokens)) {
                    Ok(writer) => writer.finish(ending, self.started, &self.job, tokenizer),
                    Err(error) => Outcome::Unsaved { error },
                }
            }
            State::Writing(writer) => {
                let tokenizer = self.tokenizer();
                writer.finish(ending, self.started, &self.job, tokenizer)
            }
            State::Printing { error } => Outcome::Unsaved { error },
        }
    }

    /// Creates the output file and starts the worker threads, with the buffered output as the
    /// first chunk. On failure the output is printed instead, and the error says why.
    fn open_writer(&mut self, first: Vec<u8>, tokens: Tokens) -> Result<Box<Writer>, String> {
        // Shared, not copied, with the workers: it can be megabytes.
        let first = Arc::new(first);
        self.try_open_writer(&first, tokens)
            .inspect_err(|_| print_all(&[&first]))
    }

    fn try_open_writer(
        &mut self,
        first: &Arc<Vec<u8>>,
        tokens: Tokens,
    ) -> Result<Box<Writer>, String> {
        let store =
            Store::open(&self.job.settings).map_err(|e| format!("could not save output: {e:#}"))?;
        let kind = if sniff::is_binary(first) {
            Kind::Binary(sniff::binary_type(first))
        } else {
            Kind::Text
        };
        let output = store
            .create_output(&self.job.name, kind.extension())
            .map_err(|e| {
                format!(
                    "could not save output: cannot create a file in {}: {e}",
                    store.session_dir().display()
                )
            })?;
        let entry = Entry {
            n: output.n,
            file: file_name(&output.path),
            name: self.job.name.clone(),
            argv: self.job.argv.clone(),
            cwd: std::env::current_dir()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            started: crate::format::rfc3339(self.started),
            encoding: self.job.settings.encoding.name().to_string(),
            complete: false,
            ..Entry::default()
        };
        let registered = crate::store::lock(&output.file, libc::LOCK_EX)
            .and_then(|()| store.append_manifest(&entry))
            .map_err(|e| format!("could not save output to {}: {e}", output.path.display()));
        if let Err(e) = registered {
            // Nothing was saved: leave no empty output behind.
            let _ = std::fs::remove_file(&output.path);
            return Err(e);
        }
        let seen = match &tokens {
            Tokens::Counting { seen, .. } => *seen,
            Tokens::Counted(_) => first.len(),
        };
        let mut writer = Box::new(Writer::start(store, output, entry, kind, tokens, &self.job));
        match writer.write_shared(Arc::clone(first), seen) {
            Ok(()) => Ok(writer),
            Err(e) => Err(writer.discard(e)),
        }
    }
}

impl Recorder {
    /// While undecided and over the threshold in bytes: count what the tokenizer can take now,
    /// and start the offload as soon as the count is surely over the threshold. Runs on new
    /// output and on each tick, so output that stops early is saved while the command runs on.
    fn decide(&mut self) {
        let threshold = self.job.settings.threshold;
        let State::Undecided { buffer, .. } = &self.state else {
            return;
        };
        if buffer.bytes.len() as u64 <= threshold {
            return;
        }
        self.start_loading();
        let State::Undecided {
            buffer,
            counter,
            counted,
        } = &mut self.state
        else {
            return;
        };
        let ready =
            self.loader.as_ref().is_some_and(|h| h.is_finished()) || self.tokenizer.is_some();
        if counter.is_none() && !ready && buffer.bytes.len() < UNDECIDED_CAP {
            return;
        }
        let buffer = std::mem::take(buffer);
        let (mut counter_now, counted_now) = (counter.take(), *counted);
        let tokenizer = self.tokenizer();
        let c = counter_now.get_or_insert_with(|| Counter::new(tokenizer));
        let at = count_until_over(c, &buffer.bytes, counted_now, threshold);
        if c.committed() <= threshold {
            self.state = State::Undecided {
                counted: buffer.bytes.len(),
                buffer,
                counter: counter_now,
            };
            return;
        }
        // The counter goes on with the rest of the buffer and the output to come on the writer's
        // threads (binary output is not tokenized further).
        let counter = counter_now
            .take()
            .unwrap_or_else(|| Counter::new(tokenizer));
        let seen = if sniff::is_binary(&buffer.bytes) {
            buffer.bytes.len()
        } else {
            at
        };
        self.state = match self.open_writer(buffer.bytes, Tokens::Counting { counter, seen }) {
            Ok(writer) => State::Writing(writer),
            Err(error) => State::Printing { error },
        };
    }
}

impl Sink for Recorder {
    fn tick(&mut self) {
        if let Some(p) = &mut self.job.progress {
            p.tick();
        }
        self.decide();
    }

    fn output(&mut self, stream: Stream, data: &[u8]) {
        if let Some(p) = &mut self.job.progress {
            p.observe(data);
        }
        match &mut self.state {
            State::Undecided { buffer, .. } => {
                buffer.push(stream, data);
            }
            State::Writing(writer) => {
                if let Err(e) = writer.write(data) {
                    let error = writer.abandon(e, data);
                    self.state = State::Printing { error };
                }
                return;
            }
            State::Printing { .. } => {
                print_all(&[data]);
                return;
            }
        }
        self.decide();
    }
}

/// Feeds `bytes[from..]` to the counter in slices, stopping as soon as the count is surely over
/// the threshold; returns how far it fed. Deciding needs no more than that.
fn count_until_over(counter: &mut Counter, bytes: &[u8], from: usize, threshold: u64) -> usize {
    const SLICE: usize = 64 * 1024;
    let mut at = from;
    while at < bytes.len() && counter.committed() <= threshold {
        let end = (at + SLICE).min(bytes.len());
        counter.feed(&bytes[at..end]);
        at = end;
    }
    at
}

/// Writes to stdout, ignoring a closed reader.
fn print_all(parts: &[&[u8]]) {
    let mut out = io::stdout().lock();
    for part in parts {
        if out.write_all(part).is_err() {
            return;
        }
    }
    let _ = out.flush();
}

/// How the writer gets its token count.
enum Tokens {
    /// The output ended while undecided: counted already.
    Counted(u64),
    /// A counter that has seen the first `seen` bytes of the output and goes on with the rest
    /// (on every core: the writer's first chunk is not counted on the capturing thread).
    Counting { counter: Counter, seen: usize },
}

/// An offload in progress: the file, the hash, and the worker threads.
struct Writer {
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
    fn start(
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
        let analysis = Analysis::new(&job.notable, job.settings.preview_budget());
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
    fn write(&mut self, data: &[u8]) -> io::Result<()> {
        self.write_shared(Arc::new(data.to_vec()), 0)
    }

    /// Writes `data`; the token counter gets it from byte `count_from` on (it has seen the
    /// bytes before).
    fn write_shared(&mut self, data: Arc<Vec<u8>>, count_from: usize) -> io::Result<()> {
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
    fn abandon(&mut self, error: io::Error, failed: &[u8]) -> String {
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
    fn discard(&mut self, error: io::Error) -> String {
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
    fn in_place(&self) -> io::Result<()> {
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

    fn finish(
        mut self: Box<Self>,
        ending: &crate::capture::Ending,
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
        let preview = match self.kind {
            Kind::Binary(_) => Preview::default(),
            _ => Preview::new(&lines.ends(), &tokenizer, job.settings.preview_budget()),
        };
        let omitted = preview.omitted_lines(lines.total);
        let report = lines.analysis.finish(omitted);
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
        entry.lines = lines.total;
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
    let temp = dir.join(format!(".dup-{n}"));
    std::fs::hard_link(dir.join(&earlier.file), &temp).ok()?;
    if std::fs::rename(&temp, path).is_err() {
        let _ = std::fs::remove_file(&temp);
        return None;
    }
    // The shared inode keeps the earlier output's times: mark it used, or gc would take the
    // new output for one unused since the earlier run.
    let _ = crate::store::touch_last_use(path);
    Some(
        earlier
            .file
            .rsplit_once('.')
            .map_or(earlier.file.clone(), |(stem, _)| stem.to_string()),
    )
}

fn file_name(path: &std::path::Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The line worker: numbers lines, keeps both ends of the output, feeds the analysis.
struct LineScan {
    analysis: Analysis,
    total: u64,
    bytes: u64,
    /// The current line, cut to `LINE_CAP`.
    partial: Vec<u8>,
    partial_len: usize,
    start: Vec<u8>,
    end: VecDeque<u8>,
    /// The byte just before `end`, once the output is longer than the window.
    before_end: Option<u8>,
    /// Scratch space for lower-cased text.
    lower: Vec<u8>,
}

/// What the line worker hands back.
struct LineReport {
    analysis: Analysis,
    total: u64,
    bytes: u64,
    start: Vec<u8>,
    end: Vec<u8>,
    before_end: Option<u8>,
}

impl LineReport {
    fn ends(&self) -> Ends<'_> {
        Ends {
            start: &self.start,
            end: &self.end,
            end_at_line_start: self.before_end.is_none_or(|b| b == b'\n'),
            whole: self.bytes as usize == self.start.len(),
            total_lines: self.total,
        }
    }
}

impl LineScan {
    fn new(analysis: Analysis) -> LineScan {
        LineScan {
            analysis,
            total: 0,
            bytes: 0,
            partial: Vec::new(),
            partial_len: 0,
            start: Vec::new(),
            end: VecDeque::new(),
            before_end: None,
            lower: Vec::new(),
        }
    }

    fn feed(&mut self, chunk: &[u8]) {
        // The buffered output arrives as one chunk of up to 8 MiB: scratch copies of it (the
        // lower-cased text) would cost as much again.
        if chunk.len() > SCAN_PIECE {
            for piece in chunk.chunks(SCAN_PIECE) {
                self.feed(piece);
            }
            return;
        }
        self.analysis.raw(chunk);
        self.bytes += chunk.len() as u64;
        if self.start.len() < KEEP {
            let take = (KEEP - self.start.len()).min(chunk.len());
            self.start.extend_from_slice(&chunk[..take]);
        }
        let keep = &chunk[chunk.len().saturating_sub(KEEP)..];
        let overflow = (self.end.len() + keep.len()).saturating_sub(KEEP);
        if overflow > 0 {
            self.before_end = self.end.get(overflow - 1).copied();
            self.end.drain(..overflow);
        }
        if keep.len() < chunk.len() {
            self.before_end = Some(chunk[chunk.len() - keep.len() - 1]);
        }
        self.end.extend(keep);

        let mut rest = chunk;
        if self.partial_len > 0
            && let Some(i) = memchr::memchr(b'\n', rest)
        {
            self.append_partial(&rest[..i]);
            rest = &rest[i + 1..];
            self.total += 1;
            let text = clean_line(&self.partial).into_owned();
            self.analysis.line(self.total, &text);
            self.partial.clear();
            self.partial_len = 0;
        }
        if self.partial_len == 0 {
            let complete = memchr::memrchr(b'\n', rest).map_or(0, |i| i + 1);
            self.lines(&rest[..complete]);
            rest = &rest[complete..];
        }
        if !rest.is_empty() {
            self.append_partial(rest);
        }
    }

    /// Analyses whole lines (`text` ends with `\n`). Text that needs no cleaning (valid UTF-8
    /// without escapes or carriage returns: most output) is validated and searched for the
    /// notable stems once, not line by line.
    fn lines(&mut self, text: &[u8]) {
        let plain = memchr::memchr2(0x1b, b'\r', text).is_none();
        let Some(text) = plain.then(|| std::str::from_utf8(text).ok()).flatten() else {
            for line in text.split_inclusive(|&b| b == b'\n') {
                let line = &line[..line.len() - 1];
                self.total += 1;
                self.analysis
                    .line(self.total, &clean_line(&line[..line.len().min(LINE_CAP)]));
            }
            return;
        };
        let mut stems = notable_stems(text.as_bytes(), &mut self.lower).peekable();
        let mut hits = Vec::new();
        let mut start = 0;
        for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
            let line = &text[start..end];
            self.total += 1;
            hits.clear();
            while let Some(hit) = stems.next_if(|hit| hit.start < end) {
                hits.push(hit.from_offset(start));
            }
            if line.len() > LINE_CAP {
                // Cut in bytes and decoded lossily, as everywhere else.
                let cut = clean_line(&line.as_bytes()[..LINE_CAP]);
                self.analysis.line(self.total, &cut);
            } else {
                let kinds = default_kinds(line, hits.iter().copied());
                self.analysis.line_with_kinds(self.total, line, kinds);
            }
            start = end + 1;
        }
    }

    fn append_partial(&mut self, piece: &[u8]) {
        let room = LINE_CAP.saturating_sub(self.partial.len());
        self.partial
            .extend_from_slice(&piece[..piece.len().min(room)]);
        self.partial_len += piece.len();
    }

    fn finish(mut self) -> LineReport {
        if self.partial_len > 0 {
            self.total += 1;
            let text = clean_line(&self.partial).into_owned();
            self.analysis.line(self.total, &text);
        }
        LineReport {
            analysis: self.analysis,
            total: self.total,
            bytes: self.bytes,
            start: self.start,
            end: self.end.into(),
            before_end: self.before_end,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recorder(threshold: u64) -> Recorder {
        let settings = Settings {
            threshold,
            preview: 1_000,
            encoding: Default::default(),
            // Never created: nothing at or under the threshold touches the disk.
            root: PathBuf::from("/nonexistent/ctxoff-test-root"),
            session: Some("unit".into()),
            notable: Vec::new(),
            keep: Vec::new(),
        };
        Recorder::new(Job {
            settings,
            progress: None,
            name: "t".into(),
            argv: Vec::new(),
            notable: NotablePatterns::default(),
        })
    }

    #[test]
    fn output_within_the_threshold_in_bytes_loads_no_tokenizer_and_writes_nothing() {
        let mut r = recorder(100);
        r.output(Stream::Stdout, &[b'x'; 60]);
        r.output(Stream::Stderr, &[b'y'; 40]);
        r.tick();
        assert!(r.tokenizer.is_none() && r.loader.is_none());
        match r.finish(&crate::capture::Ending::default()) {
            Outcome::PassThrough(b) => {
                assert_eq!(b.bytes.len(), 100);
                assert_eq!(b.segments, [(Stream::Stdout, 60), (Stream::Stderr, 100)]);
            }
            _ => panic!("expected pass-through"),
        }
    }

    #[test]
    fn one_byte_over_in_bytes_counts_but_passes_when_tokens_are_within() {
        // 101 bytes of one repeated letter are far fewer than 100 tokens.
        let mut r = recorder(100);
        r.output(Stream::Stdout, &[b'a'; 101]);
        assert!(matches!(
            r.finish(&crate::capture::Ending::default()),
            Outcome::PassThrough(_)
        ));
    }

    /// What analysing `bytes` one cleaned line at a time reports, for comparison.
    fn line_by_line(bytes: &[u8], notable: &NotablePatterns) -> Report {
        let mut analysis = Analysis::new(notable, 40);
        analysis.raw(bytes);
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        for (i, line) in body.split(|&b| b == b'\n').enumerate() {
            let line = &line[..line.len().min(LINE_CAP)];
            analysis.line(i as u64 + 1, &clean_line(line));
        }
        let lines = body.split(|&b| b == b'\n').count() as u64;
        analysis.finish(Some(3..=lines.saturating_sub(2)))
    }

    #[test]
    fn the_line_scan_reports_what_line_by_line_analysis_does() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/corpus");
        let mut inputs: Vec<Vec<u8>> = [
            "cargo-build-errors-ansi.txt",
            "cargo-test-failures.txt",
            "pytest-failures.txt",
            "gcc-errors.txt",
            "grep-rn-context.txt",
            "invalid-utf8-synthetic.txt",
            "tqdm-progress-synthetic.txt",
            "vitest-failures.txt",
        ]
        .iter()
        .map(|n| std::fs::read(format!("{dir}/{n}")).unwrap())
        .collect();
        // A line longer than the cap with a notable word on both sides of it, and no final
        // newline.
        let mut long = b"error: first\n".to_vec();
        long.extend(std::iter::repeat_n(b'x', LINE_CAP + 10));
        long.extend_from_slice(b" panicked\nWARNING: last");
        inputs.push(long);
        // More than the scan takes at once, as the buffered output arrives.
        inputs.push(inputs[0].repeat(SCAN_PIECE / inputs[0].len() * 3));
        let plain = NotablePatterns::default();
        let configured = NotablePatterns::new(&["TODO".to_owned(), r"E\d{4}".to_owned()]).unwrap();
        for notable in [&plain, &configured] {
            for bytes in &inputs {
                let expected = line_by_line(bytes, notable);
                let sizes = if bytes.len() > SCAN_PIECE {
                    vec![4096, bytes.len()]
                } else {
                    vec![1, 7, 4096, bytes.len().max(1)]
                };
                for size in sizes {
                    let mut scan = LineScan::new(Analysis::new(notable, 40));
                    for chunk in bytes.chunks(size) {
                        scan.feed(chunk);
                    }
                    let report = scan.finish();
                    let lines = report.total;
                    let got = report.analysis.finish(Some(3..=lines.saturating_sub(2)));
                    assert_eq!(got.render(), expected.render(), "chunks of {size}");
                    assert_eq!(got.notable_json(), expected.notable_json());
                    assert_eq!(got.facts_json(), expected.facts_json());
                }
            }
        }
    }
}
