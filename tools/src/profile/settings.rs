//! The design's settings as its product reads them: the environment variables, the grammar of
//! `ENABLE_TOOL_SEARCH`, the first-party API's host and the beta headers. The generic core sees
//! only their typed result, an [`Env`].

use toolreg::env::Betas;
use toolreg::env::{Features, is_falsy, is_truthy};
use toolreg::env::{Provider, ToolSearchMode, ToolSearchSettings};
use toolreg::{Env, PermissionContext};

use super::{ClaudeCode, names, switch};

/// The host of the first-party API; a base URL elsewhere is a proxy.
pub const API_HOST: &str = "api.anthropic.com";

/// The design's `anthropic-beta` headers (`docs/design.md` §10.8): `advanced-tool-use-2025-11-20`
/// on the first-party API, `tool-search-tool-2025-10-19` on the other clouds.
pub const BETAS: Betas = Betas {
    first_party: Some("advanced-tool-use-2025-11-20"),
    other_clouds: Some("tool-search-tool-2025-10-19"),
};

/// The percentage `ENABLE_TOOL_SEARCH=auto` uses when no number is given.
pub const DEFAULT_AUTO_PERCENT: u8 = 10;

/// The design's environment: this profile, `features` from the tools crate, and the switches and
/// tool-search settings read from the process environment.
///
/// Variables: those of [`switch::VARIABLES`], `ENABLE_TOOL_SEARCH` (read by
/// [`parse_tool_search_mode`]), `CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS` (the kill switch),
/// `CLAUDE_CODE_USE_BEDROCK`, `CLAUDE_CODE_USE_VERTEX`, `CLAUDE_CODE_USE_FOUNDRY`,
/// `ANTHROPIC_BASE_URL` (a proxy unless [`is_api_url`]). A switch is on when its variable is
/// truthy: `1`, `true`, `yes` or `on`, in any case.
pub fn env_from_env(features: Features) -> Env {
    env_from_lookup(features, |name| std::env::var(name).ok())
}

/// Like [`env_from_env`], over any variable lookup (for tests and embedding).
pub fn env_from_lookup(features: Features, get: impl Fn(&str) -> Option<String>) -> Env {
    let on = |name: &str| get(name).is_some_and(|value| is_truthy(&value));
    let provider = if on("CLAUDE_CODE_USE_BEDROCK") {
        Provider::Bedrock
    } else if on("CLAUDE_CODE_USE_VERTEX") {
        Provider::Vertex
    } else if on("CLAUDE_CODE_USE_FOUNDRY") {
        Provider::Foundry
    } else {
        Provider::FirstParty
    };
    let mut env = env(features);
    for (name, variable) in switch::VARIABLES {
        env.switches.set(name, on(variable));
    }
    env.tool_search = ToolSearchSettings {
        mode: get("ENABLE_TOOL_SEARCH").map(|value| parse_tool_search_mode(&value)),
        kill_switch: on("CLAUDE_CODE_DISABLE_EXPERIMENTAL_BETAS"),
        provider,
        proxied: get("ANTHROPIC_BASE_URL")
            .is_some_and(|url| !url.trim().is_empty() && !is_api_url(&url)),
    };
    env
}

/// The design's environment with nothing read from the process: this profile, `features`,
/// every switch off, default tool-search settings.
pub fn env(features: Features) -> Env {
    Env {
        features,
        ..Env::with_profile(ClaudeCode)
    }
}

/// A permission context for the design: no rules yet, the [legacy names](names::LEGACY) renamed
/// in every rule added, and `HOME` from the process as the home directory of `~/` path rules.
pub fn permissions_from_env() -> PermissionContext {
    let mut rules = permissions();
    if let Some(home) = std::env::var_os("HOME").filter(|home| !home.is_empty()) {
        rules.set_home(home);
    }
    rules
}

/// Like [`permissions_from_env`], with nothing read from the process (no home directory).
pub fn permissions() -> PermissionContext {
    let mut rules = PermissionContext::new();
    rules.set_legacy_names(names::LEGACY);
    rules
}

