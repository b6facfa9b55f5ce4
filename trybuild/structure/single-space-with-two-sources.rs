// Pylearn2: `(VectorSpace(10), ("features", "targets"))` fails when the mapping is built.
use batchspec::prelude::*;
use batchspec::Specs;

const N: usize = Specs::<Vector<10>, (Features, Targets)>::LEAVES;

fn main() {}
