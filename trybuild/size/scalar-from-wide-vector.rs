use batchspec::prelude::*;

// dp's `b` of a `bf` needs `f` to be 1: three features are not one value per sample.
const _: () = batchspec::format::assert_formats::<Vector<3>, Scalar>();

fn main() {}
