//! Rules that hold under attack: a rule names a tool's permission identity whatever display
//! name the pool gave it, path rules see through every spelling of a path, and command rules
//! see every simple command of a command line.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use toolreg::Pool;
use toolreg::mcp::load_server;
use toolreg::permissions::{OutsideWrites, Refusal, RuleTarget, Subject, Verdict};
use toolreg::{
    Behavior, Catalog, Env, PermissionContext, PermissionMode, RuleSource, ToolInfo,
    assemble_tool_pool,
};

fn names(pool: &[Arc<ToolInfo>]) -> Vec<&str> {
    pool.iter().map(|tool| tool.name.as_str()).collect()
}

fn pool_with(deny: &[&str], tools: serde_json::Value) -> Pool {
    let mut rules = PermissionContext::new();
    for rule in deny {
        rules.add(Behavior::Deny, RuleSource::User, rule);
    }
    let loaded = load_server("s", &tools);
    assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
    assemble_tool_pool(
        &Env::default(),
        &rules,
        &Catalog::from_descriptors(Vec::new(), &[]),
        &loaded.tools,
    )
}

#[test]
fn deny_rule_matches_the_permission_identity_not_the_name_a_decoy_pushed_aside() {
    let tools = json!([
        {"name": "delete.all", "inputSchema": {"type": "object"}},
        {"name": "delete_all", "inputSchema": {"type": "object"}},
        {"name": "list", "inputSchema": {"type": "object"}},
    ]);
    let open = pool_with(&[], tools.clone());
    assert_eq!(open.len(), 3);
    assert!(
        open.iter()
            .any(|tool| tool.name.starts_with("mcp__s__delete_all_")),
        "the second delete_all gets a hashed name: {:?}",
        names(&open)
    );
    // Both raw names normalize to delete_all: the rule matches both, never neither.
    assert_eq!(
        names(&pool_with(&["mcp__s__delete_all"], tools)),
        ["mcp__s__list"]
    );
}

#[test]
fn deny_rule_matches_a_long_name_whatever_it_was_shortened_to() {
    let long = format!("drop_every_table_{}", "x".repeat(60));
    let tools = json!([{"name": long, "inputSchema": {"type": "object"}}]);
    let open = pool_with(&[], tools.clone());
    assert!(open[0].name.len() <= 64, "{}", open[0].name);
    assert_eq!(open[0].permission_name(), format!("mcp__s__{long}"));
    assert!(pool_with(&[&format!("mcp__s__{long}")], tools).is_empty());
}

#[test]
fn permission_name_stays_the_servers_names_when_the_application_renames_the_tool() {
    let tools = json!([{"name": "drop.table", "inputSchema": {"type": "object"}}]);
    let mut tool = ToolInfo::clone(&load_server("db", &tools).tools[0]);
    assert_eq!(tool.permission_name(), "mcp__db__drop_table");
    tool.name = "Read".into();
    assert_eq!(tool.permission_name(), "mcp__db__drop_table");
    assert_eq!(tool.rule_target().name, "mcp__db__drop_table");
}

#[test]
fn server_rule_matches_tools_with_hashed_names() {
    let tools = json!([
        {"name": "a.b", "inputSchema": {"type": "object"}},
        {"name": "a_b", "inputSchema": {"type": "object"}},
    ]);
    assert!(pool_with(&["mcp__s"], tools).is_empty());
}

fn check<'a>(ctx: &'a PermissionContext, tool: &'a str, subject: Subject, cwd: &Path) -> Verdict {
    ctx.check(RuleTarget::named(tool), Some(&subject), cwd)
}

fn denied(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Deny(_))
}

#[test]
fn deny_prefix_rule_catches_every_way_of_spelling_the_command() {
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::Policy, "Bash(rm:*)");
    for line in [
        "rm -rf x",
        " rm -rf x",
        "\trm x",
        "true && rm x",
        "false || rm x",
        "echo hi; rm x",
        "; rm x",
        "echo hi | rm x",
        "/bin/rm x",
        "\\rm x",
        "'rm' x",
        "r\"m\" x",
        "sudo rm x",
        "env A=1 rm x",
        "A=1 rm x",
        "(rm x)",
        "{ rm x; }",
        "bash -c 'rm x'",
        "sh -c \"echo; rm x\"",
        "eval rm x",
        "ls | xargs rm",
        "find . -exec rm {} \\;",
        "echo a\nrm x",
        "if true; then rm x; fi",
        "nohup time rm x &",
    ] {
        let verdict = check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
        assert!(
            matches!(verdict, Verdict::Deny(Refusal::Rule(_))),
            "{line:?}: {verdict:?}"
        );
    }
    for line in ["rmdir x", "echo rm", "ls -l", "grep rm file"] {
        let verdict = check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
        assert_eq!(verdict, Verdict::Undecided, "{line:?}");
    }
}

