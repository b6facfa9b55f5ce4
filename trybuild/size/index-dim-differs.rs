use batchspec::prelude::*;

// Two labels per sample cannot become three.
const _: () = batchspec::format::assert_formats::<Index<10, 2>, Index<10, 3>>();

fn main() {}
