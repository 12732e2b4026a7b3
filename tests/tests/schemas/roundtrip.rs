//! Every form's schema, and every type of the real-world corpus (`corpus/`), against serde, with
//! `jsonschema` as the judge, over generated values:
//! * what serde writes and reads back validates (values from the type, by `arbitrary`);
//! * what the schema accepts, serde reads (values from the schema, and small mutations of them);
//! * for the types without keywords, the converse too: a mutation serde reads validates. Keyword
//!   constraints are narrower than serde on purpose (dispatch enforces them), so the converse
//!   does not hold there. Mutations never bring in `null` or an array for an object: serde reads
//!   those in places the schema does not advertise (see the `schema` module docs), which
//!   `documented_forms_serde_reads_beyond_the_schema` pins.

use std::sync::LazyLock;

use arbitrary::{Arbitrary, Unstructured};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use toolreg::InputSchema;

use super::forms::{
    Action, Aliased, Command, Constrained, Filter, Loose, Person, Query, Renamed, Shape, standard,
};

/// Makes a value of a type from bytes, through serde.
type FromBytes = fn(&[u8]) -> Option<Value>;

struct Case {
    name: &'static str,
    validator: jsonschema::Validator,
    schema: Value,
    parse: fn(&Value) -> Result<(), String>,
    /// Values from the type, through serde, when the type derives `Arbitrary`.
    arbitrary: Option<FromBytes>,
    /// Whether the schema is exactly serde's (no keyword narrows it).
    exact: bool,
}

fn parse<T: DeserializeOwned>(value: &Value) -> Result<(), String> {
    T::deserialize(value)
        .map(drop)
        .map_err(|error| error.to_string())
}

/// A value of the type as serde writes it, with `null` members (an `Option`'s `None`) left
/// out: serde reads an absent member as `None` too, and the schema advertises only that.
fn from_type<T: for<'a> Arbitrary<'a> + Serialize>(bytes: &[u8]) -> Option<Value> {
    let value = T::arbitrary(&mut Unstructured::new(bytes)).ok()?;
    let mut value = serde_json::to_value(value).ok()?;
    drop_null_members(&mut value);
    Some(value)
}

pub fn drop_null_members(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, member| !member.is_null());
            map.values_mut().for_each(drop_null_members);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null_members),
        _ => {}
    }
}

fn case<T: InputSchema + DeserializeOwned>(
    name: &'static str,
    arbitrary: Option<FromBytes>,
    exact: bool,
) -> Case {
    let schema = standard::<T>();
    Case {
        name,
        validator: jsonschema::validator_for(&schema).expect("the schema compiles"),
        schema,
        parse: parse::<T>,
        arbitrary,
        exact,
    }
}

static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| {
    vec![
        case::<Filter>("Filter", Some(from_type::<Filter>), true),
        case::<Shape>("Shape", Some(from_type::<Shape>), true),
        case::<Command>("Command", Some(from_type::<Command>), true),
        case::<Loose>("Loose", Some(from_type::<Loose>), true),
        case::<Renamed>("Renamed", Some(from_type::<Renamed>), true),
        case::<Query>("Query", Some(from_type::<Query>), true),
        case::<Aliased>("Aliased", Some(from_type::<Aliased>), true),
        case::<Action>("Action", Some(from_type::<Action>), true),
        case::<Person>("Person", None, false),
        case::<Constrained>("Constrained", None, false),
    ]
});

/// The real-world corpus (`corpus/`), each type with its own exactness.
static CORPUS: LazyLock<Vec<Case>> = LazyLock::new(|| {
    super::corpus::CASES
        .iter()
        .map(|corpus| {
            let schema = (corpus.schema)();
            Case {
                name: corpus.type_name,
                validator: jsonschema::validator_for(&schema).expect("the schema compiles"),
                schema,
                parse: corpus.parse,
                arbitrary: corpus.arbitrary,
                exact: corpus.exact,
            }
        })
        .collect()
});

/// SplitMix64: the generator's randomness, from proptest's seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len() as u64) as usize)
    }
}

fn int(schema: &Value, key: &str) -> Option<i64> {
    schema.get(key).and_then(Value::as_f64).map(|n| n as i64)
}

