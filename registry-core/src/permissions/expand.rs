//! Path rules expanded into the existing paths they cover: what a sandbox has to mask or keep
//! read-only, since a mount namespace (or Landlock) names paths, not patterns.
//!
//! Each rule is expanded from where its literal prefix (the leading part of its pattern that
//! holds no glob character) leads now, every link on it followed: `Read(//etc/**)` starts at
//! `/etc`, `Read(*.env)` at the project root, `Read(./secrets/**)` with `secrets -> .vault` at
//! `.vault`, so the mask covers the link's target and every spelling that reaches it, links
//! made later included. A pattern that covers all of its start (`dir/**`, `./dir`) gives the
//! start itself. Otherwise the start is walked without following links, and the shallowest
//! existing paths the rule matches are kept (what is below them is covered with them); a link
//! the walk meets that the pattern names (`prod.env -> config/prod.cfg` for `Read(*.env)`)
//! gives what it leads to, wherever that is, and other links are not followed (a rule whose
//! glob would match only below a link, `**/secrets/**` with `a -> /elsewhere`, is held by the
//! file tools' check but not masked). Only what exists when the expansion runs is found: a
//! file created later that a pattern would cover is not. A walk that would visit more than
//! 100,000 entries, and a `~/` rule without a home directory, are errors: the caller should
//! refuse rather than run with a rule left out.
//!
//! [`PermissionContext::sandbox_policy`] masks what the deny rules cover. For a command that
//! was not asked about, what the ask rules cover must be masked too:
//! [`PermissionContext::read_restrictions`] gives a guard over both, whose
//! [`covered_paths`](PathGuard::covered_paths) replace the policy's `hidden`.

use std::path::{Path, PathBuf};

use super::path::{PathGuard, absolute, resolve_base, resolve_traced};
use super::ruleset::OutsideWrites;
use crate::PermissionContext;
use crate::sandbox::SandboxPolicy;

/// The most directory entries one expansion visits.
pub(crate) const MAX_EXPAND_VISITS: usize = 100_000;

/// Why deny rules could not be expanded into paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExpandError {
    /// The rule's pattern would need a walk over more than 100,000 entries.
    TooBroad {
        /// The rule, with its source.
        rule: String,
    },
    /// A `~/` rule while the home directory is not known.
    UnknownHome {
        /// The rule, with its source.
        rule: String,
    },
}

impl std::fmt::Display for ExpandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpandError::TooBroad { rule } => write!(
                f,
                "rule {rule} covers more than {MAX_EXPAND_VISITS} files and directories to look through; narrow its pattern"
            ),
            ExpandError::UnknownHome { rule } => write!(
                f,
                "rule {rule} names the home directory, which is not known (HOME is unset or empty)"
            ),
        }
    }
}

impl std::error::Error for ExpandError {}

impl PathGuard {
    /// The existing paths its rules cover, each the shallowest one a rule matches, sorted, none
    /// below another (see the module docs).
    pub fn covered_paths(&self) -> Result<Vec<PathBuf>, ExpandError> {
        let mut covered = Vec::new();
        for (glob, rule, starts) in self.rules() {
            let Some(starts) = starts else {
                return Err(ExpandError::UnknownHome {
                    rule: rule.to_owned(),
                });
            };
            // Where the literal prefix leads now, every link on it followed.
            let start = starts.resolved.as_deref().unwrap_or(&starts.lexical);
            if glob.covers_all_below_start() {
                if std::fs::symlink_metadata(start).is_ok() {
                    covered.push(start.to_path_buf());
                }
                continue;
            }
            let mut visits = 0usize;
            let mut todo = vec![start.to_path_buf()];
            while let Some(path) = todo.pop() {
                visits += 1;
                if visits > MAX_EXPAND_VISITS {
                    return Err(ExpandError::TooBroad {
                        rule: rule.to_owned(),
                    });
                }
                let Ok(metadata) = std::fs::symlink_metadata(&path) else {
                    continue;
                };
                if metadata.file_type().is_symlink() {
                    // A link the pattern names covers what it leads to; other links are not
                    // followed.
                    if let Ok(target) = resolve_traced(&path)
                        && glob.matches(starts, &path, target.is_dir)
                        && std::fs::symlink_metadata(&target.path).is_ok()
                    {
                        covered.push(target.path);
                    }
                    continue;
                }
                if glob.matches(starts, &path, metadata.is_dir()) {
                    covered.push(path);
                } else if metadata.is_dir() {
                    let Ok(entries) = std::fs::read_dir(&path) else {
                        continue;
                    };
                    todo.extend(entries.flatten().map(|entry| entry.path()));
                }
            }
        }
        covered.sort();
        covered.dedup();
        let mut shallowest: Vec<PathBuf> = Vec::with_capacity(covered.len());
        for path in covered {
            if !shallowest
                .last()
                .is_some_and(|above| path.starts_with(above))
            {
                shallowest.push(path);
            }
        }
        Ok(shallowest)
    }
}

