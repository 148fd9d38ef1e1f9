//! The child process and its two output streams, read in arrival order; standard input in pipe
//! mode; and the signals sent to ctxoff meanwhile. What happens to the bytes is the `Sink`'s
//! business: capture only reads, forwards signals and reports how the command ended.

use anyhow::Result;
use std::ffi::OsString;
use std::io::{self, ErrorKind};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::signals::Signals;
use crate::error::Failure;

/// After the command exits, how long to keep reading from a pipe a background grandchild still
/// holds open.
pub(crate) const GRACE: Duration = Duration::from_millis(500);
/// After forwarding a terminating signal, how long the command gets before it is killed.
pub(crate) const KILL_AFTER: Duration = Duration::from_secs(5);

const READ_SIZE: usize = 256 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stream {
    Stdout,
    Stderr,
}

/// Where captured bytes go, in the order they arrived.
pub(crate) trait Sink {
    fn output(&mut self, stream: Stream, data: &[u8]);
    /// Called after each wait (at least ten times a second), for progress display.
    fn tick(&mut self) {}
}

/// How the capture ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ending {
    /// The command's exit code, when it exited normally.
    pub code: Option<i32>,
    /// The signal that killed the command.
    pub signal: Option<i32>,
    /// The signal that interrupted ctxoff itself (SIGINT, SIGTERM, SIGHUP): the output is
    /// incomplete.
    pub interrupted: Option<i32>,
}

impl Ending {
    /// ctxoff's exit status: the command's, 128+N for a signal, 128+N when ctxoff was
    /// interrupted, else 0 (pipe mode).
    pub(crate) fn exit_status(&self) -> u8 {
        if let Some(sig) = self.interrupted.or(self.signal) {
            return (128 + sig).clamp(0, 255) as u8;
        }
        self.code.map_or(0, |c| c.clamp(0, 255) as u8)
    }
}

/// Runs `argv`, feeding its stdout and stderr to `sink` as they arrive.
pub(crate) fn run_command(argv: &[OsString], sink: &mut dyn Sink) -> Result<Ending> {
    let mut child = spawn(argv)?;
    let signals = Signals::install()?;
    ignore_file_size_signal();
    // The pipes close when these are dropped, after the loop.
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let mut sources = [
        (stdout.as_ref().map(|s| s.as_raw_fd()), Stream::Stdout),
        (stderr.as_ref().map(|s| s.as_raw_fd()), Stream::Stderr),
    ];
    pump(&mut sources, Some(&mut child), &signals, sink)
}

/// Reads standard input (pipe mode) into `sink` until end of file or a terminating signal.
pub(crate) fn read_stdin(sink: &mut dyn Sink) -> Result<Ending> {
    let signals = Signals::install()?;
    ignore_file_size_signal();
    let mut sources = [(Some(0), Stream::Stdout), (None, Stream::Stderr)];
    pump(&mut sources, None, &signals, sink)
}

fn spawn(argv: &[OsString]) -> Result<Child> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| Failure::new(2, "no command given"))?;
    let shown = program.to_string_lossy();
    Command::new(program)
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| {
            let failure = match e.kind() {
                ErrorKind::NotFound => Failure::new(127, format!("{shown}: command not found")),
                ErrorKind::PermissionDenied => {
                    Failure::new(126, format!("{shown}: permission denied"))
                }
                _ => Failure::new(126, format!("{shown}: cannot run: {e}")),
            };
            anyhow::Error::new(failure)
        })
}

/// The child as the capture loop sees it: a pidfd that becomes readable when it exits (no
/// polling, no race with signals), or periodic checks where pidfds are not available.
struct Running<'a> {
    child: &'a mut Child,
    pidfd: Option<RawFd>,
    exited_at: Option<Instant>,
    kill_at: Option<Instant>,
}

impl Running<'_> {
    /// Reaps the child if it has exited, recording how.
    fn reap(&mut self, ending: &mut Ending) {
        let mut status = 0;
        // SAFETY: waitpid on our own child with a valid status pointer.
        let pid =
            unsafe { libc::waitpid(self.child.id() as libc::pid_t, &mut status, libc::WNOHANG) };
        if pid > 0 {
            let status = std::process::ExitStatus::from_raw(status);
            ending.code = status.code();
            ending.signal = status.signal();
            self.exited_at = Some(Instant::now());
        } else if pid < 0 {
            // Not our child any more (should not happen): stop waiting for it.
            self.exited_at = Some(Instant::now());
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        if let Some(fd) = self.pidfd {
            // SAFETY: closing the pidfd this struct owns.
            unsafe { libc::close(fd) };
        }
    }
}

fn pidfd_open(pid: u32) -> Option<RawFd> {
    // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    (fd >= 0).then_some(fd as RawFd)
}

