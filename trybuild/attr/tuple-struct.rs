use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record(Batch<Vector<3>>, Batch<Index<10>>);

fn main() {}
