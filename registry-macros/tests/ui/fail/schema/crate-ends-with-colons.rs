use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
#[schema(crate = "toolreg::")]
pub struct Person {
    pub name: String,
}

fn main() {}
