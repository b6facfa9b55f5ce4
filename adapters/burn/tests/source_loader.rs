//! `SourceLoader`: any batchspec source as burn's `DataLoader`. A Parquet stream (a file written
//! by pyarrow, uneven row groups) served through it gives the stream's batches as tensors, each
//! `iter()` an epoch; a loader made from a source resumed from a saved state continues the
//! epoch with exactly the batches the uninterrupted loader served; a sliced loader says in an
//! error why it cannot be.

use batchspec::data::BatchSource;
use batchspec::load::{ParquetFiles, ParquetStream, Rank, ShardPlan};
use batchspec::prelude::*;
use batchspec_burn::SourceLoader;
use burn::data::dataloader::DataLoader;
use burn::tensor::{Device, Int, Tensor};

#[derive(DataSpec)]
struct Ids {
    #[spec(source = "id")]
    id: Batch<Index<100, 1, i64>>,
}

fn stream() -> ParquetStream<Ids> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../spec-core/tests/data/parquet/uneven.parquet"
    );
    let files = ParquetFiles::open(path).unwrap();
    let plan = ShardPlan::new(&files, Rank::new(0, 1).unwrap())
        .unwrap()
        .shuffle(5);
    ParquetStream::<Ids>::new(&files, &plan, 0, 4, 2)
}

fn epoch(loader: &SourceLoader<impl BatchSource<Ids> + Send + 'static, Ids>) -> Vec<Vec<i64>> {
    loader
        .iter()
        .map(|b| {
            let id: Tensor<2, Int> = b.unwrap().id;
            id.into_data().iter::<i64>().collect()
        })
        .collect()
}

#[test]
fn a_parquet_stream_is_burns_data_loader_and_resumes_mid_epoch() {
    let loader = SourceLoader::new(stream().prefetched(1), &Device::flex());
    assert_eq!(loader.num_items(), 33);
    let first = epoch(&loader);
    let second = epoch(&loader);
    assert_eq!(first.iter().map(Vec::len).sum::<usize>(), 33);
    assert_ne!(first, second, "each epoch its own shuffle");
    let mut direct = stream();
    direct.start_epoch(1);
    let direct: Vec<Vec<i64>> = std::iter::from_fn(|| direct.next_batch())
        .map(|b| b.unwrap().id.array().iter().copied().collect())
        .collect();
    assert_eq!(second, direct, "the stream's own batches");

    // A run stopped after 3 batches of epoch 1, its state saved; a new loader from it.
    let mut run = stream();
    run.start_epoch(1);
    for _ in 0..3 {
        run.next_owned();
    }
    let saved = serde_json::to_string(&run.state()).unwrap();
    let mut resumed = stream();
    resumed
        .resume(&serde_json::from_str(&saved).unwrap())
        .unwrap();
    let loader = SourceLoader::new(resumed.prefetched(2), &Device::flex());
    assert_eq!(loader.next_epoch(), 1);
    assert_eq!(epoch(&loader), second[3..], "the rest of epoch 1");
    let mut fresh = stream();
    fresh.start_epoch(2);
    let third: Vec<Vec<i64>> = std::iter::from_fn(|| fresh.next_batch())
        .map(|b| b.unwrap().id.array().iter().copied().collect())
        .collect();
    assert_eq!(epoch(&loader), third, "then epoch 2 from its start");
}

#[test]
fn a_sliced_source_loader_serves_one_error_in_words() {
    let loader = SourceLoader::new(stream(), &Device::flex());
    let sliced = loader.slice(0, 10);
    let items: Vec<_> = sliced.iter().collect();
    assert_eq!(items.len(), 1);
    let message = items.into_iter().next().unwrap().err().unwrap().to_string();
    assert!(
        message.contains("a SourceLoader cannot be sliced"),
        "{message}"
    );
    // The loader itself is untouched.
    assert_eq!(epoch(&loader).iter().map(Vec::len).sum::<usize>(), 33);
}
