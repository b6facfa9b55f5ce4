// The expansion of tests/expand/foreign_layout.rs; written by `BATCHSPEC_BLESS=1 cargo test`.
// tokens: cbf29ce484222325
// spans: cbf29ce484222325
