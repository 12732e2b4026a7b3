use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[validate(lenght(min = 1))]
    pub name: String,
}

fn main() {}
