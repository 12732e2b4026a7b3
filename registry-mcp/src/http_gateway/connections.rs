//! The connections open, bounded by [`HttpOptions::max_connections`](super::HttpOptions).
//!
//! A connection is *quiet* while none of its requests is in flight: from its accept until its
//! first request arrives, and again from the end of its last response (its body sent, or the
//! client gone) until its next request. At the limit, a new connection takes the place of the
//! connection quiet the longest, which is closed: sockets opened to fill the table, or kept open
//! after one request (HTTP/2 keeps a connection alive with pings), cannot keep a client out,
//! since a client sends its request right after connecting. When every open connection has a
//! request in flight, the new one is closed at once (shed). A connection that never sent a
//! request is also closed after the header timeout, and the one quiet the longest when
//! accepting fails for want of a file descriptor.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use http_body_util::BodyExt as _;
use http_body_util::combinators::BoxBody;
use hyper::body::{Body, Bytes, Frame, SizeHint};
use tokio_util::sync::{CancellationToken, WaitForCancellationFuture};

/// The table of open connections.
pub(crate) struct Connections {
    limit: usize,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    open: usize,
    next: u64,
    /// The quiet connections, the one quiet the longest first: the peer, and what closes the
    /// connection.
    quiet: BTreeMap<u64, (SocketAddr, CancellationToken)>,
}

/// What became of a new connection.
pub(crate) enum Admission {
    /// It is served; the quiet connection closed to make room for it, if one was.
    Admitted(Arc<Slot>, Option<SocketAddr>),
    /// The limit was reached and no connection was quiet: this many are open.
    Shed(usize),
}

/// One open connection's place in the table; dropping it frees the place.
pub(crate) struct Slot {
    peer: SocketAddr,
    /// Its key in the table's quiet connections while it is quiet (changed under the table's
    /// lock only).
    quiet_since: AtomicU64,
    close: CancellationToken,
    spoke: AtomicBool,
    /// Its requests in flight (changed under the table's lock only).
    in_flight: AtomicUsize,
    connections: Arc<Connections>,
}

/// One request in flight on a connection, from its arrival until its response's body has been
/// sent or dropped: while one is, the connection is not quiet.
pub(crate) struct InFlight(Arc<Slot>);

impl Connections {
    /// A table of at most `limit` connections (at least one).
    pub(crate) fn new(limit: usize) -> Arc<Connections> {
        Arc::new(Connections {
            limit: limit.max(1),
            table: Mutex::new(Table::default()),
        })
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a place for a connection from `peer`: a free one, or the oldest quiet
    /// connection's, which is closed.
    pub(crate) fn admit(self: &Arc<Self>, peer: SocketAddr) -> Admission {
        let mut table = self.table();
        let evicted = if table.open >= self.limit {
            match table.quiet.pop_first() {
                Some((_, (old, close))) => {
                    close.cancel();
                    Some(old)
                }
                None => return Admission::Shed(table.open),
            }
        } else {
            None
        };
        table.open += 1;
        let close = CancellationToken::new();
        let slot = Slot {
            peer,
            quiet_since: AtomicU64::new(table.quiet_from_now(peer, &close)),
            close,
            spoke: AtomicBool::new(false),
            in_flight: AtomicUsize::new(0),
            connections: Arc::clone(self),
        };
        Admission::Admitted(Arc::new(slot), evicted)
    }

    /// Closes the connection quiet the longest; its peer, when there was one.
    pub(crate) fn evict_oldest(&self) -> Option<SocketAddr> {
        let (_, (peer, close)) = self.table().quiet.pop_first()?;
        close.cancel();
        Some(peer)
    }
}

impl Table {
    /// Enters a connection as quiet from now; its key.
    fn quiet_from_now(&mut self, peer: SocketAddr, close: &CancellationToken) -> u64 {
        let key = self.next;
        self.next += 1;
        self.quiet.insert(key, (peer, close.clone()));
        key
    }
}

impl Slot {
    /// Notes that a request arrived: the connection is not quiet until the request's
    /// [`InFlight`] is dropped.
    pub(crate) fn begin(self: &Arc<Self>) -> InFlight {
        let mut table = self.connections.table();
        self.spoke.store(true, Ordering::Relaxed);
        if self.in_flight.fetch_add(1, Ordering::Relaxed) == 0 {
            table
                .quiet
                .remove(&self.quiet_since.load(Ordering::Relaxed));
        }
        InFlight(Arc::clone(self))
    }

