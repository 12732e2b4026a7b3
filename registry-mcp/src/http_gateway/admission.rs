//! Which requests may come in at all, whatever their token: a `Host` the gateway answers to
//! (against DNS rebinding) and, from a browser, an `Origin` it trusts (the MCP spec's
//! Streamable HTTP security warning: servers MUST validate `Origin`, and answer an invalid one
//! with 403).
//!
//! An `Origin` is `scheme://host[:port]`; without a port it stands for the scheme's default
//! (80, 443). An allowed entry is written the same way, or with `:*` for any port. A request
//! without `Origin` (every non-browser client) passes; `Origin: null` (a sandboxed frame, a
//! `file:` page, a redirect across origins) never does, since anyone can send it.

use http::HeaderMap;
use http::uri::{Authority, Uri};

/// An allowed `Host`: a host, and the one port it must name, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AllowedHost {
    host: String,
    port: Option<u16>,
}

/// An allowed `Origin`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AllowedOrigin {
    scheme: String,
    host: String,
    /// `None`: any port.
    port: Option<Option<u16>>,
}

/// A host as compared: lower case, an IPv6 address without its brackets.
fn normalize(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .to_ascii_lowercase()
}

/// Reads an allowed host (`host` or `host:port`; an IPv6 address bare or in brackets).
pub(crate) fn allowed_host(entry: &str) -> AllowedHost {
    let entry = entry.trim();
    match entry.parse::<Authority>() {
        Ok(authority) => AllowedHost {
            host: normalize(authority.host()),
            port: authority.port_u16(),
        },
        Err(_) => AllowedHost {
            host: normalize(entry),
            port: None,
        },
    }
}

/// The port a scheme implies when an origin leaves it out.
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" | "ws" => Some(80),
        "https" | "wss" => Some(443),
        _ => None,
    }
}

/// `scheme://host[:port]` split: the scheme in lower case and the authority, which holds no
/// userinfo, path, query or fragment.
fn split_origin(text: &str) -> Option<(String, Authority)> {
    let (scheme, rest) = text.trim().split_once("://")?;
    let valid_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !valid_scheme || rest.is_empty() || rest.contains(['@', '/', '?', '#']) {
        return None;
    }
    Some((scheme.to_ascii_lowercase(), rest.parse().ok()?))
}

/// Reads an allowed origin: `scheme://host`, `scheme://host:port` or `scheme://host:*`.
///
/// # Errors
/// Why the entry is not one (`null` is refused as an entry: anyone can send it).
pub(crate) fn allowed_origin(entry: &str) -> Result<AllowedOrigin, &'static str> {
    if entry.trim().eq_ignore_ascii_case("null") {
        return Err("`null` cannot be allowed: any page can send it");
    }
    let (text, any_port) = match entry.trim().strip_suffix(":*") {
        Some(base) => (base, true),
        None => (entry, false),
    };
    let (scheme, authority) = split_origin(text)
        .ok_or("expected scheme://host, scheme://host:port or scheme://host:*")?;
    if any_port && authority.port().is_some() {
        return Err("a port and `:*` both");
    }
    let port = if any_port {
        None
    } else {
        Some(authority.port_u16().or_else(|| default_port(&scheme)))
    };
    Ok(AllowedOrigin {
        host: normalize(authority.host()),
        scheme,
        port,
    })
}

/// The default allowed origins: pages served from this machine, `http` or `https`, any port.
pub(crate) fn loopback_origins() -> Vec<String> {
    ["localhost", "127.0.0.1", "[::1]"]
        .iter()
        .flat_map(|host| [format!("http://{host}:*"), format!("https://{host}:*")])
        .collect()
}

/// Why a request's `Host` or `Origin` keeps it out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kept {
    /// No `Host` (nor an HTTP/2 authority), or one that is not a host: 400.
    HostUnreadable(String),
    /// A host not allowed: 403.
    Host(String),
    /// An origin not allowed, `null`, or unreadable: 403.
    Origin(String),
}

