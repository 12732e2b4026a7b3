//! The SDK type check: `tests/sdk-check/check.mjs` type-checks request and response bodies
//! against the official Anthropic and OpenAI SDKs (tsc --strict, `satisfies` on each body; see
//! its header), from the SDKs `tests/sdk-check/install.sh` installs into `target/sdk-check`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The variable that makes the check required: set, a check that cannot run fails instead of
/// skipping (CI sets it).
pub const REQUIRED: &str = "TOOLREG_REQUIRE_SDK_CHECK";

/// The SDKs' `node_modules`, installing them when missing (when [`REQUIRED`] or the slow suites
/// are on); `None`, after saying why on stderr, when they are not installed and the check is not
/// required.
///
/// # Panics
/// When they cannot be installed and [`REQUIRED`] is set.
pub fn node_modules() -> Option<PathBuf> {
    let node_modules = crate::workspace().join("target/sdk-check/node/node_modules");
    if !node_modules.join(".bin/tsc").exists() {
        let script = crate::workspace().join("tests/sdk-check/install.sh");
        let install = std::env::var_os(REQUIRED).is_some()
            || crate::slow_tests("installing the SDK type check (npm)");
        let status = if install {
            Command::new("bash").arg(&script).status()
        } else {
            Err(std::io::Error::other(
                "not installed outside the slow suites",
            ))
        };
        if !status.is_ok_and(|status| status.success()) || !node_modules.join(".bin/tsc").exists() {
            let reason = format!(
                "the SDK type check could not be installed ({})",
                script.display()
            );
            assert!(std::env::var_os(REQUIRED).is_none(), "{reason}");
            eprintln!("skipped: {reason}");
            return None;
        }
    }
    Some(node_modules)
}

/// Runs `check.mjs` over the case files in `cases`; its stdout, printed on stderr after
/// `heading`.
///
/// # Panics
/// When node cannot run or the check fails.
pub fn check(cases: &Path, node_modules: &Path, heading: &str) -> String {
    let output = Command::new("node")
        .arg(crate::workspace().join("tests/sdk-check/check.mjs"))
        .arg(cases)
        .env("SDK_CHECK_NODE_MODULES", node_modules)
        .output()
        .expect("run node");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    eprintln!(
        "{heading}{}{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "the SDK check failed:\n{stdout}");
    stdout
}
