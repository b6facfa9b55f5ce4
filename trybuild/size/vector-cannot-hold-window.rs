use batchspec::prelude::*;

// dp's `bf` of a `bwc` window of 2 steps of 5 channels has 10 features, not 12.
const _: () = batchspec::format::assert_formats::<window![2, 5; BWC], Vector<12>>();

fn main() {}
