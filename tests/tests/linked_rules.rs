//! A rule that names a link covers the link and what it points to: through the dispatcher and
//! the built-in file tools (Read, Edit, Write, Grep, Glob), and in the sandbox's masks, with
//! real files and real links — a link the rule names, a link made after the rules, a link on
//! the rule's literal prefix, a chain of links, a link out of the project, a link the glob
//! names. And an ask rule keeps Grep and Glob out as a deny rule does, since they do not ask
//! before each file.

use crate::common;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{Value, json};
use toolreg::sandbox::Sandboxing;
use toolreg::tool::BoxFuture;
use toolreg::{
    ApprovalRequest, Approver, Behavior, Dispatcher, PermissionContext, PermissionMode, RuleSource,
    ToolCall, ToolOutput, ToolResult, assemble_tool_pool,
};

/// What every denied file holds.
const SECRET: &str = "TOPSECRET";

/// `project/` with `.vault/key.txt` and `secrets -> .vault`, `x/b/key.txt` and `a -> x`,
/// `config/prod.cfg` and `prod.env -> config/prod.cfg`, `pub/note.txt`, and
/// `ext -> ../outside/vault` with `outside/vault/key.txt` beside the project; outside `/tmp`,
/// which the sandbox replaces by a private one.
struct Tree {
    _dir: tempfile::TempDir,
    base: PathBuf,
    project: PathBuf,
}

