//! Small collections the search layers share: sets of distinct query strings, sorted strings
//! keyed by their first bytes, and the best `k` tools of a search.

pub mod dense;
pub mod distinct;
pub mod sorted;
pub mod topk;
