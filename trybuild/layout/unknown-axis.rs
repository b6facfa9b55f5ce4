use batchspec::prelude::*;

type L = layout!(bhwx);

fn main() {}
