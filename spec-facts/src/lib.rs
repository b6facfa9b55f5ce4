//! The facts that [batchspec](https://docs.rs/batchspec)'s core and its derive both need, in one
//! place: the derive reads them when it expands, the core builds its types from them (and checks
//! at compile time that its types agree). No dependencies, so the derive stays quick to build.
#![no_std]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate alloc;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One axis: its letter in layout strings, the name of its marker type, and its name in words.
#[derive(Clone, Copy, Debug)]
pub struct AxisFact {
    /// The letter, as in `layout!(bhwc)`.
    pub letter: char,
    /// The marker type (`B`, `H`, ...).
    pub marker: &'static str,
    /// The axis in words, for messages.
    pub word: &'static str,
}

/// Every axis, in the order messages list them.
pub const AXES: [AxisFact; 8] = [
    AxisFact {
        letter: 'b',
        marker: "B",
        word: "batch",
    },
    AxisFact {
        letter: 'f',
        marker: "F",
        word: "feature",
    },
    AxisFact {
        letter: 't',
        marker: "T",
        word: "time",
    },
    AxisFact {
        letter: 'c',
        marker: "C",
        word: "channel",
    },
    AxisFact {
        letter: 'h',
        marker: "H",
        word: "height",
    },
    AxisFact {
        letter: 'w',
        marker: "W",
        word: "width",
    },
    AxisFact {
        letter: 'd',
        marker: "D",
        word: "depth",
    },
    AxisFact {
        letter: 'k',
        marker: "K",
        word: "index",
    },
];

/// The axis whose marker type is `marker`.
///
/// # Panics
/// At compile time (the core calls it in constants) when no axis has that marker.
pub const fn axis(marker: &str) -> AxisFact {
    let mut i = 0;
    while i < AXES.len() {
        if str_eq(AXES[i].marker, marker) {
            return AXES[i];
        }
        i += 1;
    }
    panic!("no axis has this marker")
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The most axes a layout has (a volume sequence: batch, time, depth, height, width, channel).
pub const MAX_RANK: usize = 6;

/// The longest source name, in characters (the `char` parameters of the core's `Src`).
pub const MAX_SOURCE_LEN: usize = 32;

/// The sources the library names as types of their own: `(name, type)`. `#[spec(source =
/// "features")]` is the type `Features`; any other name is a type-level string.
pub const NAMED_SOURCES: [(&str, &str); 2] = [("features", "Features"), ("targets", "Targets")];

/// The space types of the core, each a family of its own (its `Space::Form` is the marker of the
/// same name and the suffix `Form` in the core's `form` module): a record that holds one source
/// in fields of different families, each written by one of these names (or its macro), serves
/// each family from its field.
pub const SPACE_FAMILIES: [&str; 17] = [
    "Vector",
    "Scalar",
    "Index",
    "Labels",
    "OneHot",
    "Image",
    "Volume",
    "VolumeSeq",
    "Window",
    "VectorSeq",
    "IndexSeq",
    "Lengths",
    "Mask",
    "Segments",
    "Positions",
    "Attention",
    "CuSeqlens",
];

/// A space whose type carries its total size beside its sizes, because stable Rust cannot
/// multiply const parameters in a type: the derive checks a hand-written total.
#[derive(Clone, Copy, Debug)]
pub struct SizedSpaceFact {
    /// The type's name (`Image`).
    pub name: &'static str,
    /// The macro that writes the type with its total (`image`).
    pub macro_name: &'static str,
    /// The sizes, in the order of the type's const parameters; the total follows them.
    pub sizes: &'static [&'static str],
    /// The space in words, with its article (`an image`).
    pub noun: &'static str,
}

/// `Image<H, W, C, N, ..>`: rows, columns, channels, then the total `N`.
pub const IMAGE: SizedSpaceFact = SizedSpaceFact {
    name: "Image",
    macro_name: "image",
    sizes: &["rows", "columns", "channels"],
    noun: "an image",
};

/// `Volume<D, H, W, C, N, ..>`: depth, rows, columns, channels, then the total `N`.
pub const VOLUME: SizedSpaceFact = SizedSpaceFact {
    name: "Volume",
    macro_name: "volume",
    sizes: &["depth", "rows", "columns", "channels"],
    noun: "a volume",
};

/// `Window<W, C, N, ..>`: steps, channels, then the total `N`.
pub const WINDOW: SizedSpaceFact = SizedSpaceFact {
    name: "Window",
    macro_name: "window",
    sizes: &["steps", "channels"],
    noun: "a window",
};

