//! Permission rules: parsing, sources, and which rule applies to a tool.
//!
//! A rule string is `Tool` or `Tool(content)`. Content runs from the first unescaped `(` to a
//! final unescaped `)`; `\(`, `\)` and `\\` are escapes. `Tool()` and `Tool(*)` mean the whole
//! tool. A string that does not have that shape is taken whole as a tool name. Legacy tool names
//! are mapped to current ones (`Task` → `Agent`).
//!
//! A rule *without* content applies to a tool as a whole and can remove it from the pool (deny).
//! A rule *with* content (`Bash(npm test:*)`) never removes a tool; it is matched against the
//! input at call time by dispatch.

use std::fmt;

use crate::names;
use crate::pool::ToolInfo;

/// Where a rule came from, in the order sources are scanned: the first matching rule wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleSource {
    /// The user's settings.
    User,
    /// The project's shared settings.
    Project,
    /// The project's local settings.
    Local,
    /// Settings given by a command-line flag.
    Flag,
    /// Managed policy settings.
    Policy,
    /// `--allowed-tools` / `--disallowed-tools` style arguments.
    CliArg,
    /// A slash command's frontmatter.
    Command,
    /// Granted during this session.
    Session,
}

impl RuleSource {
    /// Every source, in scan order.
    pub const ALL: [RuleSource; 8] = [
        RuleSource::User,
        RuleSource::Project,
        RuleSource::Local,
        RuleSource::Flag,
        RuleSource::Policy,
        RuleSource::CliArg,
        RuleSource::Command,
        RuleSource::Session,
    ];

    /// The source's name as settings files spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleSource::User => "userSettings",
            RuleSource::Project => "projectSettings",
            RuleSource::Local => "localSettings",
            RuleSource::Flag => "flagSettings",
            RuleSource::Policy => "policySettings",
            RuleSource::CliArg => "cliArg",
            RuleSource::Command => "command",
            RuleSource::Session => "session",
        }
    }
}

/// What a rule does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Behavior {
    /// Run without asking.
    Allow,
    /// Never run.
    Deny,
    /// Ask the user.
    Ask,
}

/// A parsed rule value: the tool and the optional content.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RuleValue {
    /// The tool name (legacy names already mapped).
    pub tool: String,
    /// The content between the parentheses, unescaped; `None` for the whole tool.
    pub content: Option<String>,
}

impl RuleValue {
    /// Parses a rule string. Never fails: a malformed string is a tool name.
    ///
    /// ```
    /// use registry_core::permissions::RuleValue;
    /// let rule = RuleValue::parse(r"Bash(echo \(hi\))");
    /// assert_eq!(rule.tool, "Bash");
    /// assert_eq!(rule.content.as_deref(), Some("echo (hi)"));
    /// assert_eq!(RuleValue::parse("Read(*)").content, None);
    /// assert_eq!(RuleValue::parse("Task").tool, "Agent");
    /// ```
    pub fn parse(rule: &str) -> RuleValue {
        let whole = || RuleValue {
            tool: names::canonical(rule).to_owned(),
            content: None,
        };
        let Some(open) = find_unescaped(rule, b'(') else {
            return whole();
        };
        let bytes = rule.as_bytes();
        let closes = bytes.last() == Some(&b')') && !is_escaped(bytes, bytes.len() - 1);
        if !closes || open == 0 || open + 1 > bytes.len() - 1 {
            return whole();
        }
        let tool = &rule[..open];
        let raw = &rule[open + 1..rule.len() - 1];
        let content = unescape(raw);
        RuleValue {
            tool: names::canonical(tool).to_owned(),
            content: (!content.is_empty() && content != "*").then_some(content),
        }
    }

    /// Whether this rule, which must have no content, names `tool` as a whole: the tool's
    /// permission name, or an MCP server prefix (`mcp__server`, `mcp__server__*`) of an MCP
    /// tool's server. There is no `mcp__*` wildcard.
    pub fn matches_whole_tool(&self, tool: &ToolInfo) -> bool {
        if self.content.is_some() {
            return false;
        }
        if self.tool == tool.permission_name() {
            return true;
        }
        let (Some(rule_server), Some(mcp)) = (mcp_server_prefix(&self.tool), tool.mcp.as_ref())
        else {
            return false;
        };
        rule_server == mcp.normalized_server
    }
}

impl fmt::Display for RuleValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.content {
            None => f.write_str(&self.tool),
            Some(content) => {
                let escaped = content
                    .replace('\\', "\\\\")
                    .replace('(', "\\(")
                    .replace(')', "\\)");
                write!(f, "{}({escaped})", self.tool)
            }
        }
    }
}

