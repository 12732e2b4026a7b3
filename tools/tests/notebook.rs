//! NotebookEdit against a temporary directory.

use crate::common;

use std::fs;
use std::path::Path;

use common::{error, text};
use serde_json::{Value, json};
use toolreg_tools::notebook::NotebookEditTool;

/// A notebook as Jupyter writes it: sorted keys, one-space indentation, a final newline.
const NOTEBOOK: &str = r##"{
 "cells": [
  {
   "cell_type": "markdown",
   "id": "intro",
   "metadata": {},
   "source": [
    "# Title"
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 3,
   "id": "calc",
   "metadata": {},
   "outputs": [
    {
     "name": "stdout",
     "output_type": "stream",
     "text": [
      "2\n"
     ]
    }
   ],
   "source": [
    "print(1 + 1)"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
"##;

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("nb.ipynb"), NOTEBOOK).unwrap();
    dir
}

fn load(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("nb.ipynb")).unwrap()).unwrap()
}

#[test]
fn replace_sets_the_source_as_lines_and_clears_outputs() {
    let dir = fixture();
    let out = text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "calc", "new_source": "x = 2\nprint(x)"}),
    );
    assert!(out.starts_with("Updated cell 1"), "{out}");
    let nb = load(dir.path());
    let cell = &nb["cells"][1];
    assert_eq!(cell["source"], json!(["x = 2\n", "print(x)"]));
    assert_eq!(cell["outputs"], json!([]));
    assert_eq!(cell["execution_count"], Value::Null);
    assert_eq!(cell["id"], "calc");
}

#[test]
fn unchanged_parts_keep_jupyters_one_space_layout() {
    let dir = fixture();
    text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "intro", "new_source": "# Title"}),
    );
    // Replacing the markdown cell with its own source gives back the same bytes, except the
    // code cell which keeps its outputs untouched too.
    assert_eq!(
        fs::read_to_string(dir.path().join("nb.ipynb")).unwrap(),
        NOTEBOOK
    );
}

#[test]
fn replace_can_change_the_cell_type() {
    let dir = fixture();
    text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "calc", "new_source": "text", "cell_type": "markdown"}),
    );
    let cell = &load(dir.path())["cells"][1];
    assert_eq!(cell["cell_type"], "markdown");
    assert!(cell.get("outputs").is_none() && cell.get("execution_count").is_none());
}

#[test]
fn insert_adds_a_cell_after_the_named_one_with_a_fresh_id() {
    let dir = fixture();
    let out = text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "intro", "new_source": "import os",
               "cell_type": "code", "edit_mode": "insert"}),
    );
    assert!(
        out.starts_with("Inserted a code cell at position 1"),
        "{out}"
    );
    let nb = load(dir.path());
    let cells = nb["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 3);
    assert_eq!(cells[1]["source"], json!(["import os"]));
    assert_eq!(cells[1]["outputs"], json!([]));
    let id = cells[1]["id"].as_str().unwrap();
    assert_eq!(id.len(), 8);
    assert!(id != "intro" && id != "calc");
    assert_eq!(cells[2]["id"], "calc");
}

#[test]
fn insert_without_cell_id_goes_first_and_needs_a_cell_type() {
    let dir = fixture();
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "new_source": "x", "edit_mode": "insert"}),
    );
    assert!(message.contains("cell_type is required"), "{message}");
    text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "new_source": "first", "cell_type": "markdown", "edit_mode": "insert"}),
    );
    assert_eq!(load(dir.path())["cells"][0]["source"], json!(["first"]));
}

#[test]
fn delete_removes_the_cell_named_by_id_or_by_cell_n() {
    let dir = fixture();
    text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "cell-0", "edit_mode": "delete"}),
    );
    let nb = load(dir.path());
    assert_eq!(nb["cells"].as_array().unwrap().len(), 1);
    assert_eq!(nb["cells"][0]["id"], "calc");
    text::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "calc", "edit_mode": "delete"}),
    );
    assert_eq!(load(dir.path())["cells"], json!([]));
}

#[test]
fn unknown_cell_is_an_error_that_says_how_many_cells_there_are() {
    let dir = fixture();
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "cell-7", "new_source": "x"}),
    );
    assert!(message.contains("no cell with id \"cell-7\""), "{message}");
    assert!(message.contains("it has 2 cells"), "{message}");
}

#[test]
fn bad_json_is_refused_and_the_file_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("nb.ipynb"), "{ not json").unwrap();
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "0", "new_source": "x"}),
    );
    assert!(message.contains("is not valid JSON"), "{message}");
    assert_eq!(
        fs::read_to_string(dir.path().join("nb.ipynb")).unwrap(),
        "{ not json"
    );
}

#[test]
fn json_without_a_cells_array_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("nb.ipynb"), r#"{"cells": {}}"#).unwrap();
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "nb.ipynb", "cell_id": "0", "new_source": "x"}),
    );
    assert!(message.contains("\"cells\" is not an array"), "{message}");
}

#[test]
fn a_file_that_is_not_ipynb_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let message = error::<NotebookEditTool>(
        dir.path(),
        json!({"notebook_path": "notes.txt", "cell_id": "0", "new_source": "x"}),
    );
    assert!(message.contains("not a Jupyter notebook"), "{message}");
}
