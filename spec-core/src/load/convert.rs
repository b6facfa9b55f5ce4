//! Exact conversion of values read from files into the element type of a space, and the
//! reshaping of samples into the space's memory order: what the loaders share.
//!
//! A space names its element type only through [`Element`]; the loaders know the ten numeric
//! types of this crate and find which one a space holds by its `TypeId`. A value converts only
//! when the target type holds it exactly: nothing is truncated, rounded to an integer or wrapped.

use super::error::LoadReason;
use crate::types::batch::Batch;
use crate::types::elem::Element;
use crate::types::error::{Shape, SpecError};
use crate::types::space::Space;
use core::any::{Any, TypeId};
use ndarray::{Array, IxDyn};

/// A value as read, before it is given a type: an integer or a float.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
}

impl Num {
    /// The value as a label below `max`, if it is one.
    pub(crate) fn label_below(self, max: usize) -> bool {
        match self {
            Num::Int(i) => usize::try_from(i).is_ok_and(|l| l < max),
            Num::Float(f) => f >= 0.0 && f.fract() == 0.0 && f < max as f64,
        }
    }

    /// Parses CSV text as a number of any kind (integers exactly).
    pub(crate) fn parse(text: &str) -> Option<Num> {
        if let Ok(i) = text.parse::<i128>() {
            return Some(Num::Int(i));
        }
        text.parse::<f64>().ok().map(Num::Float)
    }
}

/// One of the numeric element types the loaders fill.
pub(crate) trait Scalar: Element {
    /// Size in bytes.
    const SIZE: usize;
    /// The smallest and largest value of an integer type.
    const INT_RANGE: Option<(i128, i128)>;
    /// The bits of the significand of a float type (with the implicit one).
    const SIGNIFICAND: Option<u32>;
    /// `self as i64` (exact for every integer type but large `u64`s).
    fn as_i64(self) -> i64;
    /// `self as f64`.
    fn as_f64(self) -> f64;
    /// `i as Self`.
    fn from_i64_as(i: i64) -> Self;
    /// `f as Self`.
    fn from_f64_as(f: f64) -> Self;
    /// The value as a [`Num`].
    fn to_num(self) -> Num;
    /// The value `n` if this type holds it exactly.
    fn from_num(n: Num) -> Option<Self>;
    /// Parses CSV text as this type, exactly.
    fn parse_exact(text: &str) -> Result<Self, LoadReason>;
    /// Decodes a big-endian value from exactly [`Scalar::SIZE`] bytes.
    fn from_be(bytes: &[u8]) -> Self;
    /// Decodes a little-endian value from the first [`Scalar::SIZE`] bytes of `bytes` (as
    /// Parquet stores its numbers).
    #[cfg_attr(not(feature = "parquet"), allow(dead_code))]
    fn from_le(bytes: &[u8]) -> Self;
}

/// Decimal text rounds to the nearest float, as every parser does; what is refused is a finite
/// number beyond the type's range, which would silently become infinite, and a number other
/// than zero so small that it would silently become zero. `inf`, `-inf` and `nan` written as
/// such are kept.
fn in_float_range(
    text: &str,
    infinite: bool,
    zero: bool,
    elem: &'static str,
) -> Result<(), LoadReason> {
    let unsigned = text.trim_start_matches(['+', '-']);
    let lower = unsigned.get(..3).map(str::to_ascii_lowercase);
    if matches!(lower.as_deref(), Some("inf" | "nan")) {
        return Ok(());
    }
    let mantissa = unsigned.split(['e', 'E']).next().unwrap_or_default();
    let becomes = if infinite {
        "infinite"
    } else if zero && mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b)) {
        "zero"
    } else {
        return Ok(());
    };
    Err(LoadReason::FloatRange {
        value: text.to_owned(),
        elem,
        becomes,
    })
}