/// `mcp__server` or `mcp__server__*` → `server`.
fn mcp_server_prefix(rule_tool: &str) -> Option<&str> {
    let rest = rule_tool.strip_prefix("mcp__")?;
    let server = rest.strip_suffix("__*").unwrap_or(rest);
    (!server.is_empty() && !server.contains("__")).then_some(server)
}

fn is_escaped(bytes: &[u8], index: usize) -> bool {
    let backslashes = bytes[..index]
        .iter()
        .rev()
        .take_while(|&&b| b == b'\\')
        .count();
    backslashes % 2 == 1
}

fn find_unescaped(text: &str, needle: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len()).find(|&i| bytes[i] == needle && !is_escaped(bytes, i))
}

fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(ch) = chars.next() {
        if ch == '\\' {
            match chars.next() {
                Some(next @ ('(' | ')' | '\\')) => out.push(next),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(ch);
        }
    }
    out
}

/// A rule with its behaviour and source.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PermissionRule {
    /// What it names.
    pub value: RuleValue,
    /// What it does.
    pub behavior: Behavior,
    /// Where it came from.
    pub source: RuleSource,
}

impl fmt::Display for PermissionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (from {})", self.value, self.source.as_str())
    }
}

/// The permission mode of the session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PermissionMode {
    /// Ask where a rule or the tool says so.
    #[default]
    Default,
    /// Edits are allowed without asking.
    AcceptEdits,
    /// Nothing asks; deny rules still apply.
    BypassPermissions,
    /// Planning: the host decides what runs.
    Plan,
}

/// The rules by source and the mode.
#[derive(Debug, Clone, Default)]
pub struct PermissionContext {
    /// The session's mode.
    pub mode: PermissionMode,
    rules: Vec<PermissionRule>,
}

impl PermissionContext {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a rule string for a behaviour and source.
    pub fn add(&mut self, behavior: Behavior, source: RuleSource, rule: &str) -> &mut Self {
        self.rules.push(PermissionRule {
            value: RuleValue::parse(rule),
            behavior,
            source,
        });
        // Stable: rules of one source keep the order they were added in.
        self.rules.sort_by_key(|rule| rule.source);
        self
    }

    /// Builder form of [`add`](Self::add).
    pub fn with(mut self, behavior: Behavior, source: RuleSource, rule: &str) -> Self {
        self.add(behavior, source, rule);
        self
    }

    /// All rules, in scan order (by source, then as added).
    pub fn rules(&self) -> &[PermissionRule] {
        &self.rules
    }

    fn whole_tool_rule(&self, behavior: Behavior, tool: &ToolInfo) -> Option<&PermissionRule> {
        self.rules
            .iter()
            .find(|rule| rule.behavior == behavior && rule.value.matches_whole_tool(tool))
    }

    /// The first rule without content that denies `tool` as a whole.
    pub fn deny_rule_for_tool(&self, tool: &ToolInfo) -> Option<&PermissionRule> {
        self.whole_tool_rule(Behavior::Deny, tool)
    }

    /// The first rule without content that allows `tool` as a whole.
    pub fn allow_rule_for_tool(&self, tool: &ToolInfo) -> Option<&PermissionRule> {
        self.whole_tool_rule(Behavior::Allow, tool)
    }

    /// The first rule without content that asks before `tool` runs.
    pub fn ask_rule_for_tool(&self, tool: &ToolInfo) -> Option<&PermissionRule> {
        self.whole_tool_rule(Behavior::Ask, tool)
    }

    /// The first rule with content, of `behavior`, for `tool`, whose content matches `input`
    /// (see [`content_matches`]).
    pub fn content_rule(
        &self,
        behavior: Behavior,
        tool: &ToolInfo,
        input: &str,
    ) -> Option<&PermissionRule> {
        let name = tool.permission_name();
        self.rules.iter().find(|rule| {
            rule.behavior == behavior
                && rule.value.tool == name
                && rule
                    .value
                    .content
                    .as_deref()
                    .is_some_and(|pattern| content_matches(pattern, input))
        })
    }
}

/// Whether a rule's content matches a tool's input text.
///
/// * `prefix:*` matches any input that starts with `prefix` (`npm test:*` matches `npm test -w`);
/// * otherwise `*` matches any run of characters (`src/*.rs`), and everything else must be equal.
pub fn content_matches(pattern: &str, input: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return input.starts_with(prefix);
    }
    wildcard(pattern.as_bytes(), input.as_bytes())
}

fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((star_p, star_t)) = star {
            p = star_p + 1;
            t = star_t + 1;
            star = Some((star_p, star_t + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&b| b == b'*')
}
