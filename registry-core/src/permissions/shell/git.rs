//! Which `git` command lines only read, given the environment the Bash tool runs them with
//! ([`READ_ONLY_ENV`] and [`GIT_CONFIG`], together [`read_only_env`]).
//!
//! A repository's own configuration is the attacker's to write (a `.git/config` left by an
//! earlier edit, a bare repository inside the checkout): git runs the programs it names as an
//! fsmonitor hook, a pager, an external diff, a textconv or clean filter, a signature check.
//! The environment overrides the keys that can be named (`core.fsmonitor`, `core.pager`,
//! `log.showSignature`, the transports, `safe.bareRepository=explicit`, …), and it reads no
//! system or global configuration. Drivers chosen per path by attributes cannot all be named:
//!
//! - textconv and external diff drivers: `log` with a diff, `show` and `diff` must say
//!   `--no-textconv --no-ext-diff`;
//! - clean filters run whenever git hashes a work-tree file (`status`, `diff` against the
//!   work tree, `blame` of the work tree, `describe --dirty`, `ls-files -m`): those are not
//!   read-only. `diff` is read-only against the index (`--cached`) or between revisions named
//!   before `--` (`git diff A B --`, `git diff A..B --`), never against the work tree.
//!
//! Formats that check signatures (`%G…`, `%(…)`) and named formats other than git's own
//! (which the repository may define) are not read-only. Options are read one to a word
//! (git reads clusters differently per subcommand), long ones spelled exactly.

use super::lex::Word;
use super::options::{Parsed, Reject, Style, parse};
use super::reads::Operand;

/// The `PATH` the Bash tool runs read-only commands with: system directories only, so a
/// bare name runs the system's program whatever the working directory holds.
pub const SYSTEM_PATH: &str = "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";

