use batchspec::prelude::*;

type L = layout!(bdhwctf);

fn main() {}