const NOT_UNDERSTOOD: [&str; 5] = [
    "echo $(rm x)",
    "echo `rm x`",
    "$CMD x",
    "r* x",
    "cat <<EOF\nrm\nEOF",
];

#[test]
fn command_the_splitter_does_not_understand_is_refused_under_a_deny_rule_in_every_mode() {
    for mode in [
        PermissionMode::Default,
        PermissionMode::AcceptEdits,
        PermissionMode::BypassPermissions,
        PermissionMode::Plan,
    ] {
        let mut ctx = PermissionContext::new()
            .with(Behavior::Deny, RuleSource::User, "Bash(rm:*)")
            .with(Behavior::Allow, RuleSource::User, "Bash(echo:*)");
        ctx.mode = mode;
        for line in NOT_UNDERSTOOD {
            let verdict = check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
            assert!(
                matches!(verdict, Verdict::Deny(Refusal::Unverifiable { .. })),
                "{mode:?} {line:?}: {verdict:?}"
            );
        }
    }
}

#[test]
fn command_the_splitter_does_not_understand_asks_under_an_ask_rule_and_is_never_allowed() {
    let ctx = PermissionContext::new()
        .with(Behavior::Ask, RuleSource::User, "Bash(rm:*)")
        .with(Behavior::Allow, RuleSource::User, "Bash(echo:*)");
    for line in NOT_UNDERSTOOD {
        let verdict = check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
        assert!(matches!(verdict, Verdict::Ask(_)), "{line:?}: {verdict:?}");
    }
    let mut bypass = ctx.clone();
    bypass.mode = PermissionMode::BypassPermissions;
    let verdict = check(
        &bypass,
        "Bash",
        Subject::Command("echo $(rm x)".into()),
        Path::new("/"),
    );
    assert!(
        matches!(verdict, Verdict::Deny(Refusal::Unverifiable { .. })),
        "in bypass mode nothing asks, so it is refused: {verdict:?}"
    );
    let allow_only =
        PermissionContext::new().with(Behavior::Allow, RuleSource::User, "Bash(echo:*)");
    for line in NOT_UNDERSTOOD {
        let verdict = check(
            &allow_only,
            "Bash",
            Subject::Command(line.into()),
            Path::new("/"),
        );
        assert_eq!(
            verdict,
            Verdict::Undecided,
            "{line:?}: the tool's own check asks"
        );
    }
}

#[test]
fn deny_rule_holds_against_builtins_that_evaluate_text_and_unknown_wrappers() {
    let mut ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "Bash(rm:*)");
    ctx.mode = PermissionMode::BypassPermissions;
    for line in [
        // Text bash evaluates: arithmetic and subscripts through a variable set in the line.
        "x='a[$(rm t)]'; let x",
        "x='a[$(rm t)]'; declare -i y=x",
        "x='a[$(rm t)]'; [[ x -eq 1 ]]",
        "x='a[$(rm t)]'; echo ${a[x]}",
        "x='a[$(rm t)]'; echo ${!x}",
        "x='a[$(rm t)]'; set -- 1; echo ${@:x}",
        "printf -v 'a[$(rm t)]' 1",
        "read 'a[$(rm t)]' <<< 1",
        "test -v 'a[$(rm t)]'",
        "[ -v 'a[$(rm t)]' ]",
        "x='$(rm t)'; echo ${x@P}",
        "PS4='$(rm t)' bash -xc true",
        "PS4='$(rm t)'; set -x; true",
        "mapfile -C 'rm t' -c 1 < /etc/hostname",
        "hash -p /bin/rm ls; ls t",
        "shopt -s expand_aliases; alias ls=rm; ls t",
        "trap 'rm t' EXIT",
        "source ./script",
        "compgen -C 'rm t' x",
        "enable -f ./x.so x",
        "export BASH_ENV=./evil; bash -c true",
        "env LD_PRELOAD=./x.so true",
        // Programs that run their arguments, which no list of wrappers names.
        "setsid rm t",
        "setsid -f /bin/rm t",
        "stdbuf -o0 rm t",
        "ionice -c3 rm t",
        "taskset 1 rm t",
        "chrt -o 0 rm t",
        "flock /tmp/l rm t",
        "unshare -r rm t",
        "runuser -u root -- rm t",
        "su -c 'rm t'",
        "script -qc 'rm t' /dev/null",
        "rbash -c 'rm t'",
        "busybox rm t",
        "perl -e 'system(\"rm\", \"t\")'",
        "git -c alias.x='!rm t' x",
        "git config alias.x '!rm t'",
        "setsid \"$X\" t",
        // A program that runs its arguments, held in a shell string behind another one (found
        // by the long differential run against bash).
        "chrt -i 0 rbash -c 'chroot / r\\m -f t'",
        "nice -n 1 stdbuf -o0 bash -c 'chroot / rm t'",
    ] {
        let verdict = check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
        assert!(denied(&verdict), "{line:?}: {verdict:?}");
    }
}

