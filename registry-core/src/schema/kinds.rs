//! The JSON types a schema admits, as bits.

use super::tree::{Data, Kind, Repr, Schema};

/// `kinds`: a boolean.
pub const BOOLEAN: u8 = 1;
/// `kinds`: an integer.
pub const INTEGER: u8 = 2;
/// `kinds`: a number that need not be whole.
pub const NUMBER: u8 = 4;
/// `kinds`: a string.
pub const STRING: u8 = 8;
/// `kinds`: an array.
pub const ARRAY: u8 = 16;
/// `kinds`: an object.
pub const OBJECT: u8 = 32;
/// `kinds`: `null`.
pub const NULL: u8 = 64;
/// `kinds`: any JSON value (an opaque leaf).
pub const ANY: u8 = 127;

/// The JSON types a schema admits, as a set of the bits above (an `Option`'s `null` left out).
pub const fn kinds(schema: &Schema) -> u8 {
    match schema {
        Schema::Leaf(_) | Schema::Generated(_) => ANY,
        Schema::Scalar { kind, .. } => match kind {
            Kind::Boolean => BOOLEAN,
            Kind::Integer => INTEGER,
            Kind::Number => NUMBER,
            Kind::Str => STRING,
        },
        Schema::Array { .. } => ARRAY,
        Schema::Map(_) | Schema::Object(_) => OBJECT,
        Schema::Optional(inner) => kinds(inner),
        Schema::Enum(item) => {
            let mut found = 0;
            let mut rest = item.variants;
            while let Some((variant, more)) = rest.split_first() {
                rest = more;
                found |= match (item.repr, &variant.data) {
                    (Repr::Internal { .. } | Repr::Adjacent { .. }, _) => OBJECT,
                    (Repr::External, Data::Unit | Data::Other) => STRING,
                    (Repr::External, _) => OBJECT,
                    (Repr::Untagged, Data::Unit | Data::Other) => NULL,
                    (Repr::Untagged, Data::Newtype(inner)) => kinds(inner),
                    (Repr::Untagged, Data::Tuple(_)) => ARRAY,
                    (Repr::Untagged, Data::Struct(_)) => OBJECT,
                };
            }
            found
        }
    }
}
