use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub enum Mode {
    Fast,
    #[serde(untagged)]
    Slow,
}

fn main() {}
