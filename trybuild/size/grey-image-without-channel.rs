// A grey image written without its channel, in a derived struct's field: one error that says
// what `image!` takes (not "no rules expected `;`", and not repeated by the derive).
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28; BHWC, u8]>,
}

fn main() {}
