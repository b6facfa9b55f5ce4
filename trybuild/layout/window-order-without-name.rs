// An order of a window's three axes that has no name (`CWB`): one error, naming the layouts with
// names and how to write this order, not rustc's unresolved name (twice, for the struct and the
// derive) with the image layout `CHWB` as its suggestion.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "sensors")]
    x: Batch<window![2, 5; CWB]>,
}

fn main() {}
