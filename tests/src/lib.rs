//! Test support for toolreg.
//!
//! * Integration tests live in `tests/`.
//! * [`fuzz`] holds the fuzz harnesses: one `pub fn <target>(data: &[u8])` per cargo-fuzz
//!   target of `fuzz/` (which only forwards to them), so the same code runs under libFuzzer and,
//!   over the committed seed corpora, as the ordinary test `tests/fuzz_corpus.rs`.
//! * The README's example runs as a doctest of this library, so the README cannot drift from
//!   the API.

#![deny(missing_docs)]

pub mod fuzz;

#[doc = include_str!("../../README.md")]
mod readme {}
