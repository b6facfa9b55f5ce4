// Pylearn2: `(VectorSpace(10), ("features", "targets"))` fails when the mapping is built.
use batchspec::prelude::*;
use batchspec::matching;

const N: usize = matching::leaves::<Vector<10>, (Features, Targets)>();

fn main() {}
