//! Rule content against command and text subjects.

/// Whether a rule's content matches a tool's input text ([`Subject::Text`](super::Subject)).
///
/// * `prefix:*` matches any input that starts with `prefix` (`npm test:*` matches `npm test -w`);
/// * otherwise `*` matches any run of characters (`src/*.rs`), and everything else must be equal.
pub fn content_matches(pattern: &str, input: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return input.starts_with(prefix);
    }
    wildcard(pattern.as_bytes(), input.as_bytes())
}

/// Whether a rule's content matches one form of a simple command ([`Subject::Command`]).
///
/// The pattern's words are taken as the shell's words, separated by single spaces, as the
/// command's forms are (see [`shell::SimpleCommand`](super::shell::SimpleCommand)).
/// * `prefix:*` matches the command `prefix` and every command whose words begin with the
///   words of `prefix`: `rm:*` matches `rm -rf x` but not `rmdir x`;
/// * otherwise `*` matches any run of characters, and everything else must be equal.
///
/// [`Subject::Command`]: super::Subject::Command
pub fn command_matches(pattern: &str, command: &str) -> bool {
    if let Some(prefix) = pattern.strip_suffix(":*") {
        let prefix = words(prefix);
        return match command.strip_prefix(prefix.as_str()) {
            Some(rest) => prefix.is_empty() || rest.is_empty() || rest.starts_with(' '),
            None => false,
        };
    }
    wildcard(words(pattern).as_bytes(), command.as_bytes())
}

/// The words of `text` joined by single spaces.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `*` matches any run of bytes; linear in the text for each star (the classic greedy match
/// with one backtrack point).
fn wildcard(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while let Some(&byte) = text.get(t) {
        match pattern.get(p) {
            Some(b'*') => {
                star = Some((p, t));
                p += 1;
            }
            Some(&want) if want == byte => {
                p += 1;
                t += 1;
            }
            _ => match star {
                Some((star_p, star_t)) => {
                    p = star_p + 1;
                    t = star_t + 1;
                    star = Some((star_p, star_t + 1));
                }
                None => return false,
            },
        }
    }
    pattern
        .get(p..)
        .unwrap_or_default()
        .iter()
        .all(|&b| b == b'*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_rule_matches_whole_words_only() {
        assert!(command_matches("rm:*", "rm"));
        assert!(command_matches("rm:*", "rm -rf x"));
        assert!(!command_matches("rm:*", "rmdir x"));
        assert!(command_matches("npm  run test:*", "npm run test -- -w"));
        assert!(!command_matches("npm run test:*", "npm run tests"));
    }

    #[test]
    fn command_wildcard_and_exact_rules() {
        assert!(command_matches("git status", "git status"));
        assert!(!command_matches("git status", "git status -s"));
        assert!(command_matches("git *", "git log"));
    }

    #[test]
    fn text_wildcards() {
        assert!(content_matches("a*c", "abbbc"));
        assert!(!content_matches("a*c", "abbbd"));
        assert!(content_matches("*", ""));
        assert!(content_matches("domain:*", "domain:example.com"));
    }
}
