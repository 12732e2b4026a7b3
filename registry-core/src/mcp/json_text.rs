//! A `tools/list` result read from its JSON text without a [`Value`](serde_json::Value) tree:
//! the text is checked whole by serde_json's parser, then split into its entries' texts, each
//! read into a tree of its own when it is loaded.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// The entries of the tools list in `text` (`None` when the text is JSON but no tools list), or
/// serde_json's error when the text is not JSON: the same error, at the same place, as reading
/// it into a `Value`.
pub(super) fn tool_list(text: &str) -> Result<Option<Vec<&RawValue>>, serde_json::Error> {
    // The same parser and checks as reading a `Value` (string escapes, number ranges, nesting),
    // with nothing built.
    serde_json::from_str::<Valid>(text)?;
    let mut result: &RawValue = serde_json::from_str(text)?;
    // As `super::tool_list`: a JSON-RPC response wraps the result once; nothing nests deeper.
    for _ in 0..2 {
        match result.get().as_bytes().first() {
            Some(b'[') => return serde_json::from_str(result.get()).map(Some),
            Some(b'{') => {
                let [tools, inner] = members(result, ["tools", "result"])?;
                match (tools, inner) {
                    (Some(items), _) if items.get().starts_with('[') => {
                        return serde_json::from_str(items.get()).map(Some);
                    }
                    (None, Some(inner)) => result = inner,
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        }
    }
    Ok(None)
}

/// The texts of the members `keys` of the JSON object `object`, each the last of its name, as a
/// `Value` keeps it.
fn members<'a, const N: usize>(
    object: &'a RawValue,
    keys: [&str; N],
) -> Result<[Option<&'a RawValue>; N], serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(object.get());
    Members(keys).deserialize(&mut deserializer)
}

struct Members<'k, const N: usize>([&'k str; N]);

impl<'de, const N: usize> DeserializeSeed<'de> for Members<'_, N> {
    type Value = [Option<&'de RawValue>; N];

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, const N: usize> Visitor<'de> for Members<'_, N> {
    type Value = [Option<&'de RawValue>; N];

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut found = [None; N];
        while let Some(Key(key)) = map.next_key()? {
            match self.0.iter().position(|wanted| *wanted == key) {
                Some(at) => {
                    let value: &'de RawValue = map.next_value()?;
                    if let Some(slot) = found.get_mut(at) {
                        *slot = Some(value);
                    }
                }
                None => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }
}

/// An object's key, borrowed unless it has escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }
            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Any JSON value, checked as serde_json checks it for a `Value` and dropped as it is read.
struct Valid;

impl<'de> Deserialize<'de> for Valid {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(Valid)
    }
}

impl<'de> Visitor<'de> for Valid {
    type Value = Valid;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any valid JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Valid, E> {
        Ok(Valid)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Valid, E> {
        Ok(Valid)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Valid, E> {
        Ok(Valid)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Valid, E> {
        Ok(Valid)
    }
    fn visit_str<E>(self, _: &str) -> Result<Valid, E> {
        Ok(Valid)
    }
    fn visit_unit<E>(self) -> Result<Valid, E> {
        Ok(Valid)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Valid, A::Error> {
        while seq.next_element::<Valid>()?.is_some() {}
        Ok(Valid)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Valid, A::Error> {
        while map.next_key::<Valid>()?.is_some() {
            map.next_value::<Valid>()?;
        }
        Ok(Valid)
    }
}
