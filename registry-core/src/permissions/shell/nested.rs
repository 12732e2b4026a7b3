//! Commands that other commands run: the string of `bash -c`, the words of `eval`, the command
//! of `xargs`, each `find -exec`.

use super::lex::Word;
use super::{
    MAX_DEPTH, NotUnderstood, Out, SHELLS, WRAPPERS, base, command, commands, deeper, nu, parse,
};

/// The forms of the commands the arguments of `core` hold, for a program that may run its
/// arguments.
pub(super) fn argument_forms(core: &[Word], depth: usize) -> Result<Vec<String>, NotUnderstood> {
    let mut argument_forms = Vec::new();
    let args = core.get(1..).unwrap_or_default();
    for (i, w) in args.iter().enumerate() {
        if w.expansion.is_some() && w.text != "{}" {
            return nu(
                "expansion in an argument of a command that may run it",
                w.offset,
            );
        }
        // A command the checker knows how to follow, behind a program that runs its
        // arguments (`prlimit bash -c '…'`, `stdbuf -o0 eval …`): checked as one, and
        // what it cannot follow there is not understood.
        if runs_text(&w.text) && depth < MAX_DEPTH {
            let mut held = Out::default();
            command(args.get(i..).unwrap_or_default(), &[], depth + 1, &mut held)?;
            argument_forms.extend(held.commands.into_iter().flat_map(|c| {
                let mut forms = c.forms;
                forms.extend(c.argument_forms);
                forms
            }));
        }
        // An argument that reads as a command line is checked as one; one the checker
        // cannot follow (`flock f -c "trap 'r'm EXIT"`) is not understood: the program
        // may run it.
        if w.text.contains(char::is_whitespace) {
            let mut held = Out::default();
            parse(&w.text, deeper(depth, w.offset)?, &mut held).map_err(|e| NotUnderstood {
                offset: w.offset,
                ..e
            })?;
            argument_forms.extend(held.commands.into_iter().flat_map(|c| {
                let mut forms = c.forms;
                forms.extend(c.argument_forms);
                forms
            }));
        }
    }
    Ok(argument_forms)
}

/// Whether a word names a command that runs text the checker follows: a shell, `eval`,
/// `xargs`, `find`, a wrapper, or a builtin that evaluates text.
pub(super) fn runs_text(word: &str) -> bool {
    let name = base(word);
    SHELLS.contains(&name)
        || WRAPPERS.contains(&name)
        || ["eval", "xargs", "find"].contains(&name)
        || commands::evaluates(name)
}

/// Whether `name ARGS` is a command whose runs [`nest`] follows (`eval`, `xargs`, `find`, a
/// shell with `-c`): what it runs is checked as nested commands.
pub(super) fn runs_nested(name: &str, at: usize, args: &[Word]) -> Result<bool, NotUnderstood> {
    Ok(match name {
        "eval" | "xargs" => true,
        name if SHELLS.contains(&name) => shell_string(at, args)?.is_some(),
        _ => false,
    })
}

/// Appends the commands that `core` (a command without assignments or wrappers) runs.
pub(super) fn nest(core: &[Word], depth: usize, out: &mut Out) -> Result<(), NotUnderstood> {
    let Some((first, args)) = core.split_first() else {
        return Ok(());
    };
    let at = first.offset;
    match base(&first.text) {
        "eval" => {
            if let Some(w) = args.iter().find(|w| w.expansion.is_some()) {
                return nu("expansion in nested command", w.offset);
            } else if let Some(w) = args.first().filter(|w| w.text.starts_with('-')) {
                return nu("eval option", w.offset);
            }
            let line: Vec<&str> = args.iter().map(|w| w.text.as_str()).collect();
            parse(&line.join(" "), deeper(depth, at)?, out).map_err(|e| NotUnderstood {
                offset: word_at(args, e.offset),
                ..e
            })
        }
        "xargs" => match args.first() {
            Some(w) if w.text.starts_with('-') => nu("xargs option", w.offset),
            Some(_) => command(args, &[], deeper(depth, at)?, out),
            None => command(&[Word::new("echo", at)], &[], deeper(depth, at)?, out),
        },
        "find" => {
            if let Some(w) = args.iter().find(|w| w.splits()) {
                return nu("expansion in find arguments", w.offset);
            }
            let mut rest = args;
            while let Some((exec, after)) = rest.split_first() {
                rest = after;
                if !["-exec", "-execdir", "-ok", "-okdir"].contains(&exec.text.as_str()) {
                    continue;
                }
                let prev = std::iter::once(None).chain(after.iter().map(Some));
                let Some(end) = after.iter().zip(prev).position(|(w, prev)| {
                    w.text == ";" || (w.text == "+" && prev.is_some_and(|p| p.text == "{}"))
                }) else {
                    return nu("unterminated find -exec", exec.offset);
                };
                let (cmd, tail) = after.split_at_checked(end).unwrap_or_default();
                command(cmd, &[], deeper(depth, exec.offset)?, out)?;
                rest = tail.get(1..).unwrap_or_default();
            }
            Ok(())
        }
        name if SHELLS.contains(&name) => {
            let Some(s) = shell_string(at, args)? else {
                return Ok(());
            };
            if s.expansion.is_some() {
                return nu("expansion in nested command", s.offset);
            }
            parse(&s.text, deeper(depth, s.offset)?, out).map_err(|e| NotUnderstood {
                offset: s.offset,
                ..e
            })
        }
        _ => Ok(()),
    }
}

/// The offset of the word of `words` that holds byte `at` of the words joined by spaces.
fn word_at(words: &[Word], at: usize) -> usize {
    let mut end = 0;
    for w in words {
        end += w.text.len() + 1;
        if at < end {
            return w.offset;
        }
    }
    words.last().map_or(0, |w| w.offset)
}

/// The command string of a shell's arguments, when it has a `-c` option.
fn shell_string(at: usize, args: &[Word]) -> Result<Option<&Word>, NotUnderstood> {
    let (mut dash_c, mut words) = (None, args.iter());
    let operand = loop {
        let Some(w) = words.next() else { break None };
        let flags = w.text.strip_prefix(['-', '+']);
        if w.splits() {
            return nu("expansion in shell arguments", w.offset);
        } else if matches!(flags, Some("" | "-")) {
            break words.next();
        }
        let Some(flags) = flags else { break Some(w) };
        if !flags.bytes().all(|b| b.is_ascii_alphabetic()) {
            return nu("shell option", w.offset);
        } else if flags.contains(['i', 'l', 's']) {
            return nu("shell that reads startup files or its input", w.offset);
        } else if flags.contains('c') {
            dash_c = Some(w);
        }
        let arg = if flags.contains(['o', 'O']) {
            words.next()
        } else {
            None
        };
        if let Some(arg) = arg.filter(|arg| arg.splits()) {
            return nu("expansion in shell arguments", arg.offset);
        }
    };
    match (dash_c, operand) {
        (None, Some(script)) => nu("shell that runs a script file", script.offset),
        (None, None) => nu("shell that reads commands from its input", at),
        (Some(_), Some(s)) => Ok(Some(s)),
        (Some(c), None) => nu("shell -c without a command string", c.offset),
    }
}
