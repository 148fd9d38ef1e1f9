//! Run and pipe mode's pipeline: `capture` reads the child (or standard input) and hands every
//! chunk to the [`Recorder`], which keeps output in memory while it may still pass through and,
//! once it is surely over the threshold, streams it to the session file (`writer`) while other
//! threads count tokens and scan lines (`scan`). Memory stays bounded whatever the output size.

pub(crate) mod capture;
pub(crate) mod content;
pub(crate) mod progress;
mod scan;
mod signals;
pub(crate) mod sniff;
mod writer;

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::config::Settings;
use crate::history::{self, History, Offload, Record};
use crate::store::{Entry, Kind, Store, stem};
use crate::summary::preview::Preview;
use crate::summary::{NotablePatterns, Report, Saved};
use crate::tokens::{Counter, ParallelCounter, Tokenizer};
use capture::{Sink, Stream};
use writer::{Tokens, Writer};

/// While undecided, wait for the tokenizer rather than buffer more than this.
const UNDECIDED_CAP: usize = 8 * 1024 * 1024;

/// The result of a capture.
pub(crate) enum Outcome {
    /// At or under the threshold: the chunks as they arrived, to replay.
    PassThrough(Buffered),
    /// Saved to the session file.
    Offloaded(Box<Offloaded>),
    /// Over the threshold, but saving failed: everything was printed instead.
    Unsaved { error: String },
}

