//! Saved states with a damaged position, for the properties that resume from them (the core's
//! resume and Parquet tests, the text package's, which includes this file by its path).

use batchspec::data::SourceState;
use proptest::prelude::*;

/// `state` with its epoch, batch count and sample count replaced where `edits` says (through
/// its serialized form, as a damaged file would give it).
pub fn edited(state: &SourceState, edits: [Option<u64>; 3]) -> SourceState {
    let mut v = serde_json::to_value(state).unwrap();
    for (key, e) in ["epoch", "batches", "samples"].iter().zip(edits) {
        if let Some(e) = e {
            v[*key] = serde_json::json!(e);
        }
    }
    serde_json::from_value(v).unwrap()
}

/// A count left as it is, small, or anywhere up to `u64::MAX`.
pub fn position() -> impl Strategy<Value = Option<u64>> {
    prop_oneof![
        Just(None),
        (0u64..40).prop_map(Some),
        Just(Some(u64::MAX)),
        Just(Some(u64::MAX / 2)),
        any::<u64>().prop_map(Some),
    ]
}
