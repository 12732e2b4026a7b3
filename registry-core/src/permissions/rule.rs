//! A rule: its string form, what it names, what it does and where it came from.

use std::fmt;

/// Where a rule came from, in the order sources are scanned: the first matching rule wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleSource {
    /// Rules the host program adds to keep its own secrets out of the tools' reach (the
    /// `toolreg` CLI's credentials file and tokens file), not read from any settings; scanned
    /// first.
    Safeguard,
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
    pub const ALL: [RuleSource; 9] = [
        RuleSource::Safeguard,
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
            RuleSource::Safeguard => "safeguard",
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

    /// The source's position in scan order.
    pub(crate) fn rank(self) -> usize {
        self as usize
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

/// What a tool is to the rules: its permission name and, for an MCP tool, its server.
///
/// The permission name of an MCP tool is `mcp__<normalized server>__<normalized tool>`,
/// computed from the names the server sent, whatever display name the pool gave the tool to
/// keep names unique and short (see [`crate::mcp`]). Two tools whose raw names normalize alike
/// share one permission name, so a rule naming it matches both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleTarget<'a> {
    /// The name whole-tool rules compare.
    pub name: &'a str,
    /// The normalized server name of an MCP tool.
    pub server: Option<&'a str>,
}

impl<'a> RuleTarget<'a> {
    /// A tool that is not from an MCP server.
    pub fn named(name: &'a str) -> Self {
        RuleTarget { name, server: None }
    }
}

/// A parsed rule value: the tool and the optional content.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct RuleValue {
    /// The tool name, as written (a context with legacy names maps them when the rule is added:
    /// [`PermissionContext::set_legacy_names`](crate::PermissionContext::set_legacy_names)).
    pub tool: String,
    /// The content between the parentheses, unescaped; `None` for the whole tool.
    pub content: Option<String>,
}

/// Why a rule string is malformed ([`str::parse`] into a [`RuleValue`],
/// [`PermissionContext::try_add`](crate::PermissionContext::try_add)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum RuleError {
    /// The rule is empty.
    Empty,
    /// Nothing names a tool before the `(`: `(npm test)`.
    NoTool {
        /// The rule.
        rule: String,
    },
    /// A `(` that no `)` at the end closes: `Bash(npm test`.
    Unclosed {
        /// The rule.
        rule: String,
        /// The byte offset of the `(`.
        at: usize,
    },
    /// A `)` at the end that no `(` opens: `Bash npm test)`.
    Unopened {
        /// The rule.
        rule: String,
    },
    /// The tool name holds white space, which no tool's name does: `Bash (ls)`, ` Read`.
    Space {
        /// The rule.
        rule: String,
    },
    /// Content where only a whole tool can be named (a [caller rule](crate::env::CallerRules)):
    /// `Bash(git status)`.
    Content {
        /// The rule.
        rule: String,
    },
}

impl RuleError {
    /// What is wrong, without the rule itself (for a message that must not quote it).
    pub fn reason(&self) -> String {
        match self {
            RuleError::Empty => "an empty rule names no tool".into(),
            RuleError::NoTool { .. } => "no tool name before `(`".into(),
            RuleError::Unclosed { at, .. } => format!(
                "the `(` at byte {at} is not closed by a `)` ending the rule (escape a literal \
                 one as `\\(`)"
            ),
            RuleError::Unopened { .. } => {
                "it ends with a `)` that no `(` opens (escape a literal one as `\\)`)".into()
            }
            RuleError::Space { .. } => {
                "the tool name holds white space (write `Tool(content)`, no space before `(`)"
                    .into()
            }
            RuleError::Content { .. } => {
                "this rule names whole tools, not content: write the tool's name alone".into()
            }
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Empty => f.write_str(&self.reason()),
            RuleError::NoTool { rule }
            | RuleError::Unclosed { rule, .. }
            | RuleError::Unopened { rule }
            | RuleError::Space { rule }
            | RuleError::Content { rule } => write!(f, "rule `{rule}`: {}", self.reason()),
        }
    }
}

impl std::error::Error for RuleError {}

impl std::str::FromStr for RuleValue {
    type Err = RuleError;

