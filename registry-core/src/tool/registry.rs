//! The set of built-in tools, collected from every `#[tool]` in the binary.

use std::cmp::Ordering;
use std::fmt;
use std::sync::OnceLock;

use crate::ToolDescriptor;

/// One `#[tool]` submission. Generated code builds it; you do not.
#[doc(hidden)]
pub struct Registration(pub &'static ToolDescriptor);

inventory::collect!(Registration);

/// The canonical comparison of tool names: their bytes, in order.
///
/// ```
/// use std::cmp::Ordering;
/// assert_eq!(toolreg::tool::compare_names("Bash", "agent"), Ordering::Less);
/// ```
pub fn compare_names(a: &str, b: &str) -> Ordering {
    a.as_bytes().cmp(b.as_bytes())
}

/// The registered built-ins, sorted by [`compare_names`].
#[derive(Debug)]
pub struct Builtins {
    tools: Vec<&'static ToolDescriptor>,
}

impl Builtins {
    /// Sorts and checks a set of descriptors.
    pub fn from_descriptors(
        mut tools: Vec<&'static ToolDescriptor>,
    ) -> Result<Builtins, DuplicateTool> {
        tools.sort_by(|a, b| compare_names(a.name, b.name));
        match first_clash(&tools) {
            Some(clash) => Err(clash),
            None => Ok(Builtins { tools }),
        }
    }

    /// The tools in canonical order.
    pub fn tools(&self) -> &[&'static ToolDescriptor] {
        &self.tools
    }

    /// Looks a tool up by name or alias (exact, case-sensitive).
    pub fn get(&self, name: &str) -> Option<&'static ToolDescriptor> {
        self.tools
            .iter()
            .copied()
            .find(|tool| tool.name == name || tool.aliases.contains(&name))
    }

    /// The number of tools.
    pub fn len(&self) -> usize {
        self.tools.len()
    }

    /// Whether no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }
}

/// The first name (in [`compare_names`] order) that two of `tools` claim, as a name or an alias:
/// the clash, its two definitions in a fixed order.
pub(crate) fn first_clash(tools: &[&'static ToolDescriptor]) -> Option<DuplicateTool> {
    let mut seen: Vec<(&'static str, &'static ToolDescriptor)> = tools
        .iter()
        .flat_map(|tool| {
            std::iter::once(tool.name)
                .chain(tool.aliases.iter().copied())
                .map(move |name| (name, *tool))
        })
        .collect();
    seen.sort_by(|a, b| {
        compare_names(a.0, b.0).then_with(|| {
            compare_names(a.1.source.type_path, b.1.source.type_path)
                .then(a.1.source.line.cmp(&b.1.source.line))
        })
    });
    let mut neighbours = seen.iter().zip(seen.iter().skip(1));
    neighbours
        .find(|(a, b)| a.0 == b.0)
        .map(|(first, second)| DuplicateTool {
            name: first.0,
            first: first.1,
            second: second.1,
        })
}

/// The crate a path names first: `my_app` for `my_app::tools::WeatherTool` (a `#[tool]`'s
/// [`Source::type_path`](crate::tool::Source::type_path)), or for `module_path!()` anywhere in
/// `my_app`.
pub fn crate_name(path: &str) -> &str {
    path.split_once("::").map_or(path, |(krate, _)| krate)
}

/// Every `#[tool]` of the crate `krate` registered in this program, in no particular order.
pub(crate) fn registered_in(krate: &str) -> Vec<&'static ToolDescriptor> {
    inventory::iter::<Registration>
        .into_iter()
        .map(|registration| registration.0)
        .filter(|tool| crate_name(tool.source.type_path) == krate)
        .collect()
}

/// Two built-ins claim the same name (as a name or an alias).
#[derive(Debug, Clone)]
pub struct DuplicateTool {
    /// The contested name.
    pub name: &'static str,
    /// One definition.
    pub first: &'static ToolDescriptor,
    /// The other.
    pub second: &'static ToolDescriptor,
}

