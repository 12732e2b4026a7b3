//! Deny path rules expanded into the existing paths they cover: what a sandbox has to mask or

use std::path::{Path, PathBuf};

use super::path::{PathGuard, absolute, resolve_base};
use super::ruleset::OutsideWrites;
use crate::PermissionContext;
use crate::sandbox::{EnvPolicy, SandboxPolicy};

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
        let bases = self.bases();
        let mut covered = Vec::new();
        for (glob, rule) in self.rules() {
            let Some((start, everything_below)) = glob.start(bases) else {
                return Err(ExpandError::UnknownHome {
                    rule: rule.to_owned(),
                });
            };
            let too_broad = || ExpandError::TooBroad {
                rule: rule.to_owned(),
            };
            if everything_below {
                // A link is never what a rule matches: rules see resolved paths.
                if std::fs::symlink_metadata(&start).is_ok_and(|m| !m.file_type().is_symlink()) {
                    covered.push(start);
                }
                continue;
            }
            let mut visits = 0usize;
            let mut todo = vec![start];
            while let Some(path) = todo.pop() {
                visits += 1;
                if visits > MAX_EXPAND_VISITS {
                    return Err(too_broad());
                }
                let Ok(metadata) = std::fs::symlink_metadata(&path) else {
                    continue;
                };
                if metadata.file_type().is_symlink() {
                    continue;
                }
                if glob.matches(bases, &path) {
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
    /// environment without its secrets, and hidden the paths `read_tools`' deny rules cover.
    /// A command the checker misjudged can then at worst read what reads may read. Errors
    /// when a deny rule cannot be expanded: run nothing then.
    pub fn unasked_sandbox_policy(
        &self,
        cwd: &Path,
        read_tools: &[&str],
    ) -> Result<SandboxPolicy, ExpandError> {
        let hidden = match read_tools.split_first() {
            Some((tool, also)) => self.path_guard(tool, also, cwd).covered_paths()?,
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
    use std::path::Path;

    use crate::{Behavior, PermissionContext, RuleSource};

    fn covered(root: &Path, rules: &[&str]) -> Vec<String> {
        let mut ctx = PermissionContext::new();
        ctx.set_project_root(root);
        for rule in rules {
            ctx.add(Behavior::Deny, RuleSource::User, rule);
        }
        ctx.path_guard("Read", &[], root)
            .covered_paths()
            .unwrap()
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
}
