use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[schema(maximum = 150)]
    #[validate(range(max = 120))]
    pub age: u8,
}

fn main() {}
