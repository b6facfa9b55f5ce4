use batchspec::prelude::*;

const _: () = batchspec::format::assert_formats::<image![32, 32, 3; BHWC], image![28, 28, 3; BCHW]>();

fn main() {}
