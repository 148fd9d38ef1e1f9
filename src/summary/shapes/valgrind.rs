//! Valgrind's tools (memcheck, helgrind, drd), in a log of their own or mixed into a test run's:
//! each of their lines begins `==PID== `. An error is a header followed by its stack
//! (`Invalid read of size 1`, then `   at 0x10939D: f (cJSON.c:145)`); a leak is
//! `40 bytes in 2 blocks are definitely lost in loss record 1 of 7`. Errors are counted by kind,
//! and every process's `ERROR SUMMARY` and `LEAK SUMMARY` are summed.

use serde_json::json;

use super::names::{Counts, Failures};
use super::{Fact, Shape};
use crate::format::{plural, thousands};

/// valgrind's kinds of leak, in its LEAK SUMMARY's order.
const LEAK_KINDS: [&str; 5] = [
    "definitely lost",
    "indirectly lost",
    "possibly lost",
    "still reachable",
    "suppressed",
];
/// Kinds of error counted by name; more are counted together.
const KINDS_KEPT: usize = 16;
/// Frames kept as a record's detail (those with a source location come first).
const FRAMES_KEPT: usize = 2;

#[derive(Debug, Default)]
pub(crate) struct Valgrind {
    /// A header that becomes an error when its stack follows.
    pending: Option<Pending>,
    /// The process whose record's stack is being read, and the list the record is in.
    reading: Option<(String, Option<List>)>,
    frames: usize,
    /// Errors by kind (the header without addresses).
    kinds: Counts,
    /// Leak records per kind of `LEAK_KINDS`: records, bytes, blocks.
    leak_records: [[u64; 3]; 5],
    /// Summed `ERROR SUMMARY` lines: processes, errors, contexts, suppressed errors.
    summaries: [u64; 4],
    /// Summed `LEAK SUMMARY` lines per kind: bytes, blocks; and whether one was read.
    leak_summary: [[u64; 2]; 5],
    leak_summaries: u64,
    /// Summed `total heap usage: 30 allocs, 26 frees, 5,312 bytes allocated` of the HEAP
    /// SUMMARYs: allocations, frees, bytes; and how many were read.
    heap: [u64; 3],
    heap_summaries: u64,
    in_leak_summary: bool,
    errors: Failures,
    leaks: Failures,
}

impl Valgrind {
    /// `30 allocs, 26 frees, 5,312 bytes allocated`, added to the sums.
    fn heap_usage(&mut self, usage: &str) {
        let numbers: Vec<u64> = usage
            .split(", ")
            .filter_map(|part| part.split(' ').next()?.replace(',', "").parse().ok())
            .collect();
        if let [allocs, frees, bytes] = numbers[..] {
            for (sum, n) in self.heap.iter_mut().zip([allocs, frees, bytes]) {
                *sum = sum.saturating_add(n);
            }
            self.heap_summaries += 1;
        }
    }
}

impl Shape for Valgrind {
    fn line(&mut self, number: u64, text: &str) {
        let Some((pid, rest)) = split(text) else {
            return;
        };
        let indented = rest.starts_with(' ');
        let body = rest.trim_start();
        if body.is_empty() {
            self.pending = None;
            self.reading = None;
            self.in_leak_summary = false;
            return;
        }
        if let Some(usage) = body.strip_prefix("total heap usage: ") {
            self.heap_usage(usage);
            return;
        }
        if indented {
            self.indented(pid, body);
            return;
        }
        // helgrind: a data race's locks and, after a blank line, its other access belong to
        // the error above.
        if body.starts_with("Locks held:") {
            return;
        }
        if body.starts_with("This conflicts with ") {
            self.reading = Some((pid.to_owned(), Some(List::Errors)));
            self.indented(pid, body);
            return;
        }
        self.reading = None;
        self.in_leak_summary = false;
        self.pending = None;
        if let Some(summary) = body.strip_prefix("ERROR SUMMARY: ") {
            self.error_summary(summary);
        } else if body == "LEAK SUMMARY:" {
            self.in_leak_summary = true;
            self.leak_summaries += 1;
        } else if let Some((kind, bytes, blocks)) = leak_record(body) {
            let record = &mut self.leak_records[kind];
            record[0] += 1;
            record[1] += bytes;
            record[2] += blocks;
            self.kinds.add(LEAK_KINDS[kind], KINDS_KEPT);
            // Definitely and possibly lost are the leaks to mend; the others follow from them.
            let listed = (kind == 0 || kind == 2).then_some(List::Leaks);
            if listed.is_some() {
                self.leaks.push(number, body);
            }
            self.reading = Some((pid.to_owned(), listed));
            self.frames = 0;
        } else if !is_announcement(body) {
            self.pending = Some(Pending {
                line: number,
                pid: pid.to_owned(),
                header: body.to_owned(),
                detail: None,
            });
        }
    }

