//! The OS sandbox under Bash, and processes that die with their owner.
//!
//! # The mechanism: bubblewrap
//!
//! A sandboxed command runs under [bubblewrap](https://github.com/containers/bubblewrap)
//! (`bwrap`, the Debian package `bubblewrap`, which Flatpak and other agents' Linux sandboxes
//! use), not under Landlock, for two reasons:
//!
//! 1. **Landlock only grants.** A ruleset lists what may be touched; it cannot take one file
//!    away inside a tree it grants. Making `secrets/key.txt` unreadable inside a readable
//!    project, or `docs/` read-only inside a writable one, means granting every sibling
//!    instead — and then the command cannot create new files in the directories on the way,
//!    since a file that does not exist yet matches no rule. bwrap's mount namespace
//!    *subtracts*: it lays an empty mount over the path.
//! 2. **Lifetimes come from the kernel.** bwrap's PID namespace (`--unshare-pid` with
//!    `--die-with-parent`) ends every process in it when the command's first process exits
//!    or when its owner dies: background jobs, `setsid`'d and double-forked processes
//!    included, even when toolreg is killed with SIGKILL. No process group, subreaper or
//!    signal handler gives that.
//!
//! # What a sandboxed command sees ([`Sandbox::command`])
//!
//! - The whole filesystem, read-only (`--ro-bind / /`); a fresh `/dev` and a `/proc` of its
//!   own PID namespace (`/proc/self/root` is the sandbox's root, not the host's; no host
//!   process is visible or signalable).
//! - A private, empty, writable `/tmp`, fresh for every command and gone when it ends
//!   (`TMPDIR=/tmp`). Files the host put in its `/tmp` are not there unless inside a writable
//!   root.
//! - [`SandboxPolicy::writable`] bound read-write (after `/tmp`, so a working directory under
//!   `/tmp` is the real one), then [`read_only`](SandboxPolicy::read_only) bound read-only over
//!   them, then [`hidden`](SandboxPolicy::hidden) masked: a directory by an empty read-only
//!   tmpfs, any other file by an unopenable device node (`/dev/null` on a `nodev` mount:
//!   opening it fails with "Permission denied"). Later classes win: a writable root inside a
//!   read-only path is read-only, anything inside a hidden path is hidden.
//! - A user namespace of its own with every capability dropped (so no `mount`, `umount`,
//!   `chmod` of the masks, or `ptrace` of anything outside), nested user namespaces disabled
//!   where bwrap and the kernel can (`--disable-userns`, probed: see
//!   [`Sandbox::blocks_nested_user_namespaces`]); and even with them, the masks are locked
//!   mounts a nested namespace cannot remove.
//! - Its own session (`--new-session`: no `TIOCSTI` into the host's terminal), its own IPC
//!   namespace (no host SysV shared memory), and, when
//!   [`network`](SandboxPolicy::network) is off, its own network namespace with only a
//!   loopback interface (no host `127.0.0.1` service, no abstract unix socket of the host).
//! - When [`sockets`](SandboxPolicy::sockets) is off, no new socket at all: a seccomp filter
//!   makes `socket(2)` and `io_uring_setup(2)` fail with `EACCES`, so not even a unix socket
//!   on a path it can see (a session bus, a container daemon, an agent) can be connected to.
//! - Only the variables of this process's environment that
//!   [`environment`](SandboxPolicy::environment) lets through ([`EnvPolicy`]; by default every
//!   name holding `KEY`, `TOKEN`, `SECRET`, `PASSWORD` or `CREDENTIAL` is dropped).
//! - None of this process's open files but the standard streams: every descriptor above 2 is
//!   closed at exec (`close_range`), so `cat <&7` or `/proc/self/fd/7` find nothing.
//! - Where a `pids` cgroup can be made (probed once; root on a cgroup v1 host, or a delegated
//!   v2 group), at most [`Sandbox::process_limit`] processes at once, in a group of its own.
//!
//! [`SandboxPolicy::default`] is the least of all of these: nothing writable, no network, no
//! sockets, the environment without its secrets. It is what a command the permission check
//! ran unasked gets ([`Grant`](crate::permissions::Grant)).
//!
//! # What it cannot express (not guaranteed)
//!
//! - **Rules are expanded at call start.** The caller turns its rules into existing paths;
//!   a file created *after* the command starts, that a deny glob would cover, is not masked,
//!   and a hidden path missing at call start is left out (nothing to mask).
//! - **Paths, not files.** A hard link elsewhere to a hidden file is another path, readable
//!   unless hidden too (a new hard link to a mask fails: it is another mount). A command
//!   that may write the directory *above* a hidden path can rename that directory: the mask
//!   moves with it for this call, but the next call's rules, naming the old path, may not
//!   cover the new one. Hide a deny rule's base directory rather than the files in it, or
//!   make the parents read-only.
//! - **Programs are not chosen.** A command may run any program it can read: the sandbox
//!   bounds what it can touch, not what it runs. (The permission checker decides which
//!   programs run unasked.)
//! - **With sockets allowed, unix sockets on paths stay reachable**: connecting needs no write
//!   access, so a command that may create sockets can talk to a daemon whose socket it can
//!   see (`/run/...`), even with the network off.
//! - **Processes are bounded only with a cgroup.** `RLIMIT_NPROC` does not bind root and
//!   counts every process of other users, so without a `pids` cgroup a command may start as
//!   many processes as the host allows.
//! - The uid is the host's (mapped), so the file permissions of the host user apply to
//!   everything not masked.
//! - It needs Linux, user namespaces open to the user (or root), and `bwrap` on `PATH`.
//!   [`Sandboxing::detect`] probes for them once, and says why in
//!   [`Sandboxing::Unavailable`] when they are missing.
//!
//! # Processes that die with their owner ([`contained`])
//!
//! Every process a tool or an upstream MCP server starts goes through [`contained`] (or the
//! sandbox, which gives the same). With bwrap working: a PID namespace of its own, the whole
//! filesystem as it is, network on. Killing the first process, its exiting, or its owner's
//! death (also by SIGKILL) kills the whole namespace. Without bwrap (the fallback): a process
//! group of its own with `PR_SET_PDEATHSIG` set to SIGKILL; see [`contained`] for what
//! escapes that.
//!
//! In both, the owner's death is the death of the *thread* that spawned the process
//! (`PR_SET_PDEATHSIG`'s rule, which bwrap's `--die-with-parent` uses too): spawn from a
//! thread that lives as long as the work does (toolreg spawns from its async runtime's
//! threads, never from a short-lived blocking thread).

