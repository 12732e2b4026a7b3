//! What the checker knows about a command by its name: whether it only reads, whether it may
//! run its arguments as commands, and which of bash's builtins evaluate text it cannot follow.
//!
//! Every command falls into one class, decided by its base name and, for a few, its options:
//!
//! - **Evaluates text** (not understood): bash builtins that evaluate a string as code or an
//!   arithmetic expression, where a variable set earlier in the line can hide a command
//!   substitution (`x='a[$(rm y)]'; let x`): `let`, `source`, `.`, `alias`, `trap`, `hash`,
//!   `enable`, `fc`, `bind`, `complete`, `compgen`, `mapfile`, `readarray`; `declare`,
//!   `typeset`, `local`, `export`, `readonly` unless every argument is a plain `NAME` or
//!   `NAME=value` (not one of [`EVALUATED_VARIABLES`]); `read`, `unset`, `getopts`, `printf`,
//!   `wait` with a subscript (`[`) in an argument, and `wait -p`; `test`/`[` with `-v`; `[[`
//!   with `-v`, `-R` or an arithmetic comparison (`-eq`, `-ne`, `-lt`, `-le`, `-gt`, `-ge`).
//! - **Read-only** ([`READ_ONLY`](super::READ_ONLY)): a program or builtin of the read-only
//!   list given only options it may take unasked ([`programs`](super::programs),
//!   [`builtins`](super::builtins), [`git`](super::git)); whether the command is read-only
//!   also depends on its redirections and the line before it
//!   ([`SimpleCommand::read_only`](super::SimpleCommand::read_only)).
//! - **Runs nothing it is given** ([`INERT`]): may change files, but never runs an argument as
//!   a command.
//! - **May run its arguments** (everything else): an unknown program (`setsid`, `stdbuf`,
//!   `su -c`, `script -c`, an interpreter's `-c`) may run any of its words, so deny and ask
//!   rules look for their command among its words, and in every argument that parses as a
//!   command line; an expansion or glob among its arguments could be any command, and is not
//!   understood.

use super::builtins;
use super::lex::Word;
use super::reads::Operand;
use super::{NotUnderstood, base, nu};

/// What running a command may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Class {
    /// Only reads and prints; what it reads.
    ReadOnly(Vec<Operand>),
    /// May change files, but runs none of its arguments.
    Inert,
    /// May run its arguments as commands.
    Opaque,
}

/// `git` subcommands that run one of their arguments, or set what later commands run
/// (`config alias.x '!cmd'`): git is taken as running its arguments with these, or with any
/// option before the subcommand (`-c`, `--config-env`, `--exec-path`).
///
/// Long options of programs on the read-only list whose value is a program they run: a
/// command of the list that gives one of them (or an abbreviation of one) may run its
/// arguments.
const RUNS_VALUE: &[(&str, &[&str])] = &[
    ("sort", &["--compress-program"]),
    ("rg", &["--pre", "--hostname-bin"]),
];

const GIT_RUNS: &[&str] = &[
    "bisect",
    "config",
    "difftool",
    "filter-branch",
    "mergetool",
    "rebase",
    "submodule",
];

/// Commands that change files but run none of their arguments (beyond the read-only ones),
/// with the options that would run one.
pub const INERT: &[(&str, &[&str])] = &[
    ("chgrp", &[]),
    ("chmod", &[]),
    ("chown", &[]),
    ("cp", &[]),
    ("curl", &[]),
    ("dd", &[]),
    ("install", &[]),
    ("kill", &[]),
    ("ln", &[]),
    ("mkdir", &[]),
    ("mktemp", &[]),
    ("mv", &[]),
    ("rm", &[]),
    ("rmdir", &[]),
    (
        "tar",
        &[
            "--to-command",
            "-I",
            "--use-compress-program",
            "--checkpoint-action",
            "-F",
            "--info-script",
            "--new-volume-script",
            "--rsh-command",
        ],
    ),
    ("tee", &[]),
    ("touch", &[]),
    ("truncate", &[]),
    ("unzip", &[]),
    ("wget", &["--use-askpass"]),
];

/// Builtins that evaluate a string as code or arithmetic: never understood.
const EVALUATES: &[&str] = &[
    ".",
    "alias",
    "bind",
    "compgen",
    "complete",
    "enable",
    "fc",
    "hash",
    "let",
    "mapfile",
    "readarray",
    "source",
    "trap",
];

/// Builtins whose arguments are variable names, which bash evaluates as arithmetic when they
/// carry a subscript: `[` in an argument is not understood.
const TAKES_NAMES: &[&str] = &["getopts", "printf", "read", "unset", "wait"];

/// Builtins that declare variables: understood only with plain `NAME` or `NAME=value`
/// arguments.
const DECLARES: &[&str] = &["declare", "export", "local", "readonly", "typeset"];