#[test]
fn deny_rule_leaves_commands_that_only_mention_its_command_alone() {
    let ctx = PermissionContext::new().with(Behavior::Deny, RuleSource::User, "Bash(rm:*)");
    for line in [
        "grep rm file",
        "echo rm",
        "git commit -m 'rm the old files'",
        "export A=1 B=2",
        "[[ -f rm ]]",
        "printf '%s' \"$HOME\"",
        "cat \"$FILE\"",
        "setsid make test",
    ] {
        let verdict = check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
        assert_eq!(verdict, Verdict::Undecided, "{line:?}");
    }
}

#[test]
fn allow_rule_needs_every_simple_command_to_match() {
    let ctx = PermissionContext::new().with(Behavior::Allow, RuleSource::User, "Bash(echo:*)");
    let verdict = |line: &str| check(&ctx, "Bash", Subject::Command(line.into()), Path::new("/"));
    assert_eq!(verdict("echo a && echo b"), Verdict::Allow);
    assert_eq!(verdict("echo a && rm b"), Verdict::Undecided);
    assert_eq!(
        verdict("/bin/echo a"),
        Verdict::Undecided,
        "allow matches as written"
    );
    assert_eq!(
        verdict("A=1 echo a"),
        Verdict::Undecided,
        "assignments are not allowed"
    );
    assert_eq!(
        verdict("echo a > ~/.bashrc"),
        Verdict::Undecided,
        "nor writing files"
    );
    assert_eq!(verdict("echo a 2>&1 >/dev/null"), Verdict::Allow);
}

/// A project directory with `secrets/key`, a link to `secrets`, a link to the key, and `src/`.
struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

fn project() -> Project {
    let dir = tempfile::tempdir().unwrap();
    let root = fs::canonicalize(dir.path()).unwrap().join("project");
    fs::create_dir_all(root.join("secrets")).unwrap();
    fs::create_dir_all(root.join("src/deep")).unwrap();
    fs::write(root.join("secrets/key"), "hunter2").unwrap();
    fs::write(root.join("src/lib.rs"), "").unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(root.join("secrets"), root.join("src/innocent")).unwrap();
        std::os::unix::fs::symlink(root.join("secrets/key"), root.join("notes.txt")).unwrap();
    }
    Project { _dir: dir, root }
}

fn with_rule(behavior: Behavior, rule: &str, root: &Path) -> PermissionContext {
    let mut ctx = PermissionContext::new().with(behavior, RuleSource::Project, rule);
    ctx.set_project_root(root);
    ctx
}

#[test]
fn path_deny_rule_is_not_passed_by_any_spelling_of_the_path() {
    let project = project();
    let root = &project.root;
    let ctx = with_rule(Behavior::Deny, "Read(./secrets/**)", root);
    let mut spellings = vec![
        "secrets/key".to_owned(),
        "./secrets/key".to_owned(),
        "secrets//key".to_owned(),
        "secrets/./key".to_owned(),
        "src/../secrets/key".to_owned(),
        "src/deep/../../secrets/key".to_owned(),
        root.join("secrets/key").display().to_string(),
        format!("{}/../project/secrets/key", root.display()),
        "secrets/not-yet-there".to_owned(),
    ];
    if cfg!(unix) {
        spellings.extend(["src/innocent/key".to_owned(), "notes.txt".to_owned()]);
    }
    for spelling in &spellings {
        let verdict = check(&ctx, "Read", Subject::read(spelling), root);
        assert!(denied(&verdict), "{spelling}: {verdict:?}");
    }
    // The working directory of the call does not change what the rule names.
    let verdict = check(
        &ctx,
        "Read",
        Subject::read("../secrets/key"),
        &root.join("src"),
    );
    assert!(denied(&verdict), "{verdict:?}");
    for fine in ["src/lib.rs", "secrets-not"] {
        assert_eq!(
            check(&ctx, "Read", Subject::read(fine), root),
            Verdict::Undecided,
            "{fine}"
        );
    }
}

