//! Shell command lines as permission rules see them.
//!
//! [`split`] turns a command line into the simple commands bash would run, each in the forms
//! permission rules match ([`SimpleCommand`]). It is conservative: whatever it cannot check with
//! confidence gives [`NotUnderstood`], and the caller should then ask the user instead of allowing.
//!
//! # Understood
//!
//! - Separators `;`, `&&`, `||`, `|`, `|&`, `&` and newline; subshells `( … )`; brace groups
//!   `{ … }` (`{` and `}` as whole unquoted words at command position).
//! - At command position the words `!`, `if`, `then`, `elif`, `else`, `while`, `until` and `do`
//!   are dropped and the words after them form the command; `fi`, `done` and `}` are nothing.
//!   A function definition `f() { body; }` (or `f() ( body )`) gives `f`, then the body's commands.
//! - Quoting: `'…'` is literal; in `"…"` a backslash escapes only `$`, `` ` ``, `"`, `\` and
//!   newline; outside quotes a backslash escapes the next character (`\rm` is `rm`);
//!   backslash-newline is removed. Adjacent pieces form one word (`r'm'` is `rm`).
//! - Comments: `#` at the start of a word, to the end of the line.
//! - Redirections, removed with their target word wherever they are (also before the command
//!   word): `<`, `>`, `>>`, `<>`, `>|`, `&>`, `&>>`, `<<<`, `<&`, `>&` (so `>&2`, `2>&1`, `>&-`),
//!   each with an optional fd number (`2>`, `1<`).
//! - Leading assignments `NAME=value` and `NAME+=value` (NAME = `[A-Za-z_][A-Za-z0-9_]*`,
//!   unquoted): kept in `text`, dropped in a form. A command of only assignments gives nothing.
//! - Parameter expansions (`$X`, `${X}`, `$1`, `"$@"`) in arguments, kept as written.
//! - Wrappers, dropped in a form and the rest re-examined, up to 8 of them: `sudo`, `doas`,
//!   `command`, `builtin`, `exec`, `nohup`, `time`, `env`, `nice` (optionally `-n N`) and
//!   `timeout DURATION`, recognized by base name (`/usr/bin/env`). Words containing `=` right
//!   after a wrapper are dropped with it (`env A=1 rm`, `sudo A=1 rm`).
//! - What each command may do, by its name ([`commands`](self) lists; see
//!   [`SimpleCommand::read_only`] and [`SimpleCommand::may_run_arguments`]): only read
//!   ([`READ_ONLY`]), change files but run none of its arguments (`INERT`), or — any other
//!   program, `stdbuf`, `setsid`, `su`, `script` and interpreters included — possibly run its
//!   arguments, whose argument strings that parse as command lines are then parsed too
//!   ([`SimpleCommand::argument_forms`]).
//! - A command word containing `/` also gives a form with its base name (`/bin/rm` → `rm`).
//!   Forms are every combination of: assignments kept or dropped, 0..=n wrappers dropped,
//!   command word as written or its base name.
//! - Commands run by a command, parsed recursively (at most 3 levels) and added as nested:
//!   - `sh`, `bash`, `zsh`, `dash`, `ksh`, `rbash`, `mksh`, `ash`, `yash`, `posh` with a short
//!     option cluster containing `c` (`-c`, `-ec`, `-e -c`; `o` and `O` take the next word,
//!     `-`/`--` end the options): the first word after the options is parsed as a command line.
//!     A shell without `c` (it runs a script file or reads its input), or with `i`, `l` or `s`
//!     (it reads startup files or its input), is not understood;
//!   - `eval WORDS…`: the words joined by spaces, parsed as a command line;
//!   - `xargs CMD ARGS…` without options: the command `CMD ARGS…`; bare `xargs` runs `echo`;
//!   - `find … -exec|-execdir|-ok|-okdir CMD ARGS… ;|+`: each `CMD ARGS…` (`+` ends it only
//!     right after `{}`).
//!
//! # Not understood → [`NotUnderstood`]
//!
//! - Command substitution `$(…)` and backquotes (also inside double quotes), arithmetic `$((…))`,
//!   `$[…]` and `((…))`, process substitution `<(…)` / `>(…)`, `$'…'` and `$"…"`, heredocs `<<`
//!   and `<<-`, `;;` and `;&`, and a `${…}` holding a space, quote, backslash, `$`, `` ` `` or `{`.
//! - In a command word (also one reached past wrappers, or run by xargs/find): a parameter
//!   expansion, an unquoted `*`, `?`, `[`, `{` or `}` (globs, brace expansion), or whitespace.
//! - The compound commands `for`, `case`, `select`, `function`, `coproc`; a reserved word right
//!   after a wrapper (`time if …`); a `(` inside a command other than `name()`.
//! - Unterminated quotes or `${`, a trailing lone backslash, unbalanced `(`, `)`, `{` or `}`, a
//!   redirection without a target.
//! - A wrapper followed by an option word (other than `nice -n N`); more than 8 wrappers; an
//!   unquoted expansion or glob in a word a wrapper consumes (`env A=$X`, `timeout $T`).
//! - A shell with a long option (`--login`) or an option cluster holding a non-letter, `-c`
//!   without a string, or an unquoted expansion among its options or first operand; `eval`
//!   whose first word is an option; `xargs` with an option; `find` with an unterminated `-exec`
//!   or an unquoted expansion or glob in its arguments.
//! - Any expansion in a string parsed as a nested command line (`bash -c "$X"`, `eval $X`);
//!   nesting deeper than 3 levels.
//! - Text bash evaluates behind the splitter's back: the builtins that evaluate a string as
//!   code or arithmetic, where a variable set earlier in the line can hide a command
//!   substitution (`x='a[$(rm y)]'; let x`) — `let`, `source`, `.`, `alias`, `trap`, `hash`,
//!   `enable`, `fc`, `bind`, `complete`, `compgen`, `mapfile`, `readarray`, declarations that
//!   are not plain `NAME=value`, a subscript among the variable names of `read`, `unset`,
//!   `getopts`, `printf`, `wait`, `test -v`, and `[[` with `-v`, `-R` or an arithmetic
//!   comparison; parameter expansions with a subscript, an indirection (`${!x}`), a substring
//!   (`${x:n}`) or a transformation (`${x@P}`); an assignment (also after `env`) to a variable
//!   bash or the loader runs as code (`PS4`, `BASH_ENV`,
//!   `LD_PRELOAD`, `PROMPT_COMMAND`, …).
//! - An expansion or glob among the arguments of a program that may run its arguments
//!   (`setsid "$X"`): it could be any command. So is an argument of such a program that holds
//!   whitespace but is not a command line the checker understands (`flock f -c "trap … EXIT"`,
//!   `python -c 'print(1)'`): the program may run it.
//!
//! A nested error reports the offset of the outer word holding the nested command line.
//!
//! - The test command `[` and the keyword `[[` as command words (their `]`/`]]` are arguments).
//! - Redirections that send output to a file are noted ([`SimpleCommand::writes_files`]): an
//!   allow rule does not allow such a command; where they write is not examined.
//!
//! Not examined at all: what a program other than bash runs that its words do not name (a
//! script run by path or by an interpreter, a Makefile, a git hook or alias set up earlier, a
//! copy of a program under another name), what `find -delete` removes, and which files
//! redirections write. The parser is therefore not the last line: run commands in the sandbox
//! ([`sandbox`](crate::sandbox)), which bounds what any of them can read and write.

