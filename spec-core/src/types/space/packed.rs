//! The leaves a packer computes beside the tokens of packed rows (rows of `T` tokens that hold
//! several documents): which document each token belongs to, its position in it, the attention
//! that keeps documents apart, and the cumulative lengths variable-length attention kernels take.
//! They are computed, not stored; the `batchspec-text` package's `Packed` record holds them.

use super::Space;
use crate::types::axis::{B, K, T};
use crate::types::elem::{Element, IndexElement};
use crate::types::space::IndexSeqLayout;
use core::marker::PhantomData;

const fn pos(letters: &[char], c: char) -> usize {
    match crate::types::axis::position(letters, c) {
        Some(p) => p,
        None => 0,
    }
}

/// Which document of its row each token belongs to: `1, 1, 1, 2, 2, 3, 0, 0` for a row of three
/// documents and two padding steps (Grain's and MaxText's `segment_ids`: documents from 1,
/// padding 0). Shape `(batch, time)` in layout `BT` (or `TB`), `i32` by default.
pub struct Segments<L = (B, T), E = i32>(PhantomData<fn() -> (L, E)>);

/// Each token's position in its document, restarting at 0 where a document (or the part of one
/// that a row holds) starts: `0, 1, 2, 0, 1, 0, 0, 0` for the row above (padding 0). Shape
/// `(batch, time)` in layout `BT` (or `TB`), `i32` by default.
pub struct Positions<L = (B, T), E = i32>(PhantomData<fn() -> (L, E)>);

/// The block-diagonal attention of a packed row: `[b, t, k]` is 1 where the tokens `t` and `k`
/// of row `b` belong to the same document, 0 elsewhere and on padding. Not causal: a decoder
/// multiplies it by its causal triangle. Shape `(batch, time, time)`, layout `btk`, `f32` by
/// default.
pub struct Attention<E = f32>(PhantomData<fn() -> E>);

/// The cumulative lengths of the documents of each row (`cu_seqlens`, as variable-length
/// attention kernels take them): `0, 3, 5, 6, 8` for the row above (padding its own last
/// segment), then repeated to the width of the batch's fullest row (zero-length segments, which
/// such kernels skip). Shape `(batch, most documents in a row + 1)`, layout `bk`, `i32` by
/// default; `batchspec_text::flat_cu_seqlens` gives the 1-D form of a batch flattened to one
/// sequence of `batch × time` tokens.
pub struct CuSeqlens<E = i32>(PhantomData<fn() -> E>);

/// The `Space` impl of a per-token space of layout `BT` or `TB`.
macro_rules! per_token {
    ($space:ident, $form:ty, $kind:literal) => {
        impl<L: IndexSeqLayout, E: IndexElement> Space for $space<L, E> {
            type Elem = E;
            type Dim = ndarray::Ix2;
            type Layout = L;
            type Form = $form;
            const SHAPE: &'static [Option<usize>] = &[None, None];
            const BATCH_AXIS: usize = pos(L::LETTERS, 'b');
            const TIME_AXIS: Option<usize> = Some(pos(L::LETTERS, 't'));
            const FEATURES: Option<usize> = None;
            const KIND: &'static str = $kind;
        }
    };
}

per_token!(
    Segments,
    crate::types::space::form::SegmentsForm,
    "segment ids"
);
per_token!(
    Positions,
    crate::types::space::form::PositionsForm,
    "positions"
);

impl<E: Element> Space for Attention<E> {
    type Elem = E;
    type Dim = ndarray::Ix3;
    type Layout = (B, T, K);
    type Form = crate::types::space::form::AttentionForm;
    const SHAPE: &'static [Option<usize>] = &[None, None, None];
    const BATCH_AXIS: usize = 0;
    const TIME_AXIS: Option<usize> = Some(1);
    const FEATURES: Option<usize> = None;
    const KIND: &'static str = "attention";
}

impl<E: IndexElement> Space for CuSeqlens<E> {
    type Elem = E;
    type Dim = ndarray::Ix2;
    type Layout = (B, K);
    type Form = crate::types::space::form::CuSeqlensForm;
    const SHAPE: &'static [Option<usize>] = &[None, None];
    const BATCH_AXIS: usize = 0;
    const TIME_AXIS: Option<usize> = Some(1);
    const FEATURES: Option<usize> = None;
    const KIND: &'static str = "cumulative lengths";
}