#[test]
fn path_rule_of_a_directory_covers_what_is_below_it() {
    let project = project();
    let ctx = with_rule(Behavior::Deny, "Read(secrets)", &project.root);
    assert!(denied(&check(
        &ctx,
        "Read",
        Subject::read("secrets/key"),
        &project.root
    )));
}

#[test]
fn absolute_and_home_relative_path_rules() {
    let project = project();
    let mut ctx = with_rule(Behavior::Deny, "Edit(//etc/**)", &project.root);
    ctx.add(Behavior::Deny, RuleSource::User, "Read(~/.ssh/**)");
    ctx.set_home(project.root.join("src"));
    assert!(denied(&check(
        &ctx,
        "Edit",
        Subject::write("/etc/hosts"),
        &project.root
    )));
    assert!(denied(&check(
        &ctx,
        "Edit",
        Subject::write("/tmp/../etc/x"),
        &project.root
    )));
    let ssh = project.root.join("src/.ssh/id_rsa");
    assert!(denied(&check(
        &ctx,
        "Read",
        Subject::read(&ssh),
        &project.root
    )));
}

#[test]
fn edit_path_rules_govern_the_tools_that_name_them() {
    let project = project();
    let ctx = with_rule(Behavior::Deny, "Edit(./secrets/**)", &project.root);
    let write = Subject::write("secrets/key").also_governed_by(&["Edit"]);
    assert!(denied(&check(&ctx, "Write", write, &project.root)));
    assert_eq!(
        check(&ctx, "Write", Subject::write("secrets/key"), &project.root),
        Verdict::Undecided,
        "a tool that does not name Edit is governed by its own rules only"
    );
}

#[test]
fn path_rule_that_is_not_a_valid_pattern_refuses_rather_than_being_ignored() {
    let project = project();
    let ctx = with_rule(Behavior::Deny, "Read(secrets/[z-a)", &project.root);
    let verdict = check(&ctx, "Read", Subject::read("src/lib.rs"), &project.root);
    assert!(
        matches!(verdict, Verdict::Deny(Refusal::InvalidPattern { .. })),
        "{verdict:?}"
    );
}

#[test]
fn write_outside_the_working_directories_asks() {
    let project = project();
    let outside = project.root.parent().unwrap().join("elsewhere.txt");
    let mut ctx = PermissionContext::new();
    ctx.set_project_root(&project.root);
    let verdict = check(&ctx, "Write", Subject::write(&outside), &project.root);
    assert!(matches!(verdict, Verdict::Ask(_)), "{verdict:?}");
    // Reads are not bounded; writes inside are not asked about.
    assert_eq!(
        check(&ctx, "Read", Subject::read(&outside), &project.root),
        Verdict::Undecided
    );
    assert_eq!(
        check(&ctx, "Write", Subject::write("src/new.rs"), &project.root),
        Verdict::Undecided
    );
    // `..` and links do not leave the boundary unnoticed.
    let verdict = check(
        &ctx,
        "Write",
        Subject::write("src/../../elsewhere.txt"),
        &project.root,
    );
    assert!(matches!(verdict, Verdict::Ask(_)), "{verdict:?}");
}

#[test]
fn working_directory_boundary_can_refuse_or_admit_more_directories() {
    let project = project();
    let parent = project.root.parent().unwrap().to_path_buf();
    let outside = parent.join("elsewhere.txt");
    let mut ctx = PermissionContext::new();
    ctx.set_project_root(&project.root);
    ctx.outside_writes = OutsideWrites::Refuse;
    let verdict = check(&ctx, "Write", Subject::write(&outside), &project.root);
    assert!(
        matches!(
            verdict,
            Verdict::Deny(Refusal::OutsideWorkingDirectories { .. })
        ),
        "{verdict:?}"
    );
    ctx.add_working_directory(&parent);
    assert_eq!(
        check(&ctx, "Write", Subject::write(&outside), &project.root),
        Verdict::Undecided
    );
}

#[test]
fn path_allow_rule_admits_a_write_outside_the_working_directories_but_a_whole_tool_allow_does_not()
{
    let project = project();
    let outside = project.root.parent().unwrap().join("out/file.txt");
    let pattern = format!(
        "Write(/{}/out/**)",
        project.root.parent().unwrap().display()
    );
    let ctx = with_rule(Behavior::Allow, &pattern, &project.root);
    assert_eq!(
        check(&ctx, "Write", Subject::write(&outside), &project.root),
        Verdict::Allow
    );
    let whole = with_rule(Behavior::Allow, "Write", &project.root);
    let verdict = check(&whole, "Write", Subject::write(&outside), &project.root);
    assert!(matches!(verdict, Verdict::Ask(_)), "{verdict:?}");
}
