use batchspec::prelude::*;

// A window's axes are b, w, c: an image layout is not one of its orders.
#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Window<2, 5, 10, BHWC>>,
}

fn main() {}
