//! Compile-time behaviour of `#[tool]` and `#[derive(InputSchema)]`: what compiles, and the
//! exact diagnostics for each misuse (the `.stderr` files next to the cases).
//!
//! A slow suite (every case is compiled): it runs with `TOOLREG_SLOW_TESTS=1`, which CI sets.
//! Regenerate the expected output with `TOOLREG_SLOW_TESTS=1 TRYBUILD=overwrite cargo test -p
//! toolreg-macros --test ui`, then read every changed file.
//!
//! The cases live in this crate, whose dev-dependencies are only what they use, because trybuild
//! compiles them in a project that depends on every dev-dependency of the crate that runs them.

#[test]
fn ui() {
    let on = std::env::var_os("TOOLREG_SLOW_TESTS")
        .is_some_and(|value| !value.is_empty() && value != "0");
    if !on {
        eprintln!(
            "skipped: the compile-fail cases are a slow suite; set TOOLREG_SLOW_TESTS=1 to run them (CI does)"
        );
        return;
    }
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/**/*.rs");
    t.compile_fail("tests/ui/fail/**/*.rs");
}
