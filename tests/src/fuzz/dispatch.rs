//! The `dispatch` target: the model's input JSON for every built-in, through dispatch.

use std::sync::{Arc, OnceLock};

use serde_json::Value;
use toolreg::permissions::Subject;
use toolreg::permissions::path::{absolute, resolve};
use toolreg::permissions::{Access, Verdict};
use toolreg::{
    DispatchError, Dispatcher, Env, PermissionContext, Pool, SearchEngine, Strategy, ToolCall,
    ToolContext, ToolInfo, ToolOutput,
};
use toolreg_tools::profile::{self, switch};

use super::input::{arbitrary_json, object_for};
use super::scratch::{NEVER_RUN, Scratch};
use super::{Gen, catalog};

/// Tools that write files: the scratch files are put back after one of them ran.
const WRITERS: [&str; 3] = ["Write", "Edit", "NotebookEdit"];

/// Built once per process: the scratch directory, the rules, every built-in in one pool.
struct Setup {
    scratch: Scratch,
    env: Arc<Env>,
    rules: Arc<PermissionContext>,
    pool: Pool,
    schemas: Vec<Value>,
    /// Two dispatchers: no deferred tool loaded, and every one loaded.
    dispatchers: [Dispatcher; 2],
    /// A current-thread runtime: the fuzzer's process runs one call at a time.
    runtime: tokio::runtime::Runtime,
    /// Every built-in's name in this build: `toolreg_tools::BASE_ORDER`, then any other.
    names: Vec<&'static str>,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let scratch = Scratch::new();
        let mut env = profile::env(toolreg_tools::features());
        for name in [
            switch::TODO_V2,
            switch::WORKTREE_MODE,
            switch::AGENT_SWARMS,
            switch::LSP,
            switch::POWERSHELL,
        ] {
            env.switches.set(name, true);
        }
        let rules = Arc::new(scratch.permissions());
        scratch.check(&rules);
        // Every tool of the catalog, the special ones too (a host adds those itself).
        let tools = (catalog().tools().iter())
            .map(|tool| Arc::new(ToolInfo::from_builtin(tool, &env.switches)));
        let pool = Pool::new(&env, tools);
        let schemas = (pool.iter())
            .map(|tool| serde_json::from_str(&tool.input_schema).expect("schemas are JSON"))
            .collect();
        let engine = Arc::new(SearchEngine::new(pool.to_vec(), Strategy::Keyword));
        let env = Arc::new(env);
        let dispatcher = Dispatcher::new(
            Arc::clone(&env),
            Arc::clone(&rules),
            pool.clone(),
            &scratch.work,
        )
        .with_state(toolreg_tools::default_state())
        .with_searcher(engine);
        let all = pool.iter().map(|tool| tool.name.clone());
        let dispatchers = [dispatcher.clone(), dispatcher.with_loaded(all)];
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        let mut names = toolreg_tools::BASE_ORDER.to_vec();
        let others = catalog().tools().iter().map(|tool| tool.name);
        names.extend(others.filter(|name| !toolreg_tools::BASE_ORDER.contains(name)));
        Setup {
            scratch,
            env,
            rules,
            pool,
            schemas,
            dispatchers,
            runtime,
            names,
        }
    })
}

/// Walking `/` or the parent of the scratch directory is slow, not dangerous (Glob and Grep
/// only read): inputs that would do it are skipped.
fn walks_outside(name: &str, input: &Value) -> bool {
    ["Glob", "Grep"].contains(&name)
        && ["path", "pattern"].iter().any(|field| {
            input
                .get(field)
                .and_then(Value::as_str)
                .is_some_and(|text| text.starts_with('/') || text.contains(".."))
        })
}

