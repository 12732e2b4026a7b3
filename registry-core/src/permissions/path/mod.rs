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
//! directory matches everything below it (`Read(./secrets)` covers `secrets/key`); a trailing
//! `/` matches directories only. `!` negation is not supported (a leading `!` is literal).
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
//! A `~/` pattern needs the home directory. When it is not known (`HOME` unset or empty), a
//! deny or ask rule with such a pattern fails closed: it refuses every path it is checked
//! against, and an allow rule matches nothing.
//!
//! What a rule names is a path, not a file: a hard link elsewhere is another name of the same
//! file and is matched by its own path. The resolved path is what the call is checked against,
//! and dispatch hands it to the tool ([`ToolContext::checked_path`](crate::ToolContext::checked_path));
//! the file tools open it without following any link, so a link swapped in after the check
//! makes the open fail instead of leading elsewhere.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{GlobBuilder, GlobMatcher};

mod resolve;

pub(crate) use resolve::resolve_base;
pub use resolve::{PathError, absolute, resolve};

/// The directories patterns are relative to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Roots<'a> {
    /// The project root: the base of `/path`, `./path` and bare patterns.
    pub project: &'a Path,
    /// The home directory: the base of `~/path`; without one, such patterns match nothing.
    pub home: Option<&'a Path>,
}

/// How deeply `{…}` alternatives may nest in a glob: the glob parser recurses once per level,
/// so a pattern of thousands of nested braces would overflow the stack; it is refused before it
/// is parsed.
pub(crate) const MAX_GLOB_NESTING: usize = 32;

/// Refuses a glob whose `{…}` alternatives nest deeper than 32, before any
/// parser sees it; the error says how deep and where the limit was passed.
///
/// ```
/// use toolreg::permissions::path::check_glob_nesting;
/// assert!(check_glob_nesting("src/**/*.{rs,toml}").is_ok());
/// assert!(check_glob_nesting(&"{".repeat(20_000)).is_err());
/// ```
pub fn check_glob_nesting(pattern: &str) -> Result<(), String> {
    let (mut depth, mut escaped) = (0usize, false);
    for (at, byte) in pattern.bytes().enumerate() {
        match byte {
            _ if escaped => escaped = false,
            b'\\' => escaped = true,
            b'{' => {
                depth += 1;
                if depth > MAX_GLOB_NESTING {
                    return Err(format!(
                        "alternatives nest deeper than {MAX_GLOB_NESTING} levels (at byte {at})"
                    ));
                }
            }
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// The path pattern that names exactly `path`, an absolute path: `//` and the path with every
/// glob character (`*`, `?`, `[`, `]`, `{`, `}`, `\`) escaped, for a rule about one file
/// whatever its name holds. `None` for a relative path or one that is not UTF-8. Resolve the
/// path first ([`resolve`]): rules are matched against resolved paths.
///
/// ```
/// use std::path::Path;
/// use toolreg::permissions::path::exact_pattern;
/// use toolreg::permissions::RuleValue;
///
/// let pattern = exact_pattern(Path::new("/srv/keys[1]/*.json")).unwrap();
/// assert_eq!(pattern, r"//srv/keys\[1\]/\*.json");
/// let rule = RuleValue { tool: "Read".into(), content: Some(pattern) }.to_string();
/// assert_eq!(RuleValue::parse(&rule).content.as_deref(), Some(r"//srv/keys\[1\]/\*.json"));
/// ```
pub fn exact_pattern(path: &Path) -> Option<String> {
    if !path.is_absolute() {
        return None;
    }
    let text = path.to_str()?;
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('/');
    for c in text.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    Some(pattern)
}

/// A rule's path pattern that is not a valid glob.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    /// The pattern as written.
    pub pattern: String,
    /// What the glob parser said.
    pub message: String,
}

impl std::fmt::Display for PatternError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "`{}` is not a valid path pattern: {}",
            self.pattern, self.message
        )
    }
}

impl std::error::Error for PatternError {}

/// The directory a path pattern is relative to, chosen by its first characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    /// `//path`: the filesystem root.
    Root,
    /// `~` and `~/path`: the home directory.
    Home,
    /// Everything else: the project root.
    Project,
}

/// A path pattern's glob, compiled once per rule: everything but the base directory, which
/// depends on the roots of the call.
#[derive(Debug, Clone)]
pub(crate) struct PathGlob {
    anchor: Anchor,
    glob: GlobMatcher,
    dir_only: bool,
}

