use batchspec::prelude::*;

// An image layout given to a volume: the depth axis is missing.
const _: () = batchspec::format::assert_formats::<Volume<8, 4, 4, 1, 128, BHWC>, Vector<128>>();

fn main() {}
