//! What an unasked command reads, checked against the `Read` rules before it runs.
//!
//! A read-only command names what it reads ([`SimpleCommand::reads`]). Each path is checked as
//! Read would check it: a path a `Read` deny *or ask* rule covers makes the call ask (an unasked
//! command must not read what the user would be asked about), and so does a directory walked
//! (`grep -r`, `find`) with such a path anywhere below it. In the sandbox the same paths are
//! masked anyway, so asking only says it up front; without a sandbox these checks are the only
//! bound on what the command reads, and what cannot be checked — a read the checker cannot
//! name before the line runs, a file under `/proc` (another process's memory, environment and
//! open files) — asks too. The repository of a `git` command is what git reports it uses, run
//! with the read-only environment.

use std::path::{Path, PathBuf};

use toolreg::ToolContext;
use toolreg::permissions::shell::{Read, SimpleCommand, read_only_env};
use toolreg::permissions::{RuleTarget, Subject, Verdict};
use toolreg::sandbox::Sandboxing;

use crate::profile::names::READ;

/// `Ok` when every read of `commands` may run unasked in `ctx`; else why the call asks.
pub(super) fn unasked_reads(
    commands: &[SimpleCommand],
    ctx: &ToolContext<'_>,
) -> Result<(), String> {
    let sandboxed = matches!(ctx.sandboxing(), Sandboxing::On(_));
    for command in commands {
        for read in &command.reads {
            match read {
                Read::Path { path, tree } => check(Path::new(path), *tree, sandboxed, ctx)
                    .map_err(|why| format!("`{}` {why}", command.text))?,
                Read::Repository { .. } | Read::Unknown { .. } if sandboxed => {}
                Read::Repository { dir } => {
                    for root in repository(&ctx.cwd.join(dir))
                        .map_err(|why| format!("`{}`: {why}", command.text))?
                    {
                        check(&root, true, sandboxed, ctx)
                            .map_err(|why| format!("`{}` {why}", command.text))?;
                    }
                }
                Read::Unknown { word } => {
                    return Err(format!(
                        "`{}` reads `{word}`, which cannot be checked before it runs, and no \
                         sandbox bounds what it reads",
                        command.text
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether `path` (relative to the call's directory), and everything below it when `tree`,
/// may be read unasked.
fn check(path: &Path, tree: bool, sandboxed: bool, ctx: &ToolContext<'_>) -> Result<(), String> {
    let shown = path.display();
    let subject = Subject::read(path)
        .resolved(ctx.cwd)
        .map_err(|error| format!("reads {shown}, which cannot be checked: {error}"))?;
    let resolved = subject.path().map(Path::to_path_buf).unwrap_or_default();
    if !sandboxed && resolved.starts_with("/proc") {
        return Err(format!(
            "reads {shown}, under /proc (other processes' memory, environment and open files), \
             and no sandbox hides them"
        ));
    }
    let Some(rules) = ctx.permissions() else {
        return Ok(());
    };
    match rules.check(RuleTarget::named(READ), Some(&subject), ctx.cwd) {
        Verdict::Deny(refusal) => return Err(format!("reads {shown}: {refusal}")),
        Verdict::Ask(reason) => return Err(format!("reads {shown}: {reason}")),
        Verdict::Allow | Verdict::Undecided => {}
    }
    if tree && let Some(rule) = rules.restricts_below(READ, &[], &resolved, ctx.cwd) {
        return Err(format!(
            "reads everything below {shown}, where rule {rule} restricts reading"
        ));
    }
    Ok(())
}

/// The directories a read-only `git` run from `dir` reads: its work tree, its git directory
/// and common directory, as git itself reports them with the read-only environment, and the
/// object directories the repository borrows (`objects/info/alternates`).
fn repository(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let output = std::process::Command::new("git")
        .args([
            "rev-parse",
            "--show-toplevel",
            "--absolute-git-dir",
            "--git-common-dir",
        ])
        .current_dir(dir)
        .env_clear()
        .envs(read_only_env())
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|error| format!("could not ask git which repository it reads: {error}"))?;
    if !output.status.success() {
        // Outside a repository git reads nothing of one.
        return Ok(Vec::new());
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let mut roots: Vec<PathBuf> = text.lines().map(|line| dir.join(line)).collect();
    let objects = roots.last().map(|common| common.join("objects"));
    if let Some(objects) = objects {
        let alternates =
            std::fs::read_to_string(objects.join("info/alternates")).unwrap_or_default();
        // Each line is a directory, absolute or relative to the objects directory.
        roots.extend(
            alternates
                .lines()
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .map(|line| objects.join(line)),
        );
    }
    Ok(roots)
}
