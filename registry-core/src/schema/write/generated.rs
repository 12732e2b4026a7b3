//! What the writer does with the parts of a tree known only at run time.

use super::{Mode, Out};
use crate::schema::tree::{Generated as GeneratedText, Schema};

/// What the writer does with a [`Schema::Generated`] node.
pub(in crate::schema) enum Generated<'a> {
    /// During const evaluation its function cannot be called: it renders as `{}`. (A tree
    /// holding one is rendered at run time instead; see [`has_generated`](super::has_generated).)
    Absent,
    /// Counts the nodes and records their functions, in the order met.
    Record {
        seen: usize,
        into: &'a mut [Option<fn() -> GeneratedText>],
    },
    /// Writes the texts the functions returned, in the same order.
    Texts {
        next: usize,
        texts: &'a [GeneratedText],
    },
}

/// The members to write for the next [`Schema::Generated`] node (recording its function on
/// a recording pass).
pub(in crate::schema) const fn next_generated(
    out: &mut Out<'_>,
    generate: fn() -> GeneratedText,
) -> GeneratedText {
    const NONE: GeneratedText = GeneratedText {
        description: None,
        members: "",
    };
    match &mut out.generated {
        Generated::Absent => NONE,
        Generated::Record { seen, into } => {
            if let Some((_, rest)) = into.split_at_mut_checked(*seen)
                && let Some(slot) = rest.first_mut()
            {
                *slot = Some(generate);
            }
            *seen += 1;
            NONE
        }
        Generated::Texts { next, texts } => {
            let text = match texts.split_at_checked(*next) {
                Some((_, rest)) => match rest.first() {
                    Some(text) => *text,
                    None => NONE,
                },
                None => NONE,
            };
            *next += 1;
            text
        }
    }
}

/// The function of a [`Schema::Generated`] node written here (also under an `Option`, which
/// the standard rendering writes as its inner schema).
pub(in crate::schema) const fn generated_of(
    node: &Schema,
    mode: Mode,
) -> Option<fn() -> GeneratedText> {
    match (node, mode) {
        (Schema::Generated(generate), _) => Some(*generate),
        (Schema::Optional(inner), Mode::Standard) => generated_of(inner, mode),
        _ => None,
    }
}
