//! A program's options as the program itself reads them, against the options it may take
//! unasked (an allow-list per program, see [`programs`](super::programs)).
//!
//! An option list is one string of space-separated entries:
//!
//! - `-x`: a short flag; `-x=`: a short option with a value; `-x=?`: a short option with an
//!   optional value, only attached (`-Ifmt`).
//! - `--name`: a long flag; `--name=`: a long option with a value, given as `--name=value`
//!   or as the next word; `--name=?`: an optional value, only as `--name=value`;
//!   `--name==`: two values, the next two words (`jq --arg NAME VALUE`).
//! - A value entry ending in `F` names a file the program reads (`-f=F`, `--rawfile==F`: the
//!   last value); an entry ending in `!` makes the program walk directories (`-r!`).
//!
//! Long options match only when spelled exactly: GNU getopt also takes any unambiguous
//! abbreviation (`--comp` for `--compress-program`), which is not read-only here. Words are
//! read in the program's [`Style`]; a word that is not on the list, a value missing, a value
//! given to a flag, a duplicate letter where the program refuses one, is [`Reject`]ed.

use super::lex::Word;

/// Why a command is not read-only, in a few words.
pub(super) type Reject = &'static str;

/// How a program reads its words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    /// GNU `getopt_long` with permutation: options anywhere before `--`; short flags
    /// cluster (`-rn`); a value-taking letter takes the rest of its word, or the next word.
    Getopt,
    /// As [`Style::Getopt`], but each value-taking letter of a cluster takes the next word,
    /// never the rest of its own (`tree -Lo 1 out` gives `1` to `-L` and `out` to `-o`).
    NextWord,
    /// No clusters: each short option a word of its own, a value attached or the next word
    /// (git).
    Single,
    /// jq: a cluster of distinct flag letters; values only as the next words, long options
    /// only as `--name VALUE`.
    Jq,
}

/// What one entry of an option list says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Def {
    /// As written, without the marks: `-f`, `--file`.
    pub(super) name: &'static str,
    /// Values it takes: 0, 1 or 2.
    pub(super) values: usize,
    /// Its value is optional, attached only.
    pub(super) optional: bool,
    /// Its last value names a file the program reads.
    pub(super) file: bool,
    /// It makes the program walk directories.
    pub(super) recursive: bool,
}

fn def(entry: &'static str) -> Def {
    let mut name = entry;
    let recursive = name.ends_with('!');
    name = name.trim_end_matches('!');
    let file = name.ends_with("=F");
    name = name.strip_suffix('F').filter(|_| file).unwrap_or(name);
    let optional = name.ends_with("=?");
    name = name.trim_end_matches('?');
    let values = name.len() - name.trim_end_matches('=').len();
    Def {
        name: name.trim_end_matches('='),
        values,
        optional,
        file,
        recursive,
    }
}

fn find(list: &'static str, name: &str) -> Option<Def> {
    list.split_whitespace().map(def).find(|d| d.name == name)
}

/// An option given, with its values.
#[derive(Debug)]
pub(super) struct Given<'w> {
    /// Its entry.
    pub(super) def: Def,
    /// Its values as given (an attached value is a part of its word).
    pub(super) values: Vec<Value<'w>>,
}

/// A value of an option.
#[derive(Debug, Clone, Copy)]
pub(super) struct Value<'w> {
    /// The value's text.
    pub(super) text: &'w str,
    /// The word it is in.
    pub(super) word: &'w Word,
}

/// A command's words, read.
#[derive(Debug, Default)]
pub(super) struct Parsed<'w> {
    /// The options, in order.
    pub(super) options: Vec<Given<'w>>,
    /// The other words, in order.
    pub(super) operands: Vec<&'w Word>,
    /// Where `--` ended the options: operands from this index on came after it.
    pub(super) ended_at: Option<usize>,
}

