//! Compile-time behaviour of `#[tool]` and `#[derive(InputSchema)]`: what compiles, and the
//! exact diagnostics for each misuse (the `.stderr` files next to the cases).
//!
//! A slow suite (every case is compiled): it runs with `TOOLREG_SLOW_TESTS=1`, which CI sets.
//! Regenerate the expected output with `TOOLREG_SLOW_TESTS=1 TRYBUILD=overwrite cargo test -p
//! toolreg-tests --test end_to_end ui::`, then read every changed file.

#[test]
fn ui() {
    if !toolreg_tests::slow_tests("the compile-fail cases (ui::)") {
        return;
    }
    let t = trybuild::TestCases::new();
    t.pass("ui/pass/**/*.rs");
    t.compile_fail("ui/fail/**/*.rs");
}
