//! What a child process inherits of this process's open files: its standard streams, and
//! nothing else unless named.
//!
//! A descriptor this process (or whatever started it) opened without `O_CLOEXEC` would pass
//! into every program it starts: a command could read it through `cat <&7` or
//! `/proc/self/fd/7`. [`close_inherited`] runs in the child between fork and exec and marks
//! every descriptor above 2 close-on-exec (`close_range(2)` with `CLOSE_RANGE_CLOEXEC`, else
//! one `fcntl` a descriptor up to the soft `RLIMIT_NOFILE`), so they close at exec — inside
//! the sandbox and outside it. Marking rather than closing keeps the standard library's own
//! pipe, which reports a failed exec, working.

use std::io;
use std::os::fd::RawFd;

/// `close_range`'s flag that marks descriptors close-on-exec instead of closing them.
#[cfg(target_os = "linux")]
const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;

/// Marks every descriptor above 2 close-on-exec, but `keep`, whose close-on-exec flag is
/// cleared so that it reaches the program. To run in a `pre_exec` closure: only
/// async-signal-safe system calls, no allocation.
pub(crate) fn close_inherited(keep: Option<RawFd>) -> io::Result<()> {
    match keep {
        Some(fd) if fd > 2 => {
            mark(3, fd - 1)?;
            if let Some(next) = fd.checked_add(1) {
                mark(next, RawFd::MAX)?;
            }
            // SAFETY: fcntl on a descriptor number touches no memory; an invalid one fails.
            if unsafe { libc::fcntl(fd, libc::F_SETFD, 0) } != 0 {
                return Err(io::Error::last_os_error());
            }
            Ok(())
        }
        _ => mark(3, RawFd::MAX),
    }
}

/// Marks descriptors `first..=last` close-on-exec.
fn mark(first: RawFd, last: RawFd) -> io::Result<()> {
    if first > last {
        return Ok(());
    }
    #[cfg(target_os = "linux")]
    {
        // SAFETY: close_range only changes the flags of this process's descriptors.
        let done = unsafe {
            libc::syscall(
                libc::SYS_close_range,
                first as libc::c_uint,
                last as libc::c_uint,
                CLOSE_RANGE_CLOEXEC,
            )
        };
        if done == 0 {
            return Ok(());
        }
    }
    // Before Linux 5.11, and elsewhere: one descriptor at a time, up to the most this process
    // may hold.
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let end = RawFd::try_from(limit.rlim_cur.min(1 << 20)).unwrap_or(1 << 20);
    for fd in first..=last.min(end) {
        // SAFETY: as above; descriptors that are not open fail with EBADF, ignored.
        unsafe {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    Ok(())
}
