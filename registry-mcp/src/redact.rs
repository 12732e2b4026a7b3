//! URLs as they may be shown. A URL can carry a credential — a key in its query
//! (`?api_key=…`), its userinfo (`https://user:token@host`), a token in its fragment — and
//! error messages quote it (an HTTP client's "error sending request for url (…)"). Wherever
//! toolreg shows a URL, those parts are replaced by `***`, as header values are never shown:
//! the query keeps its keys, so `?api_key=***&region=***` still tells which parameters were
//! sent.
//!
//! ```
//! use toolreg_mcp::redact;
//!
//! assert_eq!(
//!     redact::url("https://me:s3cret@api.example/mcp?api_key=k3y&v=2#frag"),
//!     "https://***@api.example/mcp?api_key=***&v=***#***"
//! );
//! assert_eq!(
//!     redact::urls_in("error sending request for url (http://127.0.0.1:9/mcp?key=abc)"),
//!     "error sending request for url (http://127.0.0.1:9/mcp?key=***)"
//! );
//! ```

use std::borrow::Cow;

/// What replaces a secret part.
const HIDDEN: &str = "***";

/// `url` with its userinfo, each query value and its fragment replaced by `***`; unchanged
/// (borrowed) when it has none of them. Text without `://` is returned as it is.
pub fn url(url: &str) -> Cow<'_, str> {
    let Some(scheme_end) = url.find("://") else {
        return Cow::Borrowed(url);
    };
    let after = scheme_end + 3;
    let rest = url.get(after..).unwrap_or_default();
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = rest.get(..authority_end).unwrap_or_default();
    let tail = rest.get(authority_end..).unwrap_or_default();
    let (path, query, fragment) = split_tail(tail);
    let userinfo = authority.rfind('@');
    if userinfo.is_none() && query.is_none() && fragment.is_none() {
        return Cow::Borrowed(url);
    }
    let mut out = String::with_capacity(url.len());
    out.push_str(url.get(..after).unwrap_or_default());
    match userinfo {
        Some(at) => {
            out.push_str(HIDDEN);
            out.push_str(authority.get(at..).unwrap_or_default());
        }
        None => out.push_str(authority),
    }
    out.push_str(path);
    if let Some(query) = query {
        out.push('?');
        for (k, pair) in query.split('&').enumerate() {
            if k > 0 {
                out.push('&');
            }
            match pair.split_once('=') {
                Some((key, _)) => {
                    out.push_str(key);
                    out.push('=');
                    out.push_str(HIDDEN);
                }
                None if pair.is_empty() => {}
                None => out.push_str(HIDDEN),
            }
        }
    }
    if fragment.is_some() {
        out.push('#');
        out.push_str(HIDDEN);
    }
    Cow::Owned(out)
}

/// A URL's path, query (without `?`) and fragment (without `#`).
fn split_tail(tail: &str) -> (&str, Option<&str>, Option<&str>) {
    let (before_fragment, fragment) = match tail.split_once('#') {
        Some((before, fragment)) => (before, Some(fragment)),
        None => (tail, None),
    };
    match before_fragment.split_once('?') {
        Some((path, query)) => (path, Some(query), fragment),
        None => (before_fragment, None, fragment),
    }
}

/// `text` with every URL in it (`scheme://…`, up to a space, a quote or an angle bracket)
/// passed through [`url`](fn@url). Punctuation that ends a sentence, and a `)` that closes a
/// parenthesis opened before the URL, stay outside it.
pub fn urls_in(text: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some(found) = text.get(from..).and_then(|rest| rest.find("://")) {
        let marker = from + found;
        let start = scheme_start(text, marker);
        let end = url_end(text, marker + 3);
        from = end.max(marker + 3);
        let Some(start) = start else { continue };
        let (Some(original), Some(before)) = (text.get(start..end), text.get(copied..start)) else {
            continue;
        };
        if let Cow::Owned(redacted) = url(original) {
            out.push_str(before);
            out.push_str(&redacted);
            copied = end;
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(text.get(copied..).unwrap_or_default());
    Cow::Owned(out)
}

/// Where the scheme before the `://` at `marker` starts: letters, digits, `+`, `-`, `.`,
/// beginning with a letter, not preceded by another such character.
fn scheme_start(text: &str, marker: usize) -> Option<usize> {
    let before = text.get(..marker)?;
    let is_scheme = |c: char| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.');
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_scheme(*c))
        .last()
        .map(|(at, _)| at)?;
    let first = text.get(start..)?.chars().next()?;
    first.is_ascii_alphabetic().then_some(start)
}

/// Where the URL whose `://` ends at `from` ends.
fn url_end(text: &str, from: usize) -> usize {
    let rest = text.get(from..).unwrap_or_default();
    let stop = rest
        .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '`'))
        .unwrap_or(rest.len());
    let mut candidate = rest.get(..stop).unwrap_or_default();
    loop {
        let trimmed = candidate.trim_end_matches(['.', ',', ';', ':', '!']);
        let unbalanced =
            trimmed.ends_with(')') && trimmed.matches(')').count() > trimmed.matches('(').count();
        candidate = if unbalanced {
            trimmed.get(..trimmed.len() - 1).unwrap_or_default()
        } else {
            trimmed
        };
        if !unbalanced {
            break;
        }
    }
    from + candidate.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_query_values_and_fragment_are_hidden() {
        assert_eq!(
            url("https://user:pass@host.example:8443/mcp"),
            "https://***@host.example:8443/mcp"
        );
        assert_eq!(url("https://token@host/"), "https://***@host/");
        assert_eq!(
            url("http://h/mcp?api_key=abc&flag&x="),
            "http://h/mcp?api_key=***&***&x=***"
        );
        assert_eq!(url("http://h/p#access_token=x"), "http://h/p#***");
        assert_eq!(url("http://h?k=v"), "http://h?k=***");
    }

    #[test]
    fn a_url_without_secrets_is_returned_as_it_is() {
        assert!(matches!(url("https://host/mcp"), Cow::Borrowed(_)));
        assert!(matches!(url("not a url"), Cow::Borrowed(_)));
        assert!(matches!(urls_in("no url here"), Cow::Borrowed(_)));
        assert!(matches!(
            urls_in("see https://host/mcp for more"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn urls_in_text_are_found_and_the_text_around_them_kept() {
        assert_eq!(
            urls_in("a (http://u:p@h/x?k=v) b, then `https://h?t=1`. end"),
            "a (http://***@h/x?k=***) b, then `https://h?t=***`. end"
        );
        assert_eq!(
            urls_in("ftp://me:pw@files/x and http://h/ok?x=1."),
            "ftp://***@files/x and http://h/ok?x=***."
        );
        assert_eq!(urls_in("://nothing?k=v"), "://nothing?k=v");
        assert_eq!(urls_in("9://x?k=v"), "9://x?k=v");
        assert_eq!(urls_in("http://h/a(b)?k=v"), "http://h/a(b)?k=***");
    }
}