/// Panics before a call that the rules would let run a command or write outside `work`:
/// the dispatcher makes the same check, this one does not depend on it.
fn preflight(s: &Setup, tool: &ToolInfo, input: &Value, ctx: &ToolContext<'_>) {
    let Some(parsed) = tool.builtin().and_then(|d| (d.parse)(input).ok()) else {
        return;
    };
    let subject = parsed.rule_subject(ctx);
    let verdict = s
        .rules
        .check(tool.rule_target(), subject.as_ref(), &s.scratch.work);
    let refused = matches!(verdict, Verdict::Deny(_));
    if NEVER_RUN.contains(&tool.name.as_str()) {
        let asks = matches!(verdict, Verdict::Ask(_));
        assert!(
            refused || asks,
            "{} would run {input}: {verdict:?}",
            tool.name
        );
    }
    if let Some(Subject::Path(path)) = &subject
        && path.access == Access::Write
    {
        // A path that cannot be resolved is refused, so it writes nowhere.
        let Ok(canonical) = resolve(&absolute(&s.scratch.work, &path.path)) else {
            assert!(refused, "{} ran with an unresolvable path", tool.name);
            return;
        };
        let inside = canonical.starts_with(&s.scratch.work);
        assert!(inside || refused, "{} would write {canonical:?}", tool.name);
    }
}

/// Feeds one call of a built-in: the first bytes pick the tool by name (every tool of
/// `toolreg_tools::catalog()`, special ones included, or a name outside the pool), the rest its input
/// JSON (mostly an object of the tool's own fields with values that fit their names — paths in
/// and around the scratch directory, commands, globs, regexes, edit strings — sometimes any
/// JSON). It runs through [`Dispatcher`] as the CLI wires it, with `toolreg_tools::default_state()`
/// and a `SearchEngine`, from a scratch directory in `/dev/shm` whose rules refuse every
/// command, every write outside it and reads of `/proc`, `/sys` and `/dev` (but `/dev/shm`).
///
/// Asserts: before the call, that the rules refuse to run a command or write outside the
/// directory; after it, that the tool did not panic (under libFuzzer a panic aborts even inside
/// the dispatcher's `catch_unwind`), that no command-running tool got past the pool, its input
/// check and the rules, and that the scratch directory's parent still holds only it.
pub fn dispatch(data: &[u8]) {
    let s = setup();
    let mut g = Gen::new(data);
    // By name, so an input means the same tool in every build (a gated tool that is not
    // compiled in is "no such tool").
    let (name, tool) = match s.names.get(g.below(s.names.len() + 1)) {
        Some(name) => (
            (*name).to_owned(),
            s.pool.iter().position(|t| t.name == *name),
        ),
        None => (
            g.word(&[
                "Task",
                "KillShell",
                "BashOutputTool",
                "mcp__x__y",
                "read",
                "",
            ]),
            None,
        ),
    };
    let input = match tool.and_then(|i| s.schemas.get(i)) {
        Some(schema) if g.chance(7, 8) => object_for(&mut g, schema, &s.scratch, 0),
        _ => arbitrary_json(&mut g, 3),
    };
    if walks_outside(&name, &input) {
        return;
    }
    if let Some(tool) = tool.and_then(|i| s.pool.get(i)) {
        let state = toolreg_tools::default_state();
        let ctx = ToolContext::new(&s.scratch.work, &s.env.switches)
            .with_state(&state)
            .with_permissions(&s.rules);
        preflight(s, tool, &input, &ctx);
    }
    let dispatcher = &s.dispatchers[usize::from(g.bool())];
    let call = ToolCall::new("toolu_fuzz", name.as_str(), input.clone());
    let result = s.runtime.block_on(dispatcher.dispatch(&call));
    let _ = toolreg::wire::anthropic::tool_result(&result);
    let text = match &result.content {
        ToolOutput::Text(text) => text.clone(),
        other => Value::Array(other.to_blocks()).to_string(),
    };
    assert!(
        !matches!(result.error, Some(DispatchError::Panicked { .. })),
        "{name} {input} panicked: {text}"
    );
    // A tool that runs commands or waits is refused before its body: by the pool (a name
    // outside it), its input, or the rules (no approver answers its ask rule).
    if NEVER_RUN.contains(&name.as_str()) {
        assert!(
            matches!(
                result.error,
                Some(
                    DispatchError::NotInPool { .. }
                        | DispatchError::InvalidInput { .. }
                        | DispatchError::Denied { .. }
                        | DispatchError::NeedsApproval { .. }
                )
            ),
            "{name} ran: {text}"
        );
    }
    assert_eq!(
        s.scratch.parent_listing(),
        ["work"],
        "{name} {input} wrote outside"
    );
    if result.called() && WRITERS.contains(&name.as_str()) {
        s.scratch.reset();
    }
}
