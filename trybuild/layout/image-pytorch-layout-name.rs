// PyTorch's name for a layout in `image!`: one error, which says that the batch axis is `B` here
// and what to write (no second error from the derive, no suggestion to add a type parameter).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<image![32, 32, 3; NCHW, f32]>,
}

fn main() {}
