//! NotebookEdit: replaces, inserts or deletes one cell of a Jupyter notebook.

use std::hash::{BuildHasher as _, Hasher as _};
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use toolreg::permissions::Subject;
use toolreg::{InputSchema, Tool, ToolContext, ToolError, tool};

use crate::fs::{read_text, replace_if_unchanged};
use crate::profile::names::{EDIT, READ};
use crate::util::{checked, resolve};

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
    strict,
    name = "NotebookEdit",
    defer,
    destructive,
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

    fn rule_subject(&self, ctx: &ToolContext<'_>) -> Option<Subject> {
        Some(
            Subject::write(resolve(ctx, &self.notebook_path))
                .also_governed_by(&[EDIT])
                .also_reads_as(&[READ]),
        )
    }

    async fn call(self, ctx: &ToolContext<'_>) -> Result<String, ToolError> {
        self.validate_input(ctx)?;
        let path = checked(ctx, &self.notebook_path)?;
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
        let needs_cell = || ToolError::new("cell_id is required to replace or delete a cell");
        let message = match self.edit_mode.unwrap_or(EditMode::Replace) {
            EditMode::Replace => {
                let index = target.ok_or_else(needs_cell)?;
                let cell = cells
                    .get_mut(index)
                    .and_then(Value::as_object_mut)
                    .ok_or_else(|| shape(&path, &format!("cell {index} is not a JSON object")))?;
                replace(cell, &self.new_source, self.cell_type)
                    .map_err(|what| shape(&path, &format!("cell {index} {what}")))?;
                format!("Updated cell {index} of {}.", path.display())
            }
            EditMode::Insert => {
                let index = target.map_or(0, |i| i + 1);
                let cell_type = self.cell_type.ok_or_else(|| {
                    ToolError::new(
                        "cell_type is required when inserting a cell: \"code\" or \"markdown\"",
                    )
                })?;
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
                let index = target.ok_or_else(needs_cell)?;
                cells.remove(index);
                format!(
                    "Deleted cell {index} of {}; {} cells remain.",
                    path.display(),
                    cells.len()
                )
            }
        };
        let rendered = render(&notebook, &text)?;
        replace_if_unchanged(&path, Some(text.as_bytes()), rendered.as_bytes())?;
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
    let field = |name| notebook.get(name).and_then(Value::as_u64);
    let major = field("nbformat").unwrap_or(4);
    let minor = field("nbformat_minor").unwrap_or(0);
    let has_ids = notebook
        .get("cells")
        .and_then(Value::as_array)
        .is_some_and(|cells| cells.iter().any(|cell| cell.get("id").is_some()));
    major > 4 || (major == 4 && minor >= 5) || has_ids
}

/// The cell whose `id` is `id`; otherwise `cell-N` or `N` as a 0-based position.
fn find_cell(cells: &[Value], id: &str) -> Option<usize> {
    if let Some(i) = cells.iter().position(|cell| cell_id(cell) == Some(id)) {
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

/// A cell's `id`, when it has a string one.
fn cell_id(cell: &Value) -> Option<&str> {
    cell.get("id").and_then(Value::as_str)
}

/// Sets the cell's source (and type); a cell that has no type and gets none is an error, as
/// Jupyter could not open the notebook otherwise.
fn replace(
    cell: &mut Map<String, Value>,
    source: &str,
    cell_type: Option<CellType>,
) -> Result<(), &'static str> {
    if let Some(cell_type) = cell_type {
        cell.insert("cell_type".to_owned(), json!(cell_type.as_str()));
    }
    let is_code = match cell.get("cell_type").and_then(Value::as_str) {
        Some(kind) => kind == "code",
        None => return Err("has no string \"cell_type\"; pass cell_type to give it one"),
    };
    cell.insert("source".to_owned(), source_lines(source));
    if is_code {
        cell.insert("execution_count".to_owned(), Value::Null);
        cell.insert("outputs".to_owned(), json!([]));
    } else {
        cell.remove("execution_count");
        cell.remove("outputs");
    }
    Ok(())
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
        if !cells.iter().any(|cell| cell_id(cell) == Some(&id)) {
            return id;
        }
    }
    // More ids than cells can hold: the loop above returns long before.
    String::from("ffffffff")
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
    let mut text = String::from_utf8(out)
        .map_err(|e| ToolError::new(format!("could not serialize the notebook: {e}")))?;
    if original.ends_with('\n') || original.is_empty() {
        text.push('\n');
    }
    Ok(text)
}
