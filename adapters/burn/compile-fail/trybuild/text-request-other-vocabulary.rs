// A request of token ids in 0..512 from a stream whose tokenizer was checked for ids in 0..1024.
use batchspec::prelude::*;
use batchspec_text::{TextColumn, TextStream};

#[derive(DataSpec)]
struct LmBatch {
    #[spec(source = "tokens")]
    x: Batch<IndexSeq<512>>,
    #[spec(source = "positions")]
    pos: Batch<Positions>,
}

fn batches(stream: TextStream<TextColumn, 1024>) {
    let _ = stream.request::<LmBatch>();
}

fn main() {}
