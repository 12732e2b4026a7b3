//! The lines the differential runs: [`systematic`] (every program of the list with each of
//! its options in every spelling, each of its dangerous options in every spelling, its
//! operands as plain files, a link, a link out of the tree, a missing file, `-`, a glob, an
//! expansion; `find`'s primaries; the builtins) and [`random`] ones (several options and
//! operands at once, behind the line's contexts: `cd`, assignments, functions, redirections,
//! pipes, wrappers).

use toolreg::permissions::shell::internals;

use super::Line;
use super::spell::{self, Opt};

/// Operands of a program that reads files.
const OPERANDS: &[(&str, &str)] = &[
    ("f", "operand: file"),
    ("link", "operand: link"),
    ("out-link/hostname", "operand: link out of the tree"),
    ("missing", "operand: missing file"),
    ("-", "operand: standard input"),
    ("d", "operand: directory"),
    ("*", "operand: glob"),
    ("*.json", "operand: glob"),
    ("\"$x\"", "operand: expansion"),
    ("$x", "operand: expansion"),
    ("~/x", "operand: tilde"),
    ("-- --output=w", "operand: named like an option"),
];

/// A flag of `entries` other than `except`, to cluster with.
fn flag_of(entries: &[Opt], except: &str) -> Option<char> {
    entries
        .iter()
        .filter(|o| o.values == 0 && o.name != except)
        .filter_map(|o| o.name.strip_prefix('-').filter(|n| n.len() == 1))
        .filter_map(|n| n.chars().next())
        .find(|c| c.is_ascii_alphabetic())
}

/// An option of `entries` that takes a value, spelled with its name only.
fn valued_of(entries: &[Opt]) -> Option<&'static str> {
    entries
        .iter()
        .find(|o| o.values == 1 && !o.optional && o.name.len() == 2)
        .map(|o| o.name)
}

fn line(text: String, class: &'static str) -> Line {
    Line {
        text,
        labels: vec![class],
    }
}

/// Every program of the list × its options in every spelling × its dangerous options in
/// every spelling × its operands; `find`'s primaries; the builtins.
pub fn systematic() -> Vec<Line> {
    let mut out = Vec::new();
    for (program, list, style) in spell::programs() {
        let entries = spell::entries(list);
        let operands = spell::operands(&program);
        for opt in &entries {
            let flag = flag_of(&entries, opt.name);
            let value = spell::value(&program, opt.name);
            for (spelled, class) in spell::spellings(*opt, style, value, flag) {
                let class = match class {
                    "short" => "allowed option: short",
                    "cluster" => "allowed option: cluster",
                    "attached" => "allowed option: attached value",
                    "long" => "allowed option: long",
                    _ => "allowed option: long=value",
                };
                out.push(line(format!("{program} {spelled} {operands}"), class));
            }
        }
        let flag = flag_of(&entries, "");
        let valued = valued_of(&entries);
        for option in spell::dangerous(&program) {
            for (spelled, class) in spell::dangerous_spellings(option, flag, valued) {
                out.push(line(format!("{program} {spelled} {operands}"), class));
            }
        }
        if !program.starts_with("git") && operands.ends_with('f') {
            let head = operands.strip_suffix('f').unwrap_or_default();
            for (operand, class) in OPERANDS {
                out.push(line(format!("{program} {head}{operand}"), class));
            }
        }
    }
    out.extend(find_lines());
    out.extend(builtin_lines());
    out
}

fn find_lines() -> Vec<Line> {
    let mut out = Vec::new();
    for (primary, count) in internals::find_primaries() {
        let args = match (*primary, count) {
            ("(", _) => "-name f )".to_owned(),
            ("!" | "-not", _) => "-name f".to_owned(),
            ("-a" | "-and" | "-o" | "-or" | ",", _) => "-print".to_owned(),
            ("-type" | "-xtype", _) => "f".to_owned(),
            ("-regextype", _) => "posix-egrep".to_owned(),
            ("-printf", _) => "%p\\\\n".to_owned(),
            (p, 1) if p.contains("time") || p.contains("min") || p == "-used" => "-1".to_owned(),
            ("-perm", _) => "-444".to_owned(),
            ("-user" | "-group", _) => "root".to_owned(),
            ("-fstype", _) => "tmpfs".to_owned(),
            ("-size", _) => "-1k".to_owned(),
            (_, 1) => "1".to_owned(),
            _ => String::new(),
        };
        let before = if *primary == ")" { "( -name f " } else { "" };
        out.push(line(
            format!("find d {before}{primary} {args}"),
            "find primary",
        ));
    }
    for primary in [
        "-newer f",
        "-anewer f",
        "-cnewer f",
        "-samefile f",
        "-newermt 2020-01-01",
        "-newercm f",
    ] {
        out.push(line(format!("find . {primary}"), "find primary"));
    }
    for dangerous in [
        "-delete",
        "-exec x/evil {} ;",
        "-exec x/evil {} +",
        "-execdir x/evil {} ;",
        "-ok x/evil {} ;",
        "-okdir x/evil {} ;",
        "-fprint w",
        "-fprint0 w",
        "-fprintf w %p",
        "-fls w",
        "-follow",
        "-files0-from f",
        "-newerXY f",
    ] {
        out.push(line(format!("find d {dangerous}"), "find dangerous"));
    }
    for start in [
        "-L d",
        "-H d",
        "-P d",
        "-D tree d",
        "-O3 d",
        "",
        "d dlink",
        "\"$x\"",
        "d/*",
    ] {
        out.push(line(format!("find {start} -name h"), "find start"));
    }
    out
}

