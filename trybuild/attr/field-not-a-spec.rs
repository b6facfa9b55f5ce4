// A field of a type of the user's own that is not a spec (a nested struct without the derive).
use batchspec::prelude::*;

struct Thing;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
    extra: Thing,
}

fn main() {}
