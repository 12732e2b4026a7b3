use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[schemars(rename = "fullName")]
    pub full_name: String,
}

fn main() {}
