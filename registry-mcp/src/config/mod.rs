//! The server list: `{"mcpServers": {"name": {"command", "args", "env", "cwd"}}}` for a stdio
//! server, `{"name": {"type": "http", "url", "headers"}}` for a Streamable HTTP one — the shape
//! desktop MCP clients use.
//!
//! Servers keep the order of the file (their tools are named in that order, so the same file
//! always gives the same pool). An HTTP entry's header values and a stdio entry's `env` values
//! may hold `${VAR}` (or `${VAR:-default}`), read from the environment when the server is
//! connected, so a token stays out of the file; `Authorization: Bearer …` is sent as the
//! bearer token.
//!
//! # What a stdio server sees of the environment
//!
//! Not all of it: [`McpConfig::environment`] (by default every name holding `KEY`, `TOKEN`,
//! `SECRET`, `PASSWORD` or `CREDENTIAL` dropped), less every variable any entry of the list
//! references with `${VAR}` (one server's token is not another's), then the entry's own `env`
//! set on top. A server that needs a secret names it in its entry:
//! `"env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}`.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

mod debug;
#[cfg(feature = "client")]
mod environment;
mod variables;

#[cfg(feature = "client")]
pub(crate) use self::environment::server_environment;
pub(crate) use self::variables::without_quoted_strings;
pub use self::variables::{expand, variables};

/// The servers to connect, in the order of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpConfig {
    /// The servers.
    pub servers: Vec<ServerSpec>,
    /// The file that keeps the OAuth tokens of HTTP servers (see [`crate::oauth`]); not read
    /// from the server list. Without one, no stored token is used.
    pub credentials: Option<PathBuf>,
    /// What a stdio server sees of this process's environment before its own `env` (see the
    /// module docs); not read from the server list.
    pub environment: toolreg::sandbox::EnvPolicy,
}

/// One server of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerSpec {
    /// The name its tools are filed under (`mcp__<name>__<tool>`).
    pub name: String,
    /// How to reach it.
    pub transport: Transport,
}

/// How a server is reached. Its `Debug` form shows no header or environment value, and the
/// URL with its secret parts hidden ([`redact::url`](crate::redact::url)).
#[derive(Clone, PartialEq, Eq)]
pub enum Transport {
    /// A child process speaking MCP on its stdin and stdout.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
        /// Variables set for it on top of what it inherits (see the module docs); values may
        /// hold `${VAR}` ([`expand`]).
        env: BTreeMap<String, String>,
        /// Its working directory; this process's when `None`.
        cwd: Option<PathBuf>,
    },
    /// A Streamable HTTP endpoint.
    Http {
        /// The endpoint (`http://` or `https://`).
        url: String,
        /// Headers sent with every request, as written: `${VAR}` (or `${VAR:-default}`) is
        /// replaced by the variable's value when the server is connected
        /// ([`expand`]), so a token stays out of the file. An `Authorization: Bearer …`
        /// header is the server's bearer token.
        headers: BTreeMap<String, String>,
        /// How to authorize with OAuth, when the entry says (`"oauth": {…}`). A server without
        /// it may still use OAuth: a token stored for its URL is used all the same.
        oauth: Option<OAuthSettings>,
    },
}

/// An HTTP entry's `"oauth"` object: the client this program is to the server's authorization
/// server. Every field is optional; without a client ID the client registers itself (the
/// client-ID metadata document when the authorization server takes one and `clientMetadataUrl`
/// is set, dynamic registration otherwise). Its `Debug` form hides the client secret.
#[derive(Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OAuthSettings {
    /// A client ID registered with the authorization server beforehand.
    pub client_id: Option<String>,
    /// That client's secret, if it has one; may hold `${VAR}` ([`expand`]).
    pub client_secret: Option<String>,
    /// The HTTPS URL of this client's metadata document, used as its client ID where the
    /// authorization server supports that.
    pub client_metadata_url: Option<String>,
    /// The scopes to ask for; the server's advertised ones when empty.
    #[serde(default)]
    pub scopes: Vec<String>,
    /// The loopback port the authorization server redirects to (what a pre-registered
    /// client's redirect URI names); any free port when `None`.
    pub callback_port: Option<u16>,
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

