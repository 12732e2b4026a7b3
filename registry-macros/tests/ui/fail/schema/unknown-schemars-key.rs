// Before, `#[schemars(...)]` was silently ignored; now every key is read or reported.
use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Links {
    #[schemars(inner(url))]
    pub urls: Vec<String>,
}

fn main() {}
