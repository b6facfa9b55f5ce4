use batchspec::prelude::*;

const _: () = batchspec::assert_formats::<Index<10>, Index<100>>();

fn main() {}
