//! The compile errors users of `batchspec-burn` see, as trybuild snapshots (`tests/`); no code.
#![forbid(unsafe_code)]
