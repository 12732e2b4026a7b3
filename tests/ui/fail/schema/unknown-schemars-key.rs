// Before, `#[schemars(...)]` was silently ignored; now every key is read or reported.
use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Links {
    #[schemars(inner(url))]
    pub urls: Vec<String>,
}

fn main() {}