/// The spaces that carry their total.
pub const SIZED_SPACES: [SizedSpaceFact; 3] = [IMAGE, VOLUME, WINDOW];

/// Names a user may write for a layout in `image!`, `volume!` or `window!` that are not layouts,
/// each with the message that says what to write: the `N` of PyTorch and TensorFlow (`NCHW`),
/// the letters in lower case (`bchw`), an order of an image's four axes or a window's three that
/// has no name (`BHCW`, often a typo of a named one; `CWB`), and a layout without its batch axis
/// (`CHW`). The macros refuse them with this message (one error, at the macro), and the derive
/// then names the field's type nowhere else, so that the message is the only error. The orders
/// of a volume's five axes without a name are [`volume_order_mistakes`].
pub const LAYOUT_NAME_MISTAKES: &[(&str, &str)] = &[
    (
        "NHWC",
        "`NHWC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BHWC`",
    ),
    (
        "nhwc",
        "`nhwc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BHWC`",
    ),
    (
        "bhwc",
        "`bhwc` is not a layout: write `BHWC` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "NCHW",
        "`NCHW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCHW`",
    ),
    (
        "nchw",
        "`nchw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCHW`",
    ),
    (
        "bchw",
        "`bchw` is not a layout: write `BCHW` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "CHWN",
        "`CHWN` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CHWB`",
    ),
    (
        "chwn",
        "`chwn` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CHWB`",
    ),
    (
        "chwb",
        "`chwb` is not a layout: write `CHWB` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "NWHC",
        "`NWHC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWHC`",
    ),
    (
        "nwhc",
        "`nwhc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWHC`",
    ),
    (
        "bwhc",
        "`bwhc` is not a layout: write `BWHC` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "HWCN",
        "`HWCN` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `HWCB`",
    ),
    (
        "hwcn",
        "`hwcn` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `HWCB`",
    ),
    (
        "hwcb",
        "`hwcb` is not a layout: write `HWCB` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "CNHW",
        "`CNHW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CBHW`",
    ),
    (
        "cnhw",
        "`cnhw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `CBHW`",
    ),
    (
        "cbhw",
        "`cbhw` is not a layout: write `CBHW` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "BHCW",
        "`BHCW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(bhcw)`",
    ),
    (
        "bhcw",
        "`bhcw` is not a layout: write `layout!(bhcw)` (names are upper case, and `BHCW` is not one of them)",
    ),
    (
        "BWCH",
        "`BWCH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(bwch)`",
    ),
    (
        "bwch",
        "`bwch` is not a layout: write `layout!(bwch)` (names are upper case, and `BWCH` is not one of them)",
    ),
    (
        "BCWH",
        "`BCWH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(bcwh)`",
    ),
    (
        "bcwh",
        "`bcwh` is not a layout: write `layout!(bcwh)` (names are upper case, and `BCWH` is not one of them)",
    ),
    (
        "HBWC",
        "`HBWC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hbwc)`",
    ),
    (
        "hbwc",
        "`hbwc` is not a layout: write `layout!(hbwc)` (names are upper case, and `HBWC` is not one of them)",
    ),
    (
        "HBCW",
        "`HBCW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hbcw)`",
    ),
    (
        "hbcw",
        "`hbcw` is not a layout: write `layout!(hbcw)` (names are upper case, and `HBCW` is not one of them)",
    ),
    (
        "HWBC",
        "`HWBC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hwbc)`",
    ),
    (
        "hwbc",
        "`hwbc` is not a layout: write `layout!(hwbc)` (names are upper case, and `HWBC` is not one of them)",
    ),
    (
        "HCBW",
        "`HCBW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hcbw)`",
    ),
    (
        "hcbw",
        "`hcbw` is not a layout: write `layout!(hcbw)` (names are upper case, and `HCBW` is not one of them)",
    ),
    (
        "HCWB",
        "`HCWB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(hcwb)`",
    ),
    (
        "hcwb",
        "`hcwb` is not a layout: write `layout!(hcwb)` (names are upper case, and `HCWB` is not one of them)",
    ),
    (
        "WBHC",
        "`WBHC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wbhc)`",
    ),
    (
        "wbhc",
        "`wbhc` is not a layout: write `layout!(wbhc)` (names are upper case, and `WBHC` is not one of them)",
    ),
    (
        "WBCH",
        "`WBCH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wbch)`",
    ),
    (
        "wbch",
        "`wbch` is not a layout: write `layout!(wbch)` (names are upper case, and `WBCH` is not one of them)",
    ),
    (
        "WHBC",
        "`WHBC` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(whbc)`",
    ),
    (
        "whbc",
        "`whbc` is not a layout: write `layout!(whbc)` (names are upper case, and `WHBC` is not one of them)",
    ),
    (
        "WHCB",
        "`WHCB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(whcb)`",
    ),
    (
        "whcb",
        "`whcb` is not a layout: write `layout!(whcb)` (names are upper case, and `WHCB` is not one of them)",
    ),
    (
        "WCBH",
        "`WCBH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wcbh)`",
    ),
    (
        "wcbh",
        "`wcbh` is not a layout: write `layout!(wcbh)` (names are upper case, and `WCBH` is not one of them)",
    ),
    (
        "WCHB",
        "`WCHB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(wchb)`",
    ),
    (
        "wchb",
        "`wchb` is not a layout: write `layout!(wchb)` (names are upper case, and `WCHB` is not one of them)",
    ),
    (
        "CBWH",
        "`CBWH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(cbwh)`",
    ),
    (
        "cbwh",
        "`cbwh` is not a layout: write `layout!(cbwh)` (names are upper case, and `CBWH` is not one of them)",
    ),
    (
        "CHBW",
        "`CHBW` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(chbw)`",
    ),
    (
        "chbw",
        "`chbw` is not a layout: write `layout!(chbw)` (names are upper case, and `CHBW` is not one of them)",
    ),
    (
        "CWBH",
        "`CWBH` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(cwbh)`",
    ),
    (
        "cwbh",
        "`cwbh` is not a layout: write `layout!(cwbh)` (names are upper case, and `CWBH` is not one of them)",
    ),
    (
        "CWHB",
        "`CWHB` is not a layout name: the image layouts with names are `BHWC`, `BCHW`, `BWHC`, `CHWB`, `HWCB` and `CBHW`; write another order of the axes as `layout!(cwhb)`",
    ),
    (
        "cwhb",
        "`cwhb` is not a layout: write `layout!(cwhb)` (names are upper case, and `CWHB` is not one of them)",
    ),
    (
        "HWC",
        "`HWC` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BHWC`",
    ),
    (
        "hwc",
        "`hwc` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BHWC`",
    ),
    (
        "CHW",
        "`CHW` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BCHW`",
    ),
    (
        "chw",
        "`chw` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BCHW`",
    ),
    (
        "WHC",
        "`WHC` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BWHC`",
    ),
    (
        "whc",
        "`whc` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `BWHC`",
    ),
    (
        "HCW",
        "`HCW` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bhcw)`",
    ),
    (
        "hcw",
        "`hcw` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bhcw)`",
    ),
    (
        "WCH",
        "`WCH` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bwch)`",
    ),
    (
        "wch",
        "`wch` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bwch)`",
    ),
    (
        "CWH",
        "`CWH` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bcwh)`",
    ),
    (
        "cwh",
        "`cwh` is not a layout: an image's layout names its batch axis too (`B`, in any place): write `layout!(bcwh)`",
    ),
    (
        "NDHWC",
        "`NDHWC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BDHWC`",
    ),
    (
        "ndhwc",
        "`ndhwc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BDHWC`",
    ),
    (
        "bdhwc",
        "`bdhwc` is not a layout: write `BDHWC` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "NCDHW",
        "`NCDHW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCDHW`",
    ),
    (
        "ncdhw",
        "`ncdhw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCDHW`",
    ),
    (
        "bcdhw",
        "`bcdhw` is not a layout: write `BCDHW` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "DHWC",
        "`DHWC` is not a layout: a volume's layout names its batch axis too (`B`, in any place): write `BDHWC`",
    ),
    (
        "dhwc",
        "`dhwc` is not a layout: a volume's layout names its batch axis too (`B`, in any place): write `BDHWC`",
    ),
    (
        "CDHW",
        "`CDHW` is not a layout: a volume's layout names its batch axis too (`B`, in any place): write `BCDHW`",
    ),
    (
        "cdhw",
        "`cdhw` is not a layout: a volume's layout names its batch axis too (`B`, in any place): write `BCDHW`",
    ),
    (
        "NWC",
        "`NWC` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWC`",
    ),
    (
        "nwc",
        "`nwc` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BWC`",
    ),
    (
        "bwc",
        "`bwc` is not a layout: write `BWC` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "NCW",
        "`NCW` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCW`",
    ),
    (
        "ncw",
        "`ncw` is not a layout: this crate calls the batch axis `B` (the `N` of PyTorch and TensorFlow): write `BCW`",
    ),
    (
        "bcw",
        "`bcw` is not a layout: write `BCW` (layout names are upper case; `layout!` takes lower-case letters)",
    ),
    (
        "WBC",
        "`WBC` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(wbc)`",
    ),
    (
        "wbc",
        "`wbc` is not a layout: write `layout!(wbc)` (names are upper case, and `WBC` is not one of them)",
    ),
    (
        "WCB",
        "`WCB` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(wcb)`",
    ),
    (
        "wcb",
        "`wcb` is not a layout: write `layout!(wcb)` (names are upper case, and `WCB` is not one of them)",
    ),
    (
        "CBW",
        "`CBW` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(cbw)`",
    ),
    (
        "cbw",
        "`cbw` is not a layout: write `layout!(cbw)` (names are upper case, and `CBW` is not one of them)",
    ),
    (
        "CWB",
        "`CWB` is not a layout name: the window layouts with names are `BWC` and `BCW`; write another order of the axes as `layout!(cwb)`",
    ),
    (
        "cwb",
        "`cwb` is not a layout: write `layout!(cwb)` (names are upper case, and `CWB` is not one of them)",
    ),
    (
        "WC",
        "`WC` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BWC`",
    ),
    (
        "wc",
        "`wc` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BWC`",
    ),
    (
        "CW",
        "`CW` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BCW`",
    ),
    (
        "cw",
        "`cw` is not a layout: a window's layout names its batch axis too (`B`, in any place): write `BCW`",
    ),
];

