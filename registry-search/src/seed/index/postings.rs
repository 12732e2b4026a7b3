//! Posting lists for the seed index: one flat array per field, and forward-only cursors that
//! skip by galloping.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;

/// Sorted tool lists for keys `0..keys`, stored back to back (compressed sparse rows).
#[derive(Debug, Default)]
pub(crate) struct Postings {
    offsets: Vec<u32>,
    tools: Vec<u32>,
}

impl Postings {
    /// Groups tools by key: `run(tool)` gives the keys of each tool of `0..tools`, each once,
    /// so each list comes out sorted. A key not below `keys` is left out. Two passes over the
    /// runs (count, then place) keep nothing but the result: no list of pairs is built.
    pub(crate) fn from_runs<I: IntoIterator<Item = u32>>(
        keys: usize,
        tools: u32,
        run: impl Fn(u32) -> I,
    ) -> Postings {
        // `offsets[key + 1]` counts the tools of `key`, then sums those of the keys up to it.
        let mut offsets = vec![0u32; keys + 1];
        for tool in 0..tools {
            for key in run(tool) {
                if let Some(count) = offsets.get_mut(key as usize + 1) {
                    *count += 1;
                }
            }
        }
        let mut total = 0;
        for offset in &mut offsets {
            total += *offset;
            *offset = total;
        }
        let mut fill: Vec<u32> = offsets.clone();
        fill.pop();
        let mut placed = vec![0u32; total as usize];
        for tool in 0..tools {
            for key in run(tool) {
                if let Some(slot) = fill.get_mut(key as usize)
                    && let Some(place) = placed.get_mut(*slot as usize)
                {
                    *place = tool;
                    *slot += 1;
                }
            }
        }
        Postings {
            offsets,
            tools: placed,
        }
    }

    /// The tools of `key`, sorted; none for a key it does not have.
    pub(crate) fn get(&self, key: u32) -> &[u32] {
        let key = key as usize;
        let (Some(&start), Some(&end)) = (self.offsets.get(key), self.offsets.get(key + 1)) else {
            return &[];
        };
        self.tools
            .get(start as usize..end as usize)
            .unwrap_or_default()
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.offsets.capacity() + self.tools.capacity()) * 4
    }
}

/// Returned by cursors past their last tool.
pub(crate) const END: u32 = u32::MAX;

/// Moves `pos` to the first element of `list` not below `target` (galloping from `pos`) and
/// returns it, or [`END`].
#[inline]
pub(crate) fn seek(list: &[u32], pos: &mut usize, target: u32) -> u32 {
    let mut lo = *pos;
    let Some(&head) = list.get(lo) else {
        return END;
    };
    if head >= target {
        return head;
    }
    // list[lo] < target; most often the next one is the answer.
    match list.get(lo + 1) {
        None => {
            *pos = list.len();
            return END;
        }
        Some(&next) if next >= target => {
            *pos = lo + 1;
            return next;
        }
        Some(_) => {}
    }
    // Gallop to a bound, then binary search (lo, hi].
    let mut step = 1;
    let mut hi = lo + step;
    while let Some(&tool) = list.get(hi)
        && tool < target
    {
        lo = hi;
        step *= 2;
        hi = lo + step;
    }
    // `lo` is below the length, so the window is in range.
    let window = list.get(lo + 1..hi.min(list.len())).unwrap_or_default();
    let found = lo + 1 + window.partition_point(|&tool| tool < target);
    *pos = found;
    list.get(found).copied().unwrap_or(END)
}

