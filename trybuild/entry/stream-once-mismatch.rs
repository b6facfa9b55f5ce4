// `Stream::once` over samples of another width than the request's.
use batchspec::data::Stream;
use batchspec::prelude::*;

#[derive(DataSpec)]
struct Sample {
    #[spec(source = "features")]
    x: Batch<Vector<2>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "features")]
    x: Batch<Vector<3>>,
}

fn make(samples: Vec<Sample>) {
    let _ = Stream::<Sample, Request>::once(samples.into_iter(), 4);
}

fn main() {
    let _ = make;
}
