use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Account {
    #[validate(regex(path = *USERNAME))]
    pub username: String,
}

fn main() {}
