// `serve` infers the request from the binding; a space that does not convert is reported there.
use batchspec::prelude::*;
use batchspec::mapping::{ServeCache, serve};

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
}

#[derive(DataSpec)]
struct Conv {
    #[spec(source = "features")]
    x: Batch<image![32, 32, 1; BCHW, f32]>,
}

fn step(record: &Record) {
    let conv: Conv = serve(record, &mut ServeCache::new());
    let _ = conv.x.array();
}

fn main() {
    let _ = step;
}
