use batchspec::prelude::*;

#[derive(DataSpec)]
struct Dataset {
    #[spec(source = "features")]
    x: Batch<image![8, 8, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    y: Batch<Index<10>>,
}

// Labels cannot become an image.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "targets")]
    y: Batch<image![8, 8, 1]>,
}

const _: () = batchspec::mapping::assert_serves::<Dataset, Request>();

fn main() {}
