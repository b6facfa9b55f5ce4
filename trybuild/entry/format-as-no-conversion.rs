// `Batch::format_as` into a space the batch's space has no conversion to: one error in words,
// without a list of the conversions that exist.
use batchspec::prelude::*;

fn to_labels(b: &Batch<Vector<10>>) -> Batch<Index<10>> {
    b.format_as::<Index<10>>()
}

fn main() {}
