// An order of a volume's five axes that has no name (`BHWDC`): one error, naming the layouts
// with names and how to write this order, not rustc's unresolved name with another space's
// layout (`BHWC`) as its suggestion.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "scans")]
    x: Batch<volume![8, 32, 32, 1; BHWDC]>,
}

fn main() {}
