//! The read-only list against bash: every line the checker calls read-only, run under real
//! bash, must neither write a file, nor start a program other than the ones it names, nor
//! open a socket.
//!
//! Lines ([`lines::systematic`], [`lines::random`], and the hand-written attacks of
//! `tests/data/read-only-attacks.txt`) are classified with
//! [`toolreg::permissions::shell::split`]: read-only when every simple command is. Each runs as
//! `bash -c LINE` in a bubblewrap [`Sandbox`] under `strace -f`, in a read-only tree
//! (`tree.rs`) with stand-in programs and a hostile git repository, with the environment the
//! Bash tool gives read-only commands. A [`Violation`] of a read-only line is a [`Failure`]:
//!
//! - a write: any `open` for writing (but of `/dev/null` and `/dev/tty`), `creat`, `unlink`,
//!   `rename`, `mkdir`, `rmdir`, `link`, `symlink`, `truncate`, `chmod`, `chown`, `utime`,
//!   `mknod`, an extended attribute set or removed — attempts count, though the tree is
//!   read-only;
//! - a program started (a successful `execve`) other than the line's own bash and the
//!   programs its commands name by bare name, found in a directory of
//!   [`SYSTEM_PATH`] (git's own helpers, under
//!   `git-core`, count as git);
//! - a socket other than a Unix one (and a `connect` to a Unix socket other than nscd's,
//!   which the C library asks for user names).
//!
//! Besides, every file a read-only line's programs open for reading must be one its
//! [`Read`]s cover ([`unreported_reads`]), on the lines whose reads can be judged from the
//! trace (no unknown read, no `cd`; opens relative to a directory descriptor, as walkers make
//! them, are inside the trees they walk and not judged).
//!
//! What a pass shows: for the lines run, the list is exact about writes, programs and
//! sockets, and a read-only command's reads name what it opens. Not shown: inputs larger than
//! the tree's files (`sort` spills to `$TMPDIR` past its buffer); what a program lists of a
//! directory (only opens are traced).
//!
//! [`Read`]: toolreg::permissions::shell::Read

use std::collections::BTreeMap;

use toolreg::permissions::shell::{self, Read, SYSTEM_PATH};

mod lines;
mod sandbox;
mod spell;
pub mod trace;
mod tree;

pub use lines::{random, systematic};
pub use sandbox::{Sandbox, TIMEOUT_SECS, installed_gits};
pub use trace::{Event, Trace};

/// Lines run in one sandbox by [`differential`].
pub const BATCH: usize = 400;

/// A line and what it exercises.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The line, as given to `bash -c`.
    pub text: String,
    /// What it exercises (the classes of the figures).
    pub labels: Vec<&'static str>,
}

/// What the checker says of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Every simple command of it is read-only: the Bash tool runs it unasked.
    pub read_only: bool,
    /// The programs its commands name by bare name.
    pub programs: Vec<String>,
    /// What its commands report they read.
    pub reads: Vec<Read>,
    /// It changes directory (`cd`, `pushd`, `popd`): paths its programs open are relative to
    /// a directory the trace does not tell.
    pub moves: bool,
}

/// The checker's verdict on `line`.
pub fn classify(line: &str) -> Verdict {
    match shell::split(line) {
        Ok(commands) => Verdict {
            read_only: !commands.is_empty() && commands.iter().all(|c| c.read_only),
            programs: commands
                .iter()
                .filter_map(|c| c.text.split(' ').next())
                .filter(|name| !name.contains('/'))
                .map(str::to_owned)
                .collect(),
            reads: commands.iter().flat_map(|c| c.reads.clone()).collect(),
            moves: commands.iter().any(|c| {
                let name = c.text.split(' ').next().unwrap_or_default();
                ["cd", "pushd", "popd"].contains(&name)
            }),
        },
        Err(_) => Verdict {
            read_only: false,
            programs: Vec::new(),
            reads: Vec::new(),
            moves: false,
        },
    }
}

/// Something a line did that a read-only line must not.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Violation {
    /// A call that writes or changes a file, and the path.
    Wrote(String, String),
    /// A program started that the line does not name.
    Ran(String),
    /// A socket.
    Socket(String),
    /// A file opened for reading that the line's reads do not cover.
    Unreported(String),
}

