use batchspec::data::Dataset;
use batchspec::types::Arith;
use batchspec::prelude::*;

// Arithmetic across a dataset (`d -= mean`) needs batch fields: a ragged field has no shape to
// broadcast over.
#[derive(DataSpec)]
struct Text {
    #[spec(source = "tokens")]
    tokens: Ragged<VectorSeq<4>>,
}

fn center(ds: &mut Dataset<Text>, mean: &Text) {
    let _ = ds.apply(Arith::Sub, mean);
}

fn main() {}
