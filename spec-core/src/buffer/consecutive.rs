//! Ordering the sources of one hub so that every consumer reads a contiguous run of them.
//!
//! This is the consecutive-ones problem: given sources and, for each consumer, the set of
//! sources it reads concatenated, find an order of the sources in which every set is one
//! contiguous block. Brainstorm tries all permutations (factorial in the number of sources);
//! here it is solved in polynomial time with the overlap-component decomposition that underlies
//! PQ-trees:
//!
//! 1. Sets of fewer than two sources constrain nothing; repeated sets count once.
//! 2. Two sets *overlap* when they intersect and neither contains the other. Within a connected
//!    component of the overlap graph, the arrangement of the component's union is forced up to
//!    reversal: a sequence of *blocks* (sources with the same membership), built by adding the
//!    sets in breadth-first order, each new set being forced to one place or failing.
//! 3. Components of different overlap components are disjoint or nested, and a nested one lies
//!    inside a single block of its parent; this gives a tree whose leaves are the sources.
//! 4. Every valid order is a frontier of that tree (blocks and the root permute freely, a
//!    component reverses as a whole); the one returned is the lexicographically smallest in the
//!    given source order, which is also what Brainstorm's first-found permutation is when the
//!    sources are listed alphabetically.

use super::error::BufferError;

/// Finds an order of `sources` in which every consumer's sources are contiguous.
///
/// `consumers` pairs a consumer name with the names of the sources it reads. The result lists
/// indices into `sources`, in buffer order; among all valid orders it is the lexicographically
/// smallest with respect to the given order of `sources` (so an order that already works is kept).
///
/// # Errors
/// [`BufferError::Duplicate`] for a repeated source name, [`BufferError::UnknownSource`] for a
/// consumer reading a name not in `sources`, and [`BufferError::Unlayoutable`], naming the
/// conflicting consumers and their sources, when no order exists.
///
/// ```
/// use batchspec_core::buffer::contiguous_order;
///
/// // {A, C} must be adjacent: A, C, B.
/// let order = contiguous_order(&["A", "B", "C"], &[("X", &["A", "C"][..]), ("Y", &["B"][..])])?;
/// assert_eq!(order, vec![0, 2, 1]);
///
/// // Every pair adjacent to every other: impossible for three sources.
/// let err = contiguous_order(
///     &["A", "B", "C"],
///     &[("X", &["A", "B"][..]), ("Y", &["B", "C"][..]), ("Z", &["A", "C"][..])],
/// )
/// .unwrap_err();
/// assert!(err.to_string().contains("`Z` reads {A, C}"));
/// # Ok::<(), batchspec_core::buffer::BufferError>(())
/// ```
pub fn contiguous_order(
    sources: &[&str],
    consumers: &[(&str, &[&str])],
) -> Result<Vec<usize>, BufferError> {
    for (i, s) in sources.iter().enumerate() {
        if sources[..i].contains(s) {
            return Err(BufferError::Duplicate {
                what: "source",
                path: (*s).to_owned(),
            });
        }
    }
    let mut sets = Vec::with_capacity(consumers.len());
    for (consumer, reads) in consumers {
        let mut set = Vec::with_capacity(reads.len());
        for r in *reads {
            let index =
                sources
                    .iter()
                    .position(|s| s == r)
                    .ok_or_else(|| BufferError::UnknownSource {
                        input: (*consumer).to_owned(),
                        source_path: (*r).to_owned(),
                        expected: "one of the sources",
                    })?;
            set.push(index);
        }
        sets.push(set);
    }
    consecutive_order(sources.len(), &sets).map_err(|conflict| {
        conflict.into_error(
            |s| sources[s].to_owned(),
            |c| consumers[c].0.to_owned(),
            &sets,
        )
    })
}

/// The sets (indices into the caller's list) that could not be placed together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conflict {
    pub(crate) sets: Vec<usize>,
}

impl Conflict {
    /// Turns the conflict into an error naming sources and consumers.
    pub(crate) fn into_error(
        self,
        source_name: impl Fn(usize) -> String,
        consumer_name: impl Fn(usize) -> String,
        sets: &[Vec<usize>],
    ) -> BufferError {
        let mut involved: Vec<usize> = self
            .sets
            .iter()
            .flat_map(|&c| sets[c].iter().copied())
            .collect();
        involved.sort_unstable();
        involved.dedup();
        let consumers = self
            .sets
            .iter()
            .map(|&c| {
                let mut members = sets[c].clone();
                members.sort_unstable();
                members.dedup();
                (
                    consumer_name(c),
                    members.into_iter().map(&source_name).collect(),
                )
            })
            .collect();
        BufferError::Unlayoutable {
            sources: involved.into_iter().map(&source_name).collect(),
            consumers,
        }
    }
}

