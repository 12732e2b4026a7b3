use serde_json::{Map, Value, json};

use super::*;

/// `$defs` `a0` … `an`, each `a(i)` applying `a(i-1)` twice in one `allOf`; the root refers
/// to `an`.
fn doubling(n: usize) -> Value {
    let mut defs = Map::new();
    defs.insert("a0".into(), json!({"type": "string"}));
    for i in 1..=n {
        let previous = format!("#/$defs/a{}", i - 1);
        defs.insert(
            format!("a{i}"),
            json!({"allOf": [{"$ref": previous}, {"$ref": previous}]}),
        );
    }
    json!({"$defs": defs, "$ref": format!("#/$defs/a{n}")})
}

#[test]
fn a_schema_whose_refs_double_at_one_place_is_refused_at_its_root() {
    // At the root: itself and `a8`'s 2^10 - 3; none below.
    assert_eq!(bound(&doubling(8)), Ok(vec![1022, 0]));
    let fault = bound(&doubling(40)).unwrap_err();
    assert_eq!(fault.at, ".");
    assert!(
        fault.rule.contains("more than 10000 subschemas"),
        "{fault:?}"
    );
}

#[test]
fn a_recursion_that_doubles_with_each_level_bounds_the_input_depth() {
    // Each level of `c` applies `n` twice: 2^depth subschemas at the depth-th level.
    let schema = json!({"$defs": {"n": {"type": "object", "properties": {"c": {"anyOf": [
        {"$ref": "#/$defs/n"}, {"$ref": "#/$defs/n"}]}}}}, "$ref": "#/$defs/n"});
    let by_depth = bound(&schema).unwrap();
    assert_eq!(by_depth[..4], [2, 5, 10, 20]);
    assert_eq!(by_depth.len(), 13, "{by_depth:?}");
    assert!(by_depth[12] > MAX_APPLICATIONS, "{by_depth:?}");
}

#[test]
fn a_tree_and_any_json_value_are_bounded_at_every_depth() {
    // A member gets one `properties` entry: `left` and `right` do not add up.
    let tree = json!({"$defs": {"node": {"type": "object", "properties": {
        "value": {"type": "integer"},
        "left": {"$ref": "#/$defs/node"}, "right": {"$ref": "#/$defs/node"}}}},
        "$ref": "#/$defs/node"});
    // A place is an object or an array, not both.
    let json_value = json!({"$defs": {"v": {"anyOf": [
        {"type": ["string", "number", "boolean", "null"]},
        {"type": "object", "additionalProperties": {"$ref": "#/$defs/v"}},
        {"type": "array", "items": {"$ref": "#/$defs/v"}}]}}, "$ref": "#/$defs/v"});
    for schema in [tree, json_value] {
        let by_depth = bound(&schema).unwrap();
        // Counted to the deepest input parsed from a response; past it, not at all.
        assert_eq!(by_depth.len(), MAX_INPUT_DEPTH + 2, "{schema}");
        let (beyond, counted) = by_depth.split_last().unwrap();
        assert!(counted.iter().all(|&count| count <= 10), "{by_depth:?}");
        assert_eq!(*beyond, MAX_APPLICATIONS + 1);
    }
}

#[test]
fn a_ref_cycle_that_never_steps_into_the_input_is_refused() {
    for schema in [
        json!({"$ref": "#"}),
        json!({"$defs": {"a": {"allOf": [{"$ref": "#/$defs/b"}]}, "b": {"not": {"$ref": "#/$defs/a"}}},
               "$ref": "#/$defs/a"}),
    ] {
        let fault = bound(&schema).unwrap_err();
        assert!(
            fault.rule.contains("never steps into the input"),
            "{fault:?}"
        );
    }
}

#[test]
fn refs_are_followed_only_inside_the_schema() {
    let fault =
        bound(&json!({"properties": {"a": {"$ref": "http://127.0.0.1:9/x.json"}}})).unwrap_err();
    assert_eq!(fault.at, "properties.a.$ref");
    assert!(fault.rule.contains("outside the schema"), "{fault:?}");
    let fault = bound(&json!({"$ref": "#/$defs/missing"})).unwrap_err();
    assert!(fault.rule.contains("points to no place"), "{fault:?}");
    let fault =
        bound(&json!({"properties": {"a": {"$id": "http://x/y", "type": "string"}}})).unwrap_err();
    assert_eq!(fault.at, "properties.a.$id");
    // The root's own id, anchors and escaped pointers are inside.
    let inside = json!({"$id": "https://example.com/tool", "$defs": {
        "a/b c": {"$anchor": "named", "type": "string"}},
        "properties": {
            "x": {"$ref": "https://example.com/tool#/$defs/a~1b%20c"},
            "y": {"$ref": "#named"}}});
    assert!(bound(&inside).is_ok());
}

#[test]
fn patterns_past_the_limit_are_refused() {
    let properties: Map<String, Value> = (0..=MAX_PATTERNS)
        .map(|i| {
            (
                format!("p{i}"),
                json!({"type": "string", "pattern": format!("^{i}$")}),
            )
        })
        .collect();
    let fault = bound(&json!({"properties": properties})).unwrap_err();
    assert!(fault.rule.contains("more than 128 patterns"), "{fault:?}");
}
