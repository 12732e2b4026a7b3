//! The `dispatch` target's scratch directory and its permission context.
//!
//! The fuzzer runs as whatever user starts it (root on the shared machine), so the context is
//! built to keep every call inside the scratch directory, and [`Scratch::new`] checks that it
//! does before the first input runs.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use toolreg::permissions::OutsideWrites;
use toolreg::permissions::Subject;
use toolreg::permissions::path::resolve;
use toolreg::permissions::{RuleTarget, Verdict};
use toolreg::{Behavior, PermissionContext, RuleSource};

/// Where scratch directories go: tmpfs, so the file tools' fsyncs cost nothing.
const SHM: &str = "/dev/shm";
/// The prefix of their names, followed by the process id. A process never removes its own
/// (libFuzzer exits without running destructors, and a test's statics are never dropped): the
/// next one removes those of processes that have ended ([`remove_ended`]).
const PREFIX: &str = "toolreg-fuzz-";

/// Tools that run commands (or wait): a whole-tool ask rule, with no approver, refuses them.
pub(crate) const NEVER_RUN: [&str; 4] = ["Bash", "PowerShell", "Monitor", "Sleep"];

/// The files every run starts from (path, content); `link` and `link.txt` are added as links.
const FILES: &[(&str, &str)] = &[
    (
        "file.txt",
        "line one\nline two\nthe third line\n\tindented\n",
    ),
    ("crlf.txt", "first\r\nsecond\r\n"),
    ("empty.txt", ""),
    ("bin.dat", "\u{0}\u{1}binary\u{0}"),
    ("sub/inner.txt", "inner text\nTODO: fix\n"),
    ("sub/.gitignore", "ignored.txt\n"),
    ("sub/ignored.txt", "ignored\n"),
    (
        "nb.ipynb",
        r##"{"cells":[{"cell_type":"code","id":"cell-a","metadata":{},"source":["print(1)\n"],"outputs":[],"execution_count":1},{"cell_type":"markdown","id":"b","metadata":{},"source":"# Title"}],"metadata":{},"nbformat":4,"nbformat_minor":5}"##,
    ),
    (
        "old.ipynb",
        r#"{"cells":[{"cell_type":"code","metadata":{},"source":"x = 1","outputs":[]}],"metadata":{},"nbformat":4,"nbformat_minor":2}"#,
    ),
];

/// Removes the entries of `dir` named `<prefix><pid>` or `<prefix><pid>-…` whose process has
/// ended: the directories a harness keeps for its process's life, which no process removes
/// itself. Nothing is removed where `/proc` cannot tell which processes live; a directory of
/// another user stays (the sticky temporary folders refuse).
pub(crate) fn remove_ended(dir: &Path, prefix: &str) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = (name.to_str())
            .and_then(|name| name.strip_prefix(prefix))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid
            && !proc.join(pid.to_string()).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// `/dev/shm/toolreg-fuzz-<pid>/work`, the working directory of every call.
pub(crate) struct Scratch {
    /// `/dev/shm/toolreg-fuzz-<pid>`: holds `work` and nothing else.
    pub parent: PathBuf,
    /// The working directory and project root.
    pub work: PathBuf,
}

