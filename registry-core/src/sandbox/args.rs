//! bwrap's arguments for a policy: a pure function of the policy, the working directory and
//! whether each hidden path is a directory.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::SandboxPolicy;

/// What the probe found bwrap and the kernel can do, and the network choice.
#[derive(Debug, Clone, Copy)]
pub(super) struct Options {
    /// Pass `--disable-userns`.
    pub disable_userns: bool,
    /// Keep the host's network.
    pub network: bool,
    /// The descriptor bwrap reads the seccomp filter from (`--seccomp`).
    pub seccomp_fd: Option<i32>,
}

/// Whether `path` is a directory (links followed). A path that cannot be looked up is `None`.
pub(super) fn is_dir(path: &Path) -> Option<bool> {
    std::fs::metadata(path).ok().map(|meta| meta.is_dir())
}

/// The arguments before `-- program args…`.
pub(super) fn bwrap_args(
    policy: &SandboxPolicy,
    cwd: &Path,
    options: Options,
    is_dir: impl Fn(&Path) -> Option<bool>,
) -> Vec<OsString> {
    let mut out = Args::default();
    out.flags(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
    out.flags(&["--tmpfs", "/tmp"]);
    let absolute = |paths: &[PathBuf]| -> Vec<PathBuf> {
        // `components` drops the `.` a relative path may start with.
        paths
            .iter()
            .map(|path| cwd.join(path).components().collect())
            .collect()
    };
    for path in outermost(absolute(&policy.writable)) {
        out.flags(&["--bind"]).path(&path).path(&path);
    }
    for path in outermost(absolute(&policy.read_only)) {
        out.flags(&["--ro-bind"]).path(&path).path(&path);
    }
    for path in outermost(absolute(&policy.hidden)) {
        match is_dir(&path) {
            // Missing at call start: nothing to mask (and bwrap would create it on the host).
            None => {}
            Some(true) => {
                out.flags(&["--tmpfs"]).path(&path);
                out.flags(&["--remount-ro"]).path(&path);
            }
            // A device node on a `nodev` mount: any open fails with "Permission denied".
            Some(false) => {
                out.flags(&["--ro-bind", "/dev/null"]).path(&path);
            }
        }
    }
    out.flags(&["--unshare-user"]);
    if options.disable_userns {
        out.flags(&["--disable-userns"]);
    }
    out.flags(&["--unshare-pid", "--unshare-ipc"]);
    if !options.network {
        out.flags(&["--unshare-net"]);
    }
    out.flags(&["--die-with-parent", "--new-session", "--cap-drop", "ALL"]);
    if let Some(fd) = options.seccomp_fd {
        out.flags(&["--seccomp", &fd.to_string()]);
    }
    out.flags(&["--setenv", "TMPDIR", "/tmp"]);
    // Without `--chdir`, bwrap falls back to $HOME when it cannot enter its directory; with
    // it, a directory it cannot enter is an error.
    if cwd.is_absolute() {
        out.flags(&["--chdir"]).path(cwd);
    }
    out.0
}

/// An argument list being built.
#[derive(Default)]
struct Args(Vec<OsString>);

impl Args {
    fn flags(&mut self, flags: &[&str]) -> &mut Self {
        self.0.extend(flags.iter().map(OsString::from));
        self
    }

    fn path(&mut self, path: &Path) -> &mut Self {
        self.0.push(path.as_os_str().to_owned());
        self
    }
}

/// The paths sorted, duplicates and paths inside another one left out: a mount over a
/// directory hides what was mounted inside it before, and a mask inside a read-only mask
/// would need a mount point that cannot be created.
fn outermost(mut paths: Vec<PathBuf>) -> Vec<PathBuf> {
    paths.sort();
    let mut kept: Vec<PathBuf> = Vec::with_capacity(paths.len());
    for path in paths {
        // Sorted, so a path's ancestors in the list come before it and the last kept one is
        // the only candidate (any other ancestor would also be an ancestor of it).
        if kept.last().is_some_and(|last| path.starts_with(last)) {
            continue;
        }
        kept.push(path);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(network: bool) -> Options {
        Options {
            disable_userns: true,
            network,
            seccomp_fd: None,
        }
    }

    fn text(args: &[OsString]) -> String {
        args.iter()
            .map(|arg| arg.to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn mounts_come_in_order_root_tmp_writable_read_only_hidden() {
        let policy = SandboxPolicy {
            writable: vec!["/w".into()],
            read_only: vec!["/w/ro".into()],
            hidden: vec!["/w/secrets".into(), "/w/key.txt".into()],
            ..SandboxPolicy::default()
        };
        let args = bwrap_args(&policy, Path::new("/w"), options(false), |path| {
            Some(path.ends_with("secrets"))
        });
        assert_eq!(
            text(&args),
            "--ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /w /w --ro-bind /w/ro /w/ro \
             --ro-bind /dev/null /w/key.txt --tmpfs /w/secrets --remount-ro /w/secrets \
             --unshare-user --disable-userns --unshare-pid --unshare-ipc --unshare-net \
             --die-with-parent --new-session --cap-drop ALL --setenv TMPDIR /tmp --chdir /w"
        );
    }

    #[test]
    fn network_on_keeps_the_host_network_namespace() {
        let args = bwrap_args(
            &SandboxPolicy::default(),
            Path::new("/"),
            options(true),
            |_| None,
        );
        assert!(!text(&args).contains("--unshare-net"));
    }

    #[test]
    fn nested_and_missing_hidden_paths_are_left_out() {
        let policy = SandboxPolicy {
            hidden: vec![
                "/w/s/deep/file".into(),
                "/w/s".into(),
                "/w/gone".into(),
                "/w/s".into(),
                "/w/sibling".into(),
            ],
            ..SandboxPolicy::default()
        };
        let args = bwrap_args(&policy, Path::new("/w"), options(false), |path| {
            (!path.ends_with("gone")).then_some(true)
        });
        let text = text(&args);
        assert!(text.contains("--tmpfs /w/s --remount-ro /w/s "), "{text}");
        assert!(text.contains("--tmpfs /w/sibling "), "{text}");
        assert!(!text.contains("deep") && !text.contains("gone"), "{text}");
    }

    #[test]
    fn relative_policy_paths_are_taken_relative_to_the_working_directory() {
        let policy = SandboxPolicy {
            writable: vec![".".into()],
            hidden: vec!["secrets".into()],
            ..SandboxPolicy::default()
        };
        let args = bwrap_args(&policy, Path::new("/p"), options(false), |_| Some(true));
        let text = text(&args);
        assert!(text.contains("--bind /p /p "), "{text}");
        assert!(text.contains("--tmpfs /p/secrets"), "{text}");
    }
}
