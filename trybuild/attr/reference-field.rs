use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record<'a> {
    #[spec(source = "features")]
    x: &'a Batch<Vector<3>>,
}

fn main() {}
