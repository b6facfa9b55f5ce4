//! The attribute keys the derive knows.

/// `#[spec(...)]`
pub const SPEC: &str = "spec";
/// `#[spec(source = "...")]` on a field.
pub const SOURCE: &str = "source";
/// `#[spec(crate = "...")]` on the struct.
pub const CRATE: &str = "crate";
/// The keys accepted on a field.
pub const FIELD_KEYS: &[&str] = &[SOURCE];
/// The keys accepted on the struct.
pub const CONTAINER_KEYS: &[&str] = &[CRATE];
