//! The session's rules, mode and working directories, and what they say about one call.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use super::content::content_matches;
use super::content_check::{Ask, ContentCheck, check_command};
use super::path::{PathGlob, PatternError, absolute, resolve_traced};
use super::rule::{Behavior, PermissionRule, RuleSource, RuleTarget, RuleValue};
use super::subject::{Access, Subject};
use super::verdict::{Refusal, Verdict};

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

/// What happens to a write outside every working directory.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum OutsideWrites {
    /// The user is asked, unless a path rule allows that path (the default).
    #[default]
    Ask,
    /// Refused, whatever the rules and the mode say.
    Refuse,
    /// No boundary: writes go wherever the rules let them.
    Allow,
}

/// The rules by source, the mode, and the directories path rules and the working-directory
/// boundary are relative to.
///
/// ```
/// use std::path::Path;
/// use toolreg::permissions::{RuleTarget, Subject, Verdict};
/// use toolreg::{Behavior, PermissionContext, RuleSource};
///
/// let rules = PermissionContext::new()
///     .with(Behavior::Allow, RuleSource::User, "Bash(git status:*)")
///     .with(Behavior::Deny, RuleSource::Project, "Bash(rm:*)");
/// let bash = RuleTarget::named("Bash");
/// let verdict = |command: &str| rules.check(bash, Some(&Subject::Command(command.into())), Path::new("."));
/// assert!(matches!(verdict("git status --short"), Verdict::Allow));
/// assert!(matches!(verdict("ls; rm -rf build"), Verdict::Deny(_)));
/// ```
#[derive(Debug, Clone, Default)]
pub struct PermissionContext {
    /// The session's mode.
    pub mode: PermissionMode,
    /// What happens to writes outside the working directories.
    pub outside_writes: OutsideWrites,
    by_source: [Vec<PermissionRule>; RuleSource::ALL.len()],
    pub(super) project_root: Option<PathBuf>,
    pub(super) home: Option<PathBuf>,
    pub(super) additional_dirs: Vec<PathBuf>,
    legacy_names: &'static [(&'static str, &'static str)],
    index: OnceLock<Index>,
}

/// A rule's place in scan order: its source, then its position among that source's rules.
pub(super) type Position = (usize, usize);

/// The rules by the tool they name, so a lookup does not scan every rule.
#[derive(Debug, Clone, Default)]
struct Index {
    /// Whole-tool rules by tool name: the first of each behaviour.
    whole: HashMap<String, [Option<Position>; 3]>,
    /// Server rules (`mcp__server`, `mcp__server__*`) by normalized server name.
    servers: HashMap<String, [Option<Position>; 3]>,
    /// Rules with content by tool name, in scan order.
    content: HashMap<String, Vec<Position>>,
    /// The path glob of each rule with content, compiled the first time a path is checked
    /// against it (a command rule's content is never compiled).
    globs: HashMap<Position, OnceLock<Result<Arc<PathGlob>, PatternError>>>,
}

fn slot(behavior: Behavior) -> usize {
    match behavior {
        Behavior::Allow => 0,
        Behavior::Deny => 1,
        Behavior::Ask => 2,
    }
}

impl PermissionContext {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a rule string for a behaviour and source, read as the design reads settings: a
    /// malformed string is a tool name ([`RuleValue::parse`]). [`try_add`](Self::try_add)
    /// refuses it instead.
    pub fn add(&mut self, behavior: Behavior, source: RuleSource, rule: &str) -> &mut Self {
        self.push(behavior, source, RuleValue::parse(rule))
    }

