//! The read-only list: per program, the options it may take unasked (an allow-list, in the
//! notation of [`options`](super::options)) and what its other words are.
//!
//! Programs are looked up by their bare name in the `PATH` the Bash tool runs read-only
//! commands with ([`SYSTEM_PATH`](super::SYSTEM_PATH)); the builtins (`builtin: true`) are
//! bash's own, never looked up. An option not listed, an abbreviated long option, or an
//! expansion that may turn into an option, makes a command not read-only. Options left out on
//! purpose: those that write (`sort -o`, `tree -o`, `file -C`, `file -p` which resets access
//! times), run a program (`sort --compress-program`, `diff -l`, `rg --pre`, `rg -z`,
//! `file -z`), read files the line does not name (`--files0-from`, `md5sum -c`, `file -f`,
//! `file -m`, `tree --fromfile`), follow links while walking a tree (`grep -R`, `ls -L`,
//! `du -L`, `rg -L`, `tree -l`, `diff -r`), never end (`tail -f`), or change the machine
//! (`date -s`, `df --sync`).
//!
//! `sort` may spill to temporary files in `$TMPDIR` when its input outgrows its buffer: the
//! one write a listed command can make, bounded by the sandbox where there is one. Its
//! `-m`/`--merge` is left out: merging, it copies an input that is the same file as its output
//! to `$TMPDIR` first (`sort -m - </dev/null >/dev/null`).

use super::lex::Word;
use super::options::{Parsed, Reject, Style, may_become_options, parse};
use super::reads::Operand;

/// What a program's operands are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Operands {
    /// Files it reads (`-` is standard input); none: standard input.
    Files,
    /// At most one file (`uniq IN OUT` writes OUT), literal.
    OneFile,
    /// Files or directories it walks; none: `.`.
    Trees,
    /// Files and directories, walked when a `!` option is given (`ls -R`); none: `.`.
    Listing,
    /// A pattern first, unless an option gave it; then files, walked and `.` by default when
    /// a `!` option is given (grep).
    Grep,
    /// A pattern first, unless an option gave it or `--files` lists files; then paths, always
    /// walked, `.` by default (rg).
    Rg,
    /// A filter (a file with `-f`) then files (jq).
    Jq,
    /// Words that are not paths.
    Text,
    /// `+FORMAT` only (date: another operand sets the clock).
    Format,
}

/// A program on the read-only list.
#[derive(Debug, Clone, Copy)]
pub(super) struct Program {
    /// Its name.
    pub(super) name: &'static str,
    /// How it reads its words.
    pub(super) style: Style,
    /// The options it may take.
    pub(super) options: &'static str,
    /// `-NUM` is an option (head, tail).
    pub(super) digits: bool,
    /// What its operands are.
    pub(super) operands: Operands,
    /// None of its options, listed or not, writes or runs anything: a word that may become
    /// options (`cat *.rs`, `cat "$f"`) is an unknown read rather than a refusal.
    pub(super) inert: bool,
}

const fn getopt(name: &'static str, options: &'static str, operands: Operands) -> Program {
    Program {
        name,
        style: Style::Getopt,
        options,
        digits: false,
        operands,
        inert: true,
    }
}

/// `program`, with options that write or run something among those not on its list.
const fn armed(program: Program) -> Program {
    Program {
        inert: false,
        ..program
    }
}

const GNU: &str = " --help --version";
const SUM: &str = "-b -t -z --binary --text --zero --tag --help --version";

