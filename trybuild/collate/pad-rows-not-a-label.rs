use batchspec::prelude::*;

// The padding rows of a last batch padded to full size get the pad value; -1 is not one of the
// labels 0..10 (a loss would index out of its classes).
#[derive(DataSpec)]
struct Request {
    #[spec(source = "targets", pad = -1)]
    label: Batch<Labels<10>>,
}

fn main() {}
