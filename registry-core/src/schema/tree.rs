//! The nodes of a schema tree: what a Rust type's JSON Schema is made of, before rendering.
//!
//! Every string in the tree is already JSON-escaped (without its quotes), and every number and
//! default value already rendered as JSON text: the macros do it while they expand, so rendering
//! copies bytes and never escapes or formats anything but lengths.

/// One node of a compile-time schema tree. Every node renders as one JSON object.
#[derive(Debug, Clone, Copy)]
pub enum Schema {
    /// Members written by hand, rendered as they are in both renderings: `"type":"string"`.
    /// Empty for "any JSON value" (`{}`, [`serde_json::Value`]). The text is opaque to the
    /// renderer, so a leaf has no strict form and takes any keyword.
    Leaf(&'static str),
    /// Members generated at run time, by a function called the first time the schema is
    /// rendered: a type's `schemars::JsonSchema` (the `schemars` feature). Opaque like a
    /// [`Leaf`](Schema::Leaf), so it has no strict form and takes any keyword; a tree holding
    /// one renders only at run time ([`to_json`](super::to_json)).
    Generated(fn() -> Generated),
    /// A JSON scalar type, with the bounds its Rust type implies (an `i8`'s range, a `char`'s
    /// length), which serde checks: the strict rendering leaves them out, and a bound a field's
    /// keywords state replaces them.
    Scalar {
        /// The JSON type.
        kind: Kind,
        /// The lowest value (`minimum`) or, for a string, length (`minLength`), as JSON.
        low: Option<&'static str>,
        /// The highest value (`maximum`) or length (`maxLength`), as JSON.
        high: Option<&'static str>,
    },
    /// `{"type":"array","items":…}`, with `"uniqueItems":true` for sets.
    Array {
        /// The element schema.
        items: &'static Schema,
        /// Whether the elements must be distinct (sets).
        unique: bool,
    },
    /// `{"type":"object","additionalProperties":…}`: a map with string keys.
    Map(&'static Schema),
    /// `Option<T>`: `T`'s schema, nullable in the strict rendering.
    Optional(&'static Schema),
    /// An object with named properties (a tool's input, or a struct deriving `InputSchema`).
    Object(&'static Object),
    /// A serde enum in one of its representations.
    Enum(&'static Enum),
}

/// What a [`Schema::Generated`] node's function returns.
#[derive(Debug, Clone, Copy, Default)]
pub struct Generated {
    /// The type's own description, JSON-escaped without its quotes: written when the field has
    /// none of its own.
    pub description: Option<&'static str>,
    /// The other members of the schema object, without its braces.
    pub members: &'static str,
}

/// The JSON type of a [`Schema::Scalar`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `"boolean"`.
    Boolean,
    /// `"integer"`.
    Integer,
    /// `"number"`.
    Number,
    /// `"string"` (named so as not to shadow `String` in the compiler's messages).
    Str,
}

impl Kind {
    /// The JSON Schema type name.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Boolean => "boolean",
            Kind::Integer => "integer",
            Kind::Number => "number",
            Kind::Str => "string",
        }
    }
}

/// The properties of an object schema, in declaration order.
#[derive(Debug, Clone, Copy)]
pub struct Object {
    /// The properties.
    pub fields: &'static [Field],
    /// `#[serde(deny_unknown_fields)]`: render `"additionalProperties":false`.
    pub deny_unknown_fields: bool,
}

/// One property of an [`Object`].
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// The property name as serde reads it.
    pub name: &'static str,
    /// `#[serde(alias = "...")]`: other names serde reads for it.
    pub aliases: &'static [&'static str],
    /// The field's doc comment, or the `description` of its schema attribute.
    pub description: Option<&'static str>,
    /// Whether serde requires the field (no `#[serde(default)]`, not an `Option`).
    pub required: bool,
    /// `#[serde(flatten)]`: the field's schema (an object or a map) is merged into this object.
    pub flatten: bool,
    /// The field's type schema.
    pub schema: &'static Schema,
    /// The keywords of the field's schema attributes.
    pub keywords: &'static Keywords,
}

impl Field {
    /// A required property without description, alias or keyword.
    pub const fn new(name: &'static str, schema: &'static Schema) -> Field {
        Field {
            name,
            aliases: &[],
            description: None,
            required: true,
            flatten: false,
            schema,
            keywords: &Keywords::NONE,
        }
    }
}

