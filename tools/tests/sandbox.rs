//! The OS sandbox under Bash, against real bash, real files, real links and a real listener:
//! one test per escape route. Each runs only where the sandbox works; where it does not, it
//! prints why and passes, unless `TOOLREG_REQUIRE_SANDBOX` is set (CI sets it), which makes
//! a missing sandbox a failure.

use crate::common;

use std::ffi::{OsStr, OsString};
use std::net::TcpListener;
use std::path::{Path, PathBuf};

use serde_json::json;
use toolreg::env::Switches;
use toolreg::permissions::Grant;
use toolreg::sandbox::{Sandbox, SandboxPolicy, Sandboxing};
use toolreg::tool::IntoToolOutput as _;
use toolreg::{Tool as _, ToolContext, ToolOutput};
use toolreg_tools::bash::BashTool;

/// The sandbox, or `None` (and a printed reason) where it does not work and is not required.
fn sandbox() -> Option<Sandbox> {
    match Sandboxing::detect() {
        Sandboxing::On(sandbox) => Some(sandbox),
        Sandboxing::Unavailable(why) => {
            assert!(
                std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_none(),
                "TOOLREG_REQUIRE_SANDBOX is set but the sandbox is unavailable: {why}"
            );
            eprintln!("skipped: the sandbox is unavailable here: {why}");
            None
        }
        Sandboxing::Off => unreachable!("detection never answers Off"),
    }
}

/// A project with secrets in and around it, outside `/tmp` (which the sandbox replaces by a
/// private one, and which would hide everything there without any mask):
///
/// ```text
/// root/proj/notes.txt            visible            root/outside/public.txt   visible
/// root/proj/private.txt          hidden (a file)    root/outside/secret.txt   hidden
/// root/proj/secrets/key.txt      hidden (its dir)
/// root/proj/docs/readme.txt      read-only
/// root/proj/to_outside -> root/outside/secret.txt
/// root/proj/to_key -> secrets/key.txt
/// ```
struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

/// What each hidden file holds; no output may ever contain it.
const SECRET: &str = "TOPSECRET";

impl Project {
    fn new() -> Project {
        let base = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let base = if base.starts_with("/tmp") {
            Path::new("/var/tmp")
        } else {
            base
        };
        let dir = tempfile::tempdir_in(base).unwrap();
        let root = dir.path().canonicalize().unwrap();
        for sub in ["proj/secrets", "proj/docs", "outside"] {
            std::fs::create_dir_all(root.join(sub)).unwrap();
        }
        for (path, text) in [
            ("proj/notes.txt", "NOTES-VISIBLE"),
            ("proj/private.txt", "TOPSECRET-private"),
            ("proj/secrets/key.txt", "TOPSECRET-key"),
            ("proj/docs/readme.txt", "DOCS-VISIBLE"),
            ("outside/public.txt", "PUBLIC-VISIBLE"),
            ("outside/secret.txt", "TOPSECRET-outside"),
        ] {
            std::fs::write(root.join(path), text).unwrap();
        }
        std::os::unix::fs::symlink(
            root.join("outside/secret.txt"),
            root.join("proj/to_outside"),
        )
        .unwrap();
        std::os::unix::fs::symlink("secrets/key.txt", root.join("proj/to_key")).unwrap();
        Project { _dir: dir, root }
    }

    fn proj(&self) -> PathBuf {
        self.root.join("proj")
    }

    fn policy(&self, network: bool) -> SandboxPolicy {
        SandboxPolicy {
            writable: vec![self.proj()],
            read_only: vec![self.root.join("proj/docs")],
            hidden: vec![
                self.root.join("proj/private.txt"),
                self.root.join("proj/secrets"),
                self.root.join("outside/secret.txt"),
            ],
            network,
            sockets: true,
            ..SandboxPolicy::default()
        }
    }

    /// Runs `script` under bash in the sandbox with the project's policy, in `proj`; stdout
    /// and stderr together, then the exit code.
    fn run(&self, sandbox: &Sandbox, script: &str) -> String {
        self.run_with(sandbox, &self.policy(true), script)
    }

    fn run_with(&self, sandbox: &Sandbox, policy: &SandboxPolicy, script: &str) -> String {
        let args = [OsString::from("-c"), OsString::from(script)];
        let output = sandbox
            .command(policy, OsStr::new("bash"), &args, &self.proj())
            .unwrap()
            .output()
            .unwrap();
        format!(
            "{}{}\nexit: {:?}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr),
            output.status.code()
        )
    }
}

/// Asserts the output shows no secret, and shows `visible` (the same route reaches a file
/// that is not hidden, so the test is not passing because the route itself is broken).
fn assert_hidden(output: &str, visible: &str) {
    assert!(
        !output.contains(SECRET),
        "a hidden file was read:\n{output}"
    );
    assert!(
        output.contains(visible),
        "the route reads nothing at all:\n{output}"
    );
}

