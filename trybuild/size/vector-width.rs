use batchspec::prelude::*;

const _: () = batchspec::assert_formats::<Vector<3072>, Vector<10>>();

fn main() {}
