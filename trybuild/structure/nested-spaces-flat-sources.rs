// Pylearn2: nested spaces paired with four flat sources are incorrect.
use batchspec::prelude::*;
use batchspec::mapping;

type V = Vector<3072>;

const N: usize =
    mapping::leaves::<((V, V, V), Vector<10>), (Features, Features, Features, Targets)>();

fn main() {}
