use toolreg::InputSchema;
use serde::Deserialize;

#[derive(Deserialize, InputSchema)]
pub struct Point(pub i64, pub i64);

fn main() {}
