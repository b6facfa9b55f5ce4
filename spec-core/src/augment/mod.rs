//! Typed augmentations fused into the gather.
//!
//! An augmentation is a type of the user's that implements [`Augmentation`]: the images it
//! reads (`type Input`, the record's space of the source) and its [`Steps`] (pad, crop, flip,
//! noise, normalize, cutout, mixup or CutMix), built in a `const`. A request names it on a field,
//! and providers serve that field augmented, while the record stays as it was loaded:
//!
//! ```
//! use batchspec::prelude::*;
//! use batchspec::augment::{Augmentation, Eval, Steps};
//!
//! #[derive(DataSpec)]
//! struct Record {
//!     #[spec(source = "image")]
//!     image: Batch<image![32, 32, 3; BHWC, u8]>,
//!     #[spec(source = "label")]
//!     label: Batch<Labels<10>>,
//! }
//!
//! struct Train;
//! impl Augmentation for Train {
//!     type Input = image![32, 32, 3; BHWC, u8];
//!     const STEPS: Steps = Steps::new()
//!         .pad(4)
//!         .random_crop(28, 28)
//!         .flip_h(0.5)
//!         .normalize(&[125.3, 123.0, 113.9], &[63.0, 62.1, 66.7]);
//! }
//!
//! /// What the model trains on: 28×28 crops, `bchw f32`.
//! #[derive(DataSpec)]
//! struct TrainInput {
//!     #[spec(source = "image", augment = Train)]
//!     image: Batch<image![28, 28, 3; BCHW, f32]>,
//!     #[spec(source = "label")]
//!     label: Batch<Labels<10>>,
//! }
//!
//! /// What it is evaluated on: the center 28×28, same normalization, no flip.
//! #[derive(DataSpec)]
//! struct EvalInput {
//!     #[spec(source = "image", augment = Eval<Train>)]
//!     image: Batch<image![28, 28, 3; BCHW, f32]>,
//!     #[spec(source = "label")]
//!     label: Batch<Labels<10>>,
//! }
//! ```
//!
//! # What is checked when
//!
//! * By the type system: the augmentation reads images (`type Input` of a vector does not
//!   compile), the record holds the source as exactly `Input`, the field is an image of a layout
//!   and element the values cast to, labels `mixed_with` a source are one-hot floats.
//! * When the derive's constant is evaluated (`cargo check`, at the field's attribute, in words
//!   with the sizes): the crop fits the padded image, reflect padding is smaller than the image,
//!   normalization has one mean and std per channel, the output has the field's rows, columns
//!   and channels, computed values (noise, normalize, mixing) go to a float field, the steps are
//!   in order. Sizes are const generics, and stable Rust cannot compare or add them in a trait
//!   bound; a constant evaluated where the request is defined is the place `cargo check` sees
//!   them (a request struct with generic parameters cannot name an augmentation).
//!
//! # Fused, deterministic
//!
//! The provider reads each sample once from the record and writes each value of the batch
//! once: crop, flip and padding are index arithmetic, noise, normalization and the cast are done
//! to the value on its way, the layout is the batch's (any of the 24 image layouts, read and
//! written through strides). Mixing pairs the batch's samples by a reflection of their positions
//! and mixes each pair in place, so no sample is copied aside and a batch allocates nothing.
//!
//! Every random choice is a pure function of `(seed, epoch, global sample index, step)`
//! (counter-based draws, [`Draws`]): a sample gets the same crop whichever thread, prefetcher or
//! rank serves it. A provider draws with its schedule's seed and the epoch it serves;
//! [`Steps::choices`] tells the choices of any sample.
#![doc = include_str!("../../doc/augment.md")]

pub(crate) mod draw;
mod fused;
mod steps;

pub use draw::Draws;
pub use fused::{AugmentsFrom, MixLabels, MixesLabels};
#[doc(hidden)]
pub use fused::{gather_augmented, mix_labels};
pub use steps::{
    Augmentation, Eval, ImageSpace, Mix, MixPair, Msg, SampleChoices, Steps, check_augment,
    check_mixed,
};
