// `Image` written without its total: one error at the type.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Image<32, 32, 3>>,
}

fn main() {}