    /// Adds a rule string for a behaviour and source, refusing a malformed one: for rules a
    /// person just wrote (a command-line flag, a tokens file).
    ///
    /// ```
    /// use toolreg::{Behavior, PermissionContext, RuleSource};
    /// let mut rules = PermissionContext::new();
    /// rules.try_add(Behavior::Deny, RuleSource::CliArg, "Bash(rm:*)")?;
    /// let error = rules.try_add(Behavior::Deny, RuleSource::CliArg, "Bash(rm:*").unwrap_err();
    /// assert!(error.to_string().contains("`Bash(rm:*`"));
    /// # Ok::<(), toolreg::permissions::RuleError>(())
    /// ```
    ///
    /// # Errors
    /// A [`RuleError`](crate::permissions::RuleError) naming the rule and what is wrong with it.
    pub fn try_add(
        &mut self,
        behavior: Behavior,
        source: RuleSource,
        rule: &str,
    ) -> Result<&mut Self, crate::permissions::RuleError> {
        let value = rule.parse()?;
        Ok(self.push(behavior, source, value))
    }

    fn push(&mut self, behavior: Behavior, source: RuleSource, value: RuleValue) -> &mut Self {
        if let Some(rules) = self.by_source.get_mut(source.rank()) {
            rules.push(PermissionRule {
                value: value.renamed(self.legacy_names),
                behavior,
                source,
            });
        }
        self.index = OnceLock::new();
        self
    }

    /// Builder form of [`add`](Self::add).
    pub fn with(mut self, behavior: Behavior, source: RuleSource, rule: &str) -> Self {
        self.add(behavior, source, rule);
        self
    }

    /// Old tool names that rules may still use, with the current names (a profile's, e.g.
    /// `toolreg_tools::profile::names::LEGACY`): rules added before
    /// and after are renamed.
    pub fn set_legacy_names(
        &mut self,
        legacy: &'static [(&'static str, &'static str)],
    ) -> &mut Self {
        self.legacy_names = legacy;
        for rule in self.by_source.iter_mut().flatten() {
            rule.value = std::mem::take(&mut rule.value).renamed(legacy);
        }
        self.index = OnceLock::new();
        self
    }

    /// All rules, in scan order (by source, then as added).
    pub fn rules(&self) -> impl Iterator<Item = &PermissionRule> {
        self.by_source.iter().flatten()
    }

    /// Sets the project root: the base of relative path rules and the first working directory.
    /// Without one, the calling context's working directory is used.
    pub fn set_project_root(&mut self, root: impl Into<PathBuf>) -> &mut Self {
        self.project_root = Some(root.into());
        self
    }

    /// Sets the home directory, the base of `~/` path rules. An empty path sets none: then a
    /// deny or ask rule with a `~/` pattern refuses every path it is checked against.
    pub fn set_home(&mut self, home: impl Into<PathBuf>) -> &mut Self {
        let home = home.into();
        self.home = (!home.as_os_str().is_empty()).then_some(home);
        self
    }

    /// Adds a directory, besides the project root, inside which writes need no asking.
    pub fn add_working_directory(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.additional_dirs.push(dir.into());
        self
    }

    /// The directories, besides the project root, inside which writes need no asking.
    pub fn working_directories(&self) -> impl Iterator<Item = &Path> {
        self.additional_dirs.iter().map(PathBuf::as_path)
    }

    /// The project root, when one was set.
    pub fn project_root(&self) -> Option<&Path> {
        self.project_root.as_deref()
    }

