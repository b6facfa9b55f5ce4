use batchspec::prelude::*;

const _: () = batchspec::format::assert_formats::<Index<10>, Index<100>>();

fn main() {}