    fn finish(self: Box<Self>) -> Option<Fact> {
        let [processes, errors, contexts, suppressed] = self.summaries;
        let records = self.kinds.total();
        if records == 0 && processes == 0 {
            return None;
        }
        let mut lines = Vec::new();
        if processes > 0 {
            let mut line = format!(
                "valgrind: ERROR SUMMARY: {} from {} contexts",
                plural(errors, "error", "errors"),
                thousands(contexts)
            );
            if processes > 1 {
                line.push_str(&format!(" in {} processes", thousands(processes)));
            }
            if suppressed > 0 {
                line.push_str(&format!(" (suppressed: {})", thousands(suppressed)));
            }
            if self.leak_summaries > 0 {
                let leaks: Vec<String> = LEAK_KINDS[..4]
                    .iter()
                    .zip(self.leak_summary)
                    .filter(|(_, [bytes, _])| *bytes > 0)
                    .map(|(kind, [bytes, blocks])| {
                        format!(
                            "{kind}: {} in {}",
                            plural(bytes, "byte", "bytes"),
                            plural(blocks, "block", "blocks")
                        )
                    })
                    .collect();
                if leaks.is_empty() {
                    line.push_str("; LEAK SUMMARY: no leaks");
                } else {
                    line.push_str(&format!("; LEAK SUMMARY: {}", leaks.join(", ")));
                }
            }
            if self.heap_summaries > 0 {
                let [allocs, frees, bytes] = self.heap;
                line.push_str(&format!(
                    "; total heap usage: {} allocs, {} frees, {} allocated",
                    thousands(allocs),
                    thousands(frees),
                    plural(bytes, "byte", "bytes")
                ));
            }
            lines.push(line);
        }
        if records > 0 {
            let mut kinds: Vec<String> = self
                .kinds
                .counts
                .iter()
                .map(|(kind, n)| {
                    let mut entry = format!("{kind} ×{}", thousands(*n));
                    // Without a LEAK SUMMARY, the records are all there is to say what leaked.
                    if let Some(i) = LEAK_KINDS.iter().position(|k| k == kind)
                        && self.leak_summaries == 0
                    {
                        let [_, bytes, blocks] = self.leak_records[i];
                        entry.push_str(&format!(
                            " ({} in {})",
                            plural(bytes, "byte", "bytes"),
                            plural(blocks, "block", "blocks")
                        ));
                    }
                    entry
                })
                .collect();
            if self.kinds.other > 0 {
                kinds.push(format!("other ×{}", thousands(self.kinds.other)));
            }
            lines.push(format!(
                "valgrind: {} shown: {}",
                plural(records, "record", "records"),
                kinds.join(" · ")
            ));
        }
        let json = json!({
            "shape": "valgrind",
            "processes": processes,
            "errors": errors,
            "contexts": contexts,
            "suppressed": suppressed,
            "heap_usage": (self.heap_summaries > 0).then(|| {
                let [allocs, frees, bytes] = self.heap;
                json!({"allocs": allocs, "frees": frees, "bytes": bytes})
            }),
            "records": records,
            "kinds": self.kinds.json("kind"),
            "leak_records": LEAK_KINDS.iter().zip(self.leak_records).map(|(kind, [records, bytes, blocks])| {
                json!({"kind": kind, "records": records, "bytes": bytes, "blocks": blocks})
            }).collect::<Vec<_>>(),
            "leak_summary": (self.leak_summaries > 0).then(|| {
                LEAK_KINDS.iter().zip(self.leak_summary).map(|(kind, [bytes, blocks])| {
                    json!({"kind": kind, "bytes": bytes, "blocks": blocks})
                }).collect::<Vec<_>>()
            }),
        });
        let mut this = *self;
        let errors = this.errors.take_as("valgrind errors");
        let leaks = this
            .leaks
            .take_as("valgrind leaks (definitely and possibly lost)");
        Some(
            Fact::new("valgrind", lines, json)
                .failures(errors)
                .failures(leaks)
                .hint("'^==[0-9]+== [^ ]' -A 4"),
        )
    }

