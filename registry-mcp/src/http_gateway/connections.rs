//! The connections open, bounded by [`HttpOptions::max_connections`](super::HttpOptions).
//!
//! A connection is *quiet* from its accept until its first request arrives. At the limit, a new
//! connection takes the place of the oldest quiet one, which is closed: idle sockets opened to
//! fill the table cannot keep a client out, since a client sends its request right after
//! connecting. When every open connection has sent a request, the new one is closed at once
//! (shed). Quiet connections are also closed after the header timeout, and the oldest one when
//! accepting fails for want of a file descriptor.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

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
    /// The quiet connections by age: the peer, and what closes the connection.
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
    id: u64,
    close: CancellationToken,
    spoke: AtomicBool,
    connections: Arc<Connections>,
}

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
        let id = table.next;
        table.next += 1;
        let close = CancellationToken::new();
        table.quiet.insert(id, (peer, close.clone()));
        let slot = Slot {
            id,
            close,
            spoke: AtomicBool::new(false),
            connections: Arc::clone(self),
        };
        Admission::Admitted(Arc::new(slot), evicted)
    }

    /// Closes the oldest quiet connection; its peer, when there was one.
    pub(crate) fn evict_oldest(&self) -> Option<SocketAddr> {
        let (_, (peer, close)) = self.table().quiet.pop_first()?;
        close.cancel();
        Some(peer)
    }
}

impl Slot {
    /// Notes that a request arrived: the connection is no longer quiet.
    pub(crate) fn spoke(&self) {
        if !self.spoke.swap(true, Ordering::Relaxed) {
            self.connections.table().quiet.remove(&self.id);
        }
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

impl Drop for Slot {
    fn drop(&mut self) {
        let mut table = self.connections.table();
        table.open = table.open.saturating_sub(1);
        table.quiet.remove(&self.id);
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
        second.spoke();
        let Admission::Admitted(third, Some(evicted)) = connections.admit(peer(3)) else {
            panic!("third")
        };
        assert_eq!(evicted, peer(1));
        assert!(first.close.is_cancelled() && !second.close.is_cancelled());
        third.spoke();
        drop(first);
        assert!(matches!(connections.admit(peer(4)), Admission::Shed(2)));
        drop(third);
        assert!(matches!(
            connections.admit(peer(5)),
            Admission::Admitted(_, None)
        ));
    }
}
