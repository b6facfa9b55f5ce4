use batchspec::prelude::*;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "image")]
    image: Batch<image![32, 32, 3; BHWC, u8]>,
    #[spec(source = "label")]
    label: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct Request {
    #[spec(source = "image")]
    image: Batch<image![32, 32, 3; BCHW, f32]>,
    #[spec(source = "label", mixed_with = "image")]
    label: Batch<OneHot<10>>,
}

fn main() {}
