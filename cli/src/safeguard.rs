//! The files no tool may reach: the credentials file (the OAuth tokens `mcp login` keeps) and
//! the `--mcp-config` file (the commands toolreg starts, and the keys they may be given) in
//! every command that runs tools, and the tokens file of `mcp serve --http --tokens FILE`.
//!
//! Each file gets two deny rules from the source [`RuleSource::Safeguard`], naming its resolved
//! path exactly (`Read(//…)`, `Edit(//…)`, every glob character escaped): `Read` rules govern
//! Read, Grep and Glob (which leave the file out of their walks) and the reading half of Edit and
//! NotebookEdit; `Edit` rules govern Edit, Write and NotebookEdit. The Bash sandbox masks what
//! `Read` deny rules cover and keeps read-only what `Edit` deny rules cover, so a sandboxed
//! command can neither `cat` the file nor replace it. The credentials file's temporary sibling
//! (written, then renamed over it, by this process when it saves refreshed tokens) is covered
//! too.

use std::path::{Path, PathBuf};

use toolreg::permissions::RuleValue;
use toolreg::permissions::path::{absolute, exact_pattern, resolve};
use toolreg::{Behavior, PermissionContext, RuleSource};

/// The files to keep out of reach: the credentials file (and its temporary sibling) when
/// there is one, and `secrets`.
pub fn files(secrets: &[&Path]) -> Vec<PathBuf> {
    let secrets = secrets.iter().map(|path| path.to_path_buf());
    secrets.chain(credentials()).collect()
}

/// The credentials file and its temporary sibling, when there is one.
#[cfg(feature = "mcp")]
fn credentials() -> Vec<PathBuf> {
    let Some(credentials) = crate::login::credentials_path() else {
        return Vec::new();
    };
    let mut files = Vec::new();
    if let (Some(folder), Some(name)) = (credentials.parent(), credentials.file_name()) {
        let mut temporary = std::ffi::OsString::from(".");
        temporary.push(name);
        temporary.push(format!(".{}.tmp", std::process::id()));
        files.push(folder.join(temporary));
    }
    files.push(credentials);
    files
}

/// No credentials file: this build has no MCP client.
#[cfg(not(feature = "mcp"))]
fn credentials() -> Vec<PathBuf> {
    Vec::new()
}

/// Adds the deny rules that keep `files` (relative ones taken from `cwd`) out of every tool's
/// reach. A file whose path is not UTF-8 cannot be named by a rule: its folder is denied
/// instead.
pub fn protect(rules: &mut PermissionContext, files: &[PathBuf], cwd: &Path) {
    for file in files {
        let path = absolute(cwd, file);
        // Rules are matched against resolved paths; a path that cannot be resolved is named
        // as written.
        let path = resolve(&path).unwrap_or(path);
        let pattern = exact_pattern(&path).or_else(|| path.parent().and_then(exact_pattern));
        let Some(pattern) = pattern else { continue };
        for tool in ["Read", "Edit"] {
            let rule = RuleValue {
                tool: tool.into(),
                content: Some(pattern.clone()),
            };
            rules.add(Behavior::Deny, RuleSource::Safeguard, &rule.to_string());
        }
    }
}
