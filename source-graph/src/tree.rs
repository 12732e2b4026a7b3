//! `use` trees, read from text: `a::{b, c::{D as E, *}}` and plain paths (`crate::a::f(…)`).

use std::iter::Peekable;
use std::str::Chars;

/// One path a `use` tree (or a path in code) names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    /// Its segments, as written: `["crate", "a", "B"]`.
    pub path: Vec<String>,
    /// The name it brings into scope: the last segment, or what `as` renames it to (`None` for
    /// `as _` and for globs).
    pub name: Option<String>,
    /// A glob (`a::*`): `path` is the module whose names it brings.
    pub glob: bool,
}

/// Every path of the `use` tree (or the path) at the start of `text`, groups expanded:
/// `a::{b, c::{D as E}}` gives `a::b` and `a::c::D` (named `E`). Reading stops where the tree
/// ends (`;`, `(`, `<`, whitespace after a complete path…).
pub fn use_tree(text: &str) -> Vec<Leaf> {
    let mut chars = text.chars().peekable();
    let mut leaves = Vec::new();
    tree(&mut chars, &[], &mut leaves);
    leaves
}

fn skip_space(chars: &mut Peekable<Chars<'_>>) {
    while chars.next_if(|c| c.is_whitespace()).is_some() {}
}

fn ident(chars: &mut Peekable<Chars<'_>>) -> String {
    std::iter::from_fn(|| chars.next_if(|c| c.is_alphanumeric() || *c == '_')).collect()
}

/// Whether `::` follows (consumed if so, with the whitespace around it).
fn separator(chars: &mut Peekable<Chars<'_>>) -> bool {
    let mut ahead = chars.clone();
    skip_space(&mut ahead);
    if ahead.next() == Some(':') && ahead.next() == Some(':') {
        skip_space(&mut ahead);
        *chars = ahead;
        true
    } else {
        false
    }
}

/// `as name` after a path, if present.
fn rename(chars: &mut Peekable<Chars<'_>>) -> Option<Option<String>> {
    let mut ahead = chars.clone();
    skip_space(&mut ahead);
    if ident(&mut ahead) != "as" {
        return None;
    }
    skip_space(&mut ahead);
    let name = ident(&mut ahead);
    *chars = ahead;
    Some((name != "_").then_some(name))
}

fn tree(chars: &mut Peekable<Chars<'_>>, prefix: &[String], leaves: &mut Vec<Leaf>) {
    skip_space(chars);
    if chars.next_if_eq(&'{').is_some() {
        loop {
            skip_space(chars);
            if chars.next_if_eq(&'}').is_some() {
                return;
            }
            tree(chars, prefix, leaves);
            skip_space(chars);
            match chars.next() {
                Some(',') => continue,
                _ => return,
            }
        }
    }
    if chars.next_if_eq(&'*').is_some() {
        leaves.push(Leaf {
            path: prefix.to_vec(),
            name: None,
            glob: true,
        });
        return;
    }
    let mut path = prefix.to_vec();
    loop {
        let segment = ident(chars);
        if segment.is_empty() {
            break;
        }
        if segment != "self" || path.is_empty() {
            path.push(segment);
        }
        if !separator(chars) {
            break;
        }
        if matches!(chars.peek(), Some('{' | '*')) {
            tree(chars, &path, leaves);
            return;
        }
    }
    if path.len() == prefix.len() && prefix.is_empty() {
        return;
    }
    let name = rename(chars).unwrap_or_else(|| path.last().cloned());
    leaves.push(Leaf {
        path,
        name,
        glob: false,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<String> {
        use_tree(text)
            .iter()
            .map(|leaf| {
                let mut out = leaf.path.join("::");
                if leaf.glob {
                    out.push_str("::*");
                } else if leaf.name.as_ref() != leaf.path.last() {
                    out.push_str(&format!(" as {}", leaf.name.as_deref().unwrap_or("_")));
                }
                out
            })
            .collect()
    }

    #[test]
    fn paths_are_read_from_use_trees() {
        assert_eq!(read("a::b::C;"), ["a::b::C"]);
        assert_eq!(read("a::{b, c::{D, e}};"), ["a::b", "a::c::D", "a::c::e"]);
        assert_eq!(read("{\n    a::B,\n    c,\n};"), ["a::B", "c"]);
    }

    #[test]
    fn renames_globs_and_self_are_read() {
        assert_eq!(
            read("a::{self, B as C, d::*, E as _};"),
            ["a", "a::B as C", "a::d::*", "a::E as _"]
        );
    }

    #[test]
    fn a_path_in_code_ends_where_the_path_ends() {
        assert_eq!(read("crate::a::f(x::y)"), ["crate::a::f"]);
        assert_eq!(read("crate::a::B::<T>::new()"), ["crate::a::B"]);
        assert_eq!(read("crate::a::B { x }"), ["crate::a::B"]);
    }
}
