use batchspec::prelude::*;

// IndexSpace(max_labels=4, dim=2) as VectorSpace(5): neither merged (4) nor concatenated (8).
const _: () = batchspec::format::assert_formats::<Index<4, 2>, Vector<5>>();

fn main() {}
