// Upper-case letters inside a derived struct's field (as the prelude's alias or PyTorch write
// layouts): one error for the layout, saying how to write it, not one per letter.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<Image<32, 32, 3, 3072, layout!(BHWC)>>,
}

fn main() {}
