//! SIGINT, SIGTERM and SIGHUP during a capture: delivered through a self-pipe to the capture loop,
//! which forwards them to the child.

use std::io;
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicI32, Ordering};

use super::capture::read_fd;

const FORWARDED: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);

/// SIGINT, SIGTERM and SIGHUP delivered through a self-pipe, so the capture loop sees them
/// between reads; the previous handlers come back when this is dropped.
pub(super) struct Signals {
    pub(super) read_fd: RawFd,
    write_fd: RawFd,
    previous: Vec<(i32, libc::sigaction)>,
}

extern "C" fn on_signal(sig: libc::c_int, info: *mut libc::siginfo_t, _: *mut libc::c_void) {
    // The interrupted code may be about to read errno: a failing write here must not change it.
    // SAFETY: __errno_location returns this thread's errno, valid for the thread's life.
    let errno = unsafe { *libc::__errno_location() };
    forward(sig, info);
    // SAFETY: as above.
    unsafe { *libc::__errno_location() = errno };
}

fn forward(sig: libc::c_int, info: *mut libc::siginfo_t) {
    // SAFETY: the kernel passes a valid siginfo_t with SA_SIGINFO.
    let code = unsafe { info.as_ref() }.map_or(0, |i| i.si_code);
    let from_terminal = code == libc::SI_KERNEL;
    let byte = (sig as u8 & 0x7f) | if from_terminal { 0x80 } else { 0 };
    let fd = SIGNAL_PIPE.load(Ordering::Relaxed);
    // SAFETY: write(2) is async-signal-safe; the pipe is non-blocking, a full pipe drops it.
    unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
}

impl Signals {
    pub(super) fn install() -> io::Result<Signals> {
        let mut fds = [0; 2];
        // SAFETY: `fds` has room for the two descriptors pipe2 writes.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
            return Err(io::Error::last_os_error());
        }
        SIGNAL_PIPE.store(fds[1], Ordering::Relaxed);
        let mut previous = Vec::new();
        for sig in FORWARDED {
            // SAFETY: a zeroed sigaction is a valid starting point; the handler is
            // async-signal-safe; `old` receives the previous action.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO;
                libc::sigemptyset(&mut action.sa_mask);
                let mut old: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(sig, &action, &mut old) == 0 {
                    previous.push((sig, old));
                }
            }
        }
        Ok(Signals {
            read_fd: fds[0],
            write_fd: fds[1],
            previous,
        })
    }

    /// The signals received since the last call, each with whether it came from the terminal.
    pub(super) fn drain(&self) -> Vec<(i32, bool)> {
        let mut buf = [0u8; 64];
        let n = read_fd(self.read_fd, &mut buf).unwrap_or(0);
        buf[..n]
            .iter()
            .map(|&b| (i32::from(b & 0x7f), b & 0x80 != 0))
            .collect()
    }
}

impl Drop for Signals {
    fn drop(&mut self) {
        for (sig, old) in &self.previous {
            // SAFETY: restoring the action sigaction gave us.
            unsafe { libc::sigaction(*sig, old, std::ptr::null_mut()) };
        }
        SIGNAL_PIPE.store(-1, Ordering::Relaxed);
        // SAFETY: closing descriptors this struct owns.
        unsafe {
            libc::close(self.read_fd);
            libc::close(self.write_fd);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handler_keeps_errno() {
        let signals = Signals::install().unwrap();
        // The handler's write then fails (EBADF), which would set errno.
        SIGNAL_PIPE.store(-1, Ordering::Relaxed);
        // SAFETY: errno of this thread; raise runs the handler on this thread before returning.
        unsafe {
            *libc::__errno_location() = libc::ENOSPC;
            assert_eq!(libc::raise(libc::SIGHUP), 0);
            assert_eq!(*libc::__errno_location(), libc::ENOSPC);
        }
        drop(signals);
    }
}
