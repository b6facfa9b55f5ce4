// A bare name that resolves nowhere inside a field's type (`F32` for `f32`): rustc reports it at
// the name twice, once for the struct (with a suggestion to add a type parameter) and once for
// the derive's copy of the type, which no derived item can make identical. See `KNOWN` in
// `tests/snapshots.rs`.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector<3, F32>>,
}

fn main() {}