#[test]
fn sandboxed_bash_cannot_write_outside_the_working_directory() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let sandboxing = Sandboxing::On(sandbox);
    let switches = Switches::default();
    let proj = project.proj();
    // Approved: the working directory is writable, nothing else.
    let ctx = ToolContext::new(&proj, &switches)
        .with_sandboxing(&sandboxing)
        .with_grant(Grant::Approved);
    let host_tmp = tempfile::tempdir_in("/tmp").unwrap();
    let etc = PathBuf::from(format!("/etc/toolreg-sandbox-test-{}", std::process::id()));
    let command = format!(
        "echo x > ../outside/written.txt; echo x > {host_tmp}/written.txt; \
         touch ../outside/public.txt -d 2000-01-01; echo x > {etc}; \
         echo inside > inside.txt",
        host_tmp = host_tmp.path().display(),
        etc = etc.display(),
    );
    let bash: BashTool = serde_json::from_value(json!({ "command": command })).unwrap();
    let output = common::block_on(bash.call(&ctx)).map(|out| out.into_tool_output());
    // Removed before any assertion, so a failing run leaves nothing in /etc.
    let written_in_etc = etc.exists();
    let _ = std::fs::remove_file(&etc);
    let Ok(ToolOutput::Text(output)) = output else {
        panic!("{output:?}")
    };
    assert!(output.contains("Read-only file system"), "{output}");
    assert!(
        !project.root.join("outside/written.txt").exists(),
        "{output}"
    );
    assert!(!host_tmp.path().join("written.txt").exists(), "{output}");
    assert!(!written_in_etc, "{output}");
    let modified = std::fs::metadata(project.root.join("outside/public.txt"))
        .unwrap()
        .modified()
        .unwrap();
    assert!(
        modified.elapsed().unwrap().as_secs() < 365 * 24 * 3600,
        "the timestamp of a file outside was changed: {output}"
    );
    // Writes inside the working directory go through.
    assert_eq!(
        std::fs::read_to_string(proj.join("inside.txt")).unwrap(),
        "inside\n"
    );
}

#[test]
fn sandboxed_command_cannot_read_a_hidden_file_or_directory() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let output = project.run(
        &sandbox,
        "cat private.txt secrets/key.txt ../outside/secret.txt; ls secrets; \
         cp private.txt copy.txt; grep -r TOP . ../outside; cat notes.txt",
    );
    assert_hidden(&output, "NOTES-VISIBLE");
    assert!(output.contains("Permission denied"), "{output}");
    assert!(!project.proj().join("copy.txt").exists());
}

#[test]
fn sandboxed_command_cannot_read_a_hidden_file_through_a_symlink_in_the_project() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    std::os::unix::fs::symlink(
        project.root.join("outside/public.txt"),
        project.proj().join("to_public"),
    )
    .unwrap();
    let output = project.run(
        &sandbox,
        "cat to_outside to_key; ln -s ../outside/secret.txt fresh && cat fresh; cat to_public",
    );
    assert_hidden(&output, "PUBLIC-VISIBLE");
}

#[test]
fn sandboxed_command_cannot_read_a_hidden_file_through_proc_self_root() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let root = project.root.display();
    let output = project.run(
        &sandbox,
        &format!(
            "cat /proc/self/root{root}/outside/secret.txt /proc/1/root{root}/proj/private.txt \
             /proc/self/cwd/secrets/key.txt /proc/$$/root{root}/proj/secrets/key.txt; \
             cat /proc/self/root{root}/outside/public.txt"
        ),
    );
    assert_hidden(&output, "PUBLIC-VISIBLE");
}

#[test]
fn sandboxed_command_cannot_read_a_hidden_file_after_cd_to_the_root() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let relative = project
        .root
        .strip_prefix("/")
        .unwrap()
        .display()
        .to_string();
    let output = project.run(
        &sandbox,
        &format!(
            "cd / && cat {relative}/outside/secret.txt {relative}/proj/private.txt; \
             cd {relative}/outside && cat secret.txt ./../proj/secrets/key.txt public.txt"
        ),
    );
    assert_hidden(&output, "PUBLIC-VISIBLE");
}

#[test]
fn sandboxed_background_job_cannot_read_a_hidden_file() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let output = project.run(
        &sandbox,
        "(cat private.txt ../outside/secret.txt notes.txt > job.txt 2>&1) & \
         setsid -w sh -c 'cat secrets/key.txt >> job.txt 2>&1' & \
         nohup sh -c 'cat to_outside >> job.txt 2>&1' >/dev/null 2>&1 & wait",
    );
    let written = std::fs::read_to_string(project.proj().join("job.txt")).unwrap();
    assert_hidden(&written, "NOTES-VISIBLE");
    assert!(!output.contains(SECRET), "{output}");
}

#[test]
fn a_command_that_fools_the_splitter_still_cannot_read_a_hidden_file() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    // Arithmetic evaluation of an array subscript runs a command substitution, which a
    // splitter reading `: $((x))` as inert text does not see.
    let output = project.run(
        &sandbox,
        "x='a[$(cat private.txt ../outside/secret.txt notes.txt > leak.txt 2>&1)]'; : $((x)); \
         declare -i n; n='b[$(cat secrets/key.txt >> leak.txt 2>&1)]'",
    );
    let leaked = std::fs::read_to_string(project.proj().join("leak.txt")).unwrap();
    assert_hidden(&leaked, "NOTES-VISIBLE");
    assert!(!output.contains(SECRET), "{output}");
}

