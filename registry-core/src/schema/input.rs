//! The [`InputSchema`] trait, implemented for the standard types serde reads from JSON.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::PathBuf;

use super::{Kind, Schema};

/// A type that can be a field of a tool's input, with its JSON Schema known at compile time.
///
/// Implemented here for the standard types serde deserializes from JSON; derive it for your own
/// structs and enums with `#[derive(InputSchema)]`.
///
/// ```
/// use toolreg::InputSchema;
/// use toolreg::schema::{Mode, to_json};
///
/// /// Where to look.
/// #[derive(serde::Deserialize, InputSchema)]
/// #[serde(tag = "kind", rename_all = "snake_case")]
/// pub enum Scope {
///     /// The whole repository.
///     Repository,
///     /// One folder.
///     Folder { path: String },
/// }
///
/// let schema = to_json(&Scope::SCHEMA, Mode::Standard);
/// assert!(schema.starts_with(r#"{"oneOf":["#), "{schema}");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no compile-time JSON schema",
    label = "this field's schema needs `{Self}: InputSchema`",
    note = "supported: bool, integers, floats, char, String, PathBuf, serde_json::Value, and Option, Box, Vec, VecDeque, HashSet, BTreeSet and String-keyed HashMap/BTreeMap of supported types",
    note = "for a struct with named fields or an enum of your own, add `#[derive(InputSchema)]` to it; otherwise use a supported type"
)]
pub trait InputSchema {
    /// The schema tree.
    const SCHEMA: Schema;
    /// True when serde accepts the field being absent (`Option<T>`), so it is not `required`.
    const OPTIONAL: bool = false;
}

macro_rules! scalar {
    ($($ty:ty => $kind:ident $low:literal $high:literal),* $(,)?) => {
        $(impl InputSchema for $ty {
            const SCHEMA: Schema = Schema::Scalar {
                kind: Kind::$kind,
                low: bound($low),
                high: bound($high),
            };
        })*
    };
}

/// A bound, or none for "".
const fn bound(text: &'static str) -> Option<&'static str> {
    if text.is_empty() { None } else { Some(text) }
}

// Integer bounds only where they tell the model something: past ±2^53 they are dropped.
scalar! {
    bool => Boolean "" "",
    i8 => Integer "-128" "127",
    i16 => Integer "-32768" "32767",
    i32 => Integer "-2147483648" "2147483647",
    i64 => Integer "" "",
    i128 => Integer "" "",
    u8 => Integer "0" "255",
    u16 => Integer "0" "65535",
    u32 => Integer "0" "4294967295",
    u64 => Integer "0" "",
    u128 => Integer "0" "",
    f32 => Number "" "",
    f64 => Number "" "",
    String => Str "" "",
    char => Str "1" "1",
    PathBuf => Str "" "",
}

impl InputSchema for serde_json::Value {
    const SCHEMA: Schema = Schema::Leaf("");
}

#[cfg(target_pointer_width = "64")]
scalar! {
    isize => Integer "" "",
    usize => Integer "0" "",
}
#[cfg(not(target_pointer_width = "64"))]
scalar! {
    isize => Integer "-2147483648" "2147483647",
    usize => Integer "0" "4294967295",
}

impl<T: InputSchema> InputSchema for Option<T> {
    const SCHEMA: Schema = Schema::Optional(&T::SCHEMA);
    const OPTIONAL: bool = true;
}

impl<T: InputSchema + ?Sized> InputSchema for Box<T> {
    const SCHEMA: Schema = T::SCHEMA;
    const OPTIONAL: bool = T::OPTIONAL;
}

macro_rules! seq {
    ($($ty:ident $(: $bound:path)? => $unique:expr),* $(,)?) => {
        $(impl<T: InputSchema $(+ $bound)?> InputSchema for $ty<T> {
            const SCHEMA: Schema = Schema::Array { items: &T::SCHEMA, unique: $unique };
        })*
    };
}

seq! {
    Vec => false,
    VecDeque => false,
    BTreeSet: Ord => true,
}

impl<T: InputSchema, S> InputSchema for HashSet<T, S> {
    const SCHEMA: Schema = Schema::Array {
        items: &T::SCHEMA,
        unique: true,
    };
}

impl<V: InputSchema, S> InputSchema for HashMap<String, V, S> {
    const SCHEMA: Schema = Schema::Map(&V::SCHEMA);
}

impl<V: InputSchema> InputSchema for BTreeMap<String, V> {
    const SCHEMA: Schema = Schema::Map(&V::SCHEMA);
}
