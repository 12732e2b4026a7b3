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
//! - **Unix sockets on paths stay reachable**: connecting to a socket needs no write access to
//!   the filesystem, so a read-only root does not stop a command from talking to a daemon
//!   whose socket it can see (`/run/...`). Turning the network off removes TCP, UDP and
//!   abstract sockets, not those.
//! - **The environment is passed as it is**: variables of the host (tokens included) are
//!   visible to the command. The uid is the host's (mapped), so the file permissions of the
//!   host user apply to everything not masked.
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
mod probe;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

pub use contain::{contained, contained_with};

/// What one sandboxed command may touch. All paths absolute and canonical (links resolved);
/// the caller expands rules into existing paths. A relative path is taken relative to the
/// command's working directory.
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

    /// Probes the `bwrap` at `bwrap`: runs `true` in a sandbox with nothing writable and no
    /// network, first with nested user namespaces disabled, then without that. `On` when one
    /// works, else `Unavailable` with bwrap's own words.
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
            };
            let probe = sandbox.command(
                &SandboxPolicy::default(),
                OsStr::new("true"),
                &[],
                Path::new("/"),
            );
            match probe::run(probe) {
                Ok(()) => return Sandboxing::On(sandbox),
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

/// The mechanism, probed and working: where `bwrap` is and what it can do here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    bwrap: PathBuf,
    disable_userns: bool,
    network: bool,
}

impl Sandbox {
    /// `program args…` under `policy`, started in `cwd` (absolute), in a process group of its
    /// own. A std `Command`, so callers wrap it in tokio's and set its standard streams.
    ///
    /// Builds arguments only; the one file-system look-up is whether each hidden path is a
    /// directory (a directory and a file are masked differently).
    pub fn command(
        &self,
        policy: &SandboxPolicy,
        program: &OsStr,
        args: &[OsString],
        cwd: &Path,
    ) -> Command {
        let options = args::Options {
            disable_userns: self.disable_userns,
            network: policy.network && self.network,
        };
        let mut command = Command::new(&self.bwrap);
        command
            .args(args::bwrap_args(policy, cwd, options, args::is_dir))
            .arg("--")
            .arg(program)
            .args(args)
            .current_dir(cwd);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command
    }

    /// This sandbox with the network allowed or not: with `false`, every command runs
    /// without the host's network whatever its policy says; with `true` (the default), the
    /// policy decides.
    pub fn with_network(mut self, allowed: bool) -> Sandbox {
        self.network = allowed;
        self
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
