//! The record a packer serves, [`Packed`]: packed rows and every leaf computed from them, by
//! source; a request asks for the leaves it wants by their sources, in its own layouts and
//! element types, checked at compile time as every request is.

use batchspec::prelude::*;
use ndarray::{Array2, Array3};

/// Packed rows of `T` tokens of ids in `0..V`, and what is computed from them, one source each:
///
/// | source | space | what |
/// | --- | --- | --- |
/// | `"tokens"` | `IndexSeq<V>` `(batch, T)` | the tokens, padding the pad id |
/// | `"targets"` | `IndexSeq<V>` | the next token of the same document (the pad id where there is none: a document's last token, a piece's last token, padding) |
/// | `"loss_mask"` | `Mask` | 1 where `targets` is a real next token |
/// | `"mask"` | `Mask` | 1 on the tokens, 0 on padding |
/// | `"segments"` | [`Segments`] | the document of each token in its row, from 1; padding 0 |
/// | `"positions"` | [`Positions`] | each token's position in its document (its piece), from 0 |
/// | `"attention"` | [`Attention`] `(batch, T, T)` | 1 where two tokens are of the same document |
/// | `"cu_seqlens"` | [`CuSeqlens`] | each row's cumulative document lengths |
///
/// A request is any `DataSpec` struct whose fields read some of these sources (time-major `TB`,
/// `i32` ids, a mask of another element type: any conversion the spaces allow); a field of a
/// source `Packed` lacks, or of a space it cannot be converted to, does not compile. The
/// attention, `batch × T × T` values, is computed only for a request that asks for it
/// ([`TextStream::request`](crate::TextStream::request)); the other leaves cost `O(batch × T)`.
#[derive(DataSpec)]
pub struct Packed<const V: usize> {
    /// The tokens.
    #[spec(source = "tokens")]
    pub tokens: Batch<IndexSeq<V>>,
    /// The next token of the same document.
    #[spec(source = "targets")]
    pub targets: Batch<IndexSeq<V>>,
    /// Where `targets` is a real next token.
    #[spec(source = "loss_mask")]
    pub loss_mask: Batch<Mask>,
    /// Where the tokens are data.
    #[spec(source = "mask")]
    pub mask: Batch<Mask>,
    /// Each token's document in its row, from 1; padding 0.
    #[spec(source = "segments")]
    pub segments: Batch<Segments>,
    /// Each token's position in its document.
    #[spec(source = "positions")]
    pub positions: Batch<Positions>,
    /// The block-diagonal attention (empty unless the request asks for it).
    #[spec(source = "attention")]
    pub attention: Batch<Attention>,
    /// The cumulative document lengths of each row.
    #[spec(source = "cu_seqlens")]
    pub cu_seqlens: Batch<CuSeqlens>,
}

/// A packed row: its tokens (at most `T`) and the lengths of its pieces, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PackedRow {
    pub tokens: Vec<u32>,
    pub pieces: Vec<u32>,
}

/// The leaves of a batch of `rows` rows of `t` tokens (`batch` rows in all: the ones after the
/// rows given are padding).
pub(crate) fn fill<const V: usize>(
    rows: &[PackedRow],
    t: usize,
    pad: u32,
    attention: bool,
) -> Result<Packed<V>, batchspec::data::DataError> {
    let b = rows.len();
    let pad = i64::from(pad);
    let mut tokens = Array2::<i64>::from_elem((b, t), pad);
    let mut targets = Array2::<i64>::from_elem((b, t), pad);
    let mut loss_mask = Array2::<f32>::zeros((b, t));
    let mut mask = Array2::<f32>::zeros((b, t));
    let mut segments = Array2::<i32>::zeros((b, t));
    let mut positions = Array2::<i32>::zeros((b, t));
    let width = rows.iter().map(|r| r.pieces.len() + 1).max().unwrap_or(1) + 1;
    let mut cu = Array2::<i32>::zeros((b, width));
    let mut attn = if attention {
        Array3::<f32>::zeros((b, t, t))
    } else {
        Array3::<f32>::zeros((b, 0, 0))
    };
    for (r, row) in rows.iter().enumerate() {
        let mut at = 0usize;
        let mut k = 0usize;
        for (s, &len) in row.pieces.iter().enumerate() {
            let len = len as usize;
            for j in 0..len {
                let p = at + j;
                tokens[[r, p]] = i64::from(row.tokens[p]);
                mask[[r, p]] = 1.0;
                segments[[r, p]] = s as i32 + 1;
                positions[[r, p]] = j as i32;
                if j + 1 < len {
                    targets[[r, p]] = i64::from(row.tokens[p + 1]);
                    loss_mask[[r, p]] = 1.0;
                }
            }
            if attention {
                attn.slice_mut(ndarray::s![r, at..at + len, at..at + len])
                    .fill(1.0);
            }
            at += len;
            k += 1;
            cu[[r, k]] = at as i32;
        }
        // Padding is its own last segment; then the row's end repeated to the batch's width.
        if at < t {
            k += 1;
        }
        for c in k..width {
            cu[[r, c]] = t as i32;
        }
    }
    // The ids are checked against `V` here, as every batch is where it is made.
    Ok(Packed {
        tokens: Batch::new(tokens)?,
        targets: Batch::new(targets)?,
        loss_mask: Batch::new(loss_mask)?,
        mask: Batch::new(mask)?,
        segments: Batch::new(segments)?,
        positions: Batch::new(positions)?,
        attention: Batch::new(attn)?,
        cu_seqlens: Batch::new(cu)?,
    })
}

/// The cumulative lengths of the documents of a batch flattened to one sequence of
/// `batch × T` tokens (the 1-D `cu_seqlens` of variable-length attention kernels, padding
/// its own segments): from a batch's [`CuSeqlens`] leaf, in `BK` layout.
pub fn flat_cu_seqlens<E: Into<i64> + Copy>(cu: &ndarray::ArrayView2<'_, E>, t: usize) -> Vec<i64> {
    let mut out = vec![0i64];
    for (r, row) in cu.outer_iter().enumerate() {
        let base = (r * t) as i64;
        for &v in row.iter().skip(1) {
            let v = base + v.into();
            if v > *out.last().unwrap_or(&0) {
                out.push(v);
            }
        }
    }
    out
}
