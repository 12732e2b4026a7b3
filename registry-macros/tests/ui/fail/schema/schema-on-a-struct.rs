use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
#[schema(title = "Person")]
pub struct Person {
    pub name: String,
}

fn main() {}
