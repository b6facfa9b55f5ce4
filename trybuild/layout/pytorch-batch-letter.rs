use batchspec::prelude::*;

// PyTorch writes the batch axis `n`.
type L = layout!(nchw);

fn main() {}
