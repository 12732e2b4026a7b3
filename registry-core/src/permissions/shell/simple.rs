//! One simple command: its stages and forms, its class, whether it is read-only and what it
//! reads, and what it changes for the commands after it.

use super::commands::{self, Class, classify, evaluated_variable};
use super::lex::Word;
use super::line::{self, Redir};
use super::{
    NotUnderstood, Out, SimpleCommand, assigned_name, base, is_assignment, nested, nu, stages,
};

/// Appends the simple command of `words` with its redirections `redirs`, then its nested
/// ones; notes what it changes for the commands after it.
pub(super) fn command(
    words: &[Word],
    redirs: &[Redir],
    depth: usize,
    out: &mut Out,
) -> Result<(), NotUnderstood> {
    let assigned = words.iter().take_while(|w| is_assignment(w)).count();
    let (assigns, core) = words.split_at_checked(assigned).unwrap_or_default();
    if let Some(w) = assigns
        .iter()
        .find(|w| evaluated_variable(assigned_name(w)))
    {
        return nu("assignment to a variable bash runs as code", w.offset);
    }
    let stages = stages::stages(core)?;
    let core = stages.last().copied().unwrap_or_default();
    let redirections = line::redirections(redirs);
    let targets: Vec<&Word> = redirs.iter().map(|r| &r.target).collect();
    let assigning = line::expansions_assign(words)
        || targets
            .iter()
            .any(|t| line::expansions_assign(std::slice::from_ref(*t)));
    let Some((first, args)) = core.split_first() else {
        if !redirs.is_empty() {
            let why_not = redirections.refused.or(out.line.tainted);
            let why_not = why_not.or((!assigns.is_empty()).then_some("a leading assignment"));
            let why_not = why_not.or(assigning.then_some("an assignment in an expansion"));
            let mut reads = Vec::new();
            if why_not.is_none() {
                for input in redirections.inputs {
                    out.line.dirs.resolve(input, &mut reads);
                }
            }
            out.commands.push(SimpleCommand {
                text: String::new(),
                forms: vec![String::new()],
                nested: depth > 0,
                writes_files: redirections.writes_files,
                read_only: why_not.is_none(),
                reads,
                may_run_arguments: false,
                argument_forms: Vec::new(),
            });
        }
        out.line.after(assigns, core, &[], &[]);
        if assigning {
            out.line.taint("an assignment in an expansion");
        }
        return Ok(());
    };
    let forms = stages::forms(assigns, &stages);
    let text = forms.first().cloned().unwrap_or_default();
    let class = if nested::runs_nested(base(&first.text), first.offset, args)? {
        Class::Inert
    } else {
        classify(core)?
    };
    let may_run_arguments = matches!(class, Class::Opaque);
    let argument_forms = if may_run_arguments {
        nested::argument_forms(core, depth)?
    } else {
        Vec::new()
    };
    let names = commands::assigned_names(core);
    let mut reads = Vec::new();
    let why_not = match class {
        Class::ReadOnly(operands) => {
            let why_not = [
                (stages.len() > 1, "a wrapper"),
                (!assigns.is_empty(), "a leading assignment"),
                (first.text.contains('/'), "a program run by its path"),
                (first.tilde, "a program run by its path"),
                (assigning, "an assignment in an expansion"),
            ]
            .iter()
            .find_map(|(refused, why)| refused.then_some(*why));
            let why_not = why_not.or(redirections.refused).or(out.line.tainted);
            if why_not.is_none() {
                for operand in operands.into_iter().chain(redirections.inputs) {
                    out.line.dirs.resolve(operand, &mut reads);
                }
            }
            why_not
        }
        _ => Some("not on the read-only list"),
    };
    out.commands.push(SimpleCommand {
        text,
        forms,
        nested: depth > 0,
        writes_files: redirections.writes_files,
        read_only: why_not.is_none(),
        reads,
        may_run_arguments,
        argument_forms,
    });
    let heads: Vec<&str> = stages
        .iter()
        .filter_map(|s| s.first())
        .map(|w| base(&w.text))
        .collect();
    out.line.after(assigns, core, &heads, &names);
    if assigning {
        out.line.taint("an assignment in an expansion");
    }
    nested::nest(core, depth, out)
}
