//! Integration tests live in `tests/`; this library only runs the README's example as a
//! doctest, so the README cannot drift from the API.

#[doc = include_str!("../../README.md")]
mod readme {}
