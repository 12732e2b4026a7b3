use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[validate(range(min = 1, max = 150))]
    pub age: String,
}

fn main() {}
