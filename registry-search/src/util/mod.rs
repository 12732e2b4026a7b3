//! Small collections the search layers share: sets of distinct query strings, sorted strings
//! keyed by their first bytes, and per-tool amounts kept between queries.

pub mod dense;
pub mod distinct;
pub mod sorted;
