// A space without its size: rustc's one error at the space, with its suggestion (the derive
// names the type nowhere else, so nothing repeats it).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector>,
}

fn main() {}
