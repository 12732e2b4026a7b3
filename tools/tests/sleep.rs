//! Sleep (built with `PROACTIVE` or `KAIROS`).
#![cfg(any(feature = "PROACTIVE", feature = "KAIROS"))]

use crate::common;

use std::time::{Duration, Instant};

use common::{error, text};
use serde_json::json;
use toolreg_tools::sleep::SleepTool;

#[test]
fn sleep_waits_the_given_seconds_and_says_how_long() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let out = text::<SleepTool>(dir.path(), json!({"duration_seconds": 0.2}));
    assert!(started.elapsed() >= Duration::from_millis(200));
    assert_eq!(out, "Slept for 0.2 seconds.");
}

#[test]
fn sleep_is_bounded_to_an_hour_and_above_zero() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [0.0, -1.0, 3600.5] {
        let message = error::<SleepTool>(dir.path(), json!({"duration_seconds": bad}));
        assert!(message.contains("at most 3600"), "{message}");
    }
}
