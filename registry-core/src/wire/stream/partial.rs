//! Reading a JSON text that is still arriving: the value its complete part already says.

use serde_json::Value;

/// The deepest nesting read; a deeper prefix gives `None`.
const MAX_DEPTH: usize = 128;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// An object, and whether a key (and its `:`) was read and its value is awaited.
    Object {
        has_key: bool,
    },
    Array,
}

/// The value of the complete part of `prefix`, a JSON text cut anywhere: open strings are
/// closed, open objects and arrays closed after their last complete member; a member whose
/// value has not started, or a number or literal that may go on, is left out. `None` when
/// not even the outermost value has started, or the text is not JSON.
///
/// ```
/// use toolreg::wire::partial_json;
/// use serde_json::json;
///
/// assert_eq!(partial_json(r#"{"path": "src/ma"#), Some(json!({"path": "src/ma"})));
/// assert_eq!(partial_json(r#"{"a": [1, 2"#), Some(json!({"a": [1]})));
/// assert_eq!(partial_json(r#"{"a": 1, "b""#), Some(json!({"a": 1})));
/// ```
pub fn partial_json(prefix: &str) -> Option<Value> {
    let bytes = prefix.as_bytes();
    let mut stack: Vec<Open> = Vec::new();
    // The last point where a value ended (or a container opened): the text up to it reads as
    // JSON once the containers open there are closed.
    let mut checkpoint: Option<(usize, Vec<Open>)> = None;
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        match byte {
            b' ' | b'\t' | b'\n' | b'\r' | b',' | b':' => index += 1,
            b'{' | b'[' => {
                if stack.len() >= MAX_DEPTH {
                    return None;
                }
                value_read(&mut stack);
                stack.push(if byte == b'{' {
                    Open::Object { has_key: false }
                } else {
                    Open::Array
                });
                index += 1;
                checkpoint = Some((index, stack.clone()));
            }
            b'}' | b']' => {
                stack.pop();
                index += 1;
                checkpoint = Some((index, stack.clone()));
                if stack.is_empty() {
                    break;
                }
            }
            b'"' => {
                let is_key = matches!(stack.last(), Some(Open::Object { has_key: false }));
                match string_end(bytes, index + 1) {
                    Some(end) if is_key => {
                        index = end + 1;
                        if let Some(Open::Object { has_key }) = stack.last_mut() {
                            *has_key = true;
                        }
                    }
                    Some(end) => {
                        index = end + 1;
                        value_read(&mut stack);
                        checkpoint = Some((index, stack.clone()));
                    }
                    // An open key: the member is left out.
                    None if is_key => break,
                    // An open value string: kept up to its last whole character or escape.
                    None => {
                        let kept = whole_string_prefix(prefix.get(index + 1..)?);
                        value_read(&mut stack);
                        let text = format!("{}\"", prefix.get(..index + 1 + kept.len())?);
                        return close(&text, &stack);
                    }
                }
            }
            _ => {
                // A number or a literal: complete only when something follows it.
                let start = index;
                while bytes
                    .get(index)
                    .is_some_and(|byte| !b",]} \t\n\r:".contains(byte))
                {
                    index += 1;
                }
                if index == bytes.len() {
                    break;
                }
                serde_json::from_str::<Value>(prefix.get(start..index)?).ok()?;
                value_read(&mut stack);
                checkpoint = Some((index, stack.clone()));
            }
        }
    }
    let (end, open) = checkpoint?;
    close(prefix.get(..end)?, &open)
}

/// After a value of an object member, the object awaits a key again.
fn value_read(stack: &mut [Open]) {
    if let Some(Open::Object { has_key }) = stack.last_mut() {
        *has_key = false;
    }
}

/// The index of the quote that closes the string starting at `from`, if it is in `bytes`.
fn string_end(bytes: &[u8], from: usize) -> Option<usize> {
    let mut index = from;
    while let Some(byte) = bytes.get(index) {
        match byte {
            b'\\' => index += 2,
            b'"' => return Some(index),
            _ => index += 1,
        }
    }
    None
}

/// The longest prefix of an open string's text that ends on a whole character or escape.
fn whole_string_prefix(text: &str) -> &str {
    let mut end = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\\' {
            let len = if text.get(at + 1..at + 2) == Some("u") {
                6
            } else {
                2
            };
            if at + len > text.len() {
                break;
            }
            end = at + len;
            while chars.peek().is_some_and(|(next, _)| *next < end) {
                chars.next();
            }
        } else {
            end = at + c.len_utf8();
        }
    }
    text.get(..end).unwrap_or_default()
}

/// `text` with its open containers closed, read as JSON.
fn close(text: &str, open: &[Open]) -> Option<Value> {
    let mut closed = String::with_capacity(text.len() + open.len());
    closed.push_str(text);
    for container in open.iter().rev() {
        closed.push(match container {
            Open::Object { .. } => '}',
            Open::Array => ']',
        });
    }
    serde_json::from_str(&closed).ok()
}
