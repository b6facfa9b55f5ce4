use batchspec::prelude::*;

// u8 -> i8 loses the values above 127: refused like any lossy cast, and rustc names the one
// cast of u8 it shows (u8 -> f64), not every cast of the library.
const _: () = batchspec::format::assert_formats::<Vector<3, u8>, Vector<3, i8>>();

fn main() {}