/// Orders `0..n` so that every set is contiguous; the lexicographically smallest such order.
///
/// Elements of `sets` must be `< n`; repeated elements within a set are ignored.
pub(crate) fn consecutive_order(n: usize, sets: &[Vec<usize>]) -> Result<Vec<usize>, Conflict> {
    // 1. Normalise: sorted, deduplicated, at least two elements, each distinct set once.
    let mut kept: Vec<Vec<usize>> = Vec::new();
    let mut origin: Vec<Vec<usize>> = Vec::new(); // for each kept set, the callers' indices
    for (i, set) in sets.iter().enumerate() {
        let mut s = set.clone();
        s.sort_unstable();
        s.dedup();
        if s.len() < 2 {
            continue;
        }
        match kept.iter().position(|k| *k == s) {
            Some(k) => origin[k].push(i),
            None => {
                kept.push(s);
                origin.push(vec![i]);
            }
        }
    }
    let member: Vec<Vec<bool>> = kept
        .iter()
        .map(|s| {
            let mut m = vec![false; n];
            for &e in s {
                m[e] = true;
            }
            m
        })
        .collect();

    // 2. Overlap components, each placed in breadth-first order.
    let overlaps = |a: usize, b: usize| {
        let common = kept[a].iter().filter(|&&e| member[b][e]).count();
        common > 0 && common < kept[a].len() && common < kept[b].len()
    };
    let mut component_of = vec![usize::MAX; kept.len()];
    let mut components: Vec<Vec<Vec<usize>>> = Vec::new(); // blocks of each component
    for start in 0..kept.len() {
        if component_of[start] != usize::MAX {
            continue;
        }
        let id = components.len();
        component_of[start] = id;
        let mut queue = vec![start];
        let mut blocks: Vec<Vec<usize>> = vec![kept[start].clone()];
        let mut head = 0;
        while head < queue.len() {
            let current = queue[head];
            head += 1;
            if head > 1 && !place(&mut blocks, &kept[current], &member[current], n) {
                let mut conflict: Vec<usize> = queue[..head]
                    .iter()
                    .flat_map(|&k| origin[k].iter().copied())
                    .collect();
                conflict.sort_unstable();
                conflict.dedup();
                return Err(Conflict { sets: conflict });
            }
            for (next, component) in component_of.iter_mut().enumerate() {
                if *component == usize::MAX && overlaps(current, next) {
                    *component = id;
                    queue.push(next);
                }
            }
        }
        components.push(blocks);
    }

    // 3. Nesting tree: a component sits inside one block of the smallest component around it.
    let union_size = |c: usize| components[c].iter().map(Vec::len).sum::<usize>();
    let mut by_size: Vec<usize> = (0..components.len()).collect();
    by_size.sort_by_key(|&c| (std::cmp::Reverse(union_size(c)), components[c].len(), c));
    let mut owner: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut block_items: Vec<Vec<Vec<Item>>> = components
        .iter()
        .map(|blocks| vec![Vec::new(); blocks.len()])
        .collect();
    let mut root: Vec<Item> = Vec::new();
    for &c in &by_size {
        let any = components[c][0][0];
        match owner[any] {
            Some((p, b)) => block_items[p][b].push(Item::Component(c)),
            None => root.push(Item::Component(c)),
        }
        for (b, block) in components[c].iter().enumerate() {
            for &e in block {
                owner[e] = Some((c, b));
            }
        }
    }
    for (e, o) in owner.iter().enumerate() {
        match *o {
            Some((c, b)) => block_items[c][b].push(Item::Element(e)),
            None => root.push(Item::Element(e)),
        }
    }

    // 4. The lexicographically smallest frontier. Subtrees hold disjoint sources, so
    // concatenations compare by their first elements: a free list is sorted by the first element
    // of each item's own smallest frontier, and a component is turned so that the end whose
    // block starts lower comes first. Children have smaller unions than their parents (a
    // single-block parent comes before its equal-sized child in `by_size`), so walking
    // `by_size` backwards computes children first.
    let mut component_first = vec![usize::MAX; components.len()];
    let mut block_first: Vec<Vec<usize>> = components
        .iter()
        .map(|blocks| vec![usize::MAX; blocks.len()])
        .collect();
    for &c in by_size.iter().rev() {
        for b in 0..block_items[c].len() {
            let first = block_items[c][b]
                .iter()
                .map(|item| match *item {
                    Item::Element(e) => e,
                    Item::Component(d) => component_first[d],
                })
                .min()
                .unwrap_or(usize::MAX);
            block_first[c][b] = first;
        }
        let last = block_first[c].len() - 1;
        component_first[c] = block_first[c][0].min(block_first[c][last]);
    }
    let first_of = |item: &Item| match *item {
        Item::Element(e) => e,
        Item::Component(c) => component_first[c],
    };
    root.sort_by_key(first_of);
    for items in block_items.iter_mut().flatten() {
        items.sort_by_key(first_of);
    }
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<Item> = root.into_iter().rev().collect();
    while let Some(item) = stack.pop() {
        match item {
            Item::Element(e) => order.push(e),
            Item::Component(c) => {
                let blocks = &block_items[c];
                let forward = block_first[c][0] <= block_first[c][blocks.len() - 1];
                // Push in reverse of emission order.
                let emit: Vec<usize> = if forward {
                    (0..blocks.len()).collect()
                } else {
                    (0..blocks.len()).rev().collect()
                };
                for &b in emit.iter().rev() {
                    stack.extend(blocks[b].iter().rev().copied());
                }
            }
        }
    }
    Ok(order)
}

