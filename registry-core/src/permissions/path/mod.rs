//! Path rules: gitignore-style patterns over resolved paths.
//!
//! The content of a path rule (`Read(./secrets/**)`, `Edit(//etc/**)`) is a pattern read as a
//! `.gitignore` line is, from a base directory its first characters choose:
//!
//! | pattern | base | example |
//! |---|---|---|
//! | `//path` | the filesystem root | `Edit(//etc/**)` |
//! | `~/path` | the home directory | `Read(~/.ssh/**)` |
//! | `/path`, `./path` | the project root | `Read(./secrets/**)` |
//! | anything else | the project root | `Read(*.env)`, `Edit(src/generated/**)` |
//!
//! As in `.gitignore`: `*` and `?` stay within one path component, `**` crosses components,
//! `[abc]` and `{a,b}` are classes and alternatives; a pattern with no `/` but a trailing one
//! (`*.env`, `node_modules/`) matches a component at any depth; a pattern that matches a
//! directory matches everything below it (`Read(./secrets)` covers `secrets/key`, and
//! `Read(./secrets/**)` covers `secrets` itself too); a trailing `/` matches directories only.
//! `!` negation is not supported (a leading `!` is literal).
//!
//! # What a path is checked as
//!
//! The tool's path is made absolute against the context's working directory and then resolved
//! as the kernel resolves it ([`resolve`]): component by component, every symbolic link
//! followed where it stands (`/proc/self/root` and the other `/proc` links too), `..` taken
//! after the link before it, so no other spelling of a path (`secrets/../secrets/key`,
//! `./secrets//key`, a link to `secrets`, a link to the file, `/proc/self/root/…`) escapes a
//! rule. For a path that does not exist yet, the existing part is resolved and the rest
//! appended, which is where creating it would put it; `..` after a component that does not
//! exist is an error, never text (`missing/../link/key` would otherwise hide the link). The
//! bases are resolved too.
//!
//! # What a rule names
//!
//! A rule covers a path and whatever the path leads to, whether it or a link on the way was
//! made before or after the rule was written:
//!
//! * **Its literal prefix is resolved at each check.** A pattern is split at its first
//!   component holding a glob character: the leading names (`secrets` in `secrets/**`, `a/b`
//!   in `a/b/*.txt`, all of `./secrets/key.txt`) are joined to the base and resolved like any
//!   path, and the rest of the pattern is matched below *both* that path and where it leads.
//!   With `secrets -> .vault`, `Read(./secrets/**)` covers `.vault/key.txt` too, which is what
//!   `secrets/key.txt`, or a link `foo -> secrets` made later, resolves to. A link anywhere on
//!   the prefix (`Read(./a/b/**)` with `a -> x` covers `x/b/…`), chains of links, and links
//!   out of the project are followed alike.
//! * **A link the pattern names covers what is reached through it.** Besides the resolved
//!   path, each link met on the way is checked as the path reads there: the link's own path
//!   followed by the rest of the request up to its first `..`. `Read(*.env)` with
//!   `prod.env -> config/prod.cfg` refuses `prod.env`; `Read(**/secrets/**)` with
//!   `a -> /elsewhere` refuses `a/secrets/key`. The target read by its own name
//!   (`config/prod.cfg`) is covered only when the literal prefix leads to it: finding every
//!   link a glob matches takes a walk, which the sandbox's masks do at each call
//!   ([`covered_paths`](PathGuard::covered_paths)) and a check does not.
//!
//! Both widen what deny and ask rules cover. An allow rule is matched as written against the
//! resolved path only: a link made in an allowed directory (`Edit(./pub/**)` and
//! `pub/out -> /etc`) allows nothing more.
//!
//! A `~/` pattern needs the home directory. When it is not known (`HOME` unset or empty), a
//! deny or ask rule with such a pattern fails closed: it refuses every path it is checked
//! against, and an allow rule matches nothing.
//!
//! What a rule names is a path, not a file: a hard link elsewhere is another name of the same
//! file and is matched by its own path. The resolved path is what the call is checked against,
//! and dispatch hands it to the tool ([`ToolContext::checked_path`](crate::ToolContext::checked_path));
//! the file tools open it without following any link, so a link swapped in after the check
//! makes the open fail instead of leading elsewhere, and the walkers (Grep, Glob) open every
//! directory and file below it the same way, checking each against a [`PathGuard`].

use std::path::Path;
use std::sync::Arc;

mod glob;
mod resolve;

pub(crate) use glob::{Bases, PathGlob, Roots, Starts};
pub use glob::{PatternError, check_glob_nesting, exact_pattern};
pub use resolve::{LinkSpelling, PathError, absolute, resolve};
pub(crate) use resolve::{Resolved, resolve_base, resolve_traced};

/// One rule of a [`PathGuard`].
#[derive(Debug, Clone)]
struct GuardRule {
    glob: Arc<PathGlob>,
    /// The rule as text, with its source.
    rule: String,
    /// Where its literal prefix led when the guard was made; `None` for a `~/` pattern without
    /// a home directory.
    starts: Option<Starts>,
}

/// Compiled path rules that keep a directory walk out of what they cover
/// ([`PermissionContext::path_guard`](crate::PermissionContext::path_guard): the deny rules;
/// [`PermissionContext::read_restrictions`](crate::PermissionContext::read_restrictions): the
/// deny and ask rules). Where each rule's literal prefix leads is resolved when the guard is
/// made, so a rule naming a link (`Read(./secrets/**)` with `secrets -> .vault`) also covers
/// the link's target. It owns its data, so a directory walker's filter can keep it.
#[derive(Debug, Clone, Default)]
pub struct PathGuard {
    rules: Vec<GuardRule>,
}

