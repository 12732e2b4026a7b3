//! What a Bash call may do, from how it was allowed: the sandbox's policy and the environment
//! of its command.

use std::ffi::{OsStr, OsString};

use toolreg::permissions::shell;
use toolreg::sandbox::{CommandGuard, EnvPolicy, SandboxPolicy, Sandboxing, contained};
use toolreg::{ToolContext, ToolError};

use crate::profile::names::{EDIT, READ};

/// `bash -c command`, with what the call's [`Grant`](toolreg::permissions::Grant) allows. In the sandbox when it is on:
/// an unasked call (every command only reads, by the checker's word) gets nothing writable, no
/// network, no sockets, and hidden what `Read` deny rules cover; a call a rule allowed, the
/// user approved or the mode let through gets the working directories writable (but what
/// `Edit` deny rules cover) and the network where the sandbox allows it. Without the sandbox,
/// [`contained`]. Either way in a process group of its own, so a timeout can kill the shell
/// and everything it started, with none of this process's open files, and with the
/// environment of [`environment`].
pub(super) fn shell_command(
    command: &str,
    ctx: &ToolContext<'_>,
) -> Result<(std::process::Command, CommandGuard), ToolError> {
    let program = OsStr::new("bash");
    let args = [OsString::from("-c"), OsString::from(command)];
    let environment = environment(ctx);
    let Sandboxing::On(sandbox) = ctx.sandboxing() else {
        let mut command = contained(program, &args);
        environment.apply_to(&mut command);
        return Ok((command, CommandGuard::default()));
    };
    let cwd = std::fs::canonicalize(ctx.cwd).map_err(|e| {
        ToolError::new(format!(
            "the working directory {} cannot be used: {e}",
            ctx.cwd.display()
        ))
    })?;
    let setup =
        |e: &dyn std::fmt::Display| ToolError::new(format!("the sandbox cannot be set up: {e}"));
    let explicit = ctx.grant().is_explicit();
    let policy = match (ctx.permissions(), explicit) {
        (Some(rules), true) => rules
            .sandbox_policy(&cwd, &[READ], &[EDIT])
            .map_err(|e| setup(&e))?,
        (Some(rules), false) => rules
            .unasked_sandbox_policy(&cwd, &[READ])
            .map_err(|e| setup(&e))?,
        (None, true) => SandboxPolicy {
            writable: vec![cwd.clone()],
            network: true,
            sockets: true,
            ..SandboxPolicy::default()
        },
        (None, false) => SandboxPolicy {
            read_only: vec![cwd.clone()],
            ..SandboxPolicy::default()
        },
    };
    let policy = SandboxPolicy {
        environment,
        ..policy
    };
    let prepared = sandbox
        .command(&policy, program, &args, &cwd)
        .map_err(|e| setup(&e))?;
    Ok(prepared.into_parts())
}

/// Variables bash runs as code when it starts or meets them (a startup file, exported
/// functions): never passed to a command.
const SHELL_CODE_VARIABLES: &[&str] = &[
    "BASH_ENV",
    "ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "PROMPT_COMMAND",
    "PS4",
];

/// The variables of this process an unasked command may see besides
/// [`shell::read_only_env`]: nothing that changes what the read-only list's programs do.
const UNASKED_INHERITS: &[&str] = &[
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "LC_MESSAGES",
    "TERM",
    "TZ",
];

/// The environment of the call's command. An unasked call (every command read-only) gets
/// [`shell::read_only_env`] — the system's `PATH`, git's repository-configured programs off —
/// and of this process's variables only the locale, `HOME`, `TERM` and `TZ`, so that each
/// program does what the read-only list says it does. Any other call gets the context's
/// policy (secrets dropped unless the host keeps them), without what bash would run as code.
fn environment(ctx: &ToolContext<'_>) -> EnvPolicy {
    let policy = SHELL_CODE_VARIABLES
        .iter()
        .fold(ctx.environment().clone(), |policy, name| policy.drop(*name))
        .drop_matching("BASH_FUNC_");
    if ctx.grant().is_explicit() {
        return policy;
    }
    shell::read_only_env().into_iter().fold(
        policy.restrict_to(UNASKED_INHERITS),
        |policy, (name, value)| policy.set(name, value),
    )
}
