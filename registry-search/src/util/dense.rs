//! Query-time arrays of the search strategies: one amount per tool or per server, and the pool
//! that keeps them between queries.

use std::ops::{Deref, DerefMut};
use std::sync::Mutex;

/// Non-negative amounts over `0..n`, dense, with the indices that hold one: adding and reading
/// cost one array access, and clearing costs only what was touched.
#[derive(Debug, Default)]
pub(crate) struct Dense {
    values: Vec<f32>,
    touched: Vec<u32>,
}

impl Dense {
    fn new(n: usize) -> Self {
        Dense {
            values: vec![0.0; n],
            touched: Vec::new(),
        }
    }

    /// Adds a positive `amount` (anything else is ignored).
    #[inline]
    pub(crate) fn add(&mut self, at: u32, amount: f32) {
        if amount > 0.0
            && let Some(slot) = self.values.get_mut(at as usize)
        {
            if *slot == 0.0 {
                self.touched.push(at);
            }
            *slot += amount;
        }
    }

    /// [`add`](Self::add), returning the value at `at` afterwards.
    #[inline]
    pub(crate) fn add_get(&mut self, at: u32, amount: f32) -> f32 {
        match self.values.get_mut(at as usize) {
            Some(slot) => {
                if amount > 0.0 {
                    if *slot == 0.0 {
                        self.touched.push(at);
                    }
                    *slot += amount;
                }
                *slot
            }
            None => 0.0,
        }
    }

    /// Raises the value at `at` to `amount` when that is more.
    #[inline]
    pub(crate) fn raise(&mut self, at: u32, amount: f32) {
        if let Some(slot) = self.values.get_mut(at as usize)
            && amount > *slot
        {
            if *slot == 0.0 {
                self.touched.push(at);
            }
            *slot = amount;
        }
    }

    /// How many amounts it holds (zeros included).
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn get(&self, at: u32) -> f32 {
        self.values.get(at as usize).copied().unwrap_or(0.0)
    }

    /// The indices holding an amount, each once, in the order they were first given one.
    pub(crate) fn touched(&self) -> &[u32] {
        &self.touched
    }

    pub(crate) fn clear(&mut self) {
        for at in self.touched.drain(..) {
            if let Some(slot) = self.values.get_mut(at as usize) {
                *slot = 0.0;
            }
        }
    }
}

/// Zeroed [`Dense`] arrays of the index's two sizes, kept between queries: a query leases what
/// it needs and each lease, when dropped, clears its array (which costs only the slots it
/// used) and gives it back. The pool holds as many arrays as were ever on loan at once. Without them a query would allocate and zero an array the size of
/// the pool several times over, more than the scoring itself costs in a large pool.
#[derive(Debug, Default)]
pub(crate) struct Buffers {
    tools: Mutex<Vec<Dense>>,
    servers: Mutex<Vec<Dense>>,
}

impl Buffers {
    /// An array of `n` zeros, one per tool.
    pub(crate) fn tools(&self, n: usize) -> Lease<'_> {
        Lease::take(&self.tools, n)
    }

    /// An array of `n` zeros, one per server.
    pub(crate) fn servers(&self, n: usize) -> Lease<'_> {
        Lease::take(&self.servers, n)
    }
}

/// A [`Dense`] array on loan from [`Buffers`].
#[derive(Debug)]
pub(crate) struct Lease<'a> {
    dense: Dense,
    home: &'a Mutex<Vec<Dense>>,
}

impl<'a> Lease<'a> {
    fn take(home: &'a Mutex<Vec<Dense>>, n: usize) -> Lease<'a> {
        // A poisoned pool only lost a lease to a panic; its arrays are still cleared ones.
        let kept = home.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let dense = kept
            .filter(|d| d.values.len() == n)
            .unwrap_or_else(|| Dense::new(n));
        Lease { dense, home }
    }
}

impl Deref for Lease<'_> {
    type Target = Dense;
    fn deref(&self) -> &Dense {
        &self.dense
    }
}

impl DerefMut for Lease<'_> {
    fn deref_mut(&mut self) -> &mut Dense {
        &mut self.dense
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        self.dense.clear();
        let dense = std::mem::take(&mut self.dense);
        self.home
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(dense);
    }
}
