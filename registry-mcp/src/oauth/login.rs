//! Logging in to a server behind OAuth: the authorization-code flow with PKCE, the browser
//! sent back to a listener on 127.0.0.1.

use std::fmt;
use std::io;
use std::time::Duration;

use rmcp::transport::auth::{AuthorizationManager, AuthorizationRequest, OAuthState};

use super::callback::Callback;
use super::{CredentialFile, describe};
use crate::config::{ServerSpec, Transport, expand};

/// How long [`login`] waits for the browser to come back.
const DEFAULT_WAIT: Duration = Duration::from_secs(300);

/// A finished login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoggedIn {
    /// The server, as configured.
    pub server: String,
    /// The client ID this program has with the authorization server.
    pub client_id: String,
    /// The authorization server's issuer, which the tokens are bound to.
    pub issuer: Option<String>,
}

/// Why a login did not finish.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoginError {
    /// The server is not a `"url"` entry.
    NotHttp,
    /// The entry's `"oauth"` object cannot be used: a `${VAR}` of its secret is not set.
    Config(String),
    /// The redirect listener could not listen on its port, or failed.
    Listen(io::Error),
    /// Discovery, registration or the token exchange failed (rmcp's words), or the redirect
    /// did not match the request (`state`, `iss`).
    Authorization(String),
    /// The authorization server sent the browser back with an error (`access_denied`, …).
    Denied {
        /// The `error` code.
        error: String,
        /// Its `error_description`, if any.
        description: Option<String>,
    },
    /// The browser did not come back in time.
    TimedOut(Duration),
    /// The tokens could not be saved.
    Store(io::Error),
}

impl fmt::Display for LoginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoginError::NotHttp => write!(f, "OAuth is for HTTP servers (a `url` entry)"),
            LoginError::Config(message) => write!(f, "oauth: {message}"),
            LoginError::Listen(error) => write!(f, "the redirect listener on 127.0.0.1: {error}"),
            LoginError::Authorization(message) => write!(f, "{message}"),
            LoginError::Denied {
                error,
                description: Some(description),
            } => write!(
                f,
                "the authorization server refused: {error} ({description})"
            ),
            LoginError::Denied { error, .. } => {
                write!(f, "the authorization server refused: {error}")
            }
            LoginError::TimedOut(after) => {
                write!(f, "no answer from the browser within {} s", after.as_secs())
            }
            LoginError::Store(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for LoginError {}

/// Logs in to `server` (a `"url"` entry) and saves its tokens in `store`: `open` is given the
/// authorization URL to show the user or open in a browser, and the login waits up to five
/// minutes for the browser to come back to 127.0.0.1.
///
/// # Errors
/// See [`LoginError`]; tokens already stored for the server stay as they were.
pub async fn login(
    server: &ServerSpec,
    store: &CredentialFile,
    open: impl FnOnce(&str),
) -> Result<LoggedIn, LoginError> {
    login_within(server, store, DEFAULT_WAIT, open).await
}

/// [`login`], waiting up to `wait` for the browser.
///
/// # Errors
/// See [`LoginError`].
pub async fn login_within(
    server: &ServerSpec,
    store: &CredentialFile,
    wait: Duration,
    open: impl FnOnce(&str),
) -> Result<LoggedIn, LoginError> {
    let Transport::Http { url, oauth, .. } = &server.transport else {
        return Err(LoginError::NotHttp);
    };
    let settings = oauth.clone().unwrap_or_default();
    let failed =
        |error: rmcp::transport::auth::AuthError| LoginError::Authorization(describe(&error));
    let callback = Callback::bind(settings.callback_port)
        .await
        .map_err(LoginError::Listen)?;
    let mut request =
        AuthorizationRequest::new(callback.redirect_uri()).with_client_name("toolreg");
    if let Some(client_id) = settings.client_id {
        request = request.with_preregistered_client(client_id);
    }
    if let Some(secret) = settings.client_secret {
        let secret = expand(&secret, |name| std::env::var(name).ok())
            .map_err(|message| LoginError::Config(format!("clientSecret: {message}")))?;
        request = request.with_client_secret(secret);
    }
    if let Some(document) = settings.client_metadata_url {
        request = request.with_client_metadata_url(document);
    }
    if !settings.scopes.is_empty() {
        request = request.with_scopes(settings.scopes);
    }

    let mut manager = AuthorizationManager::new(url.as_str())
        .await
        .map_err(failed)?;
    let credentials = store.for_server(url).map_err(LoginError::Store)?;
    manager.set_credential_store(credentials.clone());
    let mut state = OAuthState::Unauthorized(manager);
    state.start_authorization(request).await.map_err(failed)?;
    open(&state.get_authorization_url().await.map_err(failed)?);

    let redirect = tokio::time::timeout(wait, callback.redirect())
        .await
        .map_err(|_| LoginError::TimedOut(wait))?
        .map_err(LoginError::Listen)?;
    if let Some((error, description)) = refusal(&redirect.url) {
        redirect
            .answer(false, &format!("Authorization refused: {error}."))
            .await;
        return Err(LoginError::Denied { error, description });
    }
    if let Err(error) = state.handle_callback_url(&redirect.url).await {
        redirect
            .answer(false, "Authorization failed; see the terminal.")
            .await;
        return Err(failed(error));
    }
    redirect
        .answer(
            true,
            &format!(
                "toolreg is authorized for {}. You can close this tab.",
                server.name
            ),
        )
        .await;
    let (client_id, _) = state.get_credentials().await.map_err(failed)?;
    let issuer = credentials.issuer().await;
    Ok(LoggedIn {
        server: server.name.clone(),
        client_id,
        issuer,
    })
}

/// The `error` and `error_description` of a redirect that carries one.
fn refusal(url: &str) -> Option<(String, Option<String>)> {
    let url = url::Url::parse(url).ok()?;
    let find = |key: &str| {
        url.query_pairs()
            .find(|(name, _)| name == key)
            .map(|(_, value)| value.into_owned())
    };
    Some((find("error")?, find("error_description")))
}
