use batchspec::prelude::*;

// f32 -> u8 loses values: only a `_lossy` method does it.
const _: () = batchspec::format::assert_formats::<Vector<3, f32>, Vector<3, u8>>();

fn main() {}
