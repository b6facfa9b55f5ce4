// TensorFlow's name for a window's layout (`NWC`, the `data_format` of its 1-D convolutions):
// one error that says this crate's name for it.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "sensors")]
    x: Batch<window![2, 5; NWC, f64]>,
}

fn main() {}
