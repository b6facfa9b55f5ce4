// The element type given to `Batch` (whose second parameter is its storage) instead of to the
// space: one error, in words, at the field's type (no ndarray trait, no cascade from the derive).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector<3072>, f32>,
}

fn main() {}