    /// Parses a rule string, refusing a malformed one, where [`RuleValue::parse`] would read
    /// the whole string as a tool name that matches nothing.
    ///
    /// ```
    /// use toolreg::permissions::{RuleError, RuleValue};
    /// let rule: RuleValue = "Bash(npm test:*)".parse()?;
    /// assert_eq!(rule.content.as_deref(), Some("npm test:*"));
    /// assert!(matches!("Bash(npm test".parse::<RuleValue>(), Err(RuleError::Unclosed { at: 4, .. })));
    /// # Ok::<(), RuleError>(())
    /// ```
    fn from_str(rule: &str) -> Result<RuleValue, RuleError> {
        if rule.is_empty() {
            return Err(RuleError::Empty);
        }
        let owned = || rule.to_owned();
        let closed = rule.ends_with(')') && !is_escaped(rule.as_bytes(), rule.len() - 1);
        let tool = match find_unescaped(rule, b'(') {
            Some(0) => return Err(RuleError::NoTool { rule: owned() }),
            Some(at) if !closed || at == rule.len() - 1 => {
                return Err(RuleError::Unclosed { rule: owned(), at });
            }
            Some(at) => &rule[..at],
            None if closed => return Err(RuleError::Unopened { rule: owned() }),
            None => rule,
        };
        if tool.chars().any(char::is_whitespace) {
            return Err(RuleError::Space { rule: owned() });
        }
        Ok(RuleValue::parse(rule))
    }
}

impl RuleValue {
    /// Parses a rule string as the design does: never fails, a malformed string is a tool name
    /// (which matches no tool). To refuse a malformed rule instead, parse with [`str::parse`]
    /// ([`RuleError`]).
    ///
    /// ```
    /// use toolreg::permissions::RuleValue;
    /// let rule = RuleValue::parse(r"Bash(echo \(hi\))");
    /// assert_eq!(rule.tool, "Bash");
    /// assert_eq!(rule.content.as_deref(), Some("echo (hi)"));
    /// assert_eq!(RuleValue::parse("Read(*)").content, None);
    /// ```
    pub fn parse(rule: &str) -> RuleValue {
        let whole = || RuleValue {
            tool: rule.to_owned(),
            content: None,
        };
        let Some(open) = find_unescaped(rule, b'(') else {
            return whole();
        };
        let Some(inner) = rule.strip_suffix(')') else {
            return whole();
        };
        if open == 0 || is_escaped(inner.as_bytes(), inner.len()) {
            return whole();
        }
        let (Some(tool), Some(raw)) = (rule.get(..open), inner.get(open + 1..)) else {
            return whole();
        };
        let content = unescape(raw);
        RuleValue {
            tool: tool.to_owned(),
            content: (!content.is_empty() && content != "*").then_some(content),
        }
    }

    /// This rule with its tool renamed by `legacy` (old name, current name), when it names an
    /// old one.
    pub fn renamed(mut self, legacy: &[(&str, &str)]) -> RuleValue {
        if let Some((_, current)) = legacy.iter().find(|(old, _)| *old == self.tool) {
            self.tool = (*current).to_owned();
        }
        self
    }

    /// Whether this rule, which must have no content, names `tool` as a whole: the tool's
    /// permission name, or an MCP server prefix (`mcp__server`, `mcp__server__*`) of an MCP
    /// tool's server. There is no `mcp__*` wildcard.
    pub fn matches_whole_tool(&self, tool: RuleTarget<'_>) -> bool {
        if self.content.is_some() {
            return false;
        }
        if self.tool == tool.name {
            return true;
        }
        match (self.server_prefix(), tool.server) {
            (Some(rule_server), Some(server)) => rule_server == server,
            _ => false,
        }
    }

    /// `mcp__server` or `mcp__server__*` → `server`.
    pub(crate) fn server_prefix(&self) -> Option<&str> {
        let rest = self.tool.strip_prefix("mcp__")?;
        let server = rest.strip_suffix("__*").unwrap_or(rest);
        (!server.is_empty() && !server.contains("__")).then_some(server)
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

/// Whether the byte at `index` is preceded by an odd number of backslashes.
fn is_escaped(bytes: &[u8], index: usize) -> bool {
    let before = bytes.get(..index).unwrap_or(bytes);
    before.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1
}

fn find_unescaped(text: &str, needle: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    bytes
        .iter()
        .enumerate()
        .find(|&(i, &b)| b == needle && !is_escaped(bytes, i))
        .map(|(i, _)| i)
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
