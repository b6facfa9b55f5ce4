//! The image space: rows × columns × channels per sample, in any of the 24 layouts of
//! `b, h, w, c` (Pylearn2's `Conv2DSpace`, dp's image view).

use super::{Space, letters_shape};
use crate::types::axis::{Axis, B, BHWC, C, H, Layout, W};
use crate::types::elem::Element;
use core::marker::PhantomData;

/// A batch of images of `H` rows, `W` columns and `C` channels, stored in layout `L`.
///
/// `N` is the total size of one image, `H × W × C`: it is what a vector of `N` features is
/// matched against. [`image!`](crate::image) writes it for you (`image![32, 32, 3; BCHW, u8]`);
/// written by hand, the derive checks it against the product.
pub struct Image<const H: usize, const W: usize, const C: usize, const N: usize, L = BHWC, E = f32>(
    PhantomData<fn() -> (L, E)>,
);

/// A layout of an image: one of the 24 orders of the axes `b`, `h`, `w`, `c`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layout of an image",
    label = "an image layout orders the four axes B, H, W and C",
    note = "use one of the aliases `BHWC`, `BCHW`, `CHWB`, ... or a tuple such as `(B, C, H, W)`"
)]
pub trait ImageLayout: Layout {}

impl<const E: usize> ImageLayout for crate::types::axis::NotALayout<E> {}

macro_rules! image_layouts {
    ($(($a:ident, $b:ident, $c:ident, $d:ident)),* $(,)?) => {$(
        #[diagnostic::do_not_recommend]
        impl ImageLayout for ($a, $b, $c, $d) {}
    )*};
}
image_layouts!(
    (B, H, W, C),
    (B, H, C, W),
    (B, W, H, C),
    (B, W, C, H),
    (B, C, H, W),
    (B, C, W, H),
    (H, B, W, C),
    (H, B, C, W),
    (H, W, B, C),
    (H, W, C, B),
    (H, C, B, W),
    (H, C, W, B),
    (W, B, H, C),
    (W, B, C, H),
    (W, H, B, C),
    (W, H, C, B),
    (W, C, B, H),
    (W, C, H, B),
    (C, B, H, W),
    (C, B, W, H),
    (C, H, B, W),
    (C, H, W, B),
    (C, W, B, H),
    (C, W, H, B),
);

impl<const H_: usize, const W_: usize, const C_: usize, const N: usize, L, E> Space
    for Image<H_, W_, C_, N, L, E>
where
    L: ImageLayout,
    E: Element,
{
    type Elem = E;
    type Dim = ndarray::Ix4;
    type Layout = L;
    type Form = crate::types::space::form::ImageForm;
    const SHAPE: &'static [Option<usize>] = &letters_shape::<4>(
        L::LETTERS,
        &[(H::LETTER, H_), (W::LETTER, W_), (C::LETTER, C_)],
    );
    const BATCH_AXIS: usize = match crate::types::axis::position(L::LETTERS, B::LETTER) {
        Some(p) => p,
        None => 0,
    };
    const FEATURES: Option<usize> = Some(N);
    const KIND: &'static str = "image";

    fn check_space() -> Result<(), String> {
        if Self::CONSISTENT {
            Ok(())
        } else {
            Err(format!(
                "`Image<{H_}, {W_}, {C_}, {N}, ..>` declares a total of {N}, but {H_} × {W_} × {C_} is {}",
                H_.saturating_mul(W_).saturating_mul(C_)
            ))
        }
    }
}

impl<const H_: usize, const W_: usize, const C_: usize, const N: usize, L, E>
    Image<H_, W_, C_, N, L, E>
{
    /// `true` when `N` is `H × W × C`. Image types written with [`image!`](crate::image) or in a
    /// derived struct always are; [`Batch`](crate::types::Batch) refuses to hold a type that is not.
    pub const CONSISTENT: bool = match H_.checked_mul(W_) {
        Some(hw) => matches!(hw.checked_mul(C_), Some(total) if total == N),
        None => false,
    };
}

