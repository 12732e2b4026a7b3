//! Read, Write and Edit against a temporary directory.

use crate::common;

use std::fs;

use common::{error, text};
use serde_json::json;
use toolreg_tools::edit::EditTool;
use toolreg_tools::read::ReadTool;
use toolreg_tools::write::WriteTool;

#[test]
fn read_numbers_lines_like_cat_n() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "alpha\nbeta\r\n\ngamma").unwrap();
    let out = text::<ReadTool>(dir.path(), json!({"file_path": "a.txt"}));
    assert_eq!(out, "     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma");
}

#[test]
fn read_offset_is_a_one_based_line_and_limit_counts_lines() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (1..=10).map(|i| format!("line {i}\n")).collect();
    fs::write(dir.path().join("a.txt"), body).unwrap();
    let out = text::<ReadTool>(
        dir.path(),
        json!({"file_path": "a.txt", "offset": 3, "limit": 2}),
    );
    assert_eq!(
        out,
        "     3\tline 3\n     4\tline 4\n\n(Showing lines 3-4 of 10. Pass offset=5 to read on.)"
    );
}

#[test]
fn read_defaults_to_the_first_2000_lines() {
    let dir = tempfile::tempdir().unwrap();
    let body: String = (1..=2500).map(|i| format!("{i}\n")).collect();
    fs::write(dir.path().join("long.txt"), body).unwrap();
    let out = text::<ReadTool>(dir.path(), json!({"file_path": "long.txt"}));
    assert!(out.contains("  2000\t2000\n"));
    assert!(!out.contains("\t2001"));
    assert!(out.ends_with("(Showing lines 1-2000 of 2500. Pass offset=2001 to read on.)"));
}

#[test]
fn read_cuts_lines_longer_than_2000_characters() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("wide.txt"), "é".repeat(2500)).unwrap();
    let out = text::<ReadTool>(dir.path(), json!({"file_path": "wide.txt"}));
    assert_eq!(
        out,
        format!("     1\t{} [... line truncated]", "é".repeat(2000))
    );
}

#[test]
fn read_offset_past_the_end_says_how_long_the_file_is() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a.txt"), "one\ntwo\n").unwrap();
    let out = text::<ReadTool>(dir.path(), json!({"file_path": "a.txt", "offset": 9}));
    assert!(
        out.contains("has 2 lines, fewer than the requested offset 9"),
        "{out}"
    );
}

#[test]
fn read_missing_file_is_an_error_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<ReadTool>(dir.path(), json!({"file_path": "nope.txt"}));
    assert_eq!(
        message,
        format!(
            "File does not exist: {}",
            dir.path().join("nope.txt").display()
        )
    );
}

#[test]
fn read_directory_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<ReadTool>(dir.path(), json!({"file_path": "."}));
    assert!(message.contains("is a directory"), "{message}");
}

#[test]
fn read_reports_images_pdfs_and_binaries_as_not_text() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("pic.PNG"), b"\x89PNG\r\n\x1a\n\0\0").unwrap();
    fs::write(dir.path().join("doc.pdf"), b"%PDF-1.7\n").unwrap();
    fs::write(dir.path().join("blob.bin"), b"ab\0cd").unwrap();
    let png = text::<ReadTool>(dir.path(), json!({"file_path": "pic.PNG"}));
    assert!(png.contains("is a PNG image (10 bytes), not text"), "{png}");
    let pdf = text::<ReadTool>(dir.path(), json!({"file_path": "doc.pdf"}));
    assert!(
        pdf.contains("is a PDF document (9 bytes), not text"),
        "{pdf}"
    );
    let bin = text::<ReadTool>(dir.path(), json!({"file_path": "blob.bin"}));
    assert!(
        bin.contains("is a binary file (5 bytes), not text"),
        "{bin}"
    );
}

#[test]
fn read_empty_file_says_it_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("e.txt"), "").unwrap();
    let out = text::<ReadTool>(dir.path(), json!({"file_path": "e.txt"}));
    assert!(out.contains("exists but is empty"), "{out}");
}

#[test]
fn write_creates_missing_parent_directories() {
    let dir = tempfile::tempdir().unwrap();
    let out = text::<WriteTool>(
        dir.path(),
        json!({"file_path": "a/b/c.txt", "content": "hello\n"}),
    );
    assert!(out.starts_with("File created successfully at:"), "{out}");
    assert_eq!(
        fs::read_to_string(dir.path().join("a/b/c.txt")).unwrap(),
        "hello\n"
    );
}