use std::fmt;

mod commands;
mod lex;

pub use commands::READ_ONLY;
pub(crate) use commands::tokens;
use commands::{Class, classify, evaluated_variable};
use lex::{Lexer, Tok, Word};

const MAX_DEPTH: usize = 3;
const MAX_WRAPPERS: usize = 8;
const WRAPPERS: [&str; 10] = [
    "sudo", "doas", "command", "builtin", "exec", "nohup", "time", "env", "nice", "timeout",
];
const SHELLS: [&str; 10] = [
    "sh", "bash", "zsh", "dash", "ksh", "rbash", "mksh", "ash", "yash", "posh",
];
/// Words that are nothing at command position.
const KEYWORDS: [&str; 10] = [
    "!", "if", "then", "elif", "else", "while", "until", "do", "fi", "done",
];
const COMPOUND: [&str; 5] = ["for", "case", "select", "function", "coproc"];

/// One simple command of a command line, as permission rules match it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The words bash passes (quotes and escapes removed), joined by single spaces; leading
    /// variable assignments kept, redirections (operator and target) removed. Allow rules match
    /// this form only.
    pub text: String,
    /// Every form deny and ask rules also match, `text` first, deduplicated: with the leading
    /// assignments dropped; with known wrappers dropped; with the command word replaced by its
    /// base name when it contains `/` (`/bin/rm -f x` -> `rm -f x`), applied in combination.
    pub forms: Vec<String>,
    /// Found inside another command's argument (`bash -c '…'`, `eval …`, `xargs cmd`,
    /// `find -exec cmd ;`).
    pub nested: bool,
    /// One of its redirections sends output to a file (`> out`, `>> log`, `&> f`; not `2>&1`,
    /// not `/dev/null`). An allow rule for the command does not allow writing files, so such a
    /// command is not allowed by one.
    pub writes_files: bool,
    /// It only reads and prints: its command is on the read-only list ([`READ_ONLY`], with
    /// none of the options listed there that write or run), with no wrapper, no leading
    /// assignment and no redirection to a file.
    pub read_only: bool,
    /// Its program may run its arguments as commands (it is on no list of
    /// [`commands`](self#understood)): deny and ask rules also look for their command among its
    /// words.
    pub may_run_arguments: bool,
    /// The forms of the commands its arguments hold, for a command that may run its
    /// arguments: each argument that parses as a command line (`su -c 'rm x'`,
    /// `script -c 'rm x'`). Deny and ask rules match these too.
    pub argument_forms: Vec<String>,
}

