use batchspec::prelude::*;

type L = layout!(BCHW);

fn main() {}
