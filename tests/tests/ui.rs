//! Compile-time behaviour of `#[tool]` and `#[derive(InputSchema)]`: what compiles, and the
//! exact diagnostics for each misuse (the `.stderr` files next to the cases).
//!
//! Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test -p toolreg-tests --test end_to_end ui::`, then read every changed file.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/**/*.rs");
    t.compile_fail("ui/fail/**/*.rs");
}
