// A provider pairs a record with a request where it is made: the mismatch is reported at
// `Provider::new`, once, in the words of the request's field.
use batchspec::data::Dataset;
use batchspec::iteration::Schedule;
use batchspec::prelude::*;
use batchspec::data::Provider;

#[derive(DataSpec)]
struct Record {
    #[spec(source = "features")]
    image: Batch<image![28, 28, 1; BHWC, u8]>,
    #[spec(source = "targets")]
    label: Batch<Index<10>>,
}

#[derive(DataSpec)]
struct ModelInput {
    #[spec(source = "features")]
    x: Batch<Vector<784>>,
    #[spec(source = "mask")]
    mask: Batch<Vector<784>>,
}

fn train(ds: &Dataset<Record>) -> Result<(), batchspec::Error> {
    let schedule = Schedule::builder(ds.len()).batch_size(32).build()?;
    let mut provider = Provider::<Record, ModelInput>::new(ds, schedule)?;
    while let Some(b) = provider.next_batch() {
        let _ = b.batch.x.array();
    }
    Ok(())
}

fn main() {
    let _ = train;
}