impl Parsed<'_> {
    /// Whether an option of this name was given.
    pub(super) fn has(&self, name: &str) -> bool {
        self.options.iter().any(|g| g.def.name == name)
    }
    /// Whether an option that walks directories was given.
    pub(super) fn recursive(&self) -> bool {
        self.options.iter().any(|g| g.def.recursive)
    }
    /// The values of the options that name files the program reads.
    pub(super) fn file_values(&self) -> impl Iterator<Item = Value<'_>> {
        self.options
            .iter()
            .filter(|g| g.def.file)
            .filter_map(|g| g.values.last().copied())
    }
}

/// Whether bash may turn `w` into an option: an expansion at its very start (`"$x"` and `*`
/// may be `--output=f`), or an unquoted parameter expansion, whose value is split into words
/// (`a$x` may be `a --output=f`). A glob after a literal start (`src/*`) only gives words
/// with that start.
pub(super) fn may_become_options(w: &Word) -> bool {
    w.field_splits || w.expanded_at == Some(0)
}

/// Reads `args` (a command's words after its name) against the option list `list`.
/// `digits`: a word of digits only (`-5`) is an option, as for `head -5`. `lenient`: a word
/// that may become options is taken as an operand (for a program none of whose options, on
/// the list or not, writes or runs anything; the caller reports such a word as an unknown
/// read), else refused.
pub(super) fn parse<'w>(
    args: &'w [Word],
    list: &'static str,
    style: Style,
    digits: bool,
    lenient: bool,
) -> Result<Parsed<'w>, Reject> {
    let mut parsed = Parsed::default();
    let mut words = args.iter();
    while let Some(w) = words.next() {
        let t = w.text.as_str();
        if parsed.ended_at.is_some() || !t.starts_with('-') || t == "-" {
            if parsed.ended_at.is_none() && may_become_options(w) && !lenient {
                return Err("an expansion where options are read");
            }
            parsed.operands.push(w);
            continue;
        }
        if w.expansion.is_some() {
            return Err("an expansion in an option");
        }
        if t == "--" {
            parsed.ended_at = Some(parsed.operands.len());
            continue;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (long, None),
            };
            let def = find(list, &format!("--{name}")).ok_or("an option not on the list")?;
            let mut values = Vec::new();
            match (def.values, attached) {
                (0, Some(_)) => return Err("a value given to a flag"),
                (1, Some(_)) if style == Style::Jq => return Err("an option jq does not read"),
                (_, Some(text)) if def.values == 1 => values.push(Value { text, word: w }),
                (_, Some(_)) => return Err("two values attached"),
                (_, None) if def.optional => {}
                (n, None) => {
                    for _ in 0..n {
                        values.push(next_value(&mut words)?);
                    }
                }
            }
            parsed.options.push(Given { def, values });
            continue;
        }
        let cluster = t.get(1..).unwrap_or_default();
        if digits && cluster.starts_with(|c: char| c.is_ascii_digit()) {
            if !cluster.bytes().all(|b| b.is_ascii_digit()) {
                return Err("a count followed by letters");
            }
            continue;
        }
        short_cluster(cluster, w, list, style, &mut words, &mut parsed)?;
    }
    Ok(parsed)
}