/// A value shaped by `schema`: mostly valid, sometimes not (an alias rule, a pattern).
pub fn generate(schema: &Value, rng: &mut Rng, depth: u32) -> Value {
    if let Some(value) = schema.get("const") {
        return value.clone();
    }
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return rng.pick(values).cloned().unwrap_or(Value::Null);
    }
    let Some(kind) = schema.get("type").and_then(Value::as_str) else {
        let branches = schema
            .get("oneOf")
            .or_else(|| schema.get("anyOf"))
            .and_then(Value::as_array);
        return match branches.and_then(|branches| rng.pick(branches)) {
            Some(branch) => generate(branch, rng, depth + 1),
            None => json!(rng.below(5)),
        };
    };
    match kind {
        "null" => Value::Null,
        "boolean" => json!(rng.chance(50)),
        "integer" | "number" => {
            let low = int(schema, "minimum")
                .or_else(|| int(schema, "exclusiveMinimum").map(|n| n + 1))
                .unwrap_or(-1000);
            let high = int(schema, "maximum")
                .or_else(|| int(schema, "exclusiveMaximum").map(|n| n - 1))
                .unwrap_or(1000)
                .min(low.saturating_add(5000));
            let n = low + rng.below((high - low + 1).max(1) as u64) as i64;
            if kind == "number" && rng.chance(30) {
                json!(n as f64 + 0.25)
            } else {
                json!(n)
            }
        }
        "string" => {
            if schema.get("not").is_some() {
                return json!(format!("other{}", rng.below(9)));
            }
            let low = int(schema, "minLength").unwrap_or(0) as u64;
            let high = int(schema, "maxLength").map_or(low + 6, |n| n as u64);
            let len = low + rng.below(high.saturating_sub(low) + 1);
            let text: String = (0..len)
                .map(|_| (b'a' + rng.below(26) as u8) as char)
                .collect();
            json!(text)
        }
        "array" => {
            if let Some(items) = schema.get("prefixItems").and_then(Value::as_array) {
                return Value::Array(
                    items
                        .iter()
                        .map(|item| generate(item, rng, depth + 1))
                        .collect(),
                );
            }
            let low = int(schema, "minItems").unwrap_or(0) as u64;
            let high = int(schema, "maxItems").map_or(low + 3, |n| n as u64);
            let len = if depth > 4 {
                low
            } else {
                low + rng.below(high.saturating_sub(low) + 1)
            };
            let items = schema.get("items").cloned().unwrap_or(json!({}));
            Value::Array((0..len).map(|_| generate(&items, rng, depth + 1)).collect())
        }
        "object" => generate_object(schema, rng, depth),
        _ => Value::Null,
    }
}

fn generate_object(schema: &Value, rng: &mut Rng, depth: u32) -> Value {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let groups = super::alias_groups(schema);
    let mut object = Map::new();
    if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
        // One name of each aliased property, or none when it may be absent.
        let chosen: Vec<Option<&String>> = groups
            .iter()
            .map(|(names, needed)| {
                if !needed && rng.chance(30) {
                    None
                } else {
                    rng.pick(names)
                }
            })
            .collect();
        for (name, property) in properties {
            let in_group = groups.iter().position(|(names, _)| names.contains(name));
            let wanted = match in_group {
                Some(index) => chosen[index] == Some(name),
                None => required.contains(&name.as_str()) || rng.chance(50),
            };
            if wanted {
                object.insert(name.clone(), generate(property, rng, depth + 1));
            }
        }
    }
    match schema.get("additionalProperties") {
        Some(Value::Bool(false)) => {}
        Some(values) => {
            for _ in 0..rng.below(3) {
                object.insert(
                    format!("k{}", rng.below(50)),
                    generate(values, rng, depth + 1),
                );
            }
        }
        None => {
            if rng.chance(30) {
                object.insert("unknown".to_owned(), json!(1));
            }
        }
    }
    Value::Object(object)
}

