//! Options in every spelling a program reads: the read-only list's own options (from
//! `toolreg::permissions::shell::internals`) and the options each program has that write,
//! run a program or read what a line does not name ([`DANGEROUS`]).

use toolreg::permissions::shell::internals;

/// One option of a list, in the list's notation (see `registry-core/src/permissions/shell/
/// options.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt {
    /// `-x` or `--name`.
    pub name: &'static str,
    /// Values it takes.
    pub values: usize,
    /// Its value is optional and attached only.
    pub optional: bool,
}

/// The entries of an option list.
pub fn entries(list: &'static str) -> Vec<Opt> {
    list.split_whitespace()
        .map(|entry| {
            let name = entry.trim_end_matches('!');
            let name = name
                .strip_suffix("=F")
                .map_or(name, |n| &entry[..n.len() + 1]);
            let optional = name.ends_with("=?");
            let name = name.trim_end_matches('?');
            let values = name.len() - name.trim_end_matches('=').len();
            Opt {
                name: name.trim_end_matches('='),
                values,
                optional,
            }
        })
        .collect()
}

/// The programs of the list, and git's subcommands as `git SUB` with the `single` style.
pub fn programs() -> Vec<(String, &'static str, &'static str)> {
    let mut out: Vec<(String, &'static str, &'static str)> = internals::programs()
        .into_iter()
        .map(|(name, list, style, _)| (name.to_owned(), list, style))
        .collect();
    for (sub, list) in internals::git_subcommands() {
        out.push((format!("git {sub}"), *list, "single"));
    }
    out
}

/// Options of the list's programs that write, run a program, read files the line does not
/// name, follow links out of a walked tree, or never end, each with a value where it takes
/// one (the value a word of its own after a space, or after `=`). None is read-only.
#[rustfmt::skip]
pub const DANGEROUS: &[(&str, &[&str])] = &[
    ("sort", &["-o w", "--output=w", "--compress-program=x/evil", "-T /tmp", "-m", "--merge",
        "--temporary-directory=/tmp", "--files0-from=f", "-S 16k", "--buffer-size=16k",
        "--batch-size=2"]),
    ("uniq", &[]),
    ("diff", &["-l", "--paginate", "-r", "--recursive", "-D x", "--ifdef=x"]),
    ("rg", &["--pre=x/evil", "--pre-glob=*", "-z", "--search-zip", "--hostname-bin=x/evil",
        "-L", "--follow", "--ignore-file=f", "--type-add=x:*.x"]),
    ("file", &["-C", "--compile", "-m f", "--magic-file=f", "-z", "--uncompress", "-Z",
        "--uncompress-noreport", "-p", "--preserve-date", "-f f", "--files-from=f", "-S",
        "--no-sandbox"]),
    ("tree", &["-o w", "-R", "-H x", "-l", "--fromfile", "--gitfile=f", "--hintro=f",
        "--infofile=f", "--filelimit 1", "--timefmt %s", "--charset=x"]),
    ("date", &["-s 1", "--set=1"]),
    ("tail", &["-f", "--follow", "-F", "--retry", "--pid=1", "-s 1", "--sleep-interval=1",
        "--max-unchanged-stats=1"]),
    ("grep", &["-R", "--dereference-recursive", "-d recurse", "--directories=recurse",
        "-D read", "--devices=read"]),
    ("ls", &["-L", "--dereference"]),
    ("du", &["-L", "--dereference", "--files0-from=f", "-X f", "--exclude-from=f"]),
    ("wc", &["--files0-from=f"]),
    ("md5sum", &["-c", "--check", "--status", "-w"]),
    ("df", &["--sync"]),
    ("head", &["--bytes"]),
    ("jq", &["-L x", "--run-tests", "--argfile a f", "--debug-trace"]),
    ("git log", &["-c core.pager=x/evil", "--output=w", "--ext-diff", "--textconv",
        "--show-signature", "--format=%G?", "--pretty=sig", "-O f", "--paginate", "--help"]),
    ("git show", &["--output=w", "--ext-diff", "--textconv", "--show-signature", "--help"]),
    ("git diff", &["--output=w", "--ext-diff", "--textconv", "--no-index", "-O f"]),
    ("git grep", &["-O x/evil", "--open-files-in-pager=x/evil", "--textconv",
        "--recurse-submodules", "-f f", "--no-index"]),
    ("git branch", &["-d main", "-D main", "-m x", "--edit-description", "-f", "--format=%(signature)",
        "--sort=signature", "--sort=-signature:grade"]),
    ("git tag", &["-a", "-d v1", "-v v1", "-s", "-f", "--sort=signature"]),
    ("git ls-files", &["-m", "--modified", "-d", "--deleted", "--exclude-from=f", "--eol"]),
    ("git describe", &["--dirty", "--broken"]),
    ("git cat-file", &["--textconv", "--filters", "--batch"]),
    ("git rev-list", &["--format=%G?"]),
    ("git rev-parse", &["--parseopt", "--git-path"]),
    ("git remote", &[]),
];

