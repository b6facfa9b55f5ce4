//! The attribute keys the derive knows.

/// `#[spec(...)]`
pub const SPEC: &str = "spec";
/// `#[spec(source = "...")]` on a field.
pub const SOURCE: &str = "source";
/// `#[spec(pad = ..)]` on a sequence field: the value of padding steps.
pub const PAD: &str = "pad";
/// `#[spec(pad_to = N)]` on a sequence field: every batch has `N` steps.
pub const PAD_TO: &str = "pad_to";
/// `#[spec(truncate)]` on a sequence field: longer samples are cut.
pub const TRUNCATE: &str = "truncate";
/// `#[spec(lengths_of = "...")]`: the lengths of a sequence source's samples.
pub const LENGTHS_OF: &str = "lengths_of";
/// `#[spec(mask_of = "...")]`: which steps of a sequence source's padded batch are data.
pub const MASK_OF: &str = "mask_of";
/// `#[spec(augment = Type)]` on an image field: the augmentation it goes through.
pub const AUGMENT: &str = "augment";
/// `#[spec(mixed_with = "...")]` on a one-hot field: mixed with the pairs of an augmented source.
pub const MIXED_WITH: &str = "mixed_with";
/// `#[spec(crate = "...")]` on the struct.
pub const CRATE: &str = "crate";
/// The keys accepted on a field.
pub const FIELD_KEYS: &[&str] = &[
    SOURCE, PAD, PAD_TO, TRUNCATE, LENGTHS_OF, MASK_OF, AUGMENT, MIXED_WITH,
];
/// The keys accepted on the struct.
pub const CONTAINER_KEYS: &[&str] = &[CRATE];
