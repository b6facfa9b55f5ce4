use batchspec::prelude::*;

const _: () = batchspec::format::assert_formats::<volume![8, 32, 32, 1], Vector<1024>>();

fn main() {}
