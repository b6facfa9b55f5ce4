use batchspec::prelude::*;

// A vector of floats has no conversion to labels.
const _: () = batchspec::format::assert_formats::<Vector<10>, Index<10>>();

fn main() {}
