//! NotebookEdit: replaces, inserts or deletes one cell of a Jupyter notebook.

use std::hash::{BuildHasher as _, Hasher as _};
use std::path::Path;

use registry_core::{InputSchema, Tool, ToolContext, ToolError, tool};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::util::{atomic_write, read_text, resolve};

/// Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb file).
///
/// - `notebook_path` should be an absolute path to a `.ipynb` file.
/// - `cell_id` names the cell: its `id`, or, for notebooks whose cells have no ids, its 0-based position written `cell-N` (or just `N`).
/// - `edit_mode` `replace` (the default) sets the cell's source to `new_source`; a code cell's outputs and execution count are cleared, and `cell_type` may change the cell's type.
/// - `insert` adds a new cell of `cell_type` (required) after the cell named by `cell_id`, or at the beginning when `cell_id` is omitted.
/// - `delete` removes the cell named by `cell_id`.
/// - The notebook is written atomically, in the indentation it had (Jupyter's own is one space).
/// - Read the notebook first so you know its cells.
#[tool(
    name = "NotebookEdit",
    defer,
    search_hint = "modify jupyter ipynb cells",
    max_result_size_chars = 100000
)]
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct NotebookEditTool {
    /// The absolute path to the Jupyter notebook file to edit.
    pub notebook_path: String,
    /// The id of the cell to edit (or its 0-based index as "cell-N"). When inserting, the new cell goes after this cell, or at the beginning if omitted.
    pub cell_id: Option<String>,
    /// The new source for the cell (ignored when deleting).
    #[serde(default)]
    pub new_source: String,
    /// The type of the cell. Required when inserting; when replacing, changes the cell's type.
    pub cell_type: Option<CellType>,
    /// The kind of edit: replace (default), insert or delete.
    pub edit_mode: Option<EditMode>,
}

/// A notebook cell's type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "lowercase")]
pub enum CellType {
    /// A code cell.
    Code,
    /// A Markdown cell.
    Markdown,
}

/// What NotebookEdit does to the cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, InputSchema)]
#[serde(rename_all = "lowercase")]
pub enum EditMode {
    /// Set the cell's source.
    Replace,
    /// Add a new cell.
    Insert,
    /// Remove the cell.
    Delete,
}

impl CellType {
    fn as_str(self) -> &'static str {
        match self {
            CellType::Code => "code",
            CellType::Markdown => "markdown",
        }
    }
}

impl Tool for NotebookEditTool {
    type Output = String;

    fn validate_input(&self, _: &ToolContext<'_>) -> Result<(), ToolError> {
        if !self.notebook_path.ends_with(".ipynb") {
            return Err(ToolError::new(format!(
                "{} is not a Jupyter notebook (.ipynb); use Edit for other files",
                self.notebook_path
            )));
        }
        let mode = self.edit_mode.unwrap_or(EditMode::Replace);
        if mode == EditMode::Insert && self.cell_type.is_none() {
            return Err(ToolError::new(
                "cell_type is required when inserting a cell: \"code\" or \"markdown\"",
            ));
        }
        if mode != EditMode::Insert && self.cell_id.is_none() {
            return Err(ToolError::new(
                "cell_id is required to replace or delete a cell",
            ));
        }
        Ok(())
    }

    fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let path = resolve(ctx, &self.notebook_path);
        let text = read_text(&path)?;
        let mut notebook: Value = serde_json::from_str(&text).map_err(|e| {
            ToolError::new(format!(
                "{} is not valid JSON, so it is not a notebook this tool can edit: {e}",
                path.display()
            ))
        })?;
        let with_ids = wants_ids(&notebook);
        let cells = notebook
            .as_object_mut()
            .ok_or_else(|| shape(&path, "the top level is not a JSON object"))?
            .get_mut("cells")
            .ok_or_else(|| shape(&path, "it has no \"cells\" field"))?
            .as_array_mut()
            .ok_or_else(|| shape(&path, "\"cells\" is not an array"))?;
        if let Some(i) = cells.iter().position(|cell| !cell.is_object()) {
            return Err(shape(&path, &format!("cell {i} is not a JSON object")));
        }
        let target = match &self.cell_id {
            Some(id) => Some(find_cell(cells, id).ok_or_else(|| {
                ToolError::new(format!(
                    "no cell with id {id:?} in {} (it has {} cells; ids are the cells' \"id\" fields, or cell-N for the 0-based position)",
                    path.display(),
                    cells.len()
                ))
            })?),
            None => None,
        };
        let message = match self.edit_mode.unwrap_or(EditMode::Replace) {
            EditMode::Replace => {
                let index = target.expect("validated");
                let cell = cells[index].as_object_mut().expect("checked above");
                replace(cell, &self.new_source, self.cell_type);
                format!("Updated cell {index} of {}.", path.display())
            }
            EditMode::Insert => {
                let index = target.map_or(0, |i| i + 1);
                let cell_type = self.cell_type.expect("validated");
                let id = with_ids.then(|| fresh_id(cells));
                cells.insert(index, new_cell(cell_type, &self.new_source, id.as_deref()));
                match id {
                    Some(id) => format!(
                        "Inserted a {} cell at position {index} (id {id:?}) in {}.",
                        cell_type.as_str(),
                        path.display()
                    ),
                    None => format!(
                        "Inserted a {} cell at position {index} in {}.",
                        cell_type.as_str(),
                        path.display()
                    ),
                }
            }
            EditMode::Delete => {
                let index = target.expect("validated");
                cells.remove(index);
                format!(
                    "Deleted cell {index} of {}; {} cells remain.",
                    path.display(),
                    cells.len()
                )
            }
        };
        atomic_write(&path, render(&notebook, &text)?.as_bytes())?;
        Ok(message)
    }
}

