//! The server list: `{"mcpServers": {"name": {"command", "args", "env", "cwd"}}}`, the shape
//! desktop MCP clients use.
//!
//! Servers keep the order of the file (their tools are named in that order, so the same file
//! always gives the same pool). A server entry with a `url` is a Streamable HTTP server; this
//! build connects stdio servers only, so such an entry is kept and reported failed when
//! connecting, like any other server that cannot be reached.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The servers to connect, in the order of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpConfig {
    /// The servers.
    pub servers: Vec<ServerSpec>,
}

/// One server of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    /// The name its tools are filed under (`mcp__<name>__<tool>`).
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
}

/// How a server is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A child process speaking MCP on its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables set for it on top of this process's environment.
        env: BTreeMap<String, String>,
        /// Its working directory; this process's when `None`.
        cwd: Option<PathBuf>,
    },
    /// A Streamable HTTP endpoint (not connected by this build).
    Http {
        /// The endpoint.
        url: String,
    },
}

impl ServerSpec {
    /// A stdio server running `command` with `args`.
    pub fn stdio(
        name: impl Into<String>,
        command: impl Into<String>,
        args: impl IntoIterator<Item = impl Into<String>>,
    ) -> ServerSpec {
        ServerSpec {
            name: name.into(),
            transport: Transport::Stdio {
                command: command.into(),
                args: args.into_iter().map(Into::into).collect(),
                env: BTreeMap::new(),
                cwd: None,
            },
        }
    }
}

/// Why a server list could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConfigError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The text is not the expected JSON: `path` is where in the document (`mcpServers.git.args[1]`).
    Invalid {
        /// Where in the document.
        path: String,
        /// What was wrong.
        message: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Read { path, error } => write!(f, "{}: {error}", path.display()),
            ConfigError::Invalid { path, message } if path.is_empty() || path == "." => {
                write!(f, "{message}")
            }
            ConfigError::Invalid { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Read { error, .. } => Some(error),
            ConfigError::Invalid { .. } => None,
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct File {
    mcp_servers: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    cwd: Option<PathBuf>,
    url: Option<String>,
    /// Desktop clients' `"type": "stdio" | "http" | "streamable-http"`; checked against the
    /// other fields.
    #[serde(rename = "type")]
    kind: Option<String>,
}

impl McpConfig {
    /// Reads a server list from JSON text.
    pub fn parse(text: &str) -> Result<McpConfig, ConfigError> {
        let invalid = |path: String, message: String| ConfigError::Invalid { path, message };
        let mut de = serde_json::Deserializer::from_str(text);
        let file: File = serde_path_to_error::deserialize(&mut de)
            .map_err(|error| invalid(error.path().to_string(), error.inner().to_string()))?;
        let mut servers = Vec::with_capacity(file.mcp_servers.len());
        for (name, value) in file.mcp_servers {
            let at = format!("mcpServers.{name}");
            if name.is_empty() {
                return Err(invalid(at, "a server needs a non-empty name".into()));
            }
            let entry: Entry = serde_path_to_error::deserialize(value).map_err(|error| {
                let inner = error.path().to_string();
                let path = if inner == "." {
                    at.clone()
                } else {
                    format!("{at}.{inner}")
                };
                invalid(path, error.inner().to_string())
            })?;
            let transport = match (entry.command, entry.url, entry.kind.as_deref()) {
                (Some(command), None, None | Some("stdio")) if !command.is_empty() => {
                    Transport::Stdio {
                        command,
                        args: entry.args,
                        env: entry.env,
                        cwd: entry.cwd,
                    }
                }
                (None, Some(url), None | Some("http" | "streamable-http")) => {
                    Transport::Http { url }
                }
                (Some(_), Some(_), _) => {
                    return Err(invalid(at, "has both `command` and `url`".into()));
                }
                (None, None, _) => {
                    return Err(invalid(
                        at,
                        "needs a `command` (stdio) or a `url` (HTTP)".into(),
                    ));
                }
                (Some(_), None, None | Some("stdio")) => {
                    return Err(invalid(format!("{at}.command"), "is empty".into()));
                }
                (_, _, Some(kind)) => {
                    return Err(invalid(
                        format!("{at}.type"),
                        format!("`{kind}` does not match the entry's `command` or `url`"),
                    ));
                }
            };
            servers.push(ServerSpec { name, transport });
        }
        Ok(McpConfig { servers })
    }

    /// Reads a server list from a file.
    pub fn load(path: &Path) -> Result<McpConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_owned(),
            error,
        })?;
        McpConfig::parse(&text).map_err(|error| match error {
            ConfigError::Invalid { path: at, message } => ConfigError::Invalid {
                path: format!("{}: {at}", path.display()),
                message,
            },
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn servers_keep_the_files_order_and_fields() {
        let config = McpConfig::parse(
            r#"{"mcpServers": {
                "time": {"command": "mcp-server-time", "args": ["--local-timezone", "UTC"]},
                "memory": {"command": "mcp-server-memory", "env": {"MEMORY_FILE_PATH": "/tmp/m"}, "cwd": "/tmp"},
                "remote": {"type": "http", "url": "http://127.0.0.1:9/mcp"}
            }}"#,
        )
        .unwrap();
        let names: Vec<&str> = config.servers.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["time", "memory", "remote"]);
        assert_eq!(
            config.servers[0],
            ServerSpec::stdio("time", "mcp-server-time", ["--local-timezone", "UTC"])
        );
        let Transport::Stdio { env, cwd, .. } = &config.servers[1].transport else {
            panic!("stdio")
        };
        assert_eq!(env["MEMORY_FILE_PATH"], "/tmp/m");
        assert_eq!(cwd.as_deref(), Some(Path::new("/tmp")));
        assert!(matches!(
            config.servers[2].transport,
            Transport::Http { .. }
        ));
    }

    #[test]
    fn a_wrong_field_is_named_with_its_path() {
        let error = |text: &str| McpConfig::parse(text).unwrap_err().to_string();
        assert_eq!(
            error(r#"{"mcpServers": {"git": {"command": "x", "args": ["a", 1]}}}"#),
            "mcpServers.git.args[1]: invalid type: integer `1`, expected a string"
        );
        assert!(error(r#"{"servers": {}}"#).contains("missing field `mcpServers`"));
        assert_eq!(
            error(r#"{"mcpServers": {"git": {"args": []}}}"#),
            "mcpServers.git: needs a `command` (stdio) or a `url` (HTTP)"
        );
        assert_eq!(
            error(r#"{"mcpServers": {"git": {"command": "x", "url": "http://h"}}}"#),
            "mcpServers.git: has both `command` and `url`"
        );
        assert!(
            error(r#"{"mcpServers": {"git": {"command": "x", "argz": []}}}"#)
                .starts_with("mcpServers.git.argz: unknown field `argz`")
        );
        assert_eq!(
            error(r#"{"mcpServers": {"git": {"type": "http", "command": "x"}}}"#),
            "mcpServers.git.type: `http` does not match the entry's `command` or `url`"
        );
    }
}