/// The short options of one word (`cluster` is the word without its `-`).
fn short_cluster<'w>(
    cluster: &'w str,
    w: &'w Word,
    list: &'static str,
    style: Style,
    words: &mut std::slice::Iter<'w, Word>,
    parsed: &mut Parsed<'w>,
) -> Result<(), Reject> {
    for (i, c) in cluster.char_indices() {
        let mut name = String::from("-");
        name.push(c);
        let def = find(list, &name).ok_or("an option not on the list")?;
        let rest = cluster.get(i + c.len_utf8()..).unwrap_or_default();
        if style == Style::Single && i > 0 {
            return Err("a cluster of options git reads otherwise");
        }
        if style == Style::Jq && cluster.matches(c).count() > 1 {
            return Err("a letter jq refuses twice");
        }
        let mut values = Vec::new();
        let last = match (def.values, style) {
            (0, _) => false,
            (_, Style::Jq) => return Err("a value jq does not read"),
            (_, _) if def.optional => {
                if !rest.is_empty() {
                    values.push(Value {
                        text: rest,
                        word: w,
                    });
                }
                true
            }
            (1, Style::NextWord) => {
                values.push(next_value(words)?);
                false
            }
            (1, _) if !rest.is_empty() => {
                values.push(Value {
                    text: rest,
                    word: w,
                });
                true
            }
            (1, _) => {
                values.push(next_value(words)?);
                true
            }
            _ => return Err("a short option with two values"),
        };
        parsed.options.push(Given { def, values });
        if last {
            break;
        }
    }
    Ok(())
}

fn next_value<'w>(words: &mut std::slice::Iter<'w, Word>) -> Result<Value<'w>, Reject> {
    let word = words.next().ok_or("an option without its value")?;
    if word.splits() {
        return Err("an expansion that may split an option's value");
    }
    Ok(Value {
        text: &word.text,
        word,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<Word> {
        line.split(' ')
            .filter(|t| !t.is_empty())
            .enumerate()
            .map(|(i, t)| Word::new(t, i))
            .collect()
    }

    const LIST: &str = "-n -o= -I=? -f=F -r! --out= --color=? --all --arg== --file=F";

    fn shape(line: &str, style: Style) -> Result<(Vec<String>, Vec<String>), Reject> {
        let w = words(line);
        let p = parse(&w, LIST, style, true, false)?;
        let options = p
            .options
            .iter()
            .map(|g| {
                let values: Vec<&str> = g.values.iter().map(|v| v.text).collect();
                format!("{}{:?}", g.def.name, values)
            })
            .collect();
        let operands = p.operands.iter().map(|w| w.text.clone()).collect();
        Ok((options, operands))
    }

    #[test]
    fn getopt_values_are_attached_or_the_next_word_and_end_a_cluster() {
        let (o, a) = shape("-no x a -ox --out=y --out z -- -n", Style::Getopt).unwrap();
        assert_eq!(
            o,
            [
                "-n[]",
                "-o[\"x\"]",
                "-o[\"x\"]",
                "--out[\"y\"]",
                "--out[\"z\"]"
            ]
        );
        assert_eq!(a, ["a", "-n"]);
        let (o, a) = shape("-Iab -I c --color --color=x", Style::Getopt).unwrap();
        assert_eq!(o, ["-I[\"ab\"]", "-I[]", "--color[]", "--color[\"x\"]"]);
        assert_eq!(a, ["c"]);
    }

    #[test]
    fn next_word_style_gives_each_value_letter_the_next_word() {
        let (o, a) = shape("-on x y", Style::NextWord).unwrap();
        assert_eq!(o, ["-o[\"x\"]", "-n[]"]);
        assert_eq!(a, ["y"]);
    }

    #[test]
    fn abbreviations_unknown_options_and_misplaced_values_are_rejected() {
        for line in ["--ou=x", "--colo", "-x", "--all=1", "-o", "--arg a", "-5n"] {
            assert!(shape(line, Style::Getopt).is_err(), "{line}");
        }
        assert!(shape("-nr", Style::Single).is_err());
        assert!(shape("-nn", Style::Jq).is_err());
        assert!(shape("--out=x", Style::Jq).is_err());
        assert!(shape("-55", Style::Getopt).is_ok());
    }

    #[test]
    fn marks_say_which_values_are_files_and_which_options_recurse() {
        let w = words("-r -f a --file=b --arg x y");
        let p = parse(&w, LIST, Style::Getopt, false, false).unwrap();
        assert!(p.recursive());
        let files: Vec<&str> = p.file_values().map(|v| v.text).collect();
        assert_eq!(files, ["a", "b"]);
    }
}
