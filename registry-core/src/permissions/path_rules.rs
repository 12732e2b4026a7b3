//! What path rules say about one path, about a directory walk, and about everything below a
//! directory: the part of [`PermissionContext`] that matches resolved paths against path
//! patterns ([`path`](super::path) says what a rule names).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::content_check::{Ask, ContentCheck};
use super::path::{
    Bases, LinkSpelling, PathGlob, PathGuard, Resolved, Roots, Starts, absolute, resolve_base,
    resolve_traced,
};
use super::rule::{Behavior, PermissionRule, RuleTarget};
use super::subject::PathSubject;
use super::verdict::Refusal;
use crate::{PermissionContext, PermissionMode};

/// Whether `glob` matches the path `resolved` leads to, or how it read at one of the links on
/// the way (a rule naming a link covers what is reached through it): those of `resolved` and
/// `earlier`, those of the resolution that gave the path to check (the tool opens that one).
fn covers(glob: &PathGlob, starts: &Starts, resolved: &Resolved, earlier: &[LinkSpelling]) -> bool {
    glob.matches(starts, &resolved.path, resolved.is_dir)
        || resolved
            .through
            .iter()
            .chain(earlier)
            .any(|link| glob.matches(starts, &link.path, link.is_dir))
}

impl PermissionContext {
    /// The path rules for `tool` and the `also` tools, and the deny and ask path rules of the
    /// `reads_as` tools, against `resolved` (with how `subject` read at links when it was
    /// resolved before).
    pub(super) fn check_path(
        &self,
        tool: RuleTarget<'_>,
        subject: &PathSubject,
        resolved: &Resolved,
        cwd: &Path,
    ) -> ContentCheck<'_> {
        let (also, reads_as) = (subject.also, subject.reads_as);
        let bases = self.bases(cwd);
        let mut check = ContentCheck::default();
        let mut positions = self.content_positions(tool.name, also);
        positions.extend(
            self.content_positions_of(reads_as)
                .into_iter()
                .filter(|&at| self.rule(at).is_some_and(|r| r.behavior != Behavior::Allow)),
        );
        positions.sort_unstable();
        positions.dedup();
        for (rule, glob) in self.path_rules_at(positions) {
            let matched = match glob {
                // An allow rule is matched as written and follows no link: a link made under
                // what it allows would widen it. Without a home directory a `~/` one matches
                // nothing.
                Ok(glob) if rule.behavior == Behavior::Allow => {
                    glob.matches_as_written(&bases, &resolved.path, resolved.is_dir)
                }
                Ok(glob) => match glob.starts(&bases) {
                    Some(starts) => covers(glob, &starts, resolved, &subject.through),
                    // A `~/` rule without a home directory cannot tell what it covers: a deny
                    // or ask rule refuses.
                    None => {
                        check
                            .deny
                            .get_or_insert(Refusal::UnknownHome { rule: rule.clone() });
                        continue;
                    }
                },
                // A deny or ask rule that cannot be read refuses rather than being ignored.
                Err(error) if rule.behavior != Behavior::Allow => {
                    check.deny.get_or_insert(Refusal::InvalidPattern {
                        rule: rule.clone(),
                        error: error.clone(),
                    });
                    continue;
                }
                Err(_) => false,
            };
            if !matched {
                continue;
            }
            match rule.behavior {
                Behavior::Deny => {
                    check.deny.get_or_insert(Refusal::Rule(rule.clone()));
                }
                Behavior::Ask => {
                    check.ask.get_or_insert_with(|| {
                        Ask::Rule(format!(
                            "rule {rule} asks before {} touches {}",
                            tool.name,
                            resolved.path.display()
                        ))
                    });
                }
                Behavior::Allow => check.allow = true,
            }
        }
        check
    }

    /// The deny rules with path content for `tool` and the `also` tools, compiled, for a tool
    /// that walks a directory and must leave out what they deny below its root. Rules whose
    /// pattern is invalid are left out here; [`check`](Self::check) refuses the call itself
    /// for them.
    pub fn path_guard(&self, tool: &str, also: &[&str], cwd: &Path) -> PathGuard {
        self.guard(tool, also, cwd, |behavior, _| behavior == Behavior::Deny)
    }

    /// The deny *and ask* rules with path content for `tool` and the `also` tools, compiled:
    /// what a reader that does not ask before each file must leave out, since a path under an
    /// ask rule is as unreadable to it as one under a deny rule. A sandbox masks their
    /// [`covered_paths`](PathGuard::covered_paths) for a command that was not asked about.
    /// Rules whose pattern is invalid are left
    /// out, as in [`path_guard`](Self::path_guard). A walk of a checked directory takes
    /// [`walk_guard`](Self::walk_guard).
    ///
    /// ```
    /// use std::path::Path;
    /// use toolreg::{Behavior, PermissionContext, RuleSource};
    ///
    /// let mut rules = PermissionContext::new();
    /// rules.set_project_root("/project");
    /// rules.add(Behavior::Ask, RuleSource::User, "Read(./secrets/**)");
    /// let cwd = Path::new("/project");
    /// assert!(rules.path_guard("Read", &[], cwd).is_empty());
    /// let guard = rules.read_restrictions("Read", &[], cwd);
    /// assert!(guard.denies(Path::new("/project/secrets/key.txt")).is_some());
    /// ```
    pub fn read_restrictions(&self, tool: &str, also: &[&str], cwd: &Path) -> PathGuard {
        self.guard(tool, also, cwd, |behavior, _| behavior != Behavior::Allow)
    }

    /// What a walk below `root`, a directory the call was checked for (Grep's and Glob's),
    /// must leave out: what the deny path rules of `tool` and the `also` tools cover, and what
    /// their ask rules cover — except in [`PermissionMode::BypassPermissions`], where nothing
    /// asks, and except an ask rule that covers `root` itself, which the call was asked about.
    pub fn walk_guard(&self, tool: &str, also: &[&str], root: &Path, cwd: &Path) -> PathGuard {
        let bases = self.bases(cwd);
        let asks = self.mode != PermissionMode::BypassPermissions;
        self.guard(tool, also, cwd, |behavior, glob| match behavior {
            Behavior::Deny => true,
            Behavior::Allow => false,
            Behavior::Ask => {
                asks && glob
                    .starts(&bases)
                    .is_none_or(|starts| !glob.matches(&starts, root, true))
            }
        })
    }

    fn guard(
        &self,
        tool: &str,
        also: &[&str],
        cwd: &Path,
        keep: impl Fn(Behavior, &PathGlob) -> bool,
    ) -> PathGuard {
        let rules = self
            .path_rules(tool, also)
            .into_iter()
            .filter_map(|(rule, glob)| Some((rule, glob.ok()?)))
            .filter(|(rule, glob)| keep(rule.behavior, glob))
            .map(|(rule, glob)| (Arc::clone(glob), rule.to_string()))
            .collect();
        PathGuard::new(self.bases(cwd), rules)
    }

    /// The first deny or ask path rule of `tool` (and the `also` tools) that may match the
    /// directory `dir` (relative to `cwd`) or anything below it, for a command that reads a
    /// whole tree (`grep -r x dir`, `find dir`, `ls -R dir`) and cannot be checked file by
    /// file. Conservative: a rule whose literal prefix leads into `dir` or to a directory
    /// holding it (through links too, on either side) may match; so may a pattern with no
    /// anchor (`*.env`), below any directory; a `~/` rule without a home directory; a rule
    /// whose pattern is invalid; and every rule when `dir` cannot be resolved. Links *below*
    /// `dir` are not followed: a command that follows them (`grep -R`, `find -L`) reads more
    /// than `dir`.
    ///
    /// ```
    /// use std::path::Path;
    /// use toolreg::{Behavior, PermissionContext, RuleSource};
    ///
    /// let mut rules = PermissionContext::new();
    /// rules.set_project_root("/project");
    /// rules.add(Behavior::Deny, RuleSource::User, "Read(./secrets/**)");
    /// let cwd = Path::new("/project");
    /// assert!(rules.restricts_below("Read", &[], Path::new("."), cwd).is_some());
    /// assert!(rules.restricts_below("Read", &[], Path::new("src"), cwd).is_none());
    /// ```
    pub fn restricts_below(
        &self,
        tool: &str,
        also: &[&str],
        dir: &Path,
        cwd: &Path,
    ) -> Option<&PermissionRule> {
        let bases = self.bases(cwd);
        let dir = resolve_traced(&absolute(cwd, dir));
        self.path_rules(tool, also)
            .into_iter()
            .filter(|(rule, _)| rule.behavior != Behavior::Allow)
            .find(|(_, glob)| {
                let Ok(glob) = glob else { return true };
                let (Some(starts), Ok(dir)) = (glob.starts(&bases), &dir) else {
                    return true;
                };
                glob.anywhere()
                    || std::iter::once(&dir.path)
                        .chain(dir.through.iter().filter(|l| l.whole).map(|l| &l.path))
                        .any(|dir| {
                            starts
                                .iter()
                                .any(|start| dir.starts_with(start) || start.starts_with(dir))
                        })
            })
            .map(|(rule, _)| rule)
    }

    /// The bases of path rules for a call made from `cwd`, canonicalized.
    pub(super) fn bases(&self, cwd: &Path) -> Bases {
        Bases::new(Roots {
            project: self.project_root.as_deref().unwrap_or(cwd),
            home: self.home.as_deref(),
        })
    }

    /// Whether `canonical` is in the project root (or `cwd`) or an additional working directory.
    pub(super) fn inside_working_dirs(&self, canonical: &Path, cwd: &Path) -> bool {
        std::iter::once(self.project_root.as_deref().unwrap_or(cwd))
            .chain(self.additional_dirs.iter().map(PathBuf::as_path))
            .any(|dir| canonical.starts_with(resolve_base(&absolute(cwd, dir))))
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;
    use std::path::{Path, PathBuf};

    use crate::{Behavior, PermissionContext, RuleSource};

    /// A project with `secrets -> .vault` (`.vault/key.txt`), `src/main.rs`, and a directory
    /// `outside/` beside it.
    fn tree() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let base = crate::permissions::path::resolve(dir.path()).unwrap();
        for file in [
            "project/.vault/key.txt",
            "project/src/main.rs",
            "outside/x.txt",
        ] {
            let path = base.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        symlink(".vault", base.join("project/secrets")).unwrap();
        (dir, base)
    }

    fn rules(project: &Path, rules: &[(Behavior, &str)]) -> PermissionContext {
        let mut ctx = PermissionContext::new();
        ctx.set_project_root(project);
        for (behavior, rule) in rules {
            ctx.add(*behavior, RuleSource::User, rule);
        }
        ctx
    }

    fn below(ctx: &PermissionContext, project: &Path, dir: &str) -> Option<String> {
        ctx.restricts_below("Read", &[], Path::new(dir), project)
            .map(|rule| rule.to_string())
    }

    #[test]
    fn ask_rules_restrict_reads_like_deny_rules() {
        let (_dir, base) = tree();
        let project = base.join("project");
        let ctx = rules(
            &project,
            &[
                (Behavior::Ask, "Read(./src/**)"),
                (Behavior::Allow, "Read(./outside/**)"),
            ],
        );
        let file = project.join("src/main.rs");
        assert!(
            ctx.path_guard("Read", &[], &project)
                .denies(&file)
                .is_none()
        );
        let guard = ctx.read_restrictions("Read", &[], &project);
        assert!(guard.denies(&file).is_some());
        assert!(guard.denies(&project.join("outside/x.txt")).is_none());
        assert_eq!(guard.covered_paths().unwrap(), [project.join("src")]);
    }

    #[test]
    fn a_walk_leaves_out_ask_rules_unless_it_was_asked_about_them_or_nothing_asks() {
        let (_dir, base) = tree();
        let project = base.join("project");
        let mut ctx = rules(
            &project,
            &[
                (Behavior::Ask, "Read(./src/**)"),
                (Behavior::Deny, "Read(./.vault/**)"),
            ],
        );
        let (file, key) = (project.join("src/main.rs"), project.join(".vault/key.txt"));
        let walk = |ctx: &PermissionContext, root: &str| {
            ctx.walk_guard("Read", &[], &project.join(root), &project)
        };
        let guard = walk(&ctx, ".");
        assert!(guard.denies(&file).is_some() && guard.denies(&key).is_some());
        // A search of `src` was asked about `src`.
        assert!(walk(&ctx, "src").denies(&file).is_none());
        ctx.mode = crate::PermissionMode::BypassPermissions;
        let guard = walk(&ctx, ".");
        assert!(guard.denies(&file).is_none() && guard.denies(&key).is_some());
    }

    #[test]
    fn restricts_below_sees_a_rule_inside_above_or_at_the_directory() {
        let (_dir, base) = tree();
        let project = base.join("project");
        let ctx = rules(&project, &[(Behavior::Deny, "Read(./src/**)")]);
        for dir in [".", "src", "src/deep/missing", "/"] {
            assert!(below(&ctx, &project, dir).is_some(), "{dir}");
        }
        for dir in [".vault", "../outside", "/usr"] {
            assert_eq!(below(&ctx, &project, dir), None, "{dir}");
        }
        let allow = rules(&project, &[(Behavior::Allow, "Read(./src/**)")]);
        assert_eq!(below(&allow, &project, "."), None);
        let ask = rules(&project, &[(Behavior::Ask, "Read(./src/**)")]);
        assert!(below(&ask, &project, ".").is_some());
    }

    #[test]
    fn restricts_below_counts_a_link_in_the_rule_or_in_the_directory() {
        let (_dir, base) = tree();
        let project = base.join("project");
        symlink(project.join(".vault"), base.join("outside/vault-link")).unwrap();
        let ctx = rules(&project, &[(Behavior::Deny, "Read(./secrets/**)")]);
        // The rule names the link `secrets`: its target `.vault` is below it too, however the
        // directory is spelled.
        for dir in [".vault", "secrets", "../outside/vault-link", "."] {
            assert!(below(&ctx, &project, dir).is_some(), "{dir}");
        }
        assert_eq!(below(&ctx, &project, "src"), None);
        assert_eq!(below(&ctx, &project, "../outside"), None);
    }

    #[test]
    fn restricts_below_is_conservative_where_a_rule_cannot_be_placed() {
        let (_dir, base) = tree();
        let project = base.join("project");
        // No anchor: may match below any directory.
        let env = rules(&project, &[(Behavior::Deny, "Read(*.env)")]);
        for dir in ["src", "/usr"] {
            assert!(below(&env, &project, dir).is_some(), "{dir}");
        }
        // A `~/` rule without a home directory, an invalid pattern, a directory that cannot
        // be resolved.
        let home = rules(&project, &[(Behavior::Ask, "Read(~/.ssh/**)")]);
        assert!(below(&home, &project, "/usr").is_some());
        let invalid = rules(&project, &[(Behavior::Deny, "Read(./a/[z-a)")]);
        assert!(below(&invalid, &project, "/usr").is_some());
        let src = rules(&project, &[(Behavior::Deny, "Read(./src/**)")]);
        assert!(below(&src, &project, "missing/../src").is_some());
        // With a home directory, a `~/` rule is placed like any other.
        let mut home = rules(&project, &[(Behavior::Ask, "Read(~/.ssh/**)")]);
        home.set_home(base.join("outside"));
        assert_eq!(below(&home, &project, "/usr"), None);
        assert!(below(&home, &project, "../outside").is_some());
    }
}
