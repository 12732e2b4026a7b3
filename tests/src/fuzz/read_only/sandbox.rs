//! Runs command lines under real bash and strace inside bubblewrap, in the read-only tree.
//!
//! A [`Sandbox`] owns a scratch directory (on `/dev/shm` when it exists; removed on drop)
//! holding the tree ([`super::tree`]) and the batch driver. [`Sandbox::run`] starts one `bwrap`
//! for a batch: inside, `strace -f` runs the driver, which runs each line as `bash -c LINE` in
//! the tree, with exactly the environment the Bash tool gives read-only commands
//! ([`read_only_env`]) plus `HOME` (an empty directory of the tree) and `LANG`. The tree is
//! bound read-only, `/tmp` is an empty tmpfs, there is no network, and the lines see only the
//! sandbox's processes.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tempfile::TempDir;
use toolreg::permissions::shell::read_only_env;

use super::super::shell::SandboxError;
use super::trace::{self, TRACED, Trace};
use super::tree;

/// The batch driver.
const DRIVER: &str = include_str!("driver.sh");
/// Seconds one command line and the processes it left may run, together.
pub const TIMEOUT_SECS: u32 = 1;

fn error(what: impl std::fmt::Display) -> SandboxError {
    SandboxError(what.to_string())
}

/// A scratch directory with the tree, and the `bwrap` and `strace` that run batches in it.
#[derive(Debug)]
pub struct Sandbox {
    dir: TempDir,
    bwrap: PathBuf,
    strace: PathBuf,
    /// Lines run with `PATH`, `HOME` and `LANG` only, not the rest of [`read_only_env`]: to
    /// show what the environment keeps from running.
    bare: bool,
    /// A git bound over the first one on `PATH`, to run lines with another installed git.
    git: Option<PathBuf>,
}

fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .chain(["/usr/bin".into(), "/bin".into()])
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// The git the sandbox's `PATH` finds first.
pub fn first_git() -> Option<PathBuf> {
    toolreg::permissions::shell::SYSTEM_PATH
        .split(':')
        .map(|dir| Path::new(dir).join("git"))
        .find(|git| git.is_file())
}

/// Every git installed in a directory of the sandbox's `PATH`, one a version (by the file's
/// canonical path).
pub fn installed_gits() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    for dir in toolreg::permissions::shell::SYSTEM_PATH.split(':') {
        if let Ok(git) = std::fs::canonicalize(Path::new(dir).join("git"))
            && !out.contains(&git)
        {
            out.push(git);
        }
    }
    out
}

impl Sandbox {
    /// Finds `bwrap` and `strace`, builds the tree, and checks that a batch runs and is
    /// traced (`cat f` runs `cat`, which opens `f`; `: > x` writes).
    pub fn new() -> Result<Sandbox, SandboxError> {
        let bwrap = find_program("bwrap").ok_or_else(|| error("bwrap is not on PATH"))?;
        let strace = find_program("strace").ok_or_else(|| error("strace is not installed"))?;
        let shm = Path::new("/dev/shm");
        let mut builder = tempfile::Builder::new();
        builder.prefix("toolreg-rodiff-");
        let dir = if shm.is_dir() {
            builder.tempdir_in(shm)
        } else {
            builder.tempdir()
        }
        .map_err(|e| error(format_args!("no scratch directory: {e}")))?;
        let root = dir.path();
        let setup = || -> std::io::Result<()> {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(root, std::fs::Permissions::from_mode(0o755))?;
            tree::build(&root.join("tree"))?;
            std::fs::write(root.join("driver.sh"), DRIVER)?;
            Ok(())
        };
        setup().map_err(|e| error(format_args!("{}: {e}", root.display())))?;
        let status = Command::new("mkfifo")
            .arg(root.join("sleep"))
            .status()
            .map_err(|e| error(format_args!("mkfifo: {e}")))?;
        if !status.success() {
            return Err(error(format_args!("mkfifo failed: {status}")));
        }
        let mut sandbox = Sandbox {
            dir,
            bwrap,
            strace,
            bare: false,
            git: None,
        };
        let probe = sandbox.run(&["cat f".to_owned(), ": > x".to_owned()])?;
        let ran_cat = probe.first().is_some_and(|t| {
            t.events.iter().any(
                |e| matches!(e, trace::Event::Exec { path, ok: true } if path.ends_with("/cat")),
            ) && t.events.contains(&trace::Event::Read { path: "f".into() })
        });
        let wrote = probe.get(1).is_some_and(|t| {
            t.events
                .iter()
                .any(|e| matches!(e, trace::Event::Write { .. }))
        });
        if !ran_cat || !wrote {
            return Err(error(format_args!(
                "the sandbox ran, but the trace does not show `cat f` running cat and opening \
                 f, and `: > x` writing: {probe:?}"
            )));
        }
        Ok(sandbox)
    }