/// The image space type of `rows × cols × channels`, with the total computed for you.
///
/// `image![32, 32, 3]` is `Image<32, 32, 3, 3072>` (layout `BHWC`, `f32`);
/// `image![32, 32, 3; BCHW]` and `image![32, 32, 3; BHWC, u8]` choose the layout and element.
///
/// ```
/// use batchspec::prelude::*;
/// let _: Option<Batch<image![8, 8, 1; BHWC, u8]>> = None;
/// assert_eq!(<image![32, 32, 3] as Space>::FEATURES, Some(3072));
/// ```
#[macro_export]
macro_rules! image {
    // The layout names refused, each with its fix (`batchspec_facts::LAYOUT_NAME_MISTAKES`,
    // checked by a test): a layout every space accepts, carrying the one error. Written out,
    // since macro_rules matches an identifier only against a literal one.
    (@layout NHWC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`NHWC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BHWC`"); 0 }> };
    (@layout nhwc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`nhwc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BHWC`"); 0 }> };
    (@layout bhwc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bhwc` is not a layout: write `BHWC` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout NCHW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`NCHW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCHW`"); 0 }> };
    (@layout nchw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`nchw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCHW`"); 0 }> };
    (@layout bchw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bchw` is not a layout: write `BCHW` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout CHWN) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CHWN` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CHWB`"); 0 }> };
    (@layout chwn) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`chwn` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CHWB`"); 0 }> };
    (@layout chwb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`chwb` is not a layout: write `CHWB` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout NWHC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`NWHC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWHC`"); 0 }> };
    (@layout nwhc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`nwhc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWHC`"); 0 }> };
    (@layout bwhc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bwhc` is not a layout: write `BWHC` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout HWCN) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HWCN` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `HWCB`"); 0 }> };
    (@layout hwcn) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hwcn` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `HWCB`"); 0 }> };
    (@layout hwcb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hwcb` is not a layout: write `HWCB` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout CNHW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CNHW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CBHW`"); 0 }> };
    (@layout cnhw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cnhw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CBHW`"); 0 }> };
    (@layout cbhw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cbhw` is not a layout: write `CBHW` (layout names are upper case; `layout!` takes lower-case letters)"); 0 }> };
    (@layout BHCW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`BHCW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(bhcw)`"); 0 }> };
    (@layout bhcw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bhcw` is not a layout: write `layout!(bhcw)` (names are upper case, and `BHCW` is not one of them)"); 0 }> };
    (@layout BWCH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`BWCH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(bwch)`"); 0 }> };
    (@layout bwch) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bwch` is not a layout: write `layout!(bwch)` (names are upper case, and `BWCH` is not one of them)"); 0 }> };
    (@layout BCWH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`BCWH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(bcwh)`"); 0 }> };
    (@layout bcwh) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`bcwh` is not a layout: write `layout!(bcwh)` (names are upper case, and `BCWH` is not one of them)"); 0 }> };
    (@layout HBWC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HBWC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hbwc)`"); 0 }> };
    (@layout hbwc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hbwc` is not a layout: write `layout!(hbwc)` (names are upper case, and `HBWC` is not one of them)"); 0 }> };
    (@layout HBCW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HBCW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hbcw)`"); 0 }> };
    (@layout hbcw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hbcw` is not a layout: write `layout!(hbcw)` (names are upper case, and `HBCW` is not one of them)"); 0 }> };
    (@layout HWBC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HWBC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hwbc)`"); 0 }> };
    (@layout hwbc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hwbc` is not a layout: write `layout!(hwbc)` (names are upper case, and `HWBC` is not one of them)"); 0 }> };
    (@layout HCBW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HCBW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hcbw)`"); 0 }> };
    (@layout hcbw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hcbw` is not a layout: write `layout!(hcbw)` (names are upper case, and `HCBW` is not one of them)"); 0 }> };
    (@layout HCWB) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HCWB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hcwb)`"); 0 }> };
    (@layout hcwb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hcwb` is not a layout: write `layout!(hcwb)` (names are upper case, and `HCWB` is not one of them)"); 0 }> };
    (@layout WBHC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WBHC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wbhc)`"); 0 }> };
    (@layout wbhc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wbhc` is not a layout: write `layout!(wbhc)` (names are upper case, and `WBHC` is not one of them)"); 0 }> };
    (@layout WBCH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WBCH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wbch)`"); 0 }> };
    (@layout wbch) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wbch` is not a layout: write `layout!(wbch)` (names are upper case, and `WBCH` is not one of them)"); 0 }> };
    (@layout WHBC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WHBC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(whbc)`"); 0 }> };
    (@layout whbc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`whbc` is not a layout: write `layout!(whbc)` (names are upper case, and `WHBC` is not one of them)"); 0 }> };
    (@layout WHCB) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WHCB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(whcb)`"); 0 }> };
    (@layout whcb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`whcb` is not a layout: write `layout!(whcb)` (names are upper case, and `WHCB` is not one of them)"); 0 }> };
    (@layout WCBH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WCBH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wcbh)`"); 0 }> };
    (@layout wcbh) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wcbh` is not a layout: write `layout!(wcbh)` (names are upper case, and `WCBH` is not one of them)"); 0 }> };
    (@layout WCHB) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WCHB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wchb)`"); 0 }> };
    (@layout wchb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wchb` is not a layout: write `layout!(wchb)` (names are upper case, and `WCHB` is not one of them)"); 0 }> };
    (@layout CBWH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CBWH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(cbwh)`"); 0 }> };
    (@layout cbwh) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cbwh` is not a layout: write `layout!(cbwh)` (names are upper case, and `CBWH` is not one of them)"); 0 }> };
    (@layout CHBW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CHBW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(chbw)`"); 0 }> };
    (@layout chbw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`chbw` is not a layout: write `layout!(chbw)` (names are upper case, and `CHBW` is not one of them)"); 0 }> };
    (@layout CWBH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CWBH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(cwbh)`"); 0 }> };
    (@layout cwbh) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cwbh` is not a layout: write `layout!(cwbh)` (names are upper case, and `CWBH` is not one of them)"); 0 }> };
    (@layout CWHB) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CWHB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(cwhb)`"); 0 }> };
    (@layout cwhb) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cwhb` is not a layout: write `layout!(cwhb)` (names are upper case, and `CWHB` is not one of them)"); 0 }> };
    (@layout HWC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HWC` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BHWC`"); 0 }> };
    (@layout hwc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hwc` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BHWC`"); 0 }> };
    (@layout CHW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CHW` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BCHW`"); 0 }> };
    (@layout chw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`chw` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BCHW`"); 0 }> };
    (@layout WHC) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WHC` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BWHC`"); 0 }> };
    (@layout whc) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`whc` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BWHC`"); 0 }> };
    (@layout HCW) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`HCW` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bhcw)`"); 0 }> };
    (@layout hcw) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`hcw` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bhcw)`"); 0 }> };
    (@layout WCH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`WCH` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bwch)`"); 0 }> };
    (@layout wch) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`wch` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bwch)`"); 0 }> };
    (@layout CWH) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`CWH` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bcwh)`"); 0 }> };
    (@layout cwh) => { $crate::types::axis::NotALayout<{ ::core::compile_error!("`cwh` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bcwh)`"); 0 }> };
    (@layout $l:ident) => { $l };
    ($h:expr, $w:expr, $c:expr $(,)?) => {
        $crate::types::Image<{ $h }, { $w }, { $c }, { ($h) * ($w) * ($c) }>
    };
    // A layout written as a name: refused with the fix if it is another library's name or the
    // letters in lower case (`NCHW`, `bchw`), refused by the `@layout` arms.
    ($h:expr, $w:expr, $c:expr; $l:ident $(,)?) => {
        $crate::types::Image<{ $h }, { $w }, { $c }, { ($h) * ($w) * ($c) }, $crate::image!(@layout $l)>
    };
    ($h:expr, $w:expr, $c:expr; $l:ident, $e:ty $(,)?) => {
        $crate::types::Image<{ $h }, { $w }, { $c }, { ($h) * ($w) * ($c) }, $crate::image!(@layout $l), $e>
    };
    ($h:expr, $w:expr, $c:expr; $l:ty $(,)?) => {
        $crate::types::Image<{ $h }, { $w }, { $c }, { ($h) * ($w) * ($c) }, $l>
    };
    ($h:expr, $w:expr, $c:expr; $l:ty, $e:ty $(,)?) => {
        $crate::types::Image<{ $h }, { $w }, { $c }, { ($h) * ($w) * ($c) }, $l, $e>
    };
    // Two sizes: a grey image written without its channel. One error, and an image type that
    // repeats nothing.
    ($h:expr, $w:expr $(; $($rest:tt)*)?) => {
        $crate::types::Image<1, 1, 1, {
            ::core::compile_error!(
                "an image has rows, columns and channels: write a grey image as `image![rows, columns, 1; ...]`"
            );
            1
        }>
    };
    ($($other:tt)*) => {
        $crate::types::Image<1, 1, 1, {
            ::core::compile_error!(
                "`image!` takes rows, columns and channels, then optionally `; LAYOUT` and `, ELEMENT`: `image![32, 32, 3; BHWC, u8]`"
            );
            1
        }>
    };
}

#[cfg(test)]
mod layout_name_tests {
    /// `image!`, `volume!` and `window!` refuse exactly the names of `LAYOUT_NAME_MISTAKES` and
    /// the volume orders without a name (`volume_order_mistakes`), each with its message (the
    /// derive reads the same facts to leave such a field's type to the macro's one error).
    #[test]
    fn the_macros_refuse_the_names_of_the_facts() {
        let arms: Vec<String> = [
            include_str!("image.rs"),
            include_str!("volume.rs"),
            include_str!("window.rs"),
        ]
        .iter()
        .flat_map(|s| s.lines())
        .filter(|l| l.trim_start().starts_with("(@layout ") && l.contains("compile_error!"))
        .map(|l| l.trim().to_string())
        .collect();
        let orders = batchspec_facts::volume_order_mistakes();
        assert_eq!(
            orders.len(),
            236,
            "118 orders without a name, in both cases"
        );
        let facts: Vec<(String, String)> = batchspec_facts::LAYOUT_NAME_MISTAKES
            .iter()
            .map(|(n, m)| (n.to_string(), m.to_string()))
            .chain(orders)
            .collect();
        assert_eq!(arms.len(), facts.len());
        // The named orders, a mixed case and other letters are not the volume orders' mistakes.
        for name in ["BDHWC", "BCDHW", "BhwDC", "BHWC", "BHWDCT", "BHWDD"] {
            assert_eq!(batchspec_facts::volume_order_mistake(name), None, "{name}");
        }
        for (name, message) in &facts {
            assert_eq!(
                batchspec_facts::layout_name_mistake(name).as_deref(),
                Some(message.as_str())
            );
            let arm = format!(
                "(@layout {name}) => {{ $crate::types::axis::NotALayout<{{ ::core::compile_error!(\"{message}\"); 0 }}> }};"
            );
            assert!(arms.contains(&arm), "{name}: no arm `{arm}`");
        }
    }
}