/// The programs, bash builtins and the special forms (`find`, `git`, `cd`, `test`) aside.
#[rustfmt::skip]
pub(super) const PROGRAMS: &[Program] = &[
    getopt("cat", concat!("-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends ",
        "--number --squeeze-blank --show-tabs --show-nonprinting --help --version"), Operands::Files),
    Program { digits: true, ..getopt("head", concat!("-c= -n= -q -v -z --bytes= --lines= --quiet ",
        "--silent --verbose --zero-terminated --help --version"), Operands::Files) },
    Program { digits: true, ..getopt("tail", concat!("-c= -n= -q -v -z --bytes= --lines= --quiet ",
        "--silent --verbose --zero-terminated --help --version"), Operands::Files) },
    getopt("wc", concat!("-c -m -l -L -w --bytes --chars --lines --max-line-length --words",
        " --help --version"), Operands::Files),
    getopt("ls", concat!("-a -A -b -B -c -C -d -D -f -F -g -G -h -H -i -k -l -m -n -N -o -p -q -Q -r ",
        "-R! -s -S -t -u -U -v -x -X -Z -1 -I= -T= -w= --all --almost-all --author --escape ",
        "--ignore-backups --directory --dired --classify=? --file-type --full-time ",
        "--group-directories-first --no-group --human-readable --si --dereference-command-line ",
        "--dereference-command-line-symlink-to-dir --hyperlink=? --inode --kibibytes ",
        "--numeric-uid-gid --literal --hide-control-chars --show-control-chars --quote-name ",
        "--reverse --recursive! --size --context --zero --color=? --block-size= --format= --hide= ",
        "--indicator-style= --ignore= --quoting-style= --sort= --time= --time-style= --tabsize= ",
        "--width= --help --version"), Operands::Listing),
    getopt("grep", GREP, Operands::Grep),
    getopt("egrep", GREP, Operands::Grep),
    getopt("fgrep", GREP, Operands::Grep),
    armed(getopt("sort", concat!("-b -d -f -g -i -M -h -n -R -r -V -c -C -k= -s -t= -u -z ",
        "--ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort ",
        "--ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort ",
        "--random-source=F --reverse --sort= --version-sort --check=? --key= --stable ",
        "--field-separator= --unique --zero-terminated --debug --parallel= --help --version"),
        Operands::Files)),
    armed(getopt("uniq", concat!("-c -d -D -f= -i -s= -u -z -w= --count --repeated --all-repeated=? ",
        "--skip-fields= --group=? --ignore-case --skip-chars= --unique --zero-terminated ",
        "--check-chars= --help --version"), Operands::OneFile)),
    getopt("cut", concat!("-b= -c= -d= -f= -n -s -z --bytes= --characters= --delimiter= --fields= ",
        "--complement --only-delimited --output-delimiter= --zero-terminated --help --version"),
        Operands::Files),
    getopt("tr", "-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1 --help --version",
        Operands::Text),
    armed(getopt("diff", concat!("-q -s -c -C= -u -U= -e -n -y -W= -p -F= -t -T -N -x= -X=F -i -E -Z -b -w ",
        "-B -I= -a -d --normal --brief --report-identical-files --context=? --unified=? --ed --rcs ",
        "--side-by-side --width= --left-column --suppress-common-lines --show-c-function ",
        "--show-function-line= --label= --expand-tabs --initial-tab --tabsize= ",
        "--suppress-blank-empty --no-dereference --new-file --unidirectional-new-file ",
        "--ignore-file-name-case --no-ignore-file-name-case --exclude= --exclude-from=F ",
        "--from-file=F --to-file=F --ignore-case --ignore-tab-expansion --ignore-trailing-space ",
        "--ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines= ",
        "--text --strip-trailing-cr --minimal --horizon-lines= --speed-large-files --color=? ",
        "--palette= --help -v --version"), Operands::Files)),
    getopt("cmp", concat!("-b -i= -l -n= -s --print-bytes --ignore-initial= --verbose --bytes= ",
        "--quiet --silent --help -v --version"), Operands::Files),
    getopt("comm", concat!("-1 -2 -3 -z --check-order --nocheck-order --output-delimiter= --total ",
        "--zero-terminated --help --version"), Operands::Files),
    getopt("nl", concat!("-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= ",
        "--section-delimiter= --footer-numbering= --header-numbering= --line-increment= ",
        "--join-blank-lines= --number-format= --no-renumber --number-separator= ",
        "--starting-line-number= --number-width= --help --version"), Operands::Files),
    getopt("fold", "-b -s -w= --bytes --spaces --width= --help --version", Operands::Files),
    getopt("paste", "-d= -s -z --delimiters= --serial --zero-terminated --help --version",
        Operands::Files),
    getopt("rev", "-h -V --help --version", Operands::Files),
    getopt("column", concat!("-t -n= -O= -N= -l= -E= -d -e -H= -R= -T= -W= -L -J -r= -i= -p= -c= ",
        "-o= -s= -x -h -V --table --table-name= --table-order= --table-columns= ",
        "--table-columns-limit= --table-noextreme= --table-noheadings --table-header-repeat ",
        "--table-hide= --table-right= --table-truncate= --table-wrap= --keep-empty-lines --json ",
        "--tree= --tree-id= --tree-parent= --output-width= --output-separator= --separator= ",
        "--fillrows --help --version"), Operands::Files),
    getopt("basename", "-a -s= -z --multiple --suffix= --zero --help --version", Operands::Text),
    getopt("dirname", "-z --zero --help --version", Operands::Text),
    getopt("realpath", concat!("-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing ",
        "--logical --physical --quiet --relative-to=F --relative-base=F --strip --no-symlinks ",
        "--zero --help --version"), Operands::Files),
    getopt("readlink", concat!("-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing ",
        "--canonicalize-missing --no-newline --quiet --silent --verbose --zero --help --version"),
        Operands::Files),
    getopt("stat", concat!("-L -f -c= -t --dereference --file-system --cached= --format= --printf= ",
        "--terse --help --version"), Operands::Files),
    armed(getopt("file", concat!("-b -i -k -L -h -n -N -0 -r -s -e= -F= -P= --brief --mime --mime-type ",
        "--mime-encoding --apple --extension --keep-going --dereference --no-dereference ",
        "--no-buffer --no-pad --print0 --raw --special-files --exclude= --exclude-quiet= ",
        "--separator= --parameter= --help -v --version"), Operands::Files)),
    getopt("du", concat!("-0 -a -b -c -D -d= -H -h -k -l -m -P -S -s -t= -x -B= --null --all ",
        "--apparent-size --bytes --total --dereference-args --max-depth= --human-readable ",
        "--inodes --count-links --no-dereference --separate-dirs --si --summarize --threshold= ",
        "--time=? --time-style= --exclude= --one-file-system --block-size= --help --version"),
        Operands::Trees),
    armed(getopt("df", concat!("-a -B= -h -H -i -k -l -P -t= -T -x= -v --all --block-size= ",
        "--human-readable --si --inodes --local --no-sync --output=? --portability --total ",
        "--type= --print-type --exclude-type= --help --version"), Operands::Files)),
    getopt("md5sum", SUM, Operands::Files),
    getopt("sha1sum", SUM, Operands::Files),
    getopt("sha224sum", SUM, Operands::Files),
    getopt("sha256sum", SUM, Operands::Files),
    getopt("sha384sum", SUM, Operands::Files),
    getopt("sha512sum", SUM, Operands::Files),
    armed(getopt("date", concat!("-d= -f=F -I=? -R -r=F -u --date= --debug --file=F --iso-8601=? ",
        "--resolution --rfc-email --rfc-3339= --reference=F --utc --universal --help --version"),
        Operands::Format)),
    getopt("id", concat!("-a -Z -g -G -n -r -u -z --context --group --groups --name --real --user ",
        "--zero --help --version"), Operands::Text),
    getopt("whoami", GNU, Operands::Text),
    getopt("uname", concat!("-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename ",
        "--kernel-release --kernel-version --machine --processor --hardware-platform ",
        "--operating-system --help --version"), Operands::Text),
    getopt("printenv", "-0 --null --help --version", Operands::Text),
    getopt("sleep", GNU, Operands::Text),
    getopt("which", "-a", Operands::Text),
    Program { style: Style::NextWord, inert: false, ..getopt("tree", concat!("-a -d -f -x -q -N -Q -p -u -g -s -h ",
        "-D -F -v -t -c -U -r -i -A -S -n -C -X -J -L= -P= -I= --noreport --dirsfirst --filesfirst ",
        "--prune --matchdirs --ignore-case --metafirst --si --du --inodes --device --sort= --help ",
        "--version"), Operands::Trees) },
    armed(getopt("rg", concat!("-A= -B= -C= -b -s -c -E= -f=F -F -g= -h -. -i -v -n -x -M= -m= -U -I -N ",
        "-0 -o -P -p -q -e= -S -a -j= -t= -T= -u -V -H -w -l -r= --after-context= ",
        "--before-context= --binary --block-buffered --byte-offset --case-sensitive --color= ",
        "--colors= --column --context= --context-separator= --count --count-matches --crlf ",
        "--debug --encoding= --engine= --file=F --files --files-with-matches ",
        "--files-without-match --fixed-strings --glob= --glob-case-insensitive --heading --hidden ",
        "--iglob= --ignore-case --include-zero --invert-match --json --line-buffered ",
        "--line-number --line-regexp --max-columns= --max-count= --max-depth= --max-filesize= ",
        "--multiline --multiline-dotall --no-config --no-filename --no-heading --no-ignore ",
        "--no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global ",
        "--no-ignore-messages --no-ignore-parent --no-ignore-vcs --no-line-number --no-messages ",
        "--null --null-data --only-matching --passthru --pcre2 --pretty --quiet --regexp= ",
        "--replace= --smart-case --sort= --sortr= --stats --text --threads= --trim --type= ",
        "--type-not= --type-list --unrestricted --version --vimgrep --with-filename ",
        "--word-regexp --help"), Operands::Rg)),
    Program { style: Style::Jq, ..getopt("jq", concat!("-c -n -e -s -r -j -a -R -C -M -S -h -V -f ",
        "--tab --indent= --arg== --argjson== --slurpfile==F --rawfile==F --args --jsonargs ",
        "--from-file --seq --stream --compact-output --null-input --exit-status --slurp ",
        "--raw-output --join-output --ascii-output --raw-input --color-output ",
        "--monochrome-output --sort-keys --unbuffered --help --version"), Operands::Jq) },
];

