//! Sources: which data a leaf of a spec comes from (`"features"`, `"targets"`, `"mask"`).
//!
//! A source is a type, so that two structs naming the same string agree at compile time with
//! nothing declared anywhere: `#[spec(source = "mask")]` becomes `Src<'m', 'a', 's', 'k'>`, and
//! every struct that writes `"mask"` gets that same type. The name is available at run time as
//! [`Source::NAME`]. Write a source type yourself with the [`source!`](crate::types::source) macro
//! (`source!("mask")`) or take the predefined [`Features`] and [`Targets`], which are the types of
//! `"features"` and `"targets"` (named types, so that messages about Pylearn2 pairs read
//! `Features`, not a list of chars).

use core::fmt;

/// The longest source name, in characters.
pub const MAX_SOURCE_LEN: usize = batchspec_facts::MAX_SOURCE_LEN;

// `Src` below has one `char` parameter per character of the longest name.
const _: () = assert!(MAX_SOURCE_LEN == 32, "Src has 32 char parameters");

/// A source name as a type: one `char` parameter per character, unused ones `'\0'`.
///
/// Written by the derive and by `source!("...")`; compiler messages show it as
/// `Src<'f', 'e', 'a', 't', 'u', 'r', 'e', 's'>`.
///
/// The 32 parameters are written out three times in this file, and only three: here, in the
/// [`Source`] impl and in the `Debug` impl (every other trait is derived). Stable Rust has no
/// `&'static str` const parameters and no variadic generics, so a type-level string is a fixed
/// list of `char`s.
#[derive(Clone, Copy, Default)]
pub struct Src<
    const C0: char,
    const C1: char = '\0',
    const C2: char = '\0',
    const C3: char = '\0',
    const C4: char = '\0',
    const C5: char = '\0',
    const C6: char = '\0',
    const C7: char = '\0',
    const C8: char = '\0',
    const C9: char = '\0',
    const C10: char = '\0',
    const C11: char = '\0',
    const C12: char = '\0',
    const C13: char = '\0',
    const C14: char = '\0',
    const C15: char = '\0',
    const C16: char = '\0',
    const C17: char = '\0',
    const C18: char = '\0',
    const C19: char = '\0',
    const C20: char = '\0',
    const C21: char = '\0',
    const C22: char = '\0',
    const C23: char = '\0',
    const C24: char = '\0',
    const C25: char = '\0',
    const C26: char = '\0',
    const C27: char = '\0',
    const C28: char = '\0',
    const C29: char = '\0',
    const C30: char = '\0',
    const C31: char = '\0',
>;

/// A source: a type naming one kind of data of a dataset.
pub trait Source: 'static + Send + Sync {
    /// The name, as written in `#[spec(source = "...")]`.
    const NAME: &'static str;

    /// The name as UTF-8 bytes and their length, for [`Src`] to compute [`Source::NAME`] from
    /// its `char`s at compile time. Leave it out when implementing `Source` by hand.
    #[doc(hidden)]
    const __UTF8: ([u8; 4 * MAX_SOURCE_LEN], usize) = ([0; 4 * MAX_SOURCE_LEN], 0);
}

impl<
    const C0: char,
    const C1: char,
    const C2: char,
    const C3: char,
    const C4: char,
    const C5: char,
    const C6: char,
    const C7: char,
    const C8: char,
    const C9: char,
    const C10: char,
    const C11: char,
    const C12: char,
    const C13: char,
    const C14: char,
    const C15: char,
    const C16: char,
    const C17: char,
    const C18: char,
    const C19: char,
    const C20: char,
    const C21: char,
    const C22: char,
    const C23: char,
    const C24: char,
    const C25: char,
    const C26: char,
    const C27: char,
    const C28: char,
    const C29: char,
    const C30: char,
    const C31: char,
> Source
    for Src<
        C0,
        C1,
        C2,
        C3,
        C4,
        C5,
        C6,
        C7,
        C8,
        C9,
        C10,
        C11,
        C12,
        C13,
        C14,
        C15,
        C16,
        C17,
        C18,
        C19,
        C20,
        C21,
        C22,
        C23,
        C24,
        C25,
        C26,
        C27,
        C28,
        C29,
        C30,
        C31,
    >
{
    const __UTF8: ([u8; 4 * MAX_SOURCE_LEN], usize) = encode([
        C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, C13, C14, C15, C16, C17, C18, C19,
        C20, C21, C22, C23, C24, C25, C26, C27, C28, C29, C30, C31,
    ]);
    const NAME: &'static str = match core::str::from_utf8(Self::__UTF8.0.split_at(Self::__UTF8.1).0)
    {
        Ok(s) => s,
        Err(_) => "",
    };
}

impl<
    const C0: char,
    const C1: char,
    const C2: char,
    const C3: char,
    const C4: char,
    const C5: char,
    const C6: char,
    const C7: char,
    const C8: char,
    const C9: char,
    const C10: char,
    const C11: char,
    const C12: char,
    const C13: char,
    const C14: char,
    const C15: char,
    const C16: char,
    const C17: char,
    const C18: char,
    const C19: char,
    const C20: char,
    const C21: char,
    const C22: char,
    const C23: char,
    const C24: char,
    const C25: char,
    const C26: char,
    const C27: char,
    const C28: char,
    const C29: char,
    const C30: char,
    const C31: char,
> fmt::Debug
    for Src<
        C0,
        C1,
        C2,
        C3,
        C4,
        C5,
        C6,
        C7,
        C8,
        C9,
        C10,
        C11,
        C12,
        C13,
        C14,
        C15,
        C16,
        C17,
        C18,
        C19,
        C20,
        C21,
        C22,
        C23,
        C24,
        C25,
        C26,
        C27,
        C28,
        C29,
        C30,
        C31,
    >
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "source {:?}", <Self as Source>::NAME)
    }
}

const fn encode(chars: [char; MAX_SOURCE_LEN]) -> ([u8; 4 * MAX_SOURCE_LEN], usize) {
    let mut out = [0u8; 4 * MAX_SOURCE_LEN];
    let mut n = 0;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\0' {
            break;
        }
        let mut tmp = [0u8; 4];
        let len = chars[i].encode_utf8(&mut tmp).len();
        let mut j = 0;
        while j < len {
            out[n] = tmp[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    (out, n)
}

/// The source `"features"`: what a model usually takes as input. `#[spec(source = "features")]`
/// and `source!("features")` name this type, and compiler messages show it as `Features`.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Features;

impl Source for Features {
    const NAME: &'static str = batchspec_facts::NAMED_SOURCES[0].0;
}

/// The source `"targets"`: what a model tries to predict. `#[spec(source = "targets")]` and
/// `source!("targets")` name this type, and compiler messages show it as `Targets`.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq, Hash)]
pub struct Targets;

impl Source for Targets {
    const NAME: &'static str = batchspec_facts::NAMED_SOURCES[1].0;
}

// The named sources are these two types, in this order.
const _: () = assert!(
    batchspec_facts::NAMED_SOURCES.len() == 2
        && matches!(batchspec_facts::NAMED_SOURCES[0].1.as_bytes(), b"Features")
        && matches!(batchspec_facts::NAMED_SOURCES[1].1.as_bytes(), b"Targets")
);