fn shape(path: &Path, what: &str) -> ToolError {
    ToolError::new(format!(
        "{} is not a Jupyter notebook: {what}",
        path.display()
    ))
}

/// Cells carry ids from nbformat 4.5 on, and whenever the notebook's cells already have them.
fn wants_ids(notebook: &Value) -> bool {
    let major = notebook["nbformat"].as_u64().unwrap_or(4);
    let minor = notebook["nbformat_minor"].as_u64().unwrap_or(0);
    let has_ids = notebook["cells"]
        .as_array()
        .is_some_and(|cells| cells.iter().any(|cell| cell.get("id").is_some()));
    major > 4 || (major == 4 && minor >= 5) || has_ids
}

/// The cell whose `id` is `id`; otherwise `cell-N` or `N` as a 0-based position.
fn find_cell(cells: &[Value], id: &str) -> Option<usize> {
    if let Some(i) = cells
        .iter()
        .position(|cell| cell["id"].as_str() == Some(id))
    {
        return Some(i);
    }
    let index: usize = id.strip_prefix("cell-").unwrap_or(id).parse().ok()?;
    (index < cells.len()).then_some(index)
}

/// Jupyter stores source as a list of lines, each but the last ending in `\n`.
fn source_lines(source: &str) -> Value {
    Value::Array(
        source
            .split_inclusive('\n')
            .map(|line| Value::String(line.to_owned()))
            .collect(),
    )
}

fn replace(cell: &mut Map<String, Value>, source: &str, cell_type: Option<CellType>) {
    cell.insert("source".to_owned(), source_lines(source));
    if let Some(cell_type) = cell_type {
        cell.insert("cell_type".to_owned(), json!(cell_type.as_str()));
    }
    if cell["cell_type"] == "code" {
        cell.insert("execution_count".to_owned(), Value::Null);
        cell.insert("outputs".to_owned(), json!([]));
    } else {
        cell.remove("execution_count");
        cell.remove("outputs");
    }
}

/// A new cell with its keys in Jupyter's (sorted) order.
fn new_cell(cell_type: CellType, source: &str, id: Option<&str>) -> Value {
    let mut cell = Map::new();
    cell.insert("cell_type".to_owned(), json!(cell_type.as_str()));
    if cell_type == CellType::Code {
        cell.insert("execution_count".to_owned(), Value::Null);
    }
    if let Some(id) = id {
        cell.insert("id".to_owned(), json!(id));
    }
    cell.insert("metadata".to_owned(), json!({}));
    if cell_type == CellType::Code {
        cell.insert("outputs".to_owned(), json!([]));
    }
    cell.insert("source".to_owned(), source_lines(source));
    Value::Object(cell)
}

/// An 8-hex-digit id no other cell has.
fn fresh_id(cells: &[Value]) -> String {
    let state = std::collections::hash_map::RandomState::new();
    for salt in 0u64.. {
        let mut hasher = state.build_hasher();
        hasher.write_u64(salt);
        hasher.write_usize(cells.len());
        let id = format!("{:08x}", hasher.finish() as u32);
        if !cells.iter().any(|cell| cell["id"].as_str() == Some(&id)) {
            return id;
        }
    }
    unreachable!("u64 ids exhausted")
}

/// Serializes in the original file's indentation (one space, as Jupyter writes, when it cannot
/// tell), keeping a final newline if the file had one.
fn render(notebook: &Value, original: &str) -> Result<String, ToolError> {
    let indent: Vec<u8> = original
        .lines()
        .nth(1)
        .map(|line| {
            line.bytes()
                .take_while(|b| *b == b' ' || *b == b'\t')
                .collect()
        })
        .filter(|indent: &Vec<u8>| !indent.is_empty())
        .unwrap_or_else(|| b" ".to_vec());
    let mut out = Vec::new();
    let formatter = serde_json::ser::PrettyFormatter::with_indent(&indent);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, formatter);
    notebook
        .serialize(&mut serializer)
        .map_err(|e| ToolError::new(format!("could not serialize the notebook: {e}")))?;
    let mut text = String::from_utf8(out).expect("serde_json writes UTF-8");
    if original.ends_with('\n') || original.is_empty() {
        text.push('\n');
    }
    Ok(text)
}