const GREP: &str = concat!(
    "-E -F -G -P -e= -f=F -i -y -w -x -z -s -v -V -m= -b -n -H -h -o -q -a -I -r! -L -l -c -T ",
    "-Z -B= -A= -C= -U --extended-regexp --fixed-strings --basic-regexp --perl-regexp --regexp= ",
    "--file=F --ignore-case --no-ignore-case --word-regexp --line-regexp --null-data ",
    "--no-messages --invert-match --version --help --max-count= --byte-offset --line-number ",
    "--line-buffered --with-filename --no-filename --label= --only-matching --quiet --silent ",
    "--binary-files= --text --recursive! --include= --exclude= --exclude-from=F --exclude-dir= ",
    "--files-without-match --files-with-matches --count --initial-tab --null --before-context= ",
    "--after-context= --context= --group-separator= --no-group-separator --color=? --colour=? ",
    "--binary"
);

/// Bash builtins the list holds besides `cd`, `test`, `[` and `[[`: never looked up in
/// `PATH`.
pub const BUILTINS: &[&str] = &[":", "echo", "false", "printf", "pwd", "true", "type"];

/// The program of this name on the list.
pub(super) fn program(name: &str) -> Option<&'static Program> {
    PROGRAMS.iter().find(|p| p.name == name)
}

