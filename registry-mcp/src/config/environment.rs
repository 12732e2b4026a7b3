//! What a stdio server sees of this process's environment (see the module docs of
//! [`config`](super)).

use std::collections::BTreeMap;

use toolreg::sandbox::EnvPolicy;

use super::expand;

/// The environment of a stdio server: `inherited` ([`McpConfig::server_environment`]) with the
/// entry's `env` set on top, each value's `${VAR}` read through `lookup`.
pub(crate) fn server_environment(
    inherited: &EnvPolicy,
    env: &BTreeMap<String, String>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<EnvPolicy, String> {
    let mut policy = inherited.clone();
    for (name, value) in env {
        let value = expand(value, &lookup).map_err(|error| format!("env.{name}: {error}"))?;
        policy = policy.set(name.clone(), value);
    }
    Ok(policy)
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;

    use super::*;

    #[test]
    fn a_servers_env_is_expanded_and_set_over_what_it_inherits() {
        let env = BTreeMap::from([
            ("GITHUB_TOKEN".to_owned(), "${MY_GH}".to_owned()),
            ("MODE".to_owned(), "fast".to_owned()),
        ]);
        let lookup = |name: &str| (name == "MY_GH").then(|| "ghp_1".to_owned());
        let policy = server_environment(&EnvPolicy::default().drop("OTHER"), &env, lookup).unwrap();
        let host = [("OTHER", "o"), ("GITHUB_TOKEN", "host"), ("LANG", "C")]
            .map(|(n, v)| (OsString::from(n), OsString::from(v)));
        let seen: Vec<String> = policy
            .apply(host)
            .into_iter()
            .map(|(n, v)| format!("{}={}", n.display(), v.display()))
            .collect();
        assert_eq!(seen, ["LANG=C", "GITHUB_TOKEN=ghp_1", "MODE=fast"]);
    }

    #[test]
    fn an_unset_variable_in_env_names_the_entry() {
        let env = BTreeMap::from([("KEY".to_owned(), "${NOT_SET_ANYWHERE}".to_owned())]);
        let error = server_environment(&EnvPolicy::default(), &env, |_| None).unwrap_err();
        assert!(error.starts_with("env.KEY: "), "{error}");
    }
}
