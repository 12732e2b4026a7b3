//! A token's 2025-11-25 sessions: rmcp's in-memory session manager, with a cap on how many
//! are open at once and an idle time after which one ends (rmcp's `keep_alive`: a session
//! that neither receives a request nor sends a message for that long ends, and its id then
//! answers 404, upon which a client opens a new one). 2026-07-28 requests are served
//! statelessly and open no session.
//!
//! An `initialize` past the cap is refused by [`Sessions::create_session`], which rmcp turns
//! into a 500; the request's task is marked ([`watch`]) so the gateway answers 429 instead
//! and says why.

use std::cell::Cell;
use std::future::Future;
use std::time::Duration;

use futures_util::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::SessionManager;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError,
};
use rmcp::transport::streamable_http_server::session::{ServerSseMessage, SessionId};

tokio::task_local! {
    /// Set when the request this task serves was refused a session.
    static REFUSED: Cell<bool>;
}

/// Runs `request` (a request's handling) and tells whether it was refused a session.
pub(crate) async fn watch<F: Future>(request: F) -> (F::Output, bool) {
    REFUSED
        .scope(Cell::new(false), async move {
            let output = request.await;
            (output, REFUSED.with(Cell::get))
        })
        .await
}

/// One token's sessions.
pub(crate) struct Sessions {
    inner: LocalSessionManager,
    limit: usize,
    /// Held while counting and creating, so two `initialize`s cannot both take the last place.
    creating: tokio::sync::Mutex<()>,
}

impl Sessions {
    /// At most `limit` sessions (at least one), each ending after `idle` without activity.
    pub(crate) fn new(limit: usize, idle: Duration) -> Sessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = Some(idle);
        Sessions {
            inner,
            limit: limit.max(1),
            creating: tokio::sync::Mutex::new(()),
        }
    }
}

/// Why a session operation failed.
#[derive(Debug)]
pub(crate) enum SessionsError {
    /// The token holds its limit of sessions.
    Full(usize),
    /// rmcp's session manager failed.
    Local(LocalSessionManagerError),
}

impl std::fmt::Display for SessionsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionsError::Full(limit) => write!(f, "this token already holds {limit} sessions"),
            SessionsError::Local(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for SessionsError {}

impl From<LocalSessionManagerError> for SessionsError {
    fn from(error: LocalSessionManagerError) -> Self {
        SessionsError::Local(error)
    }
}

impl SessionManager for Sessions {
    type Error = SessionsError;
    type Transport = <LocalSessionManager as SessionManager>::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let _creating = self.creating.lock().await;
        if self.inner.sessions.read().await.len() >= self.limit {
            let _ = REFUSED.try_with(|refused| refused.set(true));
            return Err(SessionsError::Full(self.limit));
        }
        Ok(self.inner.create_session().await?)
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        Ok(self.inner.initialize_session(id, message).await?)
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        Ok(self.inner.has_session(id).await?)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        Ok(self.inner.close_session(id).await?)
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_stream(id, message).await?)
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        Ok(self.inner.accept_message(id, message).await?)
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.create_standalone_stream(id).await?)
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        Ok(self.inner.resume(id, last_event_id).await?)
    }
}