impl Scratch {
    /// Creates the directory (the one a previous process of this id left, if any, is
    /// replaced) and fills it.
    pub fn new() -> Scratch {
        remove_ended(Path::new(SHM), PREFIX);
        let parent = Path::new(SHM).join(format!("{PREFIX}{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&parent);
        std::fs::create_dir_all(parent.join("work")).expect("the scratch directory");
        let parent = resolve(&parent).expect("the scratch directory resolves");
        let scratch = Scratch {
            work: parent.join("work"),
            parent,
        };
        scratch.reset();
        scratch
    }

    /// Puts back the files every run starts from (the directory itself stays, it is the cwd).
    pub fn reset(&self) {
        let entries = std::fs::read_dir(&self.work).expect("the scratch directory lists");
        for entry in entries.flatten() {
            let path = entry.path();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            let _ = if is_dir {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
        }
        std::fs::create_dir_all(self.work.join("sub")).expect("a scratch directory");
        for (file, content) in FILES {
            std::fs::write(self.work.join(file), content).expect("a scratch file");
        }
        for (link, target) in [("link", "sub"), ("link.txt", "file.txt")] {
            std::os::unix::fs::symlink(target, self.work.join(link)).expect("a scratch link");
        }
    }

    /// The names in the parent directory: `work` alone, unless something escaped.
    pub fn parent_listing(&self) -> Vec<OsString> {
        let mut names: Vec<OsString> = std::fs::read_dir(&self.parent)
            .expect("the scratch parent lists")
            .flatten()
            .map(|entry| entry.file_name())
            .collect();
        names.sort();
        names
    }

    /// The rules: nothing runs a command, nothing writes outside `work`, nothing reads
    /// `/proc`, `/sys` or `/dev` (but `/dev/shm`, which holds `work`).
    pub fn permissions(&self) -> PermissionContext {
        let mut rules = PermissionContext::new();
        rules.set_legacy_names(toolreg_tools::profile::names::LEGACY);
        rules.set_project_root(&self.work);
        rules.outside_writes = OutsideWrites::Refuse;
        for tool in NEVER_RUN {
            rules.add(Behavior::Ask, RuleSource::Policy, tool);
        }
        rules.add(Behavior::Deny, RuleSource::Policy, "Bash(rm:*)");
        rules.add(Behavior::Allow, RuleSource::Policy, "Bash(echo:*)");
        // `Read(//dev/**)` would cover `/dev/shm` too. These cover every other name under
        // `/dev`: not starting with `s`, second letter not `h`, third not `m`, longer than
        // three letters, or shorter. Other files of `/dev/shm` stay readable: they are regular
        // files, which Read opens without side effects.
        let dev = ["[!s]*", "?[!h]*", "??[!m]*", "????*", "?", "??"];
        let denied = ["//proc/**", "//sys/**"].into_iter().map(str::to_owned);
        for pattern in denied.chain(dev.iter().map(|p| format!("//dev/{p}"))) {
            rules.add(
                Behavior::Deny,
                RuleSource::Policy,
                &format!("Read({pattern})"),
            );
        }
        rules
    }

    /// Panics unless `rules` refuse what they must and let the scratch files be read.
    pub fn check(&self, rules: &PermissionContext) {
        let tool = RuleTarget::named;
        let denied = |verdict: Verdict| matches!(verdict, Verdict::Deny(_));
        let refused = |verdict: Verdict| matches!(verdict, Verdict::Deny(_) | Verdict::Ask(_));
        let read = |path: &str| rules.check(tool("Read"), Some(&Subject::read(path)), &self.work);
        for path in [
            "/dev/zero",
            "/dev/null",
            "/dev/sda",
            "/dev/s",
            "/proc/self/mem",
            "/sys/x",
        ] {
            assert!(denied(read(path)), "reading {path} is not denied");
        }
        let inside = self.work.join("file.txt");
        assert!(
            !denied(read(&inside.to_string_lossy())),
            "scratch files are readable"
        );
        for (name, command) in [("Bash", "echo hi"), ("Bash", "ls"), ("PowerShell", "dir")] {
            let subject = Subject::Command(command.into());
            let verdict = rules.check(tool(name), Some(&subject), &self.work);
            assert!(refused(verdict), "{name} {command} would run");
        }
        for path in [
            self.parent.join("x"),
            PathBuf::from("/etc/x"),
            "../x".into(),
        ] {
            let subject = Subject::write(path.clone());
            let verdict = rules.check(tool("Write"), Some(&subject), &self.work);
            assert!(denied(verdict), "writing {path:?} is not refused");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_directories_of_ended_processes_are_removed() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        // A process that has ended: its id names nothing running (until the system reuses it).
        let mut child = std::process::Command::new("true")
            .spawn()
            .expect("`true` runs");
        let ended = child.id();
        child.wait().expect("`true` ends");
        let own = std::process::id();
        let names = [
            format!("toolreg-x-{ended}"),
            format!("toolreg-x-{ended}-aBc123"),
            format!("toolreg-x-{own}"),
            format!("toolreg-x-{own}-aBc123"),
            "toolreg-x-aBc123".to_owned(),
            format!("other-{ended}"),
        ];
        for name in &names {
            std::fs::create_dir(dir.path().join(name)).expect("a directory");
        }
        remove_ended(dir.path(), "toolreg-x-");
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("the directory lists")
            .flatten()
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        left.sort();
        let mut expected = names[2..].to_vec();
        expected.sort();
        assert_eq!(left, expected);
    }
}
