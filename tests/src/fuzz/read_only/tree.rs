//! The tree the lines run in: a few files, links, stand-in programs where a line may look for
//! a program by path or by a `PATH` it changes, files named like options, and a git
//! repository whose configuration and attributes name stand-ins everywhere git may run a
//! program (an fsmonitor hook, a pager, an external diff, textconv and clean filters, a
//! signature check, an alias, a lazy fetch), with a commit carrying a signature, a work-tree
//! file whose stat differs from the index's (so git would hash it, through the clean filter),
//! a bare repository inside it with the same configuration, and a directory whose `.git` file
//! points at that bare repository.
//!
//! The tree is bound read-only in the sandbox: a line's writes fail, and are seen in the trace
//! all the same.

use std::os::unix::fs::{PermissionsExt as _, symlink};
use std::path::Path;
use std::process::Command;

/// The stand-in every program of the tree is: it does nothing, and being run is the fault.
const STAND_IN: &str = "#!/bin/sh\nexit 0\n";

/// Stand-ins under `x/`, where a line that changes `PATH` to `x` finds them.
pub const STAND_INS: &[&str] = &[
    "evil", "ls", "cat", "grep", "git", "sort", "head", "echo", "find", "jq", "rg", "tree", "wc",
    "pr", "gzip", "sh", "bash",
];

fn run(cmd: &mut Command) -> std::io::Result<()> {
    let out = cmd.output()?;
    if out.status.success() {
        Ok(())
    } else {
        Err(std::io::Error::other(format!(
            "{cmd:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        )))
    }
}

fn git(tree: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(tree)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "a")
        .env("GIT_AUTHOR_EMAIL", "a@example.com")
        .env("GIT_COMMITTER_NAME", "a")
        .env("GIT_COMMITTER_EMAIL", "a@example.com")
        .env("GIT_AUTHOR_DATE", "2020-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2020-01-01T00:00:00Z");
    cmd
}

fn executable(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::write(path, text)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

/// Builds the tree at `tree` (which must not exist).
pub fn build(tree: &Path) -> std::io::Result<()> {
    let t = tree.display().to_string();
    std::fs::create_dir_all(tree.join("d/sub"))?;
    std::fs::create_dir_all(tree.join("x/hooks"))?;
    std::fs::create_dir_all(tree.join("bin"))?;
    std::fs::create_dir_all(tree.join("home"))?;
    std::fs::create_dir_all(tree.join("sub"))?;
    let files: &[(&str, &str)] = &[
        ("f", "alpha\nbeta\ngamma\nbeta\n"),
        ("g", "1\n2\n3\n"),
        ("empty", ""),
        ("data.json", "{\"a\":1,\"b\":[1,2]}\n"),
        ("prog.jq", ".a\n"),
        ("pats", "beta\n"),
        ("d/h", "in d\n"),
        ("d/sub/i", "deeper\n"),
        ("--output=w", "a file named like an option\n"),
        ("-n", "a file named like an option\n"),
    ];
    for (name, text) in files {
        std::fs::write(tree.join(name), text)?;
    }
    let big: String = (0..40_000)
        .map(|i| format!("{}\n", (i * 7919) % 100_003))
        .collect();
    std::fs::write(tree.join("big"), big)?;
    run(Command::new("sh")
        .arg("-c")
        .arg("gzip -c f > f.gz")
        .current_dir(tree))?;
    symlink("f", tree.join("link"))?;
    symlink("d", tree.join("dlink"))?;
    symlink("/etc", tree.join("out-link"))?;
    for name in STAND_INS {
        executable(&tree.join("x").join(name), STAND_IN)?;
    }
    for hook in [
        "pre-commit",
        "post-checkout",
        "reference-transaction",
        "fsmonitor-watchman",
    ] {
        executable(&tree.join("x/hooks").join(hook), STAND_IN)?;
    }
    executable(&tree.join("cat"), STAND_IN)?;
    executable(&tree.join("bin/ls"), STAND_IN)?;

    run(git(tree).args(["init", "-q", "-b", "main"]))?;
    run(git(tree).args(["add", "-A"]))?;
    run(git(tree).args(["commit", "-q", "-m", "first"]))?;
    std::fs::write(tree.join("g"), "1\n2\n3\n4\n")?;
    run(git(tree).args(["commit", "-q", "-am", "second"]))?;
    // A third commit carrying a signature header: showing its signature runs gpg.program.
    let head = git(tree)
        .args(["cat-file", "commit", "HEAD"])
        .output()?
        .stdout;
    let head = String::from_utf8_lossy(&head).replace(
        "\n\nsecond",
        "\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n -----END PGP SIGNATURE-----\n\nsigned",
    );
    let out = git(tree)
        .args(["hash-object", "-t", "commit", "-w", "--stdin"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(head.as_bytes())?;
            }
            child.wait_with_output()
        })?;
    let signed = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    run(git(tree).args(["update-ref", "refs/heads/main", &signed]))?;
    run(git(tree).args(["tag", "v1"]))?;
    run(git(tree).args(["clone", "-q", "--bare", ".", "evil.git"]))?;
    std::fs::write(tree.join("sub/.git"), "gitdir: ../evil.git\n")?;
    // Same size, other mtime: git must read `f` to know whether it changed.
    run(Command::new("touch")
        .args(["-d", "2001-01-01 00:00"])
        .arg(tree.join("f")))?;

    let config = format!(
        "[core]\n\trepositoryformatversion = 1\n\tfsmonitor = {t}/x/evil\n\tpager = {t}/x/evil\n\
         \thooksPath = {t}/x/hooks\n\tsshCommand = {t}/x/evil\n\tattributesFile = {t}/gitattributes\n\
         [diff]\n\texternal = {t}/x/evil\n[diff \"t\"]\n\ttextconv = {t}/x/evil\n\tcommand = {t}/x/evil\n\
         [filter \"x\"]\n\tclean = {t}/x/evil\n\tsmudge = {t}/x/evil\n\
         [log]\n\tshowSignature = true\n[gpg]\n\tprogram = {t}/x/evil\n\
         [format]\n\tpretty = %G?%h\n[pretty]\n\tsig = %G?%h\n\
         [pager]\n\tlog = {t}/x/evil\n\tshow = {t}/x/evil\n\tdiff = {t}/x/evil\n\tbranch = {t}/x/evil\n\
         [alias]\n\tlg = !{t}/x/evil\n[column]\n\tui = always\n\
         [remote \"origin\"]\n\turl = ext::{t}/x/evil\n\tpromisor = true\n\
         [protocol]\n\tallow = always\n[protocol \"ext\"]\n\tallow = always\n\
         [extensions]\n\tpartialClone = origin\n"
    );
    for repo in [tree.join(".git"), tree.join("evil.git")] {
        let mut text = std::fs::read_to_string(repo.join("config"))?;
        text.push_str(&config);
        std::fs::write(repo.join("config"), text)?;
        std::fs::create_dir_all(repo.join("info"))?;
        std::fs::write(repo.join("info/attributes"), "* filter=x diff=t\n")?;
    }
    std::fs::write(tree.join("gitattributes"), "* diff=t\n")?;
    Ok(())
}
