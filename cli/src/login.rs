//! `toolreg mcp login` and `logout`: OAuth tokens for HTTP servers, kept in the credentials
//! file that every command connecting `--mcp-config` reads.

#[cfg(feature = "mcp")]
use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::PoolArgs;

type Result<T> = std::result::Result<T, String>;

/// The variable naming the credentials file.
#[cfg(feature = "mcp")]
pub const CREDENTIALS_VARIABLE: &str = "TOOLREG_CREDENTIALS";

/// The credentials file: `$TOOLREG_CREDENTIALS`, else `toolreg/credentials.json` under
/// `$XDG_CONFIG_HOME` or `~/.config`; `None` without any of them.
#[cfg(feature = "mcp")]
pub fn credentials_path() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(path) = set(CREDENTIALS_VARIABLE) {
        return Some(PathBuf::from(path));
    }
    let config = set("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".config")))?;
    Some(config.join("toolreg/credentials.json"))
}

#[cfg(feature = "mcp")]
fn server(args: &PoolArgs, name: &str) -> Result<(toolreg_mcp::ServerSpec, PathBuf)> {
    let path = args
        .mcp_config
        .as_deref()
        .ok_or("toolreg mcp login needs --mcp-config FILE")?;
    let config =
        toolreg_mcp::McpConfig::load(path).map_err(|error| format!("--mcp-config {error}"))?;
    let spec = config
        .servers
        .into_iter()
        .find(|spec| spec.name == name)
        .ok_or_else(|| format!("--mcp-config {}: no server `{name}`", path.display()))?;
    let credentials = credentials_path()
        .ok_or("no place for the credentials: set TOOLREG_CREDENTIALS, XDG_CONFIG_HOME or HOME")?;
    Ok((spec, credentials))
}

/// Opens `url` with `$BROWSER`, or the desktop's opener; whether one started.
#[cfg(feature = "mcp")]
fn open_browser(url: &str) -> bool {
    let browser = std::env::var("BROWSER").ok().filter(|b| !b.is_empty());
    let openers = browser
        .into_iter()
        .chain(["xdg-open".to_owned(), "open".to_owned()]);
    openers.into_iter().any(|opener| {
        std::process::Command::new(opener)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
    })
}

/// `toolreg mcp login SERVER`.
#[cfg(feature = "mcp")]
pub fn login(args: &PoolArgs, name: &str, browser: bool, wait: u64) -> Result<ExitCode> {
    use toolreg_mcp::oauth::{CredentialFile, login_within};
    let (spec, credentials) = server(args, name)?;
    let store = CredentialFile::new(&credentials);
    let runtime = crate::setup::runtime()?;
    let wait = std::time::Duration::from_secs(wait);
    let logged = runtime
        .block_on(login_within(&spec, &store, wait, |url| {
            eprintln!("To authorize toolreg with `{name}`, open:\n\n  {url}\n");
            if browser && !open_browser(url) {
                eprintln!("(no browser could be started; open the address yourself)");
            }
        }))
        .map_err(|error| format!("mcp login {name}: {error}"))?;
    let issuer = logged
        .issuer
        .as_deref()
        .unwrap_or("an authorization server");
    println!(
        "Logged in to `{name}` as client {} of {issuer}; tokens kept in {}",
        logged.client_id,
        credentials.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `toolreg mcp logout SERVER`.
#[cfg(feature = "mcp")]
pub fn logout(args: &PoolArgs, name: &str) -> Result<ExitCode> {
    let (spec, credentials) = server(args, name)?;
    let toolreg_mcp::Transport::Http { url, .. } = &spec.transport else {
        return Err(format!(
            "mcp logout {name}: OAuth is for HTTP servers (a `url` entry)"
        ));
    };
    let store = toolreg_mcp::oauth::CredentialFile::new(&credentials);
    let removed = store.remove(url).map_err(|error| error.to_string())?;
    println!(
        "{}",
        if removed {
            format!("Logged out of `{name}`.")
        } else {
            format!("No tokens were kept for `{name}`.")
        }
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "mcp"))]
pub fn login(_: &PoolArgs, _: &str, _: bool, _: u64) -> Result<ExitCode> {
    Err("mcp login: this toolreg was built without the `mcp` feature".into())
}

#[cfg(not(feature = "mcp"))]
pub fn logout(_: &PoolArgs, _: &str) -> Result<ExitCode> {
    Err("mcp logout: this toolreg was built without the `mcp` feature".into())
}
