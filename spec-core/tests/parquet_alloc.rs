//! A Parquet stream's steady state allocates nothing: `fill_next` on rows already read writes
//! the batch, converted, into the request without touching the heap (reading a window is the
//! decoder's business, and it allocates). Its own test binary, so the counting allocator sees
//! only this.
#![cfg(feature = "parquet")]

use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
use batchspec::prelude::*;

#[path = "../../tests/common/mod.rs"]
mod common;

#[global_allocator]
static GLOBAL: common::Counting = common::Counting;

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<100>>,
}

#[derive(DataSpec)]
struct OneHot {
    #[spec(source = "id")]
    id: Batch<Vector<100>>,
}

#[test]
fn fill_next_allocates_nothing_between_windows() {
    // `uneven.parquet`: 33 ids in 9 row groups of 5, 3, 7, 1, 4, 3, 2, 6, 2 rows.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/parquet/uneven.parquet"
    );
    let files = ParquetFiles::open(path).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(5);
    let mut stream = ParquetStream::<Ids>::new(&files, &plan, 0, 2, 3);
    let mut out = OneHot {
        id: Batch::zeros(2, 0),
    };
    let (mut quiet, mut rows) = (0, 0);
    loop {
        // Enough rows held for the batch: no window is read by this call.
        let held = stream.buffered() >= 2.min(stream.remaining());
        let before = common::allocations();
        let Some(n) = stream.fill_next(&mut out) else {
            break;
        };
        let allocated = common::allocations() - before;
        rows += n.unwrap();
        if held {
            assert_eq!(allocated, 0, "a batch from rows already read allocated");
            quiet += 1;
        }
    }
    assert_eq!(rows, 33);
    assert!(
        quiet >= 10,
        "most batches come from rows already read ({quiet})"
    );
}
