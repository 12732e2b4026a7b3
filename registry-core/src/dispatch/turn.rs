//! Running an assistant message's tool calls, as the design's host does.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::{Either, select};
use futures_util::stream::{FuturesOrdered, StreamExt as _};
pub use tokio_util::sync::CancellationToken;

use super::dispatcher::unreadable;
use crate::tool::ProgressSink;
use crate::{DispatchError, Dispatcher, ToolCall, ToolInfo, ToolResult};

/// The default for [`TurnOptions::max_concurrency`], as in the design's host.
pub const DEFAULT_MAX_CONCURRENCY: usize = 10;

/// How a turn runs.
#[derive(Clone)]
pub struct TurnOptions {
    /// The most concurrency-safe calls running at once (at least 1).
    pub max_concurrency: usize,
    /// Each call's timeout; `None` for none.
    pub timeout: Option<Duration>,
    /// Cancels the whole turn.
    pub cancel: CancellationToken,
    /// Where tools' progress reports go.
    pub progress: Option<Arc<ProgressSink>>,
}

impl Default for TurnOptions {
    fn default() -> Self {
        TurnOptions {
            max_concurrency: DEFAULT_MAX_CONCURRENCY,
            timeout: None,
            cancel: CancellationToken::new(),
            progress: None,
        }
    }
}

impl std::fmt::Debug for TurnOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TurnOptions")
            .field("max_concurrency", &self.max_concurrency)
            .field("timeout", &self.timeout)
            .field("cancelled", &self.cancel.is_cancelled())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// When one call ran, as offsets from the start of the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallTiming {
    /// When it started; `None` for a call cancelled before it started.
    pub started: Option<Duration>,
    /// When its result was ready.
    pub finished: Duration,
}

/// A turn's outcome: the results and when each call ran, both in the blocks' order.
///
/// The calls are taken in order. Consecutive concurrency-safe calls (the tool's
/// `concurrency_safe` flag) run together, at most [`TurnOptions::max_concurrency`] at a time; a
/// call that is not concurrency-safe (or names no tool of the pool) runs alone, after the ones
/// before it and before the ones after it. The results come back in the blocks' order, as one
/// user message of `tool_result` blocks
/// ([`anthropic::tool_results`](crate::wire::anthropic::tool_results)).
///
/// Each call may have a timeout; the whole turn has one [`CancellationToken`]: running tools
/// see it ([`ToolContext::cancelled`](crate::ToolContext::cancelled)) and are stopped when it
/// fires, calls not started yet get a "cancelled" `is_error` result without running. Tools
/// report progress to [`TurnOptions::progress`]. A panicking tool gives an `is_error` result
/// that keeps the panic's message; the other calls are not affected. A block whose id an
/// earlier block of the message already has is refused without running (its result would
/// answer both).
///
/// Timeouts use tokio's timer, so a turn runs inside a tokio runtime (current-thread or
/// multi-thread); everything else is runtime-agnostic.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// One result per `tool_use` block.
    pub results: Vec<ToolResult>,
    /// One timing per `tool_use` block.
    pub timings: Vec<CallTiming>,
}

impl Turn {
    /// The turn a host answers with when the user cancels before `calls` ran: every call
    /// answered as cancelled, in order, so the history stays well-formed.
    pub fn cancelled(calls: &[ToolCall]) -> Turn {
        let results: Vec<ToolResult> = calls
            .iter()
            .map(|call| {
                let tool = call.name.clone();
                ToolResult::from_error(&call.id, DispatchError::Cancelled { tool })
            })
            .collect();
        let timing = CallTiming {
            started: None,
            finished: Duration::ZERO,
        };
        Turn {
            timings: vec![timing; results.len()],
            results,
        }
    }
}

