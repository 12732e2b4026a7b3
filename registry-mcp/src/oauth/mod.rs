//! OAuth 2.1 for Streamable HTTP servers, on rmcp's `auth` (feature `oauth`).
//!
//! A server behind OAuth is logged in to once, with [`login`]: it discovers the server's
//! authorization server (protected-resource metadata, then the authorization server's
//! metadata, its issuer checked), registers this client (a pre-registered client ID from the
//! entry's `"oauth"` object, a client-ID metadata document, or dynamic registration), opens the
//! authorization URL with PKCE (S256), waits for the redirect on 127.0.0.1, checks its `state`
//! and `iss`, and exchanges the code. The tokens go to a [`CredentialFile`] that only the user
//! can read.
//!
//! From then on the hub connects the server with those tokens whenever
//! [`McpConfig::credentials`](crate::McpConfig::credentials) names the file: an access token
//! that expires is refreshed (and the new one saved) before the request that needs it; a
//! refresh the authorization server refuses leaves the server failed with
//! [`Problem::LoginRequired`](crate::Problem::LoginRequired), as does an OAuth server no token
//! is stored for. Tokens stored under another issuer than the one the server names now are
//! dropped, not sent.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! use toolreg_mcp::{McpConfig, oauth};
//!
//! let mut config = McpConfig::parse(r#"{"mcpServers": {
//!     "notes": {"type": "http", "url": "https://notes.example/mcp", "oauth": {}}
//! }}"#)?;
//! config.credentials = Some("/home/me/.config/toolreg/credentials.json".into());
//! let store = oauth::CredentialFile::new(config.credentials.clone().unwrap());
//! let login = oauth::login(&config.servers[0], &store, |url| {
//!     println!("open {url} to authorize");
//! })
//! .await?;
//! println!("logged in to {} (issuer {})", login.server, login.issuer.unwrap_or_default());
//! # Ok(()) }
//! ```

mod callback;
mod login;
mod store;

pub use login::{LoggedIn, LoginError, login, login_within};
pub use store::CredentialFile;

use rmcp::transport::auth::{AuthError, AuthorizationManager};

/// The authorization manager of the server at `url` over the tokens `store` holds for it, or
/// `None` when it holds none (or only ones bound to another issuer, which it drops).
///
/// # Errors
/// The file cannot be read, or the server's metadata cannot be discovered.
pub(crate) async fn stored_manager(
    url: &str,
    store: &CredentialFile,
) -> Result<Option<AuthorizationManager>, String> {
    let server = store.for_server(url).map_err(|error| error.to_string())?;
    if !server.has_tokens().await {
        return Ok(None);
    }
    let mut manager = AuthorizationManager::new(url)
        .await
        .map_err(|error| describe(&error))?;
    manager.set_credential_store(server);
    if !manager
        .initialize_from_store()
        .await
        .map_err(|error| describe(&error))?
    {
        return Ok(None);
    }
    Ok(Some(manager))
}

/// An rmcp authorization error in words (its own, prefixed), a URL it quotes shown without
/// its secret parts ([`redact::urls_in`](crate::redact::urls_in)).
pub(crate) fn describe(error: &AuthError) -> String {
    crate::redact::urls_in(&format!("OAuth: {error}")).into_owned()
}
