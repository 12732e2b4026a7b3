//! Which variables of this process's environment a child process sees.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};

/// Words that mark a variable as a secret: a name holding one of them, in any case, is
/// dropped by [`EnvPolicy::default`] (`ANTHROPIC_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD`, …).
pub const SECRET_WORDS: &[&str] = &["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"];

/// Which variables of this process's environment a child process — a shell command, an MCP
/// server — sees, applied as a pure function of the variables given
/// ([`apply`](Self::apply)).
///
/// In order: a variable is inherited when the policy inherits at all, its name is among those
/// it is [restricted to](Self::restrict_to) if any, and it is [kept](Self::keep) or not dropped
/// (by [name](Self::drop) or by a [word](Self::drop_matching) it holds); then the
/// [set](Self::set) variables are added, replacing inherited ones.
///
/// The default inherits everything but secrets: every name holding one of [`SECRET_WORDS`], in
/// any case. Hosts add the names of the variables they read credentials from
/// ([`drop`](Self::drop)), and keep what a trusted child needs ([`keep`](Self::keep)).
///
/// ```
/// use std::ffi::OsString;
/// use toolreg::sandbox::EnvPolicy;
///
/// let host = [("PATH", "/usr/bin"), ("GITHUB_TOKEN", "ghp_x"), ("MY_CONFIG", "a"), ("LANG", "C")]
///     .map(|(name, value)| (OsString::from(name), OsString::from(value)));
/// let policy = EnvPolicy::default().drop("MY_CONFIG").set("LANG", "C.UTF-8");
/// let names: Vec<_> = policy.apply(host.clone()).into_iter().map(|(name, value)| format!("{}={}", name.display(), value.display())).collect();
/// assert_eq!(names, ["PATH=/usr/bin", "LANG=C.UTF-8"]);
///
/// // A child that needs one secret gets that one by name.
/// let kept = EnvPolicy::default().keep("GITHUB_TOKEN").apply(host);
/// assert!(kept.iter().any(|(name, _)| name == "GITHUB_TOKEN"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct EnvPolicy {
    inherit: bool,
    drop_words: Vec<Cow<'static, str>>,
    drop_names: Vec<String>,
    keep: Vec<String>,
    /// When set, nothing else is inherited.
    only: Option<Vec<String>>,
    set: Vec<(String, String)>,
}