impl PermissionContext {
    /// What a command run from `cwd` may touch under these rules, for the sandbox: writes in
    /// the working directories (anywhere with [`OutsideWrites::Allow`]), except the paths the
    /// deny rules of `write_tools` cover, which stay read-only; the paths the deny rules of
    /// `read_tools` cover hidden; the network on. Errors when a deny rule cannot be expanded
    /// (see the module docs): run nothing then.
    pub fn sandbox_policy(
        &self,
        cwd: &Path,
        read_tools: &[&str],
        write_tools: &[&str],
    ) -> Result<SandboxPolicy, ExpandError> {
        let covered = |tools: &[&str]| match tools.split_first() {
            Some((tool, also)) => self.path_guard(tool, also, cwd).covered_paths(),
            None => Ok(Vec::new()),
        };
        let writable = if self.outside_writes == OutsideWrites::Allow {
            vec![PathBuf::from("/")]
        } else {
            std::iter::once(self.project_root().unwrap_or(cwd))
                .chain(self.working_directories())
                .map(|dir| resolve_base(&absolute(cwd, dir)))
                .collect()
        };
        Ok(SandboxPolicy {
            writable,
            read_only: covered(write_tools)?,
            hidden: covered(read_tools)?,
            network: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::{Behavior, PermissionContext, RuleSource};

    fn covered_absolute(root: &Path, rules: &[&str]) -> Vec<PathBuf> {
        let mut ctx = PermissionContext::new();
        ctx.set_project_root(root);
        for rule in rules {
            ctx.add(Behavior::Deny, RuleSource::User, rule);
        }
        ctx.path_guard("Read", &[], root).covered_paths().unwrap()
    }

    fn covered(root: &Path, rules: &[&str]) -> Vec<String> {
        covered_absolute(root, rules)
            .into_iter()
            .map(|path| path.strip_prefix(root).unwrap().display().to_string())
            .collect()
    }

    #[test]
    fn deny_rules_expand_into_the_shallowest_existing_paths_they_cover() {
        let dir = tempfile::tempdir().unwrap();
        let root = crate::permissions::path::resolve(dir.path()).unwrap();
        for file in [
            "secrets/a/key",
            "src/.env",
            "src/deep/x/.env",
            "src/main.rs",
        ] {
            let path = root.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        assert_eq!(covered(&root, &["Read(./secrets/**)"]), ["secrets"]);
        assert_eq!(
            covered(&root, &["Read(*.env)"]),
            ["src/.env", "src/deep/x/.env"]
        );
        assert_eq!(
            covered(&root, &["Read(./secrets/a/key)"]),
            ["secrets/a/key"]
        );
        assert!(covered(&root, &["Read(./nothing/**)"]).is_empty());
    }

    #[test]
    fn deny_rules_naming_a_link_cover_its_target() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let base = crate::permissions::path::resolve(dir.path()).unwrap();
        let root = base.join("project");
        for file in [
            "project/.vault/key.txt",
            "project/x/b/key.txt",
            "project/config/prod.cfg",
            "elsewhere/deep/key.txt",
        ] {
            let path = base.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, "x").unwrap();
        }
        symlink(".vault", root.join("secrets")).unwrap();
        symlink("secrets", root.join("chain")).unwrap();
        symlink("x", root.join("a")).unwrap();
        symlink("config/prod.cfg", root.join("prod.env")).unwrap();
        symlink(base.join("elsewhere/deep"), root.join("out")).unwrap();
        // The link itself, a chain of links, a link on the literal prefix, a link the glob
        // names, a link out of the project.
        assert_eq!(covered(&root, &["Read(./secrets/**)"]), [".vault"]);
        assert_eq!(covered(&root, &["Read(./chain)"]), [".vault"]);
        assert_eq!(covered(&root, &["Read(./a/b/**)"]), ["x/b"]);
        assert_eq!(covered(&root, &["Read(./a/b/*.txt)"]), ["x/b/key.txt"]);
        assert_eq!(covered(&root, &["Read(*.env)"]), ["config/prod.cfg"]);
        let outside = covered_absolute(&root, &["Read(./out/**)"]);
        assert_eq!(outside, [base.join("elsewhere/deep")]);
    }
}
