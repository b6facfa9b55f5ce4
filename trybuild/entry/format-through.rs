use batchspec::prelude::*;

// A chain of conversions whose second step does not exist: the vector of 3072 is not a vector
// of 10.
fn to_logits(x: &Batch<image![32, 32, 3; BHWC, u8]>) -> Batch<Vector<10>> {
    x.format_through::<(image![32, 32, 3; BCHW, f32], Vector<10>)>()
}

fn main() {}
