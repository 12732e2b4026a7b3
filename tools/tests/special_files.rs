//! The file tools and files that are not regular: FIFOs, devices, directories and symbolic
//! links are refused or followed, never blocked on and never replaced.
#![cfg(unix)]

use crate::common;

use std::ffi::CString;
use std::fs;
use std::os::unix::ffi::OsStrExt as _;
use std::os::unix::fs::{FileTypeExt as _, PermissionsExt as _};
use std::path::Path;

use common::{error, text};
use serde_json::json;
use toolreg_tools::edit::EditTool;
use toolreg_tools::notebook::NotebookEditTool;
use toolreg_tools::read::ReadTool;
use toolreg_tools::write::WriteTool;

fn mkfifo(path: &Path) {
    let name = CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo touches no memory of ours.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
}

fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_symlink()
}

fn is_fifo(path: &Path) -> bool {
    fs::symlink_metadata(path).unwrap().file_type().is_fifo()
}

#[test]
fn read_refuses_a_fifo_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe"));
    let message = error::<ReadTool>(dir.path(), json!({"file_path": "pipe"}));
    assert!(message.contains("is a FIFO"), "{message}");
}

#[test]
fn edit_and_notebook_edit_refuse_a_fifo_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("pipe"));
    mkfifo(&dir.path().join("pipe.ipynb"));
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "pipe", "old_string": "a", "new_string": "b"}),
    );
    assert!(message.contains("is a FIFO"), "{message}");
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "pipe.ipynb", "cell_id": "0", "new_source": "x"}),
    );
    assert!(message.contains("is a FIFO"), "{message}");
}

#[test]
fn write_and_edit_do_not_replace_a_fifo() {
    let dir = tempfile::tempdir().unwrap();
    let pipe = dir.path().join("pipe");
    mkfifo(&pipe);
    let message = error::<WriteTool>(dir.path(), json!({"file_path": "pipe", "content": "x"}));
    assert!(message.contains("is a FIFO"), "{message}");
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "pipe", "old_string": "", "new_string": "x"}),
    );
    assert!(message.contains("is a FIFO"), "{message}");
    assert!(is_fifo(&pipe), "the FIFO is still a FIFO");
}

#[test]
fn read_refuses_a_character_device() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<ReadTool>(dir.path(), json!({"file_path": "/dev/zero"}));
    assert!(message.contains("is a character device"), "{message}");
}

#[test]
fn write_through_a_link_to_a_device_is_refused_and_the_link_kept() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("null");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let message = error::<WriteTool>(dir.path(), json!({"file_path": "null", "content": "x"}));
    assert!(message.contains("is a character device"), "{message}");
    assert!(is_link(&link));
}

#[test]
fn write_through_a_symlink_writes_the_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("real.txt"), "old").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    text::<WriteTool>(
        dir.path(),
        json!({"file_path": "link.txt", "content": "new"}),
    );
    assert!(is_link(&link));
    assert_eq!(
        fs::read_to_string(dir.path().join("real.txt")).unwrap(),
        "new"
    );
}

#[test]
fn edit_through_a_symlink_edits_the_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("real.txt"), "alpha beta").unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("real.txt", &link).unwrap();
    text::<EditTool>(
        dir.path(),
        json!({"file_path": "link.txt", "old_string": "beta", "new_string": "gamma"}),
    );
    assert!(is_link(&link));
    assert_eq!(
        fs::read_to_string(dir.path().join("real.txt")).unwrap(),
        "alpha gamma"
    );
}

#[test]
fn write_through_a_dangling_symlink_creates_its_target_as_the_kernel_would() {
    let dir = tempfile::tempdir().unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink("nowhere/real.txt", &link).unwrap();
    text::<WriteTool>(dir.path(), json!({"file_path": "link.txt", "content": "x"}));
    assert!(is_link(&link), "the link stays a link");
    assert_eq!(
        fs::read_to_string(dir.path().join("nowhere/real.txt")).unwrap(),
        "x"
    );
}

#[test]
fn new_files_follow_the_umask() {
    let dir = tempfile::tempdir().unwrap();
    // SAFETY: umask(2) only swaps the process's mask.
    let old = unsafe { libc::umask(0o027) };
    text::<WriteTool>(dir.path(), json!({"file_path": "w.txt", "content": "x"}));
    text::<EditTool>(
        dir.path(),
        json!({"file_path": "e.txt", "old_string": "", "new_string": "x"}),
    );
    // SAFETY: as above.
    unsafe { libc::umask(old) };
    for name in ["w.txt", "e.txt"] {
        let mode = fs::metadata(dir.path().join(name))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "{name}: {mode:o}");
    }
}

#[test]
fn existing_files_keep_their_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.sh");
    fs::write(&path, "echo a").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o751)).unwrap();
    text::<EditTool>(
        dir.path(),
        json!({"file_path": "run.sh", "old_string": "a", "new_string": "b"}),
    );
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o751
    );
}

#[test]
fn notebook_cell_without_cell_type_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("n.ipynb"),
        r#"{"cells": [{"source": ["x"], "metadata": {}}], "nbformat": 4, "nbformat_minor": 4}"#,
    )
    .unwrap();
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "n.ipynb", "cell_id": "0", "new_source": "y"}),
    );
    assert!(message.contains("cell_type"), "{message}");
    let ok = text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "n.ipynb", "cell_id": "0", "new_source": "y", "cell_type": "markdown"}),
    );
    assert!(ok.contains("Updated cell 0"), "{ok}");
}
