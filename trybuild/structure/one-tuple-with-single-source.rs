// Pylearn2: `(CompositeSpace((input_vecspace,)), "features")` is incorrect: the source must be
// a tuple of length 1.
use batchspec::prelude::*;
use batchspec::mapping;

const N: usize = mapping::leaves::<(Vector<3072>,), Features>();

fn main() {}
