//! A Streamable HTTP server's transport: its URL and headers, their `${VAR}`s expanded, the
//! bearer token among them sent as one.

use std::collections::{BTreeMap, HashMap};

use http::{HeaderName, HeaderValue};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

use crate::config::expand;

/// The transport of the server at `url`, sending `headers` (expanded with `lookup`) with every
/// request; an `Authorization: Bearer …` header becomes the transport's bearer token. Header
/// values are marked sensitive, and no message names one.
///
/// # Errors
/// A variable that is not set, or a header that is not one once expanded.
pub(crate) fn transport(
    url: &str,
    headers: &BTreeMap<String, String>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, String> {
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    let mut custom = HashMap::new();
    for (name, raw) in headers {
        let value = expand(raw, &lookup).map_err(|error| format!("header {name}: {error}"))?;
        if name.eq_ignore_ascii_case("authorization") {
            let bearer = value
                .split_once(' ')
                .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"));
            if let Some((_, token)) = bearer {
                config = config.auth_header(token.trim().to_owned());
                continue;
            }
        }
        let header = HeaderName::try_from(name.as_str())
            .map_err(|_| format!("`{name}` is not a header name"))?;
        let mut value = HeaderValue::try_from(value)
            .map_err(|_| format!("header {name}: its value is not a header value"))?;
        value.set_sensitive(true);
        custom.insert(header, value);
    }
    Ok(StreamableHttpClientTransport::from_config(
        config.custom_headers(custom),
    ))
}