/// The capture loop: poll the open sources, the signal pipe and the child's exit, hand data to
/// the sink, and stop once the child has exited and its pipes are drained, or the grace period
/// after its exit has passed (a background grandchild may hold them open forever).
fn pump(
    sources: &mut [(Option<RawFd>, Stream); 2],
    child: Option<&mut Child>,
    signals: &Signals,
    sink: &mut dyn Sink,
) -> Result<Ending> {
    let mut ending = Ending::default();
    let mut buf = vec![0u8; READ_SIZE];
    let mut running = child.map(|child| Running {
        pidfd: pidfd_open(child.id()),
        child,
        exited_at: None,
        kill_at: None,
    });
    loop {
        let open = sources.iter().filter(|s| s.0.is_some()).count();
        let timeout = match &running {
            None if open == 0 || ending.interrupted.is_some() => break,
            None => 100,
            Some(r) => match r.exited_at {
                Some(_) if open == 0 => break,
                Some(at) => match grace_left_ms(at) {
                    Some(ms) => ms,
                    None => break,
                },
                None => 100,
            },
        };
        let pidfd = running
            .as_ref()
            .filter(|r| r.exited_at.is_none())
            .and_then(|r| r.pidfd);
        let mut fds: Vec<libc::pollfd> = sources
            .iter()
            .filter_map(|s| s.0)
            .chain([signals.read_fd])
            .chain(pidfd)
            .map(|fd| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        // SAFETY: `fds` is a valid, exclusively borrowed array of pollfd for the call.
        let ready = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout) };
        if ready < 0 {
            let err = io::Error::last_os_error();
            if err.kind() == ErrorKind::Interrupted {
                continue;
            }
            return Err(err.into());
        }
        for pfd in &fds {
            if pfd.revents == 0 || Some(pfd.fd) == pidfd {
                continue;
            }
            if pfd.fd == signals.read_fd {
                for (sig, from_terminal) in signals.drain() {
                    ending.interrupted.get_or_insert(sig);
                    if let Some(r) = running.as_mut().filter(|r| r.exited_at.is_none()) {
                        // A signal from the terminal reached the whole foreground process group,
                        // the command included; forward only what was sent to ctxoff alone.
                        if !from_terminal {
                            send_signal(r.child, sig);
                        }
                        r.kill_at.get_or_insert(Instant::now() + KILL_AFTER);
                    }
                }
                continue;
            }
            let Some(source) = sources.iter_mut().find(|s| s.0 == Some(pfd.fd)) else {
                continue;
            };
            match read_fd(pfd.fd, &mut buf) {
                Ok(0) => source.0 = None,
                Ok(n) => sink.output(source.1, &buf[..n]),
                Err(e)
                    if e.kind() == ErrorKind::Interrupted || e.kind() == ErrorKind::WouldBlock => {}
                Err(_) => source.0 = None,
            }
        }
        sink.tick();
        if let Some(r) = running.as_mut().filter(|r| r.exited_at.is_none()) {
            let pidfd_ready = fds.iter().any(|p| Some(p.fd) == pidfd && p.revents != 0);
            if pidfd_ready || r.pidfd.is_none() {
                r.reap(&mut ending);
            }
            if r.exited_at.is_none() && r.kill_at.is_some_and(|at| Instant::now() >= at) {
                let _ = r.child.kill();
                r.kill_at = Some(Instant::now() + KILL_AFTER);
            }
        }
    }
    Ok(ending)
}

/// Milliseconds to wait in the drain after the command exited at `exited_at` (at most 100), or
/// `None` once the grace period is over. The clock is read once: reading it twice made the
/// subtraction underflow (a panic) when the period ran out between the two reads.
fn grace_left_ms(exited_at: Instant) -> Option<i32> {
    let left = GRACE
        .checked_sub(exited_at.elapsed())
        .filter(|d| !d.is_zero())?;
    Some(left.as_millis().clamp(1, 100) as i32)
}

pub(super) fn read_fd(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is valid for writes of `buf.len()` bytes.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

fn send_signal(child: &Child, sig: i32) {
    // SAFETY: kill has no memory-safety preconditions; the pid is our unreaped child.
    unsafe { libc::kill(child.id() as libc::pid_t, sig) };
}

/// A write past the file-size limit (`ulimit -f`) should fail with EFBIG, so ctxoff can still
/// print what it could not save, not kill ctxoff.
fn ignore_file_size_signal() {
    // SAFETY: setting a signal disposition to SIG_IGN is always sound.
    unsafe { libc::signal(libc::SIGXFSZ, libc::SIG_IGN) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_drain_timeout_never_underflows() {
        let long_ago = Instant::now()
            .checked_sub(GRACE * 3)
            .unwrap_or_else(Instant::now);
        if long_ago.elapsed() >= GRACE {
            assert_eq!(grace_left_ms(long_ago), None);
        }
        assert_eq!(grace_left_ms(Instant::now()), Some(100));
        let almost = Instant::now().checked_sub(GRACE - Duration::from_millis(30));
        if let Some(almost) = almost {
            assert!(grace_left_ms(almost).is_some_and(|ms| (1..=30).contains(&ms)));
        }
    }
}
