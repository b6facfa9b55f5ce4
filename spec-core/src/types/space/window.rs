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
/// `window![2, 5; BWC, f64]` choose the layout and element. Two orders of the axes have names,
/// `BWC` and `BCW`; the other four are written with `layout!` (`window![2, 5; layout!(cwb)]`),
/// and a name of one (`CWB`), TensorFlow's `NWC` or lower-case letters are refused with the fix.
///
/// ```
/// use batchspec::prelude::*;
/// assert_eq!(<window![2, 5] as Space>::FEATURES, Some(10));
/// assert_eq!(<window![2, 5; BCW] as Space>::shape(8, 0), [8, 5, 2]);
/// assert_eq!(<window![2, 5; layout!(cwb)] as Space>::shape(8, 0), [5, 2, 8]);
/// ```
#[macro_export]
macro_rules! window {
    // The layout names refused, each with its fix (`batchspec_facts::LAYOUT_NAME_MISTAKES`,
    // checked by a test): a layout every space accepts, carrying the one error. Written out,
    // since macro_rules matches an identifier only against a literal one.
    (@layout NWC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`NWC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWC`"); 0 }> };
    (@layout nwc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`nwc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWC`"); 0 }> };
    (@layout bwc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bwc` is not a layout: write `BWC` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout NCW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`NCW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCW`"); 0 }> };
    (@layout ncw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`ncw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCW`"); 0 }> };
    (@layout bcw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bcw` is not a layout: write `BCW` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout WBC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WBC` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(wbc)`"); 0 }> };
    (@layout wbc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wbc` is not a layout: write `layout!(wbc)` (names are upper case, and `WBC` is not one of them)"); 0 }> };
    (@layout WCB) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WCB` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(wcb)`"); 0 }> };
    (@layout wcb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wcb` is not a layout: write `layout!(wcb)` (names are upper case, and `WCB` is not one of them)"); 0 }> };
    (@layout CBW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CBW` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(cbw)`"); 0 }> };
    (@layout cbw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cbw` is not a layout: write `layout!(cbw)` (names are upper case, and `CBW` is not one of them)"); 0 }> };
    (@layout CWB) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CWB` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(cwb)`"); 0 }> };
    (@layout cwb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cwb` is not a layout: write `layout!(cwb)` (names are upper case, and `CWB` is not one of them)"); 0 }> };
    (@layout WC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WC` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BWC`"); 0 }> };
    (@layout wc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wc` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BWC`"); 0 }> };
    (@layout CW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CW` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BCW`"); 0 }> };
    (@layout cw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cw` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BCW`"); 0 }> };
    (@layout $l:ident) => { $l };
    ($w:expr, $c:expr $(,)?) => {
        $crate::types::Window<{ $w }, { $c }, { ($w) * ($c) }>
    };
    // A layout written as a name: refused with the fix if it is another library's name, the
    // letters in lower case or an order without a name (`NWC`, `bwc`, `CWB`), by the `@layout`
    // arms.
    ($w:expr, $c:expr; $l:ident $(,)?) => {
        $crate::types::Window<{ $w }, { $c }, { ($w) * ($c) }, $crate::window!(@layout $l)>
    };
    ($w:expr, $c:expr; $l:ident, $e:ty $(,)?) => {
        $crate::types::Window<{ $w }, { $c }, { ($w) * ($c) }, $crate::window!(@layout $l), $e>
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
