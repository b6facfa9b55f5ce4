use batchspec::prelude::*;

const _: () = batchspec::format::assert_formats::<image![32, 32, 3; BHWC, u8], Vector<10>>();

fn main() {}
