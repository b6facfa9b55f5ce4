// Pylearn2's `(target_vecspace, "features")`: the model asks for 10-wide features but the
// dataset's features are 3072 wide.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Dataset {
    #[spec(source = "features")]
    x: Batch<Vector<3072>>,
    #[spec(source = "targets")]
    y: Batch<Vector<10>>,
}

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector<10>>,
}

const _: () = batchspec::mapping::assert_serves::<Dataset, ModelInput>();

fn main() {}
