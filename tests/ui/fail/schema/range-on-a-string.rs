use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[validate(range(min = 1, max = 150))]
    pub age: String,
}

fn main() {}
