use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Person {
    #[validate(lenght(min = 1))]
    pub name: String,
}

fn main() {}
