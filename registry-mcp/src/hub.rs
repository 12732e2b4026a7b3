//! Many servers at once: connecting them side by side, their states, their tools as pool
//! entries, and calls routed to the right one.

use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use serde_json::Value;
use tokio::sync::Notify;
use toolreg::dispatch::{McpCall, McpCaller};
use toolreg::mcp::{McpTools, load_servers};
use toolreg::tool::BoxFuture;
use toolreg::{ToolError, ToolOutput};

use crate::config::{McpConfig, ServerSpec};
use crate::connection::Connection;
use crate::content::cap_result;
use crate::limits::{Limits, Timeouts};
use crate::server_error::{Problem, ServerError};

/// Where a server stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServerState {
    /// Connecting: its tools have not arrived yet.
    Pending,
    /// Connected, its tools listed.
    Connected {
        /// The negotiated protocol version (`2025-11-25`, `2026-07-28`).
        protocol: String,
        /// How many tools it listed.
        tools: usize,
    },
    /// Not connected, and why.
    Failed(ServerError),
}

/// A server's name and state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerStatus {
    /// The server, as configured.
    pub name: String,
    /// Its state.
    pub state: ServerState,
}

struct Slot {
    spec: ServerSpec,
    state: RwLock<SlotState>,
    retry: std::sync::Mutex<Retry>,
}

/// When a server that is not connected may be tried again.
#[derive(Default)]
struct Retry {
    /// Failed tries since it was last connected.
    failures: u32,
    /// Not before then.
    not_before: Option<Instant>,
}

enum SlotState {
    Pending,
    Connected {
        connection: Arc<Connection>,
        /// The last `tools/list` result.
        listed: Value,
    },
    Failed(ServerError),
}

/// The configured servers: each pending, connected or failed. Every method takes `&self`; the
/// hub is shared as an `Arc` (it is the dispatcher's [`McpCaller`]).
pub struct McpHub {
    slots: Vec<Slot>,
    timeouts: Timeouts,
    limits: Limits,
    /// The file of OAuth tokens ([`McpConfig::credentials`]).
    credentials: Option<std::path::PathBuf>,
    /// What a stdio server sees of this process's environment before its own `env`
    /// ([`McpConfig::environment`], less every variable the config references).
    environment: toolreg::sandbox::EnvPolicy,
    changed: Arc<Notify>,
    connected: Notify,
}

impl std::fmt::Debug for McpHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpHub")
            .field("servers", &self.statuses())
            .finish_non_exhaustive()
    }
}

impl McpHub {
    /// Connects every server of `config` side by side and returns when each is connected or
    /// failed (a server that hangs fails at its timeout; none holds up the others).
    pub async fn connect(config: &McpConfig, timeouts: Timeouts) -> Arc<McpHub> {
        McpHub::connect_with(config, timeouts, Limits::default()).await
    }

    /// [`connect`](Self::connect) with other [`Limits`] on what the servers send.
    pub async fn connect_with(
        config: &McpConfig,
        timeouts: Timeouts,
        limits: Limits,
    ) -> Arc<McpHub> {
        let hub = McpHub::pending(config, timeouts, limits);
        let all = (0..hub.slots.len()).map(|i| hub.connect_slot(i));
        futures_util::future::join_all(all).await;
        hub
    }

    /// Starts connecting every server of `config` in the background and returns at once, each
    /// server pending until its tools arrive. Needs a tokio runtime.
    pub fn start(config: &McpConfig, timeouts: Timeouts) -> Arc<McpHub> {
        McpHub::start_with(config, timeouts, Limits::default())
    }

    /// [`start`](Self::start) with other [`Limits`] on what the servers send.
    pub fn start_with(config: &McpConfig, timeouts: Timeouts, limits: Limits) -> Arc<McpHub> {
        let hub = McpHub::pending(config, timeouts, limits);
        for i in 0..hub.slots.len() {
            let hub = Arc::clone(&hub);
            tokio::spawn(async move { hub.connect_slot(i).await });
        }
        hub
    }