/// Names only: a set variable's value may be a secret the host passes to one child.
impl std::fmt::Debug for EnvPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnvPolicy")
            .field("inherit", &self.inherit)
            .field("drop_words", &self.drop_words)
            .field("drop_names", &self.drop_names)
            .field("keep", &self.keep)
            .field("only", &self.only)
            .field(
                "set",
                &self.set.iter().map(|(name, _)| name).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl Default for EnvPolicy {
    fn default() -> Self {
        EnvPolicy {
            inherit: true,
            drop_words: SECRET_WORDS
                .iter()
                .map(|word| Cow::Borrowed(*word))
                .collect(),
            drop_names: Vec::new(),
            keep: Vec::new(),
            only: None,
            set: Vec::new(),
        }
    }
}

impl EnvPolicy {
    /// Inherits nothing: only the [set](Self::set) variables.
    pub fn none() -> Self {
        EnvPolicy {
            inherit: false,
            drop_words: Vec::new(),
            ..EnvPolicy::default()
        }
    }

    /// Inherits everything, secrets included: only for a child trusted with all of them.
    pub fn all() -> Self {
        EnvPolicy {
            drop_words: Vec::new(),
            ..EnvPolicy::default()
        }
    }

    /// Also drops the variable `name` (exact, case-sensitive).
    pub fn drop(mut self, name: impl Into<String>) -> Self {
        self.drop_names.push(name.into());
        self
    }

    /// Also drops every variable whose name holds `word`, in any case.
    pub fn drop_matching(mut self, word: impl Into<String>) -> Self {
        self.drop_words
            .push(Cow::Owned(word.into().to_ascii_uppercase()));
        self
    }

    /// Inherits `name` even if it would be dropped (when the policy inherits at all).
    pub fn keep(mut self, name: impl Into<String>) -> Self {
        self.keep.push(name.into());
        self
    }

    /// Inherits at most the variables `names` (each still subject to the rest of the policy).
    pub fn restrict_to(mut self, names: &[&str]) -> Self {
        let allowed = names.iter().map(|name| (*name).to_owned());
        self.only = Some(match self.only.take() {
            Some(only) => allowed.filter(|name| only.contains(name)).collect(),
            None => allowed.collect(),
        });
        self
    }

    /// Sets `name` to `value` for the child, whatever is inherited.
    pub fn set(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        let name = name.into();
        self.set.retain(|(set, _)| *set != name);
        self.set.push((name, value.into()));
        self
    }

    /// Whether an inherited variable named `name` reaches the child (before [set](Self::set)
    /// variables are added).
    pub fn inherits(&self, name: &OsStr) -> bool {
        if !self.inherit {
            return false;
        }
        let Some(name) = name.to_str() else {
            // A name that is not UTF-8 cannot be told apart from a secret's.
            return false;
        };
        if self
            .only
            .as_ref()
            .is_some_and(|only| !only.iter().any(|n| n == name))
        {
            return false;
        }
        if self.keep.iter().any(|kept| kept == name) {
            return true;
        }
        let upper = name.to_ascii_uppercase();
        !self.drop_names.iter().any(|dropped| dropped == name)
            && !self.drop_words.iter().any(|word| upper.contains(&**word))
    }

    /// The variables the child sees, from `vars` (this process's, at the edge:
    /// `std::env::vars_os()`), in their order, then the set ones.
    pub fn apply(
        &self,
        vars: impl IntoIterator<Item = (OsString, OsString)>,
    ) -> Vec<(OsString, OsString)> {
        let mut out: Vec<(OsString, OsString)> = vars
            .into_iter()
            .filter(|(name, _)| self.inherits(name))
            .filter(|(name, _)| !self.set.iter().any(|(set, _)| name == set.as_str()))
            .collect();
        out.extend(
            self.set
                .iter()
                .map(|(name, value)| (OsString::from(name), OsString::from(value))),
        );
        out
    }

    /// Applies the policy to `command`: clears its environment and sets what
    /// [`apply`](Self::apply) gives for this process's variables (read here: call it where the
    /// child is spawned).
    pub fn apply_to(&self, command: &mut std::process::Command) {
        command.env_clear().envs(self.apply(std::env::vars_os()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> Vec<(OsString, OsString)> {
        pairs
            .iter()
            .map(|(name, value)| (OsString::from(name), OsString::from(value)))
            .collect()
    }

    fn names(out: &[(OsString, OsString)]) -> Vec<String> {
        out.iter()
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn default_policy_drops_secret_names_in_any_case() {
        let host = vars(&[
            ("HOME", "/h"),
            ("ANTHROPIC_API_KEY", "k"),
            ("github_token", "t"),
            ("Db_Password", "p"),
            ("AWS_SECRET_ACCESS_KEY", "s"),
            ("GOOGLE_APPLICATION_CREDENTIALS", "c"),
            ("TERM", "xterm"),
        ]);
        assert_eq!(names(&EnvPolicy::default().apply(host)), ["HOME", "TERM"]);
    }

    #[test]
    fn keep_wins_over_drop_and_set_replaces_an_inherited_value() {
        let host = vars(&[("GITHUB_TOKEN", "t"), ("MY_VAR", "a"), ("LANG", "C")]);
        let policy = EnvPolicy::default()
            .keep("GITHUB_TOKEN")
            .drop("MY_VAR")
            .set("LANG", "C.UTF-8")
            .set("LANG", "en_US.UTF-8");
        let out = policy.apply(host);
        assert_eq!(names(&out), ["GITHUB_TOKEN", "LANG"]);
        assert_eq!(out[1].1, "en_US.UTF-8");
    }

    #[test]
    fn none_inherits_nothing_but_the_set_variables() {
        let host = vars(&[("PATH", "/bin"), ("HOME", "/h")]);
        let out = EnvPolicy::none()
            .keep("HOME")
            .set("PATH", "/usr/bin")
            .apply(host);
        assert_eq!(names(&out), ["PATH"]);
    }

    #[test]
    fn restricted_policy_inherits_only_the_names_given_and_still_drops_secrets() {
        let host = vars(&[
            ("HOME", "/h"),
            ("PATH", "/bin"),
            ("LANG", "C"),
            ("MY_TOKEN", "t"),
        ]);
        let policy = EnvPolicy::default()
            .drop("LANG")
            .restrict_to(&["HOME", "LANG", "MY_TOKEN"])
            .set("PATH", "/usr/bin");
        assert_eq!(names(&policy.apply(host)), ["HOME", "PATH"]);
    }

    #[test]
    fn debug_output_names_set_variables_without_their_values() {
        let text = format!(
            "{:?}",
            EnvPolicy::default().set("GITHUB_TOKEN", "ghp_secret")
        );
        assert!(
            text.contains("GITHUB_TOKEN") && !text.contains("ghp_secret"),
            "{text}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_name_that_is_not_utf8_is_dropped() {
        use std::os::unix::ffi::OsStringExt as _;
        let host = vec![(OsString::from_vec(vec![0xff, b'K']), OsString::from("v"))];
        assert!(EnvPolicy::all().apply(host).is_empty());
    }
}