impl fmt::Display for DuplicateTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "two tools are named `{}`: {} and {}; rename one of them or drop the alias",
            self.name, self.first.source, self.second.source
        )
    }
}

impl std::error::Error for DuplicateTool {}

/// The process-wide snapshot of every registered `#[tool]`, of every crate the program links,
/// built on first use.
///
/// This is the registry, for listing and inspection. A pool is built from a
/// [`Catalog`](crate::Catalog) the program composes by name: [`own_tools!`](crate::own_tools)
/// (the calling crate's tools), a tool set's catalog, [`Catalog::with`](crate::Catalog::with),
/// [`Catalog::select`](crate::Catalog::select). A catalog built from this snapshot would
/// change whenever the program links one more crate that registers tools.
///
/// ```
/// let builtins = toolreg::builtins().expect("no duplicate names");
/// for tool in builtins.tools() {
///     println!("{}", tool.name);
/// }
/// ```
///
/// # How it works
/// Each `#[tool]` expands to an [`inventory::submit!`] of its const [`ToolDescriptor`]. Before
/// `main` runs, inventory's platform constructors link every submission into one list;
/// [`builtins`] walks that list once, sorts it and checks it, and keeps the result for the life of
/// the process.
///
/// # Order
/// inventory yields submissions in an unspecified order that depends on link order, so the
/// snapshot never exposes it: tools are sorted by [`compare_names`], a plain comparison of the
/// names' bytes (UTF-8 code units; for the ASCII names tools may have, `A` < `Z` < `_` < `a`).
/// It ignores locale, so every machine sorts alike.
///
/// # What inventory does not guarantee
/// * Platforms: it works on Linux, macOS, Windows, the BSDs, iOS/Android and WebAssembly with a
///   constructor-running runtime; elsewhere the list is empty.
/// * A crate whose items are never referenced may be dropped by the linker, and its tools with
///   it. A program that builds its catalog from a crate's function (`toolreg_tools::catalog()`)
///   references that crate.
/// * Registration happens before `main`; the list is not available in `const` context.
pub fn builtins() -> Result<&'static Builtins, &'static DuplicateTool> {
    static SNAPSHOT: OnceLock<Result<Builtins, DuplicateTool>> = OnceLock::new();
    SNAPSHOT
        .get_or_init(|| {
            Builtins::from_descriptors(
                inventory::iter::<Registration>
                    .into_iter()
                    .map(|registration| registration.0)
                    .collect(),
            )
        })
        .as_ref()
}

/// The catalog of the calling crate's own tools: every `#[tool]` defined in this crate, in
/// name order, then the core's own tools ([`Catalog::core_tools`](crate::Catalog::core_tools):
/// ToolSearch, which a pool offers only when tool search might be on). No tool of another crate
/// is in it, whatever else the program links; add a tool set's tools by name with
/// [`Catalog::with`](crate::Catalog::with).
///
/// It expands to a `Result<Catalog, CatalogError>`: an error when two tools of the crate share
/// a name (or alias), naming both definitions.
///
/// ```rust,standalone_crate
/// use serde::Deserialize;
/// use toolreg::{Tool, ToolContext, ToolError, tool};
///
/// /// Gives the weather for a city.
/// #[tool(read_only)]
/// #[derive(Deserialize)]
/// pub struct WeatherTool {
///     /// The city.
///     pub city: String,
/// }
///
/// impl Tool for WeatherTool {
///     type Output = String;
///     async fn call(self, _: &ToolContext<'_>) -> Result<String, ToolError> {
///         Ok(format!("{}: sunny", self.city))
///     }
/// }
///
/// fn main() -> Result<(), toolreg::CatalogError> {
///     let catalog = toolreg::own_tools!()?;
///     let names: Vec<&str> = catalog.tools().iter().map(|tool| tool.name).collect();
///     assert_eq!(names, ["Weather", "ToolSearch"]);
///     Ok(())
/// }
/// ```
#[macro_export]
macro_rules! own_tools {
    () => {
        $crate::Catalog::defined_in($crate::__private::crate_name(::core::module_path!()))
            .and_then(|own| own.with($crate::Catalog::core_tools()))
    };
}