    fn pending(config: &McpConfig, timeouts: Timeouts, limits: Limits) -> Arc<McpHub> {
        let slots = config
            .servers
            .iter()
            .map(|spec| Slot {
                spec: spec.clone(),
                state: RwLock::new(SlotState::Pending),
                retry: std::sync::Mutex::default(),
            })
            .collect();
        Arc::new(McpHub {
            slots,
            timeouts,
            limits,
            credentials: config.credentials.clone(),
            environment: config.server_environment(),
            changed: Arc::new(Notify::new()),
            connected: Notify::new(),
        })
    }

    async fn connect_slot(&self, i: usize) {
        let Some(slot) = self.slots.get(i) else {
            return;
        };
        let name = &slot.spec.name;
        let changed = Arc::clone(&self.changed);
        let credentials = self.credentials.as_deref();
        let outcome = match Connection::open(
            &slot.spec,
            self.timeouts,
            changed,
            credentials,
            &self.environment,
        )
        .await
        {
            Ok(connection) => match connection
                .list_tools(name, self.timeouts.list, &self.limits)
                .await
            {
                Ok(listed) => Ok((connection, listed)),
                Err(error) => {
                    connection.close().await;
                    Err(error)
                }
            },
            Err(error) => Err(error),
        };
        let mut retry = slot.retry.lock().unwrap_or_else(|e| e.into_inner());
        *write(&slot.state) = match outcome {
            Ok((connection, listed)) => {
                *retry = Retry::default();
                SlotState::Connected {
                    connection: Arc::new(connection),
                    listed,
                }
            }
            Err(error) => {
                let wait = self
                    .timeouts
                    .retry_after
                    .saturating_mul(1 << retry.failures.min(16))
                    .min(self.timeouts.retry_max);
                retry.failures = retry.failures.saturating_add(1);
                retry.not_before = Some(Instant::now() + wait);
                SlotState::Failed(error)
            }
        };
        drop(retry);
        self.connected.notify_waiters();
    }

    /// Connects again every server that failed or whose session ended (its tools left the
    /// pool), each when its wait is over: a server's first try after its session ended is at
    /// once, and after each failed try the wait doubles, from
    /// [`Timeouts::retry_after`] up to [`Timeouts::retry_max`]. Returns the servers tried;
    /// [`statuses`](Self::statuses) tells how it went. Call it between turns, or keep
    /// [`keep_connected`](Self::keep_connected) running.
    pub async fn reconnect(&self) -> Vec<String> {
        let now = Instant::now();
        let due: Vec<usize> = (self.slots.iter().enumerate())
            .filter(|(_, slot)| {
                let down = match &*read(&slot.state) {
                    SlotState::Pending => false,
                    SlotState::Connected { connection, .. } => connection.is_closed(),
                    SlotState::Failed(_) => true,
                };
                let retry = slot.retry.lock().unwrap_or_else(|e| e.into_inner());
                down && retry.not_before.is_none_or(|at| at <= now)
            })
            .map(|(i, _)| i)
            .collect();
        for slot in due.iter().filter_map(|&i| self.slots.get(i)) {
            *write(&slot.state) = SlotState::Pending;
        }
        let tries = due.iter().map(|&i| self.connect_slot(i));
        futures_util::future::join_all(tries).await;
        (due.iter().filter_map(|&i| self.slots.get(i)))
            .map(|slot| slot.spec.name.clone())
            .collect()
    }

