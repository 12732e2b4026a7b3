use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[schema(maximum = 150)]
    #[validate(range(max = 120))]
    pub age: u8,
}

fn main() {}
