//! Packing: documents of token ids placed into rows of exactly `T` tokens, as pieces that never
//! share a segment with another document.
//!
//! Three policies, each over a window of documents (the rows of one window never hold a token of
//! another; a window's last row is padded where it is not full):
//!
//! - [`Packing::Greedy`]: the documents concatenated in order and cut every `T` tokens, as Hugging
//!   Face's `group_texts` does (a document may start in one row and go on in the next), but with
//!   the remainder padded instead of dropped;
//! - [`Packing::FirstFit`] and [`Packing::BestFit`]: bin packing, decreasing, as Grain's packers:
//!   the window's documents sorted by length, longest first (ties in order), each placed whole
//!   into the first row with room for it, or into the row it leaves the least room in (ties: the
//!   first such row); a row is opened when none has room.
//!
//! A document longer than `T` is cut into pieces of `T` tokens (and a last, shorter one) under
//! [`Long::Split`], each placed as a document of its own, or refused under [`Long::Refuse`]. An
//! empty document has no tokens and takes no place.

use std::collections::BTreeSet;

/// How documents are placed into rows (see the [module](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Packing {
    /// Concatenated in order and cut every `T` tokens (`group_texts`).
    Greedy,
    /// First-fit decreasing over the window.
    FirstFit,
    /// Best-fit decreasing over the window.
    BestFit,
}

impl Packing {
    /// The policy in words, for a source's plan.
    pub fn words(self) -> &'static str {
        match self {
            Packing::Greedy => "greedy",
            Packing::FirstFit => "first-fit decreasing",
            Packing::BestFit => "best-fit decreasing",
        }
    }
}

/// What is done with a document longer than a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Long {
    /// Cut into pieces of `T` tokens and a last, shorter one; each piece is a document of its own
    /// (positions restart, nothing attends across the cut). The default.
    #[default]
    Split,
    /// An error naming the document and its length.
    Refuse,
}

/// A run of tokens of one document in a row: tokens `start..start + len` of document `doc` of
/// the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The document, as its index in the window.
    pub doc: usize,
    /// The first token of the run, in the document.
    pub start: usize,
    /// The number of tokens.
    pub len: usize,
}

/// A row: its pieces, in the order they are laid out from the row's first token.
pub type Row = Vec<Piece>;

/// A document longer than a row under [`Long::Refuse`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLong {
    /// The document, as its index in the window.
    pub doc: usize,
    /// Its length in tokens.
    pub len: usize,
}

/// The rows of a window of documents of `lengths` tokens, each row at most `t` tokens.
///
/// # Errors
/// [`TooLong`] for the first document longer than `t` under [`Long::Refuse`].
///
/// # Panics
/// Never for `t > 0`; `t == 0` is refused where a packer is made.
pub fn pack(lengths: &[usize], t: usize, policy: Packing, long: Long) -> Result<Vec<Row>, TooLong> {
    assert!(t > 0, "a row holds at least one token");
    if long == Long::Refuse
        && let Some((doc, &len)) = lengths.iter().enumerate().find(|&(_, &n)| n > t)
    {
        return Err(TooLong { doc, len });
    }
    Ok(match policy {
        Packing::Greedy => greedy(lengths, t),
        Packing::FirstFit | Packing::BestFit => {
            let items = pieces(lengths, t);
            decreasing(items, t, policy == Packing::BestFit)
        }
    })
}

/// Concatenation in order, cut every `t` tokens.
fn greedy(lengths: &[usize], t: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut row = Row::new();
    let mut room = t;
    for (doc, &len) in lengths.iter().enumerate() {
        let mut start = 0;
        while start < len {
            let take = room.min(len - start);
            row.push(Piece {
                doc,
                start,
                len: take,
            });
            start += take;
            room -= take;
            if room == 0 {
                rows.push(core::mem::take(&mut row));
                room = t;
            }
        }
    }
    if !row.is_empty() {
        rows.push(row);
    }
    rows
}

/// Each document as one piece, or (longer than `t`) as pieces of `t` and a last, shorter one.
fn pieces(lengths: &[usize], t: usize) -> Vec<Piece> {
    let mut out = Vec::with_capacity(lengths.len());
    for (doc, &len) in lengths.iter().enumerate() {
        let mut start = 0;
        while start < len {
            let take = t.min(len - start);
            out.push(Piece {
                doc,
                start,
                len: take,
            });
            start += take;
        }
    }
    out
}

