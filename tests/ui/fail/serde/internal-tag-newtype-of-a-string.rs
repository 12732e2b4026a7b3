use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
#[serde(tag = "kind")]
pub enum Target {
    Path(String),
    Url { href: String },
}

fn main() {}