/// A command line the splitter cannot check with confidence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotUnderstood {
    /// What was not understood, in a few words ("command substitution", "unterminated quote", ...).
    pub reason: &'static str,
    /// Byte offset in the line given to `split` where it was found (for nested input: the offset
    /// of the outer word).
    pub offset: usize,
}

impl fmt::Display for NotUnderstood {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.reason, self.offset)
    }
}

impl std::error::Error for NotUnderstood {}

type Out = Vec<SimpleCommand>;

fn nu<T>(reason: &'static str, offset: usize) -> Result<T, NotUnderstood> {
    Err(NotUnderstood { reason, offset })
}

/// The simple commands of `line`, in order; an empty or comment-only line gives none.
///
/// A nested command comes right after the command that contains it.
pub fn split(line: &str) -> Result<Vec<SimpleCommand>, NotUnderstood> {
    let mut out = Vec::new();
    parse(line, 0, &mut out)?;
    Ok(out)
}

/// Appends the commands of `line`, nested when `depth > 0`.
fn parse(line: &str, depth: usize, out: &mut Out) -> Result<(), NotUnderstood> {
    let mut toks = Lexer { s: line, pos: 0 }.lex()?.into_iter();
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut writes = false;
    while let Some(tok) = toks.next() {
        match tok {
            Tok::Word(w) if words.is_empty() && w.quoted_at.is_none() => match w.text.as_str() {
                t if KEYWORDS.contains(&t) => {}
                t if COMPOUND.contains(&t) => return nu("compound command", w.offset),
                "{" => open.push(('{', w.offset)),
                "}" if open.pop().is_some_and(|(c, _)| c == '{') => {}
                "}" => return nu("unbalanced }", w.offset),
                _ => words.push(w),
            },
            Tok::Word(w) => words.push(w),
            Tok::Redir(at, op) => {
                let Some(Tok::Word(target)) = toks.next() else {
                    return nu("missing redirection target", at);
                };
                writes |= writes_a_file(op, &target);
            }
            Tok::Sep => end_command(&mut words, &mut writes, depth, out)?,
            Tok::Open(at) if words.is_empty() => open.push(('(', at)),
            Tok::Open(at) => {
                let name = matches!(words.as_slice(), [name] if !is_assignment(name));
                if !name || !matches!(toks.next(), Some(Tok::Close(_))) {
                    return nu("unexpected parenthesis", at);
                }
                end_command(&mut words, &mut writes, depth, out)?;
            }
            Tok::Close(at) => {
                end_command(&mut words, &mut writes, depth, out)?;
                if open.pop().is_none_or(|(c, _)| c != '(') {
                    return nu("unbalanced )", at);
                }
            }
        }
    }
    command(&words, writes, depth, out)?;
    match open.last() {
        Some(&('(', at)) => nu("unbalanced (", at),
        Some(&(_, at)) => nu("unbalanced {", at),
        None => Ok(()),
    }
}

/// Appends the command gathered so far and starts the next one.
fn end_command(
    words: &mut Vec<Word>,
    writes: &mut bool,
    depth: usize,
    out: &mut Out,
) -> Result<(), NotUnderstood> {
    command(&std::mem::take(words), std::mem::take(writes), depth, out)
}

/// Whether a redirection sends output to a file: not a duplicated descriptor (`2>&1`, `>&-`),
/// not `/dev/null`.
fn writes_a_file(op: &str, target: &Word) -> bool {
    let dup = op.ends_with('&')
        && (target.text == "-" || target.text.bytes().all(|b| b.is_ascii_digit()));
    op.contains('>') && !dup && target.text != "/dev/null"
}

