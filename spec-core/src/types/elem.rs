//! Element types of batches and the casts between them.
//!
//! [`Element`] is implemented for the numeric types a batch can hold. [`LosslessCast`] lists the
//! casts a conversion may do on its own: those that keep every value (`u8 -> f32`, `i32 -> i64`),
//! plus the two that machine-learning code asks for on purpose, `f64 -> f32` and integers to
//! floats (as Pylearn2 allows). Every other cast (floats to integers, wide integers to narrow
//! ones) is [`LossyCast`], reached only through methods whose name says `lossy`.

use core::fmt;

/// A scalar type a batch can hold.
pub trait Element:
    'static
    + Copy
    + Default
    + PartialEq
    + PartialOrd
    + fmt::Debug
    + fmt::Display
    + Send
    + Sync
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
{
    /// The type's name as written in Rust (`"f32"`).
    const NAME: &'static str;
    /// Zero.
    const ZERO: Self;
    /// One.
    const ONE: Self;
    /// The value as a label (`0..`), or `None` for a negative or fractional value.
    fn to_label(self) -> Option<usize>;
    /// The value as an `f64` (exact for every type here but the widest integers).
    fn to_f64(self) -> f64;
    /// `true` for the floating-point types.
    const FLOAT: bool = false;
    /// `v as Self` (`as` semantics: truncation toward zero and saturation for integers). For the
    /// computed values of augmentations, whose fields the derive checks to be floats.
    #[doc(hidden)]
    fn cast_from_f64(v: f64) -> Self;
    /// `self op other`, or `None` where an integer would overflow or divide by zero (floats
    /// follow IEEE 754: never `None`).
    #[doc(hidden)]
    fn checked_arith(self, op: Arith, other: Self) -> Option<Self>;
}

/// An arithmetic operation in place (Pylearn's `d -= mean`, `s *= val`): see
/// [`Batch::apply`](crate::types::Batch::apply).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arith {
    /// `+=`
    Add,
    /// `-=`
    Sub,
    /// `*=`
    Mul,
    /// `/=`
    Div,
}

impl Arith {
    /// The operator as written: `+=`, `-=`, `*=`, `/=`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Arith::Add => "+=",
            Arith::Sub => "-=",
            Arith::Mul => "*=",
            Arith::Div => "/=",
        }
    }
}

/// An element type whose values can be labels of an index space: the integer types.
pub trait IndexElement: Element {
    /// The label `l` as this type, or `None` if it does not fit.
    fn from_label(l: usize) -> Option<Self>;
}

macro_rules! int_elements {
    ($($t:ident),*) => {$(
        impl Element for $t {
            const NAME: &'static str = stringify!($t);
            const ZERO: Self = 0;
            const ONE: Self = 1;
            #[inline]
            fn to_label(self) -> Option<usize> { usize::try_from(self).ok() }
            #[inline]
            fn to_f64(self) -> f64 { self as f64 }
            #[inline]
            fn cast_from_f64(v: f64) -> Self { v as $t }
            #[inline]
            fn checked_arith(self, op: Arith, other: Self) -> Option<Self> {
                match op {
                    Arith::Add => self.checked_add(other),
                    Arith::Sub => self.checked_sub(other),
                    Arith::Mul => self.checked_mul(other),
                    Arith::Div => self.checked_div(other),
                }
            }
        }
        impl IndexElement for $t {
            #[inline]
            fn from_label(l: usize) -> Option<Self> { <$t>::try_from(l).ok() }
        }
    )*};
}
int_elements!(u8, i8, u16, i16, u32, i32, i64, u64);