/// `[[` operators that evaluate an operand as arithmetic or as a variable name.
const TEST_EVALUATES: &[&str] = &["-v", "-R", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"];

/// Variables whose value bash or the dynamic loader runs as code: assigning one is not
/// understood.
pub const EVALUATED_VARIABLES: &[&str] = &[
    "BASHOPTS",
    "BASH_ENV",
    "BASH_LOADABLES_PATH",
    "BASH_XTRACEFD",
    "ENV",
    "IFS",
    "LD_AUDIT",
    "LD_LIBRARY_PATH",
    "LD_PRELOAD",
    "PROMPT_COMMAND",
    "PS1",
    "PS2",
    "PS3",
    "PS4",
    "SHELLOPTS",
];

/// Whether assigning `name` is not understood: one of [`EVALUATED_VARIABLES`] or an exported
/// function (`BASH_FUNC_…`).
pub(super) fn evaluated_variable(name: &str) -> bool {
    EVALUATED_VARIABLES.contains(&name) || name.starts_with("BASH_FUNC_")
}

/// Whether `name` is a builtin that evaluates text or takes variable names (never taken for
/// a plain program).
pub(super) fn evaluates(name: &str) -> bool {
    EVALUATES.contains(&name) || TAKES_NAMES.contains(&name) || DECLARES.contains(&name)
}

/// The words of `name ARGS` (a builtin of [`TAKES_NAMES`]) that are variable names: bash
/// evaluates a subscript in them as arithmetic, so they must be literal and subscript-free.
fn name_words<'w>(name: &str, args: &'w [Word]) -> Vec<&'w Word> {
    let mut names = Vec::new();
    let mut words = args.iter();
    // Options of `read` that take a value; `-a` takes a name.
    let read_takes = ["-d", "-i", "-n", "-N", "-p", "-t", "-u"];
    while let Some(w) = words.next() {
        match (name, w.text.as_str()) {
            ("printf", "-v") | ("wait", "-p") | ("read", "-a") => names.extend(words.next()),
            ("printf", text) if text.starts_with("-v") && text.len() > 2 => names.push(w),
            ("read", text) if read_takes.contains(&text) => {
                words.next();
            }
            ("read" | "unset", text) if text.starts_with('-') => {}
            ("read" | "unset", _) => names.push(w),
            ("getopts", _) => {
                names.extend(words.next());
                break;
            }
            _ => {}
        }
    }
    names
}

/// Whether `word` is `option` or, for a long option, `option=value`, or for a short option
/// a cluster holding it (`-rv` holds `-v`).
fn has_option(word: &str, option: &str) -> bool {
    if word == option {
        return true;
    }
    if let Some(long) = option.strip_prefix("--") {
        return word
            .strip_prefix("--")
            .and_then(|w| w.strip_prefix(long))
            .is_some_and(|rest| rest.starts_with('='));
    }
    let (Some(letter), Some(cluster)) = (option.strip_prefix('-'), word.strip_prefix('-')) else {
        return false;
    };
    letter.len() == 1
        && !cluster.starts_with('-')
        && cluster.bytes().all(|b| b.is_ascii_alphanumeric())
        && cluster.contains(letter)
}

fn any_option(args: &[Word], options: &[&str]) -> bool {
    args.iter()
        .any(|w| options.iter().any(|option| has_option(&w.text, option)))
}

/// The class of `core` (a command without leading assignments or wrappers; its first word is
/// the command), or why it is not understood.
pub(super) fn classify(core: &[Word]) -> Result<Class, NotUnderstood> {
    let Some((first, args)) = core.split_first() else {
        return Ok(Class::Inert);
    };
    let name = base(&first.text);
    let at = first.offset;
    if EVALUATES.contains(&name) {
        return nu("builtin that evaluates text", at);
    }
    if DECLARES.contains(&name) {
        let plain = |w: &Word| {
            let name = w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n);
            let mut chars = name.chars();
            chars
                .next()
                .is_some_and(|c| c == '_' || c.is_ascii_alphabetic())
                && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
                && !evaluated_variable(name)
        };
        if let Some(w) = args.iter().find(|w| !plain(w)) {
            return nu("declaration that is not a plain assignment", w.offset);
        }
        return Ok(Class::Inert);
    }
    if TAKES_NAMES.contains(&name) {
        if let Some(w) = args.iter().find(|w| w.text.contains('[')) {
            return nu("subscript in a variable name", w.offset);
        }
        if let Some(w) = name_words(name, args)
            .into_iter()
            .find(|w| w.expansion.is_some())
        {
            return nu("variable name from an expansion", w.offset);
        }
        if name == "wait" && any_option(args, &["-p"]) {
            return nu("builtin that evaluates text", at);
        }
    }
    let evaluated_by_test = match name {
        "[[" => TEST_EVALUATES,
        "test" | "[" => &["-v"],
        _ => &[],
    };
    if let Some(w) = args
        .iter()
        .find(|w| evaluated_by_test.contains(&w.text.as_str()))
    {
        return nu("arithmetic or variable test", w.offset);
    }
    Ok(match builtins::read_only(name, args) {
        Some(Ok(reads)) => Class::ReadOnly(reads),
        Some(Err(_)) if name == "git" => git(args),
        Some(Err(_)) if name == "find" => Class::Inert,
        Some(Err(_)) if runs_value(name, args) => Class::Opaque,
        Some(Err(_)) => Class::Inert,
        None => match INERT.iter().find(|(command, _)| *command == name) {
            Some((_, exceptions)) if !any_option(args, exceptions) => Class::Inert,
            _ => Class::Opaque,
        },
    })
}