fn tree() -> Tree {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let base = fs::canonicalize(dir.path()).unwrap();
    let project = base.join("project");
    for (path, text) in [
        ("project/.vault/key.txt", "TOPSECRET-vault\n"),
        ("project/x/b/key.txt", "TOPSECRET-prefix\n"),
        ("project/config/prod.cfg", "TOPSECRET-env\n"),
        ("project/pub/note.txt", "a note\n"),
        ("project/pub/key.txt", "public key\n"),
        ("outside/vault/key.txt", "TOPSECRET-outside\n"),
    ] {
        let path = base.join(path);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
    symlink(".vault", project.join("secrets")).unwrap();
    symlink("x", project.join("a")).unwrap();
    symlink("config/prod.cfg", project.join("prod.env")).unwrap();
    symlink("../outside/vault", project.join("ext")).unwrap();
    Tree {
        _dir: dir,
        base,
        project,
    }
}

fn rules(t: &Tree, mode: PermissionMode, rules: &[(Behavior, &str)]) -> PermissionContext {
    let mut ctx = PermissionContext::new();
    ctx.mode = mode;
    ctx.set_project_root(&t.project);
    for (behavior, rule) in rules {
        ctx.add(*behavior, RuleSource::User, rule);
    }
    ctx
}

fn deny(t: &Tree, rule: &str) -> PermissionContext {
    rules(
        t,
        PermissionMode::BypassPermissions,
        &[(Behavior::Deny, rule)],
    )
}

/// A dispatcher over `rules`, working in the project; built before the test makes new links.
fn dispatcher(t: &Tree, rules: PermissionContext) -> Dispatcher {
    let env = common::env();
    let pool = assemble_tool_pool(&env, &rules, &common::catalog(), &[]);
    Dispatcher::new(env, rules, pool, &t.project)
}

fn call(dispatcher: &Dispatcher, tool: &str, input: Value) -> ToolResult {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(dispatcher.dispatch(&ToolCall::new("toolu_1", tool, input)))
}

fn text(result: &ToolResult) -> &str {
    match &result.content {
        ToolOutput::Text(text) => text,
        other => panic!("expected text, got {other:?}"),
    }
}

#[track_caller]
fn assert_refused(result: &ToolResult, what: &str) {
    assert!(
        result.is_error() && !result.called(),
        "{what}: {}",
        text(result)
    );
    assert!(!text(result).contains(SECRET), "{what}: {}", text(result));
}

/// Reads `file`, which holds `marker`, with Read, Grep (rooted at its directory and at the
/// project) and Glob; each is refused or shows nothing of it.
#[track_caller]
fn assert_unreadable(t: &Tree, dispatcher: &Dispatcher, file: &str, marker: &str) {
    assert_refused(
        &call(dispatcher, "Read", json!({"file_path": file})),
        &format!("Read {file}"),
    );
    let dir = Path::new(file).parent().unwrap().to_str().unwrap();
    assert_refused(
        &call(dispatcher, "Grep", json!({"pattern": SECRET, "path": dir})),
        &format!("Grep {dir}"),
    );
    let grep = call(
        dispatcher,
        "Grep",
        json!({"pattern": marker, "output_mode": "content"}),
    );
    assert!(!grep.is_error(), "Grep: {}", text(&grep));
    assert!(!text(&grep).contains(marker), "Grep: {}", text(&grep));
    // Glob lists names: the file's real path must not be among them.
    let real = fs::canonicalize(t.project.join(file)).unwrap();
    let glob = call(dispatcher, "Glob", json!({"pattern": "**/key.txt"}));
    assert!(!glob.is_error(), "Glob: {}", text(&glob));
    assert!(
        !text(&glob).lines().any(|line| Path::new(line) == real),
        "Glob: {}",
        text(&glob)
    );
}

#[test]
fn read_rule_naming_a_link_refuses_the_link_and_its_target() {
    let t = tree();
    let dispatcher = dispatcher(&t, deny(&t, "Read(./secrets/**)"));
    assert_unreadable(&t, &dispatcher, "secrets/key.txt", "TOPSECRET-vault");
    assert_unreadable(&t, &dispatcher, ".vault/key.txt", "TOPSECRET-vault");
    // The rule holds what it does not name.
    let note = call(&dispatcher, "Read", json!({"file_path": "pub/note.txt"}));
    assert!(text(&note).contains("a note"), "{}", text(&note));
}

#[test]
fn edit_rule_naming_a_link_refuses_edits_of_the_link_and_its_target() {
    let t = tree();
    let dispatcher = dispatcher(&t, deny(&t, "Edit(./secrets/**)"));
    for file in ["secrets/key.txt", ".vault/key.txt"] {
        assert_refused(
            &call(
                &dispatcher,
                "Edit",
                json!({"file_path": file, "old_string": "vault", "new_string": "open"}),
            ),
            &format!("Edit {file}"),
        );
        assert_refused(
            &call(
                &dispatcher,
                "Write",
                json!({"file_path": file, "content": "open"}),
            ),
            &format!("Write {file}"),
        );
    }
    assert_eq!(
        fs::read_to_string(t.project.join(".vault/key.txt")).unwrap(),
        "TOPSECRET-vault\n"
    );
}

#[test]
fn a_link_made_after_the_rules_is_covered_by_them() {
    let t = tree();
    let dispatcher = dispatcher(&t, deny(&t, "Read(./secrets/**)"));
    // Made after the rules and the dispatcher: to the link, to its target, a chain.
    symlink("secrets", t.project.join("foo")).unwrap();
    symlink(".vault", t.project.join("bar")).unwrap();
    symlink("foo", t.project.join("chain")).unwrap();
    for file in ["foo/key.txt", "bar/key.txt", "chain/key.txt"] {
        assert_unreadable(&t, &dispatcher, file, "TOPSECRET-vault");
    }
}

#[test]
fn a_link_on_the_rule_literal_prefix_covers_its_target() {
    let t = tree();
    let dispatcher = dispatcher(&t, deny(&t, "Read(./a/b/**)"));
    assert_unreadable(&t, &dispatcher, "a/b/key.txt", "TOPSECRET-prefix");
    assert_unreadable(&t, &dispatcher, "x/b/key.txt", "TOPSECRET-prefix");
}

#[test]
fn a_rule_naming_a_link_out_of_the_project_covers_its_target() {
    let t = tree();
    let dispatcher = dispatcher(&t, deny(&t, "Read(./ext/**)"));
    assert_unreadable(&t, &dispatcher, "ext/key.txt", "TOPSECRET-outside");
    let outside = t.base.join("outside/vault/key.txt");
    assert_refused(
        &call(&dispatcher, "Read", json!({"file_path": outside})),
        "Read outside",
    );
}

#[test]
fn a_link_the_glob_names_covers_what_is_reached_through_it() {
    let t = tree();
    let dispatcher = dispatcher(&t, deny(&t, "Read(*.env)"));
    assert_refused(
        &call(&dispatcher, "Read", json!({"file_path": "prod.env"})),
        "Read prod.env",
    );
}

/// Approves every call it is asked about.
struct Approve;

impl Approver for Approve {
    fn approve(&self, _: ApprovalRequest) -> BoxFuture<'_, bool> {
        Box::pin(std::future::ready(true))
    }
}

