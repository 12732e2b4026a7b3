use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
#[serde(tag = "kind")]
pub enum Target {
    Path(String),
    Url { href: String },
}

fn main() {}
