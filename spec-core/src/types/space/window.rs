//! Windows: sequences of a static number of steps, `W` steps of `C` channels per sample, in any
//! order of `b, w, c` (dp's `SequenceView`, whose `bwc` feeds temporal convolutions and whose
//! `bf` feeds dense layers).

use super::{Space, letters_shape};
use crate::types::axis::{Axis, B, BWC, C, Layout, W};
use crate::types::elem::Element;
use core::marker::PhantomData;

/// A batch of windows of `W` steps of `C` channels: a sequence whose length is part of its type
/// (a context of `W` words embedded in `C` dimensions), stored in layout `L` (`BWC`, `BCW`, ...).
///
/// Unlike [`VectorSeq`](super::VectorSeq), whose time axis is dynamic, a window has a static
/// size per sample, `N = W × C`, so it formats as a `Vector<N>` and back (dp's `bf` of a
/// `bwc`). [`window!`](crate::window) writes `N` for you.
///
/// ```
/// use batchspec::prelude::*;
/// use batchspec::view::View;
///
/// // dp: `dp.SequenceView('bwc', torch.rand(8, 2, 5))`, then `forwardGet('bf')` is 8×10.
/// let mut view = View::<window![2, 5; BWC, f64], f64>::new();
/// view.put(Batch::new(ndarray::Array3::from_shape_fn((8, 2, 5), |(b, w, c)| (b * 10 + w * 5 + c) as f64))?)?;
/// let bf = view.get::<Vector<10, f64>>()?;
/// assert_eq!(bf.shape(), [8, 10]);
/// assert_eq!(bf.array().row(1).to_vec(), (10..20).map(f64::from).collect::<Vec<_>>());
/// assert_eq!(view.get::<window![2, 5; BCW, f64]>()?.shape(), [8, 5, 2]);
/// # Ok::<(), batchspec::Error>(())
/// ```
pub struct Window<const W: usize, const C: usize, const N: usize, L = BWC, E = f32>(
    PhantomData<fn() -> (L, E)>,
);

/// A layout of a window: one of the 6 orders of the axes `b`, `w`, `c`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layout of a window",
    label = "a window layout orders the three axes B, W and C",
    note = "use `BWC`, `BCW` or another order of `(B, W, C)`"
)]
pub trait WindowLayout: Layout {}

impl<const E: usize> WindowLayout for crate::types::axis::NotALayout<E> {}

macro_rules! window_layouts {
    ($(($a:ident, $b:ident, $c:ident)),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl WindowLayout for ($a, $b, $c) {}
    )*};
}
window_layouts!(
    (B, W, C),
    (B, C, W),
    (W, B, C),
    (W, C, B),
    (C, B, W),
    (C, W, B),
);

impl<const W_: usize, const C_: usize, const N: usize, L, E> Space for Window<W_, C_, N, L, E>
where
    L: WindowLayout,
    E: Element,
{
    type Elem = E;
    type Dim = ndarray::Ix3;
    type Layout = L;
    type Form = crate::types::space::form::WindowForm;
    const SHAPE: &'static [Option<usize>] =
        &letters_shape::<3>(L::LETTERS, &[(W::LETTER, W_), (C::LETTER, C_)]);
    const BATCH_AXIS: usize = match crate::types::axis::position(L::LETTERS, B::LETTER) {
        Some(p) => p,
        None => 0,
    };
    const FEATURES: Option<usize> = Some(N);
    const KIND: &'static str = "window";

    fn check_space() -> Result<(), String> {
        if Self::CONSISTENT {
            Ok(())
        } else {
            Err(format!(
                "`Window<{W_}, {C_}, {N}, ..>` declares a total of {N}, but {W_} × {C_} is {}",
                W_.saturating_mul(C_)
            ))
        }
    }
}

impl<const W_: usize, const C_: usize, const N: usize, L, E> Window<W_, C_, N, L, E> {
    /// `true` when `N` is `W × C`. Window types written with [`window!`](crate::window) always
    /// are; [`Batch`](crate::types::Batch) refuses to hold a type that is not.
    pub const CONSISTENT: bool = matches!(W_.checked_mul(C_), Some(total) if total == N);
}

/// The window space type of `steps × channels`, with the total computed for you.
///
/// `window![2, 5]` is `Window<2, 5, 10>` (layout `BWC`, `f32`); `window![2, 5; BCW]` and
/// `window![2, 5; BWC, f64]` choose the layout and element.
///
/// ```
/// use batchspec::prelude::*;
/// assert_eq!(<window![2, 5] as Space>::FEATURES, Some(10));
/// assert_eq!(<window![2, 5; BCW] as Space>::shape(8, 0), [8, 5, 2]);
/// ```
#[macro_export]
macro_rules! window {
    ($w:expr, $c:expr $(,)?) => {
        $crate::types::Window<{ $w }, { $c }, { ($w) * ($c) }>
    };
    ($w:expr, $c:expr; $l:ty $(,)?) => {
        $crate::types::Window<{ $w }, { $c }, { ($w) * ($c) }, $l>
    };
    ($w:expr, $c:expr; $l:ty, $e:ty $(,)?) => {
        $crate::types::Window<{ $w }, { $c }, { ($w) * ($c) }, $l, $e>
    };
    ($($other:tt)*) => {
        $crate::types::Window<1, 1, {
            ::core::compile_error!(
                "`window!` takes steps and channels, then optionally `; LAYOUT` and `, ELEMENT`: `window![2, 5; BWC, f64]`"
            );
            1
        }>
    };
}