/// What of `trace` a line that names `programs` must not have done.
pub fn violations(trace: &Trace, programs: &[String]) -> Vec<Violation> {
    let dirs: Vec<&str> = SYSTEM_PATH.split(':').collect();
    let mut out = Vec::new();
    let mut shell_seen = false;
    for event in &trace.events {
        match event {
            Event::Exec { ok: false, .. } => {}
            Event::Exec { path, ok: true } => {
                let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
                if !shell_seen && name == "bash" {
                    shell_seen = true;
                    continue;
                }
                // `egrep` and `fgrep` are scripts that run `grep -E` and `grep -F`.
                let runs =
                    |p: &String| p == name || (name == "grep" && (p == "egrep" || p == "fgrep"));
                let named = programs.iter().any(runs) && dirs.contains(&dir);
                let helper = programs.iter().any(|p| p == "git") && dir.ends_with("/git-core");
                if !named && !helper {
                    out.push(Violation::Ran(path.clone()));
                }
            }
            Event::Write { call, path } => out.push(Violation::Wrote(call.clone(), path.clone())),
            Event::Socket { call } => out.push(Violation::Socket(call.clone())),
            Event::Read { .. } => {}
        }
    }
    out
}

/// Directories whose files any program reads to run (libraries, locales, the user database,
/// `/proc`), never a line's data.
const SYSTEM: &[&str] = &[
    "/etc/",
    "/usr/",
    "/lib/",
    "/lib64/",
    "/proc/",
    "/dev/",
    "/sys/",
    "/run/",
    "/var/lib/",
];

/// The files a read-only line's programs opened for reading that its reads do not cover
/// (`tree` is where the line ran): not under a reported path (or a reported tree, or the
/// repository, the whole of `tree` here), not a system file (under `/etc`, `/usr`, `/proc`,
/// …), not one of the files programs read that no line names (the user's `HOME`, ignore files
/// `rg` reads up to the root), not the working directory itself nor the root directory (`find`
/// opens both, to come back to them; what a program lists is not traced, only what it opens).
/// A line with an unknown read, or one that changes directory, is not judged.
pub fn unreported_reads(trace: &Trace, verdict: &Verdict, tree: &str) -> Vec<String> {
    let unknown = verdict
        .reads
        .iter()
        .any(|r| matches!(r, Read::Unknown { .. }));
    if unknown || verdict.moves || !verdict.read_only {
        return Vec::new();
    }
    let repository = verdict
        .reads
        .iter()
        .any(|r| matches!(r, Read::Repository { .. }));
    let home = format!("{tree}/home/");
    let mut out = Vec::new();
    for event in &trace.events {
        let Event::Read { path } = event else {
            continue;
        };
        if path == "/" {
            continue;
        }
        let relative = match path.strip_prefix(tree) {
            Some("") => ".".to_owned(),
            Some(rest) if rest.starts_with('/') => normal(rest.trim_start_matches('/')),
            _ if path.starts_with('/') => {
                let ignore = [".gitignore", ".ignore", ".rgignore"]
                    .iter()
                    .any(|name| path.ends_with(&format!("/{name}")));
                if !(SYSTEM.iter().any(|d| path.starts_with(d))
                    || path.starts_with(&home)
                    || ignore)
                {
                    let named = verdict
                        .reads
                        .iter()
                        .any(|r| matches!(r, Read::Path { path: p, .. } if p == path));
                    if !named {
                        out.push(path.clone());
                    }
                }
                continue;
            }
            _ => normal(path),
        };
        if repository || relative == "." {
            continue;
        }
        let covered = verdict.reads.iter().any(|r| match r {
            Read::Path { path: p, tree } => {
                let p = normal(p);
                p == relative || (*tree && (p == "." || relative.starts_with(&format!("{p}/"))))
            }
            _ => false,
        });
        if !covered {
            out.push(path.clone());
        }
    }
    out
}

/// `path` without `./` components and trailing slashes (`.` for the directory itself).
fn normal(path: &str) -> String {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.is_empty() {
        ".".to_owned()
    } else {
        parts.join("/")
    }
}

/// A read-only line that did what it must not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The line.
    pub line: String,
    /// What it exercises.
    pub labels: Vec<&'static str>,
    /// What it did (never empty).
    pub violations: Vec<Violation>,
}

/// Per class: lines, of those read-only, lines that did something a read-only line must not
/// (read-only or not), and failures.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// Lines of the class.
    pub lines: usize,
    /// Of those, read-only.
    pub read_only: usize,
    /// Of those, lines that wrote, ran another program or opened a socket.
    pub misbehaved: usize,
    /// Read-only lines that did.
    pub failed: usize,
}

