//! A bound on how many processes one sandboxed command may have at once: a cgroup of its own
//! with the `pids` controller's `pids.max`.
//!
//! A limit must hold whoever runs toolreg. `RLIMIT_NPROC` does not bind root (the kernel
//! exempts the init user's processes, in every user namespace), and for anyone else it counts
//! all of the user's processes; a `pids` cgroup counts exactly the command's processes,
//! whatever their user. The sandbox probes once for a `pids` hierarchy it may create groups
//! in — cgroup v1's `pids` mount, or v2 where this process's group lets children use the
//! controller (a delegated group) — and then gives every command a group of its own, with
//! the sandbox's processes (bwrap and its init) counted in, removed when the command ends.
//! Where none can be made (a user without a delegated cgroup), commands are not bounded in
//! processes; [`Sandbox::process_limit`](super::Sandbox::process_limit) says which applies.

use std::fs::File;
use std::os::fd::{AsRawFd as _, RawFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Processes of the sandbox itself counted against a command's bound: bwrap, the namespace's
/// init, and the shell.
pub(super) const OWN_PROCESSES: u32 = 3;

/// A directory of a `pids` cgroup hierarchy in which groups can be created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct PidsCgroup {
    parent: PathBuf,
}

/// The group of one command: moves the command's first process in at exec, removed on drop.
#[derive(Debug)]
pub(crate) struct CommandGroup {
    dir: PathBuf,
    procs: File,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

impl PidsCgroup {
    /// This process's `pids` group, when groups with `pids.max` can be made below it.
    pub(super) fn probe() -> Option<PidsCgroup> {
        let cgroups = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
        candidates(&cgroups, &mounts)
            .into_iter()
            .map(|parent| PidsCgroup { parent })
            .find(|cgroup| {
                cgroup
                    .group(1)
                    .is_ok_and(|group| group.dir.join("pids.max").exists())
            })
    }

    /// A new group allowing `max` processes.
    pub(super) fn group(&self, max: u32) -> std::io::Result<CommandGroup> {
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = self
            .parent
            .join(format!("toolreg-{}-{id}", std::process::id()));
        std::fs::create_dir(&dir)?;
        let made = (|| {
            std::fs::write(dir.join("pids.max"), max.to_string())?;
            std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("cgroup.procs"))
        })();
        match made {
            Ok(procs) => Ok(CommandGroup { dir, procs }),
            Err(error) => {
                let _ = std::fs::remove_dir(&dir);
                Err(error)
            }
        }
    }
}

impl CommandGroup {
    /// The descriptor of the group's `cgroup.procs`, for [`join`] in the child.
    pub(crate) fn procs_fd(&self) -> RawFd {
        self.procs.as_raw_fd()
    }
}

/// Moves the calling process into the group whose `cgroup.procs` is open as `fd` (writing
/// `0` names the writer). To run in a `pre_exec` closure: one write, no allocation.
pub(crate) fn join(fd: RawFd) -> std::io::Result<()> {
    // SAFETY: write(2) from a static buffer to a descriptor this process holds.
    let written = unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) };
    if written == 1 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

impl Drop for CommandGroup {
    fn drop(&mut self) {
        // The command's processes are gone (the namespace died with its first process), but
        // the kernel may take a moment to release them from the group: try a few times.
        for attempt in 0..50u64 {
            match std::fs::remove_dir(&self.dir) {
                Ok(()) => return,
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => return,
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(attempt.min(20))),
            }
        }
    }
}

/// The directories, in order of preference, of this process's `pids` groups: cgroup v1's
/// `pids` hierarchy, then v2's, each from `/proc/self/cgroup` and `/proc/self/mountinfo`.
fn candidates(cgroups: &str, mountinfo: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for want_v2 in [false, true] {
        for line in cgroups.lines() {
            let mut fields = line.splitn(3, ':');
            let (Some(_), Some(controllers), Some(path)) =
                (fields.next(), fields.next(), fields.next())
            else {
                continue;
            };
            let v2 = controllers.is_empty();
            if v2 != want_v2 || (!v2 && !controllers.split(',').any(|c| c == "pids")) {
                continue;
            }
            for mount in mountinfo.lines().filter_map(Mount::parse) {
                let fits = if v2 {
                    mount.fstype == "cgroup2"
                } else {
                    mount.fstype == "cgroup" && mount.options.split(',').any(|o| o == "pids")
                };
                if !fits {
                    continue;
                }
                if let Ok(below) = Path::new(path).strip_prefix(mount.root) {
                    out.push(Path::new(mount.point).join(below));
                }
            }
        }
    }
    out
}

/// The fields of a `/proc/self/mountinfo` line a cgroup needs.
struct Mount<'a> {
    root: &'a str,
    point: &'a str,
    fstype: &'a str,
    options: &'a str,
}

impl<'a> Mount<'a> {
    fn parse(line: &'a str) -> Option<Mount<'a>> {
        let (before, after) = line.split_once(" - ")?;
        let mut before = before.split(' ');
        let root = before.nth(3)?;
        let point = before.next()?;
        let mut after = after.split(' ');
        let fstype = after.next()?;
        let options = after.nth(1)?;
        Some(Mount {
            root,
            point,
            fstype,
            options,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTS: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw";

    #[test]
    fn v1_pids_hierarchy_comes_before_v2() {
        let cgroups = "8:pids:/user/42\n4:memory:/x\n0::/user.slice/app\n";
        assert_eq!(
            candidates(cgroups, MOUNTS),
            [
                PathBuf::from("/sys/fs/cgroup/pids/user/42"),
                PathBuf::from("/sys/fs/cgroup/unified/user.slice/app"),
            ]
        );
    }

    #[test]
    fn a_v2_only_host_gives_its_unified_group() {
        let mounts = "30 23 0:27 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate";
        assert_eq!(
            candidates("0::/user.slice/u.service\n", mounts),
            [PathBuf::from("/sys/fs/cgroup/user.slice/u.service")]
        );
    }
}
