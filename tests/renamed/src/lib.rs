//! Tools of a crate that depends on toolreg under another name (`tr`, in its Cargo.toml), so
//! that `::toolreg` does not exist here: `#[tool(crate = "...")]` and
//! `#[schema(crate = "...")]` give the macros the path to use instead, the dependency's new name
//! or a re-export of it. The tests are in `tests/renamed/tests/renamed.rs`.

use serde::{Deserialize, Serialize};
use tr::{Structured, ToolContext, ToolError};

/// toolreg re-exported by a module of this crate, as a crate that wraps it would.
pub mod reexported {
    pub use tr as toolreg_again;
}

/// A unit of length.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize, Serialize, tr::InputSchema)]
#[schema(crate = "tr")]
#[serde(rename_all = "lowercase")]
pub enum Unit {
    Metres,
    Feet,
}

/// A point on a map.
#[derive(Debug, Clone, Copy, Deserialize, tr::InputSchema)]
#[schema(crate = "tr")]
pub struct Point {
    /// Degrees north.
    #[schema(minimum = -90, maximum = 90)]
    pub lat: f64,
    /// Degrees east.
    pub lon: f64,
}

/// A distance and its unit.
#[derive(Debug, Serialize, tr::InputSchema)]
#[schema(crate = "tr")]
pub struct Measure {
    /// How far.
    pub value: f64,
    /// In what.
    pub unit: Unit,
}

/// Measures the straight-line distance between two points of a flat map.
#[tr::tool(
    crate = "tr",
    read_only,
    concurrency_safe,
    search_hint = "distance between two map points",
    output = Measure,
    input_examples = [r#"{"from": {"lat": 48.39, "lon": -4.49}, "to": {"lat": 51.9, "lon": -8.47}}"#],
    allowed_callers = ["direct", "code_execution_20260120"]
)]
#[derive(Deserialize)]
pub struct Distance {
    /// Where it starts.
    pub from: Point,
    /// Where it ends.
    pub to: Point,
    /// The unit of the answer; metres when left out.
    pub unit: Option<Unit>,
}

impl tr::Tool for Distance {
    type Output = Structured<Measure>;
    async fn call(self, _: &ToolContext<'_>) -> Result<Structured<Measure>, ToolError> {
        // A degree as 111 km on a flat map: enough to show the call's input arrived.
        let (dlat, dlon) = (self.to.lat - self.from.lat, self.to.lon - self.from.lon);
        let metres = (dlat * dlat + dlon * dlon).sqrt() * 111_000.0;
        let unit = self.unit.unwrap_or(Unit::Metres);
        let value = match unit {
            Unit::Metres => metres,
            Unit::Feet => metres / 0.3048,
        };
        Ok(Structured(Measure { value, unit }))
    }
}

/// Tools whose macros reach toolreg through a re-export: an absolute path of this crate, and
/// a name imported into the module (which the code generated inside its own modules must see
/// too: the run-time gate and the dynamic prompt).
pub mod through_reexport {
    use serde::Deserialize;

    use crate::reexported::toolreg_again as toolreg_here;
    use toolreg_here::{ToolContext, ToolError};

    /// Where two roads meet.
    #[derive(Debug, Deserialize, crate::reexported::toolreg_again::InputSchema)]
    #[schema(crate = "crate::reexported::toolreg_again")]
    #[serde(tag = "kind", rename_all = "snake_case")]
    pub enum Junction {
        /// A roundabout with its number of exits.
        Roundabout { exits: u8 },
        /// Traffic lights.
        Lights,
    }

    /// Whether the tool is offered: always, through the gate's `&Switches` form.
    pub fn offered(_: &toolreg_here::env::Switches) -> bool {
        true
    }

    /// The tool's description, written at run time.
    pub fn describe() -> String {
        "Names a junction.".to_owned()
    }

    #[toolreg_here::tool(crate = "toolreg_here", name = "NameJunction", enabled = offered, prompt = describe)]
    #[derive(Deserialize)]
    pub struct NameJunctionTool {
        /// The junction.
        pub junction: Junction,
    }

    impl toolreg_here::Tool for NameJunctionTool {
        type Output = String;
        async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
            Ok(match self.junction {
                Junction::Roundabout { exits } => format!("a roundabout of {exits} exits"),
                Junction::Lights => "traffic lights".to_owned(),
            })
        }
    }
}
