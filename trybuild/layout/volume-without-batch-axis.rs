// A volume layout without its batch axis: one error, with the layout to write.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "scans")]
    x: Batch<volume![8, 32, 32, 1; DHWC]>,
}

fn main() {}
