//! A command's stages: the command as written, then without each wrapper it starts with
//! (`sudo`, `env A=1`, `nice -n 5`, …), and the forms rules match.

use super::lex::Word;
use super::{MAX_WRAPPERS, NotUnderstood, WRAPPERS, assigned_name, base, evaluated_variable, nu};

/// The stages of `core` (a command without leading assignments): `core` itself, then what
/// follows each wrapper it starts with. The last is the command that runs.
pub(super) fn stages(core: &[Word]) -> Result<Vec<&[Word]>, NotUnderstood> {
    let mut stages = vec![core];
    let mut core = core;
    while let Some(first) = core.first() {
        check_command_word(first)?;
        match strip_wrapper(core)? {
            Some(rest) if !rest.is_empty() => {
                if stages.len() > MAX_WRAPPERS {
                    return nu("too many wrappers", first.offset);
                }
                stages.push(rest);
                core = rest;
            }
            _ => break,
        }
    }
    Ok(stages)
}

/// Every form of a command with these assignments and stages, deduplicated: each stage, with
/// and without the assignments, with the command word as written and by its base name.
pub(super) fn forms(assigns: &[Word], stages: &[&[Word]]) -> Vec<String> {
    let mut forms: Vec<String> = Vec::new();
    for stage in stages {
        for kept in [assigns, &[]] {
            for base in [false, true] {
                let form = join(kept, stage, base);
                if let Some(form) = form.filter(|f| !forms.contains(f)) {
                    forms.push(form);
                }
            }
        }
    }
    forms
}

fn check_command_word(w: &Word) -> Result<(), NotUnderstood> {
    // `[` and `[[` are the test command and keyword, not globs.
    if w.quoted_at.is_none() && (w.text == "[" || w.text == "[[") {
        return Ok(());
    }
    match w.expansion {
        Some(reason) => nu(reason, w.offset),
        None if w.text.contains(char::is_whitespace) => nu("whitespace in command word", w.offset),
        None => Ok(()),
    }
}

/// `None` when the stage has no base-name form.
fn join(assigns: &[Word], stage: &[Word], base_name: bool) -> Option<String> {
    let (first, args) = stage.split_first()?;
    let name = match first.text.rsplit_once('/') {
        Some((_, name)) if base_name && !name.is_empty() => name,
        _ if base_name => return None,
        _ => first.text.as_str(),
    };
    let args = args.iter().map(|w| w.text.as_str());
    let words: Vec<&str> = assigns
        .iter()
        .map(|w| w.text.as_str())
        .chain([name])
        .chain(args)
        .collect();
    Some(words.join(" "))
}

/// The words after the wrapper that `words` starts with, if it does.
fn strip_wrapper(words: &[Word]) -> Result<Option<&[Word]>, NotUnderstood> {
    let Some((first, rest)) = words.split_first() else {
        return Ok(None);
    };
    let skip = match base(&first.text) {
        "nice" if rest.first().is_some_and(|w| w.text == "-n") => 2,
        "timeout" => usize::from(rest.first().is_some_and(|w| !w.text.starts_with('-'))),
        name if WRAPPERS.contains(&name) => 0,
        _ => return Ok(None),
    };
    let (args, rest) = rest.split_at_checked(skip).unwrap_or((rest, &[]));
    let env = rest
        .iter()
        .take_while(|w| w.text.contains('=') && !w.text.starts_with('-'))
        .count();
    let (env, rest) = rest.split_at_checked(env).unwrap_or_default();
    if let Some(w) = args.iter().chain(env).find(|w| w.splits()) {
        return nu("expansion in wrapper argument", w.offset);
    }
    if let Some(w) = env.iter().find(|w| evaluated_variable(assigned_name(w))) {
        return nu("assignment to a variable bash runs as code", w.offset);
    }
    match rest.first() {
        Some(w) if w.text.starts_with('-') => nu("wrapper option", w.offset),
        Some(w) if w.reserved() => nu("reserved word after wrapper", w.offset),
        _ => Ok(Some(rest)),
    }
}
