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
use crate::sandbox::{EnvPolicy, SandboxPolicy};
use crate::{PermissionContext, PermissionMode};

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
    /// What a command a rule allowed or the user approved, run from `cwd`, may touch under
    /// these rules, for the sandbox: writes in the working directories (anywhere with
    /// [`OutsideWrites::Allow`]), except the paths the deny rules of `write_tools` cover, which
    /// stay read-only; the paths the deny rules of `read_tools` cover hidden; the network and
    /// sockets on; the environment without its secrets. Errors when a deny rule cannot be
    /// expanded (see the module docs): run nothing then.
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
            self.working_roots(cwd).collect()
        };
        Ok(SandboxPolicy {
            writable,
            read_only: covered(write_tools)?,
            hidden: covered(read_tools)?,
            network: true,
            sockets: true,
            environment: EnvPolicy::default(),
        })
    }
}

impl PermissionContext {
    /// The working directories of a call from `cwd`, resolved: the project root (else `cwd`)
    /// and the additional ones.
    fn working_roots<'a>(&'a self, cwd: &'a Path) -> impl Iterator<Item = PathBuf> + 'a {
        std::iter::once(self.project_root().unwrap_or(cwd))
            .chain(self.working_directories())
            .map(|dir| resolve_base(&absolute(cwd, dir)))
    }

    /// What a command run unasked from `cwd` — one the checker found only reads — may touch:
    /// nothing writable (but the sandbox's private `/tmp`; the working directories are bound
    /// read-only, so one under `/tmp` is still seen), no network, no new sockets, the
    /// environment without its secrets, and hidden the paths `read_tools`' deny and ask rules
    /// cover (a path the user would be asked about is not read unasked; in bypass mode, where
    /// nothing asks, the deny rules' only).
    /// A command the checker misjudged can then at worst read what reads may read. Errors
    /// when a deny rule cannot be expanded: run nothing then.
    pub fn unasked_sandbox_policy(
        &self,
        cwd: &Path,
        read_tools: &[&str],
    ) -> Result<SandboxPolicy, ExpandError> {
        let hidden = match read_tools.split_first() {
            // Nothing asks in bypass mode: there an ask rule restricts no read.
            Some((tool, also)) if self.mode == PermissionMode::BypassPermissions => {
                self.path_guard(tool, also, cwd).covered_paths()?
            }
            Some((tool, also)) => self.read_restrictions(tool, also, cwd).covered_paths()?,
            None => Vec::new(),
        };
        Ok(SandboxPolicy {
            read_only: self
                .working_roots(cwd)
                .chain(std::iter::once(resolve_base(cwd)))
                .collect(),
            hidden,
            ..SandboxPolicy::default()
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
    fn an_exact_pattern_names_one_file_whatever_its_name_holds() {
        use crate::permissions::path::{exact_pattern, resolve};
        use crate::permissions::{RuleTarget, RuleValue, Subject, Verdict};
        let dir = tempfile::tempdir().unwrap();
        let root = resolve(dir.path()).unwrap();
        let secret = root.join("keys[1] (old)*.json");
        let sibling = root.join("keys1 (old)x.json");
        for file in [&secret, &sibling] {
            std::fs::write(file, "x").unwrap();
        }
        let content = exact_pattern(&secret).unwrap();
        let rule = RuleValue {
            tool: "Read".into(),
            content: Some(content),
        }
        .to_string();
        let mut ctx = PermissionContext::new();
        ctx.set_project_root(&root);
        ctx.add(Behavior::Deny, RuleSource::Safeguard, &rule);
        assert_eq!(
            ctx.path_guard("Read", &[], &root).covered_paths().unwrap(),
            std::slice::from_ref(&secret)
        );
        let read =
            |path: &Path| ctx.check(RuleTarget::named("Read"), Some(&Subject::read(path)), &root);
        let Verdict::Deny(refusal) = read(&secret) else {
            panic!("{:?}", read(&secret))
        };
        assert!(
            refusal.to_string().contains("(from safeguard)"),
            "{refusal}"
        );
        assert!(!matches!(read(&sibling), Verdict::Deny(_)));
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
