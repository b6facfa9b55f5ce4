use batchspec::prelude::*;

type L = layout!(NCHW);

fn main() {}