/// Checks the request's `Host` (or HTTP/2 `:authority`) against `hosts` (any host when it is
/// empty), then its `Origin`, if any, against `origins`.
pub(crate) fn admit(
    uri: &Uri,
    headers: &HeaderMap,
    hosts: &[AllowedHost],
    origins: &[AllowedOrigin],
) -> Result<(), Kept> {
    let host = match headers.get(http::header::HOST) {
        Some(value) => {
            let text = value
                .to_str()
                .map_err(|_| Kept::HostUnreadable(String::new()))?;
            text.parse::<Authority>()
                .map_err(|_| Kept::HostUnreadable(text.to_owned()))?
        }
        None => uri
            .authority()
            .cloned()
            .ok_or_else(|| Kept::HostUnreadable(String::new()))?,
    };
    let (name, port) = (normalize(host.host()), host.port_u16());
    let host_allowed = hosts.is_empty()
        || hosts
            .iter()
            .any(|allowed| allowed.host == name && allowed.port.is_none_or(|p| Some(p) == port));
    if !host_allowed {
        return Err(Kept::Host(host.to_string()));
    }
    let Some(origin) = headers.get(http::header::ORIGIN) else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(origin.as_bytes());
    let Some((scheme, authority)) = split_origin(&text) else {
        return Err(Kept::Origin(text.into_owned()));
    };
    let (name, port) = (
        normalize(authority.host()),
        authority.port_u16().or_else(|| default_port(&scheme)),
    );
    let origin_allowed = origins.iter().any(|allowed| {
        allowed.scheme == scheme
            && allowed.host == name
            && allowed.port.is_none_or(|allowed| allowed == port)
    });
    if origin_allowed {
        Ok(())
    } else {
        Err(Kept::Origin(text.into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(host: &str, origin: Option<&str>, origins: &[&str]) -> Result<(), Kept> {
        let mut headers = HeaderMap::new();
        headers.insert(http::header::HOST, host.parse().unwrap());
        if let Some(origin) = origin {
            headers.insert(http::header::ORIGIN, origin.parse().unwrap());
        }
        let hosts: Vec<AllowedHost> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|h| allowed_host(h))
            .collect();
        let origins: Vec<AllowedOrigin> =
            origins.iter().map(|o| allowed_origin(o).unwrap()).collect();
        admit(&Uri::from_static("/mcp"), &headers, &hosts, &origins)
    }

    #[test]
    fn loopback_hosts_pass_on_any_port_and_others_are_kept_out() {
        assert_eq!(check("127.0.0.1:8931", None, &[]), Ok(()));
        assert_eq!(check("[::1]:8931", None, &[]), Ok(()));
        assert_eq!(check("LOCALHOST", None, &[]), Ok(()));
        assert_eq!(
            check("evil.example:8931", None, &[]),
            Err(Kept::Host("evil.example:8931".into()))
        );
        assert!(matches!(
            check("bad host", None, &[]),
            Err(Kept::HostUnreadable(_))
        ));
    }

    #[test]
    fn origins_match_scheme_host_and_port_and_null_never_passes() {
        let loopback = loopback_origins();
        let loopback: Vec<&str> = loopback.iter().map(String::as_str).collect();
        let host = "127.0.0.1:8931";
        assert_eq!(check(host, None, &loopback), Ok(()));
        assert_eq!(
            check(host, Some("http://localhost:3000"), &loopback),
            Ok(())
        );
        assert_eq!(check(host, Some("https://[::1]"), &loopback), Ok(()));
        for refused in [
            "https://evil.example",
            "null",
            "http://localhost.evil.example",
            "file://",
            "http://user@localhost",
            "http://localhost/path",
        ] {
            assert_eq!(
                check(host, Some(refused), &loopback),
                Err(Kept::Origin(refused.into())),
                "{refused}"
            );
        }
        let app = ["https://app.example", "http://dev.example:8080"];
        assert_eq!(check(host, Some("https://app.example:443"), &app), Ok(()));
        assert!(check(host, Some("https://app.example:8443"), &app).is_err());
        assert!(check(host, Some("http://app.example"), &app).is_err());
        assert_eq!(check(host, Some("http://dev.example:8080"), &app), Ok(()));
        assert!(check(host, Some("http://dev.example"), &app).is_err());
    }

    #[test]
    fn an_allowed_origin_entry_is_checked() {
        assert!(allowed_origin("null").is_err());
        assert!(allowed_origin("app.example").is_err());
        assert!(allowed_origin("https://app.example/path").is_err());
        assert!(allowed_origin("https://app.example:443:*").is_err());
        assert_eq!(
            allowed_origin("https://App.Example:*"),
            Ok(AllowedOrigin {
                scheme: "https".into(),
                host: "app.example".into(),
                port: None
            })
        );
    }
}