/// Whether `name ARGS` (on the read-only list, with options it may not take unasked) gives
/// an option whose value is a program it runs, or what getopt may expand to one.
fn runs_value(name: &str, args: &[Word]) -> bool {
    let Some((_, options)) = RUNS_VALUE.iter().find(|(n, _)| *n == name) else {
        return false;
    };
    args.iter().any(|w| {
        let given = w.text.split_once('=').map_or(w.text.as_str(), |(o, _)| o);
        given.len() > 2 && options.iter().any(|o| o.starts_with(given))
    })
}

/// `git ARGS` that is not read-only: running its arguments for the subcommands that can,
/// inert otherwise.
fn git(args: &[Word]) -> Class {
    match args.first() {
        Some(sub) if sub.text.starts_with('-') || GIT_RUNS.contains(&sub.text.as_str()) => {
            Class::Opaque
        }
        _ => Class::Inert,
    }
}

/// The variables a builtin of `core` assigns: the names of `read`, `printf -v`, `getopts`
/// and `wait -p` (those of `declare` and its kin are read by the line).
pub(super) fn assigned_names(core: &[Word]) -> Vec<&Word> {
    match core.split_first() {
        Some((first, args)) if TAKES_NAMES.contains(&first.text.as_str()) => {
            name_words(&first.text, args)
        }
        _ => Vec::new(),
    }
}

/// The words of `text` as deny and ask rules look for them in a command that may run its
/// arguments: runs of letters, digits and `_ . / + -`, each also by its base name.
pub(crate) fn tokens(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || "_./+-".contains(c)))
        .filter(|token| !token.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(line: &str) -> Result<Class, NotUnderstood> {
        let words: Vec<Word> = line
            .split(' ')
            .enumerate()
            .map(|(i, text)| Word::new(text, i))
            .collect();
        classify(&words)
    }

    fn read_only(line: &str) -> bool {
        matches!(class(line), Ok(Class::ReadOnly(_)))
    }

    #[test]
    fn options_that_write_or_run_leave_the_read_only_list() {
        assert!(read_only("sort a"));
        assert!(read_only("printf -v x %s y"));
        assert_eq!(class("sort -o out a"), Ok(Class::Inert));
        assert_eq!(class("sort --output=out a"), Ok(Class::Inert));
        assert_eq!(class("sort --compress-program=rm a"), Ok(Class::Opaque));
        assert_eq!(class("sort --comp=rm a"), Ok(Class::Opaque));
        assert!(read_only("find . -name x"));
        assert_eq!(class("find . -delete"), Ok(Class::Inert));
        assert_eq!(class("rg --pre cat x"), Ok(Class::Opaque));
        assert!(read_only("grep -rv x ."));
    }

    #[test]
    fn git_reads_writes_or_runs_by_subcommand() {
        assert!(read_only("git log --oneline"));
        assert_eq!(class("git status"), Ok(Class::Inert));
        assert_eq!(class("git diff --output=x"), Ok(Class::Inert));
        assert_eq!(class("git commit -m x"), Ok(Class::Inert));
        assert_eq!(class("git -c core.pager=rm log"), Ok(Class::Opaque));
        assert_eq!(class("git rebase -x rm main"), Ok(Class::Opaque));
        assert_eq!(class("git config alias.x !rm"), Ok(Class::Opaque));
    }

    #[test]
    fn unknown_programs_may_run_their_arguments() {
        assert_eq!(class("setsid rm x"), Ok(Class::Opaque));
        assert_eq!(class("rm x"), Ok(Class::Inert));
    }

    #[test]
    fn builtins_that_evaluate_text_are_not_understood() {
        for line in [
            "let x",
            "source f",
            ". f",
            "hash -p /bin/rm ls",
            "declare -i y=x",
            "export PS4=x",
            "read a[x]",
            "printf -v a[x] 1",
            "test -v a[x]",
            "[[ x -eq 1 ]]",
            "mapfile -C f",
        ] {
            assert!(class(line).is_err(), "{line}");
        }
        for line in [
            "printf -v $x %s 1",
            "read -r $x",
            "unset $x",
            "getopts ab $x",
            "wait -p $x",
        ] {
            let mut words: Vec<Word> = line
                .split(' ')
                .enumerate()
                .map(|(i, text)| Word::new(text, i))
                .collect();
            if let Some(w) = words.iter_mut().find(|w| w.text == "$x") {
                w.expand("parameter expansion", false);
            }
            assert!(classify(&words).is_err(), "{line}");
        }
        assert_eq!(class("export A=1 B"), Ok(Class::Inert));
        assert!(read_only("[[ -f x ]]"));
    }

    #[test]
    fn tokens_split_at_quotes_and_punctuation() {
        assert_eq!(
            tokens("perl -e system(\"/bin/rm\",\"x\")"),
            ["perl", "-e", "system", "/bin/rm", "x"]
        );
    }
}
