use batchspec::prelude::*;

const _: () = batchspec::format::assert_formats::<Vector<3072>, Vector<10>>();

fn main() {}