impl PathGuard {
    pub(super) fn new(bases: Bases, rules: Vec<(Arc<PathGlob>, String)>) -> PathGuard {
        let rules = rules
            .into_iter()
            .map(|(glob, rule)| GuardRule {
                starts: glob.starts(&bases),
                glob,
                rule,
            })
            .collect();
        PathGuard { rules }
    }

    /// The rule (as text, with its source) that covers `canonical` (a path with no link on
    /// it, such as a walk that follows no link builds), if one does. A `~/` rule without a
    /// home directory covers every path (it fails closed). A pattern with a trailing `/`
    /// matches `canonical` itself only through [`denies_entry`](Self::denies_entry).
    pub fn denies(&self, canonical: &Path) -> Option<&str> {
        self.denies_entry(canonical, false)
    }

    /// [`denies`](Self::denies) for a walk that knows whether `canonical` is a directory.
    pub fn denies_entry(&self, canonical: &Path, is_dir: bool) -> Option<&str> {
        self.rules
            .iter()
            .find(|rule| match &rule.starts {
                None => true,
                Some(starts) => rule.glob.matches(starts, canonical, is_dir),
            })
            .map(|rule| rule.rule.as_str())
    }

    /// Whether no rule is in it.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Each rule with its compiled pattern and where its literal prefix led.
    pub(super) fn rules(&self) -> impl Iterator<Item = (&PathGlob, &str, Option<&Starts>)> {
        self.rules
            .iter()
            .map(|rule| (&*rule.glob, rule.rule.as_str(), rule.starts.as_ref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        let roots = Roots {
            project: Path::new("/nonexistent-project"),
            home: Some(Path::new("/nonexistent-home")),
        };
        let glob = PathGlob::new(pattern).unwrap();
        let starts = glob.starts(&Bases::new(roots)).unwrap();
        glob.matches(&starts, Path::new(path), false)
    }

    #[test]
    fn pattern_bases_follow_their_prefix() {
        assert!(matches("//etc/**", "/etc/passwd"));
        assert!(matches("~/.ssh/**", "/nonexistent-home/.ssh/id_rsa"));
        assert!(matches("./secrets/**", "/nonexistent-project/secrets/a/b"));
        assert!(matches("/secrets/**", "/nonexistent-project/secrets/a"));
        assert!(!matches("./secrets/**", "/elsewhere/secrets/a"));
    }

    #[test]
    fn pattern_without_slash_matches_at_any_depth() {
        assert!(matches("*.env", "/nonexistent-project/a/b/prod.env"));
        assert!(matches("*.env", "/nonexistent-project/prod.env"));
        assert!(!matches("src/*.env", "/nonexistent-project/a/src/prod.env"));
        assert!(matches(".env", "/nonexistent-project/a/.env"));
    }

    #[test]
    fn star_stays_in_one_component_and_double_star_crosses() {
        assert!(matches("src/*.rs", "/nonexistent-project/src/lib.rs"));
        assert!(!matches("src/*.rs", "/nonexistent-project/src/a/lib.rs"));
        assert!(matches("src/**/*.rs", "/nonexistent-project/src/a/lib.rs"));
    }

    #[test]
    fn directory_pattern_covers_what_is_below_it() {
        assert!(matches("./secrets", "/nonexistent-project/secrets/key"));
        assert!(matches(
            "node_modules/",
            "/nonexistent-project/a/node_modules/x.js"
        ));
        assert!(!matches(
            "node_modules/",
            "/nonexistent-project/a/node_modules"
        ));
    }

    #[test]
    fn resolve_appends_what_does_not_exist_yet() {
        let root = resolve(Path::new("/")).unwrap();
        assert_eq!(
            resolve(Path::new("/nonexistent-x/a/./c")).unwrap(),
            root.join("nonexistent-x/a/c")
        );
        assert_eq!(
            resolve(Path::new("/../../etc/./passwd")).unwrap(),
            resolve(Path::new("/etc/passwd")).unwrap()
        );
    }

    #[test]
    fn parent_after_a_missing_component_is_an_error_not_text() {
        let error = resolve(Path::new("/nonexistent-x/../proc/self/root/etc/shadow")).unwrap_err();
        assert!(
            matches!(&error, PathError::MissingBeforeParent { missing, .. } if missing == Path::new("/nonexistent-x")),
            "{error}"
        );
    }

    #[test]
    fn proc_magic_links_resolve_to_what_they_point_to() {
        assert_eq!(
            resolve(Path::new("/proc/self/root/etc/passwd")).unwrap(),
            resolve(Path::new("/etc/passwd")).unwrap()
        );
        let cwd = std::env::current_dir().unwrap();
        assert_eq!(
            resolve(Path::new("/proc/self/cwd")).unwrap(),
            resolve(&cwd).unwrap()
        );
    }

    #[test]
    fn relative_path_is_an_error() {
        assert!(matches!(
            resolve(Path::new("a/b")),
            Err(PathError::Relative { .. })
        ));
    }

    #[test]
    fn invalid_glob_is_an_error_naming_the_pattern() {
        let error = PathGlob::new("a/[z-a").unwrap_err();
        assert_eq!(error.pattern, "a/[z-a");
    }
}
