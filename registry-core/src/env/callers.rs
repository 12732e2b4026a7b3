//! Who may call which tools, as the application decides it: rules that name tools as
//! permission rules do (`Read`, `mcp__github`, `mcp__github__*`, `mcp__github__list_issues`),
//! each with the callers it allows.

use crate::permissions::{RuleError, RuleTarget, RuleValue};
use crate::tool::AllowedCallers;

/// The application's caller rules: for each tool a rule names, the callers it allows, in place
/// of what the tool declares (`#[tool(allowed_callers = [...])]`). A tool several rules name
/// allows the callers of each. Pool assembly applies them
/// ([`ToolInfo::allowed_callers`](crate::ToolInfo::allowed_callers)); rendering sends them and
/// dispatch enforces them.
///
/// ```
/// use toolreg::env::CallerRules;
/// use toolreg::tool::AllowedCallers;
/// use toolreg::{Env, Pool, ToolInfo};
/// use std::sync::Arc;
///
/// let mut env = Env::default();
/// env.callers.allow("Read", AllowedCallers::DIRECT_AND_CODE)?;
/// let pool = Pool::new(&env, [Arc::new(ToolInfo::new("Read", "Reads a file.")), Arc::new(ToolInfo::new("Write", "Writes one."))]);
/// assert_eq!(pool.named("Read").unwrap().callers(), AllowedCallers::DIRECT_AND_CODE);
/// assert_eq!(pool.named("Write").unwrap().callers(), AllowedCallers::DIRECT);
/// // A rule names whole tools: content is refused.
/// assert!(env.callers.allow("Bash(git status)", AllowedCallers::CODE).is_err());
/// # Ok::<(), toolreg::permissions::RuleError>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallerRules {
    rules: Vec<(RuleValue, AllowedCallers)>,
}

impl CallerRules {
    /// No rules: every tool keeps what it declares.
    pub fn new() -> Self {
        Self::default()
    }

    /// Lets `callers` call the tools `rule` names.
    ///
    /// # Errors
    /// A malformed rule ([`RuleError`]), or one with content
    /// ([`RuleError::Content`]): callers are a whole tool's.
    pub fn allow(&mut self, rule: &str, callers: AllowedCallers) -> Result<&mut Self, RuleError> {
        let value: RuleValue = rule.parse()?;
        if value.content.is_some() {
            return Err(RuleError::Content {
                rule: rule.to_owned(),
            });
        }
        self.rules.push((value, callers));
        Ok(self)
    }

    /// Whether there are no rules.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The callers the rules that name `tool` allow together; `None` when none names it.
    pub fn callers_of(&self, tool: RuleTarget<'_>) -> Option<AllowedCallers> {
        self.rules
            .iter()
            .filter(|(rule, _)| rule.matches_whole_tool(tool))
            .map(|(_, callers)| *callers)
            .reduce(AllowedCallers::union)
    }
}
