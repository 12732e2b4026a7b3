//! Keyword queries as the design reads them (`docs/design.md` §9.1, §9.4): `select:` lists, and
//! terms split into required and scoring ones.

use super::{js_trim, js_words};

/// A parsed keyword query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// Terms every result must match.
    pub required: Vec<String>,
    /// The terms that score, in order.
    pub scoring: Vec<String>,
}

/// Splits a lower-cased, trimmed query into required and scoring terms.
pub fn parse_terms(query: &str) -> Terms {
    let mut required = Vec::new();
    let mut optional = Vec::new();
    for term in js_words(query) {
        match term.strip_prefix('+') {
            Some(rest) if !rest.is_empty() => required.push(rest.to_owned()),
            _ => optional.push(term.to_owned()),
        }
    }
    let scoring = if required.is_empty() {
        optional
    } else {
        required.iter().cloned().chain(optional).collect()
    };
    Terms { required, scoring }
}

/// The names listed after `select:`, when the raw query is a select query.
pub fn select_names(raw: &str) -> Option<Vec<&str>> {
    let (prefix, rest) = raw.split_at_checked(7)?;
    if !prefix.eq_ignore_ascii_case("select:") {
        return None;
    }
    // JavaScript's `.` matches no line terminator, so `^select:(.+)$` needs a one-line rest.
    if rest.is_empty() || rest.contains(['\n', '\r', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(
        rest.split(',')
            .map(js_trim)
            .filter(|name| !name.is_empty())
            .collect(),
    )
}
