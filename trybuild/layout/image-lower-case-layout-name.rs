// A layout name in lower case in `image!`: one error, with the name to write.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<image![32, 32, 3; bchw]>,
}

fn main() {}
