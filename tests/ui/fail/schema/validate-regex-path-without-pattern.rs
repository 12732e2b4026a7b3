use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Account {
    #[validate(regex(path = *USERNAME))]
    pub username: String,
}

fn main() {}
