//! What the rules with content say about a call: the verdict of the rules naming a Bash
//! command, and what every content check (commands here, paths in `path_rules.rs`) reports.

use std::path::PathBuf;

use super::content::command_matches;
use super::rule::{Behavior, PermissionRule, RuleTarget};
use super::shell;
use super::verdict::Refusal;

/// Why rules with content ask.
pub(super) enum Ask<'a> {
    /// A rule matched; the reason for the user.
    Rule(String),
    /// The command could not be split with confidence and this rule might match it.
    Unverifiable {
        rule: &'a PermissionRule,
        why: shell::NotUnderstood,
    },
}

/// What the rules with content said.
#[derive(Default)]
pub(super) struct ContentCheck<'a> {
    pub deny: Option<Refusal>,
    pub ask: Option<Ask<'a>>,
    pub allow: bool,
    /// The canonical path of a write outside the working directories.
    pub outside: Option<PathBuf>,
}

/// The rules with content over the command line `line` of `tool` (a Bash call).
pub(super) fn check_command<'a>(
    tool: RuleTarget<'_>,
    rules: &[&'a PermissionRule],
    line: &str,
) -> ContentCheck<'a> {
    let mut check = ContentCheck::default();
    if rules.is_empty() {
        return check;
    }
    let commands = match shell::split(line) {
        Ok(commands) => commands,
        Err(why) => {
            // What the checker cannot follow could be any command: with a deny rule in force
            // it is refused (in every mode), with an ask rule it asks.
            let first = |behavior| rules.iter().copied().find(|r| r.behavior == behavior);
            if let Some(rule) = first(Behavior::Deny) {
                check.deny = Some(Refusal::Unverifiable {
                    rule: rule.clone(),
                    why,
                });
            } else {
                check.ask = first(Behavior::Ask).map(|rule| Ask::Unverifiable { rule, why });
            }
            return check;
        }
    };
    let pattern = |rule: &PermissionRule| rule.value.content.clone().unwrap_or_default();
    let any_form = |behavior| {
        rules.iter().copied().find_map(|rule| {
            let pattern = pattern(rule);
            (rule.behavior == behavior)
                .then(|| {
                    commands
                        .iter()
                        .find(|command| runs_what_matches(command, &pattern))
                })
                .flatten()
                .map(|command| (rule, command))
        })
    };
    check.deny = any_form(Behavior::Deny).map(|(rule, _)| Refusal::Rule(rule.clone()));
    check.ask = any_form(Behavior::Ask).map(|(rule, command)| {
        Ask::Rule(format!(
            "rule {rule} asks before {} runs `{}`",
            tool.name, command.text
        ))
    });
    // Allowed when every simple command, nested ones included, is allowed by a rule or only
    // reads, and a rule allowed one of them (a line of read-only commands alone is the tool's
    // own business). A read-only command cannot write, run another program or open a socket,
    // and nothing before it in the line changed what its name runs; what it reads
    // (`SimpleCommand::reads`) is not checked here, the sandbox bounds it.
    let allowed = |command: &shell::SimpleCommand| {
        !command.writes_files
            && rules.iter().any(|rule| {
                rule.behavior == Behavior::Allow && command_matches(&pattern(rule), &command.text)
            })
    };
    check.allow = commands.iter().any(allowed)
        && commands
            .iter()
            .all(|command| command.read_only || allowed(command));
    check
}

/// Whether `command` may run something a deny or ask rule's `pattern` names: one of its forms,
/// a command held in one of its arguments, or, for a program that may run its arguments, the
/// pattern's command among its words or among the words of a command held in its arguments
/// (`chrt 0 bash -c 'chroot / rm t'`: `chroot` may run `rm` too).
fn runs_what_matches(command: &shell::SimpleCommand, pattern: &str) -> bool {
    command
        .forms
        .iter()
        .chain(&command.argument_forms)
        .any(|form| command_matches(pattern, form))
        || (command.may_run_arguments
            && std::iter::once(&command.text)
                .chain(&command.argument_forms)
                .any(|text| mentions(text, pattern)))
}

/// Whether the words a rule's `pattern` starts with (up to its first wildcard) appear in a row
/// among the tokens of `text`, the first by its base name (`/bin/rm` is `rm`).
fn mentions(text: &str, pattern: &str) -> bool {
    let literal = pattern.strip_suffix(":*").unwrap_or(pattern);
    let words: Vec<&str> = literal
        .split_whitespace()
        .take_while(|word| !word.contains('*'))
        .collect();
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    let tokens = shell::tokens(text);
    tokens.iter().enumerate().any(|(i, token)| {
        let name = token.rsplit('/').next().unwrap_or(token);
        name == *first
            && tokens
                .get(i + 1..)
                .is_some_and(|after| after.starts_with(rest))
    })
}