    /// Whether a request arrived on it.
    pub(crate) fn has_spoken(&self) -> bool {
        self.spoke.load(Ordering::Relaxed)
    }

    /// Resolves when the table closes this connection.
    pub(crate) fn closed(&self) -> WaitForCancellationFuture<'_> {
        self.close.cancelled()
    }
}

impl InFlight {
    /// `body`, with this request in flight until it is dropped: hyper drops a response's body
    /// once it is sent, or once the client has gone.
    pub(crate) fn until_sent(self, body: BoxBody<Bytes, Infallible>) -> BoxBody<Bytes, Infallible> {
        Sending {
            body,
            _in_flight: self,
        }
        .boxed()
    }
}

/// A response's body and its request's [`InFlight`].
struct Sending {
    body: BoxBody<Bytes, Infallible>,
    _in_flight: InFlight,
}

impl Body for Sending {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let slot = &self.0;
        let mut table = slot.connections.table();
        if slot.in_flight.fetch_sub(1, Ordering::Relaxed) == 1 && !slot.close.is_cancelled() {
            let key = table.quiet_from_now(slot.peer, &slot.close);
            slot.quiet_since.store(key, Ordering::Relaxed);
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut table = self.connections.table();
        table.open = table.open.saturating_sub(1);
        table
            .quiet
            .remove(&self.quiet_since.load(Ordering::Relaxed));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(port: u16) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], port))
    }

    #[test]
    fn at_the_limit_the_oldest_quiet_connection_makes_room_and_then_new_ones_are_shed() {
        let connections = Connections::new(2);
        let Admission::Admitted(first, None) = connections.admit(peer(1)) else {
            panic!("first")
        };
        let Admission::Admitted(second, None) = connections.admit(peer(2)) else {
            panic!("second")
        };
        let _second_asks = second.begin();
        let Admission::Admitted(third, Some(evicted)) = connections.admit(peer(3)) else {
            panic!("third")
        };
        assert_eq!(evicted, peer(1));
        assert!(first.close.is_cancelled() && !second.close.is_cancelled());
        let third_asks = third.begin();
        drop(first);
        assert!(matches!(connections.admit(peer(4)), Admission::Shed(2)));
        drop((third_asks, third));
        assert!(matches!(
            connections.admit(peer(5)),
            Admission::Admitted(_, None)
        ));
    }

    #[test]
    fn a_connection_whose_last_response_ended_is_quiet_again_and_makes_room() {
        let connections = Connections::new(2);
        let Admission::Admitted(first, None) = connections.admit(peer(1)) else {
            panic!("first")
        };
        let Admission::Admitted(second, None) = connections.admit(peer(2)) else {
            panic!("second")
        };
        // The first asks twice at once, the second once; the second's response ends first.
        let (one, two) = (first.begin(), first.begin());
        drop(second.begin());
        drop(one);
        // The first still has a request in flight: the second, quiet again, makes room.
        let Admission::Admitted(third, Some(evicted)) = connections.admit(peer(3)) else {
            panic!("third")
        };
        assert_eq!(evicted, peer(2));
        assert!(second.close.is_cancelled() && !first.close.is_cancelled());
        let _third_asks = third.begin();
        assert!(matches!(connections.admit(peer(4)), Admission::Shed(3)));
        // Its last response ended, the first is the one quiet the longest.
        drop(two);
        let Admission::Admitted(_, Some(evicted)) = connections.admit(peer(5)) else {
            panic!("fifth")
        };
        assert_eq!(evicted, peer(1));
        assert!(first.close.is_cancelled());
    }
}