#[test]
fn write_replaces_an_existing_file_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), "old").unwrap();
    let out = text::<WriteTool>(dir.path(), json!({"file_path": "f.txt", "content": "new"}));
    assert!(out.contains("has been overwritten"), "{out}");
    assert_eq!(fs::read_to_string(dir.path().join("f.txt")).unwrap(), "new");
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "only the file itself remains");
}

#[cfg(unix)]
#[test]
fn write_keeps_the_permissions_of_an_existing_file() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.sh");
    fs::write(&path, "#!/bin/sh\n").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    text::<WriteTool>(
        dir.path(),
        json!({"file_path": "run.sh", "content": "#!/bin/sh\necho\n"}),
    );
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o755
    );
}

#[test]
fn edit_replaces_a_single_match() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    let out = text::<EditTool>(
        dir.path(),
        json!({"file_path": "f.rs", "old_string": "fn b", "new_string": "fn c"}),
    );
    assert!(out.contains("has been updated (1 replacement)"), "{out}");
    assert!(out.contains("     2\tfn c() {}"), "{out}");
    assert_eq!(
        fs::read_to_string(dir.path().join("f.rs")).unwrap(),
        "fn a() {}\nfn c() {}\n"
    );
}

#[test]
fn edit_refuses_an_ambiguous_match_and_leaves_the_file_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let original = "x = 1\nx = 1\nx = 1\n";
    fs::write(dir.path().join("f.py"), original).unwrap();
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "f.py", "old_string": "x = 1", "new_string": "x = 2"}),
    );
    assert!(message.starts_with("Found 3 matches"), "{message}");
    assert!(message.contains("replace_all"), "{message}");
    assert!(message.contains("more surrounding context"), "{message}");
    assert_eq!(
        fs::read_to_string(dir.path().join("f.py")).unwrap(),
        original
    );
}

#[test]
fn edit_refuses_a_missing_match() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), "hello").unwrap();
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "f.txt", "old_string": "bye", "new_string": "ciao"}),
    );
    assert!(
        message.starts_with("String to replace not found"),
        "{message}"
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "hello"
    );
}

#[test]
fn edit_refuses_identical_strings() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), "hello").unwrap();
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "f.txt", "old_string": "hello", "new_string": "hello"}),
    );
    assert!(message.starts_with("No changes to make"), "{message}");
}

#[test]
fn edit_replace_all_changes_every_occurrence() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("f.txt"), "foo bar foo baz foo").unwrap();
    let out = text::<EditTool>(
        dir.path(),
        json!({"file_path": "f.txt", "old_string": "foo", "new_string": "qux", "replace_all": true}),
    );
    assert!(out.contains("(3 replacements)"), "{out}");
    assert_eq!(
        fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "qux bar qux baz qux"
    );
}

#[test]
fn edit_missing_file_is_an_error_naming_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "gone.txt", "old_string": "a", "new_string": "b"}),
    );
    assert!(message.contains("gone.txt"), "{message}");
}

#[test]
fn edit_with_empty_old_string_creates_a_file_but_never_overwrites_content() {
    let dir = tempfile::tempdir().unwrap();
    text::<EditTool>(
        dir.path(),
        json!({"file_path": "new/f.txt", "old_string": "", "new_string": "fresh"}),
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("new/f.txt")).unwrap(),
        "fresh"
    );
    let message = error::<EditTool>(
        dir.path(),
        json!({"file_path": "new/f.txt", "old_string": "", "new_string": "other"}),
    );
    assert!(message.contains("already has content"), "{message}");
    assert_eq!(
        fs::read_to_string(dir.path().join("new/f.txt")).unwrap(),
        "fresh"
    );
}

#[test]
fn edit_matches_lf_strings_in_a_crlf_file_and_keeps_crlf() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("w.txt"), "one\r\ntwo\r\nthree\r\n").unwrap();
    text::<EditTool>(
        dir.path(),
        json!({"file_path": "w.txt", "old_string": "one\ntwo", "new_string": "1\n2"}),
    );
    assert_eq!(
        fs::read_to_string(dir.path().join("w.txt")).unwrap(),
        "1\r\n2\r\nthree\r\n"
    );
}
