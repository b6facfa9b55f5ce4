// A request with a `lengths_of` field loaded as a dataset from a file: no file holds the lengths
// a provider computes, and the error says so at `Dataset::load`, before anything runs.
use batchspec::data::Dataset;
use batchspec::load::LeafSource;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct LmInput {
    #[spec(source = "tokens", pad = 9)]
    tokens: Batch<IndexSeq<10>>,
    #[spec(lengths_of = "tokens")]
    len: Batch<Lengths>,
}

fn load<L: LeafSource>(source: &mut L) -> Result<Dataset<LmInput>, L::Error> {
    Dataset::<LmInput>::load(source)
}

fn main() {
    let _ = load::<batchspec::load::NpyFiles>;
}