fn is_assignment(w: &Word) -> bool {
    let Some(eq) = w.text.find('=') else {
        return false;
    };
    let name = w.text.get(..eq).unwrap_or_default();
    let name = name.strip_suffix('+').unwrap_or(name);
    let mut chars = name.chars();
    w.quoted_at.is_none_or(|q| q > eq)
        && chars
            .next()
            .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn base(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn deeper(depth: usize, at: usize) -> Result<usize, NotUnderstood> {
    if depth >= MAX_DEPTH {
        nu("nesting too deep", at)
    } else {
        Ok(depth + 1)
    }
}

/// Appends the simple command of `words` (redirections already removed; `writes` when one of
/// them sent output to a file), then its nested ones.
fn command(words: &[Word], writes: bool, depth: usize, out: &mut Out) -> Result<(), NotUnderstood> {
    let assigned = words.iter().take_while(|w| is_assignment(w)).count();
    let (assigns, mut core) = words.split_at_checked(assigned).unwrap_or_default();
    if let Some(w) = assigns
        .iter()
        .find(|w| evaluated_variable(assigned_name(w)))
    {
        return nu("assignment to a variable bash runs as code", w.offset);
    }
    let mut stages = vec![core];
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
    if core.is_empty() {
        return Ok(());
    }
    let mut forms: Vec<String> = Vec::new();
    for stage in &stages {
        for kept in [assigns, &[]] {
            for base in [false, true] {
                let form = join(kept, stage, base);
                if let Some(form) = form.filter(|f| !forms.contains(f)) {
                    forms.push(form);
                }
            }
        }
    }
    let text = forms.first().cloned().unwrap_or_default();
    let class = match core.split_first() {
        Some((first, args)) if runs_nested(base(&first.text), first.offset, args)? => Class::Inert,
        _ => classify(core)?,
    };
    let may_run_arguments = class == Class::Opaque;
    let mut argument_forms = Vec::new();
    if may_run_arguments {
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
                let mut held = Vec::new();
                command(
                    args.get(i..).unwrap_or_default(),
                    false,
                    depth + 1,
                    &mut held,
                )?;
                argument_forms.extend(held.into_iter().flat_map(|c| {
                    let mut forms = c.forms;
                    forms.extend(c.argument_forms);
                    forms
                }));
            }
            let mut held = Vec::new();
            // An argument that reads as a command line is checked as one; one the checker
            // cannot follow (`flock f -c "trap 'r'm EXIT"`) is not understood: the program
            // may run it.
            if w.text.contains(char::is_whitespace) {
                parse(&w.text, deeper(depth, w.offset)?, &mut held).map_err(|e| NotUnderstood {
                    offset: w.offset,
                    ..e
                })?;
                argument_forms.extend(held.into_iter().flat_map(|c| {
                    let mut forms = c.forms;
                    forms.extend(c.argument_forms);
                    forms
                }));
            }
        }
    }
    out.push(SimpleCommand {
        text,
        forms,
        nested: depth > 0,
        writes_files: writes,
        read_only: class == Class::ReadOnly && !writes && assigns.is_empty() && stages.len() == 1,
        may_run_arguments,
        argument_forms,
    });
    nest(core, depth, out)
}

/// Whether a word names a command that runs text the checker follows: a shell, `eval`,
/// `xargs`, `find`, a wrapper, or a builtin that evaluates text.
fn runs_text(word: &str) -> bool {
    let name = base(word);
    SHELLS.contains(&name)
        || WRAPPERS.contains(&name)
        || ["eval", "xargs", "find"].contains(&name)
        || commands::evaluates(name)
}

/// The name an assignment word assigns (`NAME` of `NAME=value` or `NAME+=value`).
fn assigned_name(w: &Word) -> &str {
    let name = w
        .text
        .split_once('=')
        .map_or(w.text.as_str(), |(name, _)| name);
    name.strip_suffix('+').unwrap_or(name)
}

/// Whether `name ARGS` is a command whose runs [`nest`] follows (`eval`, `xargs`, `find`, a
/// shell with `-c`): what it runs is checked as nested commands.
fn runs_nested(name: &str, at: usize, args: &[Word]) -> Result<bool, NotUnderstood> {
    Ok(match name {
        "eval" | "xargs" => true,
        name if SHELLS.contains(&name) => shell_string(at, args)?.is_some(),
        _ => false,
    })
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

/// Appends the commands that `core` (a command without assignments or wrappers) runs.
fn nest(core: &[Word], depth: usize, out: &mut Out) -> Result<(), NotUnderstood> {
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
            Some(_) => command(args, false, deeper(depth, at)?, out),
            None => command(&[Word::new("echo", at)], false, deeper(depth, at)?, out),
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
                command(cmd, false, deeper(depth, exec.offset)?, out)?;
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

#[cfg(test)]
mod tests;
