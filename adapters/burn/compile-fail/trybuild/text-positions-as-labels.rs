// Positions asked for as token ids: a computed leaf converts into its own kind only.
use batchspec::prelude::*;
use batchspec_text::{TextColumn, TextStream};

#[derive(DataSpec)]
struct LmBatch {
    #[spec(source = "tokens")]
    x: Batch<IndexSeq<1024>>,
    #[spec(source = "positions")]
    pos: Batch<IndexSeq<1024>>,
}

fn batches(stream: TextStream<TextColumn, 1024>) {
    let _ = stream.request::<LmBatch>();
}

fn main() {}