    /// From now on, runs lines with `PATH`, `HOME` and `LANG` only (`true`), or with the whole
    /// environment of read-only commands (`false`, the default).
    pub fn set_bare_environment(&mut self, bare: bool) {
        self.bare = bare;
    }

    /// From now on, runs lines with `git` as the git `PATH` finds first (`None`: the one
    /// installed there).
    pub fn set_git(&mut self, git: Option<PathBuf>) {
        self.git = git;
    }

    /// Keeps the scratch directory (with the last batch's `trace`) after the sandbox goes,
    /// and says where it is: for a look at a trace by hand.
    pub fn keep(self) -> PathBuf {
        self.dir.keep()
    }

    /// The tree's path (inside the sandbox too).
    pub fn tree(&self) -> PathBuf {
        self.dir.path().join("tree")
    }

    /// Runs each of `lines` as `bash -c LINE`, in order, in one sandbox; one trace a line.
    ///
    /// A line holding a NUL byte (which no argument can hold) is an error naming its index.
    pub fn run(&mut self, lines: &[String]) -> Result<Vec<Trace>, SandboxError> {
        if let Some(i) = lines.iter().position(|l| l.contains('\0')) {
            return Err(error(format_args!("line {i} holds a NUL byte")));
        }
        let root = self.dir.path().to_owned();
        let prepare = || -> std::io::Result<()> {
            let mut file = std::fs::File::create(root.join("lines"))?;
            for line in lines {
                file.write_all(line.as_bytes())?;
                file.write_all(b"\0")?;
            }
            let _ = std::fs::remove_file(root.join("trace"));
            Ok(())
        };
        prepare().map_err(|e| error(format_args!("{}: {e}", root.display())))?;
        let output = self
            .command(&root)
            .output()
            .map_err(|e| error(format_args!("{}: {e}", self.bwrap.display())))?;
        if !output.status.success() {
            return Err(error(format_args!(
                "bwrap failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr).trim()
            )));
        }
        let text = std::fs::read(root.join("trace"))
            .map_err(|e| error(format_args!("{}/trace: {e}", root.display())))?;
        trace::split(&String::from_utf8_lossy(&text), lines.len()).map_err(error)
    }

    /// The `bwrap` command that runs the driver under strace over the scratch directory.
    fn command(&self, root: &Path) -> Command {
        let tree = root.join("tree");
        let mut cmd = Command::new(&self.bwrap);
        cmd.args(["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"])
            .args(["--tmpfs", "/tmp"])
            .arg("--bind")
            .args([root, root])
            .arg("--ro-bind")
            .args([&tree, &tree]);
        if let (Some(git), Some(first)) = (&self.git, first_git()) {
            cmd.arg("--ro-bind").arg(git).arg(first);
        }
        cmd.args(["--unshare-pid", "--unshare-user", "--unshare-net"])
            .args(["--new-session", "--die-with-parent", "--clearenv"]);
        for (key, value) in read_only_env() {
            if !self.bare || key == "PATH" {
                cmd.arg("--setenv").arg(key).arg(value);
            }
        }
        cmd.arg("--setenv")
            .arg("HOME")
            .arg(tree.join("home"))
            .args(["--setenv", "LANG", "C.UTF-8", "--chdir"])
            .arg(root)
            .arg("--")
            .arg(&self.strace)
            .args([
                "-f",
                "--seccomp-bpf",
                "-qq",
                "-s",
                "4096",
                "-e",
                "signal=none",
            ])
            .arg("-e")
            .arg(format!("trace={TRACED}"))
            .arg("-o")
            .arg(root.join("trace"))
            .args(["/bin/bash"])
            .arg(root.join("driver.sh"))
            .arg(root)
            .arg(TIMEOUT_SECS.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        cmd
    }
}
