//! Work shared among threads, its results kept in order.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `work` on every item, one thread per worker (each thread has its worker's state to
/// itself: a sandbox, say), the items taken in turn as threads come free; the results in the
/// items' order. For tests whose items mostly wait on processes.
///
/// ```
/// let squares = toolreg_tests::in_order(&mut [(), ()], &[1, 2, 3], |_, n| n * n);
/// assert_eq!(squares, [1, 4, 9]);
/// ```
pub fn in_order<W, T, R>(
    workers: &mut [W],
    items: &[T],
    work: impl Fn(&mut W, &T) -> R + Sync,
) -> Vec<R>
where
    W: Send,
    T: Sync,
    R: Send,
{
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for worker in workers.iter_mut() {
            let (next, results, work) = (&next, &results, &work);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    let result = work(worker, item);
                    *results[index].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|result| {
            (result.into_inner().unwrap_or_else(|e| e.into_inner()))
                .expect("every item was taken by a worker")
        })
        .collect()
}
