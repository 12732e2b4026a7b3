//! The read-only forms that are not a program's option list: bash's builtins on the list
//! (`:`, `echo`, `false`, `printf`, `pwd`, `true`, `type`, `cd`, `test`, `[`, and the keyword
//! `[[`), `find`'s expression, and the dispatch to [`programs`](super::programs) and
//! [`git`](super::git).

use super::git;
use super::lex::Word;
use super::options::{Reject, Style, may_become_options, parse};
use super::programs;
use super::reads::{Operand, literal};

/// What `name ARGS` reads, when it is on the read-only list (`None`: it is not) and its
/// words are ones it may take unasked (`Err`: they are not).
pub(super) fn read_only(name: &str, args: &[Word]) -> Option<Result<Vec<Operand>, Reject>> {
    Some(match name {
        ":" | "echo" | "false" | "printf" | "true" => Ok(Vec::new()),
        "pwd" => parse(args, "-L -P", Style::Getopt, false, false).and_then(|p| {
            p.operands
                .is_empty()
                .then(Vec::new)
                .ok_or("an operand of pwd")
        }),
        "type" => parse(args, "-a -f -p -P -t", Style::Getopt, false, true).map(|_| Vec::new()),
        "test" | "[" | "[[" => Ok(test_files(args)),
        "cd" => cd(args).map(|target| match target {
            Some(w) => vec![Operand::path(w, false)],
            None => Vec::new(),
        }),
        "find" => find(args),
        "git" => git::read_only(args),
        _ => programs::reads(programs::program(name)?, args),
    })
}

/// Operators of `test` whose operand is a file.
const FILE_TESTS: &[&str] = &[
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-u", "-w", "-x", "-G",
    "-L", "-N", "-O", "-S",
];

/// The files `test ARGS` looks at: the operand of each file test, both sides of `-nt`,
/// `-ot` and `-ef`.
fn test_files(args: &[Word]) -> Vec<Operand> {
    let mut out = Vec::new();
    for (i, w) in args.iter().enumerate() {
        let next = args.get(i + 1).filter(|n| n.text != "]" && n.text != "]]");
        if FILE_TESTS.contains(&w.text.as_str()) {
            out.extend(next.map(|n| Operand::path(n, false)));
        } else if ["-nt", "-ot", "-ef"].contains(&w.text.as_str()) {
            out.extend(
                i.checked_sub(1)
                    .and_then(|p| args.get(p))
                    .map(|p| Operand::path(p, false)),
            );
            out.extend(next.map(|n| Operand::path(n, false)));
        }
    }
    out
}

/// `cd ARGS`: its target when it is a literal path (`Ok(None)`: one the checker cannot
/// follow, or none).
pub(super) fn cd(args: &[Word]) -> Result<Option<&Word>, Reject> {
    let parsed = parse(args, "-L -P", Style::Getopt, false, false)?;
    match parsed.operands.as_slice() {
        [] => Ok(None),
        [w] if w.text == "-" || !literal(w) => Ok(None),
        [w] => Ok(Some(w)),
        _ => Err("cd with more than one operand"),
    }
}

/// Primaries of `find` that only test or print, with how many words they take; `-newerXY`
/// is read apart.
#[rustfmt::skip]
pub(super) const FIND_PRIMARIES: &[(&str, usize)] = &[
    ("!", 0), ("(", 0), (")", 0), (",", 0), ("-a", 0), ("-and", 0), ("-o", 0), ("-or", 0),
    ("-not", 0), ("-print", 0), ("-print0", 0), ("-ls", 0), ("-prune", 0), ("-quit", 0),
    ("-true", 0), ("-false", 0), ("-empty", 0), ("-readable", 0), ("-writable", 0),
    ("-executable", 0), ("-nouser", 0), ("-nogroup", 0), ("-depth", 0), ("-d", 0),
    ("-mount", 0), ("-xdev", 0), ("-noleaf", 0), ("-ignore_readdir_race", 0),
    ("-noignore_readdir_race", 0), ("-daystart", 0), ("-help", 0), ("--help", 0),
    ("-version", 0), ("--version", 0),
    ("-name", 1), ("-iname", 1), ("-path", 1), ("-ipath", 1), ("-wholename", 1),
    ("-iwholename", 1), ("-regex", 1), ("-iregex", 1), ("-regextype", 1), ("-type", 1),
    ("-xtype", 1), ("-maxdepth", 1), ("-mindepth", 1), ("-mtime", 1), ("-mmin", 1),
    ("-atime", 1), ("-amin", 1), ("-ctime", 1), ("-cmin", 1), ("-size", 1), ("-perm", 1),
    ("-user", 1), ("-group", 1), ("-uid", 1), ("-gid", 1), ("-links", 1), ("-inum", 1),
    ("-lname", 1), ("-ilname", 1), ("-fstype", 1), ("-used", 1), ("-printf", 1),
];

/// Primaries of `find` whose word is a file it looks at.
const FIND_FILES: &[&str] = &["-newer", "-anewer", "-cnewer", "-samefile"];

/// `find [-H|-P] [PATH…] [EXPRESSION]` with only primaries that test or print: its starting
/// points (`.` when none), walked, and the files its primaries look at.
fn find(args: &[Word]) -> Result<Vec<Operand>, Reject> {
    let mut words = args.iter().peekable();
    while words
        .next_if(|w| w.text == "-H" || w.text == "-P")
        .is_some()
    {}
    let mut out = Vec::new();
    while let Some(w) = words.next_if(|w| !starts_expression(w)) {
        if may_become_options(w) {
            return Err("an expansion where find reads its expression");
        }
        out.push(Operand::path(w, true));
    }
    if out.is_empty() {
        out.push(Operand::here());
    }
    while let Some(w) = words.next() {
        let t = w.text.as_str();
        if w.expansion.is_some() {
            return Err("an expansion where find reads a primary");
        }
        let (file, count) = if let Some(xy) = t.strip_prefix("-newer").filter(|xy| xy.len() == 2) {
            let valid = |c: u8, t| b"aBcm".contains(&c) || (t && c == b't');
            let mut xy = xy.bytes();
            let (Some(x), Some(y)) = (xy.next(), xy.next()) else {
                return Err("a find primary not on the list");
            };
            if !valid(x, false) || !valid(y, true) {
                return Err("a find primary not on the list");
            }
            (y != b't', 1)
        } else if FIND_FILES.contains(&t) {
            (true, 1)
        } else {
            let (_, count) = FIND_PRIMARIES
                .iter()
                .find(|(p, _)| *p == t)
                .ok_or("a find primary not on the list")?;
            (false, *count)
        };
        for _ in 0..count {
            let arg = words.next().ok_or("a find primary without its argument")?;
            if file {
                out.push(Operand::path(arg, false));
            }
        }
    }
    Ok(out)
}

/// Whether `find` reads `w` as the start of its expression.
fn starts_expression(w: &Word) -> bool {
    w.text.starts_with('-') || ["(", ")", "!", ","].contains(&w.text.as_str())
}
