//! Size caps: one input never costs memory or time out of proportion. Peak heap use is measured
//! by a counting allocator, so the tests in this file run one at a time.

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::fs;
use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::{error, text};
use serde_json::json;
use toolreg_tools::edit::EditTool;
use toolreg_tools::grep::GrepTool;
use toolreg_tools::read::ReadTool;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static SERIAL: Mutex<()> = Mutex::new(());

// SAFETY: every call is forwarded to the system allocator; the counters are only statistics.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's layout is passed on unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most heap `f` used above what was live when it started.
fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    let out = f();
    (out, PEAK.load(Ordering::Relaxed).saturating_sub(base))
}

/// A file of `lines` lines of `width` bytes each, written in chunks.
fn big_file(path: &std::path::Path, lines: usize, width: usize) {
    let mut file = std::io::BufWriter::new(fs::File::create(path).unwrap());
    let row = format!("{}\n", "a".repeat(width));
    for _ in 0..lines {
        file.write_all(row.as_bytes()).unwrap();
    }
}

const MIB: usize = 1024 * 1024;

#[test]
fn read_of_a_huge_single_line_holds_only_what_it_returns() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    big_file(&dir.path().join("one.txt"), 1, 64 * MIB);
    let (out, peak) =
        peak_during(|| text::<ReadTool>(dir.path(), json!({"file_path": "one.txt", "limit": 1})));
    assert!(
        out.ends_with("[... line truncated]"),
        "{}",
        &out[out.len() - 40..]
    );
    assert!(peak < MIB, "reading one 64 MiB line used {peak} bytes");
}

#[test]
fn read_of_many_long_lines_stops_at_its_output_cap() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    big_file(&dir.path().join("wide.txt"), 2000, 4000);
    let (out, peak) =
        peak_during(|| text::<ReadTool>(dir.path(), json!({"file_path": "wide.txt"})));
    assert!(
        out.len() <= toolreg_tools::read::MAX_OUTPUT_BYTES + 2100,
        "{}",
        out.len()
    );
    assert!(
        out.contains("limit. Pass offset="),
        "{}",
        &out[out.len() - 200..]
    );
    assert!(peak < 4 * MIB, "{peak}");
}

#[test]
fn edit_whose_result_would_pass_the_cap_is_refused_before_it_is_built() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("x.txt"), "x".repeat(MIB)).unwrap();
    let huge = "y".repeat(MIB);
    let (message, peak) = peak_during(|| {
        error::<EditTool>(
            dir.path(),
            json!({"file_path": "x.txt", "old_string": "x", "new_string": huge, "replace_all": true}),
        )
    });
    // A million replacements of one byte by a MiB would be a TiB.
    assert!(message.contains("the most this tool writes"), "{message}");
    assert!(peak < 8 * MIB, "{peak}");
    assert_eq!(fs::read(dir.path().join("x.txt")).unwrap().len(), MIB);
}

#[test]
fn edit_refuses_a_file_past_the_cap_before_reading_it() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let file = fs::File::create(dir.path().join("big.txt")).unwrap();
    // Sparse: the size is there, the blocks are not.
    file.set_len(toolreg_tools::MAX_EDIT_BYTES + 1).unwrap();
    let (message, peak) = peak_during(|| {
        error::<EditTool>(
            dir.path(),
            json!({"file_path": "big.txt", "old_string": "a", "new_string": "b"}),
        )
    });
    assert!(message.contains("edits files of at most"), "{message}");
    assert!(peak < MIB, "{peak}");
}

#[test]
fn grep_content_of_a_huge_line_returns_a_bounded_line() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    big_file(&dir.path().join("one.txt"), 1, 16 * MIB);
    let out = text::<GrepTool>(
        dir.path(),
        json!({"pattern": "a", "output_mode": "content", "head_limit": 0}),
    );
    assert!(out.contains("[... line truncated]"), "{}", out.len());
    assert!(out.len() < 3 * 2000 * 4, "{}", out.len());
}

#[test]
fn grep_skips_a_file_whose_line_passes_the_searcher_heap_limit_and_says_so() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    big_file(
        &dir.path().join("huge.txt"),
        1,
        toolreg_tools::grep::MAX_SEARCH_HEAP_BYTES + MIB,
    );
    fs::write(dir.path().join("small.txt"), "a\n").unwrap();
    let (out, peak) = peak_during(|| {
        text::<GrepTool>(
            dir.path(),
            json!({"pattern": "a", "output_mode": "content"}),
        )
    });
    assert!(out.contains("small.txt:1:a"), "{out}");
    assert!(
        out.contains("1 file could not be read or searched"),
        "{out}"
    );
    // The searcher's buffer grows by doubling up to its limit, and no further.
    assert!(
        peak < 3 * toolreg_tools::grep::MAX_SEARCH_HEAP_BYTES,
        "{peak}"
    );
}

#[test]
fn grep_refuses_a_pattern_that_compiles_past_its_size_cap() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "aaaa\n").unwrap();
    // About 20 MiB compiled: under the grep libraries' own 100 MiB limit, over the tool's cap.
    let (message, peak) = peak_during(|| {
        error::<GrepTool>(
            dir.path(),
            json!({"pattern": "a{1000000}", "output_mode": "content"}),
        )
    });
    assert!(message.contains("invalid regex"), "{message}");
    assert!(message.contains("size limit"), "{message}");
    // Parsing the pattern costs about as much again as the compiled part that was refused.
    assert!(peak < 4 * toolreg_tools::grep::MAX_REGEX_BYTES, "{peak}");
}

#[test]
fn grep_refuses_a_pattern_nested_past_its_limit_instead_of_overflowing_the_stack() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "aaaa\n").unwrap();
    let root = dir.path().to_owned();
    // A thread with a small stack, as hosts give worker threads: 200 nested repetitions
    // recurse far past it unless the pattern is refused first.
    let message = std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(move || {
            let pattern = format!("a{}", "*".repeat(200));
            error::<GrepTool>(&root, json!({"pattern": pattern}))
        })
        .unwrap()
        .join()
        .unwrap();
    assert!(message.contains("invalid regex"), "{message}");
    assert!(message.contains("nest"), "{message}");
}
