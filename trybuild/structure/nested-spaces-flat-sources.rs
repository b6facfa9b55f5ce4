// Pylearn2: nested spaces paired with four flat sources are incorrect.
use batchspec::prelude::*;
use batchspec::Specs;

type V = Vector<3072>;

const N: usize =
    Specs::<((V, V, V), Vector<10>), (Features, Features, Features, Targets)>::LEAVES;

fn main() {}
