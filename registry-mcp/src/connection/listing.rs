//! A server's tool list: every page of `tools/list`, within the [`Limits`].

use std::sync::atomic::Ordering;
use std::time::Duration;

use rmcp::model::{ClientRequest, ListToolsRequest, PaginatedRequestParams, ServerResult};
use serde_json::{Value, json};

use super::{Connection, peer_text};
use crate::limits::Limits;
use crate::server_error::{Problem, ServerError};
use crate::stdio::stderr_tail;

impl Connection {
    /// The server's tools, all pages, as `{"tools": [...]}`, each entry as the server sent it.
    ///
    /// The pages are read as JSON, not as rmcp's typed tools: one malformed entry (a schema
    /// that is not an object, a missing name) would fail the whole typed list, while
    /// [`load_servers`](toolreg::mcp::load_servers) skips and reports just that entry.
    /// A server that repeats a cursor, or sends more than [`Limits::max_listed_tools`]
    /// entries, is cut off there; one that goes past another of the [`Limits`] fails.
    pub(crate) async fn list_tools(
        &self,
        name: &str,
        timeout: Duration,
        limits: &Limits,
    ) -> Result<Value, ServerError> {
        self.shared.stale.store(false, Ordering::SeqCst);
        let fail = |problem| ServerError {
            server: name.to_owned(),
            problem,
            stderr: stderr_tail(&self.stderr),
        };
        match tokio::time::timeout(timeout, self.list_pages(limits)).await {
            Err(_) => Err(fail(Problem::TimedOut {
                stage: "tools/list",
                after: timeout,
            })),
            Ok(Err(problem)) => Err(fail(problem)),
            Ok(Ok(tools)) => Ok(json!({ "tools": tools })),
        }
    }

    async fn list_pages(&self, limits: &Limits) -> Result<Vec<Value>, Problem> {
        let peer = self.service.peer();
        let (mut tools, mut cursors) = (Vec::new(), std::collections::HashSet::new());
        let (mut pages, mut bytes) = (0usize, 0usize);
        let mut cursor: Option<String> = None;
        let failed = |message: String| Problem::ListTools(message);
        loop {
            if pages >= limits.max_pages {
                return Err(Problem::ListOverLimit {
                    limit: "max_pages",
                    detail: format!("the listing went on past {} pages", limits.max_pages),
                });
            }
            pages += 1;
            let request = ClientRequest::ListToolsRequest(ListToolsRequest {
                method: Default::default(),
                params: cursor
                    .clone()
                    .map(|cursor| PaginatedRequestParams::default().with_cursor(Some(cursor))),
                extensions: Default::default(),
            });
            let answer = peer.send_request(request).await.map_err(|error| {
                self.shared.check(&error);
                failed(peer_text(&error))
            })?;
            let page = match answer {
                ServerResult::ListToolsResult(page) => {
                    serde_json::to_value(page).map_err(|e| failed(e.to_string()))?
                }
                ServerResult::CustomResult(page) => page.0,
                _ => return Err(failed("the answer to tools/list is not a tool list".into())),
            };
            let size = json_bytes(&page);
            if size > limits.max_page_bytes {
                return Err(Problem::ListOverLimit {
                    limit: "max_page_bytes",
                    detail: format!(
                        "page {pages} has {size} bytes, over the {} a page may have",
                        limits.max_page_bytes
                    ),
                });
            }
            bytes = bytes.saturating_add(size);
            if bytes > limits.max_list_bytes {
                return Err(Problem::ListOverLimit {
                    limit: "max_list_bytes",
                    detail: format!(
                        "its {pages} pages have {bytes} bytes, over the {} a listing may have",
                        limits.max_list_bytes
                    ),
                });
            }
            match page.get("tools") {
                Some(Value::Array(entries)) => {
                    let room = limits.max_listed_tools.saturating_sub(tools.len());
                    tools.extend(entries.iter().take(room).cloned());
                }
                _ => {
                    return Err(failed(
                        "the answer to tools/list has no `tools` array".into(),
                    ));
                }
            }
            cursor = page
                .get("nextCursor")
                .and_then(Value::as_str)
                .map(str::to_owned);
            match &cursor {
                Some(next)
                    if tools.len() < limits.max_listed_tools && cursors.insert(next.clone()) => {}
                _ => return Ok(tools),
            }
        }
    }
}

/// The length of `value` as compact JSON, counted without building the text.
fn json_bytes(value: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(bytes.len());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}
