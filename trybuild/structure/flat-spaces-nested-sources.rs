// Pylearn2: four flat spaces paired with a nested source tree are incorrect, even though the
// number of leaves matches.
use batchspec::prelude::*;
use batchspec::mapping;

type V = Vector<3072>;

const N: usize =
    mapping::leaves::<(V, V, V, Vector<10>), ((Features, Features, Features), Targets)>();

fn main() {}