impl PathGlob {
    /// Compiles a rule's pattern.
    pub fn new(pattern: &str) -> Result<PathGlob, PatternError> {
        let (anchor, rest, anchored) = if let Some(rest) = pattern.strip_prefix("//") {
            (Anchor::Root, rest, true)
        } else if pattern == "~" {
            (Anchor::Home, "", true)
        } else if let Some(rest) = pattern.strip_prefix("~/") {
            (Anchor::Home, rest, true)
        } else if let Some(rest) = pattern.strip_prefix("./") {
            (Anchor::Project, rest, true)
        } else if let Some(rest) = pattern.strip_prefix('/') {
            (Anchor::Project, rest, true)
        } else {
            (Anchor::Project, pattern, false)
        };
        let dir_only = rest.ends_with('/');
        let rest = rest.trim_end_matches('/');
        let glob = if rest.is_empty() {
            "**".to_owned()
        } else if anchored || rest.contains('/') {
            rest.to_owned()
        } else {
            format!("**/{rest}")
        };
        check_glob_nesting(&glob).map_err(|message| PatternError {
            pattern: pattern.to_owned(),
            message,
        })?;
        let glob = GlobBuilder::new(&glob)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|error| PatternError {
                pattern: pattern.to_owned(),
                message: error.kind().to_string(),
            })?
            .compile_matcher();
        Ok(PathGlob {
            anchor,
            glob,
            dir_only,
        })
    }

    /// Whether the pattern is relative to the home directory and `bases` has none: such a
    /// pattern cannot tell what it matches, and a deny or ask rule with it fails closed.
    pub fn needs_unknown_home(&self, bases: &Bases) -> bool {
        self.anchor == Anchor::Home && bases.home.is_none()
    }

    /// Where every path the pattern can match lies: its base directory under `bases` joined
    /// with the pattern's leading components that hold no glob character (`None` without a
    /// home directory for a `~/` pattern).
    ///
    /// The flag says whether the pattern covers the start and everything below it
    /// (`secrets/**`), so a sandbox can mask the directory itself.
    pub(crate) fn start(&self, bases: &Bases) -> Option<(PathBuf, bool)> {
        let mut start = self.base(bases)?.to_path_buf();
        let mut parts = self.glob.glob().glob().split('/').peekable();
        while let Some(part) = parts.next() {
            if part.is_empty() || part.contains(['*', '?', '[', '{', '\\']) {
                let everything = part == "**" && parts.peek().is_none() && !self.dir_only;
                return Some((start, everything));
            }
            start.push(part);
        }
        Some((start, false))
    }

    /// The pattern's base directory under `bases`.
    fn base<'a>(&self, bases: &'a Bases) -> Option<&'a Path> {
        match self.anchor {
            Anchor::Root => Some(Path::new("/")),
            Anchor::Home => bases.home.as_deref(),
            Anchor::Project => Some(&bases.project),
        }
    }

    /// Whether the pattern, relative to its base under `bases`, matches `canonical` (a path
    /// from [`resolve`]) or one of the directories it is in. A `~/` pattern without a home
    /// directory matches nothing here; see [`needs_unknown_home`](Self::needs_unknown_home).
    pub fn matches(&self, bases: &Bases, canonical: &Path) -> bool {
        let Some(relative) = self
            .base(bases)
            .and_then(|base| canonical.strip_prefix(base).ok())
        else {
            return false;
        };
        if relative.as_os_str().is_empty() {
            // The base itself: only "everything under the base" names it.
            return self.glob.glob().glob() == "**" && !self.dir_only;
        }
        relative
            .ancestors()
            .filter(|part| !part.as_os_str().is_empty())
            .skip(usize::from(self.dir_only))
            .any(|part| self.glob.is_match(part))
    }
}

/// [`Roots`] resolved: what [`PathGlob::matches`] strips from a resolved path.
#[derive(Debug, Clone, Default)]
pub(crate) struct Bases {
    project: PathBuf,
    home: Option<PathBuf>,
}

impl Bases {
    /// Resolves `roots` (an empty home directory counts as none).
    pub fn new(roots: Roots<'_>) -> Bases {
        Bases {
            project: resolve_base(roots.project),
            home: roots
                .home
                .filter(|home| !home.as_os_str().is_empty())
                .map(resolve_base),
        }
    }
}

/// Compiled deny path rules ([`PermissionContext::path_guard`](crate::PermissionContext::path_guard)); owns its data, so a directory
/// walker's filter can keep it.
#[derive(Debug, Clone, Default)]
pub struct PathGuard {
    bases: Bases,
    denies: Vec<(Arc<PathGlob>, String)>,
}

impl PathGuard {
    pub(super) fn new(bases: Bases, denies: Vec<(Arc<PathGlob>, String)>) -> PathGuard {
        PathGuard { bases, denies }
    }

    /// The rule (as text, with its source) that denies `canonical`, if one does. A `~/` rule
    /// without a home directory denies every path (it fails closed).
    pub fn denies(&self, canonical: &Path) -> Option<&str> {
        self.denies
            .iter()
            .find(|(glob, _)| {
                glob.needs_unknown_home(&self.bases) || glob.matches(&self.bases, canonical)
            })
            .map(|(_, rule)| rule.as_str())
    }

    /// Whether no rule is in it.
    pub fn is_empty(&self) -> bool {
        self.denies.is_empty()
    }

    /// Each rule with its compiled pattern.
    pub(super) fn rules(&self) -> impl Iterator<Item = (&PathGlob, &str)> {
        self.denies
            .iter()
            .map(|(glob, rule)| (&**glob, rule.as_str()))
    }

    /// The resolved roots its patterns are relative to.
    pub(super) fn bases(&self) -> &Bases {
        &self.bases
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
        PathGlob::new(pattern)
            .unwrap()
            .matches(&Bases::new(roots), Path::new(path))
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
