//! The `rules` target: permission-rule parsing and matching.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use toolreg::permissions::path::{absolute, resolve};
use toolreg::permissions::{
    OutsideWrites, PermissionRule, Refusal, RuleTarget, RuleValue, Subject, Verdict, shell,
};
use toolreg::{Behavior, PermissionContext, PermissionMode, RuleSource};

use super::Gen;

/// Tool parts of rules and the names of targets.
const TOOLS: &[&str] = &[
    "Bash",
    "Read",
    "Edit",
    "Write",
    "Glob",
    "Grep",
    "Task",
    "Agent",
    "KillShell",
    "TaskStop",
    "mcp__srv",
    "mcp__srv__*",
    "mcp__srv__tool",
    "mcp__my_server__send_message",
    "mcp__my_server",
    "mcp__",
    "mcp__*",
    "mcp__a__b",
];

/// Rule contents: command prefixes, path patterns (one invalid), text wildcards.
const CONTENTS: &[&str] = &[
    "rm:*",
    "echo:*",
    "git status",
    "npm test:*",
    ":*",
    "*",
    "",
    "./secrets/**",
    "secrets",
    "/sub/*.txt",
    "//etc/**",
    "~/.ssh/**",
    "*.env",
    "sub/",
    "link",
    "[z-a",
    "{a,b}.txt",
    "**",
    "a.txt",
    "echo \\(hi\\)",
];

/// Shell-ish command lines.
const COMMANDS: &[&str] = &[
    "rm -rf /",
    "echo hi",
    "echo hi > out",
    "git status && rm x",
    "sudo env A=1 /bin/rm -f x",
    "bash -c 'rm x'",
    "eval rm x",
    "find . -exec rm {} ;",
    "xargs rm",
    "f() { rm x; }",
    "echo $(rm x)",
    "timeout 5 nice -n 3 rm",
    "(cd sub && ls) | wc -l",
    "if true; then rm x; fi",
    "A=1 B+=2",
    "# comment",
    "cat <<EOF",
    "echo 'unterminated",
    "\\rm x",
];

/// Paths, relative to the fixed directory or elsewhere.
const PATHS: &[&str] = &[
    "a.txt",
    "sub/b.txt",
    "link/b.txt",
    "link_file",
    "dangling",
    "secrets/key",
    "secrets/../secrets/key",
    "./secrets//key",
    "missing/x",
    "/etc/passwd",
    "~/x",
    "",
    ".",
    "..",
    "../outside",
    "sub/../../outside",
];

/// The directory path subjects are relative to, created once per process: two files, a
/// subdirectory, a secrets directory, links to a directory and a file, and a dangling link.
fn fixture() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        // Named after the process, so that a later one removes it once this one has ended.
        super::scratch::remove_ended(&std::env::temp_dir(), "toolreg-fuzz-rules-");
        let dir = tempfile::Builder::new()
            .prefix(&format!("toolreg-fuzz-rules-{}-", std::process::id()))
            .tempdir()
            .expect("a temporary directory")
            .keep();
        for sub in ["sub", "secrets"] {
            std::fs::create_dir_all(dir.join(sub)).expect("a fixture directory");
        }
        for (file, text) in [("a.txt", "a\n"), ("sub/b.txt", "b\n"), ("secrets/key", "k")] {
            std::fs::write(dir.join(file), text).expect("a fixture file");
        }
        #[cfg(unix)]
        for (link, target) in [
            ("link", "sub"),
            ("link_file", "a.txt"),
            ("dangling", "nowhere"),
        ] {
            std::os::unix::fs::symlink(target, dir.join(link)).expect("a fixture link");
        }
        resolve(&dir).expect("the fixture directory resolves")
    })
}

/// A rule string: mostly `Tool` or `Tool(content)` from the lists, escaped or not.
fn rule_string(g: &mut Gen<'_>) -> String {
    if g.chance(1, 5) {
        return g.text(8, TOOLS);
    }
    let tool = g.word(TOOLS);
    if g.chance(1, 3) {
        return tool;
    }
    let content = g.word(CONTENTS);
    let content = if g.bool() {
        content
            .replace('\\', "\\\\")
            .replace('(', "\\(")
            .replace(')', "\\)")
    } else {
        content
    };
    format!("{tool}({content})")
}

fn target<'a>(g: &mut Gen<'_>, name: &'a str) -> RuleTarget<'a> {
    let server = match g.below(4) {
        0 => Some(*g.pick(&["srv", "my_server", "a", ""])),
        _ => None,
    };
    RuleTarget { name, server }
}

fn subject(g: &mut Gen<'_>, dir: &Path) -> Option<Subject> {
    let path = |g: &mut Gen<'_>| -> PathBuf {
        match g.below(4) {
            0 => dir.join(g.pick(PATHS)),
            1 => PathBuf::from(g.text(4, PATHS)),
            _ => PathBuf::from(g.pick(PATHS)),
        }
    };
    Some(match g.below(6) {
        0 => return None,
        1 => Subject::Command(g.text(10, COMMANDS)),
        2 => Subject::Command((*g.pick(COMMANDS)).to_owned()),
        3 => Subject::read(path(g)).also_governed_by(&["Read"]),
        4 => Subject::write(path(g)).also_governed_by(&["Edit"]),
        _ => Subject::Text(g.text(6, CONTENTS)),
    })
}

