// Pylearn2: `(VectorSpace(10), ("features", "targets"))` fails when the mapping is built.
use batchspec::prelude::*;
use batchspec::mapping;

const N: usize = mapping::leaves::<Vector<10>, (Features, Targets)>();

fn main() {}
