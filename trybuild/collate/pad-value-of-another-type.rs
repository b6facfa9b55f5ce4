use batchspec::prelude::*;

// The audio is f32: its pad value is a float.
#[derive(DataSpec)]
struct Request {
    #[spec(source = "audio", pad = 1)]
    audio: Batch<VectorSeq<2>>,
}

fn main() {}