/// The dangerous options of `program`.
pub fn dangerous(program: &str) -> &'static [&'static str] {
    DANGEROUS
        .iter()
        .find(|(p, _)| *p == program)
        .map_or(&[], |(_, options)| options)
}

/// A value for option `name` of `program` that the program takes (so that it goes on to run).
pub fn value(program: &str, name: &str) -> &'static str {
    let program = program.strip_prefix("git ").unwrap_or(program);
    match (program, name) {
        ("cut", "-d" | "--delimiter") | ("sort", "-t" | "--field-separator") => ",",
        ("stat", _) | ("git log" | "log" | "show" | "rev-list", "--format") => "%n",
        ("ls", "--sort") => "size",
        ("ls" | "du", "--time-style") => "iso",
        ("ls" | "du", "--time") => "ctime",
        ("ls", "--format") => "long",
        ("ls", "--quoting-style") => "c",
        ("ls", "--indicator-style") => "slash",
        ("tree" | "rg", "--sort" | "--sortr") => "name",
        ("date", "-d" | "--date") => "now",
        ("date", "--rfc-3339") => "date",
        ("date", "-I" | "--iso-8601") => "date",
        (
            "nl",
            "-b" | "-f" | "-h" | "--body-numbering" | "--footer-numbering" | "--header-numbering",
        ) => "a",
        ("nl", "-n" | "--number-format") => "ln",
        ("rg", "-t" | "--type" | "-T" | "--type-not") => "rust",
        ("rg", "-g" | "--glob" | "--iglob") => "*.json",
        ("rg", "--color") => "never",
        ("rg", "--engine") => "default",
        ("rg", "-E" | "--encoding") => "utf-8",
        ("grep" | "egrep" | "fgrep" | "rg", "-e" | "--regexp") => "beta",
        ("grep" | "egrep" | "fgrep", "--binary-files") => "text",
        (_, "--color" | "--colour") => "never",
        ("jq", "--indent") => "2",
        ("jq", _) => "a",
        ("log" | "show" | "diff", "--date") => "iso",
        ("log" | "show" | "diff", "--pretty") => "oneline",
        ("log" | "show" | "diff", "--decorate") => "short",
        ("log" | "show" | "diff", "--diff-filter") => "M",
        ("log" | "show" | "diff", "--word-diff") => "plain",
        ("branch" | "tag", "--sort") => "refname",
        ("branch" | "tag", _) => "main",
        ("df", "-t" | "--type" | "-x" | "--exclude-type") => "tmpfs",
        ("df", "--output") => "source",
        ("du", "--exclude") => "h",
        ("column", "-s" | "-o" | "--separator" | "--output-separator") => ",",
        ("column", "-n" | "--table-name") => "t",
        _ => "1",
    }
}

/// The words that follow `program` so that it reads something (and does not wait on its
/// input): files, a pattern, a directory, a format.
pub fn operands(program: &str) -> &'static str {
    match program {
        "grep" | "egrep" | "fgrep" => "beta f",
        "rg" => "beta",
        "jq" => ". data.json",
        "tree" | "du" | "ls" => "d",
        "date" => "+%s",
        "tr" => "a b",
        "basename" => "/a/b",
        "dirname" => "/a/b",
        "id" | "whoami" | "uname" | "printenv" => "",
        "sleep" => "0",
        "which" => "cat",
        "comm" | "cmp" | "diff" => "f g",
        "git log" | "git show" => "HEAD~1",
        "git diff" => "--cached",
        "git grep" => "beta",
        "git cat-file" | "git ls-tree" | "git describe" | "git rev-parse" => "HEAD",
        "git merge-base" => "HEAD HEAD~1",
        p if p.starts_with("git ") => "",
        _ => "f",
    }
}

