use batchspec::prelude::*;

// Pylearn2's VectorSpace(12) -> Conv2DSpace((2, 2), 3) works; 13 does not.
const _: () = batchspec::format::assert_formats::<Vector<12>, image![2, 2, 3; BCHW]>();
const _: () = batchspec::format::assert_formats::<Vector<13>, image![2, 2, 3; BCHW]>();

fn main() {}