#[test]
fn a_hidden_file_cannot_be_linked_moved_or_replaced() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let output = project.run(
        &sandbox,
        "ln private.txt hard.txt; mv private.txt moved.txt; mv secrets moved; \
         rm -f private.txt; chmod 644 private.txt; cat hard.txt moved.txt moved/key.txt",
    );
    assert!(!output.contains(SECRET), "{output}");
    assert!(output.contains("Invalid cross-device link"), "{output}");
    assert_eq!(
        std::fs::read_to_string(project.proj().join("private.txt")).unwrap(),
        "TOPSECRET-private",
        "the hidden file is untouched on the host"
    );
    assert!(project.proj().join("secrets/key.txt").exists());
}

#[test]
fn a_read_only_path_inside_the_working_directory_stays_unchanged() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let output = project.run(
        &sandbox,
        "echo changed > docs/readme.txt; rm docs/readme.txt; touch docs/new.txt; \
         cat docs/readme.txt; echo ok > notes.txt",
    );
    assert!(output.contains("DOCS-VISIBLE"), "{output}");
    assert_eq!(
        std::fs::read_to_string(project.root.join("proj/docs/readme.txt")).unwrap(),
        "DOCS-VISIBLE"
    );
    assert!(!project.root.join("proj/docs/new.txt").exists());
    assert_eq!(
        std::fs::read_to_string(project.root.join("proj/notes.txt")).unwrap(),
        "ok\n"
    );
}

#[test]
fn without_network_a_sandboxed_command_cannot_reach_a_listener_on_the_host_loopback() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("echo hello > /dev/tcp/127.0.0.1/{port} && echo connected");
    // With the network on, the same command reaches the listener (the kernel completes the
    // connection into the listener's backlog).
    let on = project.run_with(&sandbox, &project.policy(true), &connect);
    assert!(on.contains("connected"), "{on}");
    let off = project.run_with(&sandbox, &project.policy(false), &connect);
    assert!(!off.contains("connected"), "{off}");
    assert!(off.contains("Connection refused"), "{off}");
    // A sandbox with the network turned off wins over a policy that asks for it.
    let no_network = sandbox.with_network(false);
    let off = project.run_with(&no_network, &project.policy(true), &connect);
    assert!(!off.contains("connected"), "{off}");
}

#[test]
fn the_private_tmp_is_empty_writable_and_gone_after_the_command() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let host = tempfile::NamedTempFile::new_in("/tmp").unwrap();
    let name = host
        .path()
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    let output = project.run(
        &sandbox,
        &format!("ls /tmp/{name}; echo $TMPDIR; echo x > /tmp/private.txt && cat /tmp/private.txt"),
    );
    assert!(output.contains("No such file or directory"), "{output}");
    assert!(output.contains("/tmp\nx\n"), "{output}");
    let again = project.run(&sandbox, "ls -A /tmp | wc -l");
    assert!(again.starts_with("0\n"), "{again}");
}

#[test]
fn detection_says_why_when_bwrap_is_missing_or_broken() {
    let missing = Sandboxing::detect_with(Path::new("/nonexistent/bwrap"));
    let Sandboxing::Unavailable(why) = missing else {
        panic!("{missing:?}")
    };
    assert!(why.contains("/nonexistent/bwrap"), "{why}");
    assert!(why.contains("No such file or directory"), "{why}");
    // A program that is there but is no working bwrap.
    let broken = Sandboxing::detect_with(Path::new("/bin/false"));
    assert!(
        matches!(&broken, Sandboxing::Unavailable(why) if why.contains("/bin/false")),
        "{broken:?}"
    );
}

#[test]
fn a_sandboxed_command_has_no_capabilities_and_cannot_unmount_a_mask() {
    let Some(sandbox) = sandbox() else { return };
    let project = Project::new();
    let output = project.run(
        &sandbox,
        "grep CapEff /proc/self/status; umount secrets; umount -l private.txt; \
         mount -t tmpfs none docs; cat secrets/key.txt private.txt",
    );
    assert!(output.contains("CapEff:\t0000000000000000"), "{output}");
    assert!(!output.contains(SECRET), "{output}");
}

#[test]
fn nested_user_namespaces_are_refused_where_bwrap_can_disable_them() {
    let Some(sandbox) = sandbox() else { return };
    if !sandbox.blocks_nested_user_namespaces() {
        eprintln!("skipped: bwrap or the kernel cannot disable nested user namespaces here");
        return;
    }
    let project = Project::new();
    // With a user namespace of its own a command would regain capabilities there.
    let output = project.run(&sandbox, "unshare -U -r true && echo nested");
    assert!(!output.contains("nested"), "{output}");
    assert!(output.contains("unshare failed"), "{output}");
}
