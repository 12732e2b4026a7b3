//! `docs/design.md` §8: deferral and the tool-search mode table.

use std::sync::Arc;

use serde_json::json;
use toolreg::env::Switches;
use toolreg::env::{Features, Provider, ToolSearchMode, ToolSearchSettings};
use toolreg::mcp::load_server;
use toolreg::pool::deferral;
use toolreg::search::{
    RequestModel, TokenCounter, is_tool_search_enabled, tool_search_might_be_on, tool_search_mode,
    tool_search_needed,
};
use toolreg::tool::Flags;
use toolreg::{Env, ToolInfo};
use toolreg_tools::profile::{self, ClaudeCode, feature, switch};

/// The mode in effect when `ENABLE_TOOL_SEARCH` holds `value` (or is unset).
fn mode(value: Option<&str>) -> ToolSearchMode {
    tool_search_mode(&settings(value, Provider::FirstParty, None))
}

#[test]
fn kill_switch_forces_standard_first() {
    let settings = ToolSearchSettings {
        mode: Some(ToolSearchMode::Always),
        kill_switch: true,
        ..Default::default()
    };
    assert_eq!(tool_search_mode(&settings), ToolSearchMode::Standard);
}

#[test]
fn auto_zero_is_always() {
    assert_eq!(mode(Some("auto:0")), ToolSearchMode::Always);
}

#[test]
fn auto_hundred_is_standard() {
    assert_eq!(mode(Some("auto:100")), ToolSearchMode::Standard);
}

#[test]
fn auto_with_percentage_is_auto() {
    assert_eq!(mode(Some("auto:1")), ToolSearchMode::Auto { percent: 1 });
    assert_eq!(mode(Some("auto:50")), ToolSearchMode::Auto { percent: 50 });
    assert_eq!(mode(Some("auto:99")), ToolSearchMode::Auto { percent: 99 });
}

#[test]
fn auto_percentage_is_an_integer_prefix_clamped() {
    assert_eq!(
        mode(Some("auto:25abc")),
        ToolSearchMode::Auto { percent: 25 }
    );
    assert_eq!(mode(Some("auto: 30")), ToolSearchMode::Auto { percent: 30 });
    assert_eq!(
        mode(Some("auto:12.9")),
        ToolSearchMode::Auto { percent: 12 }
    );
    assert_eq!(mode(Some("auto:-5")), ToolSearchMode::Always);
    assert_eq!(mode(Some("auto:250")), ToolSearchMode::Standard);
}

#[test]
fn bare_auto_and_auto_without_number_are_ten_percent() {
    assert_eq!(mode(Some("auto")), ToolSearchMode::Auto { percent: 10 });
    assert_eq!(mode(Some("auto:")), ToolSearchMode::Auto { percent: 10 });
    assert_eq!(mode(Some("auto:x")), ToolSearchMode::Auto { percent: 10 });
}

#[test]
fn truthy_value_is_always() {
    for value in ["1", "true", "yes", "on", "TRUE"] {
        assert_eq!(mode(Some(value)), ToolSearchMode::Always, "{value}");
    }
}

#[test]
fn falsy_value_is_standard() {
    for value in ["0", "false", "no", "off", "Off"] {
        assert_eq!(mode(Some(value)), ToolSearchMode::Standard, "{value}");
    }
}

#[test]
fn unset_empty_or_other_is_always() {
    assert_eq!(mode(None), ToolSearchMode::Always);
    assert_eq!(mode(Some("")), ToolSearchMode::Always);
    assert_eq!(mode(Some("banana")), ToolSearchMode::Always);
}

#[test]
fn auto_matching_is_case_sensitive() {
    assert_eq!(mode(Some("AUTO")), ToolSearchMode::Always);
    assert_eq!(mode(Some("Auto:50")), ToolSearchMode::Always);
}

/// The settings the design reads from `ENABLE_TOOL_SEARCH`, the provider's variable and
/// `ANTHROPIC_BASE_URL`.
fn settings(value: Option<&str>, provider: Provider, base_url: Option<&str>) -> ToolSearchSettings {
    let provider_variable = match provider {
        Provider::FirstParty => None,
        Provider::Bedrock => Some("CLAUDE_CODE_USE_BEDROCK"),
        Provider::Vertex => Some("CLAUDE_CODE_USE_VERTEX"),
        Provider::Foundry => Some("CLAUDE_CODE_USE_FOUNDRY"),
    };
    let settings = profile::env_from_lookup(Features::none(), |name| match name {
        "ENABLE_TOOL_SEARCH" => value.map(str::to_owned),
        "ANTHROPIC_BASE_URL" => base_url.map(str::to_owned),
        _ => (Some(name) == provider_variable).then(|| "1".to_owned()),
    })
    .tool_search;
    assert_eq!(settings.provider, provider);
    settings
}