/// A sample count the file can justify: samples of no values take no bytes, so a header could
/// announce any number of them (2^40 in 128 bytes), and every later step (a shuffle, an index)
/// allocates per sample. More samples than the file has bytes is refused.
pub(crate) fn justified(samples: usize, payload: usize, file_len: usize) -> Result<(), LoadReason> {
    if payload == 0 && samples > file_len {
        return Err(LoadReason::Unjustified {
            samples,
            bytes: file_len as u64,
        });
    }
    Ok(())
}

fn not_a_number(text: &str) -> LoadReason {
    LoadReason::NotANumber {
        text: text.to_owned(),
    }
}

/// An integral `f64` as an `i128`, if it is one.
fn integral(f: f64) -> Option<i128> {
    // Below 2^63 in magnitude (every value a Parquet or CSV column of numbers holds in practice),
    // `as i64` keeps an integral value and truncates any other, in one instruction: `as i128`
    // and `fract` are calls into software routines on x86-64, for every value checked.
    const I64_LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if f.abs() < I64_LIMIT {
        let i = f as i64;
        return (i as f64 == f).then_some(i128::from(i));
    }
    // 2^127: every f64 below it in magnitude converts to i128 without saturating.
    const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    (f.is_finite() && f.fract() == 0.0 && f > -LIMIT && f < LIMIT).then_some(f as i128)
}

/// The integer `i` as an `f64`, when a float of `bits` significand bits (24 for `f32`, 53 for
/// `f64`) holds it exactly: when its binary digits, from the highest one to the lowest one, are
/// at most `bits`. Integer arithmetic only: converting an `i128` to a float and back, as the
/// check was written before, is two calls into software routines a value.
fn int_as_float(i: i128, bits: u32) -> Option<f64> {
    let m = i.unsigned_abs();
    if m == 0 {
        return Some(0.0);
    }
    let low = m.trailing_zeros();
    if 128 - m.leading_zeros() - low > bits {
        return None;
    }
    // At most 53 digits, times a power of two below 2^128: both exact, and so their product.
    let digits = (m >> low) as u64 as f64;
    let scale = f64::from_bits((u64::from(low) + 1023) << 52);
    let f = digits * scale;
    Some(if i < 0 { -f } else { f })
}