impl Dispatcher {
    /// Runs the calls of one assistant message (see the [module docs](crate::dispatch)), a
    /// response's [`calls`](crate::wire::ModelResponse::calls) for one. A call whose
    /// arguments could not be read is answered with an `is_error` result naming the problem,
    /// without running. The results are in the calls' order.
    pub async fn run_turn(&self, calls: &[ToolCall], options: &TurnOptions) -> Turn {
        let start = Instant::now();
        let mut seen = HashSet::with_capacity(calls.len());
        let duplicate: Vec<bool> = calls.iter().map(|call| !seen.insert(&call.id)).collect();
        // Each call's tool, found once.
        let found: Vec<(&ToolCall, Option<&Arc<ToolInfo>>)> = calls
            .iter()
            .map(|call| (call, self.pool().find(&call.name)))
            .collect();
        let mut done: Vec<(ToolResult, CallTiming)> = Vec::with_capacity(calls.len());
        let mut index = 0;
        let mut rest = &found[..];
        while !rest.is_empty() {
            // A call that will not run (its input unreadable) holds nothing up.
            let safe = rest
                .iter()
                .take_while(|(call, tool)| {
                    call.input.is_err() || tool.is_some_and(|tool| tool.flags.concurrency_safe)
                })
                .count();
            let (batch, after) = rest.split_at(safe.max(1));
            rest = after;
            let first = index;
            index += batch.len();
            let is_duplicate = |at: usize| duplicate.get(first + at).copied().unwrap_or(false);
            // At most `limit` running, results in the blocks' order. (Futures pushed by hand,
            // not a `map` closure over the batch: such a closure makes the turn's future fail
            // `Send` checks that name its lifetimes, as a server's handler does.)
            let limit = options.max_concurrency.max(1);
            let mut waiting = batch.iter().enumerate();
            let mut running = FuturesOrdered::new();
            for (at, &(call, tool)) in waiting.by_ref().take(limit) {
                running.push_back(self.run_one(call, tool, is_duplicate(at), options, start));
            }
            while let Some(outcome) = running.next().await {
                done.push(outcome);
                if let Some((at, &(call, tool))) = waiting.next() {
                    running.push_back(self.run_one(call, tool, is_duplicate(at), options, start));
                }
            }
        }
        let (results, timings) = done.into_iter().unzip();
        Turn { results, timings }
    }

    async fn run_one(
        &self,
        call: &ToolCall,
        found: Option<&Arc<ToolInfo>>,
        duplicate: bool,
        options: &TurnOptions,
        start: Instant,
    ) -> (ToolResult, CallTiming) {
        let tool = found.map_or_else(|| call.name.clone(), |tool| tool.name.clone());
        if duplicate {
            let error = DispatchError::DuplicateId {
                tool,
                id: call.id.clone(),
            };
            let timing = CallTiming {
                started: None,
                finished: start.elapsed(),
            };
            return (ToolResult::from_error(&call.id, error), timing);
        }
        if let Err(problem) = &call.input {
            let timing = CallTiming {
                started: None,
                finished: start.elapsed(),
            };
            return (
                ToolResult::from_error(&call.id, unreadable(call, problem)),
                timing,
            );
        }
        let cancelled = || DispatchError::Cancelled { tool: tool.clone() };
        if options.cancel.is_cancelled() {
            let result = ToolResult::from_error(&call.id, cancelled());
            let timing = CallTiming {
                started: None,
                finished: start.elapsed(),
            };
            return (result, timing);
        }
        let started = start.elapsed();
        let progress = options.progress.as_deref();
        let work = Box::pin(async {
            let dispatch = self.dispatch_in(call, found, &options.cancel, progress);
            match options.timeout {
                None => dispatch.await,
                Some(after) => match tokio::time::timeout(after, dispatch).await {
                    Ok(result) => result,
                    Err(_) => ToolResult::from_error(
                        &call.id,
                        DispatchError::TimedOut {
                            tool: tool.clone(),
                            after,
                        },
                    ),
                },
            }
        });
        // `select` polls the call first, so a tool that stops as soon as it sees the
        // cancellation gives its own answer rather than the runner's.
        let result = match select(work, Box::pin(options.cancel.cancelled())).await {
            Either::Left((result, _)) => result,
            Either::Right(((), _)) => ToolResult::from_error(&call.id, cancelled()),
        };
        let timing = CallTiming {
            started: Some(started),
            finished: start.elapsed(),
        };
        (result, timing)
    }
}
