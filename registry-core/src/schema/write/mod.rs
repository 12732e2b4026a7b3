//! Rendering a schema tree as minified JSON, during const evaluation.
//!
//! Two passes over the same code: one counts the bytes ([`rendered_len`]), one writes them into
//! an array of exactly that size ([`render`]). Both renderings are decided by the tree's
//! structure alone; no rendered text is ever searched.

mod enums;
pub(super) mod generated;
mod object;

use super::kinds::{ANY, ARRAY, STRING, kinds};
use super::tree::{Data, Keywords, Kind, Schema};
use generated::{Generated, generated_of, next_generated};
use object::write_object;

/// How a schema tree is rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The schema as the model normally sees it.
    Standard,
    /// The strict-mode variant: all properties required, optional ones nullable, no extra
    /// properties, unions as `anyOf`, and only what both APIs' strict modes accept (see the
    /// [module](super) docs). Rendered for every tree; it is sent only when
    /// [`strict_refusal`](super::strict_refusal) finds nothing without one.
    Strict,
}

/// The number of bytes [`render`] writes for `schema`.
pub const fn rendered_len(schema: &Schema, mode: Mode) -> usize {
    let mut out = Out::counting(Generated::Absent);
    write_node(&mut out, schema, None, &Keywords::NONE, mode);
    out.pos
}

/// Renders `schema` as minified JSON into an array of exactly `N` bytes (`N` from
/// [`rendered_len`]). Panics during const evaluation when `N` is wrong.
pub const fn render<const N: usize>(schema: &Schema, mode: Mode) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out {
        buf: Some(&mut buf),
        pos: 0,
        generated: Generated::Absent,
    };
    write_node(&mut out, schema, None, &Keywords::NONE, mode);
    assert!(out.pos == N, "schema length mismatch");
    buf
}

/// Views rendered bytes as text; the renderer only writes UTF-8.
pub const fn as_str(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => panic!("rendered schema is not UTF-8"),
    }
}

/// Where rendered bytes go: a buffer, or nowhere (counting only).
pub(super) struct Out<'a> {
    pub(super) buf: Option<&'a mut [u8]>,
    pub(super) pos: usize,
    pub(super) generated: Generated<'a>,
}

