use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[schemars(rename = "fullName")]
    pub full_name: String,
}

fn main() {}
