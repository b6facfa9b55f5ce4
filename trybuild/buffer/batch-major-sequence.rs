use batchspec::buffer::LayoutSpec;
use batchspec::prelude::*;

fn main() {
    // Brainstorm's time-sized buffers are (T, B, F): a batch-major sequence is not one.
    let mut spec = LayoutSpec::new();
    spec.layer("Input").output_of::<VectorSeq<5, BTF>>("default");
}
