use batchspec::prelude::*;

// `Labels` holds one label per sample; an index of two per sample does not fit it.
const _: () = batchspec::format::assert_formats::<Index<10, 2>, Index<10, 1>>();
const _: () = batchspec::format::assert_formats::<Labels<10>, Index<10, 2>>();

fn main() {}
