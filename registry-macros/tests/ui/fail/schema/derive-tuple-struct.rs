use serde::Deserialize;
use toolreg::InputSchema;

#[derive(Deserialize, InputSchema)]
pub struct Point(pub i64, pub i64);

fn main() {}