#[test]
fn optimistic_check_is_false_in_standard_mode() {
    assert!(!tool_search_might_be_on(&settings(
        Some("false"),
        Provider::FirstParty,
        None
    )));
}

#[test]
fn optimistic_check_is_false_for_unset_variable_behind_a_proxy() {
    let proxied = settings(
        None,
        Provider::FirstParty,
        Some("https://gateway.example.com"),
    );
    assert!(!tool_search_might_be_on(&proxied));
    // Setting the variable explicitly opts in even behind a proxy.
    let opted_in = settings(
        Some("true"),
        Provider::FirstParty,
        Some("https://gateway.example.com"),
    );
    assert!(tool_search_might_be_on(&opted_in));
    // Other providers are not first-party, so a base URL does not matter.
    assert!(tool_search_might_be_on(&settings(
        None,
        Provider::Bedrock,
        Some("https://x")
    )));
}

#[test]
fn optimistic_check_is_true_on_the_first_party_host() {
    assert!(tool_search_might_be_on(&settings(
        None,
        Provider::FirstParty,
        None
    )));
    assert!(tool_search_might_be_on(&settings(
        None,
        Provider::FirstParty,
        Some("https://api.anthropic.com")
    )));
}

fn deferred_tool(name: &str, flags: Flags) -> Arc<ToolInfo> {
    let mut tool = ToolInfo::new(name, "x");
    tool.flags = flags;
    Arc::new(tool)
}

fn env_with(features: Features, switches: Switches) -> Env {
    Env {
        features,
        switches,
        ..Env::with_profile(ClaudeCode)
    }
}

#[test]
fn always_load_is_never_deferred_even_for_mcp() {
    let loaded = load_server(
        "s",
        &json!([{"name": "t", "inputSchema": {}, "_meta": {"anthropic/alwaysLoad": true}}]),
    );
    assert!(!deferral(&loaded.tools[0], &Env::with_profile(ClaudeCode)));
}

#[test]
fn mcp_tools_are_deferred() {
    let loaded = load_server("s", &json!([{"name": "t", "inputSchema": {}}]));
    assert!(deferral(&loaded.tools[0], &Env::with_profile(ClaudeCode)));
    let named = deferred_tool("mcp__x__y", Flags::NONE);
    assert!(deferral(&named, &Env::with_profile(ClaudeCode)));
}

#[test]
fn tool_search_is_never_deferred() {
    let tool = deferred_tool(
        "ToolSearch",
        Flags {
            defer: true,
            ..Flags::NONE
        },
    );
    assert!(!deferral(&tool, &Env::with_profile(ClaudeCode)));
}

#[test]
fn fork_first_agent_is_not_deferred() {
    let agent = deferred_tool(
        "Agent",
        Flags {
            defer: true,
            ..Flags::NONE
        },
    );
    let mut features = Features::none();
    features.set(feature::FORK_SUBAGENT, true);
    let mut switches = Switches::default();
    assert!(deferral(
        &agent,
        &env_with(features.clone(), switches.clone())
    ));
    switches.set(switch::FORK_SUBAGENT, true);
    assert!(!deferral(&agent, &env_with(features, switches.clone())));
    assert!(deferral(&agent, &env_with(Features::none(), switches)));
}

#[test]
fn brief_under_kairos_is_not_deferred() {
    let brief = deferred_tool(
        "Brief",
        Flags {
            defer: true,
            ..Flags::NONE
        },
    );
    assert!(deferral(&brief, &Env::with_profile(ClaudeCode)));
    let mut features = Features::none();
    features.set(feature::KAIROS_BRIEF, true);
    assert!(!deferral(&brief, &env_with(features, Switches::default())));
}

#[test]
fn send_user_file_needs_kairos_and_the_bridge() {
    let tool = deferred_tool(
        "SendUserFile",
        Flags {
            defer: true,
            ..Flags::NONE
        },
    );
    let mut features = Features::none();
    features.set(feature::KAIROS, true);
    assert!(deferral(
        &tool,
        &env_with(features.clone(), Switches::default())
    ));
    let mut switches = Switches::default();
    switches.set(switch::BRIDGE_ACTIVE, true);
    assert!(!deferral(&tool, &env_with(features, switches)));
}

#[test]
fn otherwise_the_defer_flag_decides() {
    assert!(deferral(
        &deferred_tool(
            "WebFetch",
            Flags {
                defer: true,
                ..Flags::NONE
            }
        ),
        &Env::with_profile(ClaudeCode)
    ));
    assert!(!deferral(
        &deferred_tool("Bash", Flags::NONE),
        &Env::with_profile(ClaudeCode)
    ));
}

