// serde reports this itself; the derive adds no second error.
use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
#[serde(tag = "kind")]
pub enum Shape {
    Circle { radius: u32 },
    Rect(u32, u32),
}

fn main() {}
