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
//!   A function definition `f() { body; }` (or `f() ( body )`) gives `f` (never read-only),
//!   then the body's commands.
//! - Quoting: `'…'` is literal; in `"…"` a backslash escapes only `$`, `` ` ``, `"`, `\` and
//!   newline; outside quotes a backslash escapes the next character (`\rm` is `rm`);
//!   backslash-newline is removed. Adjacent pieces form one word (`r'm'` is `rm`).
//! - Comments: `#` at the start of a word, to the end of the line.
//! - Redirections, removed with their target word wherever they are (also before the command
//!   word): `<`, `>`, `>>`, `<>`, `>|`, `&>`, `&>>`, `<<<`, `<&`, `>&` (so `>&2`, `2>&1`, `>&-`),
//!   each with an optional fd number (`2>`, `1<`).
//! - Leading assignments `NAME=value` and `NAME+=value` (NAME = `[A-Za-z_][A-Za-z0-9_]*`,
//!   unquoted): kept in `text`, dropped in a form. A command of only assignments gives nothing;
//!   a command of only redirections (`> out`, or those after a compound command:
//!   `{ ls; } > out`, `(ls) > out`, `if …; fi > out`) gives a command with empty `text`.
//! - Parameter expansions (`$X`, `${X}`, `$1`, `"$@"`) in arguments, kept as written.
//! - Wrappers, dropped in a form and the rest re-examined, up to 8 of them: `sudo`, `doas`,
//!   `command`, `builtin`, `exec`, `nohup`, `time`, `env`, `nice` (optionally `-n N`) and
//!   `timeout DURATION`, recognized by base name (`/usr/bin/env`). Words containing `=` right
//!   after a wrapper are dropped with it (`env A=1 rm`, `sudo A=1 rm`).
//! - What each command may do, by its name and words ([`commands`](self) lists; see
//!   [`SimpleCommand::read_only`] and [`SimpleCommand::may_run_arguments`]): only read
//!   ([`READ_ONLY`], see below), change files but run none of its arguments (`INERT`, and a
//!   program of the read-only list given options it may not take unasked), or — any other
//!   program, `stdbuf`, `setsid`, `su`, `script` and interpreters included, and `sort` or `rg`
//!   given an option whose value is a program (or an abbreviation of one) — possibly run its
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
//!   redirection without a target, a redirection that assigns its descriptor to a variable
//!   (`{fd}>f`, `{PATH}<f`).
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
//!
//! # Read-only commands
//!
//! A command is read-only ([`SimpleCommand::read_only`]) when it cannot write a file, start a
//! program other than the one it names, or open a socket — run with the environment
//! [`read_only_env`] (which sets `PATH` to [`SYSTEM_PATH`], system directories only: a bare
//! name then runs the system's program whatever the working directory holds; the Bash tool
//! clears the rest of the environment, and may add `HOME`, `LANG`, `TERM` and `TZ`):
//!
//! - its command word is a bare name (no `/`, no `~`) of the list [`READ_ONLY`]: programs
//!   (`cat`, `grep`, `ls`, `sort`, `jq`, `git`, …, looked up in `PATH`) and bash's builtins and
//!   keywords ([`BUILTINS`], `cd`, `test`, `[`, `[[`, never looked up);
//! - its words are ones the program may take unasked, read as the program reads them: an
//!   allow-list of options per program, in every spelling the program accepts (short flags,
//!   clusters, values attached or in the next word, long options spelled exactly — an
//!   abbreviation getopt would expand is refused — `--` ending the options); `find` takes only
//!   primaries that test or print; `git` only some subcommands, in forms no repository
//!   configuration can make run a program ([`git`](self#git) below). An expansion or glob
//!   where options are read may become one (`sort *` with a file named `--output=x`): refused,
//!   except for programs none of whose options writes or runs anything, where it is an
//!   unknown read;
//! - no wrapper, no leading assignment; its redirections only send output to `/dev/null`,
//!   duplicate or close descriptors, read a literal path or a here-string: never `<>`, never
//!   bash's `/dev/tcp` or `/dev/udp` sockets;
//! - nothing earlier in the line may have changed what a name runs: an assignment in any form
//!   to a variable whose name holds an upper-case letter (`PATH`, `HOME`, `CDPATH`, the `GIT_*`
//!   variables of the environment, …: `NAME=`, `export`, `declare`, `readonly`, `read`,
//!   `printf -v`, `unset`, `${NAME:=…}`), a function definition, `set`, `shopt`, `exec`,
//!   `enable`, `hash`, `alias`, `source`, `pushd`, `popd`.
//!
//! A read-only command's [`reads`](SimpleCommand::reads) name what it may read ([`Read`]):
//! its file operands, option values that name files (`grep -f`, `jq --rawfile`,
//! `diff --from-file`, `date -r`), input redirections, the directories it walks
//! (`grep -r`, `ls -R`, `rg`, `find`, `du`, `tree`, with `.` when none is named), the
//! repository for `git`, and [`Read::Unknown`] for what cannot be named before the line
//! runs (an expansion, a glob, a tilde). A relative path is reported joined to every
//! directory an earlier `cd` may have reached (see [`Read`]).
//!
//! Where no sandbox bounds a command, the Bash tool runs a line unasked only when
//! [`split`] understands it, every command is read-only, and every read passes its read rules
//! (deny and ask): a [`Read::Path`] (with everything below it when it is a tree) and a
//! [`Read::Repository`] checked as paths, a [`Read::Unknown`] asked about.
//!
//! # git
//!
//! A repository's configuration is the attacker's to write (a `.git/config` left by an
//! earlier edit, a bare repository inside the checkout): git runs the programs it names as a
//! hook, pager, external diff, textconv or clean filter, signature check or transport.
//! [`GIT_CONFIG`] overrides what can be named; the rest decides which forms are read-only:
//! `log` with a diff, `show` and `diff` must say `--no-textconv --no-ext-diff`; `diff` only
//! against the index (`--cached`) or between revisions named before `--`; never `status`,
//! `blame`, `diff` against the work tree, `describe --dirty` or `ls-files -m` (git hashes
//! work-tree files through the repository's clean filters); no signature-checking formats.

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
mod simple;
mod stages;

pub(crate) use commands::tokens;
pub use git::{GIT_CONFIG, READ_ONLY_ENV, SYSTEM_PATH, read_only_env};
pub use programs::BUILTINS;
pub use reads::{MAX_DIRS, Read};

use commands::evaluated_variable;
use lex::{Lexer, Tok, Word};
use line::{Line, Redir};
use simple::command;

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

#[cfg(feature = "internals")]
#[doc(hidden)]
pub mod internals;

#[cfg(test)]
mod read_only_tests;
#[cfg(test)]
mod tests;
