use batchspec::prelude::*;

// Every mistake of the struct is reported in one run, each on its own token.
#[derive(DataSpec)]
struct Record {
    #[spec(sourc = "features")]
    x: Batch<Vector<3>>,
    #[spec(source = "")]
    y: Batch<Index<10>>,
    z: &'static Batch<Vector<3>>,
}

fn main() {}
