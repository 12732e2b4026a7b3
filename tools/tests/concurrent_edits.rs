//! Concurrent edits of one file: an edit that reports success is never lost; one that would
//! overwrite another's change is refused with "file changed since it was read".

use crate::common;

use std::fs;
use std::sync::Barrier;

use common::call;
use serde_json::json;
use toolreg::ToolOutput;
use toolreg_tools::edit::EditTool;

#[test]
fn concurrent_edits_never_lose_a_reported_success() {
    const EDITS: usize = 40;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.txt");
    let body: String = (0..EDITS).map(|i| format!("line {i:02} todo\n")).collect();
    fs::write(&path, body).unwrap();
    let barrier = Barrier::new(EDITS);
    let results: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..EDITS)
            .map(|i| {
                let (barrier, dir) = (&barrier, dir.path());
                scope.spawn(move || {
                    barrier.wait();
                    let input = json!({
                        "file_path": "shared.txt",
                        "old_string": format!("line {i:02} todo"),
                        "new_string": format!("line {i:02} done"),
                    });
                    call::<EditTool>(dir, input)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let after = fs::read_to_string(&path).unwrap();
    let mut succeeded = 0;
    for (i, result) in results.iter().enumerate() {
        match result {
            Ok(ToolOutput::Text(_)) => {
                succeeded += 1;
                assert!(
                    after.contains(&format!("line {i:02} done")),
                    "edit {i} reported success but its change is gone"
                );
            }
            Err(error) => assert!(
                error.message().contains("file changed since it was read"),
                "edit {i}: {}",
                error.message()
            ),
            Ok(other) => panic!("edit {i}: {other:?}"),
        }
    }
    assert!(succeeded >= 1);
    assert_eq!(after.matches(" done").count(), succeeded, "{after}");
}
