//! What a server list shows of itself in `Debug` output (a panic message, a log line): every
//! name, no header or environment value, no OAuth client secret, and its URLs without their
//! secret parts ([`redact::url`](crate::redact::url)).

use std::collections::BTreeMap;
use std::fmt;

use super::{OAuthSettings, Transport};

/// The names of a map, each value hidden: what `Debug` shows of headers and environments.
struct Hidden<'a>(&'a BTreeMap<String, String>);

impl fmt::Debug for Hidden<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map()
            .entries(self.0.keys().map(|name| (name, "***")))
            .finish()
    }
}

impl fmt::Debug for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Transport::Stdio {
                command,
                args,
                env,
                cwd,
            } => f
                .debug_struct("Stdio")
                .field("command", command)
                .field("args", args)
                .field("env", &Hidden(env))
                .field("cwd", cwd)
                .finish(),
            Transport::Http {
                url,
                headers,
                oauth,
            } => f
                .debug_struct("Http")
                .field("url", &crate::redact::url(url))
                .field("headers", &Hidden(headers))
                .field("oauth", oauth)
                .finish(),
        }
    }
}

impl fmt::Debug for OAuthSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OAuthSettings")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "***"))
            .field("client_metadata_url", &self.client_metadata_url)
            .field("scopes", &self.scopes)
            .field("callback_port", &self.callback_port)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::super::McpConfig;

    #[test]
    fn debug_output_shows_no_header_environment_or_secret_value() {
        let config = McpConfig::parse(
            r#"{"mcpServers": {
                "r": {"url": "https://u:pw@h/mcp?key=k3y", "headers": {"Authorization": "Bearer lit3ral"},
                      "oauth": {"clientSecret": "s3cret"}},
                "s": {"command": "x", "env": {"TOKEN": "env-s3cret"}}
            }}"#,
        )
        .unwrap();
        let debug = format!("{config:?}");
        for secret in ["pw", "k3y", "lit3ral", "s3cret", "env-s3cret"] {
            assert!(!debug.contains(secret), "{secret} in {debug}");
        }
        assert!(
            debug.contains("Authorization") && debug.contains("TOKEN"),
            "{debug}"
        );
    }
}
