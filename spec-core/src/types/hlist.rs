//! Heterogeneous lists: the flat form of a spec, a list of values of different types.
//!
//! `HCons { head, tail }` and `HNil` hold the leaves of a flattened spec in order; the same types
//! with [`Leaf`](crate::types::spec::Leaf) markers list a spec's (source, space) pairs at the type level.
//! Appending and splitting are plain moves.

/// The empty list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HNil;

/// A list: `head`, then the list `tail`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HCons<H, T> {
    /// The first element.
    pub head: H,
    /// The rest.
    pub tail: T,
}

/// A heterogeneous list: [`HNil`] or [`HCons`].
pub trait HList: Sized {
    /// The number of elements.
    const LEN: usize;
    /// `Self` followed by `R`.
    type Append<R: HList>: HList;
    /// `self` followed by `rhs`.
    fn append<R: HList>(self, rhs: R) -> Self::Append<R>;
    /// The inverse of [`HList::append`]: the first `Self::LEN` elements and the rest.
    fn split<R: HList>(joined: Self::Append<R>) -> (Self, R);
}

impl HList for HNil {
    const LEN: usize = 0;
    type Append<R: HList> = R;
    #[inline(always)]
    fn append<R: HList>(self, rhs: R) -> R {
        rhs
    }
    #[inline(always)]
    fn split<R: HList>(joined: R) -> (Self, R) {
        (HNil, joined)
    }
}

impl<H, T: HList> HList for HCons<H, T> {
    const LEN: usize = 1 + T::LEN;
    type Append<R: HList> = HCons<H, T::Append<R>>;
    #[inline(always)]
    fn append<R: HList>(self, rhs: R) -> Self::Append<R> {
        HCons {
            head: self.head,
            tail: self.tail.append(rhs),
        }
    }
    #[inline(always)]
    fn split<R: HList>(joined: Self::Append<R>) -> (Self, R) {
        let (tail, rest) = T::split(joined.tail);
        (
            HCons {
                head: joined.head,
                tail,
            },
            rest,
        )
    }
}

/// `HCons` of one element.
#[inline(always)]
pub fn single<H>(head: H) -> HCons<H, HNil> {
    HCons { head, tail: HNil }
}