    pub(super) fn rule(&self, (source, i): Position) -> Option<&PermissionRule> {
        self.by_source.get(source)?.get(i)
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let mut index = Index::default();
            for (source, rules) in self.by_source.iter().enumerate() {
                for (i, rule) in rules.iter().enumerate() {
                    let position = (source, i);
                    if rule.value.content.is_some() {
                        index.globs.insert(position, OnceLock::new());
                        index
                            .content
                            .entry(rule.value.tool.clone())
                            .or_default()
                            .push(position);
                        continue;
                    }
                    let first = |map: &mut HashMap<String, [Option<Position>; 3]>, key| {
                        let entry: &mut [Option<Position>; 3] = map.entry(key).or_default();
                        if let Some(slot @ None) = entry.get_mut(slot(rule.behavior)) {
                            *slot = Some(position);
                        }
                    };
                    first(&mut index.whole, rule.value.tool.clone());
                    if let Some(server) = rule.value.server_prefix() {
                        first(&mut index.servers, server.to_owned());
                    }
                }
            }
            index
        })
    }

    fn whole_tool_rule(&self, behavior: Behavior, tool: RuleTarget<'_>) -> Option<&PermissionRule> {
        let index = self.index();
        let at = |map: &HashMap<String, [Option<Position>; 3]>, key: &str| {
            map.get(key)
                .and_then(|slots| slots.get(slot(behavior)).copied().flatten())
        };
        let by_name = at(&index.whole, tool.name);
        let by_server = tool.server.and_then(|server| at(&index.servers, server));
        let first = match (by_name, by_server) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        first.and_then(|position| self.rule(position))
    }

    /// The first rule without content that denies `tool` as a whole.
    pub fn deny_rule_for_tool(&self, tool: RuleTarget<'_>) -> Option<&PermissionRule> {
        self.whole_tool_rule(Behavior::Deny, tool)
    }

    /// The first rule without content that allows `tool` as a whole.
    pub fn allow_rule_for_tool(&self, tool: RuleTarget<'_>) -> Option<&PermissionRule> {
        self.whole_tool_rule(Behavior::Allow, tool)
    }

    /// The first rule without content that asks before `tool` runs.
    pub fn ask_rule_for_tool(&self, tool: RuleTarget<'_>) -> Option<&PermissionRule> {
        self.whole_tool_rule(Behavior::Ask, tool)
    }

    /// The rules with content for `tool` and the `also` tools, in scan order.
    fn content_rules(&self, tool: &str, also: &[&str]) -> Vec<&PermissionRule> {
        self.content_positions(tool, also)
            .into_iter()
            .filter_map(|position| self.rule(position))
            .collect()
    }

    /// The rules with content for `tool` and the `also` tools with their compiled path globs,
    /// in scan order.
    pub(super) fn path_rules(
        &self,
        tool: &str,
        also: &[&str],
    ) -> Vec<(&PermissionRule, Result<&Arc<PathGlob>, &PatternError>)> {
        self.path_rules_at(self.content_positions(tool, also))
    }

    /// The rules at `positions` with their compiled path globs.
    pub(super) fn path_rules_at(
        &self,
        positions: Vec<Position>,
    ) -> Vec<(&PermissionRule, Result<&Arc<PathGlob>, &PatternError>)> {
        let index = self.index();
        positions
            .into_iter()
            .filter_map(|position| {
                let rule = self.rule(position)?;
                let pattern = rule.value.content.as_deref()?;
                let glob = index
                    .globs
                    .get(&position)?
                    .get_or_init(|| PathGlob::new(pattern).map(Arc::new));
                Some((rule, glob.as_ref()))
            })
            .collect()
    }

    /// The positions of the rules with content for `tool` and the `also` tools, in scan order.
    pub(super) fn content_positions(&self, tool: &str, also: &[&str]) -> Vec<Position> {
        let mut positions = self.content_positions_of(&[tool]);
        positions.extend(self.content_positions_of(also));
        positions.sort_unstable();
        positions.dedup();
        positions
    }

    /// The positions of the rules with content for `tools`, unordered.
    pub(super) fn content_positions_of(&self, tools: &[&str]) -> Vec<Position> {
        let index = self.index();
        tools
            .iter()
            .filter_map(|name| index.content.get(*name))
            .flatten()
            .copied()
            .collect()
    }

    /// What the rules say about one call of `tool` whose input has `subject`, made from the
    /// working directory `cwd`; [`Verdict::Undecided`] leaves it to the tool's own check.
    ///
    /// In order: a whole-tool deny rule, then a deny rule with content matching the subject,
    /// refuse; a write outside the working directories with [`OutsideWrites::Refuse`] is
    /// refused; a command the shell checker cannot follow is refused while a deny rule with
    /// content exists for the tool, in every mode; a path that cannot be resolved is refused;
    /// an ask rule (whole, or with matching content) asks; so does a command the checker cannot
    /// follow while an ask rule with content exists for the tool (in
    /// [`PermissionMode::BypassPermissions`], where nothing asks, that is refused); an allow
    /// rule with matching content allows — for a command, every simple command, nested ones
    /// included, must be matched by one or only read ([`SimpleCommand::read_only`](super::shell::SimpleCommand::read_only)); a
    /// whole-tool allow rule allows, except a write outside the working directories, which
    /// asks ([`OutsideWrites::Ask`]) unless a path rule allows that path.
    pub fn check(&self, tool: RuleTarget<'_>, subject: Option<&Subject>, cwd: &Path) -> Verdict {
        if let Some(rule) = self.deny_rule_for_tool(tool) {
            return Verdict::Deny(Refusal::Rule(rule.clone()));
        }
        let content = match subject {
            Some(subject) => self.check_content(tool, subject, cwd),
            None => ContentCheck::default(),
        };
        if let Some(refusal) = content.deny {
            return Verdict::Deny(refusal);
        }
        let outside = content
            .outside
            .filter(|_| self.outside_writes != OutsideWrites::Allow);
        if let (Some(path), OutsideWrites::Refuse) = (&outside, self.outside_writes) {
            return Verdict::Deny(Refusal::OutsideWorkingDirectories { path: path.clone() });
        }
        if let Some(rule) = self.ask_rule_for_tool(tool) {
            return Verdict::Ask(format!("rule {rule} asks before {} runs", tool.name));
        }
        match content.ask {
            Some(Ask::Rule(reason)) => return Verdict::Ask(reason),
            Some(Ask::Unverifiable { rule, why }) => {
                return if self.mode == PermissionMode::BypassPermissions {
                    Verdict::Deny(Refusal::Unverifiable {
                        rule: rule.clone(),
                        why,
                    })
                } else {
                    Verdict::Ask(format!(
                        "the command could not be checked against rule {rule}: {why}"
                    ))
                };
            }
            None => {}
        }
        if content.allow {
            return Verdict::Allow;
        }
        if let Some(path) = outside {
            return Verdict::Ask(format!(
                "{} would write {}, which is outside the working directories",
                tool.name,
                path.display()
            ));
        }
        if self.allow_rule_for_tool(tool).is_some() {
            return Verdict::Allow;
        }
        Verdict::Undecided
    }

    fn check_content(
        &self,
        tool: RuleTarget<'_>,
        subject: &Subject,
        cwd: &Path,
    ) -> ContentCheck<'_> {
        let rules = || self.content_rules(tool.name, subject.also());
        match subject {
            Subject::Text(text) => {
                let rules = rules();
                let matching = |behavior| {
                    rules.iter().copied().find(|rule| {
                        rule.behavior == behavior
                            && rule
                                .value
                                .content
                                .as_deref()
                                .is_some_and(|pattern| content_matches(pattern, text))
                    })
                };
                ContentCheck {
                    deny: matching(Behavior::Deny).cloned().map(Refusal::Rule),
                    ask: matching(Behavior::Ask).map(|rule| {
                        Ask::Rule(format!("rule {rule} asks before {} runs", tool.name))
                    }),
                    allow: matching(Behavior::Allow).is_some(),
                    outside: None,
                }
            }
            Subject::Command(line) => check_command(tool, &rules(), line),
            Subject::Path(path) => {
                let resolved = match resolve_traced(&absolute(cwd, &path.path)) {
                    Ok(resolved) => resolved,
                    Err(error) => {
                        return ContentCheck {
                            deny: Some(Refusal::Unresolvable(error)),
                            ..ContentCheck::default()
                        };
                    }
                };
                let mut check = self.check_path(tool, path, &resolved, cwd);
                if path.access == Access::Write && !self.inside_working_dirs(&resolved.path, cwd) {
                    check.outside = Some(resolved.path);
                }
                check
            }
        }
    }
}
