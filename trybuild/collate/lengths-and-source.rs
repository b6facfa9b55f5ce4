use batchspec::prelude::*;

#[derive(DataSpec)]
struct Request {
    #[spec(source = "tokens", lengths_of = "tokens")]
    len: Batch<Lengths>,
}

fn main() {}
