// Pylearn2: four flat spaces paired with a nested source tree are incorrect, even though the
// number of leaves matches.
use batchspec::prelude::*;
use batchspec::Specs;

type V = Vector<3072>;

const N: usize =
    Specs::<(V, V, V, Vector<10>), ((Features, Features, Features), Targets)>::LEAVES;

fn main() {}