macro_rules! int_scalars {
    ($($t:ident),*) => {$(
        impl Scalar for $t {
            const SIZE: usize = core::mem::size_of::<$t>();
            const INT_RANGE: Option<(i128, i128)> = Some((<$t>::MIN as i128, <$t>::MAX as i128));
            const SIGNIFICAND: Option<u32> = None;
            #[inline(always)]
            fn as_i64(self) -> i64 { self as i64 }
            #[inline(always)]
            fn as_f64(self) -> f64 { self as f64 }
            #[inline(always)]
            fn from_i64_as(i: i64) -> Self { i as $t }
            #[inline(always)]
            fn from_f64_as(f: f64) -> Self { f as $t }
            #[inline]
            fn to_num(self) -> Num { Num::Int(self as i128) }
            #[inline]
            fn from_num(n: Num) -> Option<Self> {
                match n {
                    Num::Int(i) => <$t>::try_from(i).ok(),
                    Num::Float(f) => integral(f).and_then(|i| <$t>::try_from(i).ok()),
                }
            }
            fn parse_exact(text: &str) -> Result<Self, LoadReason> {
                // The common case first: an integer written plainly, in range.
                if let Ok(v) = text.parse::<$t>() {
                    return Ok(v);
                }
                let n = Num::parse(text).ok_or_else(|| not_a_number(text))?;
                Self::from_num(n).ok_or_else(|| LoadReason::Inexact {
                    value: text.to_owned(),
                    elem: <$t as Element>::NAME,
                })
            }
            #[inline]
            fn from_be(bytes: &[u8]) -> Self {
                let mut b = [0u8; core::mem::size_of::<$t>()];
                b.copy_from_slice(bytes);
                <$t>::from_be_bytes(b)
            }
            #[inline(always)]
            fn from_le(bytes: &[u8]) -> Self {
                let mut b = [0u8; core::mem::size_of::<$t>()];
                b.copy_from_slice(&bytes[..Self::SIZE]);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}
int_scalars!(u8, i8, u16, i16, u32, i32, u64, i64);

impl Scalar for f64 {
    const SIZE: usize = 8;
    const INT_RANGE: Option<(i128, i128)> = None;
    const SIGNIFICAND: Option<u32> = Some(53);
    #[inline(always)]
    fn as_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn as_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_i64_as(i: i64) -> Self {
        i as f64
    }
    #[inline(always)]
    fn from_f64_as(f: f64) -> Self {
        f
    }
    #[inline]
    fn to_num(self) -> Num {
        Num::Float(self)
    }
    #[inline]
    fn from_num(n: Num) -> Option<Self> {
        match n {
            Num::Int(i) => int_as_float(i, 53),
            Num::Float(f) => Some(f),
        }
    }
    fn parse_exact(text: &str) -> Result<Self, LoadReason> {
        let v = text.parse::<f64>().map_err(|_| not_a_number(text))?;
        in_float_range(text, v.is_infinite(), v == 0.0, "f64")?;
        Ok(v)
    }
    #[inline]
    fn from_be(bytes: &[u8]) -> Self {
        let mut b = [0u8; 8];
        b.copy_from_slice(bytes);
        f64::from_be_bytes(b)
    }
    #[inline(always)]
    fn from_le(bytes: &[u8]) -> Self {
        let mut b = [0u8; 8];
        b.copy_from_slice(&bytes[..8]);
        f64::from_le_bytes(b)
    }
}

impl Scalar for f32 {
    const SIZE: usize = 4;
    const INT_RANGE: Option<(i128, i128)> = None;
    const SIGNIFICAND: Option<u32> = Some(24);
    #[inline(always)]
    fn as_i64(self) -> i64 {
        self as i64
    }
    #[inline(always)]
    fn as_f64(self) -> f64 {
        f64::from(self)
    }
    #[inline(always)]
    fn from_i64_as(i: i64) -> Self {
        i as f32
    }
    #[inline(always)]
    fn from_f64_as(f: f64) -> Self {
        f as f32
    }
    #[inline]
    fn to_num(self) -> Num {
        Num::Float(f64::from(self))
    }
    #[inline]
    fn from_num(n: Num) -> Option<Self> {
        match n {
            Num::Int(i) => int_as_float(i, 24).map(|f| f as f32),
            Num::Float(f) if f.is_nan() => Some(f32::NAN),
            Num::Float(f) => {
                let g = f as f32;
                (f64::from(g) == f).then_some(g)
            }
        }
    }
    fn parse_exact(text: &str) -> Result<Self, LoadReason> {
        let v = text.parse::<f32>().map_err(|_| not_a_number(text))?;
        in_float_range(text, v.is_infinite(), v == 0.0, "f32")?;
        Ok(v)
    }
    #[inline]
    fn from_be(bytes: &[u8]) -> Self {
        let mut b = [0u8; 4];
        b.copy_from_slice(bytes);
        f32::from_be_bytes(b)
    }
    #[inline(always)]
    fn from_le(bytes: &[u8]) -> Self {
        let mut b = [0u8; 4];
        b.copy_from_slice(&bytes[..4]);
        f32::from_le_bytes(b)
    }
}

/// `true` when every value of `T` is exactly a value of `U` (`u8 -> f32`, `i32 -> i64`,
/// `f32 -> f64`): the conversion needs no check.
pub(crate) fn lossless<T: Scalar, U: Scalar>() -> bool {
    match (T::INT_RANGE, U::INT_RANGE, T::SIGNIFICAND, U::SIGNIFICAND) {
        (Some((tmin, tmax)), Some((umin, umax)), _, _) => umin <= tmin && tmax <= umax,
        (Some((tmin, tmax)), None, _, Some(bits)) => {
            let limit = 1i128 << bits;
            -limit <= tmin && tmax <= limit
        }
        (None, None, Some(t), Some(u)) => t <= u,
        _ => false,
    }
}

/// `v` as a `U`, exactly, by the rule of [`convert_values`]: `as` where every `T` is a `U`
/// ([`lossless`]), otherwise `None` for a value that `U` does not hold.
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
#[inline(always)]
pub(crate) fn exact<T: Scalar, U: Scalar>(v: T) -> Option<U> {
    if lossless::<T, U>() {
        Some(if T::INT_RANGE.is_some() {
            U::from_i64_as(v.as_i64())
        } else {
            U::from_f64_as(v.as_f64())
        })
    } else {
        U::from_num(v.to_num())
    }
}

/// A computation generic over the element type, run for the type a space holds.
pub(crate) trait ForScalar {
    /// The error of the computation.
    type Err;
    /// Runs the computation producing values of type `T`.
    fn run<T: Scalar>(self) -> Result<Vec<T>, Self::Err>;
}

/// `v` as a `Vec<E>` when `T` and `E` are the same type.
pub(crate) fn same_vec<T: 'static, E: 'static>(v: Vec<T>) -> Option<Vec<E>> {
    let boxed: Box<dyn Any> = Box::new(v);
    boxed.downcast::<Vec<E>>().ok().map(|b| *b)
}

/// Runs `task` for the element type `E`; `Err(UnsupportedElement)` for an element type that is
/// not one of the ten numeric types.
pub(crate) fn run_for<E: Element, F: ForScalar>(
    task: F,
) -> Result<Result<Vec<E>, F::Err>, LoadReason> {
    macro_rules! try_types {
        ($($t:ident),*) => {$(
            if TypeId::of::<E>() == TypeId::of::<$t>() {
                return Ok(task.run::<$t>().map(|v| {
                    same_vec::<$t, E>(v).unwrap_or_else(|| unreachable!("E is {}", stringify!($t)))
                }));
            }
        )*};
    }
    try_types!(u8, i8, u16, i16, u32, i32, u64, i64, f32, f64);
    Err(LoadReason::UnsupportedElement { elem: E::NAME })
}

/// A value that does not fit: at which index of the values, and why.
pub(crate) type BadValue = (usize, LoadReason);

/// Converts `values` (as stored, of type `T`) into the element type of `S`, exactly; for index
/// spaces every value must also be a label in `0..max_labels`.
pub(crate) fn convert_values<S: Space, T: Scalar>(
    values: Vec<T>,
) -> Result<Result<Vec<S::Elem>, BadValue>, LoadReason> {
    if let Some(max) = S::MAX_LABELS
        && let Some(i) = values.iter().position(|v| !v.to_num().label_below(max))
    {
        return Ok(Err((
            i,
            LoadReason::Label {
                value: values[i].to_string(),
                max_labels: max,
            },
        )));
    }
    if TypeId::of::<T>() == TypeId::of::<S::Elem>() {
        let same = same_vec::<T, S::Elem>(values)
            .unwrap_or_else(|| unreachable!("T and S::Elem are the same type"));
        return Ok(Ok(same));
    }
    struct Task<T>(Vec<T>);
    impl<T: Scalar> ForScalar for Task<T> {
        type Err = BadValue;
        fn run<U: Scalar>(self) -> Result<Vec<U>, BadValue> {
            if lossless::<T, U>() {
                // `as` through i64 or f64 keeps every value here; no check is needed.
                return Ok(if T::INT_RANGE.is_some() {
                    self.0.iter().map(|v| U::from_i64_as(v.as_i64())).collect()
                } else {
                    self.0.iter().map(|v| U::from_f64_as(v.as_f64())).collect()
                });
            }
            self.0
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    U::from_num(v.to_num()).ok_or_else(|| {
                        (
                            i,
                            LoadReason::Inexact {
                                value: v.to_string(),
                                elem: U::NAME,
                            },
                        )
                    })
                })
                .collect()
        }
    }
    run_for::<S::Elem, _>(Task(values))
}

/// Appends `values` (as stored, of type `T`) to `out`, converted into the element type of `S`
/// exactly, as [`convert_values`] does; when the types are the same the values are copied once,
/// with no vector in between (what the Parquet reader does for every page it decodes).
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub(crate) fn convert_append<S: Space, T: Scalar>(
    values: &[T],
    out: &mut Vec<S::Elem>,
) -> Result<Result<(), BadValue>, LoadReason> {
    if S::MAX_LABELS.is_none()
        && let Some(same) = (out as &mut dyn Any).downcast_mut::<Vec<T>>()
    {
        same.extend_from_slice(values);
        return Ok(Ok(()));
    }
    Ok(convert_values::<S, T>(values.to_vec())?.map(|v| out.extend(v)))
}

/// The static sizes of one sample of `S` in memory order (the batch axis left out), or an
/// error for a space with a dynamic axis (a sequence).
pub(crate) fn sample_dims<S: Space>() -> Result<Vec<usize>, LoadReason> {
    if S::TIME_AXIS.is_some() {
        return Err(LoadReason::UnsupportedSpace {
            space: S::describe(),
            why: "its time axis has no static size (only spaces of static sample shape load as a `Batch`; sequences of different lengths are `Ragged` fields, read from Parquet list columns)",
        });
    }
    S::check_space().map_err(|reason| LoadReason::Invalid {
        error: Box::new(SpecError::Space {
            space: S::describe(),
            reason,
        }),
    })?;
    Ok(S::SHAPE
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != S::BATCH_AXIS)
        .map(|(_, s)| s.unwrap_or(0))
        .collect())
}

/// `true` when ndarray can hold an array of `shape` of `size`-byte elements: the product of the
/// non-zero lengths (what ndarray checks, even for an empty array) and the number of bytes both
/// fit in `isize`.
pub(crate) fn addressable(shape: &[usize], size: usize) -> bool {
    let nonzero = shape
        .iter()
        .filter(|&&n| n != 0)
        .try_fold(1usize, |a, &n| a.checked_mul(n));
    let bytes = shape.iter().try_fold(size, |a, &n| a.checked_mul(n));
    let fits = |n: Option<usize>| n.is_some_and(|n| n <= isize::MAX as usize);
    fits(nonzero) && fits(bytes)
}

/// `true` when samples of shape `file` (the file's axes after the first) hold the samples of a
/// space of sample shape `space`: the same sizes once axes of size 1 are dropped
/// (`[28, 28]` for an image 28×28×1), or the same total when either side is flat, at most one
/// axis per sample (a vector of 784 takes `[28, 28]`, an image 28×28×1 takes `[784]` in its
/// memory order, labels take `[]`).
pub(crate) fn sample_fits(file: &[usize], space: &[usize]) -> bool {
    let squeeze = |d: &[usize]| d.iter().copied().filter(|&n| n != 1).collect::<Vec<_>>();
    if squeeze(file) == squeeze(space) {
        return true;
    }
    (space.len() <= 1 || file.len() <= 1)
        && file.iter().try_fold(1usize, |a, &n| a.checked_mul(n))
            == Some(space.iter().product::<usize>())
}

/// A batch of `n` samples of `S` from `values`, sample after sample, each sample in the memory
/// order of `S`'s axes (the batch axis left out): moved to where `S` keeps its batch axis.
pub(crate) fn batch_from_samples<S: Space>(
    n: usize,
    values: Vec<S::Elem>,
) -> Result<Batch<S>, LoadReason> {
    let dims = sample_dims::<S>()?;
    let invalid = |error: SpecError| LoadReason::Invalid {
        error: Box::new(error),
    };
    let mut shape = Vec::with_capacity(dims.len() + 1);
    shape.push(n);
    shape.extend_from_slice(&dims);
    let samples = Array::from_shape_vec(IxDyn(&shape), values).map_err(|_| {
        invalid(SpecError::Rank {
            space: S::describe(),
            expected: S::SHAPE.len(),
            actual: shape.len(),
            shape: Shape(shape.clone()),
        })
    })?;
    let data = if S::BATCH_AXIS == 0 {
        samples
    } else {
        // Axis i of the batch is axis perm[i] of the samples: the batch axis is axis 0 there.
        let perm: Vec<usize> = (0..shape.len())
            .map(|i| match i.cmp(&S::BATCH_AXIS) {
                core::cmp::Ordering::Less => i + 1,
                core::cmp::Ordering::Equal => 0,
                core::cmp::Ordering::Greater => i,
            })
            .collect();
        samples
            .permuted_axes(IxDyn(&perm))
            .as_standard_layout()
            .into_owned()
    };
    Batch::<S>::from_dyn(data).map_err(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The rule as it was written before its fast paths, through `i128` and float conversions:
    /// the reference the fast paths are held to.
    fn reference_integral(f: f64) -> Option<i128> {
        const LIMIT: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
        (f.is_finite() && f.fract() == 0.0 && f > -LIMIT && f < LIMIT).then_some(f as i128)
    }

    fn reference_f64(i: i128) -> Option<f64> {
        let f = i as f64;
        (reference_integral(f) == Some(i)).then_some(f)
    }

    fn reference_f32(i: i128) -> Option<f32> {
        let f = i as f32;
        (reference_integral(f64::from(f)) == Some(i)).then_some(f)
    }

    /// Integers of a few binary digits shifted anywhere (the ones floats hold), and any others.
    fn integers() -> impl Strategy<Value = i128> {
        prop_oneof![
            any::<i64>().prop_map(i128::from),
            any::<u64>().prop_map(i128::from),
            (any::<u64>(), 0u32..64, 0u32..100, any::<bool>()).prop_map(|(d, cut, shift, neg)| {
                let m = i128::from(d >> cut) << shift.min(62 + cut);
                if neg { -m } else { m }
            }),
            (i128::MIN + 1..=i128::MAX),
        ]
    }

    /// Floats of every kind: integral ones of any size, fractions, the limits, NaN and infinities.
    fn floats() -> impl Strategy<Value = f64> {
        prop_oneof![
            any::<f64>(),
            any::<i64>().prop_map(|i| i as f64),
            (any::<i32>(), 0i32..80).prop_map(|(i, e)| f64::from(i) * 2f64.powi(e)),
            (any::<i32>(), 1i32..30).prop_map(|(i, e)| f64::from(i) / 2f64.powi(e)),
            prop::sample::select(vec![
                0.0,
                -0.0,
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                9_223_372_036_854_775_808.0,
                -9_223_372_036_854_775_808.0,
                9_223_372_036_854_774_784.0,
                18_446_744_073_709_551_616.0,
                f64::MAX,
                f64::MIN_POSITIVE,
            ]),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// An integer is a float exactly when the reference finds it so, and as the same float.
        #[test]
        fn integers_as_floats_by_the_reference(i in integers()) {
            let bits = |f: Option<f64>| f.map(f64::to_bits);
            prop_assert_eq!(bits(f64::from_num(Num::Int(i))), bits(reference_f64(i)));
            let bits = |f: Option<f32>| f.map(f32::to_bits);
            prop_assert_eq!(bits(f32::from_num(Num::Int(i))), bits(reference_f32(i)));
        }

        /// A float is an integer exactly when the reference finds it so, and the same integer,
        /// for every integer type.
        #[test]
        fn floats_as_integers_by_the_reference(f in floats()) {
            prop_assert_eq!(integral(f), reference_integral(f));
            let r = reference_integral(f);
            prop_assert_eq!(i8::from_num(Num::Float(f)), r.and_then(|i| i8::try_from(i).ok()));
            prop_assert_eq!(u16::from_num(Num::Float(f)), r.and_then(|i| u16::try_from(i).ok()));
            prop_assert_eq!(i64::from_num(Num::Float(f)), r.and_then(|i| i64::try_from(i).ok()));
            prop_assert_eq!(u64::from_num(Num::Float(f)), r.and_then(|i| u64::try_from(i).ok()));
        }
    }

    #[test]
    fn integers_at_the_edge_of_a_float() {
        // 2^24 + 1 needs 25 binary digits: not an f32; 2^24 and 2^40 * 3 are.
        assert_eq!(f32::from_num(Num::Int((1 << 24) + 1)), None);
        assert_eq!(f32::from_num(Num::Int(1 << 24)), Some(16_777_216.0));
        assert_eq!(
            f32::from_num(Num::Int(-(3 << 40))),
            Some(-3.0 * 2f32.powi(40))
        );
        assert_eq!(f64::from_num(Num::Int((1 << 53) + 1)), None);
        assert_eq!(f64::from_num(Num::Int(i128::from(u64::MAX))), None);
        assert_eq!(f64::from_num(Num::Int(1 << 100)), Some(2f64.powi(100)));
        // -2^127 is a float; the rule before refused it (its limit excluded it): the one value
        // where the two differ.
        assert_eq!(f64::from_num(Num::Int(i128::MIN)), Some(-(2f64.powi(127))));
        assert_eq!(reference_f64(i128::MIN), None);
    }

    #[test]
    fn exact_conversions() {
        assert_eq!(u8::parse_exact("16"), Ok(16));
        assert_eq!(u8::parse_exact("16.0"), Ok(16));
        assert!(matches!(
            u8::parse_exact("3.5"),
            Err(LoadReason::Inexact { .. })
        ));
        assert!(matches!(
            u8::parse_exact("300"),
            Err(LoadReason::Inexact { .. })
        ));
        assert!(matches!(
            u8::parse_exact("-1"),
            Err(LoadReason::Inexact { .. })
        ));
        assert!(matches!(
            u8::parse_exact("x"),
            Err(LoadReason::NotANumber { .. })
        ));
        assert!(matches!(
            u8::parse_exact("nan"),
            Err(LoadReason::Inexact { .. })
        ));
        assert!(matches!(
            f32::parse_exact("1e39"),
            Err(LoadReason::FloatRange {
                becomes: "infinite",
                ..
            })
        ));
        assert_eq!(f32::parse_exact("0.5"), Ok(0.5));
        assert_eq!(f32::from_num(Num::Int(16_777_216)), Some(16_777_216.0));
        assert_eq!(f32::from_num(Num::Int(16_777_217)), None);
        assert_eq!(f32::from_num(Num::Float(0.1)), None);
        assert_eq!(i64::from_num(Num::Float(1e300)), None);
        assert_eq!(u64::from_num(Num::Int(-1)), None);
    }

    #[test]
    fn lossless_pairs() {
        assert!(lossless::<u8, f32>());
        assert!(lossless::<i16, f32>());
        assert!(!lossless::<i32, f32>());
        assert!(lossless::<i32, f64>());
        assert!(!lossless::<i64, f64>());
        assert!(lossless::<u8, i64>());
        assert!(lossless::<u32, i64>());
        assert!(!lossless::<u64, i64>());
        assert!(!lossless::<i8, u8>());
        assert!(lossless::<f32, f64>());
        assert!(!lossless::<f64, f32>());
        assert!(!lossless::<f32, i64>());
    }

    #[test]
    fn fits() {
        assert!(sample_fits(&[28, 28], &[28, 28, 1]));
        assert!(sample_fits(&[28, 28], &[784]));
        assert!(sample_fits(&[784], &[784]));
        assert!(sample_fits(&[], &[]));
        assert!(sample_fits(&[], &[1]));
        assert!(!sample_fits(&[28, 28], &[28, 27, 1]));
        assert!(!sample_fits(&[28, 28, 3], &[3, 28, 28]));
        assert!(sample_fits(&[784], &[28, 28, 1]));
        assert!(!sample_fits(&[783], &[28, 28, 1]));
    }
}
