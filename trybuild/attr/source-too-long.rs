use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features_of_the_validation_set_v2")]
    x: Batch<Vector<3>>,
}

fn main() {}