/// The volume layouts with names (`volume![..; BDHWC]`); the other 118 orders of the five axes
/// are written with `layout!` (`layout!(bhwdc)`).
pub const VOLUME_LAYOUT_NAMES: [&str; 2] = ["BDHWC", "BCDHW"];

/// The message for a layout name in `image!`, `volume!` or `window!` that is not a layout: a
/// name of [`LAYOUT_NAME_MISTAKES`], or one of [`volume_order_mistakes`].
pub fn layout_name_mistake(name: &str) -> Option<String> {
    LAYOUT_NAME_MISTAKES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, m)| (*m).to_string())
        .or_else(|| volume_order_mistake(name))
}

/// An order of a volume's five axes (`B`, `D`, `H`, `W`, `C`) that has no name, in upper case
/// (`BHWDC`) or lower case (`bhwdc`), with its message; a named order in lower case (`bdhwc`) is
/// in [`LAYOUT_NAME_MISTAKES`].
pub fn volume_order_mistake(name: &str) -> Option<String> {
    let upper = name.to_ascii_uppercase();
    let is_order = upper.len() == 5 && "BDHWC".chars().all(|a| upper.contains(a));
    if !is_order || VOLUME_LAYOUT_NAMES.contains(&upper.as_str()) {
        return None;
    }
    let lower = name.to_ascii_lowercase();
    if name == upper {
        Some(format!(
            "`{upper}` is not a layout name: the volume layouts with names are `BDHWC` and `BCDHW`; write another order of the axes as `layout!({lower})`"
        ))
    } else if name == lower {
        Some(format!(
            "`{lower}` is not a layout: write `layout!({lower})` (names are upper case, and `{upper}` is not one of them)"
        ))
    } else {
        None
    }
}

/// Every name [`volume_order_mistake`] refuses, with its message: the 118 orders of a volume's
/// five axes without a name, each in upper and in lower case.
pub fn volume_order_mistakes() -> Vec<(String, String)> {
    fn orders(rest: &str, prefix: &mut String, out: &mut Vec<String>) {
        if rest.is_empty() {
            out.push(prefix.clone());
        }
        for (i, a) in rest.char_indices() {
            prefix.push(a);
            orders(&format!("{}{}", &rest[..i], &rest[i + 1..]), prefix, out);
            prefix.pop();
        }
    }
    let mut all = Vec::new();
    orders("BDHWC", &mut String::new(), &mut all);
    all.into_iter()
        .flat_map(|o| [o.clone(), o.to_ascii_lowercase()])
        .filter_map(|n| volume_order_mistake(&n).map(|m| (n, m)))
        .collect()
}