impl<'a> Out<'a> {
    /// Counting only.
    pub(super) const fn counting(generated: Generated<'a>) -> Out<'a> {
        Out {
            buf: None,
            pos: 0,
            generated,
        }
    }
}

/// Appends `text`. Bytes past the end of the buffer are not written, but still counted, so that
/// [`render`]'s length check reports a buffer of the wrong size.
pub(super) const fn put(out: &mut Out<'_>, text: &str) {
    let mut bytes = text.as_bytes();
    if let Some(buf) = &mut out.buf
        && let Some((_, mut free)) = buf.split_at_mut_checked(out.pos)
    {
        while let Some((byte, rest)) = bytes.split_first() {
            let Some((slot, more)) = { free }.split_first_mut() else {
                break;
            };
            *slot = *byte;
            (bytes, free) = (rest, more);
        }
    }
    out.pos += text.len();
}

/// Appends a number in decimal.
pub(super) const fn put_u64(out: &mut Out<'_>, value: u64) {
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    let mut rest = value;
    loop {
        start -= 1;
        if let Some(slot) = digits.split_at_mut(start).1.first_mut() {
            *slot = b'0' + (rest % 10) as u8;
        }
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if let Ok(text) = core::str::from_utf8(digits.split_at(start).1) {
        put(out, text);
    }
}

/// Starts a member: a comma unless it is the object's first.
pub(super) const fn member(out: &mut Out<'_>, first: &mut bool) {
    if !*first {
        put(out, ",");
    }
    *first = false;
}

/// `"key":"text"`.
pub(super) const fn string_member(out: &mut Out<'_>, first: &mut bool, key: &str, text: &str) {
    member(out, first);
    put(out, "\"");
    put(out, key);
    put(out, "\":\"");
    put(out, text);
    put(out, "\"");
}

/// `"key":json` when present.
const fn json_member(out: &mut Out<'_>, first: &mut bool, key: &str, json: Option<&str>) {
    if let Some(json) = json {
        member(out, first);
        put(out, "\"");
        put(out, key);
        put(out, "\":");
        put(out, json);
    }
}

/// `"key":count` when present.
const fn count_member(out: &mut Out<'_>, first: &mut bool, key: &str, count: Option<u64>) {
    if let Some(count) = count {
        member(out, first);
        put(out, "\"");
        put(out, key);
        put(out, "\":");
        put_u64(out, count);
    }
}

/// Writes `{` + description + title + the node's members and keywords + `}`.
pub(super) const fn write_node(
    out: &mut Out<'_>,
    node: &Schema,
    description: Option<&str>,
    keywords: &Keywords,
    mode: Mode,
) {
    put(out, "{");
    let mut first = true;
    let generated = match generated_of(node, mode) {
        Some(generate) => Some(next_generated(out, generate)),
        None => None,
    };
    let description = match (description, generated) {
        (Some(text), _) => Some(text),
        (None, Some(generated)) => generated.description,
        (None, None) => None,
    };
    if let Some(text) = description {
        string_member(out, &mut first, "description", text);
    }
    if let (Mode::Standard, Some(title)) = (mode, keywords.title) {
        string_member(out, &mut first, "title", title);
    }
    match generated {
        Some(generated) => {
            if !generated.members.is_empty() {
                member(out, &mut first);
                put(out, generated.members);
            }
            write_keywords(out, ANY, keywords, &mut first, mode);
        }
        None => write_members(out, node, keywords, &mut first, mode),
    }
    put(out, "}");
}

const fn write_members(
    out: &mut Out<'_>,
    node: &Schema,
    keywords: &Keywords,
    first: &mut bool,
    mode: Mode,
) {
    match (node, mode) {
        (Schema::Optional(inner), Mode::Standard) => {
            write_members(out, inner, keywords, first, mode)
        }
        (Schema::Optional(inner), Mode::Strict) => {
            member(out, first);
            put(out, "\"anyOf\":[");
            write_node(out, inner, None, keywords, mode);
            put(out, ",{\"type\":\"null\"}]");
        }
        (Schema::Scalar { kind, low, high }, _) => {
            string_member(out, first, "type", kind.name());
            if matches!(mode, Mode::Standard) {
                let (low_key, high_key, low_stated, high_stated) = match kind {
                    Kind::Str => (
                        "minLength",
                        "maxLength",
                        keywords.min_length.is_some() || keywords.length_min.is_some(),
                        keywords.max_length.is_some() || keywords.length_max.is_some(),
                    ),
                    _ => (
                        "minimum",
                        "maximum",
                        keywords.minimum.is_some() || keywords.exclusive_minimum.is_some(),
                        keywords.maximum.is_some() || keywords.exclusive_maximum.is_some(),
                    ),
                };
                if !low_stated {
                    json_member(out, first, low_key, *low);
                }
                if !high_stated {
                    json_member(out, first, high_key, *high);
                }
            }
            write_keywords(out, kinds(node), keywords, first, mode);
        }
        _ => {
            write_type(out, node, first, mode);
            write_keywords(out, kinds(node), keywords, first, mode);
        }
    }
}

const fn write_type(out: &mut Out<'_>, node: &Schema, first: &mut bool, mode: Mode) {
    match node {
        Schema::Leaf(text) => {
            if !text.is_empty() {
                member(out, first);
                put(out, text);
            }
        }
        // Written by `write_node`; reached only where a node is written without its own
        // object, which a generated schema is never (it cannot be flattened).
        Schema::Generated(generate) => {
            let generated = next_generated(out, *generate);
            if !generated.members.is_empty() {
                member(out, first);
                put(out, generated.members);
            }
        }
        Schema::Scalar { kind, .. } => string_member(out, first, "type", kind.name()),
        Schema::Array { items, unique } => {
            member(out, first);
            put(out, "\"type\":\"array\",\"items\":");
            write_node(out, items, None, &Keywords::NONE, mode);
            if *unique && matches!(mode, Mode::Standard) {
                put(out, ",\"uniqueItems\":true");
            }
        }
        Schema::Map(values) => {
            member(out, first);
            put(out, "\"type\":\"object\",\"additionalProperties\":");
            write_node(out, values, None, &Keywords::NONE, mode);
        }
        Schema::Optional(inner) => write_type(out, inner, first, mode),
        Schema::Object(object) => {
            member(out, first);
            write_object(out, object, None, mode);
        }
        Schema::Enum(item) => {
            member(out, first);
            enums::write_enum(out, item, mode);
        }
    }
}

/// The keywords, in a fixed order. The strict rendering keeps only what the strict subsets
/// allow (`pattern`, `format`, `minItems`); a tree whose keywords go beyond has no strict form
/// anyway ([`strict_refusal`](super::strict_refusal)).
const fn write_keywords(
    out: &mut Out<'_>,
    kinds: u8,
    keywords: &Keywords,
    first: &mut bool,
    mode: Mode,
) {
    let standard = matches!(mode, Mode::Standard);
    let string = kinds & STRING != 0;
    let array = kinds & ARRAY != 0;
    if standard {
        json_member(out, first, "minimum", keywords.minimum);
        json_member(out, first, "maximum", keywords.maximum);
        json_member(out, first, "exclusiveMinimum", keywords.exclusive_minimum);
        json_member(out, first, "exclusiveMaximum", keywords.exclusive_maximum);
        count_member(out, first, "minLength", keywords.min_length);
        count_member(out, first, "maxLength", keywords.max_length);
        if string {
            count_member(out, first, "minLength", keywords.length_min);
            count_member(out, first, "maxLength", keywords.length_max);
        }
    }
    if let Some(pattern) = keywords.pattern {
        string_member(out, first, "pattern", pattern);
    }
    if let Some(format) = keywords.format {
        string_member(out, first, "format", format);
    }
    count_member(out, first, "minItems", keywords.min_items);
    if array {
        count_member(out, first, "minItems", keywords.length_min);
    }
    if standard {
        count_member(out, first, "maxItems", keywords.max_items);
        if array {
            count_member(out, first, "maxItems", keywords.length_max);
        }
        json_member(out, first, "default", keywords.default);
        if let Some((example, mut rest)) = keywords.examples.split_first() {
            member(out, first);
            put(out, "\"examples\":[");
            put(out, example);
            while let Some((example, more)) = rest.split_first() {
                put(out, ",");
                put(out, example);
                rest = more;
            }
            put(out, "]");
        }
        if keywords.deprecated {
            member(out, first);
            put(out, "\"deprecated\":true");
        }
    }
}

/// `Data` that is a value (newtype, tuple, struct), as one JSON schema object; unit data as
/// `{"type":"null"}`.
pub(super) const fn write_data(
    out: &mut Out<'_>,
    data: &Data,
    description: Option<&str>,
    mode: Mode,
) {
    match data {
        Data::Unit | Data::Other => {
            put(out, "{");
            let mut first = true;
            if let Some(text) = description {
                string_member(out, &mut first, "description", text);
            }
            member(out, &mut first);
            put(out, "\"type\":\"null\"}");
        }
        Data::Newtype(schema) => write_node(out, schema, description, &Keywords::NONE, mode),
        Data::Tuple(items) => {
            put(out, "{");
            let mut first = true;
            if let Some(text) = description {
                string_member(out, &mut first, "description", text);
            }
            member(out, &mut first);
            put(out, "\"type\":\"array\",\"prefixItems\":[");
            let mut rest = *items;
            let mut count: u64 = 0;
            while let Some((item, more)) = rest.split_first() {
                if count > 0 {
                    put(out, ",");
                }
                write_node(out, item, None, &Keywords::NONE, mode);
                count += 1;
                rest = more;
            }
            put(out, "],\"minItems\":");
            put_u64(out, count);
            put(out, ",\"maxItems\":");
            put_u64(out, count);
            put(out, "}");
        }
        Data::Struct(object) => {
            put(out, "{");
            let mut first = true;
            if let Some(text) = description {
                string_member(out, &mut first, "description", text);
            }
            member(out, &mut first);
            write_object(out, object, None, mode);
            put(out, "}");
        }
    }
}

/// Opens a branch object with its description; returns the member state.
pub(super) const fn open_branch(out: &mut Out<'_>, description: Option<&str>) -> bool {
    put(out, "{");
    let mut first = true;
    if let Some(text) = description {
        string_member(out, &mut first, "description", text);
    }
    first
}
