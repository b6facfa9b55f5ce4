// A generic request whose batch's space is a parameter declared without `S: Space`: one error,
// the struct's own, with rustc's suggestion to add the bound.
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Input<S> {
    #[spec(source = "features")]
    x: Batch<S>,
}

fn main() {}
