//! Path patterns: a rule's pattern compiled once ([`PathGlob`]), split into the literal prefix
//! resolved at each check and the glob matched below where it leads, and the bases patterns
//! are relative to ([`Roots`], [`Bases`]). The rules they follow are the module docs of
//! [`crate::permissions::path`].

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use super::resolve::{resolve_base, resolve_below};

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
/// path first ([`resolve`](super::resolve)): rules are matched against resolved paths.
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
    /// The same resolved ([`resolve`](super::resolve)), when that differs.
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

    /// Whether the pattern matches `path` (a path from [`resolve`](super::resolve), or how a
    /// path reads at a link) or one of the directories it is in, below either of `starts`.
    /// `is_dir` says whether `path` is a directory, for a pattern with a trailing `/`.
    pub fn matches(&self, starts: &Starts, path: &Path, is_dir: bool) -> bool {
        starts
            .iter()
            .any(|start| self.matches_below(start, path, is_dir))
    }

    /// Whether the pattern, taken as written, matches `path` (a path from
    /// [`resolve`](super::resolve)) or one of the directories it is in: no link is followed,
    /// neither on the literal prefix nor named by the glob. What an allow rule is matched with, so that a link made under an
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