/// The mode an `ENABLE_TOOL_SEARCH` value sets (the kill switch, read apart, overrides it):
///
/// | value | mode |
/// |---|---|
/// | `auto:N` (N read like an integer prefix, clamped to 0..=100) | N = 0 → always; N = 100 → standard; else auto N% |
/// | `auto`, `auto:` or `auto:` without a leading number | auto 10% |
/// | `1`, `true`, `yes`, `on` | always |
/// | `0`, `false`, `no`, `off` | standard |
/// | empty, anything else (also `AUTO`: `auto` is case-sensitive) | always |
///
/// An unset variable is no choice at all (`None` in [`ToolSearchSettings::mode`]), which differs
/// from `always` behind a proxy.
pub fn parse_tool_search_mode(value: &str) -> ToolSearchMode {
    let auto = |percent| ToolSearchMode::Auto { percent };
    if value == "auto" {
        return auto(DEFAULT_AUTO_PERCENT);
    }
    if let Some(number) = value.strip_prefix("auto:") {
        return match parse_int_prefix(number) {
            None => auto(DEFAULT_AUTO_PERCENT),
            Some(n) if n <= 0 => ToolSearchMode::Always,
            Some(n) if n >= 100 => ToolSearchMode::Standard,
            // 1..=99: fits.
            Some(n) => auto(u8::try_from(n).unwrap_or(DEFAULT_AUTO_PERCENT)),
        };
    }
    // Truthy, empty and unknown values alike are always.
    if is_falsy(value) {
        ToolSearchMode::Standard
    } else {
        ToolSearchMode::Always
    }
}

/// Reads an integer the way JavaScript's `parseInt(text, 10)` does: leading whitespace, an
/// optional sign, then digits; `None` when there are no digits. Saturates instead of overflowing.
fn parse_int_prefix(text: &str) -> Option<i64> {
    let text = text.trim_start();
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit);
    let mut seen = false;
    let magnitude = digits.fold(0i64, |acc, digit| {
        seen = true;
        acc.saturating_mul(10)
            .saturating_add(i64::from(digit - b'0'))
    });
    seen.then_some(if negative { -magnitude } else { magnitude })
}

/// Whether a base URL points at the first-party API's host ([`API_HOST`], in any case, with any
/// port, path or credentials). A URL without a host counts as the API's.
pub fn is_api_url(url: &str) -> bool {
    url_host(url).is_none_or(|host| host.eq_ignore_ascii_case(API_HOST))
}

/// The host part of a URL: after `scheme://`, before the port, path, query or fragment.
fn url_host(url: &str) -> Option<&str> {
    let rest = url
        .trim()
        .split_once("://")
        .map_or(url.trim(), |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = if let Some(bracketed) = host_port.strip_prefix('[') {
        bracketed.split(']').next()?
    } else {
        host_port.split(':').next()?
    };
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truthy_values_turn_a_switch_on() {
        let env = env_from_lookup(Features::none(), |name| {
            (name == "CLAUDE_CODE_SIMPLE").then(|| " TRUE ".to_string())
        });
        assert!(env.switches.is_on(switch::SIMPLE));
        assert!(!env.switches.is_on(switch::REPL));
    }

    #[test]
    fn falsy_and_unknown_values_leave_a_switch_off() {
        for value in ["0", "false", "off", "maybe", ""] {
            let env = env_from_lookup(Features::none(), |name| {
                (name == "ENABLE_LSP_TOOL").then(|| value.into())
            });
            assert!(!env.switches.is_on(switch::LSP), "{value:?}");
        }
    }

    #[test]
    fn provider_comes_from_the_use_variables() {
        let env = env_from_lookup(Features::none(), |name| {
            (name == "CLAUDE_CODE_USE_VERTEX").then(|| "1".into())
        });
        assert_eq!(env.tool_search.provider, Provider::Vertex);
    }

    #[test]
    fn base_url_host_is_compared_without_port_path_or_credentials() {
        assert!(is_api_url("https://api.anthropic.com/v1"));
        assert!(is_api_url("https://API.anthropic.com:443"));
        assert!(!is_api_url("https://proxy.example.com/anthropic"));
        assert!(!is_api_url("http://user@localhost:8080"));
    }

    #[test]
    fn a_blank_base_url_is_no_proxy() {
        let env = env_from_lookup(Features::none(), |name| {
            (name == "ANTHROPIC_BASE_URL").then(|| "  ".into())
        });
        assert!(!env.tool_search.proxied);
    }

    #[test]
    fn int_prefix_reads_like_javascript_parse_int() {
        assert_eq!(parse_int_prefix("42"), Some(42));
        assert_eq!(parse_int_prefix(" 42abc"), Some(42));
        assert_eq!(parse_int_prefix(""), None);
        assert_eq!(parse_int_prefix("-7"), Some(-7));
        assert_eq!(parse_int_prefix("+3"), Some(3));
        assert_eq!(parse_int_prefix("x1"), None);
        assert_eq!(parse_int_prefix("-"), None);
        assert_eq!(parse_int_prefix("99999999999999999999999"), Some(i64::MAX));
    }
}