/// The environment of a read-only command, besides [`GIT_CONFIG`] (see [`read_only_env`]):
/// the Bash tool clears the environment and sets these (it may add `HOME`, `LANG`, `TERM`
/// and `TZ` from its own; nothing else — `CDPATH`, `BASH_ENV`, `POSIXLY_CORRECT`,
/// `GIT_DIR`, `GIT_EXTERNAL_DIFF`, `RIPGREP_CONFIG_PATH`, exported functions and the like
/// change what the list's programs do).
pub const READ_ONLY_ENV: &[(&str, &str)] = &[
    ("PATH", SYSTEM_PATH),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_CONFIG_GLOBAL", "/dev/null"),
    ("GIT_OPTIONAL_LOCKS", "0"),
    ("GIT_PAGER", "cat"),
    ("PAGER", "cat"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_NO_LAZY_FETCH", "1"),
    ("GIT_PROTOCOL_FROM_USER", "0"),
];

/// Configuration git reads before any repository's (`GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_n`,
/// `GIT_CONFIG_VALUE_n`, which take precedence over every file and reach submodules).
pub const GIT_CONFIG: &[(&str, &str)] = &[
    ("safe.bareRepository", "explicit"),
    ("core.fsmonitor", "false"),
    ("core.untrackedCache", "false"),
    ("core.hooksPath", "/dev/null"),
    ("core.pager", "cat"),
    ("core.attributesFile", "/dev/null"),
    ("core.excludesFile", "/dev/null"),
    ("log.showSignature", "false"),
    ("log.mailmap", "false"),
    ("mailmap.file", "/dev/null"),
    ("format.pretty", "medium"),
    ("diff.orderFile", "/dev/null"),
    ("diff.submodule", "short"),
    ("submodule.recurse", "false"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    ("protocol.allow", "never"),
    ("protocol.ext.allow", "never"),
    ("protocol.file.allow", "never"),
    ("protocol.git.allow", "never"),
    ("protocol.ssh.allow", "never"),
    ("protocol.http.allow", "never"),
    ("protocol.https.allow", "never"),
    ("protocol.ftp.allow", "never"),
    ("protocol.ftps.allow", "never"),
    ("pager.log", "false"),
    ("pager.show", "false"),
    ("pager.diff", "false"),
    ("pager.grep", "false"),
    ("pager.branch", "false"),
    ("pager.tag", "false"),
];

/// The whole environment of a read-only command: [`READ_ONLY_ENV`], then [`GIT_CONFIG`] as
/// `GIT_CONFIG_COUNT`, `GIT_CONFIG_KEY_n`, `GIT_CONFIG_VALUE_n`.
///
/// ```
/// let env = toolreg::permissions::shell::read_only_env();
/// assert!(env.iter().any(|(k, v)| k == "GIT_CONFIG_KEY_1" && v == "core.fsmonitor"));
/// ```
pub fn read_only_env() -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = READ_ONLY_ENV
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    env.push(("GIT_CONFIG_COUNT".into(), GIT_CONFIG.len().to_string()));
    for (i, (key, value)) in GIT_CONFIG.iter().enumerate() {
        env.push((format!("GIT_CONFIG_KEY_{i}"), (*key).to_owned()));
        env.push((format!("GIT_CONFIG_VALUE_{i}"), (*value).to_owned()));
    }
    env
}

/// Options of `log`, `show` and `rev-list` that choose revisions.
macro_rules! revisions {
    () => {
        concat!(
            "-n= --max-count= --skip= --since= --after= --until= --before= --author= ",
            "--committer= --grep= -i --regexp-ignore-case --all --branches --tags --remotes ",
            "--reverse --first-parent --merges --no-merges --date-order --topo-order ",
            "--author-date-order --full-history --simplify-by-decoration --left-right ",
            "--cherry-pick --boundary ",
        )
    };
}

/// Options of `log`, `show` and `diff` that shape a diff.
macro_rules! diffs {
    () => {
        concat!(
            "--no-textconv --no-ext-diff -p -u --patch --no-patch -s --stat --shortstat ",
            "--numstat --summary --name-only --name-status --raw -U= --unified= -w ",
            "--ignore-all-space -b --ignore-space-change --ignore-blank-lines --no-renames -M=? ",
            "-R --minimal --patience --histogram --word-diff=? --diff-filter= --abbrev=? ",
            "--no-color --color=? ",
        )
    };
}

const LOG: &str = concat!(
    "--oneline --graph --decorate=? --no-decorate --abbrev-commit --no-abbrev-commit --source ",
    "--follow --full-diff -S= -G= --format= --pretty=? --date= ",
    revisions!(),
    diffs!(),
);

const DIFF: &str = concat!("--cached --staged --exit-code --quiet ", diffs!());

/// Options that make git read blob contents, which a textconv or external driver may
/// convert.
const CONTENT: &[&str] = &[
    "-p",
    "-u",
    "--patch",
    "--stat",
    "--shortstat",
    "--numstat",
    "--summary",
    "--word-diff",
    "-S",
    "-G",
    "-U",
    "--unified",
    "--full-diff",
    "--follow",
];

/// git's own formats (a name other than these may be the repository's `pretty.<name>`).
const FORMATS: &[&str] = &[
    "oneline",
    "short",
    "medium",
    "full",
    "fuller",
    "reference",
    "email",
    "mboxrd",
    "raw",
];

/// The subcommands that may be read-only, with the options each may take (one to a word);
/// `log`, `show`, `diff`, `branch`, `tag` and `remote` have further conditions.
#[rustfmt::skip]
pub(super) const SUBCOMMANDS: &[(&str, &str)] = &[
    ("log", LOG),
    ("show", LOG),
    ("diff", DIFF),
    ("rev-parse", concat!(
        "--abbrev-ref=? --short=? --verify -q --quiet --show-toplevel --show-prefix --show-cdup ",
        "--git-dir --absolute-git-dir --git-common-dir --is-inside-work-tree --is-inside-git-dir ",
        "--is-bare-repository --is-shallow-repository --symbolic --symbolic-full-name --all ",
        "--branches --tags --remotes")),
    ("ls-files", concat!(
        "-c --cached -o --others -i --ignored --exclude-standard -s --stage -z --full-name ",
        "--error-unmatch --directory --no-empty-directory --deduplicate --exclude= -x= --abbrev=?")),
    ("branch", BRANCH),
    ("tag", BRANCH),
    ("describe", concat!(
        "--tags --all --always --long --abbrev= --exact-match --candidates= --match= --exclude= ",
        "--first-parent --contains")),
    ("ls-tree", concat!(
        "-r -t -d -l --long -z --name-only --name-status --object-only --full-name --full-tree ",
        "--abbrev=?")),
    ("cat-file", "-t -s -p -e"),
    ("rev-list", concat!("--count --objects --parents --children --abbrev-commit ", revisions!())),
    ("show-ref", "--heads --tags --branches --verify -s --hash=? --abbrev=? -q --quiet --head -d"),
    ("merge-base", "--is-ancestor --all --octopus --independent"),
    ("grep", concat!(
        "-n --line-number -i --ignore-case -w --word-regexp -v --invert-match -l ",
        "--files-with-matches -L --files-without-match -c --count -e= -E --extended-regexp -F ",
        "--fixed-strings -G --basic-regexp -P --perl-regexp --cached --untracked -h -H ",
        "--full-name --and --or --not -A= -B= -C= --max-depth= -o --only-matching -q --quiet -z ",
        "--null --heading --break -I --column --threads=")),
    ("remote", "-v --verbose"),
];

const BRANCH: &str = concat!(
    "-a --all -r --remotes -v --verbose -l --list --show-current --contains= --no-contains= ",
    "--merged= --no-merged= --points-at= --sort= --no-color -i --ignore-case",
);

/// Keys `branch --sort` and `tag --sort` may take (`signature` checks signatures with the
/// repository's `gpg.program`).
const SORT_KEYS: &[&str] = &[
    "refname",
    "objectname",
    "objecttype",
    "objectsize",
    "committerdate",
    "creatordate",
    "authordate",
    "taggerdate",
    "version:refname",
    "v:refname",
    "HEAD",
    "upstream",
];

/// Options of `branch` that `tag` reads otherwise (`tag -a` annotates a new tag, `tag -v`
/// checks its signature).
const BRANCH_ONLY: &[&str] = &[
    "-a",
    "-r",
    "--all",
    "--remotes",
    "-v",
    "--verbose",
    "--show-current",
];

/// What a `git ARGS` line reads, when it only reads.
pub(super) fn read_only(args: &[Word]) -> Result<Vec<Operand>, Reject> {
    let mut args = args;
    while let Some((_, rest)) = args.split_first().filter(|(w, _)| w.text == "--no-pager") {
        args = rest;
    }
    let Some((sub, args)) = args.split_first() else {
        return Ok(Vec::new());
    };
    if sub.expansion.is_some() {
        return Err("an expansion as git's subcommand");
    }
    let name = sub.text.as_str();
    if (name == "--version" || name == "version") && args.is_empty() {
        return Ok(Vec::new());
    }
    let (_, list) = SUBCOMMANDS
        .iter()
        .find(|(s, _)| *s == name)
        .ok_or("a git subcommand not on the list")?;
    let digits = ["log", "show", "rev-list"].contains(&name);
    let p = parse(args, list, Style::Single, digits, false)?;
    match name {
        "log" | "show" => {
            if name == "show" || CONTENT.iter().any(|o| p.has(o)) {
                drivers_off(&p)?;
            }
            formats(&p)?;
        }
        "diff" => {
            drivers_off(&p)?;
            let before = p
                .ended_at
                .map(|at| p.operands.get(..at).unwrap_or_default());
            let trees = match before {
                Some([one]) => one.text.contains(".."),
                Some(revs) => revs.len() >= 2,
                None => false,
            };
            if !(p.has("--cached") || p.has("--staged") || trees) {
                return Err("git diff against the work tree (clean filters)");
            }
        }
        "branch" | "tag" => {
            if name == "tag" && BRANCH_ONLY.iter().any(|o| p.has(o)) {
                return Err("a git tag option that is not a listing");
            }
            let sorts = p.options.iter().filter(|g| g.def.name == "--sort");
            let keys = sorts.flat_map(|g| g.values.iter().map(|v| v.text.trim_start_matches('-')));
            if keys.clone().any(|key| !SORT_KEYS.contains(&key)) {
                return Err("a git sort key that may check signatures");
            }
            if !(p.has("-l") || p.has("--list") || p.operands.is_empty()) {
                return Err("a name to create");
            }
        }
        "remote" if !p.operands.is_empty() => return Err("a git remote subcommand"),
        _ => {}
    }
    if p.operands.iter().any(|w| w.expansion.is_some()) {
        return Err("an expansion among git's operands");
    }
    Ok(vec![Operand::Repository])
}

/// `--no-textconv` and `--no-ext-diff` are both given.
fn drivers_off(p: &Parsed<'_>) -> Result<(), Reject> {
    if p.has("--no-textconv") && p.has("--no-ext-diff") {
        Ok(())
    } else {
        Err("a git diff without --no-textconv --no-ext-diff")
    }
}

/// Each `--format`/`--pretty` is one of git's own formats or a format string that checks no
/// signature.
fn formats(p: &Parsed<'_>) -> Result<(), Reject> {
    let values = p
        .options
        .iter()
        .filter(|g| g.def.name == "--format" || g.def.name == "--pretty")
        .flat_map(|g| g.values.iter());
    for v in values {
        let text = v.text;
        let string = text
            .strip_prefix("format:")
            .or_else(|| text.strip_prefix("tformat:"))
            .or_else(|| text.contains('%').then_some(text));
        let ok = match string {
            Some(s) => !s.contains("%G") && !s.contains("%("),
            None => FORMATS.contains(&text),
        };
        if !ok {
            return Err("a git format that may check signatures or is the repository's");
        }
    }
    Ok(())
}
