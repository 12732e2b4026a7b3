//! Grep, Glob and NotebookEdit against a directory swapped for a link to a denied directory
//! while they run: a thread exchanges `pub/` (a real directory) and `swap` (a link to
//! `secrets/`) atomically in a tight loop, as a client's own Bash could, and each tool runs
//! many times through the dispatcher under `Read(./secrets/**)`. Whatever the interleaving, no
//! run may print a denied file's content or name, or write under `secrets/`.
//!
//! The runs count is fixed, never a duration: the tools walk from descriptors opened at check
//! time, so every run is safe, not most of them.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use rustix::fs::{CWD, RenameFlags, renameat_with};
use serde_json::{Value, json};
use toolreg::{
    Behavior, Dispatcher, PermissionContext, PermissionMode, RuleSource, ToolCall, ToolOutput,
    assemble_tool_pool,
};

/// What the denied files hold; no output may contain it.
const SECRET: &str = "TOPSECRET";

/// A notebook whose one cell holds `text`.
fn notebook(text: &str) -> String {
    json!({
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": [text]}],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 4
    })
    .to_string()
}

/// `proj/` with `pub/{key.txt,nb.ipynb}`, `secrets/{key.txt,nb.ipynb,hidden-name.txt}` and a
/// link `swap -> secrets`.
fn tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let proj = fs::canonicalize(dir.path()).unwrap().join("proj");
    fs::create_dir_all(proj.join("pub")).unwrap();
    fs::create_dir_all(proj.join("secrets")).unwrap();
    fs::write(proj.join("pub/key.txt"), "needle public\n").unwrap();
    fs::write(proj.join("pub/nb.ipynb"), notebook("public")).unwrap();
    fs::write(proj.join("secrets/key.txt"), format!("needle {SECRET}\n")).unwrap();
    fs::write(proj.join("secrets/hidden-name.txt"), "needle\n").unwrap();
    fs::write(proj.join("secrets/nb.ipynb"), notebook(SECRET)).unwrap();
    std::os::unix::fs::symlink("secrets", proj.join("swap")).unwrap();
    (dir, proj)
}

/// Exchanges `pub` and `swap` until dropped.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

impl Swapper {
    fn start(proj: &Path) -> Swapper {
        let stop = Arc::new(AtomicBool::new(false));
        let (a, b) = (proj.join("pub"), proj.join("swap"));
        let flag = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut swaps = 0;
            while !flag.load(Ordering::Relaxed) {
                renameat_with(CWD, &a, CWD, &b, RenameFlags::EXCHANGE).unwrap();
                swaps += 1;
            }
            swaps
        });
        Swapper {
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Swapper {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let swaps = thread.join().unwrap();
            assert!(swaps > 0, "the swapping thread never ran");
        }
    }
}

/// Runs `tool` with `input` `runs` times while `pub` and `swap` are exchanged; returns the
/// outputs that show `forbidden`.
///
/// Each test's runs are set so that a walk by path fails it every time: measured on 2 busy
/// cores, one Grep in 50 printed the secret, one Grep rooted at `pub` in 100, one Glob in 35.
fn race(tool: &str, input: Value, forbidden: &str, runs: usize) -> Vec<String> {
    let (_dir, proj) = tree();
    let mut rules = PermissionContext::new();
    rules.mode = PermissionMode::BypassPermissions;
    rules.set_project_root(&proj);
    rules.add(Behavior::Deny, RuleSource::User, "Read(./secrets/**)");
    rules.add(Behavior::Deny, RuleSource::User, "Edit(./secrets/**)");
    let env = common::env();
    let pool = assemble_tool_pool(&env, &rules, &common::catalog(), &[]);
    let dispatcher = Dispatcher::new(env, rules, pool, &proj);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut leaks = Vec::new();
    {
        let _swapper = Swapper::start(&proj);
        for _ in 0..runs {
            let result = runtime.block_on(dispatcher.dispatch(&ToolCall::new(
                "toolu_1",
                tool,
                input.clone(),
            )));
            let ToolOutput::Text(text) = result.content else {
                panic!("{tool} gave no text")
            };
            if text.contains(forbidden) {
                leaks.push(text);
            }
        }
    }
    let secret = fs::read_to_string(proj.join("secrets/nb.ipynb")).unwrap();
    assert_eq!(secret, notebook(SECRET), "{tool} wrote under secrets/");
    leaks
}

#[track_caller]
fn assert_no_leak(tool: &str, leaks: &[String]) {
    assert!(
        leaks.is_empty(),
        "{tool} showed denied content in {} runs, e.g.:\n{}",
        leaks.len(),
        leaks.first().map_or("", String::as_str)
    );
}

#[test]
fn grep_never_prints_a_denied_file_through_a_directory_swapped_for_a_link() {
    let leaks = race(
        "Grep",
        json!({"pattern": "needle", "output_mode": "content"}),
        SECRET,
        1000,
    );
    assert_no_leak("Grep", &leaks);
}

#[test]
fn grep_never_searches_a_denied_directory_swapped_in_for_its_root() {
    let leaks = race(
        "Grep",
        json!({"pattern": "needle", "path": "pub", "output_mode": "content"}),
        SECRET,
        1000,
    );
    assert_no_leak("Grep", &leaks);
}

#[test]
fn glob_never_lists_a_denied_name_through_a_directory_swapped_for_a_link() {
    let leaks = race("Glob", json!({"pattern": "**/*.txt"}), "hidden-name", 500);
    assert_no_leak("Glob", &leaks);
}

#[test]
fn notebook_edit_never_reads_or_writes_a_denied_notebook_through_a_swapped_directory() {
    let leaks = race(
        "NotebookEdit",
        json!({"notebook_path": "pub/nb.ipynb", "cell_id": "0", "new_source": "edited"}),
        SECRET,
        300,
    );
    assert_no_leak("NotebookEdit", &leaks);
}