macro_rules! float_elements {
    ($($t:ident),*) => {$(
        impl Element for $t {
            const NAME: &'static str = stringify!($t);
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            #[inline]
            fn to_label(self) -> Option<usize> {
                if self >= 0.0 && self.fract() == 0.0 && (self as f64) < (usize::MAX as f64) {
                    Some(self as usize)
                } else {
                    None
                }
            }
            #[inline]
            fn to_f64(self) -> f64 { self as f64 }
            const FLOAT: bool = true;
            #[inline]
            fn cast_from_f64(v: f64) -> Self { v as $t }
            #[inline]
            fn checked_arith(self, op: Arith, other: Self) -> Option<Self> {
                Some(match op {
                    Arith::Add => self + other,
                    Arith::Sub => self - other,
                    Arith::Mul => self * other,
                    Arith::Div => self / other,
                })
            }
        }
    )*};
}
float_elements!(f32, f64);

/// A cast a conversion may do without being asked by name: `Self -> T`.
#[diagnostic::on_unimplemented(
    message = "casting `{Self}` to `{T}` can lose values",
    label = "this conversion would cast `{Self}` to `{T}`",
    note = "conversions cast on their own only where no value is lost (and f64 -> f32, ints -> floats); use a `_lossy` method to cast `{Self}` to `{T}` on purpose"
)]
pub trait LosslessCast<T: Element>: Element {
    /// The cast.
    fn cast(self) -> T;

    /// Casts a run of values; `dst` and `src` have the same length. A cast to the same type is
    /// a `copy_from_slice`.
    #[inline]
    fn cast_slice(src: &[Self], dst: &mut [T]) {
        for (d, s) in dst.iter_mut().zip(src) {
            *d = s.cast();
        }
    }
}

/// Any cast between element types, including those that can lose values (`as` semantics:
/// floats to integers truncate toward zero and saturate, NaN becomes 0).
pub trait LossyCast<T: Element>: Element {
    /// The cast.
    fn cast_lossy(self) -> T;
}

macro_rules! lossy_all {
    ($($from:ident),*) => {$( lossy_all!(@to $from: u8, i8, u16, i16, u32, i32, i64, u64, f32, f64); )*};
    (@to $from:ident: $($to:ident),*) => {$(
        impl LossyCast<$to> for $from {
            #[inline]
            fn cast_lossy(self) -> $to { self as $to }
        }
    )*};
}
lossy_all!(u8, i8, u16, i16, u32, i32, i64, u64, f32, f64);

// The casts, hidden from the "other types implement" lists of a refused cast except for one per
// source type (written out after the macro, outside it, so that rustc shows the impl's line): rustc then says "`LosslessCast<u8>` is not implemented
// for `f32`, but `LosslessCast<f64>` is" instead of listing every cast of the library.
macro_rules! casts {
    ($($from:ident => $($to:ident),*;)*) => {$($(
        #[diagnostic::do_not_recommend]
        impl LosslessCast<$to> for $from {
            #[inline(always)]
            fn cast(self) -> $to { self as $to }
        }
    )*)*};
}
casts! {
    u8 => u16, i16, u32, i32, u64, i64, f32;
    i8 => i16, i32, i64, f32;
    u16 => u32, i32, u64, i64, f32;
    i16 => i32, i64, f32;
    u32 => u64, i64, f32;
    i32 => i64, f32;
    u64 => f32;
    i64 => f32;
}

impl LosslessCast<f64> for u8 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for i8 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for u16 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for i16 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for u32 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for i32 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for u64 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for i64 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f64> for f32 {
    #[inline(always)]
    fn cast(self) -> f64 {
        self as f64
    }
}
impl LosslessCast<f32> for f64 {
    #[inline(always)]
    fn cast(self) -> f32 {
        self as f32
    }
}

macro_rules! identities {
    ($($t:ident),*) => {$(
        #[diagnostic::do_not_recommend]
        impl LosslessCast<$t> for $t {
            #[inline(always)]
            fn cast(self) -> $t { self }
            #[inline]
            fn cast_slice(src: &[$t], dst: &mut [$t]) {
                dst.copy_from_slice(src);
            }
        }
    )*};
}
identities!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);
