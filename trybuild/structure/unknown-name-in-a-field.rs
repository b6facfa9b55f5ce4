// A bare name that does not resolve inside a field's type (a layout no alias spells): rustc
// reports it at the name twice, once for the struct (with a suggestion to add a type parameter)
// and once for the derive's copy of the type, which no derived item can make identical. See
// `KNOWN` in `tests/snapshots.rs`.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<image![32, 32, 3; BHCW, f32]>,
}

fn main() {}