/// The keywords a field's `#[schema(...)]` (or `#[schemars(...)]`, `#[validate(...)]`,
/// `#[deprecated]`) attribute adds to its schema.
#[derive(Debug, Clone, Copy)]
pub struct Keywords {
    /// `title`.
    pub title: Option<&'static str>,
    /// `minimum`, as a JSON number.
    pub minimum: Option<&'static str>,
    /// `maximum`, as a JSON number.
    pub maximum: Option<&'static str>,
    /// `exclusiveMinimum`, as a JSON number.
    pub exclusive_minimum: Option<&'static str>,
    /// `exclusiveMaximum`, as a JSON number.
    pub exclusive_maximum: Option<&'static str>,
    /// `minLength` (strings).
    pub min_length: Option<u64>,
    /// `maxLength` (strings).
    pub max_length: Option<u64>,
    /// `minItems` (arrays).
    pub min_items: Option<u64>,
    /// `maxItems` (arrays).
    pub max_items: Option<u64>,
    /// schemars' and validator's `length(min = …)`: `minLength` on a string, `minItems` on an
    /// array.
    pub length_min: Option<u64>,
    /// `length(max = …)`: `maxLength` on a string, `maxItems` on an array.
    pub length_max: Option<u64>,
    /// `pattern`.
    pub pattern: Option<&'static str>,
    /// `format`.
    pub format: Option<&'static str>,
    /// `default`, as JSON.
    pub default: Option<&'static str>,
    /// `examples`, each as JSON.
    pub examples: &'static [&'static str],
    /// `"deprecated":true`.
    pub deprecated: bool,
}

impl Keywords {
    /// No keyword.
    pub const NONE: Keywords = Keywords {
        title: None,
        minimum: None,
        maximum: None,
        exclusive_minimum: None,
        exclusive_maximum: None,
        min_length: None,
        max_length: None,
        min_items: None,
        max_items: None,
        length_min: None,
        length_max: None,
        pattern: None,
        format: None,
        default: None,
        examples: &[],
        deprecated: false,
    };
}

/// A serde enum: its representation and the variants serde reads.
#[derive(Debug, Clone, Copy)]
pub struct Enum {
    /// How the variant is told apart.
    pub repr: Repr,
    /// The variants serde reads, in declaration order (skipped ones left out).
    pub variants: &'static [Variant],
    /// `#[serde(deny_unknown_fields)]` on the enum: an adjacently tagged enum refuses keys
    /// other than its tag and content (struct variants carry it in their own [`Object`]).
    pub deny_unknown_fields: bool,
}

/// serde's enum representations.
#[derive(Debug, Clone, Copy)]
pub enum Repr {
    /// The default: `"Unit"` or `{"Variant": data}`.
    External,
    /// `#[serde(tag = "t")]`: `{"t": "Variant", ...fields}`.
    Internal {
        /// The tag property.
        tag: &'static str,
    },
    /// `#[serde(tag = "t", content = "c")]`: `{"t": "Variant", "c": data}`.
    Adjacent {
        /// The tag property.
        tag: &'static str,
        /// The content property.
        content: &'static str,
    },
    /// `#[serde(untagged)]`: the data alone; serde takes the first variant that reads it.
    Untagged,
}

/// One variant of an [`Enum`].
#[derive(Debug, Clone, Copy)]
pub struct Variant {
    /// The name serde reads (after `rename`/`rename_all`).
    pub name: &'static str,
    /// `#[serde(alias = "...")]`.
    pub aliases: &'static [&'static str],
    /// The variant's doc comment.
    pub description: Option<&'static str>,
    /// What it carries.
    pub data: Data,
}

/// What a [`Variant`] carries.
#[derive(Debug, Clone, Copy)]
pub enum Data {
    /// Nothing.
    Unit,
    /// Nothing, and it is what serde reads for any tag not named by another variant
    /// (`#[serde(other)]`).
    Other,
    /// One value: `Variant(T)`.
    Newtype(&'static Schema),
    /// Several values, read from an array of exactly that length: `Variant(A, B)`.
    Tuple(&'static [Schema]),
    /// Named fields: `Variant { a: A }`.
    Struct(&'static Object),
}
