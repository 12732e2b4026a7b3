//! Schemas with parts known only at run time ([`Schema::Generated`], from schemars): how the
//! one writer renders them, and how to tell a tree holds one.
//!
//! During const evaluation a generated node cannot be rendered (its function cannot be called),
//! so a tree holding one renders at run time, by [`to_json`]: a first pass over the tree records
//! the nodes' functions in the order the writer meets them, their texts are generated, and the
//! next passes write them in the same order.

use super::tree::{Data, Field, Generated as GeneratedText, Keywords, Schema};
use super::write::generated::Generated;
use super::write::{Mode, Out, write_node};

/// Renders `schema` at run time: the schema of a type outside a tool's descriptor, or a tree
/// holding [`Schema::Generated`] members, whose functions are called here (in the order the
/// writer meets them).
///
/// ```
/// use toolreg::InputSchema;
/// use toolreg::schema::{Mode, to_json};
/// assert_eq!(to_json(&<Option<u64> as InputSchema>::SCHEMA, Mode::Standard), r#"{"type":"integer","minimum":0}"#);
/// ```
pub fn to_json(schema: &Schema, mode: Mode) -> String {
    let mut counted = Out::counting(Generated::Record {
        seen: 0,
        into: &mut [],
    });
    write_node(&mut counted, schema, None, &Keywords::NONE, mode);
    let mut texts: Vec<GeneratedText> = Vec::new();
    if let Generated::Record { seen, .. } = counted.generated
        && seen > 0
    {
        let mut functions = vec![None; seen];
        let mut recorded = Out::counting(Generated::Record {
            seen: 0,
            into: &mut functions,
        });
        write_node(&mut recorded, schema, None, &Keywords::NONE, mode);
        texts = functions
            .into_iter()
            .map(|function| {
                function.map_or_else(GeneratedText::default, |generate: fn() -> GeneratedText| {
                    generate()
                })
            })
            .collect();
    }
    let mut measured = Out::counting(Generated::Texts {
        next: 0,
        texts: &texts,
    });
    write_node(&mut measured, schema, None, &Keywords::NONE, mode);
    let mut buf = vec![0u8; measured.pos];
    let mut out = Out {
        buf: Some(&mut buf),
        pos: 0,
        generated: Generated::Texts {
            next: 0,
            texts: &texts,
        },
    };
    write_node(&mut out, schema, None, &Keywords::NONE, mode);
    // The renderer writes UTF-8 only.
    String::from_utf8(buf).unwrap_or_default()
}

/// The node's members, then the keywords; in the strict rendering an `Option`'s keywords go to
/// its non-null branch, where they apply.
/// Whether `schema` holds a [`Schema::Generated`] node, so that it renders only at run time.
pub const fn has_generated(schema: &Schema) -> bool {
    match schema {
        Schema::Generated(_) => true,
        Schema::Leaf(_) | Schema::Scalar { .. } => false,
        Schema::Array { items: inner, .. } | Schema::Map(inner) | Schema::Optional(inner) => {
            has_generated(inner)
        }
        Schema::Object(object) => fields_have_generated(object.fields),
        Schema::Enum(item) => {
            let mut rest = item.variants;
            while let Some((variant, more)) = rest.split_first() {
                rest = more;
                let found = match &variant.data {
                    Data::Unit | Data::Other => false,
                    Data::Newtype(inner) => has_generated(inner),
                    Data::Tuple(items) => {
                        let mut items = *items;
                        let mut found = false;
                        while let Some((item, more)) = items.split_first() {
                            items = more;
                            found |= has_generated(item);
                        }
                        found
                    }
                    Data::Struct(object) => fields_have_generated(object.fields),
                };
                if found {
                    return true;
                }
            }
            false
        }
    }
}

const fn fields_have_generated(fields: &[Field]) -> bool {
    let mut rest = fields;
    while let Some((field, more)) = rest.split_first() {
        rest = more;
        if has_generated(field.schema) {
            return true;
        }
    }
    false
}
