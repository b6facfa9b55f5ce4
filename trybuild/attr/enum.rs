use batchspec::prelude::*;

#[derive(DataSpec)]
enum Record {
    Image(Batch<Vector<3>>),
    Label(Batch<Index<10>>),
}

fn main() {}
