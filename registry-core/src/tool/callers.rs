//! Who may call a tool and who called it: the model directly, or code the model runs in the
//! Anthropic API's code execution tool (programmatic tool calling).
//!
//! A tool's [`AllowedCallers`] are sent as its `allowed_callers` and enforced when a call
//! arrives: a `tool_use` block's [`Caller`] that the tool does not allow gets an `is_error`
//! result, and the tool does not run.

use std::fmt;

use serde::{Serialize, Serializer};
use serde_json::Value;

/// A caller a tool can allow: one value of a tool's `allowed_callers`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CallerKind {
    /// The model itself (`direct`).
    Direct,
    /// Code run by the code execution tool of version `code_execution_20250825`.
    CodeExecution20250825,
    /// Code run by the code execution tool of version `code_execution_20260120`.
    CodeExecution20260120,
}

impl CallerKind {
    /// Every kind, in the order `allowed_callers` lists them.
    pub const ALL: [CallerKind; 3] = [
        CallerKind::Direct,
        CallerKind::CodeExecution20250825,
        CallerKind::CodeExecution20260120,
    ];

    /// The name the API gives it.
    pub const fn as_str(self) -> &'static str {
        match self {
            CallerKind::Direct => "direct",
            CallerKind::CodeExecution20250825 => "code_execution_20250825",
            CallerKind::CodeExecution20260120 => "code_execution_20260120",
        }
    }

    /// The kind the API calls `name`.
    pub fn from_name(name: &str) -> Option<CallerKind> {
        CallerKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == name)
    }

    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for CallerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The callers a tool allows: a set of [`CallerKind`]s, sent as the tool's `allowed_callers`.
/// A tool that names none is called directly only (the API's default).
///
/// ```
/// use toolreg::tool::{AllowedCallers, Caller, CallerKind};
///
/// let callers = AllowedCallers::DIRECT.with(CallerKind::CodeExecution20260120);
/// assert!(callers.allows(&Caller::Direct));
/// let from_code = Caller::Code { kind: CallerKind::CodeExecution20260120, tool_id: "srvtoolu_1".into() };
/// assert!(callers.allows(&from_code));
/// assert!(!AllowedCallers::DIRECT.allows(&from_code));
/// assert_eq!(serde_json::to_string(&callers).unwrap(), r#"["direct","code_execution_20260120"]"#);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AllowedCallers(u8);

impl AllowedCallers {
    /// No caller at all.
    pub const NONE: AllowedCallers = AllowedCallers(0);
    /// The model only.
    pub const DIRECT: AllowedCallers = AllowedCallers(CallerKind::Direct.bit());
    /// Code run by any version of the code execution tool, and not the model directly.
    pub const CODE: AllowedCallers = AllowedCallers(
        CallerKind::CodeExecution20250825.bit() | CallerKind::CodeExecution20260120.bit(),
    );
    /// The model, and code run by any version of the code execution tool.
    pub const DIRECT_AND_CODE: AllowedCallers = AllowedCallers(Self::DIRECT.0 | Self::CODE.0);

    /// This set and `kind`.
    pub const fn with(self, kind: CallerKind) -> AllowedCallers {
        AllowedCallers(self.0 | kind.bit())
    }

    /// Both sets.
    pub const fn union(self, other: AllowedCallers) -> AllowedCallers {
        AllowedCallers(self.0 | other.0)
    }

    /// Whether `kind` is in the set.
    pub const fn contains(self, kind: CallerKind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The kinds in the set, in the order `allowed_callers` lists them.
    pub fn kinds(self) -> impl Iterator<Item = CallerKind> {
        CallerKind::ALL
            .into_iter()
            .filter(move |kind| self.contains(*kind))
    }

    /// Whether a call made by `caller` may run.
    pub fn allows(self, caller: &Caller) -> bool {
        match caller {
            Caller::Direct => self.contains(CallerKind::Direct),
            Caller::Code { kind, .. } => self.contains(*kind),
            Caller::Unrecognized(_) => false,
        }
    }
}

impl FromIterator<CallerKind> for AllowedCallers {
    fn from_iter<I: IntoIterator<Item = CallerKind>>(kinds: I) -> Self {
        kinds
            .into_iter()
            .fold(AllowedCallers::NONE, AllowedCallers::with)
    }
}

impl fmt::Debug for AllowedCallers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.kinds()).finish()
    }
}

impl fmt::Display for AllowedCallers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.kinds().map(CallerKind::as_str).collect();
        f.write_str(&names.join(", "))
    }
}

impl Serialize for AllowedCallers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.kinds().map(CallerKind::as_str))
    }
}

/// Who made a call: an Anthropic `tool_use` block's `caller`. Calls of the other APIs, and
/// blocks without one, are direct.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Caller {
    /// The model itself.
    #[default]
    Direct,
    /// Code the model runs in the code execution tool.
    Code {
        /// The code execution tool's version (never [`CallerKind::Direct`]).
        kind: CallerKind,
        /// The id of the `server_tool_use` block that runs the code.
        tool_id: String,
    },
    /// A caller type this library does not know, as the API named it: no tool allows it.
    Unrecognized(String),
}

impl Caller {
    /// The caller a `tool_use` block's `caller` value names (`None`: the block has none).
    pub fn from_value(value: Option<&Value>) -> Caller {
        let Some(value) = value else {
            return Caller::Direct;
        };
        let kind_name = value.get("type").and_then(Value::as_str).unwrap_or("");
        let tool_id = value.get("tool_id").and_then(Value::as_str);
        match (CallerKind::from_name(kind_name), tool_id) {
            (Some(CallerKind::Direct), _) => Caller::Direct,
            (Some(kind), Some(tool_id)) => Caller::Code {
                kind,
                tool_id: tool_id.to_owned(),
            },
            _ => Caller::Unrecognized(value.to_string()),
        }
    }

    /// The kind of caller, as the API names it (`direct`, `code_execution_20260120`, …).
    pub fn name(&self) -> &str {
        match self {
            Caller::Direct => CallerKind::Direct.as_str(),
            Caller::Code { kind, .. } => kind.as_str(),
            Caller::Unrecognized(value) => value,
        }
    }
}
