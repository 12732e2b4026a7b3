//! `${VAR}` in a server list or a tokens file: what [`expand`] makes of it, which variables
//! [`variables`] finds, and serde messages that quote no value ([`without_quoted_strings`]).

/// `value` with each `${VAR}` replaced by `lookup(VAR)`, and each `${VAR:-default}` by the
/// variable's value or, when it is unset or empty, `default`. A `$` not followed by `{` stays.
///
/// # Errors
/// The variable that is unset (and has no default), a `${` left open, or a `${…}` that does not
/// hold a variable name. The message names the variable, never a value, nor what stands between
/// the braces when it is no name (a token pasted there by mistake).
pub fn expand(value: &str, lookup: impl Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        out.push_str(rest.get(..start).unwrap_or_default());
        let after = rest.get(start + 2..).unwrap_or_default();
        let end = after
            .find('}')
            .ok_or_else(|| "a `${` without its `}`".to_owned())?;
        let inner = after.get(..end).unwrap_or_default();
        let (name, default) = match inner.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (inner, None),
        };
        if !is_variable_name(name) {
            let at = value.len() - rest.len() + start;
            return Err(format!(
                "the `${{…}}` at byte {at} does not name a variable (letters, digits and `_`)"
            ));
        }
        match (lookup(name).filter(|found| !found.is_empty()), default) {
            (Some(found), _) => out.push_str(&found),
            (None, Some(default)) => out.push_str(default),
            (None, None) => return Err(format!("the variable {name} is not set")),
        }
        rest = after.get(end + 1..).unwrap_or_default();
    }
    out.push_str(rest);
    Ok(out)
}

fn is_variable_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The variables `value` names as [`expand`] reads it (`${VAR}`, `${VAR:-default}`), in order,
/// each once.
///
/// ```
/// use toolreg_mcp::config::variables;
/// assert_eq!(variables("Bearer ${TOKEN} ${REGION:-eu} $5 ${TOKEN}"), ["TOKEN", "REGION"]);
/// ```
pub fn variables(value: &str) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    let mut rest = value;
    while let Some(start) = rest.find("${") {
        let after = rest.get(start + 2..).unwrap_or_default();
        let Some(end) = after.find('}') else { break };
        let inner = after.get(..end).unwrap_or_default();
        let name = inner.split_once(":-").map_or(inner, |(name, _)| name);
        if is_variable_name(name) && !names.contains(&name) {
            names.push(name);
        }
        rest = after.get(end + 1..).unwrap_or_default();
    }
    names
}

/// A serde message with the string values it quotes left out (`invalid type: string "…",
/// expected a map` → `invalid type: string, expected a map`): a value in the wrong place may be
/// a token.
pub(crate) fn without_quoted_strings(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("string \"") {
        out.push_str(rest.get(..at + "string".len()).unwrap_or_default());
        let quoted = rest.get(at + "string \"".len()..).unwrap_or_default();
        let mut escaped = false;
        let close = quoted.char_indices().find(|&(_, c)| {
            let closes = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            closes
        });
        rest = match close {
            Some((end, _)) => quoted.get(end + 1..).unwrap_or_default(),
            None => "",
        };
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_variables_expand_from_the_lookup_with_defaults() {
        let lookup = |name: &str| (name == "TOKEN").then(|| "t0k".to_owned());
        assert_eq!(expand("Bearer ${TOKEN}", lookup).unwrap(), "Bearer t0k");
        assert_eq!(
            expand("${MISSING:-fallback}/${TOKEN}", lookup).unwrap(),
            "fallback/t0k"
        );
        assert_eq!(expand("cost: $5", lookup).unwrap(), "cost: $5");
        assert_eq!(
            expand("${MISSING}", lookup).unwrap_err(),
            "the variable MISSING is not set"
        );
        assert_eq!(
            expand("${TOKEN", lookup).unwrap_err(),
            "a `${` without its `}`"
        );
        assert_eq!(
            expand("x${A B}", lookup).unwrap_err(),
            "the `${…}` at byte 1 does not name a variable (letters, digits and `_`)"
        );
    }

    #[test]
    fn expansion_errors_never_quote_what_stands_in_the_braces() {
        let lookup = |_: &str| None;
        let error = expand("Bearer ${sk-live-0123456789abcdef}", lookup).unwrap_err();
        assert!(!error.contains("sk-live"), "{error}");
        assert!(error.contains("byte 7"), "{error}");
    }
}