    /// Runs [`reconnect`](Self::reconnect) every second, forever: spawn it beside the host.
    pub async fn keep_connected(&self) {
        loop {
            self.reconnect().await;
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }

    /// Waits until no server is pending.
    pub async fn settled(&self) {
        loop {
            let notified = self.connected.notified();
            if self.pending_servers().is_empty() {
                return;
            }
            notified.await;
        }
    }

    /// Each server's state, in the order of the configuration.
    pub fn statuses(&self) -> Vec<ServerStatus> {
        self.slots
            .iter()
            .map(|slot| ServerStatus {
                name: slot.spec.name.clone(),
                state: match &*read(&slot.state) {
                    SlotState::Pending => ServerState::Pending,
                    SlotState::Connected { connection, .. } if connection.is_closed() => {
                        ServerState::Failed(ServerError {
                            server: slot.spec.name.clone(),
                            problem: Problem::Closed,
                            stderr: None,
                        })
                    }
                    SlotState::Connected { connection, listed } => ServerState::Connected {
                        protocol: connection.protocol.clone(),
                        tools: listed
                            .get("tools")
                            .and_then(Value::as_array)
                            .map_or(0, Vec::len),
                    },
                    SlotState::Failed(error) => ServerState::Failed(error.clone()),
                },
            })
            .collect()
    }

    /// The servers still connecting (what ToolSearch reports when it finds nothing).
    pub fn pending_servers(&self) -> Vec<String> {
        self.slots
            .iter()
            .filter(|slot| matches!(*read(&slot.state), SlotState::Pending))
            .map(|slot| slot.spec.name.clone())
            .collect()
    }

    /// The tools of the connected servers as pool entries, named in the order of the
    /// configuration (so the same servers always give the same names), with the entries a
    /// server got wrong reported beside them.
    pub fn tools(&self) -> McpTools {
        let lists = self.lists();
        load_servers(lists.iter().map(|(name, listed)| (name.as_str(), listed)))
    }

    /// Each connected server's last `tools/list` result (`{"tools": [...]}`), in the order of
    /// the configuration: what [`tools`](Self::tools) loads, for a host that loads them
    /// together with lists of its own.
    pub fn lists(&self) -> Vec<(String, Value)> {
        self.slots
            .iter()
            .filter_map(|slot| match &*read(&slot.state) {
                SlotState::Connected { connection, listed } if !connection.is_closed() => {
                    Some((slot.spec.name.clone(), listed.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// Waits until a server says its tools changed (`tools/list_changed`).
    pub async fn changed(&self) {
        self.changed.notified().await;
    }

    /// Fetches the tools again of every server that said they changed, and returns those
    /// servers (their schema-cache entries are stale: the host re-assembles its pool from
    /// [`tools`](Self::tools) at its next safe point, between turns). A server whose list fails
    /// now is marked failed.
    pub async fn refresh(&self) -> Vec<String> {
        let mut refreshed = Vec::new();
        for slot in &self.slots {
            let connection = match &*read(&slot.state) {
                SlotState::Connected { connection, .. } if connection.is_stale() => {
                    Arc::clone(connection)
                }
                _ => continue,
            };
            let name = &slot.spec.name;
            let listed = connection
                .list_tools(name, self.timeouts.list, &self.limits)
                .await;
            *write(&slot.state) = match listed {
                Ok(listed) => SlotState::Connected { connection, listed },
                Err(error) => SlotState::Failed(error),
            };
            refreshed.push(name.clone());
        }
        refreshed
    }

    fn connection(&self, server: &str) -> Result<Arc<Connection>, ToolError> {
        let slot = self
            .slots
            .iter()
            .find(|slot| slot.spec.name == server)
            .ok_or_else(|| ToolError::new(format!("no MCP server `{server}` is configured")))?;
        match &*read(&slot.state) {
            SlotState::Connected { connection, .. } if !connection.is_closed() => {
                Ok(Arc::clone(connection))
            }
            SlotState::Connected { .. } => Err(ToolError::new(format!(
                "MCP server `{server}` is no longer connected"
            ))),
            SlotState::Pending => Err(ToolError::new(format!(
                "MCP server `{server}` is still connecting"
            ))),
            SlotState::Failed(error) => Err(ToolError::new(error.to_string())),
        }
    }

    /// Ends every session.
    pub async fn close(&self) {
        for slot in &self.slots {
            let state = std::mem::replace(&mut *write(&slot.state), SlotState::Pending);
            if let SlotState::Connected { connection, .. } = state
                && let Ok(connection) = Arc::try_unwrap(connection)
            {
                connection.close().await;
            }
        }
    }
}

impl McpCaller for McpHub {
    fn call_tool<'a>(&'a self, call: McpCall<'a>) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let connection = self.connection(call.server)?;
            let outcome = connection.call(call, &self.timeouts).await;
            cap_result(outcome, self.limits.max_result_chars)
        })
    }
}

fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|e| e.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|e| e.into_inner())
}