mod args;
mod contain;
mod descriptors;
mod environment;
mod probe;
#[cfg(target_os = "linux")]
mod processes;
#[cfg(target_os = "linux")]
mod seccomp;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

pub use contain::{contained, contained_with};
pub use environment::{EnvPolicy, SECRET_WORDS};

/// What one sandboxed command may touch. All paths absolute and canonical (links resolved);
/// the caller expands rules into existing paths. A relative path is taken relative to the
/// command's working directory.
///
/// The default is the least: nothing writable, no network, no new sockets, the environment
/// without its secrets ([`EnvPolicy::default`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxPolicy {
    /// Directories writes may go to (the working directories).
    pub writable: Vec<PathBuf>,
    /// Existing paths inside `writable` that stay read-only (write-deny rules).
    pub read_only: Vec<PathBuf>,
    /// Existing paths the command must not read (read-deny rules): masked.
    pub hidden: Vec<PathBuf>,
    /// Whether the command has the host's network; `false`: a network namespace of its own
    /// (loopback only).
    pub network: bool,
    /// Whether the command may create sockets; `false`: `socket(2)` and `io_uring_setup(2)`
    /// fail with `EACCES` (a seccomp filter), so not even a unix socket on a path — a session
    /// bus, a container daemon — can be reached.
    pub sockets: bool,
    /// Which variables of this process's environment the command sees.
    pub environment: EnvPolicy,
}

/// Whether commands run sandboxed.
#[derive(Debug, Clone, Default)]
pub enum Sandboxing {
    /// Commands run without a sandbox (still [`contained`]).
    #[default]
    Off,
    /// Commands run in this sandbox.
    On(Sandbox),
    /// The sandbox was wanted but does not work here; why, for a person.
    Unavailable(String),
}

impl Sandboxing {
    /// Finds `bwrap` on `PATH` and probes it once ([`detect_with`](Self::detect_with)).
    /// Reads the environment: call it at the edge (a program's start).
    pub fn detect() -> Sandboxing {
        if !cfg!(target_os = "linux") {
            return Sandboxing::Unavailable(
                "the sandbox (bubblewrap) works on Linux only".to_owned(),
            );
        }
        match probe::find_on_path(probe::BWRAP, std::env::var_os("PATH").as_deref()) {
            Some(bwrap) => Sandboxing::detect_with(&bwrap),
            None => Sandboxing::Unavailable(
                "bubblewrap (`bwrap`) is not on PATH; install the `bubblewrap` package".to_owned(),
            ),
        }
    }