/// Figures of a run, and its failures.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Lines run.
    pub lines: usize,
    /// Of those, read-only.
    pub read_only: usize,
    /// Lines that wrote, ran another program or opened a socket (read-only or not).
    pub misbehaved: usize,
    /// Lines killed at the timeout.
    pub timed_out: usize,
    /// Per class.
    pub classes: BTreeMap<&'static str, ClassCounts>,
    /// Read-only lines that misbehaved.
    pub failures: Vec<Failure>,
    /// Read-only lines whose reads the test judged (no unknown read, no `cd`).
    pub reads_judged: usize,
    /// Read-only lines that opened a file their reads do not cover.
    pub read_failures: Vec<Failure>,
    /// The slowest lines: microseconds and line, slowest first (at most [`SLOWEST`]).
    pub slowest: Vec<(u64, String)>,
}

/// Slow lines a [`Tally`] keeps.
pub const SLOWEST: usize = 10;

impl Tally {
    /// Adds one line's trace; the line ran in `tree`.
    pub fn add(&mut self, line: &Line, trace: &Trace, tree: &str) {
        let verdict = classify(&line.text);
        let found = violations(trace, &verdict.programs);
        let unreported = unreported_reads(trace, &verdict, tree);
        let judged = verdict.read_only
            && !verdict.moves
            && !verdict
                .reads
                .iter()
                .any(|r| matches!(r, Read::Unknown { .. }));
        self.reads_judged += usize::from(judged);
        if !unreported.is_empty() {
            self.read_failures.push(Failure {
                line: line.text.clone(),
                labels: line.labels.clone(),
                violations: unreported.into_iter().map(Violation::Unreported).collect(),
            });
        }
        let failed = verdict.read_only && !found.is_empty();
        self.lines += 1;
        self.read_only += usize::from(verdict.read_only);
        self.misbehaved += usize::from(!found.is_empty());
        self.timed_out += usize::from(trace.status == 137);
        if self.slowest.len() < SLOWEST
            || self.slowest.last().is_some_and(|(m, _)| *m < trace.micros)
        {
            self.slowest.push((trace.micros, line.text.clone()));
            self.slowest.sort_by_key(|s| std::cmp::Reverse(s.0));
            self.slowest.truncate(SLOWEST);
        }
        for label in &line.labels {
            let counts = self.classes.entry(label).or_default();
            counts.lines += 1;
            counts.read_only += usize::from(verdict.read_only);
            counts.misbehaved += usize::from(!found.is_empty());
            counts.failed += usize::from(failed);
        }
        if failed {
            self.failures.push(Failure {
                line: line.text.clone(),
                labels: line.labels.clone(),
                violations: found,
            });
        }
    }
}

/// Runs `lines` in batches of [`BATCH`], adding each trace to `tally`.
pub fn differential(
    sandbox: &mut Sandbox,
    lines: &[Line],
    tally: &mut Tally,
) -> Result<(), super::shell::SandboxError> {
    for batch in lines.chunks(BATCH) {
        let texts: Vec<String> = batch.iter().map(|l| l.text.clone()).collect();
        let traces = sandbox.run(&texts)?;
        let tree = sandbox.tree().display().to_string();
        for (line, trace) in batch.iter().zip(&traces) {
            tally.add(line, trace, &tree);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(events: Vec<Event>) -> Trace {
        Trace {
            status: 0,
            events,
            micros: 0,
        }
    }

    fn read(path: &str) -> Event {
        Event::Read { path: path.into() }
    }

    #[test]
    fn a_read_only_line_may_open_what_it_reports_and_the_system_s_files_only() {
        let tree = "/s/tree";
        let lines = [
            (
                "cat f",
                vec![read("f"), read("/etc/ld.so.cache"), read("/s/tree/f")],
                0,
            ),
            (
                "cat f",
                vec![read("g"), read("/s/tree/g"), read("/home/u/.ssh/id")],
                3,
            ),
            (
                "grep -r x d",
                vec![read("d/h"), read("./d/sub/i"), read("dd")],
                1,
            ),
            (
                "git log",
                vec![read("/s/tree/.git/HEAD"), read(".git/config")],
                0,
            ),
            ("cat $f", vec![read("anything")], 0),
            ("cd d && cat h", vec![read("h")], 0),
            (
                "find . -samefile f",
                vec![read("."), read("/"), read("f")],
                0,
            ),
        ];
        for (line, events, expected) in lines {
            let verdict = classify(line);
            let found = unreported_reads(&trace(events), &verdict, tree);
            assert_eq!(found.len(), expected, "{line}: {found:?}");
        }
    }
}
