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

mod builtins;
mod commands;
mod git;
mod lex;
mod line;
mod nested;
mod options;
mod programs;
mod reads;
mod stages;

pub(crate) use commands::tokens;
pub use git::{GIT_CONFIG, READ_ONLY_ENV, SYSTEM_PATH, read_only_env};
pub use programs::BUILTINS;
pub use reads::{MAX_DIRS, Read};

use commands::{Class, classify, evaluated_variable};
use lex::{Lexer, Tok, Word};
use line::{Line, Redir};

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

/// The names of the read-only list: the programs, looked up in [`SYSTEM_PATH`], and bash's
/// builtins and keywords ([`BUILTINS`], `cd`, `test`, `[`, `[[`). Each takes only the options
/// listed for it (see [`SimpleCommand::read_only`]).
pub const READ_ONLY: &[&str] = &[
    ":",
    "[",
    "[[",
    "basename",
    "cat",
    "cd",
    "cmp",
    "column",
    "comm",
    "cut",
    "date",
    "df",
    "diff",
    "dirname",
    "du",
    "echo",
    "egrep",
    "false",
    "fgrep",
    "file",
    "find",
    "fold",
    "git",
    "grep",
    "head",
    "id",
    "jq",
    "ls",
    "md5sum",
    "nl",
    "paste",
    "printenv",
    "printf",
    "pwd",
    "readlink",
    "realpath",
    "rev",
    "rg",
    "sha1sum",
    "sha224sum",
    "sha256sum",
    "sha384sum",
    "sha512sum",
    "sleep",
    "sort",
    "stat",
    "tail",
    "test",
    "tr",
    "tree",
    "true",
    "type",
    "uname",
    "uniq",
    "wc",
    "which",
    "whoami",
];

/// One simple command of a command line, as permission rules match it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The words bash passes (quotes and escapes removed), joined by single spaces; leading
    /// variable assignments kept, redirections (operator and target) removed; empty for a
    /// command of redirections only (`> out`, or those after a compound command:
    /// `{ ls; } > out`). Allow rules match this form only.
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
    /// It only reads and prints, run with [`read_only_env`]: its command word is a bare name on
    /// the read-only list ([`READ_ONLY`]) given only options listed for it, spelled as the
    /// program reads them (no abbreviation, no expansion that may turn into an option); no
    /// wrapper, no leading assignment; its redirections only send output to `/dev/null`,
    /// duplicate descriptors or read literal paths (never `<>`, never `/dev/tcp`); and
    /// nothing earlier in the line may have changed what its name runs (an assignment to an
    /// upper-case variable such as `PATH`, a function definition, `set`, `exec`, …). What it
    /// reads is in [`reads`](Self::reads).
    pub read_only: bool,
    /// For a read-only command, the paths it may read (its file operands, option values
    /// that name files, input redirections, the directories it walks, the repository git
    /// reads), joined to each directory an earlier `cd` may have reached; empty for any other
    /// command. Where no sandbox bounds what a command reads, the caller checks each against
    /// its read rules, and asks on [`Read::Unknown`].
    pub reads: Vec<Read>,
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

/// The commands found so far and the state of the line they leave.
#[derive(Debug, Default)]
struct Out {
    commands: Vec<SimpleCommand>,
    line: Line,
}

fn nu<T>(reason: &'static str, offset: usize) -> Result<T, NotUnderstood> {
    Err(NotUnderstood { reason, offset })
}

/// The simple commands of `line`, in order; an empty or comment-only line gives none.
///
/// A nested command comes right after the command that contains it.
///
/// ```
/// use toolreg::permissions::shell::{Read, split};
///
/// let commands = split("cd src && grep -rn TODO . | sort -u").unwrap();
/// assert!(commands.iter().all(|c| c.read_only));
/// assert_eq!(
///     commands[1].reads,
///     [
///         Read::Path { path: ".".into(), tree: true },
///         Read::Path { path: "src/.".into(), tree: true },
///     ]
/// );
/// assert!(!split("sort -o out f").unwrap()[0].read_only);
/// ```
pub fn split(line: &str) -> Result<Vec<SimpleCommand>, NotUnderstood> {
    let mut out = Out::default();
    parse(line, 0, &mut out)?;
    Ok(out.commands)
}