/// Every JSON pointer into `value`.
fn pointers(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                pointers(inner, format!("{at}/{key}"), out);
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                pointers(inner, format!("{at}/{index}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// One small change: a value replaced by another type's or by a number past common bounds, a
/// property dropped or added, a string (a tag) changed. Never `null`, never an array.
fn mutate(value: &Value, rng: &mut Rng) -> Value {
    let mut value = value.clone();
    let mut all = Vec::new();
    pointers(&value, String::new(), &mut all);
    let Some(at) = rng.pick(&all).cloned() else {
        return value;
    };
    let Some(target) = value.pointer_mut(&at) else {
        return value;
    };
    match (rng.below(8), &mut *target) {
        (0, Value::Object(map)) => {
            if let Some(key) = map.keys().next().cloned() {
                map.remove(&key);
            }
        }
        (1, Value::Object(map)) => {
            map.insert("zz".to_owned(), json!(1));
        }
        (2, Value::String(text)) => text.push('_'),
        (3, _) => *target = json!("x"),
        (4, _) => *target = json!(7),
        // Past the bounds a type or a keyword states.
        (5, _) => *target = json!(-1),
        (6, _) => *target = json!(1_000_000),
        _ => *target = json!(true),
    }
    value
}

fn check_schema_values(cases: &[Case], seed: u64) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    for case in cases {
        let value = generate(&case.schema, &mut rng, 0);
        for value in [mutate(&value, &mut rng), value] {
            let valid = case.validator.is_valid(&value);
            let read = (case.parse)(&value);
            if valid {
                prop_assert!(
                    read.is_ok(),
                    "{}: the schema accepts {value} but serde refuses it: {:?}",
                    case.name,
                    read
                );
            } else if case.exact {
                prop_assert!(
                    read.is_err(),
                    "{}: serde reads {value} but the schema refuses it: {:?}",
                    case.name,
                    case.validator
                        .iter_errors(&value)
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                );
            }
        }
    }
    Ok(())
}

fn check_type_values(cases: &[Case], bytes: &[u8]) -> Result<(), TestCaseError> {
    for case in cases {
        let Some(value) = case.arbitrary.and_then(|make| make(bytes)) else {
            continue;
        };
        if (case.parse)(&value).is_err() {
            // serde writes what it cannot read back (a flattened map's key shadowing a
            // field): not a value serde accepts.
            continue;
        }
        prop_assert!(
            case.validator.is_valid(&value),
            "{}: serde reads {value} but the schema refuses it: {:?}",
            case.name,
            case.validator
                .iter_errors(&value)
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn values_serde_writes_and_reads_back_validate(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check_type_values(&CASES, &bytes)?;
    }

    #[test]
    fn values_the_schema_accepts_serde_reads_and_mutations_agree(seed in any::<u64>()) {
        check_schema_values(&CASES, seed)?;
    }
}

// The corpus: 39 types per case, so fewer cases keep the default run short.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn corpus_values_serde_writes_and_reads_back_validate(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_type_values(&CORPUS, &bytes)?;
    }

    #[test]
    fn corpus_values_the_schema_accepts_serde_reads_and_mutations_agree(seed in any::<u64>()) {
        check_schema_values(&CORPUS, seed)?;
    }
}

/// The forms serde reads that the schema does not advertise, as the `schema` docs list them.
#[test]
fn documented_forms_serde_reads_beyond_the_schema() {
    let case = |name: &str| CASES.iter().find(|case| case.name == name).expect("a case");
    for (name, value) in [
        // An externally tagged unit variant as a one-key object.
        ("Filter", json!({"Everything": null})),
        // `null` for an optional property.
        ("Query", json!({"text": "a", "offset": 1, "limit": null})),
        // A struct as an array of its field values.
        ("Aliased", json!(["a", 1])),
        // An internally tagged variant as an array: the tag, then the fields.
        ("Action", json!(["close"])),
    ] {
        let case = case(name);
        assert!(
            (case.parse)(&value).is_ok(),
            "{name}: serde refuses {value}"
        );
        assert!(
            !case.validator.is_valid(&value),
            "{name}: the schema accepts {value}"
        );
    }
}

/// The harness finds a real disagreement: the `rig` example's hand-written schema for its
/// `OperationArgs { x: i32, y: i32 }` (two `number`s, nothing required) accepts inputs serde
/// refuses, which the derive's schema for the same type does not (the corpus table lists it).
#[test]
fn the_round_trip_catches_the_rig_examples_hand_written_schema() {
    let corpus = super::corpus::CASES
        .iter()
        .find(|case| case.type_name == "sdk::OperationArgs")
        .expect("the rig case");
    let schema = super::corpus::reference(corpus);
    let hand_written = Case {
        name: "rig add, hand-written",
        validator: jsonschema::validator_for(&schema).expect("the schema compiles"),
        schema,
        parse: corpus.parse,
        arbitrary: None,
        exact: true,
    };
    let caught =
        (0..64).any(|seed| check_schema_values(std::slice::from_ref(&hand_written), seed).is_err());
    assert!(
        caught,
        "no input the hand-written schema accepts was refused by serde"
    );
    let ours = CORPUS
        .iter()
        .find(|case| case.name == "sdk::OperationArgs")
        .expect("the rig case");
    for seed in 0..64 {
        check_schema_values(std::slice::from_ref(ours), seed).expect("the derive's schema agrees");
    }
}