/// First-fit (`best == false`) or best-fit decreasing of `items` into rows of `t`.
fn decreasing(mut items: Vec<Piece>, t: usize, best: bool) -> Vec<Row> {
    // Longest first; a stable sort keeps the window's order among equal lengths.
    items.sort_by_key(|p| core::cmp::Reverse(p.len));
    let mut rows: Vec<Row> = Vec::new();
    let mut room: Vec<usize> = Vec::new();
    // Best fit: the open rows by (room, index); first fit: a tree over the rows' room.
    let mut by_room: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut most = MaxTree::new();
    for item in items {
        let found = if best {
            by_room.range((item.len, 0)..).next().map(|&(_, i)| i)
        } else {
            most.first_at_least(item.len)
        };
        let i = match found {
            Some(i) => i,
            None => {
                rows.push(Row::new());
                room.push(t);
                most.push(t);
                if best {
                    by_room.insert((t, rows.len() - 1));
                }
                rows.len() - 1
            }
        };
        if best {
            by_room.remove(&(room[i], i));
        }
        room[i] -= item.len;
        rows[i].push(item);
        if best && room[i] > 0 {
            by_room.insert((room[i], i));
        }
        most.set(i, room[i]);
    }
    rows
}

/// A tree of the maximum over leaves (the rows' room), for the first leaf holding at least a
/// value in `O(log n)`: first fit over thousands of rows without a scan per document.
struct MaxTree {
    leaves: usize,
    tree: Vec<usize>,
    len: usize,
}

impl MaxTree {
    fn new() -> Self {
        MaxTree {
            leaves: 1,
            tree: vec![0; 2],
            len: 0,
        }
    }

    fn push(&mut self, value: usize) {
        if self.len == self.leaves {
            // Double the leaves and rebuild.
            let old: Vec<usize> = self.tree[self.leaves..self.leaves + self.len].to_vec();
            self.leaves *= 2;
            self.tree = vec![0; 2 * self.leaves];
            for (i, v) in old.into_iter().enumerate() {
                self.tree[self.leaves + i] = v;
            }
            for i in (1..self.leaves).rev() {
                self.tree[i] = self.tree[2 * i].max(self.tree[2 * i + 1]);
            }
        }
        self.len += 1;
        self.set(self.len - 1, value);
    }

    fn set(&mut self, i: usize, value: usize) {
        let mut at = self.leaves + i;
        self.tree[at] = value;
        while at > 1 {
            at /= 2;
            self.tree[at] = self.tree[2 * at].max(self.tree[2 * at + 1]);
        }
    }

    fn first_at_least(&self, value: usize) -> Option<usize> {
        if self.len == 0 || self.tree[1] < value {
            return None;
        }
        let mut at = 1;
        while at < self.leaves {
            at = if self.tree[2 * at] >= value {
                2 * at
            } else {
                2 * at + 1
            };
        }
        let i = at - self.leaves;
        (i < self.len).then_some(i)
    }
}

/// The share of a set of rows' `rows × t` tokens that are documents' tokens (not padding).
pub fn efficiency(rows: &[Row], t: usize) -> f64 {
    let used: usize = rows.iter().flatten().map(|p| p.len).sum();
    if rows.is_empty() {
        1.0
    } else {
        used as f64 / (rows.len() * t) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_cuts_as_group_texts() {
        let rows = pack(&[3, 4, 2], 4, Packing::Greedy, Long::Split).unwrap();
        let p = |doc, start, len| Piece { doc, start, len };
        assert_eq!(
            rows,
            vec![
                vec![p(0, 0, 3), p(1, 0, 1)],
                vec![p(1, 1, 3), p(2, 0, 1)],
                vec![p(2, 1, 1)]
            ]
        );
    }

    #[test]
    fn best_fit_fills_the_tightest_row() {
        // Sorted: 5, 4, 3, 2, 2 into rows of 6: [5], [4, 2], [3, 2] (best fit puts the first 2
        // into the row of 4, room 2, not the row of 3, room 3), while first fit puts it there too
        // and the second 2 into [3]: the same here; 1 goes into [5] under both.
        let rows = pack(&[2, 5, 3, 4, 2, 1], 6, Packing::BestFit, Long::Split).unwrap();
        let lens: Vec<Vec<usize>> = rows
            .iter()
            .map(|r| r.iter().map(|p| p.len).collect())
            .collect();
        assert_eq!(lens, vec![vec![5, 1], vec![4, 2], vec![3, 2]]);
    }

    #[test]
    fn long_documents_split_or_refused() {
        assert_eq!(
            pack(&[2, 9], 4, Packing::FirstFit, Long::Refuse),
            Err(TooLong { doc: 1, len: 9 })
        );
        let rows = pack(&[9], 4, Packing::FirstFit, Long::Split).unwrap();
        let lens: Vec<usize> = rows.iter().map(|r| r[0].len).collect();
        assert_eq!(lens, vec![4, 4, 1]);
    }
}