fn pool_with_search(extra: Vec<Arc<ToolInfo>>) -> Vec<Arc<ToolInfo>> {
    let mut pool = vec![Arc::new(ToolInfo::new("ToolSearch", "search"))];
    pool.extend(extra);
    pool
}

fn env_mode(value: &str) -> Env {
    Env {
        tool_search: settings(Some(value), Provider::FirstParty, None),
        ..Env::with_profile(ClaudeCode)
    }
}

#[test]
fn design_profile_takes_haiku_models_to_lack_tool_references() {
    let pool = pool_with_search(vec![]);
    assert!(!is_tool_search_enabled(
        &env_mode("true"),
        &pool,
        &RequestModel::new("claude-3-5-HAIKU", 200_000)
    ));
    assert!(is_tool_search_enabled(
        &env_mode("true"),
        &pool,
        &RequestModel::new("claude-sonnet-4", 200_000)
    ));
}

#[test]
fn unsupported_model_list_is_configurable() {
    let pool = pool_with_search(vec![]);
    let mut model = RequestModel::new("tiny-model", 1000);
    model.unsupported_models = Some(&["tiny"]);
    assert!(!is_tool_search_enabled(&env_mode("true"), &pool, &model));
    // The request's list replaces the profile's.
    let mut haiku = RequestModel::new("claude-haiku-4-5", 1000);
    haiku.unsupported_models = Some(&[]);
    assert!(is_tool_search_enabled(&env_mode("true"), &pool, &haiku));
}

#[test]
fn generic_profile_lets_every_model_use_tool_references() {
    let pool = pool_with_search(vec![]);
    let env = Env {
        tool_search: env_mode("true").tool_search,
        ..Env::default()
    };
    assert!(is_tool_search_enabled(
        &env,
        &pool,
        &RequestModel::new("claude-haiku-4-5", 200_000)
    ));
}

#[test]
fn definitive_check_needs_tool_search_in_the_pool() {
    let pool = vec![Arc::new(ToolInfo::new("Bash", "x"))];
    assert!(!is_tool_search_enabled(
        &env_mode("true"),
        &pool,
        &RequestModel::new("m", 1000)
    ));
    let mut aliased = ToolInfo::new("Finder", "x");
    aliased.aliases = vec!["ToolSearch".into()];
    assert!(is_tool_search_enabled(
        &env_mode("true"),
        &[Arc::new(aliased)],
        &RequestModel::new("m", 1000)
    ));
}

#[test]
fn standard_mode_is_off_for_every_request() {
    let pool = pool_with_search(vec![]);
    assert!(!is_tool_search_enabled(
        &env_mode("false"),
        &pool,
        &RequestModel::new("m", 1000)
    ));
}

#[test]
fn auto_mode_without_counter_compares_characters_against_threshold_times_two_and_a_half() {
    // 10% of 1,000 tokens = 100 tokens ≈ 250 characters.
    let mut big = ToolInfo::new("mcp__s__t", "d".repeat(250));
    big.input_schema = Arc::from("{}");
    let pool = pool_with_search(vec![Arc::new(big)]);
    assert!(is_tool_search_enabled(
        &env_mode("auto:10"),
        &pool,
        &RequestModel::new("m", 1000)
    ));
    let small = ToolInfo::new("mcp__s__t", "d".repeat(10));
    let pool = pool_with_search(vec![Arc::new(small)]);
    assert!(!is_tool_search_enabled(
        &env_mode("auto:10"),
        &pool,
        &RequestModel::new("m", 1000)
    ));
}

struct Fixed(u64);
impl TokenCounter for Fixed {
    fn count_tool_tokens(&self, _: &[&ToolInfo]) -> u64 {
        self.0
    }
}

#[test]
fn auto_mode_with_counter_subtracts_the_preamble() {
    let pool = pool_with_search(vec![deferred_tool("mcp__s__t", Flags::NONE)]);
    let mut model = RequestModel::new("m", 1000);
    model.counter = Some(&Fixed(599));
    assert!(!is_tool_search_enabled(&env_mode("auto:10"), &pool, &model));
    model.counter = Some(&Fixed(600));
    assert!(is_tool_search_enabled(&env_mode("auto:10"), &pool, &model));
}

#[test]
fn request_needs_deferred_tools_or_pending_servers() {
    let _env = Env::with_profile(ClaudeCode);
    let plain = vec![Arc::new(ToolInfo::new("Bash", "x"))];
    assert!(!tool_search_needed(&plain, 0));
    assert!(tool_search_needed(&plain, 1));
    let with_mcp = vec![deferred_tool("mcp__a__b", Flags::NONE)];
    assert!(tool_search_needed(&with_mcp, 0));
}