    /// [`detect`](Self::detect), once per process: what a [`Dispatcher`](crate::Dispatcher)
    /// uses unless told otherwise.
    pub fn detected() -> &'static Sandboxing {
        static DETECTED: OnceLock<Sandboxing> = OnceLock::new();
        DETECTED.get_or_init(Sandboxing::detect)
    }

    /// Probes the `bwrap` at `bwrap`: runs `true` in a sandbox with nothing writable, no
    /// network and no sockets, first with nested user namespaces disabled, then without that.
    /// `On` when one works, else `Unavailable` with bwrap's own words. Also looks for a
    /// `pids` cgroup to bound each command's processes in ([`Sandbox::process_limit`]).
    pub fn detect_with(bwrap: &Path) -> Sandboxing {
        if !cfg!(target_os = "linux") {
            return Sandboxing::Unavailable(
                "the sandbox (bubblewrap) works on Linux only".to_owned(),
            );
        }
        let mut why = String::new();
        for disable_userns in [true, false] {
            let sandbox = Sandbox {
                bwrap: bwrap.to_owned(),
                disable_userns,
                network: true,
                #[cfg(target_os = "linux")]
                pids: None,
                max_processes: DEFAULT_MAX_PROCESSES,
            };
            let probe = sandbox.command(
                &SandboxPolicy::default(),
                OsStr::new("true"),
                &[],
                Path::new("/"),
            );
            let result = match probe {
                Ok(probe) => probe::run(probe.into_parts().0),
                Err(error) => Err(error.to_string()),
            };
            match result {
                Ok(()) => {
                    #[cfg(target_os = "linux")]
                    let sandbox = Sandbox {
                        pids: processes::PidsCgroup::probe(),
                        ..sandbox
                    };
                    return Sandboxing::On(sandbox);
                }
                Err(error) => why = error,
            }
        }
        Sandboxing::Unavailable(format!("{} does not work here: {why}", bwrap.display()))
    }

    /// The sandbox, when on.
    pub fn sandbox(&self) -> Option<&Sandbox> {
        match self {
            Sandboxing::On(sandbox) => Some(sandbox),
            Sandboxing::Off | Sandboxing::Unavailable(_) => None,
        }
    }
}

/// How many processes one command may have at once by default, where a `pids` cgroup can be
/// made ([`Sandbox::with_max_processes`]).
pub const DEFAULT_MAX_PROCESSES: u32 = 512;

/// The mechanism, probed and working: where `bwrap` is and what it can do here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    bwrap: PathBuf,
    disable_userns: bool,
    network: bool,
    #[cfg(target_os = "linux")]
    pids: Option<processes::PidsCgroup>,
    max_processes: u32,
}

/// Why a sandboxed command could not be set up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// What was being set up ("the seccomp filter", "the command's cgroup").
    pub step: &'static str,
    /// What went wrong.
    pub message: String,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.step, self.message)
    }
}

impl std::error::Error for SetupError {}

/// A sandboxed command, ready to spawn, and what must outlive its processes.
#[derive(Debug)]
pub struct SandboxCommand {
    command: Command,
    guard: CommandGuard,
}

/// What a sandboxed command holds while its processes run (its cgroup); drop it after the
/// command has ended, from a thread that may block for a moment (removing the group waits for
/// the kernel to release the processes).
#[derive(Debug, Default)]
pub struct CommandGuard {
    #[cfg(target_os = "linux")]
    group: Option<processes::CommandGroup>,
}

impl SandboxCommand {
    /// The command, to set its standard streams.
    pub fn command_mut(&mut self) -> &mut Command {
        &mut self.command
    }

    /// The command to spawn and the guard to drop once it has ended.
    pub fn into_parts(self) -> (Command, CommandGuard) {
        (self.command, self.guard)
    }

    /// Runs the command to its end, capturing its output (as [`Command::output`]).
    ///
    /// # Errors
    /// The command could not be started or waited for.
    pub fn output(self) -> std::io::Result<std::process::Output> {
        let (mut command, guard) = self.into_parts();
        let output = command.output();
        drop(guard);
        output
    }
}