/// Whether `name: value` can be an HTTP header once its variables are expanded: a token name,
/// a value of visible characters and spaces, a `${…}` closed.
fn check_header(name: &str, value: &str) -> Result<(), String> {
    let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if name.is_empty() || !name.chars().all(token) {
        return Err(format!("`{name}` is not a header name"));
    }
    if value.chars().any(|c| c.is_control() && c != '\t') {
        return Err("the value holds a control character".into());
    }
    expand(value, |_| Some("x".into())).map(|_| ())
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
    #[serde(default)]
    headers: BTreeMap<String, String>,
    /// Desktop clients' `"type": "stdio" | "http" | "streamable-http"`; checked against the
    /// other fields.
    #[serde(rename = "type")]
    kind: Option<String>,
    oauth: Option<OAuthSettings>,
}

impl McpConfig {
    /// Reads a server list from JSON text.
    pub fn parse(text: &str) -> Result<McpConfig, ConfigError> {
        let invalid = |path: String, message: String| ConfigError::Invalid { path, message };
        let mut de = serde_json::Deserializer::from_str(text);
        let file: File = serde_path_to_error::deserialize(&mut de).map_err(|error| {
            invalid(
                error.path().to_string(),
                without_quoted_strings(&error.inner().to_string()),
            )
        })?;
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
                invalid(path, without_quoted_strings(&error.inner().to_string()))
            })?;
            if entry.command.is_some() && !entry.headers.is_empty() {
                return Err(invalid(
                    format!("{at}.headers"),
                    "headers are for HTTP servers (a `url` entry)".into(),
                ));
            }
            if entry.command.is_some() && entry.oauth.is_some() {
                return Err(invalid(
                    format!("{at}.oauth"),
                    "OAuth is for HTTP servers (a `url` entry)".into(),
                ));
            }
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
                    if !(url.starts_with("http://") || url.starts_with("https://")) {
                        return Err(invalid(
                            format!("{at}.url"),
                            format!(
                                "`{}` is not an http:// or https:// URL",
                                crate::redact::url(&url)
                            ),
                        ));
                    }
                    for (name, value) in &entry.headers {
                        check_header(name, value)
                            .map_err(|message| invalid(format!("{at}.headers.{name}"), message))?;
                    }
                    if let Some(secret) =
                        entry.oauth.as_ref().and_then(|o| o.client_secret.as_ref())
                    {
                        expand(secret, |_| Some("x".into())).map_err(|message| {
                            invalid(format!("{at}.oauth.clientSecret"), message)
                        })?;
                    }
                    Transport::Http {
                        url,
                        headers: entry.headers,
                        oauth: entry.oauth,
                    }
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
        Ok(McpConfig {
            environment: toolreg::sandbox::EnvPolicy::default(),
            servers,
            credentials: None,
        })
    }

    /// The environment variables the entries name with `${VAR}` (or `${VAR:-default}`), each
    /// once, sorted: in the headers and OAuth client secret of HTTP entries, which are expanded
    /// when connecting, and in their URLs and the environment values of stdio entries, which
    /// are passed as written. What a host hides from the processes it starts (upstream servers,
    /// commands) so a token passed this way reaches only its header.
    ///
    /// ```
    /// use toolreg_mcp::McpConfig;
    /// let config = McpConfig::parse(r#"{"mcpServers": {
    ///     "remote": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer ${REMOTE_TOKEN}"}},
    ///     "git": {"command": "mcp-server-git", "env": {"GIT_TOKEN": "${GH_TOKEN}"}}
    /// }}"#)?;
    /// assert_eq!(config.referenced_variables(), ["GH_TOKEN", "REMOTE_TOKEN"]);
    /// # Ok::<(), toolreg_mcp::ConfigError>(())
    /// ```
    pub fn referenced_variables(&self) -> Vec<String> {
        let mut names = std::collections::BTreeSet::new();
        for server in &self.servers {
            let values: Vec<&str> = match &server.transport {
                Transport::Stdio { env, .. } => env.values().map(String::as_str).collect(),
                Transport::Http {
                    url,
                    headers,
                    oauth,
                } => std::iter::once(url.as_str())
                    .chain(headers.values().map(String::as_str))
                    .chain(oauth.as_ref().and_then(|o| o.client_secret.as_deref()))
                    .collect(),
            };
            names.extend(values.into_iter().flat_map(variables).map(str::to_owned));
        }
        names.into_iter().collect()
    }

    /// What a stdio server of this list sees of this process's environment before its own
    /// `env`: [`environment`](Self::environment) less every variable an entry references.
    pub fn server_environment(&self) -> toolreg::sandbox::EnvPolicy {
        self.referenced_variables()
            .into_iter()
            .fold(self.environment.clone(), toolreg::sandbox::EnvPolicy::drop)
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

    #[test]
    fn an_http_entry_keeps_its_headers_unexpanded_and_checks_them() {
        let config = McpConfig::parse(
            r#"{"mcpServers": {"remote": {"url": "https://mcp.example/mcp",
                "headers": {"Authorization": "Bearer ${TOKEN}"}}}}"#,
        )
        .unwrap();
        let Transport::Http { headers, .. } = &config.servers[0].transport else {
            panic!("http")
        };
        assert_eq!(headers["Authorization"], "Bearer ${TOKEN}");
        let error = |text: &str| McpConfig::parse(text).unwrap_err().to_string();
        assert_eq!(
            error(r#"{"mcpServers": {"r": {"url": "ftp://h/x"}}}"#),
            "mcpServers.r.url: `ftp://h/x` is not an http:// or https:// URL"
        );
        assert_eq!(
            error(r#"{"mcpServers": {"r": {"url": "http://h", "headers": {"Bad Name": "x"}}}}"#),
            "mcpServers.r.headers.Bad Name: `Bad Name` is not a header name"
        );
        assert_eq!(
            error(r#"{"mcpServers": {"r": {"url": "http://h", "headers": {"X": "${OPEN"}}}}"#),
            "mcpServers.r.headers.X: a `${` without its `}`"
        );
        assert_eq!(
            error(r#"{"mcpServers": {"r": {"command": "x", "headers": {"X": "y"}}}}"#),
            "mcpServers.r.headers: headers are for HTTP servers (a `url` entry)"
        );
    }

    #[test]
    fn an_http_entrys_oauth_object_is_read_and_checked() {
        let config = McpConfig::parse(
            r#"{"mcpServers": {"notes": {"url": "https://notes.example/mcp", "oauth": {
                "clientId": "app", "clientSecret": "${SECRET}", "scopes": ["read"], "callbackPort": 8400}}}}"#,
        )
        .unwrap();
        let Transport::Http { oauth, .. } = &config.servers[0].transport else {
            panic!("http")
        };
        assert_eq!(
            oauth.as_ref(),
            Some(&OAuthSettings {
                client_id: Some("app".into()),
                client_secret: Some("${SECRET}".into()),
                client_metadata_url: None,
                scopes: vec!["read".into()],
                callback_port: Some(8400),
            })
        );
        let error = |text: &str| McpConfig::parse(text).unwrap_err().to_string();
        assert!(
            error(r#"{"mcpServers": {"r": {"url": "http://h", "oauth": {"client_id": "x"}}}}"#)
                .starts_with("mcpServers.r.oauth.client_id: unknown field `client_id`")
        );
        assert_eq!(
            error(r#"{"mcpServers": {"r": {"command": "x", "oauth": {}}}}"#),
            "mcpServers.r.oauth: OAuth is for HTTP servers (a `url` entry)"
        );
        assert_eq!(
            error(
                r#"{"mcpServers": {"r": {"url": "http://h", "oauth": {"clientSecret": "${S"}}}}"#
            ),
            "mcpServers.r.oauth.clientSecret: a `${` without its `}`"
        );
    }

    #[test]
    fn a_value_in_the_wrong_place_is_not_quoted_in_the_error() {
        let error = McpConfig::parse(
            r#"{"mcpServers": {"r": {"url": "http://h", "headers": "Bearer sk-live-secret"}}}"#,
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            error,
            "mcpServers.r.headers: invalid type: string, expected a map"
        );
        assert_eq!(
            without_quoted_strings(r#"a string "x\"y", then string "z" end"#),
            "a string, then string end"
        );
    }

    #[test]
    fn a_refused_url_is_shown_without_its_secrets() {
        let error = McpConfig::parse(r#"{"mcpServers": {"r": {"url": "ftp://me:pw@h/x?k=v"}}}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "mcpServers.r.url: `ftp://***@h/x?k=***` is not an http:// or https:// URL"
        );
    }
}
