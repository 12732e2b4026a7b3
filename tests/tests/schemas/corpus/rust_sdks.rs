//! The Rust SDKs' examples: `rmcp` (`examples/servers`, whose schemas schemars 1.x generates
//! with rmcp's settings) and `rig` (`rig-core/examples`, whose schemas are written by hand).

use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use toolreg::InputSchema;

/// rmcp `examples/servers/src/common/calculator.rs`: `SumRequest`, with a `#[schemars]`
/// description.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct SumRequest {
    #[schemars(description = "the left hand side number")]
    pub a: i32,
    pub b: i32,
}

/// rmcp `examples/servers/src/common/counter.rs`: `StructRequest`.
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct StructRequest {
    pub a: i32,
    pub b: i32,
}

/// rig `rig-core/examples/calculator_chatbot.rs`: `OperationArgs`, the input of its four
/// tools (the `add` tool's definition is the reference).
#[derive(Debug, Deserialize, Serialize, InputSchema, Arbitrary)]
pub struct OperationArgs {
    /// The first number to add
    pub x: i32,
    /// The second number to add
    pub y: i32,
}