    #[cfg(test)]
    fn approx_heap(&self) -> usize {
        self.errors.approx_heap()
            + self.leaks.approx_heap()
            + self.kinds.approx_heap()
            + self.pending.as_ref().map_or(0, |p| {
                p.pid.capacity()
                    + p.header.capacity()
                    + p.detail.as_ref().map_or(0, String::capacity)
            })
    }
}

impl Valgrind {
    /// A line of a record (a frame, `Address 0x… is 0 bytes after …`) or of the LEAK SUMMARY.
    fn indented(&mut self, pid: &str, body: &str) {
        if self.in_leak_summary {
            if let Some((kind, rest)) = body.split_once(": ")
                && let Some(i) = LEAK_KINDS.iter().position(|k| *k == kind)
                && let Some((bytes, blocks)) = bytes_in_blocks(rest)
            {
                self.leak_summary[i][0] += bytes;
                self.leak_summary[i][1] += blocks;
            }
            return;
        }
        let frame = body.starts_with("at 0x") || body.starts_with("by 0x");
        if let Some(pending) = self.pending.as_mut().filter(|p| p.pid == pid)
            && !frame
        {
            // `Process terminating with default action of signal 11 (SIGSEGV)` is followed by
            // ` Access not within mapped region at address 0x0`, then the stack.
            pending.detail.get_or_insert_with(|| body.to_owned());
            return;
        }
        if frame && let Some(pending) = self.pending.take_if(|p| p.pid == pid) {
            self.kinds.add(&kind_of(&pending.header), KINDS_KEPT);
            self.errors.push(pending.line, &pending.header);
            if let (Some(detail), Some(failure)) = (pending.detail, self.errors.current()) {
                failure.add_detail(&detail);
            }
            self.reading = Some((pid.to_owned(), Some(List::Errors)));
            self.frames = 0;
        }
        let list = match &self.reading {
            Some((reading, Some(list))) if reading == pid => list,
            _ => return,
        };
        let failures = match list {
            List::Errors => &mut self.errors,
            List::Leaks => &mut self.leaks,
        };
        let Some(failure) = failures.current() else {
            return;
        };
        if frame {
            if self.frames < FRAMES_KEPT
                && let Some(frame) = source_frame(body)
            {
                self.frames += 1;
                failure.add_detail(&frame);
            }
        } else if body.starts_with("Address 0x")
            || body.starts_with("This conflicts with ")
            || !failure.has_detail()
        {
            // `Address 0x4b99c65 is 0 bytes after a block of size 5 alloc'd`, then where that
            // block was allocated (or helgrind's other access, then where it was made): one
            // frame of that stack too.
            failure.add_detail(body);
            self.frames = self.frames.min(FRAMES_KEPT - 1);
        }
    }

    /// `29 errors from 14 contexts (suppressed: 0 from 0)`
    fn error_summary(&mut self, summary: &str) {
        let mut numbers = summary
            .split(|c: char| !c.is_ascii_digit() && c != ',')
            .filter(|w| !w.is_empty() && *w != ",")
            .map(parse_number);
        if let (Some(Some(errors)), Some(Some(contexts))) = (numbers.next(), numbers.next()) {
            self.summaries[0] += 1;
            self.summaries[1] += errors;
            self.summaries[2] += contexts;
            self.summaries[3] += numbers.next().flatten().unwrap_or(0);
        }
    }
}

#[derive(Debug)]
struct Pending {
    line: u64,
    pid: String,
    header: String,
    detail: Option<String>,
}

/// The list a record is in.
#[derive(Debug, Clone, Copy)]
enum List {
    Errors,
    Leaks,
}

/// `at 0x10939D: case_insensitive_strcmp (cJSON.c:145)` → `at case_insensitive_strcmp
/// (cJSON.c:145)`; none for a frame without a source location (`malloc (in /usr/…/vgpreload…)`).
pub(super) fn source_frame(body: &str) -> Option<String> {
    let body = body.trim_start();
    let verb = ["at 0x", "by 0x"].iter().find(|v| body.starts_with(**v))?;
    let place = body.split_once(": ")?.1;
    let in_source = place.ends_with(')') && !place.contains("(in /");
    in_source.then(|| format!("{} {place}", &verb[..2]))
}

