use batchspec::prelude::*;
use batchspec::mapping::{ServeCache, serve};

#[derive(DataSpec)]
struct Record {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<50>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "tokens", pad_to = 16, truncate)]
    tokens: Batch<IndexSeq<50>>,
}

fn main() {
    let record = Record { tokens: Ragged::empty(0) };
    // `serve` builds whole sources; a policy is applied batch by batch by providers.
    let _: Request = serve(&record, &mut ServeCache::new());
}