impl Sandbox {
    /// `program args…` under `policy`, started in `cwd` (absolute), in a process group of its
    /// own, with every descriptor above 2 closed, the environment `policy` allows, and — where
    /// a `pids` cgroup can be made — at most [`process_limit`](Self::process_limit) processes.
    /// A std `Command` inside, so callers wrap it in tokio's and set its standard streams.
    ///
    /// Builds arguments, the seccomp filter and the cgroup; the one file-system look-up is
    /// whether each hidden path is a directory (a directory and a file are masked differently).
    ///
    /// # Errors
    /// The seccomp filter or the command's cgroup could not be made: run nothing then.
    pub fn command(
        &self,
        policy: &SandboxPolicy,
        program: &OsStr,
        args: &[OsString],
        cwd: &Path,
    ) -> Result<SandboxCommand, SetupError> {
        #[cfg(target_os = "linux")]
        let seccomp = if policy.sockets {
            None
        } else {
            Some(seccomp_pipe()?)
        };
        #[cfg(target_os = "linux")]
        let seccomp_fd = seccomp.as_ref().map(std::os::fd::AsRawFd::as_raw_fd);
        #[cfg(not(target_os = "linux"))]
        let seccomp_fd = None;
        let options = args::Options {
            disable_userns: self.disable_userns,
            network: policy.network && self.network,
            seccomp_fd,
        };
        let mut command = Command::new(&self.bwrap);
        command
            .args(args::bwrap_args(policy, cwd, options, args::is_dir))
            .arg("--")
            .arg(program)
            .args(args)
            .current_dir(cwd);
        policy.environment.apply_to(&mut command);
        #[allow(unused_mut)]
        let mut guard = CommandGuard::default();
        #[cfg(target_os = "linux")]
        {
            let group = match &self.pids {
                Some(pids) => Some(
                    pids.group(self.max_processes.saturating_add(processes::OWN_PROCESSES))
                        .map_err(|error| SetupError {
                            step: "the command's cgroup",
                            message: error.to_string(),
                        })?,
                ),
                None => None,
            };
            let procs = group.as_ref().map(processes::CommandGroup::procs_fd);
            guard.group = group;
            use std::os::unix::process::CommandExt as _;
            // SAFETY: the closure runs in the forked child before exec and makes only
            // async-signal-safe system calls (write, close_range, fcntl, getrlimit); it
            // allocates nothing. The pipe it holds stays open until the command is dropped.
            unsafe {
                command.pre_exec(move || {
                    let _hold = &seccomp;
                    if let Some(fd) = procs {
                        processes::join(fd)?;
                    }
                    descriptors::close_inherited(seccomp_fd)
                });
            }
        }
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        Ok(SandboxCommand { command, guard })
    }

    /// This sandbox with the network allowed or not: with `false`, every command runs
    /// without the host's network whatever its policy says; with `true` (the default), the
    /// policy decides.
    pub fn with_network(mut self, allowed: bool) -> Sandbox {
        self.network = allowed;
        self
    }

    /// This sandbox with at most `max` processes a command (its own and the ones it starts,
    /// at once), where a `pids` cgroup can be made ([`process_limit`](Self::process_limit)).
    pub fn with_max_processes(mut self, max: u32) -> Sandbox {
        self.max_processes = max.max(1);
        self
    }

    /// How many processes a command may have at once, when the bound holds here (a `pids`
    /// cgroup could be made); `None`: commands are not bounded in processes.
    pub fn process_limit(&self) -> Option<u32> {
        #[cfg(target_os = "linux")]
        if self.pids.is_some() {
            return Some(self.max_processes);
        }
        None
    }

    /// Whether a command may have the host's network when its policy asks for it.
    pub fn network_allowed(&self) -> bool {
        self.network
    }

    /// Whether commands are kept from creating user namespaces of their own
    /// (`--disable-userns`: bwrap 0.8 or later, and a kernel that limits them per namespace).
    pub fn blocks_nested_user_namespaces(&self) -> bool {
        self.disable_userns
    }

    /// The `bwrap` program used.
    pub fn bwrap(&self) -> &Path {
        &self.bwrap
    }
}

/// A pipe holding the no-sockets seccomp filter, for bwrap to read: its read end (the write
/// end is closed, so bwrap reads to the end).
#[cfg(target_os = "linux")]
fn seccomp_pipe() -> Result<std::os::fd::OwnedFd, SetupError> {
    use std::io::Write as _;
    let fail = |message: String| SetupError {
        step: "the seccomp filter",
        message,
    };
    let program = seccomp::no_sockets().map_err(fail)?;
    let (reader, mut writer) = std::io::pipe().map_err(|error| fail(error.to_string()))?;
    // A filter is at most 4,096 instructions of 8 bytes: it fits in a pipe's buffer.
    writer
        .write_all(&program)
        .map_err(|error| fail(error.to_string()))?;
    drop(writer);
    Ok(reader.into())
}
