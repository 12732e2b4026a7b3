//! What a line's earlier commands change for its later ones, and what a command's
//! redirections do.
//!
//! A read-only command runs a program by its bare name, found in the `PATH` the Bash tool
//! gives it; bash looks the name up when the command runs, so anything earlier in the line
//! that may change what the name finds, or what the program then does, makes every later
//! command not read-only ("taints" the line):
//!
//! - an assignment, in any form, to a variable whose name holds an upper-case letter: `PATH`,
//!   `HOME`, `CDPATH`, `TMPDIR`, `POSIXLY_CORRECT`, the `GIT_*` variables of the environment
//!   read-only commands run with, and every other variable a program may read once exported
//!   (a leading `NAME=value`, a statement of assignments only, `export`, `declare`,
//!   `typeset`, `local`, `readonly`, `read`, `printf -v`, `getopts`, `unset`,
//!   `${NAME:=value}`);
//! - a function definition (`ls() { …; }`);
//! - `set`, `shopt`, `exec`, `enable`, `hash`, `alias`, `source`, `.`, `pushd`, `popd`.
//!
//! Lower-case variables are the line's own: a later word that expands one is not literal, so
//! a path it names is [`Read::Unknown`](super::Read::Unknown) and an option it may become is
//! refused.

use super::lex::Word;
use super::options::Reject;
use super::reads::{Dirs, Operand, literal};

/// Builtins after which the checker no longer knows what a name runs.
const CHANGES_LOOKUP: &[&str] = &[
    "set", "shopt", "exec", "enable", "hash", "alias", "source", ".", "pushd", "popd",
];

/// Builtins whose operands are variable names (or `NAME=value`).
const DECLARES: &[&str] = &["declare", "export", "local", "readonly", "typeset", "unset"];

/// The state of a line as its commands are met in order.
#[derive(Debug, Default)]
pub(super) struct Line {
    /// Where relative paths resolve.
    pub(super) dirs: Dirs,
    /// Why later commands are not read-only, once something may have changed what they run.
    pub(super) tainted: Option<Reject>,
}

impl Line {
    /// Notes that later commands are not read-only.
    pub(super) fn taint(&mut self, why: Reject) {
        self.tainted.get_or_insert(why);
    }

    /// After a command with these leading assignments, words (after its wrappers), stage
    /// heads (the command and its wrappers) and redirection targets; `names` are the
    /// variables its builtin assigns (`read NAME`, `printf -v NAME`).
    pub(super) fn after(
        &mut self,
        assigns: &[Word],
        core: &[Word],
        heads: &[&str],
        names: &[&Word],
    ) {
        let assigned = assigns
            .iter()
            .map(|w| w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n))
            .map(|n| n.strip_suffix('+').unwrap_or(n));
        let names = names.iter().map(|w| w.text.as_str());
        if assigned.chain(names).any(changes_later_commands) || expansions_assign(core) {
            self.taint("an earlier assignment to a variable of the environment");
        }
        if let Some(head) = heads.iter().find(|h| CHANGES_LOOKUP.contains(h)) {
            self.taint(if *head == "exec" {
                "an earlier exec"
            } else {
                "an earlier builtin that changes what names run"
            });
        }
        match core.split_first() {
            Some((first, args)) if first.text == "cd" => {
                let target = super::builtins::cd(args).ok().flatten();
                self.dirs.cd(target.map(|w| w.text.as_str()));
            }
            Some((first, _)) if ["pushd", "popd"].contains(&first.text.as_str()) => {
                self.dirs.cd(None);
            }
            _ => {}
        }
        if let Some((first, args)) = core.split_first()
            && DECLARES.contains(&first.text.as_str())
            && args
                .iter()
                .filter(|w| !w.text.starts_with(['-', '+']))
                .map(|w| w.text.split_once('=').map_or(w.text.as_str(), |(n, _)| n))
                .any(changes_later_commands)
        {
            self.taint("an earlier declaration of a variable of the environment");
        }
    }
}

/// Whether assigning `name` may change what later commands run or read.
pub(super) fn changes_later_commands(name: &str) -> bool {
    name.bytes().any(|b| b.is_ascii_uppercase())
}

/// Whether one of `words` assigns a variable that matters (`${PATH:=…}`).
pub(super) fn expansions_assign(words: &[Word]) -> bool {
    words
        .iter()
        .flat_map(|w| &w.assigns)
        .any(|name| changes_later_commands(name))
}

/// A redirection: its operator and target.
#[derive(Debug)]
pub(super) struct Redir {
    /// `<`, `>`, `>>`, `<>`, `>|`, `&>`, `&>>`, `<<<`, `<&`, `>&`.
    pub(super) op: &'static str,
    /// The word after it.
    pub(super) target: Word,
}

/// What one command's redirections do.
#[derive(Debug)]
pub(super) struct Redirections {
    /// One sends output to a file (not a descriptor, not `/dev/null`).
    pub(super) writes_files: bool,
    /// Why they are not those of a read-only command, if they are not.
    pub(super) refused: Option<Reject>,
    /// The files its input redirections read.
    pub(super) inputs: Vec<Operand>,
}

/// Reads the redirections of a command: a read-only one may only send output to
/// `/dev/null`, duplicate or close a descriptor, read a literal path (`< file`) or a
/// here-string; never open a file for reading and writing (`<>`), never name bash's
/// `/dev/tcp` or `/dev/udp` sockets.
pub(super) fn redirections(redirs: &[Redir]) -> Redirections {
    let mut out = Redirections {
        writes_files: false,
        refused: None,
        inputs: Vec::new(),
    };
    for Redir { op, target } in redirs {
        let t = target.text.as_str();
        let descriptor = op.ends_with('&')
            && (t == "-" || (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())));
        let dup = descriptor && target.expansion.is_none();
        out.writes_files |= op.contains('>') && !descriptor && t != "/dev/null";
        let refused = if t.contains("/dev/tcp") || t.contains("/dev/udp") {
            Some("a redirection to a socket")
        } else {
            match *op {
                "<<<" | "<&" | ">&" if dup || *op == "<<<" => None,
                "<" if literal(target) => {
                    out.inputs.push(Operand::path(target, false));
                    None
                }
                "<" => Some("an input redirection from a path not written out"),
                "<>" => Some("a redirection that opens a file for writing"),
                _ if t == "/dev/null" && literal(target) => None,
                _ => Some("a redirection to a file"),
            }
        };
        if let Some(why) = refused {
            out.refused.get_or_insert(why);
        }
    }
    out
}
