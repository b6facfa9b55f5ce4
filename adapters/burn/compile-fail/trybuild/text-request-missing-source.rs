// A model's request of packed text rows that asks for a source the packer does not compute:
// refused where the request is made.
use batchspec::prelude::*;
use batchspec_text::{TextColumn, TextStream};

#[derive(DataSpec)]
struct LmBatch {
    #[spec(source = "tokens")]
    x: Batch<IndexSeq<1024>>,
    #[spec(source = "labels")]
    y: Batch<IndexSeq<1024>>,
}

fn batches(stream: TextStream<TextColumn, 1024>) {
    let _ = stream.request::<LmBatch>();
}

fn main() {}
