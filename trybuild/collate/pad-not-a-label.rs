use batchspec::prelude::*;

// Labels are 0..50: a pad value of 50 would be an invalid token id.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "tokens", pad = 50)]
    tokens: Batch<IndexSeq<50>>,
}

fn main() {}