/// `==25689== text` → (`25689`, ` text`); `==25689==` alone → (`25689`, ``).
pub(crate) fn split(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("==")?;
    let (pid, rest) = rest.split_once("==")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    match rest.strip_prefix(' ') {
        Some(rest) => Some((pid, rest)),
        None if rest.is_empty() => Some((pid, rest)),
        None => None,
    }
}

/// valgrind's banner and advice: `Memcheck, a memory error detector`, `For lists of detected
/// and suppressed errors, rerun with: -s`. Their failure words say nothing of the program.
pub(crate) fn is_banner(text: &str) -> bool {
    split(text).is_some_and(|(_, body)| {
        body.starts_with("For lists of detected and suppressed errors")
            || body.starts_with("For counts of detected and suppressed errors")
            || body.ends_with(", a memory error detector")
            || body.ends_with(", a thread error detector")
    })
}

/// Helgrind's and drd's thread announcements come with a stack but are no error.
fn is_announcement(body: &str) -> bool {
    body.starts_with("Thread #") && (body.contains(" was created") || body.contains(" root thread"))
        || body.starts_with("---")
}

/// `1,234 (96 direct, 1,138 indirect) bytes in 2 blocks are definitely lost in loss record 3 of 7`
/// → (kind, bytes, blocks).
fn leak_record(body: &str) -> Option<(usize, u64, u64)> {
    let (what, _) = body.split_once(" in loss record ")?;
    let kind = LEAK_KINDS[..4]
        .iter()
        .position(|k| what.ends_with(&format!(" are {k}")))?;
    let bytes = parse_number(body.split(' ').next()?)?;
    let blocks = what.split_once(" bytes in ")?.1.split(' ').next()?;
    Some((kind, bytes, parse_number(blocks)?))
}

/// `2,344 bytes in 215 blocks` → (2344, 215).
fn bytes_in_blocks(text: &str) -> Option<(u64, u64)> {
    let (bytes, rest) = text.split_once(" bytes in ")?;
    let blocks = rest.strip_suffix(" blocks")?;
    Some((parse_number(bytes)?, parse_number(blocks)?))
}

/// `2,344` → 2344.
fn parse_number(text: &str) -> Option<u64> {
    let digits: String = text.chars().filter(|&c| c != ',').collect();
    digits.parse().ok()
}

/// An error's kind: its header without the addresses it names (`Invalid read of size 1`).
fn kind_of(header: &str) -> String {
    let kind = header.split(" at 0x").next().unwrap_or(header);
    kind.split(' ')
        .map(|w| if w.starts_with("0x") { "0x…" } else { w })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leak_records_and_summaries_are_read_with_their_thousands() {
        assert_eq!(
            leak_record("40 bytes in 2 blocks are definitely lost in loss record 1 of 7"),
            Some((0, 40, 2))
        );
        assert_eq!(
            leak_record(
                "1,234 (96 direct, 1,138 indirect) bytes in 2 blocks are possibly lost in loss record 3 of 7"
            ),
            Some((2, 1234, 2))
        );
        assert_eq!(leak_record("Invalid read of size 1"), None);
        assert_eq!(
            bytes_in_blocks("2,344 bytes in 215 blocks"),
            Some((2344, 215))
        );
        assert_eq!(
            source_frame("   at 0x10939D: case_insensitive_strcmp (cJSON.c:145)").as_deref(),
            Some("at case_insensitive_strcmp (cJSON.c:145)")
        );
        assert_eq!(
            source_frame(
                "at 0x48417B4: malloc (in /usr/libexec/valgrind/vgpreload_memcheck-amd64-linux.so)"
            ),
            None
        );
        assert!(is_announcement("Thread #2 was created"));
        assert!(!is_announcement(
            "Possible data race during read of size 4 at 0x10C02C by thread #3"
        ));
        assert_eq!(split("==25689== "), Some(("25689", "")));
        assert_eq!(split("==25689=="), Some(("25689", "")));
        assert_eq!(split("==x== a"), None);
        assert_eq!(split("== a =="), None);
        assert_eq!(
            kind_of("Possible data race during read of size 4 at 0x5C0A040 by thread #3"),
            "Possible data race during read of size 4"
        );
    }
}
