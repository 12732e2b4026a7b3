use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub enum Mode {
    Fast,
    #[serde(untagged)]
    Slow,
}

fn main() {}