/// Appends the commands of `line`, nested when `depth > 0`.
fn parse(line: &str, depth: usize, out: &mut Out) -> Result<(), NotUnderstood> {
    let mut toks = Lexer { s: line, pos: 0 }.lex()?.into_iter();
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut redirs: Vec<Redir> = Vec::new();
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
                redirs.push(Redir { op, target });
            }
            Tok::Sep => end_command(&mut words, &mut redirs, depth, out)?,
            Tok::Open(at) if words.is_empty() => open.push(('(', at)),
            Tok::Open(at) => {
                let name = matches!(words.as_slice(), [name] if !is_assignment(name));
                if !name || !matches!(toks.next(), Some(Tok::Close(_))) {
                    return nu("unexpected parenthesis", at);
                }
                let before = out.commands.len();
                end_command(&mut words, &mut redirs, depth, out)?;
                // A definition runs nothing; the name runs its body from now on.
                for defined in out.commands.get_mut(before..).unwrap_or_default() {
                    defined.read_only = false;
                    defined.reads.clear();
                }
                out.line.taint("an earlier function definition");
            }
            Tok::Close(at) => {
                end_command(&mut words, &mut redirs, depth, out)?;
                if open.pop().is_none_or(|(c, _)| c != '(') {
                    return nu("unbalanced )", at);
                }
            }
        }
    }
    command(&words, &redirs, depth, out)?;
    match open.last() {
        Some(&('(', at)) => nu("unbalanced (", at),
        Some(&(_, at)) => nu("unbalanced {", at),
        None => Ok(()),
    }
}

/// Appends the command gathered so far and starts the next one.
fn end_command(
    words: &mut Vec<Word>,
    redirs: &mut Vec<Redir>,
    depth: usize,
    out: &mut Out,
) -> Result<(), NotUnderstood> {
    command(&std::mem::take(words), &std::mem::take(redirs), depth, out)
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

/// The name an assignment word assigns (`NAME` of `NAME=value` or `NAME+=value`).
fn assigned_name(w: &Word) -> &str {
    let name = w
        .text
        .split_once('=')
        .map_or(w.text.as_str(), |(name, _)| name);
    name.strip_suffix('+').unwrap_or(name)
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

/// Appends the simple command of `words` with its redirections `redirs`, then its nested
/// ones; notes what it changes for the commands after it.
fn command(
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

#[cfg(test)]
mod read_only_tests;
/// The read-only list's tables, public for this workspace's differential test
/// (`tests/tests/read_only_differential.rs`). Not a stable API.
#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals {
    /// Each program: its name, its option list (the notation of `options.rs`), whether a
    /// value-taking short option takes the next word even inside a cluster (tree), whether
    /// options may not be clustered at all (jq: flags only), whether `-NUM` is an option.
    pub fn programs() -> Vec<(&'static str, &'static str, &'static str, bool)> {
        super::programs::PROGRAMS
            .iter()
            .map(|p| {
                let style = match p.style {
                    super::options::Style::Getopt => "getopt",
                    super::options::Style::NextWord => "next-word",
                    super::options::Style::Single => "single",
                    super::options::Style::Jq => "jq",
                };
                (p.name, p.options, style, p.digits)
            })
            .collect()
    }

    /// git's subcommands and their option lists (options one to a word).
    pub fn git_subcommands() -> &'static [(&'static str, &'static str)] {
        super::git::SUBCOMMANDS
    }

    /// `find`'s primaries and how many words each takes.
    pub fn find_primaries() -> &'static [(&'static str, usize)] {
        super::builtins::FIND_PRIMARIES
    }
}

#[cfg(test)]
mod tests;
