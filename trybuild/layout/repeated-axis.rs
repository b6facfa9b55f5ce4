use batchspec::prelude::*;

type L = layout!("bhhc");

fn main() {}
