//! Processes that die with their owner: a PID namespace of their own under bwrap, else a
//! process group with the parent-death signal.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::probe;

/// A process that dies with its owner, holding none of this process's open files but its
/// standard streams: `program args…` in a PID namespace of its own when
/// bwrap works here (lifetime only: the whole filesystem as it is, devices, network on), else
/// the fallback of [`contained_with`]. Probes bwrap once per process, on first use.
///
/// With bwrap, when the first process exits, is killed, or its owner dies (also by SIGKILL),
/// the kernel kills every process of the namespace: background jobs, `setsid`'d and
/// double-forked ones included. A signal other than SIGKILL sent to the command (rmcp's
/// SIGTERM) ends bwrap, which kills the rest with SIGKILL: the program gets no chance to clean
/// up on a signal, only on its input closing.
pub fn contained(program: &OsStr, args: &[OsString]) -> Command {
    contained_with(lifetime_bwrap(), program, args)
}

/// [`contained`] with the bwrap to use given: `None` for the fallback.
///
/// The fallback: a process group of its own, and (on Linux) `PR_SET_PDEATHSIG` = SIGKILL, so
/// the first process dies when its owner does. What escapes it: the first process's children
/// do not inherit the parent-death signal, so when the owner dies (a SIGKILL the owner cannot
/// handle), they live on; and a process that leaves the group (`setsid`, `setpgid`) escapes
/// an owner that kills the group when the call ends.
pub fn contained_with(bwrap: Option<&Path>, program: &OsStr, args: &[OsString]) -> Command {
    // A program named by an absolute path that does not exist is spawned as it is, so the
    // caller gets the spawn's own error ("No such file or directory") rather than bwrap's
    // message on the command's stderr after it started.
    let bwrap = bwrap.filter(|_| {
        let path = Path::new(program);
        !path.is_absolute() || path.exists()
    });
    let mut command = match bwrap {
        Some(bwrap) => {
            let mut command = Command::new(bwrap);
            command
                .args(LIFETIME_ARGS)
                .arg("--")
                .arg(program)
                .args(args);
            command
        }
        None => {
            let mut command = Command::new(program);
            command.args(args);
            die_with_parent(&mut command);
            command
        }
    };
    close_inherited(&mut command);
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    command
}

/// Marks every descriptor above 2 close-on-exec in the child, so nothing this process holds
/// passes to the program ([`descriptors`](super::descriptors)).
fn close_inherited(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        // SAFETY: the closure runs in the forked child before exec and makes only
        // async-signal-safe system calls (close_range, fcntl, getrlimit); it allocates nothing.
        unsafe {
            command.pre_exec(|| super::descriptors::close_inherited(None));
        }
    }
}

/// bwrap's arguments for a lifetime-only namespace: the filesystem as it is (devices
/// included), a `/proc` of the new PID namespace, killed with its owner. No user namespace is
/// asked for: bwrap makes one when it needs it (not root), and a root owner's programs keep
/// their powers.
const LIFETIME_ARGS: &[&str] = &[
    "--dev-bind",
    "/",
    "/",
    "--proc",
    "/proc",
    "--unshare-pid",
    "--die-with-parent",
];

/// The bwrap [`contained`] uses: found on `PATH` and probed once.
fn lifetime_bwrap() -> Option<&'static Path> {
    static PROBED: OnceLock<Option<PathBuf>> = OnceLock::new();
    PROBED
        .get_or_init(|| {
            if !cfg!(target_os = "linux") {
                return None;
            }
            let bwrap = probe::find_on_path(probe::BWRAP, std::env::var_os("PATH").as_deref())?;
            let probe = contained_with(Some(&bwrap), OsStr::new("true"), &[]);
            probe::run(probe).ok().map(|()| bwrap)
        })
        .as_deref()
}

/// Sets the parent-death signal to SIGKILL in the child before it runs `program`; a child
/// whose parent already died by then exits at once.
#[cfg(target_os = "linux")]
fn die_with_parent(command: &mut Command) {
    use std::os::unix::process::CommandExt as _;
    let parent = std::process::id();
    // SAFETY: the closure runs in the forked child before exec and makes only async-signal-safe
    // system calls (prctl, getppid); it allocates nothing (the errors are raw OS errors) and
    // touches no lock.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The parent died between fork and prctl: the signal will never come.
            if u32::try_from(libc::getppid()).ok() != Some(parent) {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_parent(_: &mut Command) {}
