// Pylearn2: `(CompositeSpace((input_vecspace,)), "features")` is incorrect: the source must be
// a tuple of length 1.
use batchspec::prelude::*;
use batchspec::Specs;

const N: usize = Specs::<(Vector<3072>,), Features>::LEAVES;

fn main() {}
