//! Named flags: the run-time [`Switches`] and the compile-time [`Features`].

use std::borrow::Cow;
use std::collections::BTreeSet;

macro_rules! flag_set {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct $name {
            on: BTreeSet<Cow<'static, str>>,
        }

        impl $name {
            /// Every flag off.
            pub fn new() -> Self {
                Self::default()
            }

            /// Every flag off (the same as [`new`](Self::new)).
            pub fn none() -> Self {
                Self::default()
            }

            /// Whether the flag `name` is on.
            pub fn is_on(&self, name: &str) -> bool {
                self.on.contains(name)
            }

            /// Turns the flag `name` on or off.
            pub fn set(&mut self, name: impl Into<Cow<'static, str>>, on: bool) -> &mut Self {
                let name = name.into();
                if on {
                    self.on.insert(name);
                } else {
                    self.on.remove(&name);
                }
                self
            }

            /// Builder form: the flag `name` on.
            pub fn with(mut self, name: impl Into<Cow<'static, str>>) -> Self {
                self.set(name, true);
                self
            }

            /// The flags that are on, in name order.
            pub fn iter(&self) -> impl Iterator<Item = &str> {
                self.on.iter().map(|name| name.as_ref())
            }
        }

        impl<N: Into<Cow<'static, str>>> FromIterator<N> for $name {
            fn from_iter<I: IntoIterator<Item = N>>(names: I) -> Self {
                $name {
                    on: names.into_iter().map(Into::into).collect(),
                }
            }
        }
    };
}

flag_set! {
    /// Run-time switches: what can change between two runs of the same binary.
    ///
    /// `Default` is every switch off.
    ///
    /// The core gives no flag a meaning: a flag is a name that is on or off. A tool's gate
    /// (`#[tool(enabled = ...)]`) and a [`Profile`](crate::Profile) read the names they
    /// define (the design's are in `toolreg_tools::profile`), so every function that depends
    /// on them is pure, and reading them from the process is the profile's business, at the
    /// edge.
    ///
    /// ```
    /// use toolreg::env::Switches;
    ///
    /// let mut switches = Switches::new();
    /// switches.set("beta_tools", true);
    /// assert!(switches.is_on("beta_tools"));
    /// assert!(!switches.is_on("other"));
    /// ```
    Switches
}

flag_set! {
    /// The compile-time gates of the tool catalog, as the rules that depend on them see them.
    ///
    /// The tool set itself is chosen by cargo features of the crate that defines the tools (a
    /// disabled tool is not in the binary at all). Some rules also depend on those features;
    /// that crate reports its features with a function that fills this set from
    /// `cfg!(feature = ...)`, so the rules stay testable for every combination without
    /// recompiling.
    Features
}

/// `1`, `true`, `yes`, `on` (ASCII case-insensitive, surrounding whitespace ignored).
pub fn is_truthy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// `0`, `false`, `no`, `off` (ASCII case-insensitive, surrounding whitespace ignored).
pub fn is_falsy(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flag_is_on_only_after_it_is_set() {
        let mut s = Switches::new();
        assert!(!s.is_on("x"));
        s.set("x", true);
        assert!(s.is_on("x"));
        s.set(String::from("x"), false);
        assert!(!s.is_on("x"));
    }

    #[test]
    fn flags_list_in_name_order() {
        let f: Features = ["b", "a"].into_iter().collect();
        assert_eq!(f.iter().collect::<Vec<_>>(), ["a", "b"]);
    }
}
