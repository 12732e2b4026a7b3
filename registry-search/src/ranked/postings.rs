//! A term's postings in the BM25F index: each tool that has the term, with its impact and
//! whether the tool's name or description says it, and beside them how often a name says the
//! term where that is more than once.
//!
//! A posting is 8 bytes, the tool and its two flags in one word and the impact in the other:
//! the postings are most of the index's memory, and scoring a query reads every posting of its
//! terms. A name's frequency of a term (read by name coverage) is 1 for nearly every name that
//! has it, so only the others are listed, apart from the postings.

/// The flag of a posting whose tool's name has the term.
const IN_NAME: u32 = 1 << 30;
/// The flag of a posting whose tool's description has the term.
const IN_DESCRIPTION: u32 = 1 << 31;
/// The bits of a posting's word that hold its tool.
const TOOL: u32 = IN_NAME - 1;

/// The most tools an index holds: a tool is a posting's 30 low bits.
pub(super) const MAX_TOOLS: usize = TOOL as usize + 1;

/// One tool's entry in a term's postings.
#[derive(Debug, Clone, Copy)]
pub(super) struct Posting {
    /// The tool, with [`IN_NAME`] and [`IN_DESCRIPTION`].
    tool_flags: u32,
    /// The term's BM25F contribution to the tool, IDF included, before the query's weight:
    /// fixed once the index is built, so scoring a query only adds these up.
    pub(super) impact: f32,
}

impl Posting {
    /// The posting of `tool` (below [`MAX_TOOLS`]).
    pub(super) fn new(tool: u32, impact: f32, in_name: bool, in_description: bool) -> Posting {
        let flags =
            (if in_name { IN_NAME } else { 0 }) | (if in_description { IN_DESCRIPTION } else { 0 });
        Posting {
            tool_flags: (tool & TOOL) | flags,
            impact,
        }
    }

    /// The tool.
    pub(super) fn tool(self) -> u32 {
        self.tool_flags & TOOL
    }

    /// Whether the tool's name has the term.
    pub(super) fn in_name(self) -> bool {
        self.tool_flags & IN_NAME != 0
    }

    /// Whether the tool's description has the term.
    pub(super) fn in_description(self) -> bool {
        self.tool_flags & IN_DESCRIPTION != 0
    }
}

/// A term's postings, in pool order, with the name frequencies above 1.
#[derive(Debug, Default)]
pub(super) struct TermPostings {
    list: Box<[Posting]>,
    /// Each tool whose name has the term more than once, with how often, in pool order.
    repeated: Box<[(u32, u16)]>,
}

impl TermPostings {
    /// The postings `list` (in pool order), and `repeated`: each of its tools whose name has the
    /// term more than once, with how often, in pool order.
    pub(super) fn new(list: Vec<Posting>, repeated: Vec<(u32, u16)>) -> TermPostings {
        TermPostings {
            list: list.into_boxed_slice(),
            repeated: repeated.into_boxed_slice(),
        }
    }

    /// The postings, in pool order.
    pub(super) fn list(&self) -> &[Posting] {
        &self.list
    }

    /// How many tools have the term.
    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// Each tool whose name has the term, with how often, in pool order.
    pub(super) fn named(&self) -> impl Iterator<Item = (u32, u16)> + '_ {
        let mut repeated = self.repeated.iter().peekable();
        (self.list.iter().filter(|posting| posting.in_name())).map(move |posting| {
            let tool = posting.tool();
            let name_tf = repeated.next_if(|(other, _)| *other == tool);
            (tool, name_tf.map_or(1, |&(_, name_tf)| name_tf))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_posting_keeps_its_tool_flags_and_impact() {
        for (tool, in_name, in_description) in [
            (0, false, false),
            (7, true, false),
            (TOOL, false, true),
            (12_345, true, true),
        ] {
            let posting = Posting::new(tool, 1.5, in_name, in_description);
            assert_eq!(posting.tool(), tool);
            assert_eq!(posting.in_name(), in_name);
            assert_eq!(posting.in_description(), in_description);
            assert_eq!(posting.impact, 1.5);
        }
        assert_eq!(std::mem::size_of::<Posting>(), 8);
    }

    #[test]
    fn name_frequencies_come_back_for_the_named_tools_only() {
        let list = vec![
            Posting::new(1, 1.0, true, false),
            Posting::new(2, 1.0, false, true),
            Posting::new(3, 1.0, true, true),
            Posting::new(5, 1.0, true, false),
            Posting::new(8, 1.0, true, false),
        ];
        let postings = TermPostings::new(list, vec![(3, 4), (8, u16::MAX)]);
        assert_eq!(postings.len(), 5);
        let named: Vec<(u32, u16)> = postings.named().collect();
        assert_eq!(named, [(1, 1), (3, 4), (5, 1), (8, u16::MAX)]);
    }
}