#[rustfmt::skip]
fn builtin_lines() -> Vec<Line> {
    [
        "echo -n a", "echo -e 'a\\tb'", "echo $x", "printf '%s\\n' a b", "printf -v x %s y",
        "true --help", "false x", ": anything", "pwd", "pwd -P", "pwd -L", "type ls", "type -a cat",
        "type -P ls", "test -f f", "[ -d d ]", "[[ -e f && -r g ]]", "test f -nt g", "[ -L link ]",
        "cd d", "cd d && ls", "cd -P dlink", "cd -L dlink", "cd -- d", "cd", "cd -", "cd ~",
        "cd \"$x\"", "cd d e", "cd -e d", "git", "git --version", "git version",
        "git --no-pager log --oneline", "git -P log", "git --help", "git help log",
    ]
    .into_iter()
    .map(|text| line(text.to_owned(), "builtin"))
    .collect()
}

/// Contexts before a command: what the line did before it.
#[rustfmt::skip]
const CONTEXTS: &[(&str, &str)] = &[
    ("", "context: none"), ("", "context: none"), ("", "context: none"), ("", "context: none"),
    ("", "context: none"), ("", "context: none"), ("", "context: none"), ("", "context: none"),
    ("", "context: none"), ("", "context: none"), ("", "context: none"), ("", "context: none"),
    ("cd d && ", "context: cd"), ("cd d; cd sub; ", "context: cd"), ("(cd /); ", "context: cd"),
    ("cd .. && cd - && ", "context: cd"), ("cd dlink/.. && ", "context: cd"),
    ("echo a; ", "context: read-only command"), ("ls >/dev/null && ", "context: read-only command"),
    ("x=1; ", "context: lower-case assignment"), ("x=--output=w; ", "context: lower-case assignment"),
    ("PATH=x; ", "context: PATH"), ("PATH=x:$PATH ", "context: PATH"),
    ("printf -v PATH %s x; ", "context: PATH"), ("export PATH=x; ", "context: PATH"),
    ("declare PATH=x; ", "context: PATH"), ("read PATH <<< x; ", "context: PATH"),
    ("unset PATH; ", "context: PATH"), (": ${PATH:=x}; ", "context: PATH"),
    ("HOME=x; ", "context: environment"), ("GIT_CONFIG_COUNT=0; ", "context: environment"),
    ("TMPDIR=x; ", "context: environment"), ("set -a; ", "context: shell state"),
    ("shopt -s expand_aliases; ", "context: shell state"),
    ("ls() { x/evil; }; ", "context: function"), ("cat() ( x/evil ); ", "context: function"),
    ("hash -p x/evil ls; ", "context: shell state"), ("enable -n echo; ", "context: shell state"),
    ("exec 3</dev/tcp/127.0.0.1/9; ", "context: socket"),
];

/// Endings after a command: redirections and pipes.
#[rustfmt::skip]
const ENDINGS: &[(&str, &str)] = &[
    ("", "ending: none"), ("", "ending: none"), ("", "ending: none"), ("", "ending: none"),
    ("", "ending: none"), ("", "ending: none"), ("", "ending: none"), ("", "ending: none"),
    (" 2>/dev/null", "ending: redirection"), (" </dev/null", "ending: redirection"),
    (" | sort -u", "ending: pipe"), (" | wc -l", "ending: pipe"), (" || true", "ending: list"),
    (" 2>/dev/null", "ending: redirection"), (" >/dev/null 2>&1", "ending: redirection"),
    (" <f", "ending: redirection"), (" >w", "ending: redirection to a file"),
    (" >>w", "ending: redirection to a file"), (" 3<>f", "ending: redirection to a file"),
    (" &>w", "ending: redirection to a file"), (" >&w", "ending: redirection to a file"),
    (" 3</dev/tcp/127.0.0.1/9", "ending: socket"), (" </dev/udp/127.0.0.1/9", "ending: socket"),
    (" | sort -u", "ending: pipe"), (" | head -1", "ending: pipe"), (" | x/evil", "ending: pipe"),
    (" && cat f", "ending: list"), (" ; ls", "ending: list"), (" & wait", "ending: background"),
];