#[test]
fn ask_rules_keep_grep_and_glob_out_as_deny_rules_do() {
    let t = tree();
    let ask = |mode| rules(&t, mode, &[(Behavior::Ask, "Read(./secrets/**)")]);
    let search = |dispatcher: &Dispatcher, path: &str| {
        [
            call(
                dispatcher,
                "Grep",
                json!({"pattern": "TOPSECRET-vault|public key", "path": path, "output_mode": "content"}),
            ),
            call(
                dispatcher,
                "Glob",
                json!({"pattern": "**/key.txt", "path": path}),
            ),
        ]
    };
    // Searching the project asks about the project only: what the ask rule covers is left
    // out, what it does not is found.
    let approving = dispatcher(&t, ask(PermissionMode::Default)).with_approver(Arc::new(Approve));
    for result in search(&approving, ".") {
        assert!(!text(&result).contains("vault"), "{}", text(&result));
        assert!(
            text(&result).contains("pub/key.txt") || text(&result).contains("public key"),
            "{}",
            text(&result)
        );
    }
    // Searching what the rule covers asks about it; once approved, it is searched.
    for result in search(&approving, "secrets") {
        assert!(text(&result).contains("vault"), "{}", text(&result));
    }
    // Where nothing asks, an ask rule holds nothing back (as Read then reads the file).
    let bypass = dispatcher(&t, ask(PermissionMode::BypassPermissions));
    for result in search(&bypass, ".") {
        assert!(text(&result).contains("vault"), "{}", text(&result));
    }
}

#[test]
fn sandbox_masks_the_target_of_a_rule_naming_a_link() {
    let sandbox = match Sandboxing::detect() {
        Sandboxing::On(sandbox) => sandbox,
        Sandboxing::Unavailable(why) => {
            assert!(
                std::env::var_os("TOOLREG_REQUIRE_SANDBOX").is_none(),
                "TOOLREG_REQUIRE_SANDBOX is set but the sandbox is unavailable: {why}"
            );
            eprintln!("skipped: the sandbox is unavailable here: {why}");
            return;
        }
        Sandboxing::Off => unreachable!("detection never answers Off"),
    };
    let t = tree();
    let ctx = rules(
        &t,
        PermissionMode::BypassPermissions,
        &[
            (Behavior::Deny, "Read(./secrets/**)"),
            (Behavior::Deny, "Read(./a/b/**)"),
            (Behavior::Deny, "Read(./ext/**)"),
            (Behavior::Deny, "Read(*.env)"),
        ],
    );
    let policy = ctx
        .sandbox_policy(&t.project, &["Read"], &["Edit"])
        .unwrap();
    for hidden in [".vault", "x/b", "config/prod.cfg", "../outside/vault"] {
        let hidden = fs::canonicalize(t.project.join(hidden)).unwrap();
        assert!(policy.hidden.contains(&hidden), "{hidden:?}: {policy:?}");
    }
    let script = "cat secrets/key.txt; cat .vault/key.txt; cat a/b/key.txt x/b/key.txt; \
                  cat ext/key.txt ../outside/vault/key.txt; cat prod.env config/prod.cfg; \
                  ln -s .vault new; cat new/key.txt; cat pub/note.txt";
    let args = [OsString::from("-c"), OsString::from(script)];
    let output = sandbox
        .command(&policy, OsStr::new("bash"), &args, &t.project)
        .unwrap()
        .output()
        .unwrap();
    let output = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        !output.contains(SECRET),
        "a masked file was read:\n{output}"
    );
    assert!(
        output.contains("a note"),
        "nothing was read at all:\n{output}"
    );
}

#[test]
fn an_allow_rule_follows_no_link_made_under_what_it_allows() {
    let t = tree();
    let ctx = rules(
        &t,
        PermissionMode::Default,
        &[(Behavior::Allow, "Edit(./pub/**)")],
    );
    let dispatcher = dispatcher(&t, ctx);
    let write = |file: &str| {
        call(
            &dispatcher,
            "Write",
            json!({"file_path": file, "content": "written"}),
        )
    };
    // What the rule allows as written goes through without asking.
    let allowed = write("pub/new.txt");
    assert!(!allowed.is_error(), "{}", text(&allowed));
    // A link made in `pub` to a directory out of the project, and `pub` itself made a link:
    // nothing more is allowed (no approver here, so what asks is refused).
    symlink(t.base.join("outside"), t.project.join("pub/out")).unwrap();
    assert_refused(&write("pub/out/new.txt"), "Write through pub/out");
    fs::rename(t.project.join("pub"), t.project.join("pub.real")).unwrap();
    symlink(".vault", t.project.join("pub")).unwrap();
    assert_refused(&write("pub/new.txt"), "Write through pub -> .vault");
    assert!(!t.base.join("outside/new.txt").exists());
    assert!(!t.project.join(".vault/new.txt").exists());
}
