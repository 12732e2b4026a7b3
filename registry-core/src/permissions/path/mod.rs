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

use std::path::{Path, PathBuf};
use std::sync::Arc;

use globset::{GlobBuilder, GlobMatcher};

mod resolve;

pub use resolve::{LinkSpelling, PathError, absolute, resolve};
pub(crate) use resolve::{Resolved, resolve_base, resolve_below, resolve_traced};

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

/// The characters that make a pattern component a glob rather than a name.
const GLOB_CHARS: [char; 5] = ['*', '?', '[', '{', '\\'];

/// A path pattern compiled once per rule: everything but the base directory, which depends on
/// the roots of the call. The pattern is split at its first component holding a glob
/// character: the leading names (the *literal prefix*, `secrets` in `secrets/**`) are a path
/// that can be resolved like any other, and the rest is a glob matched below where that path
/// leads.
#[derive(Debug, Clone)]
pub(crate) struct PathGlob {
    anchor: Anchor,
    /// The leading components that hold no glob character, relative to the base.
    literal: PathBuf,
    /// The glob for what follows the literal prefix; `None` when the literal is the whole
    /// pattern.
    rest: Option<GlobMatcher>,
    /// A trailing `/`: the pattern names directories only.
    dir_only: bool,
    /// A pattern with no `/` but a trailing one (`*.env`): it matches at any depth.
    anywhere: bool,
}

/// Where a pattern's literal prefix leads for one check: the base joined with it, and where
/// that path leads once resolved when a link is on it (`secrets -> .vault`: `.vault`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Starts {
    /// The base joined with the literal prefix.
    pub lexical: PathBuf,
    /// The same resolved ([`resolve`]), when that differs.
    pub resolved: Option<PathBuf>,
}

impl Starts {
    /// Both paths: the literal one first.
    pub fn iter(&self) -> impl Iterator<Item = &Path> {
        std::iter::once(self.lexical.as_path()).chain(self.resolved.as_deref())
    }
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
        let anywhere = !anchored && !rest.is_empty() && !rest.contains('/');
        let glob = if rest.is_empty() {
            "**".to_owned()
        } else if anywhere {
            format!("**/{rest}")
        } else {
            rest.to_owned()
        };
        let error = |message: String| PatternError {
            pattern: pattern.to_owned(),
            message,
        };
        let compile = |glob: &str| {
            check_glob_nesting(glob).map_err(error)?;
            GlobBuilder::new(glob)
                .literal_separator(true)
                .backslash_escape(true)
                .build()
                .map(|glob| glob.compile_matcher())
                .map_err(|e| error(e.kind().to_string()))
        };
        // The whole pattern is compiled once, so an error names it as written.
        compile(&glob)?;
        let mut parts = glob.split('/').peekable();
        let mut literal = PathBuf::new();
        while let Some(part) = parts.next_if(|part| !part.is_empty() && !part.contains(GLOB_CHARS))
        {
            literal.push(part);
        }
        let rest: Vec<&str> = parts.collect();
        let rest = if rest.is_empty() {
            None
        } else {
            Some(compile(&rest.join("/"))?)
        };
        Ok(PathGlob {
            anchor,
            literal,
            rest,
            dir_only,
            anywhere,
        })
    }

    /// Whether the pattern matches at any depth below the project root (`*.env`).
    pub fn anywhere(&self) -> bool {
        self.anywhere
    }

    /// Whether the pattern covers where its literal prefix leads and everything below it
    /// (`secrets/**`, `./secrets`), so a sandbox can mask that path whole.
    pub fn covers_all_below_start(&self) -> bool {
        !self.dir_only
            && self
                .rest
                .as_ref()
                .is_none_or(|rest| rest.glob().glob() == "**")
    }

    /// Where the pattern's literal prefix leads under `bases` now, its links followed (`None`
    /// without a home directory for a `~/` pattern). Every path the pattern matches is below
    /// one of them.
    pub fn starts(&self, bases: &Bases) -> Option<Starts> {
        let base = self.base(bases)?;
        let lexical = base.join(&self.literal);
        // The bases are resolved already: only the literal's own components are looked up.
        let resolved = Some(base)
            .filter(|base| base.is_absolute())
            .and_then(|base| resolve_below(base, &self.literal).ok())
            .filter(|resolved| *resolved != lexical);
        Some(Starts { lexical, resolved })
    }

    /// The pattern's base directory under `bases`.
    fn base<'a>(&self, bases: &'a Bases) -> Option<&'a Path> {
        match self.anchor {
            Anchor::Root => Some(Path::new("/")),
            Anchor::Home => bases.home.as_deref(),
            Anchor::Project => Some(&bases.project),
        }
    }

    /// Whether the pattern matches `path` (a path from [`resolve`], or how a path reads at a
    /// link) or one of the directories it is in, below either of `starts`. `is_dir` says
    /// whether `path` is a directory, for a pattern with a trailing `/`.
    pub fn matches(&self, starts: &Starts, path: &Path, is_dir: bool) -> bool {
        starts
            .iter()
            .any(|start| self.matches_below(start, path, is_dir))
    }

    /// Whether the pattern, taken as written, matches `path` (a path from [`resolve`]) or one
    /// of the directories it is in: no link is followed, neither on the literal prefix nor
    /// named by the glob. What an allow rule is matched with, so that a link made under an
    /// allowed directory widens nothing.
    pub fn matches_as_written(&self, bases: &Bases, path: &Path, is_dir: bool) -> bool {
        self.base(bases)
            .is_some_and(|base| self.matches_below(&base.join(&self.literal), path, is_dir))
    }

    /// Whether the pattern matches `path` or one of the directories it is in, with its literal
    /// prefix leading to `start`.
    fn matches_below(&self, start: &Path, path: &Path, is_dir: bool) -> bool {
        let Ok(relative) = path.strip_prefix(start) else {
            return false;
        };
        // A trailing `/` names directories: `path` itself only if it is one.
        let skip = usize::from(self.dir_only && !is_dir);
        let Some(rest) = &self.rest else {
            // The literal names `path` or a directory it is in.
            return skip == 0 || !relative.as_os_str().is_empty();
        };
        if relative.as_os_str().is_empty() {
            // The start itself: only "everything below" names it.
            return skip == 0 && rest.glob().glob() == "**";
        }
        relative
            .ancestors()
            .filter(|part| !part.as_os_str().is_empty())
            .skip(skip)
            .any(|part| rest.is_match(part))
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
