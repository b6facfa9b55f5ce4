// Model code written once over the spec traits: the caller's pair is checked at the call.
use batchspec::prelude::*;
use batchspec::mapping::Serves;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

#[derive(DataSpec)]
struct Input<S: Space> {
    #[spec(source = "features")]
    x: Batch<S>,
}

fn fit<R: Serves<Q>, Q: DataSpec>(_record: &R) {}

fn main() {
    let record = Record {
        image: Batch::zeros(1, 0),
    };
    fit::<Record, Input<Vector<100>>>(&record);
}
