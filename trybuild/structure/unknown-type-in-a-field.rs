// A name that does not resolve in a field's type: rustc's one error at the name, with its
// suggestion (the derive's copies of the type keep its spans, so rustc merges their errors).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vectr<10>>,
}

fn main() {}