#[derive(Debug, Clone, Copy)]
enum Item {
    Element(usize),
    Component(usize),
}

/// Adds `set` to a component's block sequence; `false` when it cannot be made contiguous.
///
/// Invariant on entry: `set` overlaps a set already placed, so it meets the placed elements.
fn place(blocks: &mut Vec<Vec<usize>>, set: &[usize], member: &[bool], n: usize) -> bool {
    let mut block_of = vec![usize::MAX; n];
    for (b, block) in blocks.iter().enumerate() {
        for &e in block {
            block_of[e] = b;
        }
    }
    let mut count = vec![0usize; blocks.len()];
    let mut fresh = Vec::new();
    for &e in set {
        match block_of[e] {
            usize::MAX => fresh.push(e),
            b => count[b] += 1,
        }
    }
    let Some(lo) = count.iter().position(|&c| c > 0) else {
        return false;
    };
    let hi = count.iter().rposition(|&c| c > 0).unwrap_or(lo);
    if count[lo..=hi].contains(&0) {
        return false;
    }
    let partial = |b: usize| count[b] < blocks[b].len();
    if (lo + 1..hi).any(partial) {
        return false;
    }
    let last = blocks.len() - 1;
    // Splits block `b` into its part outside and inside the set; `inside_last` puts the inside
    // part on the right.
    let split = |blocks: &mut Vec<Vec<usize>>, b: usize, inside_last: bool| {
        let (inside, outside): (Vec<usize>, Vec<usize>) =
            blocks[b].iter().partition(|&&e| member[e]);
        let parts = if inside_last {
            [outside, inside]
        } else {
            [inside, outside]
        };
        let parts: Vec<Vec<usize>> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        blocks.splice(b..=b, parts);
    };
    if fresh.is_empty() {
        // Split the higher block first so the lower index stays valid.
        split(blocks, hi, false);
        if lo != hi {
            split(blocks, lo, true);
        }
        return true;
    }
    if lo == hi {
        if hi == last {
            split(blocks, hi, true);
            blocks.push(fresh);
        } else if lo == 0 {
            split(blocks, lo, false);
            blocks.insert(0, fresh);
        } else {
            return false;
        }
    } else if hi == last && !partial(hi) {
        split(blocks, lo, true);
        blocks.push(fresh);
    } else if lo == 0 && !partial(lo) {
        split(blocks, hi, false);
        blocks.insert(0, fresh);
    } else {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn valid(order: &[usize], sets: &[Vec<usize>]) -> bool {
        sets.iter().all(|s| {
            let mut pos: Vec<usize> = s
                .iter()
                .map(|e| order.iter().position(|x| x == e).unwrap())
                .collect();
            pos.sort_unstable();
            pos.dedup();
            pos.is_empty() || pos[pos.len() - 1] - pos[0] + 1 == pos.len()
        })
    }

    fn brute(n: usize, sets: &[Vec<usize>]) -> Option<Vec<usize>> {
        // Permutations in lexicographic order; the first valid one.
        let mut p: Vec<usize> = (0..n).collect();
        loop {
            if valid(&p, sets) {
                return Some(p);
            }
            let i = (0..n.saturating_sub(1)).rev().find(|&i| p[i] < p[i + 1])?;
            let j = (i + 1..n).rev().find(|&j| p[j] > p[i]).unwrap();
            p.swap(i, j);
            p[i + 1..].reverse();
        }
    }

    #[test]
    fn brainstorm_cases() {
        assert_eq!(
            consecutive_order(3, &[vec![0, 1], vec![1, 2]]),
            Ok(vec![0, 1, 2])
        );
        assert_eq!(
            consecutive_order(3, &[vec![0, 2], vec![1]]),
            Ok(vec![0, 2, 1])
        );
        let err = consecutive_order(3, &[vec![0, 1], vec![1, 2], vec![0, 2]]).unwrap_err();
        assert_eq!(err.sets, vec![0, 1, 2]);
    }

    #[test]
    fn matches_brute_force_exhaustively_on_small_families() {
        // Every family of up to three sets over four elements.
        let all: Vec<Vec<usize>> = (1u32..16)
            .map(|mask| (0..4).filter(|e| mask & (1 << e) != 0).collect())
            .collect();
        for a in 0..all.len() {
            for b in a..all.len() {
                for c in b..all.len() {
                    let sets = vec![all[a].clone(), all[b].clone(), all[c].clone()];
                    let got = consecutive_order(4, &sets).ok();
                    assert_eq!(got, brute(4, &sets), "sets {sets:?}");
                }
            }
        }
    }

    #[test]
    fn nested_components_stay_inside_their_block() {
        // {0..5} with an overlapping pair chain {1,2},{2,3} inside, and {4,5} apart.
        let sets = vec![
            vec![0, 1, 2, 3, 4, 5],
            vec![1, 2],
            vec![2, 3],
            vec![4, 5],
            vec![0, 5],
        ];
        let order = consecutive_order(6, &sets).unwrap();
        assert!(valid(&order, &sets));
        assert_eq!(Some(order), brute(6, &sets));
    }
}
