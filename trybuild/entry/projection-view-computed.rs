use batchspec::data::Dataset;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<50>>,
}

// Lengths are computed batch by batch: nothing in the record to lend.
#[derive(DataSpec)]
struct WithLengths {
    #[spec(source = "tokens")]
    tokens: Ragged<IndexSeq<50>>,
    #[spec(lengths_of = "tokens")]
    lengths: Batch<Lengths>,
}

fn lent(ds: &Dataset<Record>) {
    let _ = ds.project::<WithLengths>().sample(0);
}

fn main() {}