/// A forward-only cursor over a sorted set of tools.
#[derive(Debug)]
pub(crate) enum Cursor<'a> {
    /// A borrowed posting list.
    Slice { list: &'a [u32], pos: usize },
    /// A list made at query time.
    Owned { list: Vec<u32>, pos: usize },
    /// The union of several posting lists, merged lazily.
    Union(Union<'a>),
}

impl<'a> Cursor<'a> {
    /// The smallest tool `>= target`, or [`END`]. Targets must not decrease.
    #[inline]
    pub(crate) fn next_ge(&mut self, target: u32) -> u32 {
        match self {
            Cursor::Slice { list, pos } => seek(list, pos, target),
            Cursor::Owned { list, pos } => seek(list, pos, target),
            Cursor::Union(union) => union.next_ge(target),
        }
    }

    /// The first tool, or [`END`], without moving.
    pub(crate) fn first(&self) -> u32 {
        match self {
            Cursor::Slice { list, .. } => list.first().copied().unwrap_or(END),
            Cursor::Owned { list, .. } => list.first().copied().unwrap_or(END),
            Cursor::Union(union) => union.first(),
        }
    }

    /// How many postings it holds (a union's lists may share tools).
    pub(crate) fn postings(&self) -> usize {
        match self {
            Cursor::Slice { list, .. } => list.len(),
            Cursor::Owned { list, .. } => list.len(),
            Cursor::Union(union) => union.lists.iter().map(|(list, _)| list.len()).sum(),
        }
    }

    /// Calls `each` with every list the cursor reads, from its start.
    pub(crate) fn for_each_list(&self, mut each: impl FnMut(&[u32])) {
        match self {
            Cursor::Slice { list, .. } => each(list),
            Cursor::Owned { list, .. } => each(list),
            Cursor::Union(union) => union.lists.iter().for_each(|(list, _)| each(list)),
        }
    }

    /// A cursor over the union of `lists` (each sorted and not empty).
    pub(crate) fn union(lists: Vec<&'a [u32]>) -> Cursor<'a> {
        if let &[list] = lists.as_slice() {
            return Cursor::Slice { list, pos: 0 };
        }
        Cursor::Union(Union::new(lists))
    }
}

/// Unions of at most this many lists keep every head in an array; larger ones use a heap.
const FEW: usize = 16;

/// A k-way merge of posting lists, by each list's current head.
#[derive(Debug)]
pub(crate) struct Union<'a> {
    lists: Vec<(&'a [u32], usize)>,
    /// For a few lists: each list's head.
    heads: Vec<u32>,
    /// For many lists, once started: a heap of (head, list).
    heap: BinaryHeap<Reverse<(u32, u32)>>,
    started: bool,
}

impl<'a> Union<'a> {
    fn new(lists: Vec<&'a [u32]>) -> Union<'a> {
        let heads = match lists.len() <= FEW {
            true => (lists.iter())
                .map(|list| list.first().copied().unwrap_or(END))
                .collect(),
            false => Vec::new(),
        };
        Union {
            lists: lists.into_iter().map(|list| (list, 0)).collect(),
            heads,
            heap: BinaryHeap::new(),
            started: false,
        }
    }

    fn first(&self) -> u32 {
        (self.lists.iter())
            .filter_map(|(list, _)| list.first().copied())
            .min()
            .unwrap_or(END)
    }

    fn next_ge(&mut self, target: u32) -> u32 {
        if self.lists.len() <= FEW {
            let mut next = END;
            for (head, (list, pos)) in self.heads.iter_mut().zip(&mut self.lists) {
                if *head < target {
                    *head = seek(list, pos, target);
                }
                next = next.min(*head);
            }
            return next;
        }
        if !self.started {
            self.started = true;
            let heads = self
                .lists
                .iter_mut()
                .enumerate()
                .filter_map(|(i, (list, pos))| {
                    let head = seek(list, pos, target);
                    (head != END).then_some(Reverse((head, i as u32)))
                });
            self.heap = heads.collect();
        }
        while let Some(mut top) = self.heap.peek_mut() {
            let Reverse((head, i)) = *top;
            if head >= target {
                return head;
            }
            let next = match self.lists.get_mut(i as usize) {
                Some((list, pos)) => seek(list, pos, target),
                None => END,
            };
            if next == END {
                PeekMut::pop(top);
            } else {
                top.0 = (next, i);
            }
        }
        END
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seek_gallops_to_the_first_element_not_below_the_target() {
        let list: Vec<u32> = (0..100).map(|i| i * 3).collect();
        let mut pos = 0;
        assert_eq!(seek(&list, &mut pos, 0), 0);
        assert_eq!(seek(&list, &mut pos, 1), 3);
        assert_eq!(seek(&list, &mut pos, 3), 3);
        assert_eq!(seek(&list, &mut pos, 200), 201);
        assert_eq!(seek(&list, &mut pos, 297), 297);
        assert_eq!(seek(&list, &mut pos, 298), END);
    }

    #[test]
    fn union_merges_lists_and_skips() {
        let (a, b, c) = (vec![1, 5, 9], vec![2, 5, 10], vec![7]);
        let mut cursor = Cursor::union(vec![&a, &b, &c]);
        let mut seen = Vec::new();
        let mut target = 0;
        loop {
            let next = cursor.next_ge(target);
            if next == END {
                break;
            }
            seen.push(next);
            target = next + 1;
        }
        assert_eq!(seen, [1, 2, 5, 7, 9, 10]);
        let mut cursor = Cursor::union(vec![&a, &b, &c]);
        assert_eq!(cursor.next_ge(6), 7);
        assert_eq!(cursor.next_ge(10), 10);
        assert_eq!(cursor.next_ge(11), END);
    }

    #[test]
    fn union_of_many_lists_uses_a_heap_and_agrees() {
        let lists: Vec<Vec<u32>> = (0..40)
            .map(|i| (0..30).map(|j| j * 41 + i).collect())
            .collect();
        let mut cursor = Cursor::union(lists.iter().map(Vec::as_slice).collect());
        let mut seen = Vec::new();
        let mut target = 0;
        while cursor.next_ge(target) != END {
            let next = cursor.next_ge(target);
            seen.push(next);
            target = next + 1 + next % 3;
        }
        let mut expected: Vec<u32> = lists.concat();
        expected.sort_unstable();
        let mut target = 0;
        let expected: Vec<u32> = expected
            .into_iter()
            .filter(|&x| {
                let keep = x >= target;
                if keep {
                    target = x + 1 + x % 3;
                }
                keep
            })
            .collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn postings_group_runs_by_key_in_tool_order() {
        let runs: [&[u32]; 5] = [&[2], &[0, 2], &[], &[], &[0]];
        let postings = Postings::from_runs(3, 5, |tool| runs[tool as usize].iter().copied());
        assert_eq!(postings.get(0), [1, 4]);
        assert_eq!(postings.get(1), [] as [u32; 0]);
        assert_eq!(postings.get(2), [0, 1]);
        assert_eq!(postings.get(3), [] as [u32; 0], "a key it does not have");
        let runs: [&[u32]; 3] = [&[1], &[5], &[0]];
        let dropped = Postings::from_runs(2, 3, |tool| runs[tool as usize].iter().copied());
        assert_eq!((dropped.get(0), dropped.get(1)), (&[2][..], &[0][..]));
    }
}