/// Every spelling of one option `opt` of a program of `style`, with `value` for its values
/// and `flag` another flag of the same program to cluster it with (if there is one).
pub fn spellings(
    opt: Opt,
    style: &str,
    value: &str,
    flag: Option<char>,
) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    let clusters = style != "single";
    if let Some(letter) = opt.name.strip_prefix('-').filter(|n| n.len() == 1) {
        match (opt.values, opt.optional) {
            (0, _) => {
                out.push((opt.name.to_owned(), "short"));
                if let Some(f) = flag.filter(|_| clusters) {
                    out.push((format!("-{f}{letter}"), "cluster"));
                    out.push((format!("-{letter}{f}"), "cluster"));
                }
            }
            (_, true) => {
                out.push((opt.name.to_owned(), "short"));
                out.push((format!("{}{value}", opt.name), "attached"));
            }
            _ => {
                out.push((format!("{} {value}", opt.name), "short"));
                if style != "next-word" && style != "jq" {
                    out.push((format!("{}{value}", opt.name), "attached"));
                }
                if let Some(f) = flag.filter(|_| clusters && style != "jq") {
                    out.push((format!("-{f}{letter} {value}"), "cluster"));
                    if style == "getopt" {
                        out.push((format!("-{f}{letter}{value}"), "cluster"));
                    }
                }
            }
        }
    } else {
        match (opt.values, opt.optional) {
            (0, _) => out.push((opt.name.to_owned(), "long")),
            (_, true) => {
                out.push((opt.name.to_owned(), "long"));
                out.push((format!("{}={value}", opt.name), "long="));
            }
            (1, _) => {
                out.push((format!("{} {value}", opt.name), "long"));
                if style != "jq" {
                    out.push((format!("{}={value}", opt.name), "long="));
                }
            }
            _ => out.push((format!("{} a {value}", opt.name), "long")),
        }
    }
    out
}

/// Every spelling of a dangerous option written `-x VALUE`, `--name=VALUE` or `--name`: as
/// written, attached, clustered after `flag`, each abbreviation of a long name (with `=`
/// and as two words), and as the value of `valued` (an option of the list that takes one).
pub fn dangerous_spellings(
    option: &str,
    flag: Option<char>,
    valued: Option<&str>,
) -> Vec<(String, &'static str)> {
    let (name, value) = match option.split_once([' ', '=']) {
        Some((name, value)) => (name, Some(value)),
        None => (option, None),
    };
    let mut out = vec![(option.to_owned(), "dangerous")];
    if let Some(letter) = name.strip_prefix('-').filter(|n| n.len() == 1) {
        if let Some(value) = value {
            out.push((format!("{name}{value}"), "dangerous attached"));
        }
        if let Some(f) = flag {
            let rest = value.map_or(String::new(), |v| format!(" {v}"));
            out.push((format!("-{f}{letter}{rest}"), "dangerous cluster"));
            if let Some(value) = value {
                out.push((format!("-{f}{letter}{value}"), "dangerous cluster"));
            }
        }
    } else if let Some(long) = name.strip_prefix("--") {
        if let Some(value) = value {
            out.push((format!("{name} {value}"), "dangerous long"));
        }
        for end in 1..long.len() {
            let short = &long[..end];
            match value {
                Some(value) => {
                    out.push((format!("--{short}={value}"), "dangerous abbreviation"));
                    out.push((format!("--{short} {value}"), "dangerous abbreviation"));
                }
                None => out.push((format!("--{short}"), "dangerous abbreviation")),
            }
        }
    }
    if let Some(valued) = valued {
        let joined = option.replace(' ', "");
        out.push((format!("{valued} {joined}"), "dangerous as a value"));
        out.push((format!("-- {joined}"), "dangerous after --"));
    }
    out
}
