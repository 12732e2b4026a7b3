use registry_core::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub enum Mode {
    Fast,
    Slow { delay_ms: u64 },
}

fn main() {}