/// Prefixes of a command word.
#[rustfmt::skip]
const WORDS: &[(&str, &str)] = &[
    ("", "word: bare"), ("", "word: bare"), ("", "word: bare"), ("", "word: bare"),
    ("", "word: bare"), ("", "word: bare"), ("", "word: bare"), ("", "word: bare"),
    ("", "word: bare"), ("", "word: bare"), ("", "word: bare"), ("", "word: bare"),
    ("", "word: bare"), ("", "word: bare"), ("'", "word: quoted"),
    ("\\", "word: escaped"), ("./", "word: by path"), ("x/", "word: by path"),
    ("/usr/bin/", "word: by path"), ("command ", "word: wrapper"), ("env ", "word: wrapper"),
];

/// Values given to options at random instead of one they take: names of programs, formats
/// and keys that check signatures, options, sockets, expansions, globs, files.
#[rustfmt::skip]
const VALUES: &[&str] = &[
    "x/evil", "signature", "-signature", "%G?", "%GS", "%(signature)", "sig", "--output=w", "-o",
    "w", "/dev/tcp/127.0.0.1/9", "$x", "\"$x\"", "*", "~/x", "f", "d", "-", "1", "-1", "0", "''",
    "refname", "never", "always", "recurse", "read", "--", "%p", "x/evil {} ;",
];

/// Line `index` of the random stream of `seed`: a context, a command of the list (options
/// of its own and dangerous ones in random spellings, operands), an ending, and at times a
/// second command after a pipe or a separator.
pub fn random(seed: u64, index: u64) -> Line {
    let mut r = Rng(seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let (context, a) = CONTEXTS[r.below(CONTEXTS.len())];
    let (ending, b) = ENDINGS[r.below(ENDINGS.len())];
    let (word, c) = WORDS[r.below(WORDS.len())];
    let mut text = format!("{context}{}{ending}", command(&mut r, word));
    let mut labels = vec!["random", a, b, c];
    if r.below(6) == 0 {
        let sep = [" | ", "; ", " && "][r.below(3)];
        text = format!("{text}{sep}{}", command(&mut r, ""));
        labels.push("two commands");
    }
    Line { text, labels }
}

/// A command of the list, run by `word` (a prefix: a backslash, `./`, `env `; a quote
/// mark quotes the name).
fn command(r: &mut Rng, word: &str) -> String {
    let programs = spell::programs();
    // git's subcommands are a quarter of the list and its lines the slowest: an eighth.
    let git = r.below(8) == 0;
    let candidates: Vec<&(String, &str, &str)> = programs
        .iter()
        .filter(|(name, _, _)| name.starts_with("git ") == git)
        .collect();
    let (program, list, style) = candidates[r.below(candidates.len())];
    let entries = spell::entries(list);
    let dangerous = spell::dangerous(program);
    let mut words: Vec<String> = Vec::new();
    for _ in 0..r.below(4) {
        if !dangerous.is_empty() && r.below(8) == 0 {
            let option = dangerous[r.below(dangerous.len())];
            let flag = flag_of(&entries, "");
            let spellings = spell::dangerous_spellings(option, flag, valued_of(&entries));
            words.push(spellings[r.below(spellings.len())].0.clone());
        } else if !entries.is_empty() {
            let opt = entries[r.below(entries.len())];
            let value = if r.below(4) == 0 {
                VALUES[r.below(VALUES.len())]
            } else {
                spell::value(program, opt.name)
            };
            let spellings = spell::spellings(opt, style, value, flag_of(&entries, opt.name));
            if !spellings.is_empty() {
                words.push(spellings[r.below(spellings.len())].0.clone());
            }
        }
    }
    let operands = spell::operands(program);
    let operands = if operands.ends_with('f') && r.below(3) == 0 {
        let head = operands.strip_suffix('f').unwrap_or_default();
        format!("{head}{}", OPERANDS[r.below(OPERANDS.len())].0)
    } else {
        operands.to_owned()
    };
    let program = if word == "'" {
        format!("'{program}'")
    } else {
        format!("{word}{program}")
    };
    format!("{program} {} {operands}", words.join(" "))
}

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}
