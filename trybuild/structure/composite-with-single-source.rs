// Pylearn2: `(CompositeSpace((input_vecspace, input_convspace)), "features")` is incorrect.
use batchspec::prelude::*;
use batchspec::mapping;

type VecSpace = Vector<3072>;
type ConvSpace = image![32, 32, 3; BCHW];

const N: usize = mapping::leaves::<(VecSpace, ConvSpace), Features>();

fn main() {}