/// Whether two lookups found the same rule (not merely an equal one).
fn same(a: Option<&PermissionRule>, b: Option<&PermissionRule>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::eq(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

fn check_split(line: &str) {
    match shell::split(line) {
        Ok(commands) => {
            for command in commands {
                assert_eq!(command.forms.first(), Some(&command.text), "{line:?}");
                for (i, form) in command.forms.iter().enumerate() {
                    assert!(
                        !command.forms[..i].contains(form),
                        "{line:?}: {form:?} twice"
                    );
                }
            }
        }
        Err(error) => assert!(error.offset <= line.len(), "{line:?}: {error}"),
    }
}

/// Feeds random rule strings (parentheses, backslashes, `*`, `:*`, `mcp__…`) from random
/// sources and behaviours into a [`PermissionContext`] with a random mode, [`OutsideWrites`],
/// project root and home; checks random targets and subjects (commands, reads and writes of
/// paths around a fixed directory with files, a subdirectory and links, plain text) from it.
///
/// Asserts: a rule parses, displays and parses again to the same value; the indexed whole-tool
/// lookups return the first matching rule of a linear scan; a whole-tool deny rule for the
/// target always gives `Verdict::Deny` by that rule; a whole-tool ask rule gives `Deny` or
/// `Ask`; a path the tool's `path_guard` denies is denied by `check`; a path its
/// `read_restrictions` cover is denied or asked about, and `restricts_below` names a rule for
/// every directory above it; `shell::split` never
/// panics, each command's `forms` starts with its `text` and has no duplicate, and an error's
/// offset is inside the line.
pub fn rules(data: &[u8]) {
    let dir = fixture();
    let mut g = Gen::new(data);
    let mut ctx = PermissionContext::new();
    ctx.mode = *g.pick(&[
        PermissionMode::Default,
        PermissionMode::AcceptEdits,
        PermissionMode::BypassPermissions,
        PermissionMode::Plan,
    ]);
    ctx.outside_writes = *g.pick(&[
        OutsideWrites::Ask,
        OutsideWrites::Refuse,
        OutsideWrites::Allow,
    ]);
    if g.chance(3, 4) {
        ctx.set_project_root(dir);
    }
    if g.bool() {
        ctx.set_home(dir.join("sub"));
    }
    if g.chance(1, 4) {
        ctx.add_working_directory(dir.join(g.pick(PATHS)));
    }
    let mut names: Vec<String> = Vec::new();
    for _ in 0..g.below(10) {
        let rule = rule_string(&mut g);
        let value = RuleValue::parse(&rule);
        let again = RuleValue::parse(&value.to_string());
        assert_eq!(again, value, "{rule:?} displays as {value}");
        names.push(value.tool.clone());
        let behavior = *g.pick(&[Behavior::Allow, Behavior::Deny, Behavior::Ask]);
        ctx.add(behavior, *g.pick(&RuleSource::ALL), &rule);
    }
    let cwd = if g.chance(1, 4) {
        dir.join("sub")
    } else {
        dir.to_path_buf()
    };
    for _ in 0..=g.below(4) {
        let name = match names.get(g.below(names.len() + 2)) {
            Some(name) => name.clone(),
            None => g.word(TOOLS),
        };
        let target = target(&mut g, &name);
        let first = |behavior| {
            ctx.rules()
                .find(|rule| rule.behavior == behavior && rule.value.matches_whole_tool(target))
        };
        assert!(
            same(ctx.deny_rule_for_tool(target), first(Behavior::Deny)),
            "{target:?}"
        );
        assert!(
            same(ctx.allow_rule_for_tool(target), first(Behavior::Allow)),
            "{target:?}"
        );
        assert!(
            same(ctx.ask_rule_for_tool(target), first(Behavior::Ask)),
            "{target:?}"
        );
        let subject = subject(&mut g, dir);
        if let Some(Subject::Command(line)) = &subject {
            check_split(line);
        }
        let verdict = ctx.check(target, subject.as_ref(), &cwd);
        if let Verdict::Deny(refusal) = &verdict {
            let _ = refusal.to_string();
        }
        if let Some(deny) = first(Behavior::Deny) {
            match &verdict {
                Verdict::Deny(Refusal::Rule(rule)) => assert_eq!(rule, deny),
                other => panic!("{target:?} has whole-tool deny rule {deny}, got {other:?}"),
            }
        }
        if first(Behavior::Ask).is_some() {
            assert!(
                matches!(verdict, Verdict::Deny(_) | Verdict::Ask(_)),
                "{verdict:?}"
            );
        }
        if let Some(Subject::Path(path)) = &subject {
            let guard = ctx.path_guard(target.name, path.also, &cwd);
            let Ok(canonical) = resolve(&absolute(&cwd, &path.path)) else {
                // Refused as unresolvable, unless a whole-tool deny rule refused the call first
                // (checked above).
                assert!(
                    matches!(verdict, Verdict::Deny(Refusal::Unresolvable(_)))
                        || first(Behavior::Deny).is_some(),
                    "an unresolvable path is refused: {verdict:?}"
                );
                return;
            };
            if let Some(rule) = guard.denies(&canonical) {
                assert!(
                    matches!(verdict, Verdict::Deny(_)),
                    "{rule} denies {canonical:?}"
                );
            }
            let restrictions = ctx.read_restrictions(target.name, path.also, &cwd);
            if let Some(rule) = restrictions.denies(&canonical) {
                assert!(
                    matches!(verdict, Verdict::Deny(_) | Verdict::Ask(_)),
                    "{rule} restricts {canonical:?}: {verdict:?}"
                );
                for dir in canonical.ancestors() {
                    assert!(
                        ctx.restricts_below(target.name, path.also, dir, &cwd)
                            .is_some(),
                        "{rule} restricts {canonical:?} but nothing below {dir:?}"
                    );
                }
            }
        }
    }
    for _ in 0..g.below(3) {
        check_split(&g.text(16, COMMANDS));
    }
}