/// What `program ARGS` reads, when it only reads.
pub(super) fn reads(program: &Program, args: &[Word]) -> Result<Vec<Operand>, Reject> {
    let parsed = parse(
        args,
        program.options,
        program.style,
        program.digits,
        program.inert,
    )?;
    let tree = parsed.recursive();
    let mut out: Vec<Operand> = parsed
        .file_values()
        .filter(|v| v.text != "-")
        .map(|v| Operand::value(v.text, v.word))
        .collect();
    let files = |words: &[&Word], tree: bool, out: &mut Vec<Operand>| {
        out.extend(
            words
                .iter()
                .filter(|w| w.text != "-" || !super::reads::literal(w))
                .map(|w| Operand::path(w, tree)),
        );
    };
    let operands = parsed.operands.as_slice();
    // A word that may become options of a program whose options read files may make it read
    // what the line does not name (`wc --files0-from=…`).
    if program.operands != Operands::Text {
        let before = parsed.ended_at.unwrap_or(operands.len());
        let options = operands.get(..before).unwrap_or_default().iter();
        out.extend(
            options
                .filter(|w| may_become_options(w))
                .map(|w| Operand::Unknown(w.text.clone())),
        );
    }
    match program.operands {
        Operands::Files => files(operands, tree, &mut out),
        Operands::OneFile => {
            if operands.len() > 1 || operands.iter().any(|w| w.expansion.is_some()) {
                return Err("a second operand (an output file)");
            }
            files(operands, false, &mut out);
        }
        Operands::Trees | Operands::Listing => {
            let tree = tree || program.operands == Operands::Trees;
            files(operands, tree, &mut out);
            if operands.is_empty() {
                out.push(Operand::Path {
                    text: ".".into(),
                    literal: true,
                    tree,
                });
            }
        }
        Operands::Grep => {
            let given = ["-e", "--regexp", "-f", "--file"];
            let given = given.iter().any(|o| parsed.has(o));
            let rest = operands.get(usize::from(!given)..).unwrap_or_default();
            files(rest, tree, &mut out);
            if tree && rest.is_empty() {
                out.push(Operand::here());
            }
        }
        Operands::Rg => {
            let given = ["-e", "--regexp", "-f", "--file", "--files", "--type-list"];
            let given = given.iter().any(|o| parsed.has(o));
            let rest = operands.get(usize::from(!given)..).unwrap_or_default();
            files(rest, true, &mut out);
            if rest.is_empty() {
                out.push(Operand::here());
            }
        }
        Operands::Jq => jq(&parsed, &mut out),
        Operands::Text => {}
        Operands::Format => {
            if let Some(w) = operands.iter().find(|w| !w.text.starts_with('+')) {
                return Err(if may_become_options(w) {
                    "an expansion where a format is read"
                } else {
                    "an operand that sets the clock"
                });
            }
        }
    }
    Ok(out)
}

/// jq's filter and files: the filter is text, or with `-f` the first file; a filter that
/// imports modules reads files the checker cannot name.
fn jq(parsed: &Parsed<'_>, out: &mut Vec<Operand>) {
    let from_file = parsed.has("-f") || parsed.has("--from-file");
    let mut operands = parsed.operands.iter();
    if !from_file
        && let Some(filter) = operands.next()
        && ["import", "include"]
            .iter()
            .any(|k| filter.text.contains(k))
    {
        out.push(Operand::Unknown(filter.text.clone()));
    }
    out.extend(
        operands
            .filter(|w| w.text != "-")
            .map(|w| Operand::path(w, false)),
    );
}
