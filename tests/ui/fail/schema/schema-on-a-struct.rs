use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
#[schema(title = "Person")]
pub struct Person {
    pub name: String,
}

fn main() {}
