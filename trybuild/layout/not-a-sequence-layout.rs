use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<VectorSeq<64, BHWC>>,
}

fn main() {}
