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

/// Runs `argv`, feeding its stdout and stderr to `sink` as they arrive. With `one_pipe`, the
/// command gets one pipe for both, and everything arrives as `Stdout`, in the exact order
/// written (see [`one_destination`]).
pub(crate) fn run_command(
    argv: &[OsString],
    one_pipe: bool,
    sink: &mut dyn Sink,
) -> Result<Ending> {
    // Before the spawn: a signal between spawning and installing would kill ctxoff and orphan
    // the command. One arriving before the command exists is forwarded once it does.
    let signals = Signals::install()?;
    let (mut child, merged) = spawn(argv, one_pipe)?;
    ignore_file_size_signal();
    // The pipes close when these are dropped, after the loop.
    let (stdout, stderr) = (child.stdout.take(), child.stderr.take());
    let mut sources = match &merged {
        Some(reader) => [
            (Some(reader.as_raw_fd()), Stream::Stdout),
            (None, Stream::Stderr),
        ],
        None => [
            (stdout.as_ref().map(|s| s.as_raw_fd()), Stream::Stdout),
            (stderr.as_ref().map(|s| s.as_raw_fd()), Stream::Stderr),
        ],
    };
    pump(&mut sources, Some(&mut child), &signals, sink)
}

/// Whether ctxoff's own stdout and stderr lead to one place, so that giving the command one pipe
/// for both changes nothing but the order, which becomes exact: two pipes cannot tell which of
/// two writes to them came first.
///
/// True for the same pipe, socket or character device (a terminal, /dev/null): writes to it are
/// ordered whichever descriptor they come through. For a regular file, only when both are the
/// same open file description (`cmd >f 2>&1`), which shares one offset; `>f 2>f` opens it twice,
/// and each stream overwrites the other from offset 0, which merging would not reproduce. Where
/// the kernel will not say (no `kcmp`), only when both append.
pub(crate) fn one_destination() -> bool {
    let stat = |fd| {
        // SAFETY: fstat writes a stat struct for a descriptor; a closed one is an error.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        (unsafe { libc::fstat(fd, &mut st) } == 0).then_some(st)
    };
    let (Some(out), Some(err)) = (stat(1), stat(2)) else {
        return false;
    };
    if (out.st_dev, out.st_ino) != (err.st_dev, err.st_ino) {
        return false;
    }
    match out.st_mode & libc::S_IFMT {
        libc::S_IFIFO | libc::S_IFSOCK | libc::S_IFCHR => true,
        libc::S_IFREG => {
            let pid = std::process::id();
            // SAFETY: kcmp compares two descriptors of our own process; no memory is passed.
            let same = unsafe {
                libc::syscall(libc::SYS_kcmp, pid, pid, 0 /* KCMP_FILE */, 1, 2)
            };
            match same {
                0 => true,
                -1 => {
                    // SAFETY: F_GETFL on descriptors we checked are open.
                    let append =
                        |fd| unsafe { libc::fcntl(fd, libc::F_GETFL) } & libc::O_APPEND != 0;
                    append(1) && append(2)
                }
                _ => false,
            }
        }
        _ => false,
    }
}

/// Reads standard input (pipe mode) into `sink` until end of file or a terminating signal.
pub(crate) fn read_stdin(sink: &mut dyn Sink) -> Result<Ending> {
    let signals = Signals::install()?;
    ignore_file_size_signal();
    let mut sources = [(Some(0), Stream::Stdout), (None, Stream::Stderr)];
    pump(&mut sources, None, &signals, sink)
}

/// Spawns the command with its output to two pipes, or to one (returned) with `one_pipe`.
fn spawn(argv: &[OsString], one_pipe: bool) -> Result<(Child, Option<io::PipeReader>)> {
    let (program, args) = argv
        .split_first()
        .ok_or_else(|| Failure::new(2, "no command given"))?;
    let shown = program.to_string_lossy();
    let mut command = Command::new(program);
    command.args(args);
    let merged = if one_pipe {
        let (reader, writer) = io::pipe()?;
        command.stdout(writer.try_clone()?).stderr(writer);
        Some(reader)
    } else {
        command.stdout(Stdio::piped()).stderr(Stdio::piped());
        None
    };
    // The command's ends of the pipe close with `command`, once it is spawned.
    let child = command.spawn();
    drop(command);
    child.map(|child| (child, merged)).map_err(|e| {
        let failure = match e.kind() {
            ErrorKind::NotFound => Failure::new(127, format!("{shown}: command not found")),
            ErrorKind::PermissionDenied => Failure::new(126, format!("{shown}: permission denied")),
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
        match self.child.try_wait() {
            Ok(Some(status)) => {
                ending.code = status.code();
                ending.signal = status.signal();
                self.exited_at = Some(Instant::now());
            }
            Ok(None) => {}
            // Not our child any more (should not happen): stop waiting for it.
            Err(_) => self.exited_at = Some(Instant::now()),
        }
    }

    /// Sends `sig` to the command: through its pidfd, which can never reach another process, or
    /// else by pid while it is surely not reaped (until we reap it, its pid is not reused).
    fn signal(&mut self, sig: i32) {
        if let Some(fd) = self.pidfd {
            // SAFETY: pidfd_send_signal on a pidfd we own, without siginfo.
            unsafe {
                libc::syscall(
                    libc::SYS_pidfd_send_signal,
                    fd,
                    sig,
                    std::ptr::null::<libc::siginfo_t>(),
                    0,
                )
            };
        } else if matches!(self.child.try_wait(), Ok(None)) {
            // SAFETY: kill has no memory-safety preconditions; the pid is our unreaped child.
            unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
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
                            r.signal(sig);
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
                r.signal(libc::SIGKILL);
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