/// Output held in memory, with the stream each byte came from.
#[derive(Default)]
pub(crate) struct Buffered {
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
    pub(crate) fn replay(&self, out: &mut dyn Write, err: &mut dyn Write) -> io::Result<()> {
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
pub(crate) struct Offloaded {
    pub store: Store,
    pub path: PathBuf,
    pub entry: Entry,
    pub kind: Kind,
    pub preview: Preview,
    pub report: Report,
    /// What went wrong in the analysis, when something did.
    pub note: Option<String>,
    /// The tokenizer the output was counted with, to count what is printed about it.
    pub tokenizer: Tokenizer,
}

impl Offloaded {
    /// What the summary describes; `interrupted` is the signal that interrupted ctxoff, if any.
    pub(crate) fn saved(&self, interrupted: Option<i32>) -> Saved<'_> {
        Saved {
            entry: &self.entry,
            path: &self.path,
            kind: self.kind,
            session: &self.store.session,
            note: self.store.fallback.as_deref().or(self.note.as_deref()),
            interrupted,
            preview: &self.preview,
            report: &self.report,
        }
    }

    /// Records this offload, whose summary (or `--json` object) `printed` was printed, in the
    /// history in `dir` (`None`: nowhere). Binary output is not tokenized, so it has no figures
    /// to record. Recording never fails a run: a history that cannot be used is skipped.
    pub(crate) fn record(&self, dir: Option<&Path>, printed: &str) {
        let Some(output_tokens) = self.entry.tokens else {
            return;
        };
        let Some(history) = History::writable(dir) else {
            return;
        };
        let record = Record::Offload(Offload {
            time: history::now(),
            session: self.store.session.clone(),
            output: stem(&self.entry.file).to_string(),
            started: self.entry.started.clone(),
            path: self.path.to_string_lossy().into_owned(),
            command: self.entry.name.clone(),
            shapes: self.report.shapes(),
            encoding: self.entry.encoding.clone(),
            output_tokens,
            summary_tokens: self.tokenizer.count(printed),
        });
        let _ = history.append(&record);
    }
}

/// What the recorder needs to know about the run.
pub(crate) struct Job {
    pub settings: Settings,
    /// The spinner, when stderr is a terminal.
    pub progress: Option<progress::Progress>,
    pub name: String,
    pub argv: Vec<String>,
    pub notable: NotablePatterns,
    /// Output that cannot be saved is printed to stdout instead (run and pipe mode: nothing may
    /// be lost), or dropped (an agent's hook, whose stdout is its answer and whose agent still
    /// holds the output).
    pub print_unsaved: bool,
    /// How much output passes through (the threshold, or the content limit).
    pub limit: content::Limit,
    /// What the order of the saved bytes means, for the manifest.
    pub order: &'static str,
}

/// The capture sink: buffers, decides, offloads.
pub(crate) struct Recorder {
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
    pub(crate) fn new(job: Job) -> Recorder {
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
    pub(crate) fn finish(mut self, ending: &capture::Ending) -> Outcome {
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
                let limit = self.job.limit;
                if (buffer.bytes.len() as u64) <= limit.threshold {
                    return Outcome::PassThrough(buffer);
                }
                let tokenizer = self.tokenizer();
                let mut counter = counter.unwrap_or_else(|| Counter::new(tokenizer));
                let at = count_until_over(&mut counter, &buffer.bytes, counted, limit.tokens);
                if counter.committed() > limit.threshold && sniff::is_binary(&buffer.bytes) {
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
                // As the agent will see it: ctxoff's own status (pipe mode and an output handed
                // over after the fact have no failure of their own to report).
                let failed = ending.exit_status() != 0;
                if limit.passes(tokens, &buffer.bytes, failed) {
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
        let print = self.job.print_unsaved;
        self.try_open_writer(&first, tokens).inspect_err(|_| {
            if print {
                print_all(&[&first])
            }
        })
    }

    fn try_open_writer(
        &mut self,
        first: &Arc<Vec<u8>>,
        tokens: Tokens,
    ) -> Result<Box<Writer>, String> {
        let store = self
            .job
            .settings
            .open_store()
            .map_err(|e| format!("could not save output: {e:#}"))?;
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
            file: output.name(),
            name: self.job.name.clone(),
            argv: self.job.argv.clone(),
            cwd: std::env::current_dir()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            started: crate::format::rfc3339(self.started),
            encoding: self.job.settings.encoding.name().to_string(),
            complete: false,
            order: Some(self.job.order.to_string()),
            ..Entry::default()
        };
        let registered = crate::store::lock(&output.file)
            .and_then(|()| store.append_manifest(&output.dir, &entry))
            .map_err(|e| format!("could not save output to {}: {e}", output.path.display()));
        if let Err(e) = registered {
            // Nothing was saved: leave no empty output behind.
            let _ = output.dir.remove_file(output.name());
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
        let limit = self.job.limit;
        let State::Undecided { buffer, .. } = &self.state else {
            return;
        };
        if buffer.bytes.len() as u64 <= limit.threshold {
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
        let at = count_until_over(c, &buffer.bytes, counted_now, limit.tokens);
        // Surely over what may pass (a failing command may keep less: decided at the end).
        let surely = c.committed();
        let over = surely > limit.tokens
            || (surely > limit.threshold && !limit.passes(surely, &buffer.bytes, false));
        if !over {
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
                    let error = writer.abandon(e, data, self.job.print_unsaved);
                    self.state = State::Printing { error };
                }
                return;
            }
            State::Printing { .. } => {
                if self.job.print_unsaved {
                    print_all(&[data]);
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn recorder(threshold: u64) -> Recorder {
        let settings = Settings {
            threshold,
            content_limit: threshold,
            session: Some("unit".into()),
            // Never created: nothing at or under the threshold touches the disk.
            ..Settings::at("/nonexistent/ctxoff-test-root")
        };
        Recorder::new(Job {
            progress: None,
            name: "t".into(),
            argv: Vec::new(),
            notable: NotablePatterns::default(),
            print_unsaved: true,
            limit: content::Limit::for_content(&settings, false, None),
            order: crate::store::ORDER_EXACT,
            settings,
        })
    }

    /// Offloads 20,000 lines with `fault` injected into the offload's analysis.
    fn offload_with(fault: Option<writer::Fault>) -> (tempfile::TempDir, Offloaded, Vec<u8>) {
        let tmp = tempfile::tempdir().unwrap();
        let mut r = recorder(100);
        r.job.settings.root = tmp.path().join("root");
        // The tokenizer ready before the output arrives, so counting goes on the writer's thread.
        r.start_loading();
        let _ = r.tokenizer();
        writer::FAULT.with(|f| f.set(fault));
        let text = (1..=20_000)
            .map(|i| format!("line {i}: error\n"))
            .collect::<String>()
            .into_bytes();
        for chunk in text.chunks(4096) {
            r.output(Stream::Stdout, chunk);
        }
        let ending = capture::Ending {
            code: Some(3),
            ..capture::Ending::default()
        };
        let outcome = r.finish(&ending);
        writer::FAULT.with(|f| f.set(None));
        match outcome {
            Outcome::Offloaded(off) => (tmp, *off, text),
            Outcome::PassThrough(_) => panic!("{fault:?}: passed through"),
            Outcome::Unsaved { error } => panic!("{fault:?}: not saved: {error}"),
        }
    }

    #[test]
    fn a_failing_analysis_loses_nothing_and_the_summary_keeps_its_header() {
        use crate::summary::{Origin, render};
        let (_tmp, whole, _) = offload_with(None);
        assert_eq!(whole.note, None);
        let tokens = whole.entry.tokens.expect("counted");
        for fault in [
            writer::Fault::LineWorker,
            writer::Fault::Counter,
            writer::Fault::Report,
        ] {
            let (_tmp, off, text) = offload_with(Some(fault));
            assert_eq!(std::fs::read(&off.path).unwrap(), text, "{fault:?}");
            assert!(off.entry.complete, "{fault:?}");
            assert_eq!(off.entry.lines, 20_000, "{fault:?}");
            assert_eq!(off.entry.bytes, text.len() as u64);
            let manifest = crate::store::read_manifest(off.path.parent().unwrap());
            assert_eq!(manifest.last().map(|e| e.complete), Some(true), "{fault:?}");
            let origin = Origin {
                command: Some("gen"),
                name: "gen",
            };
            let summary = render(&origin, &off.saved(None));
            let counted = match fault {
                writer::Fault::Counter => "? tokens".to_string(),
                _ => format!("{} tokens", crate::format::thousands(tokens)),
            };
            let header = format!(
                "[ctxoff] `gen` exited 3 · 20,000 lines · {counted} · full output: {}\n",
                off.path.display()
            );
            assert!(summary.starts_with(&header), "{fault:?}: {summary}");
            assert!(
                summary.contains("internal error in"),
                "{fault:?}: {summary}"
            );
            let read_more = summary.lines().last().unwrap();
            assert!(
                read_more.starts_with("[ctxoff] read more: ")
                    && read_more.contains("ctxoff lines "),
                "{summary}"
            );
        }
    }

    #[test]
    fn output_within_the_threshold_in_bytes_loads_no_tokenizer_and_writes_nothing() {
        let mut r = recorder(100);
        r.output(Stream::Stdout, &[b'x'; 60]);
        r.output(Stream::Stderr, &[b'y'; 40]);
        r.tick();
        assert!(r.tokenizer.is_none() && r.loader.is_none());
        match r.finish(&capture::Ending::default()) {
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
            r.finish(&capture::Ending::default()),
            Outcome::PassThrough(_)
        ));
    }
}
