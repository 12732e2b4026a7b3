//! Path rules: gitignore-style patterns over canonical paths.
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
//! The tool's path is made absolute against the context's working directory and then
//! canonicalized before it is matched: `.` and `..` are resolved and every symbolic link is
//! followed, so no other spelling of a path (`secrets/../secrets/key`, `./secrets//key`, a link
//! to `secrets`, a link to the file) escapes a rule. For a path that does not exist yet, the
//! longest existing prefix is canonicalized and the rest is resolved lexically, which is where
//! creating it would put it. The bases are canonicalized too.
//!
//! What a rule names is a path, not a file: a hard link elsewhere is another name of the same
//! file and is matched by its own path. A rule is checked when the call is about to run; a
//! process that swaps a link between the check and the tool's own `open` is outside what the
//! check can see (the file tools open the canonical path they were checked with).

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use globset::{GlobBuilder, GlobMatcher};

/// The directories patterns are relative to.
#[derive(Debug, Clone, Copy)]
pub struct Roots<'a> {
    /// The project root: the base of `/path`, `./path` and bare patterns.
    pub project: &'a Path,
    /// The home directory: the base of `~/path`; without one, such patterns match nothing.
    pub home: Option<&'a Path>,
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
pub struct PathGlob {
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

    /// The pattern's base directory under `bases`.
    fn base<'a>(&self, bases: &'a Bases) -> Option<&'a Path> {
        match self.anchor {
            Anchor::Root => Some(Path::new("/")),
            Anchor::Home => bases.home.as_deref(),
            Anchor::Project => Some(&bases.project),
        }
    }

    /// Whether the pattern, relative to its base under `bases`, matches `canonical` (a path
    /// from [`canonical_path`]) or one of the directories it is in.
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

/// [`Roots`] canonicalized: what [`PathGlob::matches`] strips from a canonical path.
#[derive(Debug, Clone, Default)]
pub struct Bases {
    project: PathBuf,
    home: Option<PathBuf>,
}

impl Bases {
    /// Canonicalizes `roots`.
    pub fn new(roots: Roots<'_>) -> Bases {
        Bases {
            project: canonical_path(roots.project),
            home: roots.home.map(canonical_path),
        }
    }
}

/// A compiled path pattern bound to its roots.
#[derive(Debug, Clone)]
pub struct PathPattern {
    bases: Bases,
    glob: PathGlob,
}

impl PathPattern {
    /// Compiles `pattern` against `roots` (the bases are canonicalized here).
    pub fn new(pattern: &str, roots: Roots<'_>) -> Result<PathPattern, PatternError> {
        Ok(PathPattern {
            glob: PathGlob::new(pattern)?,
            bases: Bases::new(roots),
        })
    }

    /// Whether the pattern matches `canonical` (a path from [`canonical_path`]) or one of the
    /// directories it is in.
    pub fn matches(&self, canonical: &Path) -> bool {
        self.glob.matches(&self.bases, canonical)
    }
}

/// Compiled deny path rules ([`PermissionContext::path_guard`](super::PermissionContext::path_guard)); owns its data, so a directory
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

    /// The rule (as text, with its source) that denies `canonical`, if one does.
    pub fn denies(&self, canonical: &Path) -> Option<&str> {
        self.denies
            .iter()
            .find(|(glob, _)| glob.matches(&self.bases, canonical))
            .map(|(_, rule)| rule.as_str())
    }

    /// Whether no rule is in it.
    pub fn is_empty(&self) -> bool {
        self.denies.is_empty()
    }
}

/// `path` made absolute against `cwd`.
pub fn absolute(cwd: &Path, path: &Path) -> PathBuf {
    cwd.join(path)
}

/// The canonical form of an absolute path: symbolic links followed, `.` and `..` resolved. A
/// path that does not exist has its longest existing prefix canonicalized and the rest
/// resolved lexically. Never fails: a path no prefix of which can be canonicalized is resolved
/// lexically as a whole.
pub fn canonical_path(path: &Path) -> PathBuf {
    if let Ok(canonical) = std::fs::canonicalize(path) {
        return canonical;
    }
    let mut rest = Vec::new();
    let mut prefix = path;
    let mut base = PathBuf::new();
    while let Some(parent) = prefix.parent() {
        if let Some(name) = prefix.components().next_back() {
            rest.push(name);
        }
        prefix = parent;
        if let Ok(canonical) = std::fs::canonicalize(prefix) {
            base = canonical;
            break;
        }
    }
    if base.as_os_str().is_empty() {
        rest.clear();
        rest.extend(path.components().rev());
    }
    for component in rest.into_iter().rev() {
        match component {
            Component::ParentDir => {
                base.pop();
            }
            Component::CurDir => {}
            other => base.push(other.as_os_str()),
        }
    }
    base
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, path: &str) -> bool {
        let roots = Roots {
            project: Path::new("/nonexistent-project"),
            home: Some(Path::new("/nonexistent-home")),
        };
        PathPattern::new(pattern, roots)
            .unwrap()
            .matches(Path::new(path))
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
    fn canonical_path_resolves_dots_of_paths_that_do_not_exist() {
        let root = canonical_path(Path::new("/"));
        assert_eq!(
            canonical_path(Path::new("/nonexistent-x/a/../b/./c")),
            root.join("nonexistent-x/b/c")
        );
        assert_eq!(
            canonical_path(Path::new("/nonexistent-x/../../etc/passwd")),
            canonical_path(Path::new("/etc/passwd"))
        );
    }

    #[test]
    fn invalid_glob_is_an_error_naming_the_pattern() {
        let roots = Roots {
            project: Path::new("/"),
            home: None,
        };
        let error = PathPattern::new("a/[z-a", roots).unwrap_err();
        assert_eq!(error.pattern, "a/[z-a");
    }
}
